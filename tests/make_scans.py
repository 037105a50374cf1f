"""Scanned pages made from the corpus's text pages, for the OCR tests and ``bench/bench_ocr.py``.

    python tests/make_scans.py OUT_DIR [--dpi 300] [--lang en|cjk|all]

A scan is a corpus page rendered by PDFium at a given resolution (grayscale), turned by a
slight angle (0.5-1.5 degrees, either way), given mild noise and a few specks, and stored as
a JPEG in an image-only PDF of the source page's size. Its reference text is the source page's
text layer (PDFium's). Everything is seeded: the same call makes the same bytes.

Also here: a blank scanned page (paper grain, no text), a page whose top half keeps its text
layer and whose bottom half is a scanned image, and the character error rate that scores a
recognition against a reference.
"""

from __future__ import annotations

import argparse
import io
import random
import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from siftpdf.child.probe import write_pdf

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@dataclass(frozen=True)
class Source:
    """A corpus page (0-based index) whose text layer is the reference."""

    path: str
    page: int
    lang: str  # "en" or "cjk"
    label: str

    @property
    def name(self) -> str:
        return f"{self.lang}-{self.label}-p{self.page + 1}"


# Text pages of papers and books (one and two columns, prose, a little code) and Chinese
# papers and laws, chosen for a text layer that matches what the page shows.
ENGLISH = (
    Source("paper/distributed_systems_end-to-end-arguments-in-system-design.pdf", 2, "en", "e2e"),
    Source("paper/datastores_dynamo-amazons-highly-available-key-value-store.pdf", 3, "en", "dynamo"),
    Source("paper/comp_sci_fundamentals_and_history_hints-for-computer-system-design.pdf", 3, "en", "hints"),
    Source("long/thinkpython2.pdf", 40, "en", "thinkpython"),
    Source("long/redux-book.pdf", 20, "en", "redux"),
)
CJK = (
    Source("cjk/law_中华人民共和国劳动合同法_中华人民共和国劳动合同法.pdf", 2, "cjk", "labour-law"),
    Source("cjk/law_中华人民共和国民法典_中华人民共和国民法典.pdf", 11, "cjk", "civil-code"),
    Source("cjk/2021A射电望远镜_2021A射电望远镜论文.pdf", 2, "cjk", "telescope"),
    Source("cjk/2012C脑卒中发病_2012C.pdf", 3, "cjk", "stroke"),
)
# The corpus's own scans (no text layer; no reference text).
REAL_SCANS = (
    "ground-truth/tests_data_ocr_sources_ocr_test.pdf",
    "ground-truth/tests_data_ocr_sources_nemotron_multipage.pdf",
)
# The half-text, half-scan page is made from this one (no form objects: its text objects are
# all at the top level, so the bottom half's can be removed).
HALF_SOURCE = ENGLISH[0]


@dataclass(frozen=True)
class Scan:
    """One generated scan: an image-only PDF (one page) and what it should read."""

    name: str
    lang: str
    dpi: int
    pdf: bytes
    reference: str
    angle: float = 0.0


def reference_text(path: Path | str, page: int, bounds: Sequence[float] | None = None) -> str:
    """A page's text layer as PDFium reads it (within ``bounds``, [left, bottom, right, top])."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        textpage = pdf[page].get_textpage()
        if bounds is None:
            return str(textpage.get_text_range())
        return str(textpage.get_text_bounded(*bounds))
    finally:
        pdf.close()


def render_gray(path: Path | str, page: int, dpi: int) -> Any:
    """The page as PDFium draws it, an 8-bit grayscale PIL image."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[page].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    finally:
        pdf.close()


def degrade(image: Any, seed: int, angle: float | None = None, noise: float = 8.0) -> tuple[Any, float]:
    """A clean render made to look scanned: turned, grainy, specked. Returns (image, angle)."""
    import numpy as np
    from PIL import Image

    rng = random.Random(seed)
    if angle is None:
        angle = rng.uniform(0.5, 1.5) * rng.choice((-1, 1))
    turned = image.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255)
    pixels = np.asarray(turned, dtype=np.float32)
    grain = np.random.default_rng(seed).normal(0.0, noise, pixels.shape)
    pixels = pixels * 0.94 + 8 + grain  # a greyish paper, ink not quite black
    specks = np.random.default_rng(seed + 1).random(pixels.shape) < 0.0002
    pixels[specks] = 40
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "L"), angle


