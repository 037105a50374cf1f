"""``python -I -m siftpdf.child.probe``: what ``siftpdf engine status`` asks a fresh child.

Run like the extraction child (isolated, empty environment, the same memory limit), it loads
each engine, reads a one-page PDF with it, then checks that the address-space limit really
stops an allocation. It prints one JSON object on stdout. Users never run it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

FIRST_TEST_LIMIT = 128 << 20  # the memory test lowers RLIMIT_AS to this, then doubles it until it can work
PROBE_TEXT = "siftpdf probe"


def tiny_pdf(text: str = PROBE_TEXT) -> bytes:
    """A valid one-page PDF with ``text`` on it, built by hand (no writer library needed)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return write_pdf(objects)


def write_pdf(objects: list[bytes], root: int = 1, header: bytes = b"%PDF-1.4\n") -> bytes:
    """A PDF file of ``objects`` (object k+1 is ``objects[k]``), its catalog ``root``, with a
    cross-reference table: what a writer library would do for a handful of objects."""
    out = bytearray(header)
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, xref)
    return bytes(out)


def _pdfium(data: bytes) -> dict[str, Any]:
    import pypdfium2 as pdfium
    from pypdfium2.version import PDFIUM_INFO, PYPDFIUM_INFO

    pdf = pdfium.PdfDocument(data)
    text = pdf[0].get_textpage().get_text_range()
    pdf.close()
    return {"version": f"pypdfium2 {PYPDFIUM_INFO}", "build": f"PDFium {PDFIUM_INFO} (build {PDFIUM_INFO.build})",
            "reads": PROBE_TEXT in text}


def _pypdf(data: bytes) -> dict[str, Any]:
    import io

    import pypdf

    text = pypdf.PdfReader(io.BytesIO(data)).pages[0].extract_text() or ""
    return {"version": f"pypdf {pypdf.__version__}", "build": None, "reads": PROBE_TEXT in text}


def _pdfplumber(data: bytes) -> dict[str, Any]:
    import io

    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        text = pdf.pages[0].extract_text() or ""
    return {"version": f"pdfplumber {pdfplumber.__version__}", "build": None, "reads": PROBE_TEXT in text}


def _ocr(data: bytes) -> dict[str, Any]:
    """The OCR engine (``--ocr``), when one is installed: it reads the probe page's render."""
    import pypdfium2 as pdfium

    from .. import extras
    from . import ocr

    if not extras.ocr_installed():
        raise ModuleNotFoundError(f"not installed (optional): {extras.OCR_INSTALL}")
    pdf = pdfium.PdfDocument(data)
    try:
        found = ocr.recognize_page(pdf[0])
    finally:
        pdf.close()
    return {"version": ocr.describe(), "build": None,
            "reads": PROBE_TEXT in found.text.lower()}


ENGINES = (("pdfium", _pdfium), ("pypdf", _pypdf), ("pdfplumber", _pdfplumber), ("ocr", _ocr))


def probe_engines() -> list[dict[str, Any]]:
    data = tiny_pdf()
    results = []
    for name, probe in ENGINES:
        try:
            found = probe(data)
            found.update(name=name, loads=True, error=None)
        except Exception as exc:  # noqa: BLE001 - an engine that fails to load is the finding
            absent = isinstance(exc, ModuleNotFoundError)  # an optional engine not installed
            found = {"name": name, "loads": False, "version": None, "build": None, "reads": False,
                     "error": str(exc)[:300] if absent else f"{type(exc).__name__}: {exc}"[:300]}
        results.append(found)
    return results


def probe_memory_limit() -> dict[str, Any]:
    """Find a test limit a little over what is mapped now (RLIMIT_AS lowered, from 128 MiB up,
    until an 8 MiB allocation works: no /proc needed to know what is mapped), then ask for as
    much as the whole limit (must fail): the failure came from the limit, not a full machine."""
    import resource

    small = 8 << 20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = FIRST_TEST_LIMIT
    while hard == resource.RLIM_INFINITY or limit <= hard:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        except (OSError, ValueError) as exc:
            return {"enforced": False, "detail": f"RLIMIT_AS cannot be set here: {exc}"}
        if _allocates(small):
            break
        limit *= 2
    else:
        return {"enforced": False, "detail": "even a small allocation failed: no room to test"}
    if _allocates(limit):
        return {"enforced": False, "detail": "an allocation over the test limit succeeded"}
    return {"enforced": True, "detail": "an allocation over a test limit failed, one under it worked"}


def _allocates(size: int) -> bool:
    try:
        block = bytearray(size)
        del block
        return True
    except MemoryError:
        return False


def main(argv: list[str]) -> int:
    from .main import apply_limits

    memory = int(argv[0]) if argv else 2 << 30
    result: dict[str, Any] = {}
    try:
        apply_limits(memory, 30)
        result["limit_applied"] = True
    except (OSError, ValueError) as exc:
        result["limit_applied"] = False
        result["limit_error"] = str(exc)
    result["engines"] = probe_engines()
    result["memory"] = probe_memory_limit() if sys.platform.startswith("linux") else {
        "enforced": False, "detail": f"RLIMIT_AS is not enforced on {sys.platform}"}
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
