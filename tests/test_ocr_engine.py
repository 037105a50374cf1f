"""The scan generator (tests/make_scans.py) and the OCR engine module (siftpdf/child/ocr.py).

The engine's tests run when an engine is installed: ``pip install 'siftpdf[ocr]'`` and the
tesseract data (``apt-get install tesseract-ocr-eng tesseract-ocr-chi-sim``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import make_scans
import pypdfium2 as pdfium
import pytest

from siftpdf.child import ocr

ROOT = Path(__file__).resolve().parent.parent

needs_corpus = pytest.mark.skipif(not make_scans.CORPUS.is_dir(), reason="../shared/corpus is absent")
needs_engine = pytest.mark.skipif(ocr.available() is None, reason=f"no OCR engine: {ocr.INSTALL}")


def _text_layer(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    try:
        return "".join(str(page.get_textpage().get_text_range()) for page in pdf)
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def e2e() -> make_scans.Scan:
    return make_scans.scan(make_scans.ENGLISH[0], dpi=200)


# --- the generator ------------------------------------------------------------------------


@needs_corpus
def test_a_scan_is_an_image_only_page_of_the_source_size(e2e: make_scans.Scan) -> None:
    pdf = pdfium.PdfDocument(e2e.pdf)
    assert len(pdf) == 1
    assert pdf[0].get_size() == pytest.approx(make_scans.page_size(make_scans.CORPUS / make_scans.ENGLISH[0].path, 2))
    assert [obj.type for obj in pdf[0].get_objects()] == [pdfium.raw.FPDF_PAGEOBJ_IMAGE]
    assert _text_layer(e2e.pdf).strip() == ""
    assert 0.5 <= abs(e2e.angle) <= 1.5
    assert "end-to-end check and retry" in e2e.reference


@needs_corpus
def test_scans_are_reproducible(e2e: make_scans.Scan) -> None:
    assert make_scans.scan(make_scans.ENGLISH[0], dpi=200).pdf == e2e.pdf


def test_a_blank_scan_has_grain_and_no_text() -> None:
    blank = make_scans.blank(dpi=100)
    assert blank.reference == "" and _text_layer(blank.pdf).strip() == ""
    bitmap = pdfium.PdfDocument(blank.pdf)[0].render(scale=100 / 72, grayscale=True)
    values = set(bytes(bitmap.buffer)[: bitmap.stride * 50])
    assert len(values) > 20  # grain, not a flat white


@needs_corpus
def test_half_scan_keeps_the_top_text_layer_and_scans_the_bottom() -> None:
    half = make_scans.half_scan(dpi=150)
    layer = _text_layer(half.pdf)
    assert make_scans.normalize(layer) == make_scans.normalize(half.text_reference)
    assert "selective redundancy" in half.image_reference and "selective redundancy" not in layer
    kinds = [obj.type for obj in pdfium.PdfDocument(half.pdf)[0].get_objects()]
    assert pdfium.raw.FPDF_PAGEOBJ_IMAGE in kinds and pdfium.raw.FPDF_PAGEOBJ_TEXT in kinds


@needs_corpus
def test_many_pages_share_one_image() -> None:
    data = make_scans.many_pages(300, dpi=50)
    assert len(pdfium.PdfDocument(data)) == 300
    assert len(data) < 2 * len(make_scans.many_pages(1, dpi=50))


def test_huge_page_claims_a_huge_image() -> None:
    page = pdfium.PdfDocument(make_scans.huge_page(pixels=2000))[0]
    assert page.get_size() == (14400.0, 14400.0)
    image = next(iter(page.get_objects()))
    assert image.get_px_size() == (2000, 2000)


def test_cer() -> None:
    assert make_scans.cer("Hello,  world", "Hello, world") == 0
    assert make_scans.cer("Hello, wor1d", "Hello, world") == pytest.approx(1 / 11)
    assert make_scans.cer("\u201cfine\u201d \ufb01ne", '"fine" fine') == 0  # quotes and ligatures folded
    assert make_scans.cer("", "") == 0 and make_scans.cer("x", "") == 1
    left, right = "the first column says this", "the second column says that"
    assert make_scans.cer(f"{right}\n{left}", f"{left}\n{right}") > 0.3
    assert make_scans.cer_any_order([right, left], f"{left}\n{right}") == 0


# --- the engine ---------------------------------------------------------------------------


def test_render_scale_caps_the_longest_side() -> None:
    assert ocr.render_scale(612, 792, 200) == (200 / 72, False)
    scale, capped = ocr.render_scale(14400, 14400, 200)
    assert capped and round(14400 * scale) == ocr.MAX_SIDE


def test_no_engine_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "ENGINES", {})
    ocr._engine.cache_clear()
    try:
        assert ocr.available() is None
        with pytest.raises(ocr.OcrUnavailable, match="pip install 'siftpdf\\[ocr\\]'"):
            ocr.recognize_pixels(None)
    finally:
        ocr._engine.cache_clear()


@pytest.fixture(scope="module")
def e2e_read(e2e: make_scans.Scan) -> ocr.PageText:
    return ocr.recognize_page(pdfium.PdfDocument(e2e.pdf)[0])


@needs_engine
@needs_corpus
def test_an_english_scan_reads_close_to_its_text_layer(e2e: make_scans.Scan, e2e_read: ocr.PageText) -> None:
    assert make_scans.cer(e2e_read.text, e2e.reference) < 0.03
    assert e2e_read.engine.name in ocr.ENGINES and e2e_read.confidence is not None and e2e_read.confidence > 0.8
    assert e2e_read.dpi == ocr.DPI and not e2e_read.capped


@needs_engine
@needs_corpus
def test_an_english_page_is_read_by_tesseract_when_it_is_installed(e2e_read: ocr.PageText) -> None:
    if ocr.available("tesseract") is not None:
        assert e2e_read.engine.name == "tesseract"


needs_tesseract = pytest.mark.skipif(ocr.available("tesseract") is None or ocr._detector() is None,
                                     reason="no tesseract with its eng and osd data")


@needs_tesseract
@needs_corpus
def test_the_models_load_while_a_documents_first_page_renders(e2e: make_scans.Scan,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A document's first scanned page: tesseract's detection model and a Latin model for each
    thread load on a thread of their own while PDFium renders the page, each once."""
    import threading

    import tesserocr

    made: list[str] = []
    loaded = threading.Event()
    api, render, make_engine = tesserocr.PyTessBaseAPI, ocr._render_gray, ocr.ENGINES["tesseract"]

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs["lang"])
        return api(*args, **kwargs)

    def loading() -> Any:
        engine = make_engine()
        assert engine is not None
        load = engine.load

        def load_and_tell(threads: int, cjk: bool) -> None:
            load(threads, cjk)
            loaded.set()

        engine.load = load_and_tell
        return engine

    def render_once_loaded(page: Any, scale: float) -> Any:
        assert loaded.wait(30), "the models were not loaded while the page rendered"
        return render(page, scale)

    monkeypatch.setattr(tesserocr, "PyTessBaseAPI", counted)
    monkeypatch.setitem(ocr.ENGINES, "tesseract", loading)
    monkeypatch.setattr(ocr, "_render_gray", render_once_loaded)
    ocr._engine.cache_clear()
    ocr._make_detector.cache_clear()
    try:
        read = ocr.recognize_page(pdfium.PdfDocument(e2e.pdf)[0], threads=2, hint=ocr.Hint())
    finally:
        ocr._engine.cache_clear()
        ocr._make_detector.cache_clear()
    assert read.engine.name == "tesseract" and make_scans.cer(read.text, e2e.reference) < 0.03
    assert sorted(made) == ["eng", "eng", "osd"]


