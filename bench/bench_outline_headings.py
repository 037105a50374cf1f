"""Headings found without the outline, against the outline the document carries.

    python bench/bench_outline_headings.py [--evidence DIR] [--pages N] [--half a|b|both] [--show K]

Many PDFs carry their own table of contents as bookmarks: the titles of their sections with
their pages and depths. siftpdf reads that outline when it is there; a page cut out of its
document, a scan and most files made by word processors have none, and their headings come
from the page alone (size and weight against the body, numbering, the space around a line).
Here each of the corpus's documents with three outline entries or more on its first ``--pages``
pages (the evidence made once into ``--evidence`` as ``bench/rule_effect.py`` makes it) is
organized with its outline taken away, and the headings found are compared with the outline:

- found: of the outline's titles on those pages, the share read as a heading (text matched
  after case, spaces and punctuation are set aside; a title may be a heading's start);
- in the outline: of the headings found, the share that is an outline title (an outline may
  leave out the lower levels a page sets as headings, so this is a floor of precision);
- levels agree: of the pairs of found titles at different outline depths, the share whose
  heading levels rank the same way.

The documents are split into two halves by a hash of their names (``--half``), so that a rule
written while reading one half is checked on the other.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.bench_lone_furniture import by_halves  # noqa: E402
from siftpdf.organize import organize_records  # noqa: E402
from siftpdf.settings import OrganizeOptions  # noqa: E402

MIN_ENTRIES = 3  # an outline with fewer titles on the pages read says little
_NUMBERING = re.compile(r"^\W*((?i:chapter|section|part|appendix)\s+)?"
                        r"(\d+(\.\d+|-(\d+|[A-Z]))*[.):]?(\s+|(?=[^\W\d]))|([IVXLC]+|[A-Z])([.-](\d+|[A-Z]))*[.):]?\s+)")


def key(text: str) -> str:
    """A title as compared: numbering, case, spaces and punctuation set aside."""
    text, before = text.strip(), None
    while text != before:  # '3. A first algorithm' and 'A first algorithm' are one title
        text, before = _NUMBERING.sub("", text), text
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def matches(title: str, heading: str) -> bool:
    one, other = key(title), key(heading)
    if len(one) < 2 or len(other) < 2:
        return False
    short, long = sorted((one, other), key=len)
    return long.startswith(short) and len(short) >= 0.6 * len(long)


def compare(stream: Path, pages: int) -> tuple[Counter[str], list[tuple[int, str, str]]] | None:
    """Counts for one document, and the titles and headings that differ (page, how, text)."""
    records = [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not records or "meta" not in records[0]:
        return None
    outline = [e for e in records[0]["meta"].get("outline") or []
               if isinstance(e, dict) and isinstance(e.get("page"), int) and e["page"] <= pages
               and isinstance(e.get("title"), str) and len(key(e["title"])) >= 2]
    read = {r["page"] for r in records if "page" in r and isinstance(r.get("evidence"), dict)}
    outline = [e for e in outline if e["page"] in read]
    if len(outline) < MIN_ENTRIES:
        return None
    records[0]["meta"]["outline"] = []
    headings = [(r["page"], b["level"], b["text"]) for r in organize_records(records, OrganizeOptions())
                if "page" in r for b in r.get("blocks", []) if b["kind"] == "heading"]
    counts: Counter[str] = Counter(documents=1, titles=len(outline), headings=len(headings))
    differ: list[tuple[int, str, str]] = []
    pairs: list[tuple[int, int]] = []  # (outline depth, heading level) of each title found
    used: set[int] = set()
    for entry in outline:
        hit = next((k for k, (page, _, text) in enumerate(headings)
                    if k not in used and abs(page - entry["page"]) <= 1 and matches(entry["title"], text)), None)
        if hit is None:
            differ.append((entry["page"], "missed", entry["title"]))
            continue
        used.add(hit)
        pairs.append((int(entry.get("level") or 1), headings[hit][1]))
    counts["found"] = len(used)
    differ += [(page, "extra", text) for k, (page, _, text) in enumerate(headings) if k not in used]
    for (depth, level), (depth2, level2) in combinations(pairs, 2):
        if depth != depth2:
            counts["ranked"] += 1
            counts["agree"] += (depth < depth2) == (level < level2) and level != level2
    return counts, differ


def main(argv: list[str] | None = None) -> int:
    return by_halves(argv, __doc__, "titles and headings that differ", compare, _report)


def _report(name: str, counts: Counter[str]) -> None:
    found = counts["found"] / max(1, counts["titles"])
    inside = counts["found"] / max(1, counts["headings"])
    agree = counts["agree"] / max(1, counts["ranked"])
    print(f"half {name}: documents {counts['documents']}, outline titles {counts['titles']}, found {found:.3f}, "
          f"in the outline {inside:.3f} of {counts['headings']} headings, levels agree {agree:.3f}")


def run() -> None:
    """``make bench``: both halves, nothing listed."""
    main([])


if __name__ == "__main__":
    sys.exit(main())
