"""What one organization rule changes on real documents: the corpus organized with it and without.

    python bench/rule_effect.py NAME VALUE [--module siftpdf.organize.tables] [--evidence DIR]
                                [--pages N] [--show K]

A rule of the article layer is a named constant of its module (a threshold, a share, a count);
setting the constant to a VALUE that turns the rule off (``VOTE_ROWS 1e9``, ``RUNNING_LINES
1e9``) and organizing the same evidence again tells what the rule does beyond the pages it was
written for. The evidence is the corpus's first ``--pages`` pages (``siftpdf extract --raw --set
output.evidence=true``, made once into ``--evidence`` and reused), organized twice in this
process: each page whose Markdown differs is listed, ``--show`` of them with a diff (``-``: the
rule off, ``+``: as it is). A rule is worth keeping when what it changes there reads better.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.bench_identifiers import CORPUS  # noqa: E402
from siftpdf.organize import organize_records  # noqa: E402
from siftpdf.settings import OrganizeOptions  # noqa: E402
from siftpdf.views.markdown import page_markdown  # noqa: E402

FOLDERS = ("forms-tables", "parser-samples", "ground-truth", "samples", "paper")  # what has tables and articles


def make_evidence(into: Path, pages: int) -> None:
    """The corpus's doc streams with their evidence, one file a PDF (those that fail are left out)."""
    into.mkdir(parents=True, exist_ok=True)
    pdfs = [str(p) for folder in FOLDERS for p in sorted((CORPUS / folder).glob("*.pdf"))]
    subprocess.run([sys.executable, "-m", "siftpdf", "extract", "--no-cache", "--raw", "--set",
                    "output.evidence=true", "--max-pages", str(pages), "-o", str(into), *pdfs],
                   cwd=ROOT, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def organized(stream: Path) -> dict[int, str]:
    """Each page's Markdown, organized from the saved evidence."""
    records = [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {r["page"]: page_markdown(r) for r in organize_records(records, OrganizeOptions()) if "page" in r}


def effect(streams: list[Path], module: Any, name: str, value: Any) -> list[tuple[str, int, str, str]]:
    """(document, page, Markdown without the rule, with it) for each page the rule changes."""
    with_rule = {s: organized(s) for s in streams}
    kept = getattr(module, name)
    setattr(module, name, value)
    try:
        without = {s: organized(s) for s in streams}
    finally:
        setattr(module, name, kept)
    return [(s.stem, page, without[s].get(page, ""), text) for s in streams for page, text in with_rule[s].items()
            if without[s].get(page) != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", help="the rule's constant, e.g. VOTE_ROWS")
    parser.add_argument("value", help="a value that turns the rule off, e.g. 1e9 (read as the constant's type)")
    parser.add_argument("--module", default="siftpdf.organize.tables", help="the module that owns the constant")
    parser.add_argument("--evidence", type=Path, default=Path("/tmp/siftpdf-rule-effect"),
                        help="the corpus's doc streams with evidence (made here when the folder is empty)")
    parser.add_argument("--pages", type=int, default=12, help="pages of each PDF, when the evidence is made")
    parser.add_argument("--show", type=int, default=10, help="pages to show with a diff")
    args = parser.parse_args(argv)
    module = importlib.import_module(args.module)
    if not hasattr(module, args.name):
        parser.error(f"{args.module} has no {args.name}")
    kind = type(getattr(module, args.name))
    value = kind(float(args.value)) if kind in (int, float) else kind(args.value)
    if not any(args.evidence.glob("*.jsonl")):
        make_evidence(args.evidence, args.pages)
    streams = sorted(args.evidence.glob("*.jsonl"))
    changed = effect(streams, module, args.name, value)
    for k, (doc, page, before, after) in enumerate(changed):
        print(f"== {doc} p. {page}")
        if k < args.show:
            print("\n".join(list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))[2:]))
    print(f"{args.name}={args.value}: {len(changed)} pages of {len(streams)} documents change")
    return 0


if __name__ == "__main__":
    sys.exit(main())