needs_both = pytest.mark.skipif(ocr.available("tesseract") is None or ocr.available("rapidocr") is None,
                                reason=f"needs both OCR engines: {ocr.INSTALL}")


@pytest.mark.check  # make check: PP-OCR of two scans, 3-4 s each
@needs_both
@needs_corpus
@pytest.mark.parametrize(("source", "most"), [(make_scans.CJK[0], 0.02), (make_scans.CJK[2], 0.12)],
                         ids=["law", "formulas-and-table"])
def test_a_chinese_scan_is_read_by_pp_ocr(source: make_scans.Source, most: float) -> None:
    # Tesseract's Chinese model reads the law at 2-3 % and the page of formulas and a table at
    # 13-20 % (docs/bakeoff.md): the Chinese page goes to the engine that reads it best.
    scan = make_scans.scan(source, dpi=200)
    read = ocr.recognize_page(pdfium.PdfDocument(scan.pdf)[0])
    assert read.engine.name == "rapidocr"
    assert make_scans.cer_any_order([line.text for line in read.lines], scan.reference) < most


@pytest.mark.check  # make check: OCR of three turned scans, 4-6 s each
@needs_engine
@needs_corpus
@pytest.mark.parametrize("turned", [90, 180, 270])
def test_a_page_scanned_sideways_or_upside_down_is_read_upright(turned: int) -> None:
    scan = make_scans.scan(make_scans.ENGLISH[0], dpi=200, turned=turned)
    page = pdfium.PdfDocument(scan.pdf)[0]
    read = ocr.recognize_page(page)
    assert read.turned == turned
    assert make_scans.cer(read.text, scan.reference) < 0.05  # in reading order
    # The boxes are where the text is on the turned page: lines run down it at 90 and 270.
    tall = [line for line in read.lines if line.box[3] - line.box[1] > line.box[2] - line.box[0]]
    assert (len(tall) > 0.8 * len(read.lines)) == (turned != 180)
    assert all(0 <= line.box[0] <= line.box[2] <= page.get_width() + 1 for line in read.lines)


