"""Generate hostile PDFs: inputs built to crash, hang or exhaust a PDF reader.

    python tests/make_hostile.py OUTDIR            # write every hostile fixture

Each fixture is built byte by byte here (nothing is committed as a binary). Most are small on
disk; what they claim or inflate to is what makes them hostile.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
HELLO = b"BT /F1 12 Tf 72 720 Td (hostile fixture page text) Tj ET"


def stream(body: bytes, extra: bytes = b"", compress: bool = False) -> bytes:
    """A stream object body (dictionary + data)."""
    if compress:
        body = zlib.compress(body, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(body), extra, body)


def build(objects: list[bytes], root: int = 1, trailer_extra: bytes = b"") -> bytes:
    """A PDF with a classic xref table; ``objects[i]`` is the body of object i+1."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, root, trailer_extra, xref)
    return bytes(out)


def simple_page_doc(content: bytes, page_extra: bytes = b"", resources: bytes = b"",
                    compress: bool = True, catalog_extra: bytes = b"", more: list[bytes] | None = None) -> bytes:
    """Catalog 1, Pages 2, Page 3, content 4, font 5, then ``more`` objects from 6 on."""
    return build([
        b"<< /Type /Catalog /Pages 2 0 R%s >>" % catalog_extra,
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >>%s >>%s >>" % (resources, page_extra),
        stream(content, compress=compress),
        FONT,
        *(more or []),
    ])


def _deflate_repeated(size: int, fill: bytes = b" ") -> bytes:
    """``size`` bytes of ``fill`` (a multiple of 1 MiB) as a zlib stream, in well under a second.

    After a full flush the compressor starts afresh, so every further MiB of the same byte
    compresses to the same bytes: compress one MiB once, repeat it, and compute the Adler-32
    of a constant run by formula.
    """
    block = fill * (1 << 20)
    blocks = size >> 20
    comp = zlib.compressobj(9)
    head = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    body = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    tail = comp.flush(zlib.Z_FINISH)[:-4]  # drop the checksum of two blocks: ours covers all
    n, c, mod = blocks << 20, fill[0], 65521
    a = (1 + n * c) % mod
    b = (n + c * n * (n + 1) // 2) % mod
    return head + body * (blocks - 1) + tail + ((b << 16) | a).to_bytes(4, "big")


def flate_bomb(inflated: int = 6 << 30) -> bytes:
    """A page whose content stream is deflated twice: a few KiB inflate to ``inflated`` bytes."""
    inner = _deflate_repeated(inflated)
    outer = zlib.compress(inner, 9)
    body = b"<< /Length %d /Filter [/FlateDecode /FlateDecode] >>\nstream\n%s\nendstream" % (len(outer), outer)
    return build([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        body,
        FONT,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 7 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        stream(HELLO),
    ])


def memory_hog(inflated: int = 400 << 20) -> bytes:
    """One page of text plus a content stream that inflates to ``inflated`` bytes of spaces:
    readable within the default memory limit, not within a small one."""
    spaces = _deflate_repeated(inflated)
    return build([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 6 0 R]"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        stream(HELLO),
        FONT,
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(spaces), spaces),
    ])


def deep_nesting(depth: int = 200_000) -> bytes:
    """Arrays and dictionaries nested ``depth`` deep, in the page dictionary and its content."""
    arrays = b"[" * depth + b"]" * depth
    dicts = b"<</A " * depth + b"1" + b">>" * depth
    content = HELLO + b"\n" + b"[" * depth + b"]" * depth + b" pop\n"
    return simple_page_doc(content, page_extra=b" /Deep 6 0 R /Deeper 7 0 R", more=[arrays, dicts])


def page_tree_loop() -> bytes:
    """Pages 2 has kids 3 (a page) and 6 (a Pages node whose kid is 2 again)."""
    return build([
        b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        stream(HELLO),
        FONT,
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 6 0 R] /Count 2 >>",
        b"<< /Type /Outlines /First 8 0 R /Last 8 0 R /Count 2 >>",
        # An outline item that is its own sibling, parent and child.
        b"<< /Title (loop) /Parent 7 0 R /First 8 0 R /Last 8 0 R /Next 8 0 R /Prev 8 0 R"
        b" /Dest [3 0 R /Fit] /Count 1 >>",
    ])


