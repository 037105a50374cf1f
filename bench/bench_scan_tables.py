"""Tables read from scans: the ICDAR 2013 development documents scanned, then scored as their text layer is.

    python bench/bench_scan_tables.py [--dpi 300] [--half a|b|both] [--keep DIR] [--jobs 2]

Each PDF of ../shared/bench/icdar2013 is scanned page by page as the tests scan (tests/make_scans:
rendered at ``--dpi``, turned half a degree to a degree and a half, grained, stored as JPEG in an
image-only PDF) and read by ``siftpdf extract --markdown --no-cache --ocr always``; the Markdown
is scored by the set's own scorer (adjacency relations of neighbouring cells), beside the same
documents read from their text layer (``--ocr never``), half by half (bench/quality_sets.py's
split). A table pasted as a picture, a scanned form or report, reads as a table only when its
cells are found from the word boxes' alignment and the image's ruling.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import make_scans  # noqa: E402

from bench.quality_sets import ENGINES, Engine, documents, ids_of, run_engine, score  # noqa: E402

SET = "icdar2013"


def scanned(pdf: Path, dpi: int) -> bytes:
    """Every page of ``pdf`` as a scanned image, one image-only PDF of the same page sizes."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        count = len(document)
    finally:
        document.close()
    sources = [make_scans.Source(pdf.name, index, "en", pdf.stem) for index in range(count)]
    return make_scans.mixed_pages(sources, dpi=dpi, corpus=pdf.parent)[0]


def engine(ocr: str) -> Engine:
    base = ENGINES["siftpdf"]
    command = (sys.executable, "-m", "siftpdf", "extract", "--markdown", "--no-cache", "--ocr", ocr)
    return Engine(f"siftpdf --ocr {ocr}", command, base.separator, base.joiner, None, base.how)


def read_all(pdfs: list[Path], into: Path, ocr: str, jobs: int) -> list[str]:
    """Each PDF to ``into/<id>.md``; what failed."""
    with ThreadPoolExecutor(jobs) as pool:
        return [failed for failed, _ in pool.map(lambda pdf: run_engine(engine(ocr), pdf, into), pdfs) if failed]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--half", choices=("a", "b", "both"), default="both")
    parser.add_argument("--keep", type=Path, help="leave the scans and the Markdown in this folder")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    halves = ["a", "b"] if args.half == "both" else [args.half]
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        scans, text, ocr = folder / "scans", folder / "text", folder / "ocr"
        for made in (scans, text, ocr):
            made.mkdir(parents=True, exist_ok=True)
        chosen = {doc_id for half in halves for doc_id in ids_of(documents(SET), half)}
        pdfs = [pdf for pdf in documents(SET) if pdf.stem in chosen]
        # PDFium is not thread-safe: two threads rendering in one process corrupt each other's
        # documents (a "data format error" on a sound file). The scans are made one at a time.
        for pdf in pdfs:
            (scans / pdf.name).write_bytes(scanned(pdf, args.dpi))
        failed = read_all(pdfs, text, "never", args.jobs)
        failed += read_all(sorted(scans.glob("*.pdf")), ocr, "always", args.jobs)
        for reason in failed:
            print(f"failed: {reason}", file=sys.stderr)
        print(f"\n## Tables read from scans ({SET} at {args.dpi} dpi, --ocr always) beside the text layer\n")
        for half in halves:
            ids = ids_of(documents(SET), half)
            for name, into in (("text layer", text), ("scanned", ocr)):
                line = next(line for line in score(SET, into, ids)["lines"] if line.startswith("P "))
                print(f"half {half}, {name}: {line}")
    return 0


def run() -> None:
    """``make bench``: both halves at 300 dpi."""
    main([])


if __name__ == "__main__":
    sys.exit(main())