def test_a_point_of_a_turned_image_is_found_in_the_unturned_one() -> None:
    import numpy as np

    image = np.zeros((30, 50), dtype=np.uint8)  # 50 wide, 30 tall
    image[7, 11] = 255
    for turns in range(4):
        turned = np.rot90(image, turns)
        y, x = (int(v[0]) for v in np.nonzero(turned))
        # The pixel's centre, turned back, is the centre of the pixel it came from.
        assert ocr._unturn_point(x + 0.5, y + 0.5, turns, 50, 30) == (11.5, 7.5)


@needs_both
def test_engine_status_names_each_engine_and_what_it_reads() -> None:
    described = ocr.describe()
    assert described.startswith("tesseract ") and "; CJK pages: rapidocr " in described


def _word_box(read: ocr.PageText, word: str) -> tuple[float, float, float, float]:
    boxes = [box for line in read.lines for text, box in line.words if text.strip(".,") == word]
    if not boxes:  # an engine without word boxes: the line that holds the word
        boxes = [line.box for line in read.lines if word in line.text.split()]
    assert boxes, f"{word!r} not read"
    return boxes[0]


@needs_engine
@needs_corpus
def test_boxes_land_where_the_source_page_drew_the_text(e2e_read: ocr.PageText) -> None:
    source = pdfium.PdfDocument(make_scans.CORPUS / make_scans.ENGLISH[0].path)[2]
    textpage = source.get_textpage()
    searcher = textpage.search("undetected", match_whole_word=True)
    start, count = searcher.get_next()
    boxes = [textpage.get_charbox(i, loose=True) for i in range(start, start + count)]
    want = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    got = _word_box(e2e_read, "undetected")
    # the scan is turned by up to 1.5 degrees about the page's centre: a few points off at most
    assert abs((got[0] + got[2]) / 2 - (want[0] + want[2]) / 2) < 12
    assert abs((got[1] + got[3]) / 2 - (want[1] + want[3]) / 2) < 12
    for line in ocr.evidence_lines(e2e_read.lines):
        run = line["runs"][0]
        assert set(run) >= {"text", "font", "size", "color", "box"} and run["box"][1] <= line["y"] <= run["box"][3]


