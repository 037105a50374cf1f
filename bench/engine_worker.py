"""One engine over one PDF, in its own process: ``python bench/engine_worker.py ENGINE FILE``.

Prints one JSON object on stdout: ``status`` (ok / error), ``error`` (exception type and
message), ``text`` (pages joined by form feeds), ``pages``, ``failed_pages`` and ``seconds``
(open + extract, without interpreter start-up). Single engines are used as a careful caller
would: a page that raises is counted and skipped, the rest go on. They run under the same
2 GiB address-space limit as siftpdf's child. ``siftpdf`` runs the real parent and child.
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

MEMORY = 2 << 30


def _pdfium(data: bytes, max_pages: int) -> Iterator[Callable[[], str]]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)

    def page_text(index: int) -> str:
        page = pdf[index]
        textpage = page.get_textpage()
        try:
            return str(textpage.get_text_range())
        finally:
            textpage.close()
            page.close()

    for index in range(min(len(pdf), max_pages)):
        yield lambda index=index: page_text(index)  # type: ignore[misc]


def _pypdf(data: bytes, max_pages: int) -> Iterator[Callable[[], str]]:
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data), strict=False)
    pages = reader.pages
    for index in range(min(len(pages), max_pages)):
        yield lambda index=index: pages[index].extract_text() or ""  # type: ignore[misc]


def _plumber(data: bytes, max_pages: int) -> Iterator[Callable[[], str]]:
    import io

    import pdfplumber

    pdf = pdfplumber.open(io.BytesIO(data))
    pages = pdf.pages
    for index in range(min(len(pages), max_pages)):
        yield lambda index=index: pages[index].extract_text() or ""  # type: ignore[misc]


ENGINES = {"pdfium": _pdfium, "pypdf": _pypdf, "pdfplumber": _plumber}


def run_engine(name: str, data: bytes, max_pages: int) -> dict[str, Any]:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    texts: list[str] = []
    failed = 0
    started = time.perf_counter()
    try:
        for page in ENGINES[name](data, max_pages):
            try:
                texts.append(page())
            except Exception:  # noqa: BLE001 - a page that raises is counted, the rest go on
                texts.append("")
                failed += 1
    except Exception as exc:  # noqa: BLE001 - opening failed: the engine's typed failure
        return {"status": "error", "error": f"{type(exc).__name__}: {exc}"[:300],
                "seconds": time.perf_counter() - started}
    return {"status": "ok", "text": "\f".join(texts), "pages": len(texts), "failed_pages": failed,
            "seconds": time.perf_counter() - started}


def run_siftpdf(data: bytes, max_pages: int, deadline: float, repair: bool) -> dict[str, Any]:
    from siftpdf.child.job import Job
    from siftpdf.errors import SiftError
    from siftpdf.options import Limits
    from siftpdf.workers.runner import run_child

    texts: list[str] = []
    failed = 0
    engines: dict[str, int] = {}
    started = time.perf_counter()
    try:
        for record in run_child(data, None, Limits(deadline=deadline), Job(max_pages=max_pages, repair=repair)):
            if "page" in record:
                texts.append(record.get("text") or "")
                failed += record.get("status") == "failed"
            elif "done" in record:
                engines = record["done"].get("engines", {})
    except SiftError as error:
        return {"status": "error", "error": f"{error.code}: {error.message}"[:300],
                "seconds": time.perf_counter() - started}
    return {"status": "ok", "text": "\f".join(texts), "pages": len(texts), "failed_pages": failed,
            "engines": engines, "seconds": time.perf_counter() - started}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", choices=[*ENGINES, "siftpdf", "siftpdf-norepair"])
    parser.add_argument("file")
    parser.add_argument("--max-pages", type=int, default=40)
    parser.add_argument("--deadline", type=float, default=15.0)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    with open(args.file, "rb") as handle:
        data = handle.read()
    if args.engine.startswith("siftpdf"):
        result = run_siftpdf(data, args.max_pages, args.deadline, repair=args.engine == "siftpdf")
    else:
        result = run_engine(args.engine, data, args.max_pages)
    sys.stdout.write(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
