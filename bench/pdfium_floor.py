"""The floor of any PDFium route to a document's text: every page loaded, its text page built
and its text read, in two processes (both cores, each taking every other 32-page chunk as
siftpdf's children do), with no other work per page.

    .venv/bin/python bench/pdfium_floor.py FILE.pdf     # prints nothing; time it

``bench_extract`` times it beside ``siftpdf extract --raw`` and ``pdftotext -layout``: what
``--raw`` costs above it is siftpdf's own, and what is left of a target above it is all that
organization may spend.
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path

CHUNK = 32
WORKERS = 2


def _read(path: str, shard: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from siftpdf.child import pdfium

    pdf = pdfium.Document(Path(path).read_bytes(), None)
    for index in range(len(pdf)):
        if (index // CHUNK) % WORKERS != shard:
            continue
        page = pdfium.FPDF_LoadPage(pdf, index)
        if not page:
            continue
        textpage = pdfium.FPDFText_LoadPage(page)
        if textpage:
            count = pdfium.FPDFText_CountChars(textpage)
            if count > 0:
                buffer = ctypes.create_string_buffer((count + 1) * 2)
                pdfium.FPDFText_GetText(textpage, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)))
            pdfium.FPDFText_ClosePage(textpage)
        pdfium.FPDF_ClosePage(page)


def main(argv: list[str]) -> int:
    if len(argv) == 2:
        _read(argv[0], int(argv[1]))
        return 0
    (path,) = argv
    workers = [subprocess.Popen([sys.executable, __file__, path, str(shard)]) for shard in range(WORKERS)]
    return max(worker.wait() for worker in workers)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