@needs_engine
@needs_corpus
def test_rotation_and_crop_origin_are_accounted_for(e2e: make_scans.Scan, e2e_read: ocr.PageText) -> None:
    from PIL import Image

    image = pdfium.PdfDocument(e2e.pdf)[0].render(scale=150 / 72, grayscale=True).to_pil().convert("L")
    width, height = 612.0, 792.0
    # Drawn turned a quarter anticlockwise on a landscape page shown turned a quarter clockwise,
    # with the media box's origin away from (0, 0): it shows upright.
    turned = image.transpose(Image.Transpose.ROTATE_90)
    ox, oy = 100.0, 50.0
    placed = make_scans.Placed(make_scans.jpeg(turned), turned.width, turned.height, (ox, oy, ox + height, oy + width))
    pdf = make_scans.image_pdf([((ox, oy, ox + height, oy + width), [0])], [placed], rotate=90)
    read = ocr.recognize_page(pdfium.PdfDocument(pdf)[0])
    upright = _word_box(e2e_read, "undetected")
    got = _word_box(read, "undetected")
    want = (ox + height - upright[3], oy + upright[0], ox + height - upright[1], oy + upright[2])
    assert got == pytest.approx(want, abs=4)


@needs_engine
def test_a_blank_scan_reads_nothing() -> None:
    read = ocr.recognize_page(pdfium.PdfDocument(make_scans.blank(dpi=200).pdf)[0])
    assert read.text.strip() == "" and read.confidence is None


@pytest.mark.check  # make check: a long run, about 4 s
@needs_engine
@needs_corpus
def test_regions_read_only_there() -> None:
    half = make_scans.half_scan(dpi=200)
    page = pdfium.PdfDocument(half.pdf)[0]
    read = ocr.recognize_page(page, regions=[(0.0, 0.0, page.get_width(), half.split)])
    assert all(line.box[3] <= half.split + 6 for line in read.lines)
    assert make_scans.cer(read.text, half.image_reference) < 0.05
    assert "redundancy for error detection" not in read.text  # a line of the top half


@pytest.mark.check  # make check: a long run, about 5 s
@needs_engine
def test_a_huge_page_is_read_at_the_cap() -> None:
    read = ocr.recognize_page(pdfium.PdfDocument(make_scans.huge_page(pixels=4000))[0])
    assert read.capped and max(read.size) == ocr.MAX_SIDE and read.dpi < 30
    assert read.lines == []