def jpeg(image: Any, quality: int = 85) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return out.getvalue()


@dataclass(frozen=True)
class Placed:
    """An image drawn on a page: JPEG bytes, pixel size, and where in points."""

    data: bytes
    width: int
    height: int
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in the page's user space


def image_pdf(pages: Iterable[tuple[tuple[float, float, float, float], list[int]]], images: Sequence[Placed],
              rotate: int = 0) -> bytes:
    """An image-only PDF written by hand: each page is (media box, indexes into ``images``).
    Images are shared between the pages that draw them, so a 2,000-page scan stays small."""
    objects: list[bytes] = []  # object n+1 is objects[n]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog, tree = add(b""), add(b"")
    image_ids = [add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                     b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n%s\nendstream"
                     % (im.width, im.height, len(im.data), im.data)) for im in images]
    kids = []
    for media, drawn in pages:
        ops = b"".join(b"q %.4f 0 0 %.4f %.4f %.4f cm /Im%d Do Q\n"
                       % (images[i].box[2] - images[i].box[0], images[i].box[3] - images[i].box[1],
                          images[i].box[0], images[i].box[1], i) for i in drawn)
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(ops), ops))
        xobjects = b" ".join(b"/Im%d %d 0 R" % (i, image_ids[i]) for i in sorted(set(drawn)))
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [%s] /Rotate %d /Contents %d 0 R "
                        b"/Resources << /XObject << %s >> >> >>"
                        % (tree, b" ".join(b"%.4f" % v for v in media), rotate, content, xobjects)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    objects[tree - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    return write_pdf(objects, catalog, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")


def page_size(path: Path | str, page: int) -> tuple[float, float]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        width, height = pdf[page].get_size()
        return float(width), float(height)
    finally:
        pdf.close()


def scan(source: Source, dpi: int = 300, seed: int = 7, corpus: Path = CORPUS, turned: int = 0) -> Scan:
    """One corpus page as a one-page scanned PDF of the same size; ``turned`` 90, 180 or 270:
    fed into the scanner that many degrees clockwise (the page's sides swap at 90 and 270)."""
    from PIL import Image

    path = corpus / source.path
    image, angle = degrade(render_gray(path, source.page, dpi), seed + source.page + dpi)
    width, height = page_size(path, source.page)
    if turned:
        image = image.transpose({90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
                                 270: Image.Transpose.ROTATE_90}[turned])
        width, height = (height, width) if turned in (90, 270) else (width, height)
    placed = Placed(jpeg(image), image.width, image.height, (0.0, 0.0, width, height))
    pdf = image_pdf([((0.0, 0.0, width, height), [0])], [placed])
    return Scan(source.name, source.lang, dpi, pdf, reference_text(path, source.page), round(angle, 2))


def scans(dpi: int = 300, lang: str = "all", seed: int = 7, corpus: Path = CORPUS) -> list[Scan]:
    """The generated set: English, CJK, or both."""
    sources = (ENGLISH if lang in ("en", "all") else ()) + (CJK if lang in ("cjk", "all") else ())
    return [scan(source, dpi, seed, corpus) for source in sources]


def blank(dpi: int = 300, size: tuple[float, float] = (612.0, 792.0), seed: int = 7) -> Scan:
    """A scanned sheet of empty paper: grain, a few specks, a faint shadow at one edge."""
    from PIL import Image, ImageDraw

    width, height = round(size[0] * dpi / 72), round(size[1] * dpi / 72)
    paper = Image.new("L", (width, height), 255)
    ImageDraw.Draw(paper).rectangle((0, 0, width // 60, height), fill=215)  # the scanner lid's shadow
    image, _ = degrade(paper, seed, angle=0.0, noise=10.0)
    placed = Placed(jpeg(image), width, height, (0.0, 0.0, *size))
    return Scan("blank", "en", dpi, image_pdf([((0.0, 0.0, *size), [0])], [placed]), "")


@dataclass(frozen=True)
class HalfScan:
    """A page whose top half is a text layer and whose bottom half a scanned image."""

    pdf: bytes
    split: float  # points from the bottom: below it, the image
    text_reference: str  # what the text layer holds
    image_reference: str  # what the image shows


def half_scan(source: Source = HALF_SOURCE, dpi: int = 300, seed: int = 7, corpus: Path = CORPUS) -> HalfScan:
    """The source page with the text objects of its bottom half removed and a scan of that
    half drawn in their place."""
    path = corpus / source.path
    width, height = page_size(path, source.page)
    pdf, page, texts = _text_objects(path, source.page)
    spans = [obj.get_bounds()[1::2] for obj in texts]
    # The split runs between two lines: the first height below the middle no text crosses.
    split = next(y for y in range(round(height / 2), 0, -1) if not any(y0 <= y <= y1 for y0, y1 in spans))
    for obj, (y0, _) in zip(texts, spans, strict=True):
        if y0 < split:
            page.remove_obj(obj)
    image, _ = degrade(render_gray(path, source.page, dpi), seed)
    bottom = image.crop((0, round((height - split) * dpi / 72), image.width, image.height))
    below = reference_text(path, source.page, (0, 0, width, split))
    above = reference_text(path, source.page, (0, split, width, height))
    data = _with_image(pdf, page, bottom, width, bottom.height * 72 / dpi)
    return HalfScan(data, float(split), above, below)


def half_photo(source: Source = HALF_SOURCE, dpi: int = 150, seed: int = 7, corpus: Path = CORPUS) -> bytes:
    """The source page with its bottom half a photo (tones shading across it, grained) in
    place of its text: a large image no text lies over that is no image of text."""
    import numpy as np
    from PIL import Image

    path = corpus / source.path
    width, height = page_size(path, source.page)
    pdf, page, texts = _text_objects(path, source.page)
    for obj in texts:
        if obj.get_bounds()[1] < height / 2:
            page.remove_obj(obj)
    w, h = round(width * dpi / 72), round(height / 2 * dpi / 72)
    x, y = np.meshgrid(np.linspace(0, 1, w), np.linspace(0, 1, h))
    shade = 40 + 180 * (0.5 + 0.5 * np.sin(6 * x + 4 * y)) * (0.6 + 0.4 * x)
    grain = np.random.default_rng(seed).normal(0, 12, (h, w))
    photo = Image.fromarray(np.clip(shade + grain, 0, 255).astype(np.uint8), "L")
    return _with_image(pdf, page, photo, width, height / 2)


def _text_objects(path: Path, index: int) -> tuple[Any, Any, list[Any]]:
    """A new PDF holding a copy of one page, the page, and its top-level text objects."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument.new()
    pdf.import_pages(pdfium.PdfDocument(str(path)), [index])
    page = pdf[0]
    return pdf, page, [obj for obj in page.get_objects(max_depth=1) if obj.type == pdfium_c.FPDF_PAGEOBJ_TEXT]


def _with_image(pdf: Any, page: Any, image: Any, width: float, height: float) -> bytes:
    """The PDF's bytes with ``image`` (grey, stored as JPEG) drawn from the page's lower left
    corner, ``width`` by ``height`` points, over the text objects left on the page."""
    import pypdfium2 as pdfium

    picture = pdfium.PdfImage.new(pdf)
    picture.load_jpeg(io.BytesIO(jpeg(image)), pages=[page])
    picture.set_matrix(pdfium.PdfMatrix().scale(width, height))
    page.insert_obj(picture)
    page.gen_content()
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def scan_with_footer(source: Source = ENGLISH[2], dpi: int = 300, seed: int = 7, corpus: Path = CORPUS) -> Scan:
    """The source page scanned whole, with its footer (the text objects of its lowest line)
    kept in the text layer over the scan: a page whose text layer holds a few real words,
    as a scanned letter with a stamped footer does. The reference is the whole page's text."""
    path = corpus / source.path
    width, height = page_size(path, source.page)
    pdf, page, texts = _text_objects(path, source.page)
    lowest = min(obj.get_bounds()[3] for obj in texts)  # the top of the lowest text: the footer's line
    for obj in texts:
        if obj.get_bounds()[1] > lowest:
            page.remove_obj(obj)
    image, angle = degrade(render_gray(path, source.page, dpi), seed + source.page + dpi)
    data = _with_image(pdf, page, image, width, height)
    return Scan(f"{source.name}-footer", source.lang, dpi, data, reference_text(path, source.page), round(angle, 2))


def many_pages(count: int, dpi: int = 200, seed: int = 7, corpus: Path = CORPUS,
               source: Source = ENGLISH[0]) -> bytes:
    """An image-only PDF of ``count`` pages that share one scanned image (a corpus page)."""
    path = corpus / source.path
    image, _ = degrade(render_gray(path, source.page, dpi), seed)
    width, height = page_size(path, source.page)
    placed = Placed(jpeg(image), image.width, image.height, (0.0, 0.0, width, height))
    return image_pdf([((0.0, 0.0, width, height), [0])] * count, [placed])


def mixed_pages(sources: Sequence[Source], dpi: int = 150, seed: int = 7,
                corpus: Path = CORPUS) -> tuple[bytes, list[str]]:
    """An image-only PDF of one scanned page of each source, in order, and each page's
    reference text."""
    pages, images, references = [], [], []
    for index, source in enumerate(sources):
        path = corpus / source.path
        image, _ = degrade(render_gray(path, source.page, dpi), seed + index)
        width, height = page_size(path, source.page)
        images.append(Placed(jpeg(image), image.width, image.height, (0.0, 0.0, width, height)))
        pages.append(((0.0, 0.0, width, height), [index]))
        references.append(reference_text(path, source.page))
    return image_pdf(pages, images), references


def huge_page(pixels: int = 20000, side: float = 14400.0) -> bytes:
    """A page of ``side`` points (PDF's largest) whose image claims ``pixels`` square: a
    render at any usual resolution would be gigabytes, so a reader must cap it."""
    from PIL import Image

    tile = Image.new("L", (pixels, pixels), 255)
    return image_pdf([((0.0, 0.0, side, side), [0])], [Placed(jpeg(tile, 50), pixels, pixels, (0.0, 0.0, side, side))])


# --- scoring -----------------------------------------------------------------------------

# Look-alikes an engine may read either way, which a reader would not count as errors:
# typographic quotes and dashes, PDFium's marks for soft hyphens and line-end hyphens.
_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                       "\u2212": "-", "\u00ad": "-", "\x02": "-", "\u2022": "", "\ufffe": "-", "\u00b7": "."})
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    """NFKC (ligatures, full-width forms), look-alikes folded, whitespace removed: word
    spacing is a matter of layout, not of reading, and CJK text has none."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text).translate(_FOLD))


def cer(recognized: str, reference: str) -> float:
    """Character error rate: Levenshtein distance between the normalized texts over the
    normalized reference's length (0 for an empty reference read as empty)."""
    from rapidfuzz.distance import Levenshtein

    hyp, ref = normalize(recognized), normalize(reference)
    if not ref:
        return float(len(hyp) > 0)
    return Levenshtein.distance(hyp, ref) / len(ref)


def reorder(lines: Sequence[str], reference: str) -> list[str]:
    """The recognized lines in the reference's order: each placed where it best aligns in
    the reference. An engine that reads the columns of a page in another order than the text
    layer stores them is not charged for the order (a reading-order check is another test)."""
    from rapidfuzz import fuzz

    ref = normalize(reference)
    keyed = []
    for index, line in enumerate(lines):
        norm = normalize(line)
        start = fuzz.partial_ratio_alignment(norm, ref).dest_start if norm and ref else 0
        keyed.append((start, index, line))
    return [line for _, _, line in sorted(keyed)]


def cer_any_order(lines: Sequence[str], reference: str) -> float:
    """``cer`` of the recognized lines after ``reorder``."""
    return cer("\n".join(reorder(lines, reference)), reference)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--lang", choices=("en", "cjk", "all"), default="all")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    made = [*scans(args.dpi, args.lang), blank(args.dpi)]
    for item in made:
        (args.out / f"{item.name}-{item.dpi}.pdf").write_bytes(item.pdf)
        (args.out / f"{item.name}-{item.dpi}.txt").write_text(item.reference)
    half = half_scan(dpi=args.dpi)
    (args.out / f"half-{args.dpi}.pdf").write_bytes(half.pdf)
    (args.out / f"half-{args.dpi}.txt").write_text(half.image_reference)
    print(f"make_scans: {len(made) + 1} PDFs in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