def billion_pages() -> bytes:
    """A page tree that claims 10^9 pages and holds one."""
    return build([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 1000000000 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        stream(HELLO),
        FONT,
        b"<< /Type /Pages /Parent 2 0 R /Kids [] /Count 999999999 >>",
    ])


def many_operators(count: int = 3_000_000) -> bytes:
    """One content stream with millions of tiny operators (and a line of real text)."""
    body = HELLO + b"\n" + b"q Q 0 0 m " * count
    return simple_page_doc(body)


def huge_image() -> bytes:
    """A 100,000 × 100,000 RGB image (30 GB decoded) whose data is a few bytes."""
    image = stream(b"\x00" * 64, b" /Type /XObject /Subtype /Image /Width 100000 /Height 100000"
                   b" /ColorSpace /DeviceRGB /BitsPerComponent 8", compress=True)
    content = HELLO + b"\nq 612 0 0 792 0 0 cm /Im1 Do Q"
    return simple_page_doc(content, resources=b" /XObject << /Im1 6 0 R >>", more=[image])


def objstm_self() -> bytes:
    """An object stream that holds (by the xref stream) itself, and /Extends itself."""
    # Object 6 is the object stream. The xref stream says objects 1-3 and 6 live inside 6.
    inner_objs = [
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
        (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
        (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>"),
        (6, b"<< /Type /ObjStm /N 4 /First 0 >>"),
    ]
    header, bodies = b"", b""
    for number, body in inner_objs:
        header += b"%d %d " % (number, len(bodies))
        bodies += body + b" "
    payload = header + bodies
    first = len(header)
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    for number, body in ((4, stream(HELLO)), (5, FONT)):
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    offsets[6] = len(out)
    out += b"6 0 obj\n<< /Type /ObjStm /N 4 /First %d /Extends 6 0 R /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (
        first, len(payload), payload)
    # Cross-reference stream, object 7: type 2 entries point into stream 6, including 6 itself.
    rows = [b"\x00\x00\x00\x00\xff\xff"]
    index_in = {1: 0, 2: 1, 3: 2, 6: 3}
    for number in range(1, 8):
        if number in index_in:
            rows.append(b"\x02" + (6).to_bytes(4, "big") + index_in[number].to_bytes(1, "big"))
        else:
            rows.append(b"\x01" + offsets.get(number, len(out)).to_bytes(4, "big") + b"\x00")
    xref_data = b"".join(rows)
    xref_at = len(out)
    out += (b"7 0 obj\n<< /Type /XRef /Size 8 /W [1 4 1] /Root 1 0 R /Length %d >>\nstream\n%s\nendstream\nendobj\n"
            % (len(xref_data), xref_data))
    out += b"startxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


def xref_prev_loop() -> bytes:
    """A cross-reference section whose /Prev is itself."""
    data = simple_page_doc(HELLO)
    start = data.rindex(b"startxref\n") + len(b"startxref\n")
    xref = int(data[start:data.index(b"\n", start)])
    return data.replace(b"/Root 1 0 R >>", b"/Root 1 0 R /Prev %d >>" % xref)


HOSTILE: dict[str, Callable[[], bytes]] = {
    "flate_bomb": flate_bomb,
    "deep_nesting": deep_nesting,
    "page_tree_loop": page_tree_loop,
    "billion_pages": billion_pages,
    "many_operators": many_operators,
    "huge_image": huge_image,
    "objstm_self": objstm_self,
    "xref_prev_loop": xref_prev_loop,
}


def write_all(outdir: Path) -> dict[str, Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, make in HOSTILE.items():
        path = outdir / f"{name}.pdf"
        if not path.exists():
            path.write_bytes(make())
        paths[name] = path
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    args = parser.parse_args()
    for name, path in write_all(args.outdir).items():
        print(f"{name}\t{path.stat().st_size}\t{path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
