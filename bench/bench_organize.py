"""Organization against raw extraction: pages per second, same run, same machine.

    python bench/bench_organize.py          # or through bench/run.py

Each document goes through the default pipeline (extraction children, the doc stream, the
text view) once with ``--raw`` and once organized; the target is organized ≤ 2× raw.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "bench" / ".data"


def _timed(data: bytes, name: str, organized: bool) -> tuple[float, int]:
    from siftpdf.errors import SiftError
    from siftpdf.options import Extraction, ReadOptions, Sharing
    from siftpdf.settings import OrganizeOptions
    from siftpdf.sources import open_pdf_bytes
    from siftpdf.store.local_store import CacheSettings
    from siftpdf.views.text import render_page

    # Cold extraction both ways: a cache hit would measure the cache, not the work.
    options = ReadOptions(extraction=Extraction(organize=OrganizeOptions(enabled=organized)),
                          sharing=Sharing(cache=CacheSettings(enabled=False)))
    started = time.perf_counter()
    pages = 0
    try:
        with open_pdf_bytes(data, name, options) as doc:
            for record in doc.pages():
                render_page(record, first=pages == 0)
                pages += 1
    except SiftError:
        pass  # a document without text still costs its extraction
    return time.perf_counter() - started, pages


def _big_doc() -> bytes:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / "big_2100.pdf"
    if not path.exists():
        sys.path.insert(0, str(ROOT / "tests"))
        import make_fixtures

        path.write_bytes(make_fixtures.big_doc())
    return path.read_bytes()


def _row(label: str, pages: int, raw: float, org: float) -> str:
    return (f"{label:<34} {pages:>6} {raw:>8.2f} {org:>8.2f} {pages / raw:>9.0f} {pages / org:>9.0f} "
            f"{org / raw:>6.2f}×")


def run() -> None:
    print("organization vs --raw (child extraction + doc stream + text view, no cache)")
    print(f"{'document':<34} {'pages':>6} {'raw s':>8} {'org s':>8} {'raw p/s':>9} {'org p/s':>9} {'ratio':>7}")
    big = _big_doc()
    raw, pages = _timed(big, "big_2100.pdf", False)
    org, _ = _timed(big, "big_2100.pdf", True)
    print(_row("big_2100.pdf (2,000-page cap)", pages, raw, org))
    papers = sorted((CORPUS / "paper").glob("*.pdf")) if (CORPUS / "paper").is_dir() else []
    total = [0, 0.0, 0.0]
    for path in papers:
        data = path.read_bytes()
        raw, pages = _timed(data, path.name, False)
        org, _ = _timed(data, path.name, True)
        total[0] += pages
        total[1] += raw
        total[2] += org
    if papers:
        print(_row(f"corpus papers ({len(papers)} files)", int(total[0]), total[1], total[2]))
    else:
        print("corpus papers: ../shared/corpus is absent")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    run()
