"""The yardsticks' PDFs printed again by another producer, scored as the originals.

    python bench/bench_reprinted.py [dpbench icdar2013 readingorder] [--peers] [--keep DIR]

A rule that reads a page by how one producer happened to draw it (a table row as one text object
or a run a cell, a space as a glyph or a gap) fails on the same page drawn another way. Each PDF
of ../shared/bench is printed again by poppler's ``pdftocairo -pdf`` (cairo's own text objects,
glyph positions and path drawing; what the page shows is the same) and converted as
bench/quality_sets.py converts the originals; both are scored by the set's own scorer, half by
half (the same split). Cairo loses some fonts' Unicode maps (their text reads as U+FFFD in
pdftotext too) and renames some fonts (their bold goes with the name): those documents are left
out of both columns, and headings (MHS) still read what is left with care. ``--peers`` adds
pdf-inspector and liteparse on the printed PDFs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.quality_sets import ENGINES, HALVES, PEERS, SETS, convert_all, documents, ids_of, run_engine, score  # noqa: E402

SIFTPDF = [sys.executable, "-m", "siftpdf"]


def reprint(pdf: Path, into: Path) -> Path | None:
    """``pdf`` printed again by pdftocairo into ``into``; None when it failed or its text did
    not survive (a glyph pdftotext reads as U+FFFD)."""
    target = into / pdf.name
    try:
        done = subprocess.run(["pdftocairo", "-pdf", str(pdf), str(target)], capture_output=True, timeout=300)
        if done.returncode != 0 or not target.exists():
            return None
        text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True, timeout=300).stdout
    except subprocess.TimeoutExpired:
        return None  # left out, as a PDF cairo cannot print is
    return None if "\ufffd" in text.decode("utf-8", "replace") else target


def _overall(name: str, predictions: Path, ids: list[str]) -> str:
    lines = score(name, predictions, ids)["lines"]
    return " / ".join(line for line in lines if not line.startswith("worst"))


def run(name: str, folder: Path, peers: bool) -> None:
    pdfs = documents(name)
    (folder / "pdfs").mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(2) as pool:
        printed = [p for p in pool.map(lambda pdf: reprint(pdf, folder / "pdfs"), pdfs) if p is not None]
    kept = {p.stem for p in printed}
    originals = [pdf for pdf in pdfs if pdf.stem in kept]
    print(f"{name}: {len(printed)} of {len(pdfs)} PDFs printed again with their text")
    columns = [("siftpdf, original", originals, None), ("siftpdf, printed again", printed, None)]
    if peers:
        columns += [(f"{peer}, printed again", printed, peer) for peer in PEERS]
    for label, files, peer in columns:
        out = folder / label.replace(", ", "-").replace(" ", "-")
        out.mkdir(exist_ok=True)
        if peer is None:
            convert_all(files, out, SIFTPDF)
        else:
            with ThreadPoolExecutor(2) as pool:
                list(pool.map(lambda pdf, engine=ENGINES[peer], into=out: run_engine(engine, pdf, into), files))
        for half in HALVES:
            ids = [i for i in ids_of(pdfs, half) if i in kept]
            print(f"{name} {half} {label}: {_overall(name, out, ids)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", metavar="SET", help=f"of {', '.join(SETS)} (default: all)")
    parser.add_argument("--peers", action="store_true", help="pdf-inspector and liteparse on the printed PDFs too")
    parser.add_argument("--keep", type=Path, help="leave the printed PDFs and the Markdown in this folder")
    args = parser.parse_args(argv)
    missing = [tool for tool in ("pdftocairo", "pdftotext") if shutil.which(tool) is None]
    if missing:
        parser.error(f"{' and '.join(missing)} not found: install poppler-utils (apt-get install poppler-utils)")
    for name in args.sets or SETS:
        if name not in SETS:
            parser.error(f"no set {name}")
        with tempfile.TemporaryDirectory() as tmp:
            run(name, (args.keep or Path(tmp)) / name, args.peers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
