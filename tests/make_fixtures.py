"""Generate the test fixtures (and the bundled sample) from scratch.

    python tests/make_fixtures.py OUTDIR            # the small fixtures
    python tests/make_fixtures.py OUTDIR --big      # plus the 2,100-page document
    python tests/make_fixtures.py --sample PATH     # the demo sample PDF

Nothing here downloads anything; reportlab draws, pypdf encrypts and edits outlines.
"""

from __future__ import annotations

import argparse
import codecs
import io
import sys
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    TextStringObject,
)
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

PHRASES = {1: "alpha quantum lighthouse", 2: "beta crimson harbor", 3: "gamma velvet mountain"}
NEEDLE_PAGE = 1337
NEEDLE = "needle in page thirteen thirty seven zebra"
FILLER = ("The quick brown fox jumps over the lazy dog while the committee reviews "
          "the annual report on regional water supply and the harbour accounts.")


def _page(c: canvas.Canvas, lines: list[str], size: int = 11) -> None:
    c.setFont("Helvetica", size)
    y = A4[1] - 72
    for line in lines:
        c.drawString(72, y, line)
        y -= size * 1.5
    c.showPage()


def three_page() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle("Three Page Test")
    for n in (1, 2, 3):
        _page(c, [f"Page {n} of the three page test", f"The phrase here is {PHRASES[n]}.", FILLER])
    c.save()
    return buf.getvalue()


def scanned() -> bytes:
    from PIL import Image, ImageDraw
    from reportlab.lib.utils import ImageReader

    image = Image.new("L", (850, 1100), 255)
    draw = ImageDraw.Draw(image)
    for y in range(100, 1000, 40):
        draw.rectangle([80, y, 770, y + 14], fill=30)  # looks like lines of print, holds no text
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for _ in range(2):
        c.drawImage(ImageReader(image), 0, 0, width=A4[0], height=A4[1])
        c.showPage()
    c.save()
    return buf.getvalue()


def encrypted(data: bytes, user: str, owner: str, algorithm: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user, owner_password=owner, algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pages_doc(count: int, title: str, body: dict[int, list[str]] | None = None) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle(title)
    body = body or {}
    for n in range(1, count + 1):
        _page(c, body.get(n, [f"This is page {n} of {count}.", FILLER]))
    c.save()
    return buf.getvalue()


def _title(raw: bytes) -> ByteStringObject:
    return ByteStringObject(raw)


def outline_doc() -> bytes:
    """Four pages; an outline with nested items, a /GoTo action, a named destination,
    UTF-16BE and PDFDocEncoding titles, and a loop back to the first item."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pages_doc(4, "Outline Test"))))
    pages = [p.indirect_reference for p in writer.pages]

    def dest(index: int) -> ArrayObject:
        return ArrayObject([pages[index], NameObject("/Fit")])

    # Named destination "sec12" -> page 3, through the /Names /Dests name tree.
    names = DictionaryObject({NameObject("/Names"): ArrayObject([TextStringObject("sec12"), dest(2)])})
    writer._root_object[NameObject("/Names")] = DictionaryObject(
        {NameObject("/Dests"): writer._add_object(names)})

    root = writer._add_object(DictionaryObject({NameObject("/Type"): NameObject("/Outlines")}))
    ch1 = writer._add_object(DictionaryObject({NameObject("/Title"): _title(b"Chapter 1"),
                                               NameObject("/Dest"): dest(0)}))
    s11 = writer._add_object(DictionaryObject({
        NameObject("/Title"): _title(b"Section 1.1 \x84 by action"),  # PDFDoc 0x84 is an em dash
        NameObject("/A"): DictionaryObject({NameObject("/S"): NameObject("/GoTo"), NameObject("/D"): dest(1)}),
    }))
    s12 = writer._add_object(DictionaryObject({
        NameObject("/Title"): _title(codecs.BOM_UTF16_BE + "Section 1.2 — named ✓".encode("utf-16-be")),
        NameObject("/Dest"): TextStringObject("sec12"),
    }))
    ch2 = writer._add_object(DictionaryObject({NameObject("/Title"): _title(b"Caf\xe9 chapter 2"),
                                               NameObject("/Dest"): dest(3)}))
    root_d, ch1_d, s11_d, s12_d, ch2_d = (o.get_object() for o in (root, ch1, s11, s12, ch2))
    root_d.update({NameObject("/First"): ch1, NameObject("/Last"): ch2, NameObject("/Count"): NumberObject(4)})
    ch1_d.update({NameObject("/Parent"): root, NameObject("/First"): s11, NameObject("/Last"): s12,
                  NameObject("/Next"): ch2, NameObject("/Count"): NumberObject(2)})
    s11_d.update({NameObject("/Parent"): ch1, NameObject("/Next"): s12})
    s12_d.update({NameObject("/Parent"): ch1, NameObject("/Prev"): s11,
                  NameObject("/First"): ch1})  # a loop: a child pointing back at its parent
    ch2_d.update({NameObject("/Parent"): root, NameObject("/Prev"): ch1,
                  NameObject("/Next"): ch1})  # and a sibling loop
    writer._root_object[NameObject("/Outlines")] = root
    writer.set_page_label(0, 1, style="/r")  # i, ii
    writer.set_page_label(2, 3, style="/D", start=1)  # 1, 2
    writer._info.get_object()[NameObject("/Title")] = _title(
        codecs.BOM_UTF16_BE + "Outline Tëst".encode("utf-16-be"))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def long_doc(pages: int = 40) -> bytes:
    """A document well over the default 40,000-character cap, with an outline."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pages_doc(
        pages, "A Long Report", {n: [f"Long report page {n}."] + [FILLER] * 14 for n in range(1, pages + 1)}))))
    for chapter in range(0, pages, 10):
        parent = writer.add_outline_item(title=f"Chapter {chapter // 10 + 1}", page_number=chapter)
        writer.add_outline_item(title=f"Section {chapter // 10 + 1}.1", page_number=chapter + 4, parent=parent)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def big_doc(pages: int = 2100) -> bytes:
    body = {NEEDLE_PAGE: [f"This is page {NEEDLE_PAGE} of {pages}.", f"Here lies the {NEEDLE}.", FILLER]}
    return pages_doc(pages, "Two Thousand One Hundred Pages", body)


