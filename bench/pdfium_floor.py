"""The floor of any PDFium route to a document's text: every page loaded, its text page built
and its text read, with no other work per page, in two processes started as siftpdf's
extraction children are (``python -I -S`` on their import path, each taking its chunks of
pages by ``shard_of``).

    .venv/bin/python bench/pdfium_floor.py FILE.pdf     # prints nothing; time it

Exits 0 only when every page of the document was read; 2 otherwise (a page PDFium could not
load, a worker that failed or was killed), so that a broken floor is never timed as a fast one.
``bench_extract`` times it beside ``siftpdf extract --raw`` and ``pdftotext -layout``: what
``--raw`` costs above it is siftpdf's own, and what is left of a target above it is all that
organization may spend.
"""

from __future__ import annotations

import sys

# The worker: the extraction child's engine module and chunking, nothing else imported, its
# heap kept as the child keeps it (siftpdf.child.main.keep_heap: without it PDFium's page
# buffers cost each page fresh memory, and the floor would lie above what the child pays).
WORKER = """
import ctypes, sys
sys.path.extend({path!r})
from siftpdf.child.main import keep_heap
keep_heap()
from siftpdf.child import pdfium
from siftpdf.child.extraction import shard_of

path, shard, shards, chunk = sys.argv[1], *map(int, sys.argv[2:])
with open(path, "rb") as file:
    pdf = pdfium.Document(file.read(), None)
read = 0
for index in range(len(pdf)):
    if shard_of(index + 1, shards, chunk) != shard:
        continue
    page = pdfium.FPDF_LoadPage(pdf, index)
    textpage = pdfium.FPDFText_LoadPage(page) if page else None
    if not textpage:
        sys.exit(f"page {{index + 1}}: PDFium cannot read it")
    count = pdfium.FPDFText_CountChars(textpage)
    if count > 0:
        buffer = ctypes.create_string_buffer((count + 1) * 2)
        pdfium.FPDFText_GetText(textpage, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)))
    pdfium.FPDFText_ClosePage(textpage)
    pdfium.FPDF_ClosePage(page)
    read += 1
print(read, len(pdf))
"""


def main(argv: list[str]) -> int:
    import subprocess
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from siftpdf.defaults import CHUNK_PAGES, WORKERS
    from siftpdf.workers.early_child import child_path

    if len(argv) != 1:
        print("usage: pdfium_floor.py FILE.pdf", file=sys.stderr)
        return 2
    code = WORKER.format(path=child_path())
    workers = [subprocess.Popen([sys.executable, "-I", "-S", "-c", code, argv[0], str(shard), str(WORKERS),
                                 str(CHUNK_PAGES)], stdout=subprocess.PIPE) for shard in range(WORKERS)]
    outputs = [worker.communicate()[0] for worker in workers]
    if any(worker.returncode != 0 for worker in workers):
        return 2
    counts = [out.split() for out in outputs]  # pages read, pages in the document
    return 0 if sum(int(read) for read, _ in counts) == int(counts[0][1]) else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