@pytest.mark.check  # make check: a long run, about 6 s
@needs_engine
@needs_corpus
def test_it_reads_in_a_limited_child_behind_the_audit_hook(tmp_path: Path) -> None:
    """As the extraction child runs it: address space limited, network and programs refused
    (the hook in place before the engine is imported), an empty environment, ``python -I``."""
    scan = make_scans.scan(make_scans.CJK[0], dpi=200)
    (tmp_path / "scan.pdf").write_bytes(scan.pdf)
    script = (
        "import json, sys\n"
        "from siftpdf.child.main import apply_limits, _refuse\n"
        "apply_limits(1 << 30, 120)\n"
        "sys.addaudithook(_refuse)\n"
        "import pypdfium2\n"
        "from siftpdf.child import ocr\n"
        "read = ocr.recognize_page(pypdfium2.PdfDocument(sys.argv[1])[0])\n"
        "print(json.dumps({'engine': read.engine.name, 'text': read.text}))\n")
    proc = subprocess.run([sys.executable, "-I", "-c", script, str(tmp_path / "scan.pdf")], capture_output=True,
                          text=True, env={}, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert make_scans.cer(out["text"], scan.reference) < 0.05


def test_lines_of_a_turned_scan_are_set_level_and_a_rows_cells_share_a_baseline() -> None:
    """Three cells of one table row and a line of text, read from a scan turned one degree
    (each baseline falling 0.0175 a pixel across): set level, the cells' baselines agree, each
    keeps its words and text, and as evidence the row is one line of three runs."""
    slope = 0.0175

    def line(text: str, x0: float, y: float, width: float, words: int) -> ocr.Line:
        base = y + slope * (x0 + width / 2 - 1000)
        box = (x0, base - 30, x0 + width, base + 8 + slope * width)
        parts = tuple((f"w{k}", (x0 + k * width / words, base - 30, x0 + (k + 1) * width / words - 5, base + 8))
                      for k in range(words))
        return ocr.Line(text, 0.9, box, tuple(round(v) for v in box), base, parts, 38.0, slope)

    read = [line("A long line of text across the page", 100, 500, 1800, 7), line("Alpha", 100, 900, 200, 1),
            line("12", 900, 900, 100, 1), line("Omega", 1700, 900, 200, 1)]
    level = ocr.level(read, 1000, 1000, ocr.skew_of(read))
    assert [ln.text for ln in level] == [ln.text for ln in read]
    row = [ln.baseline for ln in level[1:]]
    assert max(row) - min(row) < 1.0 < max(ln.baseline for ln in read[1:]) - min(ln.baseline for ln in read[1:])
    placed = [ocr.Line(ln.text, ln.confidence, (ln.box[0] / 4, 1000 - ln.box[3] / 4, ln.box[2] / 4,
                                                1000 - ln.box[1] / 4), ln.pixels, 1000 - ln.baseline / 4, (),
                       ln.height and ln.height / 4) for ln in level]
    lines = ocr.evidence_lines(placed)
    assert [[run["text"] for run in ln["runs"]] for ln in lines] == [["A long line of text across the page"],
                                                                    ["Alpha", "12", "Omega"]]


def test_a_recognized_row_is_a_run_a_cell_and_keeps_every_character() -> None:
    """Words a size and a half apart or more part a recognized line into runs, as a text layer
    draws a table's cells; what the engine told outside its words (a bullet, a closing mark)
    stays in the first and last run; a word not found in the line's text leaves it one run."""
    def line(text: str, words: list[tuple[str, float, float]]) -> ocr.Line:
        return ocr.Line(text, 0.9, (100.0, 500.0, 400.0, 510.0), (0, 0, 1, 1), 502.0,
                        tuple((word, (x0, 500.0, x1, 510.0)) for word, x0, x1 in words), 10.0)

    row = line("• Cases Charged 207 197.", [("Cases", 110, 135), ("Charged", 138, 175), ("207", 240, 255),
                                             ("197.", 300, 320)])
    (evidence,) = ocr.evidence_lines([row])
    assert [run["text"] for run in evidence["runs"]] == ["• Cases Charged", "207", "197."]
    assert [run["box"][0] for run in evidence["runs"]] == [110, 240, 300]
    prose = line("a line of prose", [("a", 100, 105), ("line", 110, 130), ("of", 135, 145), ("prose", 150, 175)])
    assert [run["text"] for run in ocr.evidence_lines([prose])[0]["runs"]] == ["a line of prose"]
    lost = line("Cases 207", [("Cases", 110, 135), ("2O7", 240, 255)])
    assert [run["text"] for run in ocr.evidence_lines([lost])[0]["runs"]] == ["Cases 207"]


def test_a_level_scan_is_left_as_read() -> None:
    read = [ocr.Line("Level text of a page", 0.9, (100, 470, 1900, 508), (100, 470, 1900, 508), 500,
                     tuple((f"w{k}", (100 + 400 * k, 470, 400 + 400 * k, 508)) for k in range(4)), 38.0, 0.0)]
    assert ocr.level(read, 1000, 1000, ocr.skew_of(read)) == read


def test_which_images_of_a_text_page_auto_reads() -> None:
    """A page-size image under only a footer is read (the footer's box is handed on, so its
    words are not read twice); under a page of text (a scan with an OCR'd text layer) it is not;
    a small image under a word is not either."""
    from siftpdf.child import ocrpage

    def record(images: list[list[float]], lines: int) -> dict[str, Any]:
        rows = [{"y": 700 - 14 * k, "size": 10, "runs": [{"text": "words " * 12, "box": [72, 698 - 14 * k, 540,
                                                                                          710 - 14 * k]}]}
                for k in range(lines)]
        footer = {"y": 30, "size": 9, "runs": [{"text": "Page footer", "box": [72, 28, 160, 38]}]}
        return {"page": 1, "status": "text", "evidence": {"width": 612, "height": 792, "lines": [*rows, footer],
                                                          "images": [{"rect": r} for r in images]}}

    page_image = [0.0, 0.0, 612.0, 792.0]
    assert ocrpage._unread_images(None, record([page_image], 0)) == ([tuple(page_image)], [(72, 28, 160, 38)])
    assert ocrpage._unread_images(None, record([page_image], 40)) == ([], [])
    assert ocrpage._unread_images(None, record([[60.0, 20.0, 200.0, 60.0]], 0)) == ([], [])


# -- a page read on two cores: where it is cut (ocr.pieces) ---------------------------------------

def _page(blocks: list[tuple[int, int, int, int]], size: tuple[int, int] = (1000, 1400)) -> Any:
    """A white page image with lines of 'text' (black bars 20 pixels high, 12 apart) filling
    each block (x0, y0, x1, y1)."""
    import numpy as np

    width, height = size
    gray = np.full((height, width), 255, dtype=np.uint8)
    for x0, y0, x1, y1 in blocks:
        for top in range(y0, y1 - 20, 32):
            gray[top:top + 20, x0:x1] = 0
    return gray


def test_two_columns_are_cut_at_their_gutter_left_first() -> None:
    gray = _page([(80, 100, 480, 1300), (520, 100, 920, 1300)])
    ((x0, _, x1, _), (x2, _, x3, _)) = ocr.pieces(gray)
    assert x0 == 0 and 480 <= x1 == x2 <= 520 and x3 == 1000


def test_a_title_over_two_columns_is_read_first_then_each_column() -> None:
    gray = _page([(200, 60, 800, 140), (80, 200, 480, 1300), (520, 200, 920, 1300)])
    title, left, right = ocr.pieces(gray)
    assert title[1] == 0 and 140 <= title[3] <= 200 and left[1] == right[1] == title[3]
    assert left[0] == 0 and 480 <= left[2] == right[0] <= 520


def test_one_column_is_cut_between_two_lines_near_the_middle_of_its_ink() -> None:
    gray = _page([(80, 100, 920, 1300)])
    top, bottom = ocr.pieces(gray)
    assert top[3] == bottom[1] and 500 <= top[3] <= 900
    assert gray[top[3]].min() == 255  # through no line


def test_columns_that_share_their_blank_rows_are_cut_only_where_no_column_runs_on() -> None:
    """Two columns with lines on one grid, a wide figure across the page, two columns again:
    every blank row between two lines runs through both columns, and no gutter runs down the
    page. The cut falls where no column runs on across it (beside the figure), so each piece
    reads its columns one after the other."""
    gray = _page([(80, 100, 480, 600), (520, 100, 920, 600), (80, 640, 920, 700),
                  (80, 740, 480, 1300), (520, 740, 920, 1300)])
    top, bottom = ocr.pieces(gray)
    assert top[3] == bottom[1] and (600 <= top[3] <= 640 or 692 <= top[3] <= 740)


def test_a_blank_page_is_one_piece() -> None:
    import numpy as np

    assert ocr.pieces(np.full((300, 200), 255, dtype=np.uint8)) == [(0, 0, 200, 300)]


def test_a_turned_rule_drawn_as_a_staircase_is_one_level_rule() -> None:
    """A rule of a scan fed in turned is drawn as runs on neighbouring rows, each a little
    further along: one rule, level once turned by the page's skew, its length kept."""
    skew = 0.01  # a rule 600 pixels long drops 6 pixels
    runs = [(x, 100 + x // 100, x + 110, 101 + x // 100) for x in range(0, 600, 100)]  # (x0, y0, x1, y1)
    (rule,) = ocr.rule_lines(runs, skew, 300.0, 100.0)
    x0, y0, x1, y1 = rule
    assert y1 - y0 <= 1.0 and x1 - x0 == pytest.approx(610, abs=2)
    # Two rules apart (a table's two borders) stay two; a column rule stays a column rule.
    two = ocr.rule_lines([(0, 10, 500, 11), (0, 40, 500, 41), (5, 0, 6, 300)], None, 0.0, 0.0)
    assert sorted(round(r[1]) for r in two if r[2] - r[0] > 100) == [10, 40]
    assert [r for r in two if r[3] - r[1] > 100] == [(5.0, 0.0, 6.0, 300.0)]