def sample() -> bytes:
    """The bundled demo document: a short field guide with an outline."""
    sections = [
        ("1 Why rivers meander", [
            "A river on a flat plain rarely runs straight. Water on the outside of a bend moves",
            "faster and cuts the bank, while slower water on the inside drops its sand, so every",
            "bend grows a little each flood season until the loop is cut off as an oxbow lake.",
            "The steeper the valley, the straighter the channel: meanders need a gentle slope",
            "and banks soft enough to erode, which is why they are common on alluvial plains.",
        ]),
        ("2 Reading a flood plain", [
            "Oxbow lakes, levees and scroll bars record where the channel used to be. A map of",
            "the flood plain is a history of the river: the older the scroll bar, the further it",
            "lies from the present channel. Surveyors date them by the trees that grow on them.",
            "Natural levees form where floodwater leaves the channel and slows at once, dropping",
            "its coarsest load on the bank; the finer silt settles far out in the back swamps.",
        ]),
        ("3 Measuring discharge", [
            "Discharge is the volume of water passing a cross-section each second. Hydrologists",
            "measure the depth and velocity at stations across the channel and add up the",
            "product of area and velocity. A rating curve then links discharge to stage height.",
            "Gauging stations record stage every fifteen minutes, and the rating curve turns",
            "each reading into discharge until a flood reshapes the bed and it must be redrawn.",
        ]),
        ("4 Sediment budgets", [
            "A sediment budget balances what enters a reach with what leaves it and what is",
            "stored. Dams trap sediment, so reaches below them starve and cut down into their",
            "beds; this is why deltas shrink when rivers upstream are dammed.",
            "Measuring the load is hard: suspended sediment is sampled with bottles lowered",
            "through the water column, while bed load is caught in traps set on the river bed.",
        ]),
        ("5 Field safety", [
            "Never wade a river above knee depth, keep a throw line on the bank, and check the",
            "gauge upstream before you start: a storm an hour away raises the water quickly.",
        ]),
    ]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle("A Field Guide to Rivers")
    for number, (heading, lines) in enumerate(sections, 1):
        c.bookmarkPage(f"s{number}")
        c.addOutlineEntry(heading, f"s{number}", level=0)
        c.setFont("Helvetica-Bold", 15)
        c.drawString(72, A4[1] - 72, heading)
        c.setFont("Helvetica", 11)
        y = A4[1] - 104
        for line in lines:
            c.drawString(72, y, line)
            y -= 16
        c.setFont("Helvetica", 9)
        c.drawCentredString(A4[0] / 2, 40, f"A Field Guide to Rivers · {number}")
        c.showPage()
    c.save()
    return buf.getvalue()


def write_all(outdir: Path, big: bool = False) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    base = three_page()
    files = {
        "three_page.pdf": base,
        "scanned.pdf": scanned(),
        "encrypted_user.pdf": encrypted(base, "secret", "owner", "AES-256"),
        "encrypted_owner_aes.pdf": encrypted(base, "", "owner", "AES-128"),
        "encrypted_owner_rc4.pdf": encrypted(base, "", "owner", "RC4-128"),
        "truncated.pdf": base[: int(len(base) * 0.6)],
        "outline.pdf": outline_doc(),
        "long.pdf": long_doc(),
        "junk_prefix.pdf": b"garbage before the header\n" + base,
        "not_a_pdf.txt": b"just some text, no PDF here\n",
    }
    if big:
        files["big_2100.pdf"] = big_doc()
    for name, data in files.items():
        (outdir / name).write_bytes(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path)
    parser.add_argument("--big", action="store_true", help="also the 2,100-page document")
    parser.add_argument("--sample", type=Path, help="write the demo sample PDF here")
    args = parser.parse_args()
    if args.sample:
        args.sample.write_bytes(sample())
    if args.outdir:
        write_all(args.outdir, args.big)
    return 0


if __name__ == "__main__":
    sys.exit(main())
