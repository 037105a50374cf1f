"""Running heads, footers and page numbers found on a page read alone, against the same page read in its document.

    python bench/bench_lone_furniture.py [--evidence DIR] [--pages N] [--half a|b|both] [--show K]

A one-page PDF (a page cut out of a paper, a scanned letter, a benchmark's page) gives no
repetition to find its furniture by: only the page's own form tells it (``_lone_furniture``).
In a document of many pages, the lines that recur in the margins are found by repetition, and
that reading is the yardstick here: each page of the corpus's multi-page documents (their first
``--pages`` pages, the evidence made once into ``--evidence`` as ``bench/rule_effect.py`` makes it)
is organized twice, in its document and alone, and the furniture lines of the two are compared.

- found: of the lines the document's repetition sets aside, the share the lone page sets aside too;
- kept right: of the lines the lone page sets aside, the share that its document sets aside as well
  (a lone-page rule may be right where repetition has nothing to go by, say a first page's
  journal line: the lines counted against it are listed to be read, not taken as wrong unread).

The documents are split into two halves by a hash of their names (``--half``), so that a rule
written while reading one half is checked on the other.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.rule_effect import make_evidence  # noqa: E402
from siftpdf.organize import organize_records  # noqa: E402
from siftpdf.settings import OrganizeOptions  # noqa: E402

RUNNING = ("header", "footer", "page_number")  # what repetition and form both find; side stamps aside
MIN_PAGES = 4  # a document read whole must give repetition something to go by


def _lines(records: list[dict[str, Any]]) -> dict[int, Counter[str]]:
    """Each page's furniture lines of the running kinds, as text."""
    return {r["page"]: Counter(" ".join(f["text"].split()) for f in r.get("furniture", []) if f["kind"] in RUNNING)
            for r in records if "page" in r}


def compare(stream: Path) -> tuple[Counter[str], list[tuple[int, str, str]]] | None:
    """Counts of furniture lines (both, document only, alone only) and the lines the two differ on."""
    records = [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines() if line.strip()]
    pages = [r for r in records if "page" in r and isinstance(r.get("evidence"), dict)]
    if len(pages) < MIN_PAGES:
        return None
    whole = _lines(organize_records([json.loads(json.dumps(r)) for r in records], OrganizeOptions()))
    counts: Counter[str] = Counter()
    differ: list[tuple[int, str, str]] = []
    for page in pages:
        number = page["page"]
        alone = _lines(organize_records([json.loads(json.dumps(page))], OrganizeOptions())).get(number, Counter())
        known = whole.get(number, Counter())
        counts["both"] += sum((known & alone).values())
        counts["document"] += sum((known - alone).values())
        counts["alone"] += sum((alone - known).values())
        differ += [(number, "missed", text) for text in (known - alone)]
        differ += [(number, "extra", text) for text in (alone - known)]
    return counts, differ


def half_of(name: str) -> str:
    return "a" if zlib.crc32(name.encode()) % 2 == 0 else "b"


def main(argv: list[str] | None = None) -> int:
    return by_halves(argv, __doc__, "lines the two readings differ on", lambda stream, _: compare(stream), _report)


def by_halves(argv: list[str] | None, doc: str | None, listed: str,
              compare_one: Callable[[Path, int], tuple[Counter[str], list[tuple[int, str, str]]] | None],
              report: Callable[[str, Counter[str]], None]) -> int:
    """A corpus benchmark's command line and loop: each document's counts (``compare_one``, over
    the evidence of its first ``--pages`` pages) summed half by half, its differences listed up
    to ``--show``, and each half reported, then the whole."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--evidence", type=Path, default=Path("/tmp/siftpdf-rule-effect"),
                        help="the corpus's doc streams with evidence (made here when the folder is empty)")
    parser.add_argument("--pages", type=int, default=12, help="pages of each PDF, when the evidence is made")
    parser.add_argument("--half", choices=("a", "b", "both"), default="both")
    parser.add_argument("--show", type=int, default=0, help=f"{listed}, to list")
    args = parser.parse_args(argv)
    if not args.evidence.is_dir() or not any(args.evidence.glob("*.jsonl")):
        make_evidence(args.evidence, args.pages)
    totals: dict[str, Counter[str]] = {half: Counter() for half in "ab"}
    shown = 0
    for stream in sorted(args.evidence.glob("*.jsonl")):
        half = half_of(stream.stem)
        if args.half not in (half, "both"):
            continue
        result = compare_one(stream, args.pages)
        if result is None:
            continue
        counts, differ = result
        totals[half].update(counts)
        for number, how, text in differ[:max(0, args.show - shown)]:
            print(f"{stream.stem[:48]:48} p{number:<3} {how:6} {text[:100]}")
        shown += min(len(differ), max(0, args.show - shown))
    for half in "ab":
        if args.half in (half, "both"):
            report(half, totals[half])
    if args.half == "both":
        report("whole", totals["a"] + totals["b"])
    return 0


def _report(name: str, counts: Counter[str]) -> None:
    found = counts["both"] / max(1, counts["both"] + counts["document"])
    right = counts["both"] / max(1, counts["both"] + counts["alone"])
    print(f"half {name}: running lines {counts['both'] + counts['document']}, found alone {found:.3f}, "
          f"kept right {right:.3f} ({counts['alone']} set aside alone only)")


def run() -> None:
    """``make bench``: both halves, nothing listed."""
    main([])


if __name__ == "__main__":
    sys.exit(main())
