"""Tables on drawn PDFs, checked as a reader sees them: the JSON rows and spans,
the Markdown table and the text view; and the bounds that keep a hostile page cheap."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import records
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

import siftpdf
from siftpdf.document import table_text
from siftpdf.organize import organize_records
from siftpdf.organize.layout import Item
from siftpdf.organize.tables import (
    _lenient_gutter,
    _Region,
    build_table,
    find_tables,
    places,
    read_rules,
    unruled_tables,
)
from siftpdf.settings import OrganizeOptions
from siftpdf.views.markdown import page_markdown

BODY = "The survey counted every gauge along the river and the table gives what was found."


def _extract(run_cli, path: Path, *extra: str) -> list[dict[str, Any]]:
    result = run_cli("extract", "--in-process", *extra, str(path))
    assert result.exit_code == 0, result.output
    return records(result.output)


def _tables(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for r in recs if "page" in r for b in r["blocks"] if b["kind"] == "table"]


def _texts(table: dict[str, Any]) -> list[list[str]]:
    return [[c["text"] for c in row] for row in table["rows"]]


def _over_pages(recs: list[dict[str, Any]]) -> list[list[list[str]]]:
    """The tables' rows as a reader puts them together: a part marked ``continued`` (a table's
    rows on the page after its start) goes on under the part before, a head it repeats dropped."""
    tables: list[list[list[str]]] = []
    for table in _tables(recs):
        if table.get("continued") is True and tables:
            tables[-1] += _texts(table)[table["header_rows"]:]
        else:
            tables.append(_texts(table))
    return tables


def _laid_out(table: dict[str, Any]) -> list[list[str]]:
    """The table's cells where they stand: a cell spanning rows or columns in each of its places."""
    grid: dict[tuple[int, int], str] = {}
    for r, c, cell in places(table["rows"]):
        for dr in range(cell.get("rowspan", 1)):
            for dc in range(cell.get("colspan", 1)):
                grid[(r + dr, c + dc)] = cell["text"]
    width = max(c for _, c in grid) + 1
    return [[grid.get((r, c), "") for c in range(width)] for r in range(len(table["rows"]))]


def _grid(c: canvas.Canvas, xs: list[float], ys: list[float], line: Any = None) -> None:
    """Rules round every cell of a grid, each drawn by ``line(x0, y0, x1, y1)`` (the canvas's
    stroked line unless given)."""
    line = line or c.line
    for y in ys:
        line(xs[0], y, xs[-1], y)
    for x in xs:
        line(x, ys[0], x, ys[-1])


@pytest.fixture(scope="module")
def ruled(tmp_path_factory) -> Path:
    """A fully ruled table: a header cell over two columns, a cell of two lines."""
    path = tmp_path_factory.mktemp("tables") / "ruled.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    xs, ys = [72, 200, 320, 440], [720, 680, 640, 620]
    for y in ys:
        c.line(xs[0], y, xs[-1], y)
    c.line(200, 700, 440, 700)  # under the spanning header cell only: Station spans two rows
    for x in (72, 200, 440):
        c.line(x, ys[0], x, ys[-1])
    c.line(320, 700, 320, ys[-1])  # the header's second cell spans two columns: no rule above 700
    c.setFont("Helvetica-Bold", 10)
    c.drawString(76, 706, "Station")
    c.drawString(204, 706, "Flow (m3/s)")
    c.setFont("Helvetica", 10)
    c.drawString(204, 686, "min")
    c.drawString(324, 686, "max")
    c.drawString(76, 666, "Upper weir on the")
    c.drawString(76, 654, "north branch")
    c.drawString(204, 660, "1.20")
    c.drawString(324, 660, "4.85")
    c.drawString(76, 626, "Mill bridge")
    c.drawString(204, 626, "2.05")
    c.drawString(324, 626, "6.61")
    c.drawString(72, 590, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    return path


def test_ruled_table_rows_spans_and_multiline_cells(run_cli, ruled):
    tables = _tables(_extract(run_cli, ruled))
    assert len(tables) == 1
    table = tables[0]
    assert _texts(table) == [["Station", "Flow (m3/s)"], ["min", "max"],
                             ["Upper weir on the north branch", "1.20", "4.85"], ["Mill bridge", "2.05", "6.61"]]
    assert table["rows"][0][0].get("rowspan") == 2 and table["rows"][0][1].get("colspan") == 2
    assert table["header_rows"] == 2


def test_ruled_table_markdown_and_text_view(run_cli, ruled):
    recs = _extract(run_cli, ruled)
    page = next(r for r in recs if "page" in r)
    md = page_markdown(page)
    assert '<th rowspan="2">Station</th><th colspan="2">Flow (m3/s)</th>' in md
    assert "<td>Upper weir on the north branch</td><td>1.20</td><td>4.85</td>" in md
    text = run_cli("extract", "--in-process", "--text", str(ruled)).output.split("\n")
    assert "Upper weir on the north branch | 1.20 | 4.85" in text
    assert "Mill bridge | 2.05 | 6.61" in text
    assert BODY in text


def test_ruling_is_in_the_evidence(run_cli, ruled):
    page = next(r for r in _extract(run_cli, ruled, "--set", "output.evidence=true") if "page" in r)
    rules = page["evidence"]["rules"]
    def near(a: list[float], b: list[float]) -> bool:  # a stroke's bounds take in half its width
        return all(abs(u - v) <= 1.0 for u, v in zip(a, b, strict=True))

    assert any(near(r, [72, 620, 72, 720]) for r in rules) and any(near(r, [72, 720, 440, 720]) for r in rules)
    assert any(near(r, [200, 700, 440, 700]) for r in rules)
    assert all(r[0] == r[2] or r[1] == r[3] for r in rules)


def test_rules_drawn_as_stretched_images_rule_a_table(run_cli, tmp_path):
    """Some TeX drivers and word processors draw a table's borders as a one-pixel image
    stretched into a bar: they rule the table as a stroked line would, and are in the
    evidence's rules."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    pixel = ImageReader(Image.new("L", (1, 1), 0))

    def bar(x0: float, y0: float, x1: float, y1: float) -> None:  # a pixel stretched 0.4 pt thick along the line
        c.drawImage(pixel, min(x0, x1) - 0.2 * (x0 == x1), min(y0, y1) - 0.2 * (y0 == y1),
                    max(abs(x1 - x0), 0.4), max(abs(y1 - y0), 0.4))

    path = tmp_path / "image-rules.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    xs, ys = [72, 200, 320, 440], [720, 700, 680, 660]
    _grid(c, xs, ys, bar)
    for y, cells in zip((706, 686, 666), (["Station", "min", "max"], ["North weir", "1.20", "4.85"],
                                          ["Mill bridge", "2.05", "6.61"]), strict=True):
        for x, text in zip(xs, cells, strict=False):
            c.drawString(x + 4, y, text)
    c.drawString(72, 630, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    recs = _extract(run_cli, path, "--set", "output.evidence=true")
    rules = next(r for r in recs if "page" in r)["evidence"]["rules"]
    assert [72.0, 700.0, 440.0, 700.0] in rules and [200.0, 660.0, 200.0, 720.0] in rules
    tables = _tables(recs)
    assert len(tables) == 1
    assert _texts(tables[0]) == [["Station", "min", "max"], ["North weir", "1.20", "4.85"],
                                 ["Mill bridge", "2.05", "6.61"]]


@pytest.fixture(scope="module")
def booktabs(tmp_path_factory) -> Path:
    """Horizontal rules only: above the table, under its header, below it."""
    path = tmp_path_factory.mktemp("tables") / "booktabs.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    c.drawString(72, 760, BODY)
    c.setLineWidth(0.8)
    c.line(72, 730, 480, 730)
    c.setLineWidth(0.4)
    c.line(72, 712, 480, 712)
    rows = [["Model", "Params", "Accuracy", "Latency"], ["Small", "11M", "71.2", "3 ms"],
            ["Base", "110M", "78.9", "9 ms"], ["Large", "340M", "81.4", "27 ms"], ["Huge", "1.3B", "83.0", "95 ms"]]
    for r, row in enumerate(rows):
        y = 717 if r == 0 else 700 - 14 * (r - 1)
        for x, cell in zip((76, 200, 300, 400), row, strict=True):
            c.drawString(x, y, cell)
    c.setLineWidth(0.8)
    c.line(72, 644, 480, 644)
    c.drawString(72, 610, "Table 2 shows that accuracy grows slowly with the number of parameters.")
    c.showPage()
    c.save()
    return path


def test_booktabs_table_columns_from_alignment(run_cli, booktabs):
    tables = _tables(_extract(run_cli, booktabs))
    assert len(tables) == 1
    assert _texts(tables[0]) == [["Model", "Params", "Accuracy", "Latency"], ["Small", "11M", "71.2", "3 ms"],
                                 ["Base", "110M", "78.9", "9 ms"], ["Large", "340M", "81.4", "27 ms"],
                                 ["Huge", "1.3B", "83.0", "95 ms"]]
    page = next(r for r in _extract(run_cli, booktabs) if "page" in r)
    md = page_markdown(page)
    assert "| Model | Params | Accuracy | Latency |\n|---|---|---|---|\n| Small | 11M | 71.2 | 3 ms |" in md


def test_unruled_aligned_table(run_cli, tmp_path):
    path = tmp_path / "unruled.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 760, BODY)
    rows = [["Gauge", "Depth", "Flow", "Silt"], ["North", "1.2", "14.3", "low"], ["East", "2.0", "21.7", "high"]]
    for r, row in enumerate(rows):
        for x, cell in zip((72, 200, 300, 400), row, strict=True):
            c.drawString(x, 720 - 14 * r, cell)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [rows]
    assert not any("Gauge" in b["text"] for r in _extract(run_cli, path) if "page" in r
                   for b in r["blocks"] if b["kind"] != "table")


def _gauges_over_two_pages(path: Path, last: int, under: tuple[str, str], gap: float) -> None:
    """A ruled table of gauges from a page's foot (rows 1 to ``last``) to the next page's head
    (rows 10 to 14), a line of text (``under``, one a part; empty: none) ``gap`` points under each."""
    c = canvas.Canvas(str(path), pagesize=A4)
    for page, (top, first, end) in enumerate([(200, 1, last), (800, 10, 14)]):
        c.setFont("Helvetica", 10)
        if page == 0:
            c.drawString(72, 760, BODY)
        ys = [top - 18 * k for k in range(end - first + 2)]
        _grid(c, [72, 250, 420], ys)
        for k, n in enumerate(range(first, end + 1)):
            c.drawString(76, ys[k] - 13, f"Gauge {n}")
            c.drawString(254, ys[k] - 13, f"{n * 1.5:.1f}")
        if under[page]:
            c.drawString(72, ys[-1] - gap, under[page])
        c.showPage()
    c.save()


def test_a_tables_last_rows_printed_at_the_next_pages_head_go_on_as_its_rows(run_cli, tmp_path):
    """A table without rules (heads in bold, figures set flush right) the page's end breaks
    after four rows; the next page prints its last two at its head, no heads again: too few
    alone to read as a table, they go on as the table's rows there, marked as going on, not
    as a paragraph of their words."""
    path = tmp_path / "rows_over.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    rows = [("Weir", "50,447", "43.3%"), ("Mill", "34.9%", "2,380"), ("Ford", "126,589", "23.8%"),
            ("Lock", "86.6", "107.5"), ("Sluice", "1,204", "12.5%"), ("Pond", "77.0", "3,310")]

    def row(y: float, cells: tuple[str, str, str], font: str = "Helvetica") -> None:
        c.setFont(font, 10)
        c.drawString(72, y, cells[0])
        for right, text in zip((260, 360), cells[1:], strict=True):
            c.drawRightString(right, y, text)

    c.setFont("Helvetica", 10)
    for k in range(40):
        c.drawString(72, 770 - 14 * k, BODY[:70])
    row(180, ("Gauge", "Depth", "Flow"), "Helvetica-Bold")
    for k, cells in enumerate(rows[:4]):
        row(164 - 16 * k, cells)
    c.showPage()
    for k, cells in enumerate(rows[4:]):
        row(790 - 16 * k, cells)
    recs = _closed_under_text(run_cli, c, path, 740)
    first, second = _tables(recs)
    assert _texts(first) == [["Gauge", "Depth", "Flow"], *map(list, rows[:4])]
    assert _texts(second) == list(map(list, rows[4:])) and second["continued"] is True
    assert second["header_rows"] == 0 and [s["page"] for s in second["spans"]] == [2]
    assert _over_pages(recs) == [[["Gauge", "Depth", "Flow"], *map(list, rows)]]


def _closed_under_text(run_cli, c: canvas.Canvas, path: Path, top: float) -> list[dict[str, Any]]:
    """The canvas's page closed under ten lines of text from ``top`` down (Helvetica, 10 points),
    the document saved and extracted: its records."""
    c.setFont("Helvetica", 10)
    for k in range(10):
        c.drawString(72, top - 14 * k, BODY[:70])
    c.showPage()
    c.save()
    return _extract(run_cli, path)


def _lines_and_caption(path: Path, lines: int, top: float, caption: tuple[float, str] | None) -> canvas.Canvas:
    """A page to draw at ``path``: ``lines`` lines of text 14 points apart from ``top`` down
    (Helvetica, 10 points), then a table's caption at (72, y) when given."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    for k in range(lines):
        c.drawString(72, top - 14 * k, BODY[:70])
    if caption:
        c.drawString(72, caption[0], caption[1])
    return c


def test_a_tables_head_left_alone_under_its_caption_at_a_page_end_heads_its_rows_on_the_next_page(
        run_cli, tmp_path):
    """A table of two columns without rules: the page's end leaves its caption and its bold head
    alone at the page's foot, its rows printed at the next page's head: the head is the table's
    head row, not a heading, and the rows go on under it as its part there, not a paragraph of
    their words. The same bold line under no caption stays as it was. So too in a browser's
    frame, its top and sides round the head, its sides and foot round the rows at the next
    page's head (open above: a table of its own, rows enough for one): the head is that
    table's head row, the part on the next page going on from it."""
    rows = [("Lercan", "556"), ("Nearne", "-11.9"), ("Min", "18.3%"), ("Mar", "45")]
    more = [*rows, ("Tolve", "2,311"), ("Brack", "7.5"), ("Ousel", "902")]

    def draw(path: Path, caption: bool, rows: list[tuple[str, str]], framed: bool = False) -> list[dict[str, Any]]:
        c = _lines_and_caption(path, 40, 770, (190, "Table 2. Counts by district.") if caption else None)
        c.setFont("Helvetica-Bold", 10)
        c.drawString(72, 168, "District")
        c.drawRightString(260, 168, "Households")
        if framed:
            c.line(68, 181, 264, 181)
            for x in (68, 264):
                c.line(x, 181, x, 164)
        c.showPage()
        c.setFont("Helvetica", 10)
        for k, (label, figure) in enumerate(rows):
            c.drawString(72, 790 - 16 * k, label)
            c.drawRightString(260, 790 - 16 * k, figure)
        foot = 790 - 16 * len(rows) + 10
        if framed:
            for x in (68, 264):
                c.line(x, 842, x, foot)
            c.line(68, foot, 264, foot)
        for k in range(10):
            c.drawString(72, foot - 36 - 14 * k, BODY[:70])
        c.showPage()
        c.save()
        return _extract(run_cli, path)

    recs = draw(tmp_path / "head_left.pdf", True, rows)
    first, second = _tables(recs)
    assert _texts(first) == [["District", "Households"]] and first["header_rows"] == 1
    assert _texts(second) == list(map(list, rows)) and second["continued"] is True
    assert [s["page"] for s in first["spans"]] == [1] and [s["page"] for s in second["spans"]] == [2]
    assert _over_pages(recs) == [[["District", "Households"], *map(list, rows)]]
    assert _tables(draw(tmp_path / "no_caption.pdf", False, rows)) == []
    recs = draw(tmp_path / "framed.pdf", True, more, framed=True)
    first, second = _tables(recs)
    assert _texts(first) == [["District", "Households"]] and first["header_rows"] == 1
    assert second["continued"] is True and second["header_rows"] == 0
    assert _over_pages(recs) == [[["District", "Households"], *map(list, more)]]
    assert not any(b["kind"] == "heading" for r in recs if "page" in r for b in r["blocks"])


def test_a_tables_group_heads_and_heads_left_under_its_caption_at_a_page_end_head_its_rows(run_cli, tmp_path):
    """The page's end leaves a table's caption, a line of a group head (not in bold) centred over
    its two columns of figures and its bold line of heads at the page's foot, its rows printed at
    the next page's head: both lines are the table's head rows, the group head over its two
    columns, not a paragraph and a heading; the rows go on under them as its part there."""
    path = tmp_path / "group_left.pdf"
    rows = [("Lercan", "556", "1,204"), ("Nearne", "-11.9", "38"), ("Min", "18.3%", "2.5"), ("Mar", "45", "907")]
    c = _lines_and_caption(path, 40, 770, (196, "Table 2. Counts by district."))
    c.drawCentredString((162 + 300) / 2, 182, "Counted in 2020")
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, 168, "District")
    c.drawRightString(220, 168, "Households")
    c.drawRightString(300, 168, "Persons")
    c.showPage()
    c.setFont("Helvetica", 10)
    for k, (label, *figures) in enumerate(rows):
        c.drawString(72, 790 - 16 * k, label)
        for x, figure in zip((220, 300), figures, strict=True):
            c.drawRightString(x, 790 - 16 * k, figure)
    recs = _closed_under_text(run_cli, c, path, 700)
    first, second = _tables(recs)
    assert _laid_out(first) == [["", "Counted in 2020", "Counted in 2020"], ["District", "Households", "Persons"]]
    assert first["header_rows"] == 2 and second["continued"] is True
    assert _texts(second) == list(map(list, rows))
    assert not any(b["kind"] == "heading" for r in recs if "page" in r for b in r["blocks"])


def test_table_continued_on_the_next_page_goes_on_where_its_rows_are_printed(run_cli, tmp_path):
    """A ruled table the page's end breaks: each page keeps the rows it prints (grep and
    ``pages`` cite them there), the second part marked as going on from the first, its first
    row no head."""
    path = tmp_path / "continued.pdf"
    _gauges_over_two_pages(path, 9, ("", "The list ends here."), 40)
    recs = _extract(run_cli, path)
    first, second = _tables(recs)
    assert [row[0] for row in _texts(first)] == [f"Gauge {n}" for n in range(1, 10)]
    assert [row[0] for row in _texts(second)] == [f"Gauge {n}" for n in range(10, 15)]
    assert [s["page"] for s in first["spans"]] == [1] and [s["page"] for s in second["spans"]] == [2]
    assert "continued" not in first and second["continued"] is True and second["header_rows"] == 0
    assert [[row[0] for row in t] for t in _over_pages(recs)] == [[f"Gauge {n}" for n in range(1, 15)]]
    assert [b["kind"] for b in [r for r in recs if "page" in r][1]["blocks"]] == ["table", "paragraph"]
    found = run_cli("grep", "--in-process", "Gauge 12", str(path))
    assert "p. 2: Gauge 12 | 18.0" in found.output.splitlines(), found.output
    markdown = run_cli("extract", "--in-process", "--markdown", str(path)).output
    assert "--- page 2 ---\n\n|  |  |\n|---|---|\n| Gauge 10 | 15.0 |" in markdown


def test_a_table_captioned_under_it_at_a_pages_foot_ends_there(run_cli, tmp_path):
    """Two tables of the same columns, the first at a page's foot with its caption under it, the
    second at the head of the next page: the caption ends the first, the second is a table of
    its own, its first row its head."""
    path = tmp_path / "captioned.pdf"
    _gauges_over_two_pages(path, 8, ("Table 1: Depths at the gauges of the north.",
                                     "Table 2: Depths at the gauges of the south."), 24)
    first, second = _tables(_extract(run_cli, path))
    assert "continued" not in second and second["header_rows"] == 1
    assert [row[0] for row in _texts(second)] == [f"Gauge {n}" for n in range(10, 15)]


def test_a_turned_table_drawn_one_glyph_at_a_time_reads_upright(run_cli, tmp_path):
    """A landscape table set turned on a portrait page (reading up it), its producer drawing
    each glyph alone: a glyph has no second origin to tell its run's angle by, so the page's
    own turn is read from each glyph's, and the table reads as the page turned shows it. The
    running head over it, upright on the page and drawn glyph by glyph too, is set aside whole."""
    path = tmp_path / "turned.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    head = "Gauges of the Upper Valley"
    glyphs = [k for k, ch in enumerate(head) if ch != " "]
    for n, k in enumerate(glyphs):  # its baseline off by a hair from glyph to glyph: runs of one glyph
        c.drawString(72 + pdfmetrics.stringWidth(head[:k], "Helvetica", 9), 800 + 0.05 * (n % 2), head[k])
    rows = [["Gauge", "Depth", "Flow"], ["North", "1.2", "14.3"], ["East", "2.0", "21.7"], ["West", "0.8", "9.6"]]
    for r, cells in enumerate(rows):
        for x, cell in zip((80, 260, 400), cells, strict=True):
            for k, ch in enumerate(cell):
                c.saveState()
                # turned: across the table is up the page, each glyph set at its advance
                c.translate(120 + 24 * r, x + pdfmetrics.stringWidth(cell[:k], "Helvetica", 10))
                c.rotate(90)
                c.setFont("Helvetica", 10)
                c.drawString(0, 0, ch)
                c.restoreState()
    c.showPage()
    c.save()
    recs = _extract(run_cli, path, "--set", "output.evidence=true")
    runs = [run for line in recs[1]["evidence"]["lines"] for run in line["runs"] if run["box"][1] < 790]
    assert all(len(run["text"]) == 1 and run.get("angle") == 90 for run in runs)
    assert [_texts(t) for t in _tables(recs)] == [rows]
    assert [f["text"] for f in recs[1]["furniture"]] == [head]


def test_page_of_many_tiny_paths_skips_ruling_and_says_so(run_cli, tmp_path):
    path = tmp_path / "hatched.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 800, "A page hatched with twenty thousand strokes still reads.")
    for k in range(20000):
        x, y = 40 + (k % 200) * 2.5, 100 + (k // 200) * 6
        c.line(x, y, x + 1.5, y + 1.5)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path, "--set", "output.evidence=true")
    page = next(r for r in recs if "page" in r)
    assert page["evidence"]["rules_skipped"] is True and page["evidence"]["rules"] == []
    assert "twenty thousand strokes" in page["text"]
    assert recs[-1]["done"]["organization"]["ruling_skipped_pages"] == 1


def _cells_page(rows: int, cols: int) -> dict[str, Any]:
    """Evidence of one page holding a ruled table of rows x cols cells, one number each."""
    width, height = 2000.0, 2000.0
    xs = [50 + 19 * k for k in range(cols + 1)]
    ys = [1950 - 19 * k for k in range(rows + 1)]
    lines = []
    for r in range(rows):
        base = ys[r] - 14
        runs = [{"text": str(r * cols + k), "font": "Helvetica", "size": 5.0, "color": "#000000",
                 "box": [xs[k] + 2, base - 1, xs[k] + 14, base + 4]} for k in range(cols)]
        lines.append({"y": base, "size": 5.0, "runs": runs})
    rules = [[xs[0], y, xs[-1], y] for y in ys] + [[x, ys[-1], x, ys[0]] for x in xs]
    evidence = {"width": width, "height": height, "rotation": 0, "lines": lines, "images": [], "rules": rules,
                "clipped_chars": 0, "unmapped_chars": 0}
    return {"page": 1, "status": "text", "text": "", "evidence": evidence}


def test_ten_thousand_cells_render():
    out = list(organize_records(iter([{"meta": {"pages": 1}}, _cells_page(100, 100), {"done": {}}]),
                                OrganizeOptions()))
    page = next(r for r in out if "page" in r)
    tables = [b for b in page["blocks"] if b["kind"] == "table"]
    assert len(tables) == 1 and sum(len(row) for row in tables[0]["rows"]) == 10_000
    assert tables[0]["rows"][99][99]["text"] == "9999"
    md = page_markdown(page)
    assert md.count("\n") >= 100 and "| 9999 |" in md
    assert page["text"].split("\n")[-1].endswith("9998 | 9999")


def test_hostile_rules_never_break_a_page():
    page = _cells_page(3, 3)
    page["evidence"]["rules"] += [[float("nan")] * 4, [1e308, 0, -1e308, 0], "x", None, [1, 2, 3], [True, 0, "a", 5],
                                  [0, 0, float("inf"), 0]]
    out = list(organize_records(iter([page, {"done": {}}]), OrganizeOptions()))
    assert "organize_error" not in out[0]
    assert _texts(next(b for b in out[0]["blocks"] if b["kind"] == "table"))[2] == ["6", "7", "8"]


def test_rows_of_prose_are_no_table():
    """A page of ordinary lines between two page-wide rules (a running head's rule and a
    footer's) has one column: no table."""
    lines = [Item(text=BODY, x0=72, y0=700 - 14 * k, x1=520, y1=708 - 14 * k, y=700 - 14 * k, size=10)
             for k in range(20)]
    rules = [[72, 730, 520, 730], [72, 400, 520, 400]]
    rows = find_tables([[i] for i in lines], read_rules({"rules": rules}, 612, 792))
    assert all(i.kind == "line" for row in rows for i in row)


def test_row_drawn_by_one_text_object_is_parted_at_its_wide_spaces(run_cli, tmp_path):
    """A producer that sets each table row as one string, its cells parted by word spacing:
    the wide spaces are in the evidence and the cells come apart; prose keeps its spaces."""
    path = tmp_path / "one_object_rows.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    c.line(72, 740, 400, 740)
    c.line(72, 722, 400, 722)
    c.line(72, 660, 400, 660)
    rows = [["Gauge", "Depth", "Flow"], ["North", "1.25", "14.30"], ["East", "2.05", "21.75"],
            ["South", "0.95", "9.10"]]
    for r, row in enumerate(rows):
        text = c.beginText(76, 728 - 16 * r - (4 if r else 0))
        text.setFont("Helvetica", 10)
        text.setWordSpace(40)
        text.textOut(" ".join(row))
        c.drawText(text)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path, "--set", "output.evidence=true")
    page = next(r for r in recs if "page" in r)
    runs = [run for line in page["evidence"]["lines"] for run in line["runs"]]
    assert any(run["text"] == "North 1.25 14.30" and len(run["gaps"]) == 2 for run in runs)
    assert not any("gaps" in run for run in runs if run["text"].startswith("The survey"))
    assert [_texts(t) for t in _tables(recs)] == [rows]
    assert "| North | 1.25 | 14.30 |" in page_markdown(page)


def test_bar_chart_grid_is_no_table(run_cli, tmp_path):
    """A bar chart: gridlines across the plot, bars drawn as outlined boxes, a number on each
    bar. Its rules cross like a table's, but the boxes are mostly empty and hold only numbers."""
    path = tmp_path / "chart.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    for k in range(6):
        c.line(100, 500 + 40 * k, 500, 500 + 40 * k)
        c.drawString(80, 497 + 40 * k, str(20 * k))
    c.setFont("Helvetica", 8)
    for k, (low, high) in enumerate([(62, 21), (71, 13), (83, 5), (85, 2)]):
        x = 130 + 95 * k
        c.setFillGray(0.6)
        c.rect(x, 500, 40, 2 * low, stroke=1, fill=1)
        c.setFillGray(0.3)
        c.rect(x, 500 + 2 * low, 40, 2 * high, stroke=1, fill=1)
        c.setFillGray(0)
        c.drawString(x + 14, 500 + low - 3, str(low))
        c.drawString(x + 16, 500 + 2 * low + high - 3, str(high))
        c.drawString(x, 485, f"Phase {k + 1}")
    c.setFont("Helvetica", 10)
    c.drawString(72, 450, "The share working as usual grew in every phase.")
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert _tables(recs) == []
    text = next(r for r in recs if "page" in r)["text"]
    assert "83" in text and "Phase 4" in text


def test_grid_open_below_with_its_heads_above_the_frame(run_cli, tmp_path):
    """Rules between the rows only (none under the last), a column rule stopping short of the
    open bottom, and the column heads set above the top rule: the heads are the header row,
    the labels' column stands apart."""
    path = tmp_path / "open_grid.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    for y in (700, 640, 580):
        c.line(60, y, 540, y)
    c.line(140, 530, 140, 700)  # the labels' rule stops short of the open bottom
    for x in (340,):
        c.line(x, 520, x, 700)
    c.drawString(220, 708, "Optical reading")
    c.drawString(400, 708, "Semantic search")
    cells = [(700, "Pack", ["Reads characters in an", "image of a receipt"], ["Finds products by", "what they mean"]),
             (640, "Use", ["Any form that holds", "printed text"], ["Any shop with a", "large catalogue"]),
             (580, "Proof", ["First place in a", "reading contest"], ["Gold medal in a", "search challenge"])]
    for top, label, left, right in cells:
        c.drawString(70, top - 28, label)
        for k, (a, b) in enumerate(zip(left, right, strict=True)):
            c.drawString(150, top - 20 - 14 * k, a)
            c.drawString(350, top - 20 - 14 * k, b)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == [["", "Optical reading", "Semantic search"]] + \
        [[label, " ".join(left), " ".join(right)] for _, label, left, right in cells]
    assert tables[0]["header_rows"] == 1


def test_underlined_labels_and_a_header_missing_its_column_rule(run_cli, tmp_path):
    """Underlines under a label's lines part no rows, and two heads with no rule between them
    but a clear gap stay two cells (a heading spread over both would cross the gap)."""
    path = tmp_path / "underlined.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    xs, ys = [100, 260, 400, 540], [700, 670, 630, 600]
    for y in ys:
        c.line(xs[0], y, xs[-1], y)
    for x in (100, 260, 540):
        c.line(x, ys[0], x, ys[-1])
    c.line(400, 670, 400, ys[-1])  # no rule between the two heads
    c.drawString(270, 682, "Mitosis")
    c.drawString(410, 682, "Meiosis")
    c.drawString(104, 654, "Chromosomes in the")
    c.line(100, 652, 260, 652)  # each label line underlined across its cell
    c.drawString(104, 642, "parent cell")
    c.line(100, 640, 260, 640)
    c.drawString(270, 648, "2n")
    c.drawString(410, 648, "2n")
    c.drawString(104, 612, "Daughter cells")
    c.drawString(270, 612, "2")
    c.drawString(410, 612, "4")
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [[["", "Mitosis", "Meiosis"], ["Chromosomes in the parent cell", "2n", "2n"],
                                            ["Daughter cells", "2", "4"]]]


def test_grid_whose_rows_sit_on_their_borders_keeps_its_rows(run_cli, tmp_path):
    """Cells as tight as a word processor sets them: each row's baseline under a quarter of an
    em above the border below it, which runs on across the column rule. That border parts
    the rows (an underline would stay inside its cell)."""
    path = tmp_path / "tight.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 12)
    c.drawString(72, 780, BODY)
    rows = [["Income level of individual or geography", "% of the area median income"],
            ["Low-income", "Less than 50"], ["Moderate-income", "At least 50 and less than 80"],
            ["Middle-income", "At least 80 and less than 120"], ["Upper-income", "120 or more"]]
    top, pitch = 700.0, 14.2
    for r, row in enumerate(rows):
        y = top - pitch * (r + 1)
        c.line(72, y, 540, y)
        for x in (72, 311.4, 540):
            c.line(x, y + 0.2, x, y + pitch - 0.2)  # each row's column rules its own
        c.drawString(77.4, y + 2.7, row[0])
        c.drawString(316.8, y + 2.7, row[1])
    c.line(72, top, 540, top)
    c.line(72, top - pitch * len(rows) - 1.5, 540, top - pitch * len(rows) - 1.5)  # the frame's foot, apart
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [rows]


def test_shaded_heads_edge_under_a_head_parts_no_rows(run_cli, tmp_path):
    """A shading's edge just under a group head, the border under that head a little lower:
    the edge parts no rows, and the head on the left spans both rows of heads."""
    path = tmp_path / "shaded.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    c.line(58, 700, 363, 700)
    c.line(59, 688.6, 362, 688.6)  # the shading's edge, 2.1 points under the group head's baseline
    c.line(130, 685.2, 363, 685.2)  # the border under the group head
    c.line(58, 672, 363, 672)
    c.line(58, 658, 363, 658)
    c.line(58, 644, 363, 644)
    for x in (58, 130, 363):
        c.line(x, 644, x, 700)
    for x in (208, 286):
        c.line(x, 644, x, 685.2)
    c.drawString(177, 690.7, "How healthy do you think you are?")
    c.drawString(79, 680.5, "Gender")
    for x, head in zip((144, 220, 304), ("Very healthy", "Quite healthy", "Unhealthy"), strict=True):
        c.drawString(x, 676, head)
    for y, row in ((661, ("Male", "36", "102", "16")), (647, ("Female", "33", "270", "32"))):
        for x, cell in zip((60, 196, 270, 352), row, strict=True):
            c.drawString(x, y, cell)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    head = tables[0]["rows"][0]
    assert head[0] == {"text": "Gender", "rowspan": 2}
    assert _texts(tables[0])[1:] == [["Very healthy", "Quite healthy", "Unhealthy"], ["Male", "36", "102", "16"],
                                     ["Female", "33", "270", "32"]]


def test_long_booktabs_table_and_a_page_of_two_columns_between_rules(run_cli, tmp_path):
    """Fifty rows of figures between a table's rules are one table; a page of two columns of
    prose between a rule under its running head and one over its foot, as long, is none."""
    path = tmp_path / "long.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 7.5)
    c.line(44, 800, 300, 800)
    for x, head in zip((46, 100, 150, 190), ("State", "Deaths", "Rate", "Share"), strict=True):
        c.drawString(x, 790, head)
    c.line(44, 785, 300, 785)
    states = [(f"Area{k + 1:02d}", f"{1000 + 37 * k:,}", f"{150 - k * 1.1:.1f}", f"{k % 7 + 2}.{k % 10}")
              for k in range(50)]
    for r, row in enumerate(states):  # each row one text object, its cells parted by word spacing
        text = c.beginText(46, 775 - 11 * r)
        text.setFont("Helvetica", 7.5)
        text.setWordSpace(30)
        text.textOut(" ".join(row))
        c.drawText(text)
    c.line(44, 775 - 11 * 50 + 5, 300, 775 - 11 * 50 + 5)
    c.showPage()
    c.setFont("Times-Roman", 10)
    c.drawString(72, 800, "Journal of Examples")
    c.line(72, 794, 523, 794)
    words = "the gauges were read at dawn and at dusk and the readings were logged".split()
    for r in range(50):
        for x in (72, 306):
            c.drawString(x, 780 - 14 * r, " ".join(words[(r + k) % len(words)] for k in range(6)))
    c.line(72, 70, 523, 70)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    tables = [[b for b in r["blocks"] if b["kind"] == "table"] for r in recs if "page" in r]
    assert len(tables[0]) == 1 and _texts(tables[0][0]) == [["State", "Deaths", "Rate", "Share"],
                                                             *[list(row) for row in states]]
    assert tables[1] == []


def test_paragraphs_beside_a_margin_between_rules_spanning_both_are_no_table(run_cli, tmp_path):
    """A journal's page: a rule under its head and one over its foot span the text and a wide
    outer margin, where the journal's short name, volume and folio and a side caption stand
    on baselines of their own; the text column holds paragraphs. The lines are paragraphs, not
    a table of the margin and the text."""
    path = tmp_path / "margin.pdf"
    c = canvas.Canvas(str(path), pagesize=(482, 700))
    c.setFont("Times-Roman", 10)
    c.line(20, 660, 462, 660)
    words = "the gauges were read at dawn and at dusk and the readings were logged each day by".split()
    y, gaps = 640, []
    for paragraph in range(3):
        for k in range(11):  # justified: each line but the last spread to the column's right edge
            text = " ".join(words[(paragraph + k + j) % len(words)] for j in range(15)) if k < 10 else "the end of it."
            x = 128 if k == 0 else 116
            line = c.beginText(x, y)
            line.setFont("Times-Roman", 10)
            if k < 10:
                line.setWordSpace((456 - x - pdfmetrics.stringWidth(text, "Times-Roman", 10)) / text.count(" "))
            line.textOut(text)
            c.drawText(line)
            y -= 12
        gaps.append(y - 3)
        y -= 18
    for label, top in zip(("ER 29,2", "170", "Table I."), gaps, strict=True):
        c.drawString(20, top, label)
    c.line(20, y - 4, 462, y - 4)
    c.showPage()
    c.save()
    page = next(r for r in _extract(run_cli, path) if "page" in r)
    assert [b for b in page["blocks"] if b["kind"] == "table"] == []
    assert sum(b["text"].endswith("the end of it.") for b in page["blocks"]) == 3


def test_a_glossary_of_long_entries_between_rules_stays_a_table(run_cli, tmp_path):
    """Terms beside descriptions of several lines as wide as most of the table, between a top
    and a bottom rule: each term beside its description's first line keeps it a table."""
    path = tmp_path / "glossary.pdf"
    c = canvas.Canvas(str(path), pagesize=(482, 700))
    c.setFont("Times-Roman", 10)
    c.line(20, 660, 462, 660)
    words = "the gauges were read at dawn and at dusk and the readings were logged each day by".split()
    y, terms = 640, ["Gauge", "Datum", "Stage", "Reach"]
    for entry, term in enumerate(terms):
        c.drawString(24, y, term)
        for k in range(4):
            c.drawString(116, y, " ".join(words[(entry + k + j) % len(words)] for j in range(15)))
            y -= 12
        y -= 6
    c.line(20, y, 462, y)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1 and [row[0] for row in _texts(tables[0])] == terms


def test_lines_each_shaded_on_a_box_of_their_own_width_are_no_table(corpus: Path) -> None:
    """A textbook's objectives, each line shaded on a box as wide as the line (boxes a few
    points apart, one above the other, sharing their left edge only): lines of a list, not a
    table whose columns the boxes' ragged right edges would make."""
    pdf = corpus / "forms-tables" / "tests_pdfs_issue-71-duplicate-chars-2.pdf"
    page = next(r for r in siftpdf.extract(pdf.read_bytes(), max_pages=1) if "page" in r)
    assert [b for b in page["blocks"] if b["kind"] == "table"] == []
    assert "Savoir conduire le diagnostic étiologique d’une acidose métabolique." in page["text"]


def test_terms_centred_beside_long_ragged_descriptions_between_rules_stay_a_table(run_cli, tmp_path):
    """Terms set midway down descriptions of nine lines, ragged at the right, as wide as most of
    the table, between a top and a bottom rule: a table still (its cells' edge is ragged, no
    justified column of running text)."""
    path = tmp_path / "centred.pdf"
    c = canvas.Canvas(str(path), pagesize=(482, 800))
    c.setFont("Times-Roman", 10)
    c.line(20, 760, 462, 760)
    words = "the gauges were read at dawn and at dusk and the readings were logged each day by".split()
    y, terms = 745, ["Gauge", "Datum"]
    for entry, term in enumerate(terms):
        top = y
        for k in range(9):
            c.drawString(116, y, " ".join(words[(entry + k + j) % len(words)] for j in range(12 + (k * 5) % 4)))
            y -= 12
        c.drawString(24, (top + y + 12) / 2 - 5, term)
        y -= 8
    c.line(20, y + 4, 462, y + 4)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1 and [row[0] for row in _texts(tables[0]) if row[0]] == terms


def test_labels_in_a_column_left_unruled_between_rows_stay_one_a_row(run_cli, tmp_path):
    """A cost sheet: the figures' boxes ruled row by row, the labels' column ruled only round
    its frame. Each label stands on its row's figures: one row each, not one cell of all."""
    path = tmp_path / "costs.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 8)
    c.drawString(72, 780, BODY)
    rows = [("Salaries", "1,314,000", "373,250"), ("Fringe Benefits", "352,000", "99,988"),
            ("Consultant Services", "26,000", "14,000"), ("Staff Travel", "94,000", "20,000"),
            ("Office Rent", "170,000", "170,000")]
    top, pitch = 740, 10
    c.line(72, top + 14, 340, top + 14)
    for x, head in zip((76, 210, 280), ("Cost Category", "Total", "Indirect"), strict=True):
        c.drawString(x, top + 4, head)
    bottom = top - pitch * len(rows)
    for x in (72, 200, 270, 340):
        c.line(x, bottom, x, top + 14)
    for r, row in enumerate(rows):
        y = top - pitch * r
        c.line(72 if r == 0 else 200, y, 340, y)  # under the heads, then the figures' boxes only
        c.drawString(74, y - 8, row[0])
        c.drawRightString(266, y - 8, row[1])
        c.drawRightString(336, y - 8, row[2])
    c.line(72, bottom, 340, bottom)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [[["Cost Category", "Total", "Indirect"], *[list(row) for row in rows]]]


def _booktabs(c: canvas.Canvas, top: float, xs: tuple[float, ...], heads: tuple[str, ...],
              body: list[tuple[str, ...]], pitch: float, right: float = 440) -> None:
    """A booktabs table from ``top`` down, its rules from just left of ``xs`` to ``right``: a
    rule, the heads, a rule, the body's lines ``pitch`` apart (a line may leave its last cells
    out), a rule, then a line of the page's text."""
    left = xs[0] - 6
    c.line(left, top, right, top)
    for x, head in zip(xs, heads, strict=True):
        c.drawString(x, top - 10, head)
    c.line(left, top - 14, right, top - 14)
    for r, row in enumerate(body):
        for x, cell in zip(xs, row, strict=False):
            c.drawString(x, top - 24 - pitch * r, cell)
    c.line(left, top - 30 - pitch * len(body), right, top - 30 - pitch * len(body))
    c.drawString(72, top - 48 - pitch * len(body), "Table 6: what each row gives, and the text of the page goes on.")


def test_booktabs_body_of_two_lines_of_figures_is_two_rows(run_cli, tmp_path):
    """Two lines of figures between the rule under the heads and the bottom rule are two rows;
    two lines whose second only runs on the first's label are one row of a cell that wraps."""
    path = tmp_path / "two.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 8)
    c.drawString(72, 780, BODY)
    heads = ("Model", "H6 (Avg.)", "ARC", "MMLU", "GSM8K")
    xs = (156, 220, 280, 340, 400)
    _booktabs(c, 740, xs, heads, [("Cand. 1", "73.73", "70.48", "65.73", "66.57"),
                                  ("Cand. 2", "73.28", "71.59", "66.14", "59.14")], 9)
    _booktabs(c, 640, xs, heads, [("Merge v1", "74.00", "71.16", "66.14", "64.90"), ("(average)",)], 9)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [
        [list(heads), ["Cand. 1", "73.73", "70.48", "65.73", "66.57"], ["Cand. 2", "73.28", "71.59", "66.14", "59.14"]],
        [list(heads), ["Merge v1 (average)", "74.00", "71.16", "66.14", "64.90"]]]


def _framed(path: Path, head: str | None, rows: list[list[str]], foot: str) -> None:
    """A page with a grid of ``rows`` whose frame holds a first row across it (``head``, when
    given) and a last one (``foot``), the page's text above and below it."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    xs = [72, 200, 330, 460]
    ys = [740 - 20 * k for k in range(len(rows) + 2 + (head is not None))]
    top, bottom = (ys[1] if head is not None else ys[0]), ys[-2]  # the column rules' reach
    for y in ys:
        c.line(xs[0], y, xs[-1], y)
    for x in xs:
        c.line(x, top if x not in (xs[0], xs[-1]) else ys[0], x, bottom if x not in (xs[0], xs[-1]) else ys[-1])
    if head is not None:
        c.drawString(76, ys[0] - 14, head)
    for r, row in enumerate(rows):
        for x, cell in zip(xs, row, strict=False):
            c.drawString(x + 4, top - 14 - 20 * r, cell)
    c.drawString(76, ys[-1] + 6, foot)
    c.drawString(72, ys[-1] - 30, "After the table the text goes on as before.")
    c.showPage()
    c.save()


def test_a_head_wider_than_its_figures_set_flush_right_close_to_the_column_before_starts_a_column(run_cli, tmp_path):
    """A frame round a narrow table (a browser's box): columns of figures set flush right, the
    last one's head ("Weighted") wider than its figures and set flush right too, so that it
    starts its column less than an em from the figures before: three columns, each figure in
    its own."""
    path = tmp_path / "narrow.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    rows = [("Region", "2012", "Weighted"), ("Pe", "14.9", "20.1"), ("Bendgous", "0.0", "16.5%"),
            ("Doust", "41.8%", "73,360")]
    c.rect(70, 740 - 16 * len(rows), 186, 16 * len(rows) + 12)
    for k, (label, first, second) in enumerate(rows):
        y = 740 - 16 * k
        c.drawString(76, y, label)
        c.drawRightString(200, y, first)
        c.drawRightString(251, y, second)
    texts, _ = _only_table(run_cli, c, path)
    assert texts == [list(row) for row in rows]


def test_figures_set_flush_left_close_to_the_labels_before_them_start_a_column(run_cli, tmp_path):
    """A table without rules (a browser's, its cells set flush left and padded close): labels,
    then two columns of figures, each starting under its head less than an em (0.85) from the
    widest label before it. The figures that start together are a column: three columns, each
    figure in its own."""
    path = tmp_path / "flush-left.pdf"
    c, _ = _table_canvas(path, lambda *_: None)
    rows = [("Station", "2019", "2015"), ("Weir", "89.7%", "68,756"), ("Mill", "40.8%", "114.7"),
            ("Lockkeepers", "83.5%", "76.3%")]
    first = 76 + max(pdfmetrics.stringWidth(row[0], "Helvetica", 10) for row in rows) + 8.5
    second = first + max(pdfmetrics.stringWidth(row[1], "Helvetica", 10) for row in rows) + 8.5
    for k, row in enumerate(rows):
        for x, text in zip((76, first, second), row, strict=True):
            c.drawString(x, 740 - 16 * k, text)
    texts, _ = _only_table(run_cli, c, path)
    assert texts == [list(row) for row in rows]


def test_marks_of_one_width_starting_together_close_to_labels_start_no_column():
    """Figures starting together less than an em after the labels start a column only when
    their widths differ (set flush left): marks of one width (a symbol set as a digit, a
    form's line numbers) end together too, as a column of one-digit marks does, which is none."""
    from siftpdf.organize.tables import _column_gaps, _Piece

    def rows(marks: list[str]) -> list[_Piece]:
        out = []
        for k, (label, mark) in enumerate(zip(("Weir", "Mill", "Ford", "Lockkeepers"), marks, strict=True)):
            y = 700 - 14 * k
            out += [_Piece(76, 76 + 5 * len(label), y, y + 8, y - 2, 10.0, label, False),
                    _Piece(139.5, 139.5 + 5 * len(mark), y, y + 8, y - 2, 10.0, mark, False)]
        return out

    assert len(_column_gaps(rows(["2019", "89.7%", "40.8%", "83.5%"]), 0, 600)) == 1
    assert _column_gaps(rows(["2", "2", "2", "2"]), 0, 600) == []


def test_caption_and_source_set_in_a_tables_frame_are_no_rows(run_cli, tmp_path):
    """A grid whose frame holds its caption in a first row across it and its source in a last
    one: the table is the rows between; the caption and the source read as the page's lines,
    before and after it."""
    rows = [["Standard", "General", "Alternate"], ["Content taught", "Grade level", "Extensions"],
            ["Achievement", "Grade level", "Alternate level"]]
    _framed(tmp_path / "exhibit.pdf", "Exhibit 9 Characteristics of Types of Assessments", rows,
                   "Source: Adapted from the National Alternate Assessment Center, July 2005.")
    recs = _extract(run_cli, tmp_path / "exhibit.pdf")
    assert [_texts(t) for t in _tables(recs)] == [rows]
    md = page_markdown(next(r for r in recs if "page" in r))
    caption, table, source = md.index("Exhibit 9"), md.index("| Standard"), md.index("Source: Adapted")
    assert caption < table < source


def test_caption_set_under_a_table_inside_its_frame_follows_it(run_cli, tmp_path):
    """A grid whose last row across it holds the table's caption ("Figure 7: …" under the
    figures): the caption is no row of the table; it reads after it."""
    rows = [["Workload", "Base", "Zone"], ["Java", "38.45", "38.29"], ["Networking", "283.30", "284.24"]]
    _framed(tmp_path / "caption-under.pdf", None, rows, "Figure 7: Performance of each workload run in a zone.")
    recs = _extract(run_cli, tmp_path / "caption-under.pdf")
    assert [_texts(t) for t in _tables(recs)] == [rows]
    md = page_markdown(next(r for r in recs if "page" in r))
    assert md.index("| Workload") < md.index("Figure 7: Performance") < md.index("After the table")


def test_heads_set_over_the_first_rule_of_a_table_without_a_top_rule(run_cli, tmp_path):
    """A table ruled under its heads, over its total and under it, with no rule over the
    heads: the lines under the first rule are rows of figures, each a row, and the heads over
    that rule are the table's head row, not a paragraph before it."""
    path = tmp_path / "no-top-rule.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    xs = [72, 170, 230, 300, 370]
    heads = ["Software", "lang.", "total", "sampled", "catastrophic"]
    rows = [["Cassandra", "Java", "3,923", "40", "2"], ["HBase", "Java", "5,804", "41", "21"],
            ["HDFS", "Java", "2,828", "41", "9"], ["Redis", "C", "1,192", "38", "8"]]
    for x, head in zip(xs, heads, strict=True):
        c.drawString(x, 744, head)
    c.line(70, 740, 440, 740)
    for r, row in enumerate(rows):
        for x, cell in zip(xs, row, strict=True):
            c.drawString(x, 728 - 12 * r, cell)
    c.line(70, 686, 440, 686)
    for x, cell in zip(xs, ["Total", "–", "17,216", "198", "48"], strict=True):
        c.drawString(x, 675, cell)
    c.line(70, 670, 440, 670)
    c.drawString(72, 640, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == [heads, *rows, ["Total", "–", "17,216", "198", "48"]]
    assert tables[0]["header_rows"] == 1


def test_rows_of_a_short_label_and_a_long_title_between_rules_are_a_table(run_cli, tmp_path):
    """Rows of a short label and a long title that wraps, between two rules: the title holds
    most of each line, as a caption's text does after its label, yet the labels stand in a
    column of their own and no label ends as a caption's does: a table, not running text."""
    path = tmp_path / "clusters.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 9)
    c.drawString(72, 780, BODY)
    rows = [("cs.LG", ["On Unifying Deep Generative Models"]),
            ("stat.ML", ["Learning Disentangled Representations", "with Semi-Supervised Generative Models"]),
            ("cs.LG", ["Denoising Criterion for Variational Auto-", "Encoding Framework"]),
            ("cs.CV", ["Variational methods for conditional multi-", "modal deep learning"])]
    c.line(300, 750, 520, 750)
    y = 738
    for label, title in rows:
        c.drawRightString(333, y, label)  # under a word space's width more than a column gap
        for line in title:
            c.drawString(341.5, y, line)
            y -= 10
    c.line(300, y + 2, 520, y + 2)
    c.drawString(300, y - 14, "Table 7: Sampled papers in two clusters.")
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [[row[0] for row in _texts(t)] for t in tables] == [[label for label, _ in rows]]


def test_booktabs_heads_of_several_lines_are_one_header_row(run_cli, tmp_path):
    """Above the rule under the header: a line of group heads over two columns each, then
    heads of two or three lines; each head is one cell of one row."""
    path = tmp_path / "heads.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    c.drawString(72, 780, BODY)
    c.line(72, 760, 480, 760)
    c.drawString(200, 748, "Contour farming")
    c.drawString(360, 748, "Strip cropping")
    heads = [["Slope", "gradient", "(%)"], ["Slope", "length (ft)"], ["P value"], ["Strip", "width (ft)"], ["P value"]]
    for x, lines in zip((76, 180, 260, 340, 420), heads, strict=True):
        for k, line in enumerate(lines):
            c.drawString(x, 734 - 12 * k, line)
    c.line(72, 704, 480, 704)
    body = [["1 - 2", "400", "0.6", "130", "0.30"], ["3 - 5", "300", "0.5", "100", "0.25"],
            ["6 - 8", "200", "0.5", "100", "0.25"]]
    for r, row in enumerate(body):
        for x, cell in zip((76, 180, 260, 340, 420), row, strict=True):
            c.drawString(x, 690 - 14 * r, cell)
    c.line(72, 656, 480, 656)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    rows = _texts(tables[0])
    assert rows[1] == ["Slope gradient (%)", "Slope length (ft)", "P value", "Strip width (ft)", "P value"]
    assert rows[2:] == body
    assert tables[0]["header_rows"] == 2


def close_heads_table(c: canvas.Canvas, body: list[list[str]]) -> None:
    """A statistics table between three rules: a label and four columns of figures under heads
    set closer than the columns (the last three heads one line of words), rows from y 676."""
    c.setFont("Times-Roman", 10)
    c.line(72, 710, 480, 710)
    c.drawString(76, 698, "Type of institution")
    c.drawString(230, 698, "Borrowed")
    c.drawString(300, 698, "Under 10,000 10,000 to 30,000 More")
    c.line(72, 690, 480, 690)
    for r, row in enumerate(body):
        c.drawString(76, 676 - 12 * r, row[0])
        for x, cell in zip((270, 330, 400, 460), row[1:], strict=True):
            c.drawRightString(x, 676 - 12 * r, cell)
    c.line(72, 600, 480, 600)


def test_booktabs_table_under_a_ruled_running_head_and_heads_set_close(run_cli, tmp_path):
    """A rule under the running head as long as the table's: the glossary entry, the paragraph
    and the caption between it and the table's top rule are no part of the table. The heads over the figures
    are set closer than the columns below them (one line of words): the columns the rows all
    leave open still part, and the heads' line spans them."""
    path = tmp_path / "statistics.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Italic", 10)
    c.drawString(72, 790, "Borrowing for graduate study")
    c.line(72, 784, 480, 784)
    c.setFont("Times-Bold", 10)
    c.drawString(72, 774, "Amount borrowed")
    c.drawRightString(480, 774, "AMTBOR")  # a glossary's entry: a line of two parts
    c.setFont("Times-Roman", 10)
    c.drawString(72, 760, BODY)
    c.drawString(72, 746, "Most students borrowed less than the year before, and fewer borrowed at all.")
    c.drawString(72, 732, "The amounts are in current dollars and the rows give the type of institution.")
    c.setFont("Times-Bold", 10)
    c.drawString(72, 720, "Table 4.  Amount borrowed, by type of institution: 2003")
    body = [["Public 4-year", "44.4", "25.5", "10.2", "26.9"],
            ["Non-doctorate-granting", "40.0", "27.3", "11.3", "32.4"],
            ["Doctorate-granting", "46.5", "24.7", "9.7", "24.6"],
            ["Private not-for-profit", "45.9", "20.3", "10.3", "25.7"],
            ["Other", "41.3", "11.2", "11.2", "43.2"], ["Total", "44.8", "23.2", "10.3", "27.0"]]
    close_heads_table(c, body)
    c.drawString(72, 580, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    tables = _tables(recs)
    assert len(tables) == 1
    rows = _texts(tables[0])
    assert rows == [["Type of institution", "Borrowed", "Under 10,000 10,000 to 30,000 More"], *body]
    assert [cell.get("colspan", 1) for cell in tables[0]["rows"][0]] == [1, 1, 3]
    assert tables[0]["header_rows"] == 1  # the heads over three columns are no group over the first row
    assert all("Most students" not in cell for row in rows for cell in row)
    assert "Most students borrowed" in page_markdown(next(r for r in recs if "page" in r))


def test_panels_of_prose_side_by_side_are_no_table(run_cli, tmp_path):
    """Three panels of a brochure, each a short paragraph wrapped over a few lines, their
    lines on shared baselines: they read as paragraphs, not as rows of a table."""
    path = tmp_path / "panels.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    panels = [["Unlike the older gauges that only report", "the level at the bank, the new ones",
               "measure the flow across the whole", "width of the river"],
              ["By sending every reading to the office", "as it is taken, the time spent waiting",
               "for the weekly figures is cut down", "to a few hours"],
              ["The records kept over many years let", "the survey plan its work in the wet",
               "season and in the dry season", "alike"]]
    for x, lines in zip((40, 220, 400), panels, strict=True):
        for k, line in enumerate(lines):
            c.drawString(x, 700 - 12 * k, line)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert not _tables(recs)
    md = page_markdown(next(r for r in recs if "page" in r))
    assert "the new ones measure the flow across the whole width of the river" in md


def _headed_page(path: Path, cells: list[list[list[str]]], heads: list[str], xs: tuple[float, ...],
                 spacing: float = 14) -> None:
    """Column heads in bold, then rows whose cells of one to three lines are centred on
    their row's middle; no rule anywhere (the grid was a picture)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    c.setFont("Helvetica-Bold", 9)
    for x, head in zip(xs, heads, strict=True):
        c.drawString(x, 740, head)
    c.setFont("Helvetica", 8)
    middle = 712.0
    for row in cells:
        tallest = max(len(cell) for cell in row)
        for x, cell in zip(xs, row, strict=True):
            top = middle + 5.0 * (len(cell) - 1)
            for k, line in enumerate(cell):
                c.drawString(x, top - 10 * k, line)
        middle -= 10 * tallest + spacing
    c.showPage()
    c.save()


def test_unruled_table_under_a_line_of_heads_with_cells_of_several_lines(run_cli, tmp_path):
    """Under a line of bold column heads, cells of several lines set beside shorter ones,
    each centred in its row: each cell is one, each row one."""
    path = tmp_path / "headed.pdf"
    cells = [[["1. Survey"], ["Gauge reading", "and upkeep"], ["Read every gauge along", "the river each week",
                                                              "and mend the broken ones"]],
             [["2. Records"], ["Filing"], ["Keep the weekly sheets", "in the office"]],
             [["3. Report"], ["Yearly report", "to the board"], ["Sum up the year"]],
             [["4. Review"], ["Audit"], ["Check the sheets against", "the gauges twice a year"]]]
    _headed_page(path, cells, ["Stage", "Task", "Detail"], (72, 180, 300))
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == [["Stage", "Task", "Detail"]] + [[" ".join(cell) for cell in row] for row in cells]
    assert tables[0]["header_rows"] == 1


def test_text_columns_under_bold_heads_are_no_table(run_cli, tmp_path):
    """Three columns of running text, each under its own bold head on one baseline (a
    newsletter page): the lines of a column stand a line apart all the way down, so no rows
    part and the page stays text."""
    path = tmp_path / "newsletter.pdf"
    words = "the survey went out along the river in the spring and counted every gauge it found".split()
    cells = [[[" ".join(words[(k + j) % 9:(k + j) % 9 + 6]) for k in range(12)] for j in range(3)]]
    _headed_page(path, cells, ["River news", "Weather", "Letters"], (72, 250, 420))
    assert not _tables(_extract(run_cli, path))


def test_headed_table_rows_packed_close_part_where_the_short_cells_end(run_cli, tmp_path):
    """Rows packed so close that the long cells of one column run on from row to row at
    their line pitch: the rows still part, where the short cells beside them end."""
    path = tmp_path / "packed.pdf"
    cells = [[["North"], ["Weir"], ["Read the gauge at the weir", "every morning before", "the gates are opened"]],
             [["East"], ["Mill"], ["Read the gauge by the mill", "after the wheel stops", "for the night"]],
             [["South"], ["Ford"], ["Read the post at the ford", "when the water is low", "enough to wade"]]]
    _headed_page(path, cells, ["Bank", "Site", "Instructions"], (72, 180, 300), spacing=4)
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0])[1:] == [[" ".join(cell) for cell in row] for row in cells]


def _statistics_grid(c: canvas.Canvas, top: float) -> list[tuple[str, ...]]:
    """A statistics table ruled around its heads and its body, with column rules, but none
    between the body's rows; one label centred on two lines beside its figures. Returns the
    rows a reader sees."""
    xs = [80, 260, 350, 440, 520]
    bottom = top - 150
    for y in (top, top - 30, bottom):
        c.line(xs[0], y, xs[-1], y)
    for x in xs:
        c.line(x, top, x, bottom)
    c.setFont("Helvetica-Bold", 9)
    for x, head in zip(xs[1:-1], ("To air", "To water", "To land"), strict=True):
        c.drawString(x + 8, top - 18, head)
    c.setFont("Helvetica", 9)
    rows = [("Ammonia", "10 000", "-", "-"), ("Carbon monoxide", "500 000", "-", "-"),
            ("Chlorine and compounds (as HCl)", "10 000", "200", "-"), ("Halons", "1", "(X)", "***"),
            ("Nitrogen oxides", "*100 000", "–", "50a")]
    y = top - 44
    for label, *figures in rows:
        if label.startswith("Chlorine"):  # two lines, the figures centred between them
            c.drawString(86, y + 4, "Chlorine and compounds")
            c.drawString(86, y - 6, "(as HCl)")
            y -= 6
        else:
            c.drawString(86, y, label)
        for x, figure in zip(xs[1:-1], figures, strict=True):
            c.drawRightString(x + 70, y, figure)
        y -= 18
    return [("", "To air", "To water", "To land"), *rows]


def test_grid_ruled_between_groups_of_rows_parts_its_lines_of_figures(run_cli, tmp_path):
    """A statistics grid whose body is one ruled band: each line of figures is a row, a label
    of two lines goes with its figures; inside the page's frame of rules, it is still found."""
    path = tmp_path / "statistics.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.rect(40, 40, 515, 762)  # a frame around the whole page
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    expected = _statistics_grid(c, 700)
    c.drawString(72, 500, "The thresholds apply to each facility on its own.")
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert [tuple(row) for row in _texts(tables[0])] == expected


def test_grid_of_text_cells_keeps_its_cells_of_several_lines(run_cli, tmp_path):
    """The same grid with words in its cells: a cell of several lines is one cell."""
    path = tmp_path / "text_grid.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    xs, top, bottom = [80, 260, 520], 700, 600
    for y in (top, top - 30, bottom):
        c.line(xs[0], y, xs[-1], y)
    for x in xs:
        c.line(x, top, x, bottom)
    c.drawString(86, top - 18, "Step")
    c.drawString(266, top - 18, "What is done")
    lines = [("Gauges read", "Every gauge is read at dawn"), ("and logged", "and the log is signed")]
    for k, (a, b) in enumerate(lines):
        c.drawString(86, top - 48 - 14 * k, a)
        c.drawString(266, top - 48 - 14 * k, b)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == [["Step", "What is done"],
                                 ["Gauges read and logged", "Every gauge is read at dawn and the log is signed"]]


def _read_as_a_listing(run_cli, c: canvas.Canvas, path: Path, code: list[str]) -> None:
    """Save the page drawn on ``c``: no table on it, and every line of ``code`` read."""
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert _tables(recs) == []
    text = next(r for r in recs if "page" in r)["text"]
    assert all(line in text for line in code)


@pytest.mark.parametrize("titled", [False, True])
def test_code_box_with_line_numbers_is_no_table(run_cli, tmp_path, titled):
    """A listing in a framed box ruled under each line, its lines numbered from 1: a numbered
    listing, not a table of two columns; its lines are all read. A title over the listing, in
    the box, ruled off from it, changes nothing."""
    path = tmp_path / "listing.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    c.rect(70, 650, 450, 74 + (18 if titled else 0))
    if titled:
        c.drawString(76, 728, "rebar.config")
        c.line(70, 724, 520, 724)
    code = ["{deps, [", '{sync, ".*",', '{git, "https://example.org/sync.git"}}', "]}."]
    c.setFont("Courier", 9)
    for k, line in enumerate(code):
        if k:
            c.line(70, 706 - 16 * (k - 1), 520, 706 - 16 * (k - 1))
        c.drawRightString(92, 710 - 16 * k, str(k + 1))
        c.drawString(110, 710 - 16 * k, line)
    _read_as_a_listing(run_cli, c, path, code)


def test_listing_continued_from_the_page_before_is_no_table(run_cli, tmp_path):
    """A framed listing ruled under each line, whose line numbers go on from the page before
    (8, 9 …), with a blank line (its number alone) and a line that wraps: a listing, not a
    table of two columns."""
    path = tmp_path / "listing8.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    code = ["StatsD.increment('unrelated') # no match", "StatsD.increment('counter.name') # matches",
            "end", "", "# Set times if there will be many matches:", "assert_statsd_increment('counter') do",
            "StatsD.increment('counter.name', sample_rate: 0.1) # does", "end"]
    c.rect(70, 740 - 14 * (len(code) + 2), 450, 14 * (len(code) + 1) + 6)
    c.setFont("Courier", 9)
    y = 728
    for k, line in enumerate(code):
        c.drawRightString(92, y, str(k + 8))
        c.drawString(110, y, line)
        c.line(70, y - 4, 520, y - 4)
        y -= 14
    c.drawString(110, y, "not match")  # the wrapped end of the line above
    _read_as_a_listing(run_cli, c, path, code)


def test_table_drawn_as_bands_of_boxes_apart_is_one_table(run_cli, tmp_path):
    """A table drawn band by band, each band's boxes a few points below the last one's (their
    borders never meet), an area's label boxed beside its competences: one table, the label
    spanning its rows."""
    path = tmp_path / "bands.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    bands = [("Area", ["Competence"]), ("1. Values", ["1.1 Valuing", "1.2 Fairness"]),
             ("2. Complexity", ["2.1 Systems", "2.2 Critical", "2.3 Framing"])]
    top = 720
    for label, items in bands:
        height = 24 * len(items)
        c.rect(80, top - height, 185, height)
        c.drawString(86, top - height / 2 - 3, label)
        for k, item in enumerate(items):
            c.rect(265, top - 24 * (k + 1), 250, 24)
            c.drawString(271, top - 24 * k - 15, item)
        top -= height + 5  # the next band's boxes start five points lower
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    rows = _texts(tables[0])
    assert rows == [["Area", "Competence"], ["1. Values", "1.1 Valuing"], ["1.2 Fairness"],
                    ["2. Complexity", "2.1 Systems"], ["2.2 Critical"], ["2.3 Framing"]]
    spans = {c["text"]: c.get("rowspan", 1) for row in tables[0]["rows"] for c in row}
    assert (spans["1. Values"], spans["2. Complexity"], spans["2.1 Systems"]) == (2, 3, 1)


def test_grid_ruling_groups_of_columns_parts_them_by_alignment(run_cli, tmp_path):
    """Age and count set three times across the page, a rule between the groups only, none
    between the rows: each group's two columns part where the text leaves a gap, each line
    is a row; the heads' band above stays the header."""
    path = tmp_path / "groups.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    groups, top, bottom = [72, 226, 380, 534], 700, 560
    for y in (top, top - 26, bottom):
        c.line(groups[0], y, groups[-1], y)
    for x in groups:
        c.line(x, top, x, bottom)
    c.setFont("Helvetica", 9)
    expected: list[list[str]] = [["Age", "Count"] * 3]
    for x in groups[:-1]:
        c.drawString(x + 6, top - 16, "Age")
        c.drawRightString(x + 146, top - 16, "Count")
    for line in range(6):
        row = []
        for k, x in enumerate(groups[:-1]):
            age, count = f"{40 * k + line} years", f"{(7 - line) * 311 + 97 * k:,}"
            c.drawString(x + 6, top - 42 - 18 * line, age)
            c.drawRightString(x + 146, top - 42 - 18 * line, count)
            row += [age, count]
        expected.append(row)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == expected


def _prose(x0: float, y: float, width: float = 225) -> Item:
    """A line of a column's prose ``width`` points wide from ``x0`` on baseline ``y``."""
    return Item(text=BODY[:50], x0=x0, y0=y - 2, x1=x0 + width, y1=y + 8, y=y, size=10)


def _segment(y: float, *cells: tuple[float, float, str]) -> Item:
    """One segment drawn as the runs ``cells`` (x0, x1, text) on baseline ``y``."""
    return Item(text=" ".join(t for _, _, t in cells), x0=cells[0][0], y0=y - 2, x1=cells[-1][1], y1=y + 8, y=y,
                size=10, pieces=list(cells))


def _two_column_page(beside: list[list[Item]]) -> list[list[Item]]:
    """Ten baselines of two columns of prose (72-297, 315-540), then ``beside``'s rows, each
    with a right-column line of prose filling its column, then ten more of two columns."""
    rows = [[_prose(72, 700 - 12 * k), _prose(315, 700 - 12 * k)] for k in range(10)]
    for k, row in enumerate(beside):
        y = 580 - 12 * k
        rows.append([*(Item(text=i.text, x0=i.x0, y0=y - 2, x1=i.x1, y1=y + 8, y=y, size=10, pieces=i.pieces)
                       for i in row), _prose(315, y)])
    top = 580 - 12 * len(beside)
    rows += [[_prose(72, top - 12 * k), _prose(315, top - 12 * k)] for k in range(1, 11)]
    return rows


def test_a_table_in_one_column_drawn_as_two_segments_a_row_beside_prose():
    """Each row of a left-column table drawn as two segments (a label with its figures in one
    text object, a last figure apart), a line of the right column's prose on each baseline:
    the table has its four cells a row and none of the prose."""
    figures = [("Read/s", "15513", "14590", "0.94"), ("Write/s", "31003", "7232", "0.23"),
               ("Scan/s", "27000", "9100", "0.34")]
    beside = [[_segment(0, (80, 110, a), (140, 170, b), (190, 220, c)), _segment(0, (250, 270, d))]
              for a, b, c, d in figures]
    rows = unruled_tables(_two_column_page(beside), 612)
    tables = [i for row in rows for i in row if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in row] for row in tables[0].table["rows"]] == [list(row) for row in figures]
    assert sum(i.text == BODY[:50] for row in rows for i in row) == 20 + 20 + 3  # every line of prose kept


def _one_table_beside(rows: list[list[Item]], figures: list[tuple[str, ...]], kept: str) -> None:
    """``rows`` make one table, of ``figures``, and the other column's line ``kept`` stays a line."""
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == [list(f) for f in figures]
    assert any(i.text == kept for line in out for i in line)


def _line9(x0: float, x1: float, y: float, text: str = BODY[:50]) -> Item:
    return Item(text=text, x0=x0, y0=y - 2, x1=x1, y1=y + 8, y=y, size=9)


def _table_beside(figures: list[tuple[str, ...]], cells: list[tuple[float, float]],
                  columns: tuple[tuple[float, float], tuple[float, float]], beside: Callable[[int, float], Item],
                  after: tuple[float, float]) -> list[list[Item]]:
    """Ten baselines of two columns of prose (``columns``), then a table's rows of ``figures``
    (their cells at ``cells``) in one, ``beside(k, y)`` the other column's line on each, then
    ten more baselines of both columns from ``after`` (each column's first) down."""
    rows = [[_line9(*columns[0], 700 - 12 * k), _line9(*columns[1], 700 - 12 * k)] for k in range(10)]
    for k, texts in enumerate(figures):
        y = 570 - 14 * k
        line = [Item(t, x0, y - 2, x1, y + 8, y, 9) for (x0, x1), t in zip(cells, texts, strict=True)]
        rows.append(sorted([*line, beside(k, y)], key=lambda i: i.x0))
    rows += [[_line9(*columns[0], after[0] - 12 * k), _line9(*columns[1], after[1] - 12 * k)] for k in range(10)]
    return rows


def test_a_paragraphs_indented_first_line_beside_a_table_in_the_other_column_is_that_columns_text():
    """Two columns a wide gutter apart (83-268, 316-532), a table of three columns in the left
    one, the right column's prose beside it; one of its lines opens a paragraph, set in by an
    indent and running to the column's edge: it fills its column as measured from where the
    column starts (not from the gutter's middle), so it is the right column's text, not a
    fourth cell of the table's row."""
    figures = [("Weir", "50,447", "43.3%"), ("Mill", "34.9%", "2,380"), ("Ford", "126,589", "23.8%"),
               ("Lock", "86.6", "107.5")]
    rows = _table_beside(figures, [(83, 107), (184, 208), (245, 268)], ((83, 268), (316, 532)),
                         lambda k, y: _line9(338, 532, y, "A paragraph opens here") if k == 2 else _line9(316, 532, y),
                         (500, 500))
    _one_table_beside(rows, figures, "A paragraph opens here")


def test_a_paragraphs_short_last_line_beside_a_tables_heads_in_narrow_columns_is_that_columns_text():
    """Two narrow columns (a third of the page each): a table of three columns in the right one;
    in the left, a paragraph's last line, short of its column, on the table's heads' baseline,
    the paragraph's full lines above it and the next paragraph's lines below, none on a row of
    the table's figures: the short line is the left column's text, not a cell of the heads'."""
    def text(x1: float, y: float, words: str = BODY[:40]) -> Item:
        return Item(text=words, x0=82, y0=y - 2, x1=x1, y1=y + 8, y=y, size=10)

    def cells(y: float, *texts: tuple[float, float, str]) -> list[Item]:
        return [Item(t, a, y - 2, b, y + 8, y, 10) for a, b, t in texts]

    rows = [[text(282, 700 - 13.3 * k)] for k in range(8)]
    rows += [[text(282, 595.5)], [text(274, 582.2)],
             [text(256, 568.8, "the paragraph ends here."),
              *cells(568.8, (311, 370, "Station"), (398, 471, "Flow"), (487, 512, "2024"))],
             [text(275, 555.5)], cells(552.1, (311, 326, "Fio"), (454, 471, "271"), (483, 512, "57.6%")),
             [text(176, 542.1, "its last line.")],
             cells(537.3, (311, 347, "Mill"), (442, 471, "59.4%"), (492, 512, "65.2")),
             cells(522.5, (311, 371, "Ford"), (451, 471, "62.8"), (492, 512, "90.3"))]
    rows += [[text(282, 500 - 13.3 * k)] for k in range(8)]
    out = unruled_tables(rows, 595)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == \
        [["Station", "Flow", "2024"], ["Fio", "271", "57.6%"], ["Mill", "59.4%", "65.2"], ["Ford", "62.8", "90.3"]]
    assert any(i.text == "the paragraph ends here." for line in out for i in line)


def test_a_paragraphs_indented_first_line_ending_short_beside_a_table_is_that_columns_text():
    """A table of three columns in the right column of two, the left column's text beside it:
    a paragraph's first line, set in two ems and ending short of the column's edge (ragged,
    not stretched), shares its baseline with the table's last row: over the paragraph's next
    line at the pitch, it is the left column's text, not a cell of that row (the line above
    it a heading: no text for it to run on from)."""
    figures = [("Gram", "2000", "Nasttost"), ("Rir", "88,833", "33,271"), ("Panmend", "59.2%", "108.7"),
               ("Pliostmu", "34.4", "33.6%")]

    def beside(k: int, y: float) -> Item:
        return _line9(90, 276, y, "The survey counted every gauge along the river") if k == 3 else \
            _line9(72, 140, y, "3. Discussion") if k == 2 else _line9(72, 297, y)

    rows = _table_beside(figures, [(320, 350), (430, 455), (505, 540)], ((72, 297), (315, 540)), beside, (516, 504))
    _one_table_beside(rows, figures, "The survey counted every gauge along the river")


def test_a_table_drawn_a_row_an_object_between_the_other_columns_baselines_is_a_table():
    """LaTeX's tabular in the right column of two: each row one text object (its cells parts a
    column gap apart), the heads in bold, set on baselines between those of the left column's
    justified lines: a table of its heads and rows; the left column's lines stay its text."""
    def prose(y: float) -> Item:
        return Item(text=BODY[:50], x0=72, y0=y - 2, x1=297, y1=y + 8, y=y, size=10)

    def row(y: float, cells: tuple[str, str, str], bold: bool = False) -> Item:
        pieces = [(323.0, 323.0 + 5 * len(cells[0]), cells[0]), (470.0 - 5 * len(cells[1]), 470.0, cells[1]),
                  (530.0 - 5 * len(cells[2]), 530.0, cells[2])]
        return Item(text=" ".join(cells), x0=323, y0=y - 2, x1=530, y1=y + 8, y=y, size=10, bold=bold,
                    bold_all=bold, spread=len(cells[0]) <= 4, pieces=pieces)  # a short label far from its figures

    figures = [("Rear", "76.0", "45.9"), ("Ristrourfat", "629", "89,908"), ("Foutoundlu", "191,658", "841"),
               ("Diot", "81.4%", "316"), ("Mout", "118.8", "79.9%")]
    rows = [[prose(700 - 12 * k), Item(BODY[:50], 315, 698 - 12 * k, 540, 708 - 12 * k, 700 - 12 * k, 10)]
            for k in range(5)]
    rows.append([prose(640)])
    rows.append([row(634, ("Bost", "Coststunpeam", "Nuplende"), bold=True)])
    for k, cells in enumerate(figures):
        rows.append([prose(628 - 12 * k)])
        rows.append([row(622 - 12 * k, cells)])
    rows += [[prose(568 - 12 * k)] for k in range(6)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == \
        [["Bost", "Coststunpeam", "Nuplende"], *map(list, figures)]
    assert sum(i.text == BODY[:50] for line in out for i in line) == 5 * 2 + 1 + len(figures) + 6


def test_a_table_drawn_a_row_an_object_under_a_list_in_one_column_leaves_the_list_its_lines():
    """A last page's text in the left half of the page (groff's two columns, the right one
    empty): a numbered list's entries, a caption whose last line runs a little past them, and a
    table whose rows are each one text object, its cells parts a column gap apart; nothing beside
    them. The list stays lines of text (no table of them), the table its heads and rows."""
    def run(text: str, x0: float, x1: float, y: float) -> dict[str, Any]:
        return {"text": text, "font": "Times-Roman", "size": 12.0, "color": "#000000",
                "box": [x0, y - 2.6, x1, y + 9.4]}

    words = [f"{w}{k}" for k in range(60) for w in ("gur", "sen")]
    lines: list[dict[str, Any]] = []
    y = 756.0
    for n in range(4):  # four entries of three lines, the last short
        for k in range(3):
            text = (f"{n + 1}. " if k == 0 else "") + " ".join(words[(9 * n + 3 * k) % 100:][:5])
            x0, x1 = 72.0 if k == 0 else 90.0, 273.6 if k < 2 else 160.0
            lines.append({"y": y, "size": 12.0, "runs": [run(text, x0, x1, y)]})
            y -= 14.0
        y -= 4.2
    for k, (text, x1) in enumerate((("Table 3. Greandrum plundgear comfol li-", 273.6),
                                    ("olvust chonplarplun meastra pirios.", 292.99))):  # past the list's edge
        lines.append({"y": y - 14 * k, "size": 12.0, "runs": [run(text, 72.0, x1, y - 14 * k)]})
    rows = [("Diotgror", "Lunplior", "1997"), ("Tom", "230", "62.8%"), ("Cheat", "30.6", "216,961")]
    for k, (cells, starts) in enumerate(zip(rows, ([80.57, 143.01, 224.03], [80.57, 152.52, 234.03],
                                                   [80.57, 158.52, 207.03]), strict=True)):
        y0 = y - 42 - 14 * k
        line = _gapped_run(" ".join(cells), starts, y0, size=12.0)
        lines.append({"y": y0, "size": 12.0, "runs": [{**line, "font": "Times-Bold"} if k == 0 else line]})
    tables = _page_tables(lines, [])
    assert [_texts(t) for t in tables] == [[list(r) for r in rows]]


def test_a_row_of_bold_heads_over_one_row_of_figures_at_a_pages_foot_is_a_table_of_two_rows():
    """A page's end breaks a table after its first row: the heads in bold over one row of
    figures, no rule. A cell that wraps keeps its face: the two lines are two rows, the table
    one of heads and a row (its other rows on the next page), not a heading and a line."""
    def prose(y: float) -> Item:
        return Item(text=BODY[:50], x0=72, y0=y - 2, x1=297, y1=y + 8, y=y, size=10)

    def cell(text: str, x0: float, y: float, bold: bool = False) -> Item:
        return Item(text=text, x0=x0, y0=y - 2, x1=x0 + 5 * len(text), y1=y + 8, y=y, size=10, bold=bold,
                    bold_all=bold)

    rows = [[prose(700 - 12 * k)] for k in range(10)]
    rows.append([cell("Band", 80, 570, True), cell("Tun", 180, 570, True), cell("Ner", 250, 570, True)])
    rows.append([cell("Noustnist", 80, 556), cell("181,104", 165, 556), cell("201,060", 250, 556)])
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == \
        [["Band", "Tun", "Ner"], ["Noustnist", "181,104", "201,060"]]
    assert tables[0].table["header_rows"] == 1


def test_numbered_lines_beside_the_other_columns_prose_are_no_table():
    """A listing in the left column, each line a number and its code (two cells), beside the
    right column's prose: without the prose a row has two cells, as it would alone: no table."""
    beside = [[_segment(0, (76, 82, str(k + 2))), _segment(0, (96, 250, f"val day{k} = await(future{k})"))]
              for k in range(4)]
    rows = unruled_tables(_two_column_page(beside), 612)
    assert all(i.kind == "line" for row in rows for i in row)


def _formula_rows(pitch: float) -> list[list[Item]]:
    """Two fractions side by side and an equation number: 'r = p/2 + q/2 and s = p/2 - q/2 (3)',
    each numerator and denominator on its own baseline ``pitch`` points from the formula's line."""
    def at(y: float, *cells: tuple[float, float, str]) -> list[Item]:
        return [Item(text=t, x0=a, y0=y - 2, x1=b, y1=y + 8, y=y, size=10) for a, b, t in cells]
    return [at(400 + pitch, (205, 211, "p"), (237, 271, "q + 4"), (354, 360, "p"), (386, 420, "q + 4")),
            at(400, (184, 200, "r ="), (214, 222, "+"), (294, 312, "and"), (334, 350, "s ="), (364, 372, "−"),
               (481, 495, "(3)")),
            at(400 - pitch, (205, 211, "2"), (246, 252, "2"), (355, 360, "2"), (396, 401, "2"))]


def test_a_display_formula_set_in_levels_is_no_table():
    """A fraction's numerator and denominator stand closer to the formula's line than lines of
    text can: the formula's pieces stay lines, in their order, not a table of three rows."""
    rows = unruled_tables(_formula_rows(7.3), 612)
    assert all(i.kind == "line" for row in rows for i in row)
    assert [i.text for i in rows[1]][:2] == ["r =", "+"]


def test_rows_a_line_apart_with_an_equals_sign_are_still_a_table():
    """The same pieces a full line apart (12 points at 10 points) are rows of a table: the rule
    takes only levels set closer than a line."""
    rows = unruled_tables(_formula_rows(12), 612)
    assert [i.kind for row in rows for i in row] == ["table"]


def test_boxes_drawn_around_each_line_of_a_head_part_no_rows(run_cli, tmp_path):
    """A grid whose last head runs over three lines, each line drawn in a box of its own set a
    few points inside the cell (a line's shading), the last box down to the cell's border: the
    boxes are no cells, the head is one cell of three lines, and the rows below keep theirs."""
    path = tmp_path / "boxed.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    xs, ys = [72, 160, 250, 340], [720, 681, 660, 639]
    _grid(c, xs, ys)
    for k in range(3):  # the boxes of the last head's lines: 5 points in from the cell's sides
        c.rect(255, 720 - 13 * (k + 1), 80, 13)
    c.drawString(80, 708, "Station")
    c.drawString(168, 708, "Depth")
    for k, line in enumerate(("Readings", "taken in", "October")):
        c.drawString(260, 710 - 13 * k, line)
    for y, row in ((667, ("North", "12", "40")), (646, ("South", "9", "31"))):
        for x, cell in zip((80, 168, 260), row, strict=True):
            c.drawString(x, y, cell)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == [["Station", "Depth", "Readings taken in October"], ["North", "12", "40"],
                                 ["South", "9", "31"]]


def test_a_table_left_with_one_row_spread_over_its_columns_has_that_row_as_its_header():
    """Rows merged by spans can leave a grid one row, spread over both columns: its header is
    that row, and looking for a row of data under it finds none (no row to look at)."""
    from siftpdf.organize.tables import _header_rows

    assert _header_rows([[("Totals by region", 2, 1)]], {}, 3) == 1


def test_rows_ruled_apart_keep_a_title_of_three_lines_centred_on_its_figures(run_cli, tmp_path):
    """A list of publications with a rule under every row and no column rules: a title set on
    three lines beside one line of its other cells, centred on it, is one row; its first line
    stands above the line of figures, so it is no row of its own."""
    path = tmp_path / "ruled_rows.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 9)
    c.drawString(72, 780, BODY)
    xs = (76, 330, 400, 480)
    rows = [(["Magnetic ordering in cerium hexaboride"], "B-T", "Neutrons", "[11]"),
            (["The magnetic behaviour of the compound:", "comparison between elastic and inelastic",
              "scattering and magnetisation"], "B-T", "Magnetometry", "[25]"),
            (["Anomalous specific heat"], "T-P", "Heat capacity", "[10]"),
            (["Enhancement of band magnetism and", "features of the ordered state"], "B-T", "Ultrasound", "[28]"),
            (["Dense Kondo behavior and its alloys"], "B-T", "Resistivity", "[31]")]
    top = 740
    c.line(72, top, 520, top)
    for x, head in zip(xs, ("Publication", "Type", "Technique", "Ref."), strict=True):
        c.drawString(x, top - 11, head)
    top -= 16
    for title, *cells in rows:
        c.line(72, top, 520, top)
        height = 6 + 10 * len(title)
        middle = top - height / 2 - 3
        for k, line in enumerate(title):
            c.drawString(xs[0], middle + 5 * (len(title) - 1) - 10 * k, line)
        for x, cell in zip(xs[1:], cells, strict=True):
            c.drawString(x, middle, cell)
        top -= height
    c.line(72, top, 520, top)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [[["Publication", "Type", "Technique", "Ref."],
                                            *[[" ".join(title), *cells] for title, *cells in rows]]]


def test_group_heads_span_the_columns_their_rules_run_over(run_cli, tmp_path):
    """A booktabs table whose group heads each stand over a short rule drawn under them, the
    two rules a couple of points apart, above the column heads: each group head spans the
    columns its rule runs over, and a head over the groups, with its own rule, is a row of
    its own."""
    path = tmp_path / "groups.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 8)
    c.drawString(72, 780, BODY)
    top = 740
    c.line(72, top, 520, top)
    c.drawCentredString(360, top - 10, "Race")
    c.line(190, top - 13, 520, top - 13)
    c.drawCentredString(255, top - 24, "Coronary disease")
    c.drawCentredString(440, top - 24, "Stroke")
    c.line(190, top - 27, 353, top - 27)
    c.line(356, top - 27, 520, top - 27)  # 3 points on: two rules, not one
    heads = ("Characteristic", "No.", "Rate", "CI", "No.", "Rate", "CI")
    body = [("Female", "200,915", "103.1", "(102.7)", "82,595", "42.6", "(42.3)"),
            ("Male", "224,510", "176.5", "(175.7)", "54,524", "43.9", "(43.5)"),
            ("Total", "425,425", "135.0", "(134.6)", "137,119", "43.6", "(43.3)")]
    columns = (76, 200, 250, 300, 370, 420, 470)
    for x, head in zip(columns, heads, strict=True):
        c.drawString(x, top - 38, head)
    c.line(72, top - 42, 520, top - 42)
    for r, row in enumerate(body):
        for x, cell in zip(columns, row, strict=True):
            c.drawString(x, top - 54 - 12 * r, cell)
    c.line(72, top - 54 - 12 * len(body) + 6, 520, top - 54 - 12 * len(body) + 6)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    spans = [[(cell["text"], cell.get("colspan", 1)) for cell in row if cell["text"]] for row in tables[0]["rows"]]
    assert spans[:3] == [[("Race", 6)], [("Coronary disease", 3), ("Stroke", 3)], [(h, 1) for h in heads]]
    assert _texts(tables[0])[3:] == [list(row) for row in body]


def test_sub_rows_set_apart_by_a_blank_line_under_rules_between_groups(run_cli, tmp_path):
    """Rules part the columns and the groups ('Rivers:', 'Lakes:') but not the entries in a
    group: each entry is a label beside cells of several lines of prose, a blank line above
    it. Each entry is a row; the lines of a cell stay one cell, and so do the lines of a
    label that wraps."""
    path = tmp_path / "groups.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    xs = [72, 180, 340, 500]
    groups = [("Rivers:", [(["Lowland"], ["Slow water over a bed of silt", "that floods the plain each", "spring"],
                            ["Barbel, bream and chub", "in the deeper pools"]),
                           (["Upland"], ["Fast water over gravel and", "stones, cold all the year"],
                            ["Trout and grayling"])]),
              ("Lakes:", [(["Deep glacial", "basins"], ["Still water, layered in", "summer"], ["Char and whitefish"]),
                          (["Shallow"], ["Warm water over mud and", "reed beds"], ["Pike, tench and rudd"])])]
    y = 740
    c.line(xs[0], y + 12, xs[-1], y + 12)
    for x, head in zip(xs, ("Water", "Character", "Fish"), strict=False):
        c.drawString(x + 4, y, head)
    y -= 6
    for name, entries in groups:
        c.line(xs[0], y, xs[-1], y)
        y -= 12
        c.drawString(76, y, name)
        for label, character, fish in entries:
            y -= 22  # a blank line above each entry
            for column, lines in ((0, label), (1, character), (2, fish)):
                for k, text in enumerate(lines):
                    c.drawString(xs[column] + 4 + (30 if column == 0 else 0), y - 11 * k, text)
            y -= 11 * (max(len(label), len(character), len(fish)) - 1)
        y -= 8
    c.line(xs[0], y, xs[-1], y)
    for x in xs:
        c.line(x, y, x, 752)
    c.drawString(72, y - 30, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    (table,) = _tables(_extract(run_cli, path))
    assert _texts(table) == [
        ["Water", "Character", "Fish"],
        ["Rivers:", "", ""],
        ["Lowland", "Slow water over a bed of silt that floods the plain each spring",
         "Barbel, bream and chub in the deeper pools"],
        ["Upland", "Fast water over gravel and stones, cold all the year", "Trout and grayling"],
        ["Lakes:", "", ""],
        ["Deep glacial basins", "Still water, layered in summer", "Char and whitefish"],
        ["Shallow", "Warm water over mud and reed beds", "Pike, tench and rudd"]]


def test_columns_of_figures_set_closer_than_an_em(run_cli, tmp_path):
    """A statistics table set tight: each row's figures drawn by one text object, the columns
    of figures two thirds of an em apart (word spacing), a head over two of them. Each figure
    has its cell; the words of the labels (spaced as wide) stay together."""
    path = tmp_path / "tight.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 7.5)
    c.drawString(72, 780, BODY)
    rows = [("District of Columbia", "1,144 193.5 (182.2–204.8)"), ("New York", "9,385 181.2 (179.4–183.0)"),
            ("Oklahoma", "6,930 177.4 (173.2–181.6)"), ("Rhode Island", "2,187 162.4 (155.5–169.3)"),
            ("West Virginia", "3,548 158.7 (153.4–163.9)"), ("Arkansas", "5,100 160.1 (155.7–164.5)")]
    word = 0.4 * 7.5  # on top of the space's own width: a gap of about two thirds of an em
    c.line(72, 752, 300, 752)
    c.drawString(150, 744, "Coronary heart disease")
    c.line(150, 740, 300, 740)
    widths = [c.stringWidth(part, "Helvetica", 7.5) for part in rows[0][1].split()]
    space = c.stringWidth(" ", "Helvetica", 7.5) + word
    starts = [150 + sum(widths[:k]) + k * space for k in range(3)]
    for x, head in zip([72, *starts], ("State", "No.", "Rate", "(95% CI)"), strict=True):
        c.drawString(x, 730, head)
    c.line(72, 726, 300, 726)
    for r, (label, figures) in enumerate(rows):
        y = 716 - 10 * r
        c.drawString(72, y, label)
        text = c.beginText(150, y)
        text.setFont("Helvetica", 7.5)
        text.setWordSpace(word)
        text.textOut(figures)
        c.drawText(text)
    c.line(72, 716 - 10 * len(rows) + 4, 300, 716 - 10 * len(rows) + 4)
    c.drawString(72, 640, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    (table,) = _tables(_extract(run_cli, path))
    assert _texts(table)[-len(rows):] == [[label, *figures.split()] for label, figures in rows]
    assert ["State", "No.", "Rate", "(95% CI)"] in _texts(table)


def test_a_column_boundary_falls_where_no_rows_text_is_when_there_is_room():
    """Rows of short labels and figures; one label runs on past the others, toward the
    figures. The boundary the other rows vote for is set past the long label, where no row's
    text is: the long label keeps its cell and its figure the next one."""
    from siftpdf.organize.tables import _Piece, _voted_gaps

    def piece(x0: float, x1: float, y: float, text: str) -> _Piece:
        return _Piece(x0, x1, y, y + 8, y - 2, 10.0, text, False)

    labels = ["Scanned", "Total", "Moment along a", "Independent reflections:", "Moment", "RF", "RwF"]
    rows = [[piece(100, 100 + (190 if k == 3 else 60 + 5 * k), 700 - 12 * k, label),
             piece(300, 320, 700 - 12 * k, f"{400 + k}"), piece(360, 380, 700 - 12 * k, f"{3.1 + k:.1f}")]
            for k, label in enumerate(labels)]
    boundaries = _voted_gaps(rows, 0, 600)
    assert len(boundaries) == 2
    assert 290 < boundaries[0] < 300  # past 'Independent reflections:' (ends at 290), before the figures
    assert 320 < boundaries[1] < 360


def test_a_column_boundary_falls_where_fewest_rows_text_is_when_its_middle_cuts_a_head():
    """A group head centred over three columns crosses the gap between the first two (figures
    ending at 431, the group head starting at 432, a head at 442, the figures under it at 462);
    no room is left where no row's text is: the middle of the whole gap would cut the head at
    442 from its column; the boundary falls where the group head alone is."""
    from siftpdf.organize.tables import _Piece, _voted_gaps

    def piece(x0: float, x1: float, y: float, text: str) -> _Piece:
        return _Piece(x0, x1, y, y + 8, y - 2, 9.0, text, False)

    rows = [[piece(432, 473, 720, "Women")], [piece(388, 421, 708, "Share"), piece(442, 487, 704, "Number"),
                                              piece(499, 526, 704, "2012")]]
    rows += [[piece(380, 431, 690 - 14 * k, f"${k},245.81"), piece(462, 487, 690 - 14 * k, f"{2020 + k}"),
              piece(501, 526, 690 - 14 * k, f"{1990 + k}")] for k in range(12)]
    boundaries = _voted_gaps(rows, 370, 540)
    assert len(boundaries) == 2
    assert 432 < boundaries[0] < 442  # under the group head alone, before the head 'Number'
    assert 487 < boundaries[1] < 499


def _gapped_run(text: str, starts: list[float], y: float, size: float = 12.0) -> dict[str, Any]:
    """One run drawing ``text``'s words (one a cell, parted by single spaces) at ``starts``, as a
    producer that sets a table's row in one text object with positioned glyphs does: the evidence
    keeps the wide spaces as ``gaps``."""
    words, gaps, offset, x = text.split(" "), [], 0, starts[0]
    char = 0.5 * size
    for k, word in enumerate(words):
        end = x + char * len(word)
        offset += len(word)
        if k + 1 < len(words):
            gaps.append([offset, end, starts[k + 1]])
            offset += 1
            x = starts[k + 1]
    return {"text": text, "font": "Times-Roman", "size": size, "color": "#000000",
            "box": [starts[0], y - 2, end, y + 10], **({"gaps": gaps} if gaps else {})}


def _unruled_page(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    evidence = {"width": 612.0, "height": 792.0, "rotation": 0, "lines": lines, "images": [], "rules": [],
                "clipped_chars": 0, "unmapped_chars": 0}
    page = {"page": 1, "status": "text", "text": "", "evidence": evidence}
    return list(organize_records(iter([{"meta": {"pages": 1}}, page, {"done": {}}]), OrganizeOptions()))


def test_an_unruled_table_whose_first_cells_one_text_object_draws_is_a_table():
    """No rules; each row's first three cells drawn as one run, parted by positioned spaces of
    different widths, its last cell a run of its own: the same table a producer drawing a run a
    cell gives (the same page printed to PDF again), read as one."""
    lines = [{"y": 720.0, "size": 12.0, "runs": [
        {"text": BODY[:60], "font": "Times-Roman", "size": 12.0, "color": "#000000", "box": [72, 718, 400, 730]}]}]
    rows = [("2 24 0", "4"), ("3 12 12", "4"), ("4 4 12", "12")]
    for k, (first, last) in enumerate(rows):
        y = 690.0 - 17 * k
        lines.append({"y": y, "size": 12.0, "runs": [
            _gapped_run(first, [74.0, 155.0, 207.0], y),
            {"text": last, "font": "Times-Roman", "size": 12.0, "color": "#000000", "box": [296, y - 2, 308, y + 10]}]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == \
        [[["2", "24", "0", "4"], ["3", "12", "12", "4"], ["4", "4", "12", "12"]]]


def test_two_columns_of_justified_prose_drawn_a_line_a_run_are_no_table():
    """The right column's lines drawn as one run each with its justified spaces alike and wide,
    beside the left column's: prose, however the spaces part it."""
    lines = []
    for k in range(6):
        y = 700.0 - 14 * k
        words = ["during", "which", "the", "model", "was"]
        starts = [320.0 + 52 * j for j in range(5)]
        lines.append({"y": y, "size": 12.0, "runs": [
            {"text": "COVID has managed to restrict", "font": "Times-Roman", "size": 12.0, "color": "#000000",
             "box": [72, y - 2, 250, y + 10]}, _gapped_run(" ".join(words), starts, y)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [b["kind"] for b in page["blocks"] if b["kind"] == "table"] == []


def test_rows_of_figures_a_run_each_whose_column_spaces_are_alike_are_a_table_where_they_line_up():
    """A typesetter's table (groff's tbl) sets each column a fixed space from the next and draws
    each row as one text object: two of a row's spaces may be alike, as a justified line's are,
    but they lie over the next row's, column by column, between cells of figures."""
    starts = [100.0, 180.0, 240.0, 300.0, 360.0]
    rows = [("Chancol", "89,193", "971", "75,834", "284"), ("Lastta", "75.70", "92.7%", "955", "393"),
            ("Datum", "-1.5", "777", "92,206", "87.6%")]
    lines = [{"y": 700.0 - 14 * k, "size": 12.0, "runs": [_gapped_run(" ".join(cells), starts, 700.0 - 14 * k)]}
             for k, cells in enumerate(rows)]
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(cells) for cells in rows]]


def test_rows_of_figures_with_a_short_label_far_from_its_figures_stay_in_their_table():
    """LaTeX's tabular without rules: a stub column as wide as its longest label, figures set
    flush right. A short label's space to its first figure spans more than eight ems, as a
    running head's parts do; the spaces line up with the next row's, column by column."""
    rights = [260.0, 310.0, 360.0, 410.0]
    rows = [("Sil", "89,663", "34.1%", "326", "-13.8"), ("Pliostrearbust", "87.0%", "781", "32", "204,163"),
            ("Neasbustcharm", "43.6", "43.8%", "733", "364"), ("Fiost", "740", "93.0", "99,363", "387")]
    lines = []
    for k, cells in enumerate(rows):
        starts = [100.0] + [right - 5.0 * len(cell) for right, cell in zip(rights, cells[1:], strict=True)]
        lines.append({"y": 700.0 - 12 * k, "size": 10.0,
                      "runs": [_gapped_run(" ".join(cells), starts, 700.0 - 12 * k, size=10.0)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(cells) for cells in rows]]


def test_contents_entries_without_leaders_are_no_table_though_their_spaces_line_up():
    """LaTeX's contents for sections: a number, the title a quad after it, the page far right,
    no leaders. The spaces line up entry under entry, but the spread one is before the page."""
    rows = [("1", "Introduction", "1"), ("2", "Methods", "3"), ("3", "Results", "5"), ("4", "Discussion", "8")]
    lines = [{"y": 700.0 - 12 * k, "size": 10.0, "runs": [_gapped_run(" ".join(cells), [100.0, 118.0, 400.0],
                                                                      700.0 - 12 * k, size=10.0)]}
             for k, cells in enumerate(rows)]
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert not [t for t in page["blocks"] if t["kind"] == "table"]


def _pair_lines(rows: list[tuple[str, str]], y: float, x0: float = 380.0, left: str | None = None,
                bold_head: bool = True) -> list[dict[str, Any]]:
    """A table of two columns drawn a row a text object (its head in bold), each row beside a
    line of the left column's prose when ``left`` seeds it."""
    lines = []
    for k, (label, value) in enumerate(rows):
        run = _gapped_run(f"{label} {value}", [x0, x0 + 90.0 + 6 * (6 - len(value))], y - 13 * k, size=10.0)
        if k == 0 and bold_head:
            run["font"] = "Times-Bold"
        runs = [run]
        if left is not None:
            runs.insert(0, {"text": f"{left}{k} " * 6, "font": "Times-Roman", "size": 10.0, "color": "#000000",
                            "box": [72.0, y - 13 * k - 2, 290.0, y - 13 * k + 8]})
        lines.append({"y": y - 13 * k, "size": 10.0, "runs": runs})
    return lines


def test_a_table_of_labels_and_figures_under_a_bold_head_is_a_table_beside_the_other_columns_prose():
    """Two columns, a label and a figure a row, drawn a row a text object under a head in bold,
    in the right column of a page whose left column's lines share their baselines: a table of
    two columns, the prose beside it still the page's text."""
    rows = [("Region", "Share"), ("Ur", "12.5"), ("North", "13,533"), ("South", "86.6"), ("East", "46.2%"),
            ("West", "641")]  # a label of two letters is a word, not a mark standing for a figure
    page = next(r for r in _unruled_page(_pair_lines(rows, 700.0, left="prose")) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]
    assert "prose0" in page["text"] and "prose5" in page["text"]


def test_a_head_and_two_rows_of_a_label_and_its_figure_beside_the_other_columns_prose_are_a_table():
    """As LaTeX sets a small tabular at the head of the right column: a head in bold and two
    rows, a label and its figure a row drawn as one text object, each row on the baseline of a
    line of the left column's prose; the next section's heading under it, beside lines of prose
    whose sentences end in a wider space. A table of three rows, the prose beside it the
    page's text, not a table's first column."""
    def run(text: str, x0: float, x1: float, y: float, gap: tuple[int, float, float] | None = None,
            font: str = "CMR12", size: float = 11.96) -> dict[str, Any]:
        return {"text": text, "font": font, "size": size, "color": "#000000", "box": [x0, y - 4, x1, y + 7],
                **({"gaps": [list(gap)]} if gap else {})}

    def line(y: float, *runs: dict[str, Any]) -> dict[str, Any]:
        return {"y": y, "size": 11.96, "runs": list(runs)}

    lines = [
        line(709.9, run("the river was counted at every gauge along its", 82.8, 300.9, 709.9),
             run("Site 1996", 386.3, 453.8, 709.9, (4, 405.9, 426.9), font="CMBX12")),
        line(695.4, run("length and the table gives what was found there", 82.8, 300.9, 695.4),
             run("Weir 916", 386.3, 453.8, 695.4, (4, 415.0, 436.3))),
        line(681.0, run("over the years the counts were made by hand and", 82.8, 300.9, 681.0),
             run("Ford 16.7", 386.3, 453.8, 681.0, (4, 401.6, 433.0))),
        line(664.7, run("by eye each spring. Later a gauge recorded them", 82.8, 300.9, 664.7, (19, 170.6, 181.2))),
        line(646.0, run("on its own and sent them on. The counts since", 82.8, 300.9, 646.0, (27, 244.4, 254.3)),
             run("5 Method", 311.0, 406.5, 646.0, (1, 320.7, 340.0), font="CMBX12", size=17.22)),
        line(635.8, run("then are kept in the record of the survey.", 82.8, 296.7, 635.8)),
    ]
    words = iter(BODY.split() * 60)
    for k in range(30):
        y = 619.7 - 14.45 * k
        text = [" ".join(next(words) for _ in range(8)) for _ in range(2)]
        lines.append(line(y, run(text[0], 82.8, 300.9, y), run(text[1], 311.0, 529.1, y)))
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[["Site", "1996"], ["Weir", "916"],
                                                                             ["Ford", "16.7"]]]
    assert "the river was counted at every gauge" in page["text"]


def _pairs_under_a_head(rows: list[tuple[str, str]], head: list[dict[str, Any]], label_x: float,
                        right: float) -> list[list[list[str]]]:
    """The tables of a page holding ``rows`` of a label (set at ``label_x``) and a figure (flush
    right at ``right``), 16 points apart, under the head drawn by the runs ``head`` (made bold)
    on the first row's baseline."""
    lines = [{"y": 700.0, "size": 10.0, "runs": [{**run, "font": "Times-Bold"} for run in head]}]
    for k, (label, value) in enumerate(rows[1:], 1):
        y = 700.0 - 16 * k
        lines.append({"y": y, "size": 10.0, "runs": [_gapped_run(label, [label_x], y, size=10.0),
                                                      _gapped_run(value, [right - 5.0 * len(value)], y, size=10.0)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    return [_texts(t) for t in page["blocks"] if t["kind"] == "table"]


def test_figures_set_flush_right_far_from_their_head_set_flush_left_are_a_table_of_two_columns():
    """A page-wide table of two columns as a browser prints one: its head in bold, the second
    head flush left at the middle of the page, the figures under it flush right at the text's
    right edge, some twenty ems from it: a table, each figure in its row."""
    rows = [("Region", "Share"), ("Tunstio", "40.0%"), ("Plir", "45.4%"), ("Pliol", "26.5"),
            ("Mondtelbour", "69.2"), ("Doum", "18.7%")]
    head = [_gapped_run("Region", [72.0], 700.0, size=10.0), _gapped_run("Share", [300.0], 700.0, size=10.0)]
    assert _pairs_under_a_head(rows, head, 72.0, 540.0) == [[list(row) for row in rows]]


def _page_tables(lines: list[dict[str, Any]], rules: list[list[float]]) -> list[dict[str, Any]]:
    """The tables organized from one page of evidence: ``lines`` and ``rules``."""
    evidence = {"width": 612.0, "height": 792.0, "rotation": 0, "lines": lines, "images": [], "rules": rules,
                "clipped_chars": 0, "unmapped_chars": 0}
    page = {"page": 1, "status": "text", "text": "", "evidence": evidence}
    recs = organize_records(iter([{"meta": {"pages": 1}}, page, {"done": {}}]), OrganizeOptions())
    return [t for r in recs if "page" in r for t in r["blocks"] if t["kind"] == "table"]


def test_a_group_head_over_a_head_wider_than_its_figures_leaves_their_columns_apart():
    """A frame round a table whose group head runs over the columns under it (the few rows
    that cross a gap may, where most leave it open), a head among them wider than its figures
    and set flush right, so that it starts its column less than an em from the figures
    before: the figures' columns stay apart."""
    rows = [("Region", "2012", "Weighted", "Total"), ("Pe", "14.9", "20.1", "35.0"),
            ("Bendgous", "0.0", "16.5%", "16.5"), ("Doust", "41.8%", "73,360", "73.4"),
            ("Mam", "52.4", "27.2%", "79.6"), ("Sten", "25.8", "86,036", "86.1")]
    # Each column less than an em from the one before ("Bendgous" ends at 120, "41.8%" starts at
    # 127.5; "Weighted" 8 points (0.73 em) right of 155).
    size, ends = 11.0, (155.0, 207.0, 265.0)
    lines = [{"y": 716.0, "size": size, "runs": [_gapped_run("Measured", [139.0], 716.0, size=size)]}]
    for k, (label, *cells) in enumerate(rows):
        y = 700.0 - 16 * k
        runs = [_gapped_run(label, [76.0], y, size=size)]
        runs += [_gapped_run(cell, [end - 0.5 * size * len(cell)], y, size=size) for end, cell in zip(ends, cells,
                                                                                                      strict=True)]
        lines.append({"y": y, "size": size, "runs": runs})
    bottom = 700.0 - 16 * len(rows)
    frame = [[70.0, bottom, 272.0, bottom], [70.0, 730.0, 272.0, 730.0], [70.0, bottom, 70.0, 730.0],
             [272.0, bottom, 272.0, 730.0]]
    tables = _page_tables(lines, frame)
    assert len(tables) == 1
    texts = _texts(tables[0])
    assert texts[-len(rows):] == [list(row) for row in rows]
    assert any("Measured" in cell for cell in texts[0])


def test_a_label_a_whole_rows_step_from_the_figures_around_it_is_a_row_of_its_own_in_a_frame():
    """A frame round a table of figures, a group's label centred beside its rows: one row holds
    a label and no figures ('Coastal areas'), as far from the figures above and below it as any
    row is from the next (two ems): a row of its own, its figures' cells empty, not a second
    line of the label under it; the group's label beside the two spans both."""
    size = 8.0

    def cell(text: str, x: float, y: float) -> dict[str, Any]:
        return {"text": text, "font": "Helvetica", "size": size, "color": "#000000",
                "box": [x, y - 2, x + 0.5 * size * len(text), y + 6]}

    def line(y: float, *cells: tuple[str, float]) -> dict[str, Any]:
        return {"y": y, "size": size, "runs": [cell(t, x, y) for t, x in cells if t]}

    body = [("Overseas", "91.9%", "46.6"), ("Northern", "74.8%", "34.0"), ("East", "93.4%", "67.6"),
            ("Central", "46.3%", "12.0"), ("Coastal areas", "", ""), ("South", "92.2%", "4.1")]
    lines = [line(700.0, ("Group", 76.0), ("Region", 130.0), ("2012", 215.0), ("2013", 252.0))]
    lines += [line(680.0 - 17 * k, (region, 130.0), (a, 235.0 - 4.0 * len(a)), (b, 268.0 - 4.0 * len(b)))
              for k, (region, a, b) in enumerate(body)]
    lines += [line(680.0 - 8.5 - 34 * k, (group, 76.0)) for k, group in enumerate(("Urban", "Foreign", "Public"))]
    lines.sort(key=lambda one: -one["y"])
    bottom = 680.0 - 17 * len(body)
    frame = [[70.0, bottom, 272.0, bottom], [70.0, 712.0, 272.0, 712.0], [70.0, bottom, 70.0, 712.0],
             [272.0, bottom, 272.0, 712.0], [70.0, 692.0, 272.0, 692.0]]
    tables = _page_tables(lines, frame)
    assert len(tables) == 1
    rows = tables[0]["rows"]
    assert [c["text"] for c in rows[-2]] == ["Public", "Coastal areas", "", ""]
    assert rows[-2][0].get("rowspan") == 2 and [c["text"] for c in rows[-1]] == ["South", "92.2%", "4.1"]


def test_a_bold_head_of_two_parts_closer_than_a_column_gap_heads_a_table_of_two_columns():
    """A table of two columns as a browser prints one in a column: its head one text object in
    bold, the second head set flush left in its column, 8 points (0.8 em) right of the first,
    the widest cell of the column; under it labels and figures set flush right: a table."""
    rows = [("Volgroulples", "2021"), ("Piobaslen", "89.6"), ("Treagrat", "7.0%"), ("Vusfousgu", "48.8%"),
            ("Nandgeand", "110.8")]
    head = [_gapped_run("Volgroulples 2021", [356.0, 356.0 + 5.0 * len("Volgroulples") + 8.0], 700.0, size=10.0)]
    assert _pairs_under_a_head(rows, head, 356.0, 460.0) == [[list(row) for row in rows]]


def test_the_widest_label_closer_to_its_figure_than_a_column_gap_stays_in_its_table_of_two_columns():
    """A browser's table of two columns in a column, its cells padded close: under a bold head,
    labels flush left and figures flush right; the widest label ends 7.5 points (0.75 em,
    wider than any word space) before its figure: that row is the table's too."""
    rows = [("Leattistos", "2000"), ("Pum", "48.7%"), ("Deandcalgu", "199,343"), ("Last", "95.7"),
            ("Mimpot", "230")]
    head = [_gapped_run("Leattistos", [137.0], 700.0, size=10.0), _gapped_run("2000", [209.5], 700.0, size=10.0)]
    assert _pairs_under_a_head(rows, head, 137.0, 229.5) == [[list(row) for row in rows]]


def test_labels_set_flush_left_far_from_their_head_centred_over_them_are_a_table_of_two_columns():
    """A page-wide table of two columns as a word processor sets one: both heads in bold and
    centred over their columns, the labels flush left eight ems left of their head, the
    figures flush right: a table, each label in its row."""
    rows = [("Greatsarbin", "2008"), ("Gram", "225,823"), ("Lour", "37"), ("Gistsim", "2.3"), ("Fimlen", "75.3%")]
    head = [_gapped_run("Greatsarbin", [181.0], 700.0, size=10.0), _gapped_run("2008", [419.0], 700.0, size=10.0)]
    assert _pairs_under_a_head(rows, head, 92.0, 520.0) == [[list(row) for row in rows]]


def test_a_page_of_one_column_of_prose_in_the_left_half_organizes():
    """A two-column document's last page, its text in the left column alone: justified lines
    as wide as a column, a list item's bullet beside a line whose words stand wide apart (the
    runs as LaTeX draws them). The gutter beside the column has nothing past it: the page is
    organized, not left as raw text."""
    lines = [{"y": 700.0 - 12 * k, "size": 9.96, "runs": [
        {"text": f"prose{k} " * 6, "font": "CMR10", "size": 9.96, "color": "#000000",
         "box": [82.8, 698.0 - 12 * k, 300.84, 708.0 - 12 * k]}]} for k in range(8)]
    y = 600.0
    lines.append({"y": y, "size": 9.96, "runs": [
        {"text": "\u2022", "font": "CMSY10", "size": 9.96, "color": "#000000",
         "box": [92.76, y - 1.93, 97.74, y + 7.47]},
        {"text": "Plomrio rionmour chendlustdem ser fes-", "font": "CMR10", "size": 9.96, "color": "#000000",
         "box": [102.72, y - 1.93, 300.85, y + 6.91],
         "gaps": [[7, 137.18, 146.52], [16, 186.39, 195.73], [29, 255.21, 264.56], [33, 276.8, 286.15]]}]})
    for k in range(3):  # the rest of the list: items whose lines hang under the bullet's text
        top = 580.0 - 40 * k
        lines.append({"y": top, "size": 9.96, "runs": [
            {"text": "\u2022", "font": "CMSY10", "size": 9.96, "color": "#000000",
             "box": [92.76, top - 1.93, 97.74, top + 7.47]},
            {"text": f"item{k} " * 5, "font": "CMR10", "size": 9.96, "color": "#000000",
             "box": [102.72, top - 1.93, 300.84, top + 6.91]}]})
        lines += [{"y": top - 12 * n, "size": 9.96, "runs": [
            {"text": f"more{k}{n} " * 5, "font": "CMR10", "size": 9.96, "color": "#000000",
             "box": [102.72, top - 12 * n - 1.93, 300.84 if n == 1 else 189.5, top - 12 * n + 6.91]}]} for n in (1, 2)]
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert "organize_error" not in page
    assert page["blocks"] and "prose7" in page["text"]


def test_rows_of_three_cells_a_text_object_beside_the_other_columns_prose_are_a_table():
    """A table in the right column, each row one text object of three cells whose two spaces
    are alike (each column a fixed space from the next), on the baselines of the left
    column's lines: the table's rows, the prose beside them the page's text."""
    rows = [("Alpha", "941", "101.8"), ("Beta", "1.5", "341"), ("Gamma", "967", "117.7"), ("Delta", "5.3", "44.7")]
    lines = []
    for k, cells in enumerate(rows):
        y = 700.0 - 13 * k
        widths = [6 * len(cell) for cell in cells]
        starts = [380.0, 380.0 + widths[0] + 30.0, 380.0 + widths[0] + widths[1] + 60.0]
        lines.append({"y": y, "size": 10.0, "runs": [
            {"text": f"prose{k} " * 6, "font": "Times-Roman", "size": 10.0, "color": "#000000",
             "box": [72.0, y - 2, 290.0, y + 8]}, _gapped_run(" ".join(cells), starts, y, size=12.0)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]
    assert all(f"prose{k}" in page["text"] for k in range(4))


def test_rows_whose_spaces_are_alike_between_the_other_columns_lines_are_a_table():
    """A table in the right column, each row one text object of three cells, a row's spaces
    alike (as a justified line's are) where it holds each column's widest cell, the left
    column's lines on baselines between the rows': the rows' spaces line up with each other's
    past those lines, and the rows are a table."""
    rows = [("Dil", "1990", "1992"), ("Ve", "81.2", "-10.7"), ("Sichend", "95.3", "316"), ("Mo", "4.1", "77")]
    # Columns set flush left 16 points past their widest cell: the row of the widest cells has
    # its two spaces alike.
    widths = [max(5.0 * len(row[c]) for row in rows) for c in range(3)]
    starts = [380.0, 380.0 + widths[0] + 16.0, 380.0 + widths[0] + widths[1] + 32.0]

    def prose(y: float, x0: float, x1: float, word: str) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [{"text": f"{word} " * 6, "font": "Times-Roman", "size": 10.0,
                                                "color": "#000000", "box": [x0, y - 2, x1, y + 8]}]}
    lines = [prose(760.0 - 12 * k, 72.0, 290.0, f"left{k}") for k in range(30)]  # the left column
    lines += [prose(760.0 - 12 * k, 320.0, 540.0, f"right{k}") for k in range(7)]
    for k, cells in enumerate(rows):
        y = 676.0 - 14 * k  # the first on a line of the left column
        lines.append({"y": y, "size": 10.0, "runs": [_gapped_run(" ".join(cells), starts, y, size=10.0)]})
    lines += [prose(616.0 - 12 * k, 320.0, 540.0, f"under{k}") for k in range(18)]
    merged: dict[float, dict[str, Any]] = {}  # one line of the evidence a baseline, its runs left to right
    for line in lines:
        merged.setdefault(line["y"], {**line, "runs": []})["runs"] += line["runs"]
    for line in merged.values():
        line["runs"].sort(key=lambda run: run["box"][0])
    page = next(r for r in _unruled_page(sorted(merged.values(), key=lambda line: -line["y"])) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]
    assert all(f"left{k}" in page["text"] for k in range(30))


def test_a_two_column_table_keeps_a_heading_of_the_other_column_on_a_rows_baseline_out_of_its_cells():
    """A table of labels and figures in the left column; on one of its rows' baselines the right
    column's section heading, short and in bold: it is beside the table, not a third cell."""
    rows = [("Region", "Share"), ("North", "13,533"), ("South", "86.6"), ("East", "46.2%"), ("West", "641")]
    lines = _pair_lines(rows, 700.0, x0=90.0)
    lines[2]["runs"].append({"text": "Implementation", "font": "Times-Bold", "size": 10.0, "color": "#000000",
                             "box": [330.0, 700.0 - 26 - 2, 400.0, 700.0 - 26 + 8]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]
    assert "Implementation" in page["text"]


def test_the_first_columns_of_a_wider_table_under_a_bold_head_are_no_table_of_two_columns():
    """The head of a table's first two columns in bold on a line of its own (the judges' heads
    set apart), the other columns' figures beyond them on every row: those figures are the
    table's cells, not the other column's lines beside a table of two columns."""
    lines = [{"y": 700.0, "size": 10.0, "runs": [_gapped_run("Component Factor", [90.0, 200.0], 700.0, size=10.0)]}]
    lines[0]["runs"][0]["font"] = "Times-Bold"
    for k, cells in enumerate([("Skating", "0.80", "6.25", "6.75", "7.25"), ("Linking", "0.70", "6.00", "6.00", "6.75"),
                               ("Performance", "0.70", "6.50", "6.50", "7.00"),
                               ("Choreography", "0.80", "6.00", "6.50", "6.75")], start=1):
        y = 700.0 - 13 * k
        runs = [_gapped_run(f"{cells[0]} {cells[1]}", [90.0, 200.0], y, size=10.0),
                _gapped_run(" ".join(cells[2:]), [300.0, 350.0, 400.0], y, size=10.0)]
        lines.append({"y": y, "size": 10.0, "runs": runs})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    tables = [_texts(t) for t in page["blocks"] if t["kind"] == "table"]
    assert not any(len(row) == 2 for table in tables for row in table[1:]), tables
    assert "6.25" in " ".join(cell for table in tables for row in table for cell in row)


def test_contents_entries_and_their_pages_under_a_bold_head_are_no_table():
    """A contents page without leaders: titles and page numbers a wide space apart, the
    numbers rising, under 'Contents' and 'Page' in bold."""
    rows = [("Contents", "Page"), ("Preface", "3"), ("Methods", "7"), ("Results", "12"), ("Index", "40")]
    page = next(r for r in _unruled_page(_pair_lines(rows, 700.0, x0=72.0)) if "page" in r)
    assert [t for t in page["blocks"] if t["kind"] == "table"] == []


def test_labels_and_figures_without_a_head_in_bold_are_no_table():
    rows = [("Region", "Share"), ("North", "13,533"), ("South", "86.6"), ("East", "46.2%")]
    page = next(r for r in _unruled_page(_pair_lines(rows, 700.0, x0=72.0, bold_head=False)) if "page" in r)
    assert [t for t in page["blocks"] if t["kind"] == "table"] == []


def test_a_tables_heads_one_text_object_draws_head_its_columns():
    """The heads of an unruled table drawn as one run, each a few ems from the next (wider than
    a description's cell all together), and the rows under them a run a cell: the heads are
    the table's head row, not a line of text over it."""
    heads = _gapped_run("Year Rate Basis Expense", [58.0, 110.0, 170.0, 230.0], 700.0, size=10.0)
    lines = [{"y": 700.0, "size": 10.0, "runs": [heads]}]
    for k, cells in enumerate((("1", ".1667", "100", "16"), ("2", ".3333", "100", "33"), ("3", ".3333", "100", "33"))):
        y = 682.0 - 18 * k
        lines.append({"y": y, "size": 10.0, "runs": [
            {"text": text, "font": "Times-Roman", "size": 10.0, "color": "#000000",
             "box": [x, y - 2, x + 5 * len(text), y + 8]}
            for text, x in zip(cells, (58.0, 110.0, 170.0, 230.0), strict=True)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == \
        [[["Year", "Rate", "Basis", "Expense"], ["1", ".1667", "100", "16"], ["2", ".3333", "100", "33"],
          ["3", ".3333", "100", "33"]]]


def test_an_unruled_tables_labels_of_two_lines_centred_on_their_figures_stay_in_their_rows(run_cli, tmp_path):
    """No rules; a row's label set on two lines, its figures on a line between them (cells
    centred, as a browser and most word processors set them): the run of rows goes on over the
    label's lines, and the label's second line, going on from its first, is no row of its own.
    An "of which" row under a total keeps its own row: both carry figures."""
    path = tmp_path / "centred.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    xs = (72, 250, 320, 390)

    def row(y: float, *cells: str, start: int = 0) -> None:
        for x, cell in zip(xs[start:], cells, strict=False):
            c.drawRightString(x + 30, y, cell) if x != xs[0] else c.drawString(x, y, cell)

    row(720, "Item", "2019", "2020", "2021")
    row(702, "Wages", "12", "40", "7")
    row(684.5, "Research and development")
    row(678, "5", "6", "8", start=1)
    row(671.5, "(business sector)")
    row(653, "Rent", "9", "31", "2")
    row(635, "Total", "26", "77", "17")
    row(617, "of which paid abroad", "3", "7", "1")
    c.drawString(72, 580, BODY)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [[
        ["Item", "2019", "2020", "2021"], ["Wages", "12", "40", "7"],
        ["Research and development (business sector)", "5", "6", "8"], ["Rent", "9", "31", "2"],
        ["Total", "26", "77", "17"], ["of which paid abroad", "3", "7", "1"]]]


def _figures_table(c: canvas.Canvas, top: float, pitch: float = 18) -> list[list[str]]:
    """A head row and four rows of a label, its river's name and two figures, drawn from ``top``
    down; the cells."""
    rows = [["Gauge", "River", "Flow", "Silt"], ["North", "Tweed", "14.3", "7"], ["East", "Severn", "21.7", "9"],
            ["South", "Thames", "9.6", "3"], ["West", "Usk", "12.0", "5"]]
    for r, row in enumerate(rows):
        for x, cell in zip((80, 200, 300, 400), row, strict=True):
            c.drawString(x, top - 13 - pitch * r, cell)
    return rows


def test_a_table_in_a_frame_with_a_rule_under_its_head_parts_its_rows_by_baseline(run_cli, tmp_path):
    """A box round the whole table and one rule under the head, no rule between the rows or
    the columns, words in two columns: each line is a row, not the body one cell a column."""
    path = tmp_path / "framed.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    rows = _figures_table(c, 720)
    c.rect(72, 720 - 18 * 5 - 4, 380, 18 * 5 + 4)
    c.line(72, 720 - 18, 452, 720 - 18)
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [rows]


def test_a_group_head_in_a_frame_without_rules_inside_is_a_row_over_the_heads(run_cli, tmp_path):
    """A box round the whole table and no rule inside it, as tbl's ``box`` draws one: over the
    bold column heads, a line above at the text's pitch, a group head centred over the figures'
    columns. It is a row of its own over the heads, not a line of the heads' row (where it ran
    the two columns under it into one cell), and spans the columns it is centred over: the
    stub's box beside it stays empty, as in a framed table of rows with a rule under its head."""
    path = tmp_path / "grouped.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    c.drawString(72, 760, BODY)
    c.drawCentredString(205, 292, "Measured")
    rows = [["Gauge", "Flow", "Silt"], ["North", "24.2%", "-16.0"], ["Southeast", "217,124", "166,323"]]
    for r, row in enumerate(rows):
        c.setFont("Times-Bold" if r == 0 else "Times-Roman", 10)
        for x, cell in zip((100, 160, 215), row, strict=True):
            c.drawString(x, 280 - 12 * r, cell)
    c.rect(93.5, 249.5, 170, 50)
    c.showPage()
    c.save()
    (table,) = _tables(_extract(run_cli, path))
    assert _texts(table)[1:] == rows
    assert _laid_out(table)[0] == ["", "Measured", "Measured"]  # over the figures, the stub's box empty


def test_a_head_shaded_box_by_box_over_rules_between_rows_heads_the_table(run_cli, tmp_path):
    """The head row drawn as a filled box a cell (their edges a grid one row high), a rule under
    each row below: the boxes are the table's head, and the row under them its first row."""
    path = tmp_path / "shaded.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    c.setFillGray(0.8)
    for x0, x1 in ((72, 190), (190, 290), (290, 390), (390, 452)):
        c.rect(x0, 702, x1 - x0, 18, stroke=0, fill=1)
    c.setFillGray(0)
    rows = _figures_table(c, 720)
    for k in range(1, 6):
        c.setLineWidth(0.5)
        c.line(72, 720 - 18 * k, 452, 720 - 18 * k)
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [rows]


def test_a_table_striped_cell_by_cell_is_one_table(run_cli, tmp_path):
    """Every other row shaded, a filled box a cell (each shaded row a grid one band high, the
    plain row between them no rule at all): one table of every row, not a table a stripe."""
    path = tmp_path / "striped.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 760, BODY)
    c.setFillGray(0.85)
    for k in (0, 2, 4):  # the head and the second and fourth rows
        for x0, x1 in ((72, 190), (190, 290), (290, 390), (390, 452)):
            c.rect(x0, 720 - 18 * (k + 1), x1 - x0, 18, stroke=0, fill=1)
    c.setFillGray(0)
    rows = _figures_table(c, 720)
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [rows]


def test_a_row_whose_cells_all_start_together_bridges_nothing_and_loses_nothing():
    """Three segments drawn over one another (their starts within an em) make a row of the
    run; the line under it and the row after are read without a fault, every word kept."""
    def at(y: float, *cells: tuple[float, float, str]) -> list[Item]:
        return [Item(text=t, x0=a, y0=y - 2, x1=b, y1=y + 8, y=y, size=10) for a, b, t in cells]
    rows = [at(700, (100, 140, "0"), (100.5, 150, "0"), (101, 160, "0")), at(686, (100, 120, "0")),
            at(672, (100, 140, "0"), (200, 240, "0"), (300, 340, "0"))]
    out = unruled_tables(rows, 612)
    words = [w for row in out for i in row for w in (table_text(i.table["rows"]) if i.table else i.text).split()
             if w != "|"]
    assert words.count("0") == 7


def _only_table(run_cli, c: canvas.Canvas, path: Path) -> tuple[list[list[str]], list[str]]:
    """The canvas's page closed under a last line of text, extracted: the one table's cells (the
    page must hold exactly one) and the text of every other block."""
    c.drawString(72, 580, BODY)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    tables = _tables(recs)
    assert len(tables) == 1
    return _texts(tables[0]), [b["text"] for r in recs if "page" in r for b in r["blocks"] if b["kind"] != "table"]


def test_group_heads_over_heads_of_several_lines_head_an_unruled_table(run_cli, tmp_path):
    """No rules; a line of group heads, each over two columns, then the columns' heads, two of
    them over their units ("Share" over "(%)"), then rows of a label and figures: the heads are
    the table's, every row has its seven cells, and no head is left a line above the table."""
    path = tmp_path / "grouped.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    xs = (72, 200, 260, 320, 380, 440, 500)

    def line(y: float, cells: dict[int, str]) -> None:
        for k, text in cells.items():
            c.drawRightString(xs[k] + 40, y, text) if k else c.drawString(xs[k], y, text)

    c.drawCentredString(250, 740, "Rural")
    c.drawCentredString(370, 740, "Urban")
    c.drawCentredString(490, 740, "Total")
    line(726, {1: "Share", 3: "Share"})
    line(714, {0: "Region", 1: "(%)", 2: "Count", 3: "(%)", 4: "Count", 5: "Share", 6: "Count"})
    data = [("North", "12.5", "340", "8.1", "220", "10.2", "560"), ("South", "9.4", "120", "7.7", "90", "8.6", "210"),
            ("East", "3.2", "75", "2.9", "61", "3.1", "136"), ("West", "5.0", "98", "4.4", "77", "4.8", "175")]
    for k, row in enumerate(data):
        line(694 - 16 * k, dict(enumerate(row)))
    texts, lines = _only_table(run_cli, c, path)
    assert [row for row in texts if row[0] in ("North", "South", "East", "West")] == [list(r) for r in data]
    assert any("Rural" in cell for row in texts for cell in row)
    assert not any("Share" in text or "Rural" in text for text in lines)


def test_a_label_leaving_a_bracket_open_goes_on_in_the_line_under_it(run_cli, tmp_path):
    """An unruled table's label "Net result (Loss" over "Shown In Brackets)": the bracket left
    open joins the second line to the first's row, whatever case it starts in."""
    path = tmp_path / "bracket.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    for k, (label, a, b, d) in enumerate((("Item", "2019", "2020", "2021"), ("Sales", "120", "140", "151"),
                                           ("Net result (Loss", "-12", "4", "9"), ("Shown In Brackets)", "", "", ""),
                                           ("Staff", "31", "33", "36"))):
        y = 740 - 16 * k
        c.drawString(72, y, label)
        for x, cell in zip((260, 330, 400), (a, b, d), strict=True):
            c.drawRightString(x, y, cell)
    c.drawString(72, 640, BODY)
    c.showPage()
    c.save()
    texts = _texts(_tables(_extract(run_cli, path))[0])
    assert ["Net result (Loss Shown In Brackets)", "-12", "4", "9"] in texts
    assert len(texts) == 4


def _table_canvas(path: Path, place: Callable[[canvas.Canvas, int, float, str], None]) -> \
        tuple[canvas.Canvas, Callable[[float, dict[int, str]], None]]:
    """A page begun with a line of text (Helvetica, 10 points), and a function drawing a line
    of a table's cells, each by its column (``place``: the canvas, the column, the baseline,
    the text)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)

    def line(y: float, cells: dict[int, str]) -> None:
        for k, text in cells.items():
            place(c, k, y, text)
    return c, line


@pytest.mark.parametrize("body", [2, 3])
def test_heads_wrapped_onto_lines_of_their_own_are_one_row_of_an_unruled_table(run_cli, tmp_path, body: int):
    """No rules; each column's head centred on its row over one, two or three lines, so that
    "Indicator" stands beside "Value" over "(EUR m)" and "Share" over "(%)": one row of heads,
    each whole in its column, then the rows of figures (two of them are two rows); a group
    head set a blank line above such heads stays a row of its own."""
    path = tmp_path / "wrapped.pdf"
    xs = (72, 200, 260, 320, 380, 440)
    c, line = _table_canvas(path, lambda c, k, y, text: c.drawCentredString(xs[k] + 28, y, text) if k else
                            c.drawString(xs[k], y, text))
    c.drawCentredString(xs[3] + 28, 752, "Domestic")
    line(734, {1: "Value", 3: "Share", 4: "Per"})
    line(727, {0: "Indicator", 2: "Number", 5: "Amount"})
    line(720, {1: "(EUR m)", 3: "(%)", 4: "capita"})
    data = [("Exports", "983", "5,952", "56.8", "38,044", "2,524"),
            ("Imports", "811", "6,304", "61.4", "24,833", "9,801"),
            ("Rents", "384", "2,676", "21.8", "17,129", "1,003")][:body]
    for k, row in enumerate(data):
        line(700 - 16 * k, dict(enumerate(row)))
    texts, lines = _only_table(run_cli, c, path)
    assert ["Indicator", "Value (EUR m)", "Number", "Share (%)", "Per capita", "Amount"] in texts
    assert texts[-body:] == [list(r) for r in data]
    assert any(row.count("Domestic") == 1 and "Number" not in row for row in texts)


def test_heads_of_several_lines_under_group_heads_whose_last_lines_run_on_head_an_unruled_table(run_cli, tmp_path):
    """No rules, heads in bold: group heads over two columns each; the stub's head beside the
    first lines of two heads of two lines ("Value (EUR" over "m)", "Change" over "(%)"), the
    heads of one line centred between those lines, so that the heads' last line holds only the
    words running on from the lines above (a bracket closed, a unit): every line of heads is
    the table's, over its rows of figures, not a table of heads and a line of text over another
    table; the stub's head, centred on the group heads' line and the heads', spans both rows."""
    path = tmp_path / "ran_on.pdf"
    xs = (72, 170, 230, 290, 350, 410, 470)
    c, line = _table_canvas(path, lambda c, k, y, text: c.drawCentredString(xs[k] + 30, y, text) if k else
                            c.drawString(xs[k], y, text))
    c.setFont("Helvetica-Bold", 10)
    for k, group in ((1, "Estimate"), (3, "Public"), (5, "Planned")):
        c.drawCentredString(xs[k] + 60, 752, group)
    c.drawCentredString(100, 737, "Region")
    line(737, {5: "Value (EUR", 6: "Change"})
    line(729, {1: "Rate", 2: "Per capita", 3: "Amount", 4: "Number"})
    line(722, {5: "m)", 6: "(%)"})
    c.setFont("Helvetica", 10)
    data = [("Northern highlands", "(1,128)", "7,175", "2003", "68,995", "26,786", "-13.3"),
            ("Coastal areas", "3,667", "2,247", "1996", "121,067", "10,763", "95.6"),
            ("Metropolitan area", "(8,390)", "2,694", "1997", "34,986", "134,564", "44.8"),
            ("West", "(5,810)", "698", "2016", "206,953", "5,371", "111.0")]
    for k, row in enumerate(data):
        line(706 - 16 * k, dict(enumerate(row)))
    texts, lines = _only_table(run_cli, c, path)
    assert texts[-len(data):] == [list(r) for r in data]
    assert texts[:2] == [["Region", "Estimate", "Public", "Planned"],  # its stub's head spanning both rows
                         ["Rate", "Per capita", "Amount", "Number", "Value (EUR m)", "Change (%)"]]
    assert not any("m)" in text or "Estimate" in text for text in lines)


def test_a_group_head_over_no_head_but_over_its_columns_figures_heads_an_unruled_table(run_cli, tmp_path):
    """No rules; group heads centred over two columns each, in the space between the narrow
    heads of the two lines under them ("Share" over "(%)", "No."), over the wide figures of
    those columns, a little more than a line above them: the group heads are the table's first
    row, not a line of text above it."""
    path = tmp_path / "between.pdf"
    ends = (0, 240, 300, 360, 420, 480)
    c, line = _table_canvas(path, lambda c, k, y, text: c.drawRightString(ends[k], y, text) if k else
                            c.drawString(72, y, text))
    c.drawCentredString(270, 744, "Rural")
    c.drawCentredString(390, 744, "Urban")
    line(726, {1: "Share", 3: "Share", 5: "All"})
    line(714, {0: "Region", 1: "(%)", 2: "No.", 3: "(%)", 4: "No.", 5: "No."})
    data = [("North", "12.5", "12,345", "8.1", "23,456", "35,801"),
            ("South", "9.4", "11,120", "7.7", "19,090", "30,210"),
            ("East", "3.2", "17,075", "2.9", "16,161", "33,236")]
    for k, row in enumerate(data):
        line(696 - 16 * k, dict(enumerate(row)))
    texts, lines = _only_table(run_cli, c, path)
    assert texts[-3:] == [list(r) for r in data]
    assert ["Region", "Share (%)", "No.", "Share (%)", "No.", "All No."] in texts
    assert any(row.count("Rural") == 1 and row.count("Urban") == 1 for row in texts)
    assert not any("Rural" in text or "Urban" in text for text in lines)


def test_group_heads_and_a_stub_centred_over_an_unruled_tables_first_row_are_its_heads(run_cli, tmp_path):
    """No rules; two group heads on a line of their own over an unruled table's heads, the stub's
    head centred on the two lines beside them: both lines are the table's, not a heading and a
    line of text over it."""
    path = tmp_path / "stub.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    c.drawCentredString(230, 742, "Total")
    c.drawCentredString(350, 742, "Rural")
    c.drawString(90, 735, "Indicator")
    xs = (72, 200, 260, 320, 380, 440)
    heads = ("", "Number", "Amount", "Rate", "Index", "Share")
    for x, head in zip(xs[1:], heads[1:], strict=True):
        c.drawRightString(x + 40, 728, head)
    data = [("Unemployment rate", "29.7", "2023", "1.4", "2017", "76.9"),
            ("Industrial production", "78.1", "1993", "64.2", "2017", "117.2"),
            ("Retail sales", "12.0", "2001", "3.3", "2016", "88.5")]
    for k, row in enumerate(data):
        c.drawString(72, 712 - 15 * k, row[0])
        for x, cell in zip(xs[1:], row[1:], strict=True):
            c.drawRightString(x + 40, 712 - 15 * k, cell)
    texts, lines = _only_table(run_cli, c, path)
    cells = " ".join(cell for row in texts for cell in row)
    assert "Indicator" in cells and "Total" in cells
    assert not any("Indicator" in text or "Rural" in text for text in lines)


def test_two_head_rows_shaded_box_by_box_over_rules_between_rows_head_the_table(run_cli, tmp_path):
    """A group head's row and the heads' row under it, each a filled box a cell (a grid two rows
    high), a rule under each row below: both rows head the table, and every row under them is its."""
    path = tmp_path / "shaded2.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    c.setFillGray(0.8)
    for x0, x1 in ((72, 190), (190, 390), (390, 452)):
        c.rect(x0, 738, x1 - x0, 18, stroke=0, fill=1)
    for x0, x1 in ((72, 190), (190, 290), (290, 390), (390, 452)):
        c.rect(x0, 720, x1 - x0, 18, stroke=0, fill=1)
    c.setFillGray(0)
    c.drawString(250, 743, "Measured")
    rows = _figures_table(c, 720 + 18)
    for k in range(2, 7):
        c.setLineWidth(0.5)
        c.line(72, 756 - 18 * k, 452, 756 - 18 * k)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    texts = _texts(tables[0])
    assert texts[-4:] == rows[1:]
    assert any("Measured" in cell for row in texts[:2] for cell in row)


def test_a_groups_label_centred_on_its_rows_starts_no_row_of_its_own(run_cli, tmp_path):
    """No rules; a first column of group labels, each centred on the two rows it spans (a line
    of its own between them), a column of names labelling every row: each named row keeps its
    own figures, the group's label goes with a row of its group, never with the next group's."""
    path = tmp_path / "groups.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    xs = (72, 160, 300, 380)
    for x, head in zip(xs, ("Group", "Species", "Rate", "Amount"), strict=True):
        c.drawString(x, 750, head)
    groups = (("Planned", ("Pike", "57,361", "172"), ("Perch", "127,382", "57")),
              ("Rural", ("Eel", "97,470", "921"), ("Turbot", "130,506", "878")))
    y = 732
    for group, *members in groups:
        c.drawString(xs[0], y - 7.5, group)
        for name, rate, amount in members:
            c.drawString(xs[1], y, name)
            c.drawString(xs[2], y, rate)
            c.drawString(xs[3], y, amount)
            y -= 15
    c.drawString(72, 640, BODY)
    c.showPage()
    c.save()
    named = {row[1]: row for row in _laid_out(_tables(_extract(run_cli, path))[0])}
    assert [named[n][2:] for n in ("Pike", "Perch", "Eel", "Turbot")] == \
        [["57,361", "172"], ["127,382", "57"], ["97,470", "921"], ["130,506", "878"]]
    assert named["Pike"][0] == "Planned" or named["Perch"][0] == "Planned"
    assert "Planned" not in (named["Eel"][0], named["Turbot"][0])


def test_a_line_running_on_from_above_is_no_head_of_the_table_under_it(run_cli, tmp_path):
    """A line in small letters just over an unruled table's heads, over its first column (the
    end of a cell or a sentence above): it stays a line, not a head of the table."""
    path = tmp_path / "runon.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    c.drawString(72, 742, "less tyres and tubes")
    for k, row in enumerate((("Item", "Spring", "Summer", "Autumn"), ("Wheels", "12", "40", "7"),
                             ("Frames", "9", "31", "2"), ("Chains", "26", "77", "17"))):
        c.drawString(72, 728 - 14 * k, row[0])
        for x, cell in zip((250, 320, 390), row[1:], strict=True):
            c.drawRightString(x, 728 - 14 * k, cell)
    texts, lines = _only_table(run_cli, c, path)
    assert texts[0] == ["Item", "Spring", "Summer", "Autumn"]
    assert any("less tyres and tubes" in text for text in lines)


def _framed_groups(c: canvas.Canvas, top: float) -> list[tuple[str, str, tuple[str, ...]]]:
    """A table in a frame, one rule under its head, no rule between its columns or rows: two
    group heads each centred over the two cells of its figures, "Group" and "Species" set
    between the two lines of heads; each group's label centred on its two rows (a line of its
    own), a name of two lines centred on its figures, a bold total under them. Figures are
    centred in their cells. The rows as (group, name, figures)."""
    cells = ((220, 280), (280, 340), (340, 400), (400, 460))  # the figures' cells
    rows = [("Public", "Zander", ("776", "551", "58.1", "39.0")),
            ("Public", "Sea bass", ("445", "524", "90.1", "86.4")),
            ("Foreign", "Rainbow trout", ("930", "570", "94.2", "40.1")),
            ("Foreign", "Atlantic salmon", ("284", "1,891", "53.9", "93.4")),
            ("Rural", "Turbot", ("236", "869", "39.1", "15.4")), ("Rural", "Pike", ("927", "687", "84.8", "75.9"))]
    c.setFont("Helvetica-Bold", 10)
    for head, (lo, hi) in (("Men", (cells[0][0], cells[1][1])), ("Women", (cells[2][0], cells[3][1]))):
        c.drawCentredString((lo + hi) / 2, top - 12, head)
    c.drawString(80, top - 19, "Group")
    c.drawString(140, top - 19, "Species")
    for (lo, hi), year in zip(cells, ("2011", "2012", "2011", "2012"), strict=True):
        c.drawCentredString((lo + hi) / 2, top - 26, year)
    c.line(72, top - 31, 460, top - 31)
    c.setFont("Helvetica", 10)
    y = top - 45
    for k, (group, name, figures) in enumerate(rows):
        if k % 2 == 0:
            c.drawString(80, y - 7, group)
        if name == "Atlantic salmon":  # a name of two lines, its figures on the line between
            c.drawString(140, y + 6, "Atlantic")
            c.drawString(140, y - 6, "salmon")
        else:
            c.drawString(140, y, name)
        for (lo, hi), figure in zip(cells, figures, strict=True):
            c.drawCentredString((lo + hi) / 2, y, figure)
        y -= 26 if name in ("Rainbow trout", "Atlantic salmon") else 14
    c.setFont("Helvetica-Bold", 10)
    total = ("3,598", "5,092", "70.0", "58.4")
    c.drawString(80, y, "Total")
    for (lo, hi), figure in zip(cells, total, strict=True):
        c.drawCentredString((lo + hi) / 2, y, figure)
    c.rect(72, y - 6, 388, top - y + 6)
    return [*rows, ("Total", "", total)]


def test_a_framed_table_of_groups_keeps_its_columns_rows_and_group_heads(run_cli, tmp_path):
    """A frame with a rule under the head only: the columns come from the text, though group
    labels stand on lines of their own and a group head crosses no column's gap; each species
    keeps its own row and figures, a group's label goes with one of its rows, the total is a
    row of its own, and each group head spans the two columns under it."""
    path = tmp_path / "framed-groups.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    rows = _framed_groups(c, 760)
    _only_table(run_cli, c, path)
    table = _tables(_extract(run_cli, path))[0]
    texts = _laid_out(table)
    assert ["Group", "Species", "2011", "2012", "2011", "2012"] in texts
    body = {row[1] or row[0]: row for row in texts}
    for group, name, figures in rows:
        assert body[name or group][2:] == list(figures)
    for group in ("Public", "Foreign", "Rural"):  # each group's label with its rows, one of them at least
        assert group in [body[name][0] for g, name, _ in rows if g == group]
        assert group not in [body[name or g][0] for g, name, _ in rows if g != group]
    heads = [(cell["text"], cell.get("colspan", 1)) for row in table["rows"][:table["header_rows"]] for cell in row]
    assert ("Men", 2) in heads and ("Women", 2) in heads


def test_a_line_of_group_heads_each_centred_over_its_columns_is_a_row_of_its_own():
    """Heads as a browser sets a table's (measured on such a page): a line of two group heads,
    each centred over the cells of two columns of figures but, short, inside one column's
    bounds; "Group" and "School" on a line between; then the columns' heads. The group heads
    are a row of their own, each over its two columns. A line of a head a column (wrapped
    heads, one of them by chance near the middle of a run of columns) is no such line."""
    from siftpdf.organize.tables import _centred_over, _header_lines, _Piece

    def line(y: float, *pieces: tuple[str, float, float]) -> list[_Piece]:
        return [_Piece(x0, x1, y, y + 8, y - 2, 11.0, text, True) for text, x0, x1 in pieces]

    xs = [63.0, 117.1, 262.6, 331.8, 373.1, 445.9, 484.5]
    heads = [line(680, ("Urban", 299.1, 336.6), ("Public", 409.5, 447.3)),
             line(670, ("Group", 71.6, 109.3), ("School", 169.3, 210.4)),
             line(660, ("2011", 281.2, 311.8), ("2012", 336.5, 367.1), ("2011", 391.8, 422.4), ("2012", 447.1, 477.6))]
    assert [_centred_over(p, xs) for p in heads[0]] == [[2, 3], [4, 5]]
    parted = _header_lines(heads, xs, [])
    assert len(parted) == 1 and 670 < parted[0] < 680  # under the group heads only
    wrapped = [line(680, ("Schools in", 163, 199), ("in original", 225, 258), ("sample that", 277, 317),
                    ("Substitute", 341, 376), ("schools that", 394, 435), ("participating", 452, 494),
                    ("Students", 522, 553)),
               line(670, ("original sample", 160, 202), ("sample", 230, 254), ("participated", 280, 314),
                    ("schools", 345, 372), ("participated", 396, 433), ("schools", 459, 487), ("assessed", 520, 555))]
    assert _header_lines(wrapped, [35, 131, 202, 267, 329, 385, 444, 507, 558], []) == []


def test_a_framed_table_whose_labels_wrap_round_their_figures_keeps_a_row_a_label(run_cli, tmp_path):
    """A frame with a rule under its head; most names run over two lines, set round the line of
    their figures (cells centred top to bottom), and each group's label shares a line with a
    name's second line: the lines of names are no rows of their own, each name keeps its row
    and its figures, the group's label goes with one of its rows."""
    path = tmp_path / "framed-wrapped.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    top, figures_x = 760, (300, 360, 420)
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((80, "Group"), (140, "Item"), *zip(figures_x, ("2007", "2008", "2009"), strict=True)):
        c.drawString(x, top - 14, head)
    c.line(72, top - 20, 460, top - 20)
    c.setFont("Helvetica", 10)
    rows = [("Total", ("Training (for whole", "provisional)"), ("47.5", "(266)", "17.1%")),
            ("Total", ("Interest paid (revised", "region and)"), ("–", "2,454", "72.1%")),
            ("Rural", ("Transport services (with", "revised figures)"), ("105.3", "(5,554)", "53.7%")),
            ("Rural", ("Depreciation (of covers", "parts)"), ("38.9", "(1,361)", "24.8%"))]
    y = top - 40
    for k, (group, (first, second), figures) in enumerate(rows):
        c.drawString(140, y + 6, first)
        for x, figure in zip(figures_x, figures, strict=True):
            c.drawString(x, y, figure)
        c.drawString(140, y - 6, second)
        if k % 2 == 0:
            c.drawString(80, y - 6 - 7, group)  # centred on its two rows, on the line of a name's second line
        y -= 26
    c.rect(72, y + 6, 388, top - y - 6)
    _only_table(run_cli, c, path)
    texts = _laid_out(_tables(_extract(run_cli, path))[0])
    assert texts[0] == ["Group", "Item", "2007", "2008", "2009"]
    body = {row[1]: row for row in texts[1:]}
    assert len(texts) == 1 + len(rows)
    for _, (first, second), figures in rows:
        assert body[f"{first} {second}"][2:] == list(figures)
    for group in ("Total", "Rural"):  # each group's label with its rows, one of them at least
        assert group in [row[0] for g, row in zip([g for g, _, _ in rows], texts[1:], strict=True) if g == group]
        assert group not in [row[0] for g, row in zip([g for g, _, _ in rows], texts[1:], strict=True) if g != group]


def test_a_striped_tables_plain_rows_wrap_leave_blanks_and_end_it(run_cli, tmp_path):
    """Every other row shaded box by box, the head shaded too: a plain row whose name runs over
    two lines (twice a stripe's height), a plain row with a blank cell, and a plain row last,
    under the last stripe. One table of every row: the tall plain row parts no table, the blank
    is a cell of its own (not the figure beside it spread over two), the last row is the table's."""
    path = tmp_path / "zebra.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    cells = ((72, 200), (200, 280), (280, 360), (360, 440))
    rows = [("Indicator", "2011", "2012", "2013"), ("Public debt", "5,852", "1991", "7,672"),
            ("Housing starts", "8,518", "2004", "7,025"), ("Gross domestic product", "6,793", "2008", "620"),
            ("Imports of goods", "3,029", "2002", "1,813"), ("Consumer prices", "5,072", "", "2,931"),
            ("Exports of goods", "6,908", "1995", "330"), ("Retail sales", "5,662", "2020", "898")]
    y = 760.0
    for k, row in enumerate(rows):
        tall = row[0] == "Gross domestic product"
        height = 30.0 if tall else 16.0
        if k % 2 == 0:  # the head, then every other row
            c.setFillGray(0.85)
            for x0, x1 in cells:
                c.rect(x0, y - height, x1 - x0, height, stroke=0, fill=1)
            c.setFillGray(0)
        middle = y - height / 2 - 3.5
        if tall:
            c.drawString(cells[0][0] + 6, middle + 6, "Gross domestic")
            c.drawString(cells[0][0] + 6, middle - 6, "product")
        else:
            c.drawString(cells[0][0] + 6, middle, row[0])
        for (_, x1), figure in zip(cells[1:], row[1:], strict=True):
            c.drawRightString(x1 - 6, middle, figure)
        y -= height
    texts, lines = _only_table(run_cli, c, path)
    assert texts == [list(row) for row in rows]
    assert not any("Retail sales" in text for text in lines)


def test_a_striped_tables_last_plain_row_in_one_column_of_two_is_its_row(run_cli, tmp_path):
    """A page of two columns: a table in the left one, every other row shaded, its last row
    plain under its last stripe; the right column's prose runs on beside it, one of its lines
    between the last stripe and the plain row's line: that row is the table's still, not a
    line of text under it."""
    path = tmp_path / "zebra2.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    rows = [("Station", "Flow"), ("Upper weir", "46.8%"), ("Mill bridge", "60.0"), ("Ford", "22.8"),
            ("Lower weir", "214,529"), ("Lock", "876"), ("Sluice", "37,836"), ("Pier", "19.5")]
    for k in range(40):  # the right column's prose, a line every 11.25 points
        c.drawString(316, 780 - 11.25 * k, "the keeper read every gauge at dawn and dusk")
    for k in range(6):
        c.drawString(72, 780 - 12 * k, "the survey counted every gauge along the river")
    y = 700.0
    for k, (label, figure) in enumerate(rows):
        if k % 2 == 0:
            c.setFillGray(0.9)
            for x0, x1 in ((140, 202), (202, 244)):  # a box a cell
                c.rect(x0, y - 16.5, x1 - x0, 16.5, stroke=0, fill=1)
            c.setFillGray(0)
        c.drawString(145, y - 12, label)
        c.drawRightString(239, y - 12, figure)
        y -= 16.5
    for k in range(6):
        c.drawString(72, 540 - 12 * k, "the survey counted every gauge along the river")
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    assert _texts(tables[0]) == [list(row) for row in rows]


def test_an_unruled_tables_rows_with_a_blank_cell_stay_its_rows(run_cli, tmp_path):
    """No rules; a table of three columns whose last column is blank in some rows (two pieces
    on those lines, each where the rows above have theirs): every row is the table's, blanks
    as empty cells; a line of prose just under it, in two pieces, stays prose."""
    path = tmp_path / "blanks.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    rows = [("Region", "2018", "2019"), ("South", "$7,274.26", "9.7%"), ("Border provinces", "$3,127.41", "84.4%"),
            ("Rural districts", "$3,831.51", ""), ("Northern highlands", "$4,053.98", "97.3%"),
            ("North", "$6,951.69", "")]
    for k, row in enumerate(rows):
        c.drawString(80, 750 - 15 * k, row[0])
        for x, cell in zip((230, 290), row[1:], strict=True):
            c.drawRightString(x, 750 - 15 * k, cell)
    c.drawString(80, 660, "The table shows what was found in every region of the survey, and")
    c.drawString(400, 660, "no more.")
    texts, lines = _only_table(run_cli, c, path)
    assert texts == [list(row) for row in rows]
    assert any("no more." in text for text in lines)


def test_an_unruled_tables_labels_set_round_their_figures_row_after_row(run_cli, tmp_path):
    """No rules; most names run over two lines set round the line of their figures (cells
    centred top to bottom), so the figures' lines carry no name, the last row's too; one column
    blank in some rows. Each name and its figures are one row, the last name's second line too."""
    path = tmp_path / "round.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    xs = (230, 290, 350, 410)
    c.drawString(80, 750, "School")
    for x, head in zip(xs, ("Rate", "Share", "Value", "Amount"), strict=True):
        c.drawRightString(x, 750, head)
    rows = [(("Bachelor's or", "equivalent"), ("42.5", "", "531", "5,254")),
            (("Upper secondary", "(main their group)"), ("7.0", "–", "829", "(5,510)")),
            (("Vocational",), ("6.5", "", "277", "1,306")),
            (("Doctoral (provisional", "from and)"), ("100.4", "38.6", "328", "2,981")),
            (("Master's or", "equivalent"), ("29.6", "50.2", "742", "(6,490)"))]
    y = 728.0
    for name, figures in rows:
        if len(name) == 2:
            c.drawString(80, y + 8, name[0])
            c.drawString(80, y - 8, name[1])
        else:
            c.drawString(80, y, name[0])
        for x, figure in zip(xs, figures, strict=True):
            c.drawRightString(x, y, figure)
        y -= 36 if len(name) == 2 else 22
    texts, lines = _only_table(run_cli, c, path)
    assert texts[0] == ["School", "Rate", "Share", "Value", "Amount"]
    assert texts[1:] == [[" ".join(name), *figures] for name, figures in rows]
    assert not any("equivalent" in text for text in lines)


def test_labels_centred_on_two_rows_span_them(run_cli, tmp_path):
    """A group's label set midway between the lines of its two rows, and the stub's heads set
    midway between two lines of heads, span those rows; a group's label set off the middle of
    its rows (a name of two lines below it) spans nothing."""
    path = tmp_path / "spans.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    _framed_groups(c, 760)
    _only_table(run_cli, c, path)
    table = _tables(_extract(run_cli, path))[0]
    spans = {cell["text"]: cell.get("rowspan", 1) for row in table["rows"] for cell in row}
    assert (spans["Group"], spans["Species"]) == (2, 2)
    assert (spans["Public"], spans["Rural"], spans["Foreign"]) == (2, 2, 1)
    assert spans["Zander"] == spans["776"] == 1


def test_a_framed_tables_columns_hold_where_names_run_over_three_lines(run_cli, tmp_path):
    """A frame with a rule under its head, group heads over pairs of columns; names of three
    lines set round their figures, each row's group label set low, beside the name's last line,
    a column of figures blank in half the rows: lines of labels outnumber lines of figures, yet
    each column of figures is a column of its own."""
    path = tmp_path / "framed-long-names.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 790, BODY)
    top, xs = 760, (250, 300, 350, 400)
    c.drawCentredString(262, top - 12, "Total")  # a group head over two columns, across their gap
    c.drawCentredString(362, top - 12, "Urban")
    c.drawString(80, top - 24, "Group")
    c.drawString(140, top - 24, "Item")
    for x, head in zip(xs, ("2010", "2011", "2012", "2013"), strict=True):
        c.drawRightString(x, top - 24, head)
    c.line(72, top - 30, 410, top - 30)
    rows = [("Planned", ("Office", "supplies (when", "with differ)"), ("7,250", "2000", "", "1995")),
            ("Actual", ("Raw", "materials (for", "the quarter)"), ("9,398", "1995", "71.9", "1994")),
            ("Foreign", ("Legal", "fees (of the", "whole year)"), ("3,668", "1991", "", "2010")),
            ("Domestic", ("Training", "(totals as", "totals)"), ("926", "2018", "42.6", "2004"))]
    y = top - 54
    for group, name, figures in rows:
        for k, line in enumerate(name):
            c.drawString(140, y + 12 - 12 * k, line)
        for x, figure in zip(xs, figures, strict=True):
            c.drawRightString(x, y, figure)
        c.drawString(80, y - 12, group)  # beside the name's last line
        y -= 40
    c.rect(72, y + 18, 338, top - y - 18)
    c.drawString(72, y - 10, BODY)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    texts = _laid_out(tables[0])
    assert ["Group", "Item", "2010", "2011", "2012", "2013"] in texts
    assert [row[2:] for row in texts[-len(rows):]] == [list(figures) for _, _, figures in rows]


def test_a_cell_spanning_rows_takes_its_column_in_the_rows_it_reaches():
    """Read by column (as the check for prose read across cells does), the rows under a cell
    spanning rows keep their cells in their own columns, not shifted into the spanning one's."""
    rows = [[{"text": "Planned", "rowspan": 2}, {"text": "Zander"}, {"text": "776"}],
            [{"text": "Sea bass"}, {"text": "445"}],
            [{"text": "Total", "colspan": 2}, {"text": "1,221"}]]
    assert [(r, c, cell["text"]) for r, c, cell in places(rows)] == \
        [(0, 0, "Planned"), (0, 1, "Zander"), (0, 2, "776"), (1, 1, "Sea bass"), (1, 2, "445"),
         (2, 0, "Total"), (2, 2, "1,221")]


def test_a_column_beside_prose_has_a_left_edge(corpus: Path) -> None:
    """A listing's line numbers and indented code beside a column of prose make a column (a
    third of its pieces at its left edge), whose gutter parts the prose from the listing. The
    leaders of contents entries, each starting where its title ends, make none, and entries
    whose leaders end at one edge are no column of prose: the C standard's contents keep each
    entry's leader with its title, and its page number in a column of its own."""
    def item(text: str, x0: float, x1: float, y: float) -> Item:
        return Item(text, x0, y - 2, x1, y + 8, y, 10.0)

    listing = []
    for k in range(20):
        y = 700 - 12 * k
        listing += [item("prose " * 6, 72, 297, y), item(str(k + 1), 315, 322, y),
                    item("x" * 30, 335 + 10 * (k % 4), 485 + 10 * (k % 4), y)]
    assert _lenient_gutter(listing, 612.0) is not None
    pages = [r for r in siftpdf.extract((corpus / "long" / "n1570.pdf").read_bytes(), max_pages=4) if "page" in r]
    text = pages[3]["text"]
    assert "6.10.1 Conditional inclusion ................. | 162" in text
    assert "6.10.3 Macro replacement .................. | 166" in text
    assert "6.5.4 Cast operators .................... | 91" in text
    assert "1. Scope ............................. | 1\n2. Normative references" in pages[2]["text"]


def test_rules_round_the_heads_alone_head_the_figures_under_them(run_cli, tmp_path):
    """A table ruled above its heads and under them, its rows of figures under the second rule
    with no rule of their own below, then its caption, then a rule closing the float: the rows
    under the heads are the table's; the caption is a caption, not rows."""
    path = tmp_path / "float.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    c.drawString(72, 780, BODY)
    c.setLineWidth(0.5)
    c.line(72, 740, 300, 740)
    c.drawString(88, 728, "Input event type")
    c.drawString(262, 728, "%")
    c.line(82, 724, 290, 724)
    rows = [("Starting a service", "58%"), ("File write from client", "32%"), ("Unreachable node", "24%"),
            ("Configuration change", "23%"), ("Data corruption", "3%"), ("Other", "4%")]
    for r, (label, share) in enumerate(rows):
        c.drawString(88, 712 - 11 * r, label)
        c.drawString(262, 712 - 11 * r, share)
    c.drawString(72, 638, "Table 4: Input events that led to failures, with the share of the")
    c.drawString(72, 627, "failures in which each input event is needed for them to show.")
    c.line(72, 620, 300, 620)
    c.drawString(72, 600, "Table 4 lists the events that a tester has to make for a failure to show.")
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [[["Input event type", "%"], *map(list, rows)]]
    blocks = [(b["kind"], b["text"][:22]) for r in recs if "page" in r for b in r["blocks"]]
    assert ("caption", "Table 4: Input events ") in blocks and ("paragraph", "Table 4 lists the even") in blocks


def test_a_framed_table_of_symbols_reads_a_row_a_line_and_a_wrapped_row_as_one(run_cli, tmp_path):
    """A frame with rules between its columns and under its heads, none between the rows: each
    line of a symbol (a small letter, centred in its narrow column), a description and a value
    is a row of its own; a row whose every cell wraps onto a second line is one row."""
    path = tmp_path / "symbols.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(72, 780, BODY)
    xs, top = [120, 150, 330, 380], 740
    body = [("w", "Window size for cost aggregation", "33"), ("t", "Colour difference truncation value", "40"),
            ("g", "Strength of grouping by colour similarity", "0.03"),
            ("l", "Temporal feedback coefficient", "varied"),
            ("max", "Largest number of iterations in the", "3 at"), ("iter", "refinement stage", "most")]
    bottom = top - 18 - 11 * len(body) - 4
    for y in (top, top - 16, bottom):
        c.line(xs[0], y, xs[-1], y)
    for x in xs:
        c.line(x, top, x, bottom)
    for x, head in zip(xs, ("Sym.", "Description", "Value"), strict=False):
        c.drawString(x + 3, top - 12, head)
    for r, row in enumerate(body):
        y = top - 28 - 11 * r
        c.drawCentredString((xs[0] + xs[1]) / 2, y, row[0])
        c.drawString(xs[1] + 3, y, row[1])
        c.drawString(xs[2] + 3, y, row[2])
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [[["Sym.", "Description", "Value"], *map(list, body[:4]),
                                            ["max iter", "Largest number of iterations in the refinement stage",
                                             "3 at most"]]]


def test_booktabs_body_of_two_lines_of_words_in_every_column_is_two_rows(run_cli, tmp_path):
    """Two lines of words between the rule under the heads and the bottom rule, each with a cell
    in every column, are two rows; two lines whose second runs on the first's cells (a small
    letter after no stop) are one row whose cells wrap."""
    path = tmp_path / "words.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Times-Roman", 10)
    c.drawString(72, 780, BODY)
    heads, xs = ("Technique", "Advantage"), (76, 240)
    _booktabs(c, 740, xs, heads, [("Chose 1", "Truc 1"), ("Chose 2", "Truc 2")], 12)
    _booktabs(c, 640, xs, heads, [("High availability", "Vector clocks with"),
                                  ("for writes", "reconciliation on reads")], 12)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [
        [["Technique", "Advantage"], ["Chose 1", "Truc 1"], ["Chose 2", "Truc 2"]],
        [["Technique", "Advantage"], ["High availability for writes", "Vector clocks with reconciliation on reads"]]]


def test_a_ledger_drawn_a_row_a_text_object_with_a_wide_particulars_cell_is_a_table():
    """A ledger without rules, each row one text object: its date, voucher, type, a
    particulars cell as wide as a description's, and its amounts, parted by positioned spaces.
    One wide cell among six is a table's description, not a line of prose; its heads, one
    object too, six short words each over a column, head it."""
    starts = [40.0, 106.0, 174.0, 218.0, 447.0, 525.0]
    rows = [["Date", "Voucher", "Type", "Particulars", "Debit", "Balance"],
            ["13-May-16", "38BP", "R", "Cheque-085900-bills-133,132,139,138", "26406576", "1207631"],
            ["25-Jun-16", "50BP", "R", "Cheque-086352-commission-returned", "132696", "1074935"],
            ["19-Aug-16", "1BP", "R", "Cheque-086866-payment-of-bill-197", "1074935", "0"]]
    lines = [{"y": 700.0 - 17 * k, "size": 12.0, "runs": [_gapped_run(" ".join(row), starts, 700.0 - 17 * k)]}
             for k, row in enumerate(rows)]
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [rows]


def _flush_table(run_cli, path: Path, rows: list[list[str]], lefts: tuple[float, ...],
                 rights: tuple[float | None, ...], framed: bool = False,
                 group: tuple[float, str] | None = None) -> list[list[list[str]]]:
    """A table drawn as a browser or a word processor sets one, a line of text over it and one
    under it: its heads (the first row, in bold) and its labels flush left at ``lefts``, its
    figures flush right at ``rights``; in a frame, or under a group head (x, text). The cells
    of the tables read from it."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    if group:
        c.drawString(group[0], 756, group[1])
    for r, row in enumerate(rows):
        y = 740 - 16 * r
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
        for k, cell in enumerate(row):
            if r == 0 or k == 0:
                c.drawString(lefts[k], y, cell)
            else:
                c.drawRightString(rights[k] or 0.0, y, cell)
    if framed:
        c.rect(72, 740 - 16 * len(rows) + 10, 448, 16 * len(rows) + 2)
    c.setFont("Helvetica", 10)
    c.drawString(72, 740 - 16 * len(rows) - 30, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    return [_texts(t) for t in _tables(_extract(run_cli, path))]


@pytest.mark.parametrize("framed", [True, False])
def test_heads_set_flush_left_over_figures_set_flush_right_head_their_columns(run_cli, tmp_path, framed: bool):
    """A table as wide as the text, as a browser or a word processor sets one by default: each
    head flush left in its column, the figures under it flush right, so far apart that no
    figure lies under its head. Each head is its column's, not a column of its own."""
    rows = [["Region", "Households", "Share"], ["North", "12,504", "21.5%"], ["Coastal areas", "8,311", "9.8%"],
            ["Capital region", "104,223", "44.0%"], ["Rural districts", "961", "1.2%"]]
    assert _flush_table(run_cli, tmp_path / "flush.pdf", rows, (76, 250, 400), (None, 390, 516), framed) == [rows]


@pytest.mark.parametrize("group", [False, True])
def test_heads_set_flush_left_close_to_the_figures_of_the_column_before_head_their_own(run_cli, tmp_path,
                                                                                       group: bool):
    """As a browser pads its cells: each head flush left in its column, the figures flush right,
    a head starting 7 points (less than a column gap) right of the last figure of the column
    before it, no rule. Each head is its own column's, not one cell with the figures before it;
    so too under a group head over the last two columns."""
    rows = [["Region", "2013", "Households"], ["North", "12,504", "394"], ["Coastal", "28.0%", "-7.9"],
            ["Capital", "-4.2", "2.0%"], ["Rural", "210,211", "52.2"]]
    tables = _flush_table(run_cli, tmp_path / "padded.pdf", rows, (76, 210, 328), (None, 321, 516),
                          group=(420, "Survey") if group else None)
    assert [t[-len(rows):] for t in tables] == [rows]


def _tables_and_headings(run_cli, c: canvas.Canvas, path: Path) -> tuple[list[list[list[str]]], list[str]]:
    """The one page drawn on ``c``, saved to ``path`` and extracted: its tables' cells and its
    headings."""
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    page = next(r for r in recs if "page" in r)
    return [_texts(t) for t in _tables(recs)], [b["text"] for b in page["blocks"] if b["kind"] == "heading"]


def _left_column(path: Path, lines: int, pitch: float) -> tuple[canvas.Canvas, Iterator[str]]:
    """A page to draw at ``path`` with ``lines`` justified lines of a left column (from x 72,
    baseline 780 down, ``pitch`` apart), and the words to go on with."""
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    for k in range(lines):
        _column_line(c, words, 72, 780 - pitch * k)
    return c, words


def _column_line(c: canvas.Canvas, words: Iterator[str], x: float, y: float, justified: bool = True,
                 width: float = 212, size: float = 10, pad: str = " wordxxxx") -> None:
    """A line of a column ``width`` points wide at (x, y) of the next ``words`` (as many as leave
    room for ``pad``): justified by its word spacing, or set ragged."""
    line = ""
    while pdfmetrics.stringWidth(line + pad, "Helvetica", size) < width:
        line = f"{line} {next(words)}".strip()
    if not justified:
        c.setFont("Helvetica", size)
        c.drawString(x, y, line)
        return
    _justified_line(c, x, y, line, width, size)


def _justified_line(c: canvas.Canvas, x: float, y: float, line: str, width: float, size: float = 10) -> None:
    """``line`` at (x, y) justified to ``width`` by its word spacing."""
    text = c.beginText(x, y)
    text.setFont("Helvetica", size)
    text.setWordSpace((width - pdfmetrics.stringWidth(line, "Helvetica", size)) / line.count(" "))
    text.textLine(line)
    text.setWordSpace(0)  # the text state outlasts the text object
    c.drawText(text)


def _labels_and_figures(c: canvas.Canvas, rows: list[list[str]], x: float, right: float, size: float,
                        head_x: float | None = None) -> None:
    """A table of two columns at a pitch of 15 points from y 680 down: labels set from ``x``,
    figures flush right at ``right``, the head row bold (its second head set from ``head_x``
    when given, else flush right too)."""
    for r, row in enumerate(rows):
        y = 680 - 15 * r
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", size)
        c.drawString(x, y, row[0])
        if r == 0 and head_x is not None:
            c.drawString(head_x, y, row[1])
        else:
            c.drawRightString(right, y, row[1])


def test_a_table_in_one_column_of_two_keeps_its_rows_between_the_other_columns_lines(run_cli, tmp_path):
    """A table of labels and figures set in the left column of two, its rows at a pitch of
    their own, so that the right column's lines fall between them: the table is read whole, and
    the right column's lines stay its text."""
    path = tmp_path / "beside.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))

    for k in range(6):
        _column_line(c, words, 72, 760 - 12 * k)
    rows = [["Gauge", "Flow"], ["North bank", "524"], ["Lower weir", "24.5%"], ["Mill race", "228,004"],
            ["East channel", "655"], ["Old ford", "106.1"]]
    _labels_and_figures(c, rows, 76, 280, 10, head_x=200)
    for k in range(5):
        _column_line(c, words, 72, 680 - 15 * len(rows) - 20 - 12 * k)
    for k in range(30):
        _column_line(c, words, 306, 766 - 12 * k)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [rows]
    page = next(r for r in recs if "page" in r)
    assert all("word" not in cell for t in _tables(recs) for row in _texts(t) for cell in row)
    assert "word299" in page["text"] or "word200" in page["text"]


def test_a_table_in_the_right_column_keeps_its_head_over_the_left_columns_heading(run_cli, tmp_path):
    """Two columns set ragged right, a table of three columns in the right one whose head row
    lies just over the left column's heading, its rows between the left column's lines: the
    table keeps its head and its rows, the heading and the lines stay the left column's text."""
    path = tmp_path / "ragged.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))

    for k in range(8):
        _column_line(c, words, 72, 760 - 11 * k, justified=False, width=210 + 47 * k % 40, size=9, pad=" wordxxx")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 660, "Evaluation")
    for k in range(12):
        _column_line(c, words, 72, 644 - 11 * k, justified=False, width=210 + 47 * k % 40, size=9, pad=" wordxxx")
    rows = [["Site", "Visitors", "Share"], ["North", "19,662", "528"], ["Cast", "740", "134,887"],
            ["Mill", "116.8", "37.1"], ["Ford", "830", "77,439"]]
    for r, row in enumerate(rows):
        y = 668 - 14 * r
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 9)
        c.drawString(310, y, row[0])
        for x, cell in zip((440, 520), row[1:], strict=True):
            c.drawRightString(x, y, cell)
    c.line(306, 664, 524, 664)
    for k in range(10):
        _column_line(c, words, 310, 580 - 11 * k, justified=False, width=210 + 47 * k % 40, size=9, pad=" wordxxx")
    assert _tables_and_headings(run_cli, c, path) == ([rows], ["Evaluation"])


def test_a_framed_table_broken_by_the_page_end_goes_on_over_the_break(run_cli, tmp_path):
    """A table in a frame that a page's end breaks, as a browser prints one: the frame's top and
    sides on the first page, open below, its sides and foot on the next, open above. Each part is
    a table, the second going on from the first."""
    path = tmp_path / "broken.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    for k in range(40):
        c.drawString(72, 780 - 14 * k, f"{BODY[:60]} line {k}")
    rows = [["Site", "Visitors"], ["North", "19,662"], ["Cast", "740"], ["Mill", "116.8"], ["Ford", "830"],
            ["Weir", "12"]]

    def row(y: float, cells: list[str], bold: bool = False) -> None:
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
        c.drawString(80, y, cells[0])
        c.drawRightString(360, y, cells[1])

    top = 780 - 14 * 40
    c.line(72, top, 372, top)
    for x in (72, 372):
        c.line(x, top, x, 60)
    for r, cells in enumerate(rows[:3]):
        row(top - 14 - 16 * r, cells, r == 0)
    c.showPage()
    for x in (72, 372):
        c.line(x, 790, x, 790 - 16 * 3 - 6)
    c.line(72, 790 - 16 * 3 - 6, 372, 790 - 16 * 3 - 6)
    for r, cells in enumerate(rows[3:]):
        row(776 - 16 * r, cells)
    c.setFont("Helvetica", 10)
    c.drawString(72, 700, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    assert _over_pages(_extract(run_cli, path)) == [rows]


def test_rows_drawn_as_one_object_across_their_column_are_a_tables_beside_the_other_column(run_cli, tmp_path):
    """A table in the left column of two whose rows a typesetter drew each as one string, its
    cells moved to their columns inside it, as wide as the column: on the right column's baselines
    they are the table's rows (a figure among their cells), not lines of the left column's
    prose beside a table."""
    path = tmp_path / "one_object_beside.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))

    def justified(x: float, y: float, line: str = "", font: str = "Helvetica") -> None:  # 205 points wide
        while not line or pdfmetrics.stringWidth(line + " wordxxxx", font, 10) < 205 and line.startswith("word"):
            line = f"{line} {next(words)}".strip()
        text = c.beginText(x, y)
        text.setFont(font, 10)
        text.setWordSpace((205 - pdfmetrics.stringWidth(line, font, 10)) / line.count(" "))
        text.textLine(line)
        text.setWordSpace(0)  # the text state outlasts the text object
        c.drawText(text)

    for k in range(5):
        justified(72, 760 - 14 * k)
    rows = [["Gauge", "Depth", "2024"], ["Northbank", "1.25", "14.30"], ["Eastweir", "2.05", "21.75"],
            ["Southford", "0.95", "9.10"], ["Millrace", "3.40", "17.05"]]
    for r, row in enumerate(rows):  # on the right column's baselines, the figures set flush right
        font = "Helvetica-Bold" if r == 0 else "Helvetica"
        widths = [pdfmetrics.stringWidth(cell, font, 10) for cell in row]
        starts = [72, 194 - widths[1], 277 - widths[2]]
        shows = [f"({row[0]})"]
        for k in (1, 2):  # each cell moved to its column within one string (TJ's displacements)
            shows.append(f"{-(starts[k] - starts[k - 1] - widths[k - 1]) * 100:.0f} ({row[k]})")
        text = c.beginText(72, 760 - 14 * (6 + r))
        text.setFont(font, 10)
        text._code.append(f"[{' '.join(shows)}] TJ")
        c.drawText(text)
    for k in range(5):
        justified(72, 760 - 14 * (7 + len(rows) + k))
    for k in range(18):
        justified(310, 760 - 14 * k)
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [rows]


def test_a_few_numbered_lines_of_code_are_no_table():
    """Four lines of a listing set in the text's face, numbered on from the lines before them
    (19, 20 …), whose lines end as statements and blocks do: a listing's lines, not a table of
    numbers and code, however its rows were found (a column of two parted them off the other's
    prose). Four numbered rows of words are a table still."""
    def rows(texts: list[str]) -> list[Item]:
        items = []
        for k, text in enumerate(texts):
            y = 700 - 14 * k
            items += [Item(str(19 + k), 76, y - 2, 88, y + 8, y, 10),
                      Item(text, 110, y - 2, 110 + 5 * len(text), y + 8, y, 10)]
        return items

    code = rows(['latest = T.Read(row, c + "write");', "if (!latest.found()) return false;",
                 "int ts = latest.start_timestamp();", "for (Write w : secondaries) {"])
    assert build_table(_Region.around(code), code) is None
    words = rows(["North bank gauge", "Lower weir", "Mill race", "East channel"])
    assert build_table(_Region.around(words), words) is not None


def test_a_table_of_labels_and_figures_keeps_its_short_labels_and_passes_the_other_columns_heading(
        run_cli, tmp_path):
    """A table of two columns as wide as the right column of two (a word processor's): its bold
    heads centred over each column, the labels flush left well out from under the first head,
    one of them two letters; the left column's heading falls on a baseline between its rows.
    The table is read whole, the heading stays the left column's."""
    path = tmp_path / "pairs.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))

    for k in range(8):
        _column_line(c, words, 72, 760 - 12 * k)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 650, "2. Methods")
    for k in range(20):
        _column_line(c, words, 72, 634 - 12 * k)
    rows = [["Gauge", "Flow"], ["North bank", "524"], ["Ox", "24.5%"], ["Mill race", "228,004"],
            ["East channel", "655"], ["Old ford", "106.1"], ["Weir", "12.5"]]
    for r, row in enumerate(rows):
        y = 690 - 15 * r
        if r == 0:
            c.setFont("Helvetica-Bold", 10)
            c.drawCentredString(392, y, row[0])
            c.drawCentredString(480, y, row[1])
        else:
            c.setFont("Helvetica", 10)
            c.drawString(310, y, row[0])
            c.drawRightString(514, y, row[1])
    for k in range(10):
        _column_line(c, words, 306, 560 - 12 * k)
    assert _tables_and_headings(run_cli, c, path) == ([rows], ["2. Methods"])


def test_a_frame_open_above_under_a_title_goes_on_from_the_left_columns_foot(run_cli, tmp_path):
    """A word processor's two columns under a title across the page: a frame's top and sides
    round one row of heads at the left column's foot, open below, and its sides and foot round
    the table's rows at the head of the right column, open above, under the title; a numbered
    heading in each column on one baseline under the right part, its number and title a tab
    apart. The right part is a table of its rows, the headings not among them: they stay
    headings."""
    path = tmp_path / "columns.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    c.setFont("Helvetica", 18)
    c.drawCentredString(297, 800, "A Title Set Over Both Columns")
    rows = [["Site", "Visitors", "Share"], ["North", "19,662", "528"], ["Cast", "740", "134,887"],
            ["Mill", "116.8", "37.1"], ["Ford", "830", "77,439"]]

    def row(x: float, y: float, cells: list[str], bold: bool = False) -> None:
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
        c.drawString(x + 4, y, cells[0])
        c.drawRightString(x + 150, y, cells[1])
        c.drawRightString(x + 208, y, cells[2])

    head = 780
    bottom = head - 14 - 16 * len(rows)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 760, "2. Methods")
    for k in range(5):
        _column_line(c, words, 72, 740 - 12 * k, justified=False)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, bottom - 16, "3.")
    c.drawString(108, bottom - 16, "Results")
    for k in range(30):
        _column_line(c, words, 72, bottom - 50 - 12 * k, justified=False)
    top = bottom - 50 - 12 * 30 + 2
    c.line(72, top, 284, top)
    for x in (72, 284):
        c.line(x, top, x, top - 16)
    c.setFont("Helvetica-Bold", 10)
    c.drawCentredString(72 + 179, top - 12, "Group")
    for x in (306, 518):
        c.line(x, head, x, bottom)
    c.line(306, bottom, 518, bottom)
    for r, cells in enumerate(rows):
        row(306, head - 14 - 16 * r, cells, r == 0)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(306, bottom - 16, "4.")
    c.drawString(342, bottom - 16, "Discussion")
    for k in range(25):
        _column_line(c, words, 306, bottom - 50 - 12 * k, justified=False)
    tables, headings = _tables_and_headings(run_cli, c, path)
    assert tables == [rows]
    assert {"A Title Set Over Both Columns", "2. Methods", "3. Results", "4. Discussion"} <= set(headings)


def test_a_head_and_a_row_at_a_columns_foot_head_the_rows_at_the_next_columns_head(run_cli, tmp_path):
    """groff's two columns: a table of a label and a figure a row, no rule, the column's end
    leaving its caption, its bold head and its first row at the foot of the left column, its
    other rows at the head of the right one, their figures aligned on the decimal point (a
    per cent sign standing out past the others). One table of every row under the head, not a
    heading and two paragraphs; the same lines with no caption over the head stay as they were."""
    rows = [("Site", "1993"), ("Plu", "273"), ("Plos", "-1.7"), ("Cha", "75.0"), ("Toumtrer", "90.2%"),
            ("Nes", "126,908"), ("Fegir", "155")]

    def draw(path: Path, caption: bool) -> list[dict[str, Any]]:
        c, words = _left_column(path, 40, 12)
        if caption:
            c.setFont("Helvetica", 10)
            c.drawString(72, 780 - 12 * 40 - 6, "Table 1. Counts by site.")
        for r, (label, figure) in enumerate(rows):
            column, y = (72, 780 - 12 * 40 - 28 - 14 * r) if r < 2 else (306, 780 - 14 * (r - 2))
            c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
            c.drawString(column + 40, y, label)
            point = figure.find(".") if "." in figure else len(figure.rstrip("%"))
            c.drawString(column + 150 - pdfmetrics.stringWidth(figure[:point], "Helvetica", 10), y, figure)
        for k in range(45):
            _column_line(c, words, 306, 780 - 14 * 5 - 20 - 12 * k)
        c.showPage()
        c.save()
        return _extract(run_cli, path)

    recs = draw(tmp_path / "broken.pdf", True)
    assert [_texts(t) for t in _tables(recs)] == [list(map(list, rows))]
    page = next(r for r in recs if "page" in r)
    assert not any(b["kind"] == "heading" for b in page["blocks"])
    assert _tables(draw(tmp_path / "no_caption.pdf", False)) == []


def _decimal_row(c: canvas.Canvas, x: float, y: float, label: str, figure: str, bold: bool = False) -> None:
    """A table's row as groff sets one: its label from ``x``, its figure aligned on its decimal
    point 110 points right of it (a per cent sign standing out past the others)."""
    c.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
    c.drawString(x, y, label)
    point = figure.find(".") if "." in figure else len(figure.rstrip("%"))
    c.drawString(x + 110 - pdfmetrics.stringWidth(figure[:point], "Helvetica", 10), y, figure)


def test_a_head_and_a_row_at_a_pages_foot_head_the_rows_at_the_next_pages_head(run_cli, tmp_path):
    """The page's end leaves a table's caption, its bold head and its first row at the foot,
    its other rows at the next page's head as lines too few for a table of their own (figures
    aligned on their decimal point; a label of two capitals among them, 'UK'): one table over
    the break, its part on the first page the head and that row, not a heading and a paragraph.
    The same lines with no caption over the head stay as they were."""
    rows = [("Region", "2019"), ("North", "1,273"), ("UK", "-1.7"), ("Coast", "75.0"), ("Toumtrer", "90.2%")]

    def draw(path: Path, caption: bool) -> list[dict[str, Any]]:
        c = _lines_and_caption(path, 44, 780, (140, "Table 1. Counts by region.") if caption else None)
        _decimal_row(c, 112, 118, *rows[0], bold=True)
        _decimal_row(c, 112, 104, *rows[1])
        c.showPage()
        for r, (label, figure) in enumerate(rows[2:]):
            _decimal_row(c, 112, 790 - 14 * r, label, figure)
        c.setFont("Helvetica", 10)
        for k in range(10):
            c.drawString(72, 720 - 14 * k, BODY[:70])
        c.showPage()
        c.save()
        return _extract(run_cli, path)

    recs = draw(tmp_path / "broken.pdf", True)
    first, second = _tables(recs)
    assert _texts(first) == list(map(list, rows[:2])) and first["header_rows"] == 1
    assert [s["page"] for s in first["spans"]] == [1] and second["continued"] is True
    assert _over_pages(recs) == [list(map(list, rows))]
    assert not any(b["kind"] == "heading" for r in recs if "page" in r for b in r["blocks"])
    assert _tables(draw(tmp_path / "no_caption.pdf", False)) == []


def test_a_quotation_beside_a_table_in_the_other_column_is_no_cells_of_it(run_cli, tmp_path):
    """A page of two columns set on one baseline grid: in the left column a quotation, its lines
    justified and set in from both edges of the column; beside it in the right column, on the
    same baselines, a table of a label and its figure a row, no rule. The quotation is a
    paragraph of the left column and the table has its own rows only."""
    rows = [("Region", "2019"), ("North", "1,273"), ("Coast", "-1.7"), ("Plains", "75.0"), ("Highlands", "90.2%"),
            ("Islands", "126,908")]

    def draw(path: Path) -> tuple[list[list[list[str]]], list[str]]:
        c, words = _left_column(path, 30, 12)
        for k in range(30):
            _column_line(c, words, 306, 780 - 12 * k)
        c.setFont("Helvetica", 10)
        c.drawString(306, 780 - 12 * 31, "Table 1. Counts by region.")
        quote = iter(("we set out to count what the river carries and found it less " * 40).split())
        for r, (label, figure) in enumerate(rows):
            y = 780 - 12 * (33 + r)
            _column_line(c, quote, 96, y, width=164, pad=" we")
            _decimal_row(c, 330, y, label, figure, bold=r == 0)
        for k in range(20):
            _column_line(c, words, 72, 780 - 12 * (41 + k))
            _column_line(c, words, 306, 780 - 12 * (41 + k))
        c.showPage()
        c.save()
        recs = _extract(run_cli, path)
        page = next(r for r in recs if "page" in r)
        return [_texts(t) for t in _tables(recs)], [b["text"] for b in page["blocks"] if b["kind"] == "paragraph"]

    tables, paragraphs = draw(tmp_path / "quote.pdf")
    assert tables == [list(map(list, rows))]
    assert any(p.startswith("we set out to count") and p.count("river") >= 3 and "Region" not in p for p in paragraphs)


def test_a_framed_table_broken_by_a_columns_end_is_one_table_over_the_break(run_cli, tmp_path):
    """A table in a frame that the foot of the left column breaks, as a word processor sets one in
    a section of two columns: the frame's top and sides at the left column's foot, open below, its
    sides and foot at the head of the right column, open above. One table, its rows in order."""
    path = tmp_path / "columns.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))

    for k in range(50):
        _column_line(c, words, 72, 780 - 12 * k, justified=False)
    rows = [["Site", "Visitors", "Share"], ["North", "19,662", "528"], ["Cast", "740", "134,887"],
            ["Mill", "116.8", "37.1"], ["Ford", "830", "77,439"], ["Weir", "12", "4.5"]]

    def row(x: float, y: float, cells: list[str], bold: bool = False) -> None:
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
        c.drawString(x + 4, y, cells[0])
        c.drawRightString(x + 150, y, cells[1])
        c.drawRightString(x + 208, y, cells[2])

    top = 780 - 12 * 50 + 2
    c.line(72, top, 284, top)
    for x in (72, 284):
        c.line(x, top, x, 120)
    for r, cells in enumerate(rows[:3]):
        row(72, top - 14 - 16 * r, cells, r == 0)
    bottom = 792 - 14 - 16 * 3
    for x in (306, 518):
        c.line(x, 792, x, bottom)
    c.line(306, bottom, 518, bottom)
    for r, cells in enumerate(rows[3:]):
        row(306, 792 - 14 - 16 * r, cells)
    for k in range(40):
        _column_line(c, words, 306, bottom - 20 - 12 * k, justified=False)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [rows]


def _boxed_parts(path: Path, first: list[list[str]], second: list[list[str]], group: str = "") -> None:
    """Two pages: text, then a frame at the foot of the first holding the rows ``first`` (no
    rule between them), open below, and its sides and foot at the head of the second holding
    ``second``, open above, then text: a table a browser broke over the page end. ``group``: a
    head in bold centred over the last two columns, on a line of its own over ``first``."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    for k in range(46 - 2 * len(first)):
        c.drawString(72, 780 - 14 * k, f"{BODY[:60]} line {k}")

    def row(y: float, cells: list[str], bold: bool = False) -> None:
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
        c.drawString(80, y, cells[0])
        c.drawRightString(280, y, cells[1])
        c.drawRightString(360, y, cells[2])

    top = 780 - 14 * (46 - 2 * len(first)) + 4
    c.line(72, top, 372, top)
    for x in (72, 372):
        c.line(x, top, x, 40)
    if group:
        c.setFont("Helvetica-Bold", 10)
        c.drawCentredString(306, top - 14, group)
        top -= 16
    for r, cells in enumerate(first):
        row(top - 14 - 16 * r, cells, r == 0 or bool(group))
    c.showPage()
    bottom = 790 - 16 * len(second) - 6
    for x in (72, 372):
        c.line(x, 800, x, bottom)
    c.line(72, bottom, 372, bottom)
    for r, cells in enumerate(second):
        row(776 - 16 * r, cells)
    c.setFont("Helvetica", 10)
    for k in range(20):
        c.drawString(72, bottom - 30 - 14 * k, f"{BODY[:60]} after {k}")
    c.showPage()
    c.save()


ROWS = [["Site", "Visitors", "Share"], ["North", "19,662", "528"], ["Cast", "740", "134,887"],
        ["Mill", "116.8", "37.1"], ["Ford", "830", "77,439"], ["Weir", "12", "4.5"]]


def test_a_framed_tables_head_and_first_row_left_at_a_page_end_go_on_over_the_break(run_cli, tmp_path):
    """The page's end leaves a table's head and one row of it in the frame it broke, no rule
    between them: the two lines are two rows, and the rest of the table on the next page goes on
    under them."""
    path = tmp_path / "two.pdf"
    _boxed_parts(path, ROWS[:2], ROWS[2:])
    assert _over_pages(_extract(run_cli, path)) == [ROWS]


def test_a_framed_tables_heads_alone_at_a_page_end_keep_their_columns_and_head_the_rows_after(run_cli, tmp_path):
    """The page's end leaves only a table's heads in the frame it broke: a group head centred over
    the last two columns, across the space between their heads, the column heads under it. The
    heads keep the columns their own line shows, the group head spanning its two and the stub's
    box over the first left empty, both lines rows of heads; the rows on the next page go on
    under them."""
    path = tmp_path / "heads.pdf"
    _boxed_parts(path, ROWS[:1], ROWS[1:], group="Counts in 2024")
    recs = _extract(run_cli, path)
    first = _tables(recs)[0]
    assert _texts(first) == [["", "Counts in 2024"], ROWS[0]] and first["header_rows"] == 2
    assert [c.get("colspan", 1) for c in first["rows"][0]] == [1, 2]
    assert _over_pages(recs) == [[["", "Counts in 2024"], *ROWS]]


def test_a_framed_tables_last_row_alone_over_a_page_end_goes_on_the_table(run_cli, tmp_path):
    """The page's end puts a table's last row alone in what the frame has left at the head of the
    next page: it is the table's row, read on with the rest."""
    path = tmp_path / "one.pdf"
    _boxed_parts(path, ROWS[:-1], ROWS[-1:])
    assert _over_pages(_extract(run_cli, path)) == [ROWS]


def test_a_short_last_page_reads_its_left_column_before_the_captioned_table_beside_it(run_cli, tmp_path):
    """The last page of two columns, balanced: a few ragged lines on the left, a caption and a
    table on the right, the caption on the first line's baseline. The left column is read first,
    its first line not run on into the caption, then the caption and the table."""
    path = tmp_path / "short.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    c.setFont("Helvetica", 9)
    for k in range(7):
        line, limit = "", 170 + 37 * k % 40
        while pdfmetrics.stringWidth(line + " wordxx", "Helvetica", 9) < limit:
            line = f"{line} {next(words)}".strip()
        c.drawString(72, 770 - 12 * k, line)
    c.setFont("Helvetica-Oblique", 9)
    c.drawCentredString(412, 770, "Table 2. What the gauges found.")
    c.line(306, 760, 518, 760)
    for r, cells in enumerate(ROWS):
        y = 748 - 14 * r
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 8)
        c.drawString(310, y, cells[0])
        c.drawRightString(440, y, cells[1])
        c.drawRightString(514, y, cells[2])
        if r == 0:
            c.line(306, y - 4, 518, y - 4)
    c.line(306, 748 - 14 * len(ROWS) + 8, 518, 748 - 14 * len(ROWS) + 8)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [ROWS]
    page = next(r for r in recs if "page" in r)
    kinds = [(b["kind"], b["text"][:8]) for b in page["blocks"]]
    assert kinds[0] == ("paragraph", "word0 wo") and "Table 2." not in page["blocks"][0]["text"]
    assert [k for k, _ in kinds[-2:]] == ["caption", "table"]


def test_a_table_of_labels_and_figures_passes_the_other_columns_ragged_lines_between_its_rows(run_cli, tmp_path):
    """A table of two columns as wide as the left column of two, its bold heads flush left and
    flush right, its rows at a pitch of their own: the right column's ragged lines fall on
    baselines between them, one of them a paragraph's short last line starting within four ems
    of its right head. The table is read whole."""
    path = tmp_path / "ragged_pairs.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))

    for k in range(6):
        _column_line(c, words, 72, 760 - 12 * k, justified=False, width=150 + 29 * k % 60, pad=" wordxxx")
    rows = [["Gauge", "2013"], ["Northern bank", "68.8%"], ["Weir", "61.5%"], ["Mill race", "818"],
            ["Ox", "29.6%"], ["Ford", "175,513"]]
    _labels_and_figures(c, rows, 74, 282, 9)
    for k in range(6):
        _column_line(c, words, 72, 580 - 12 * k, justified=False, width=150 + 29 * k % 60, pad=" wordxxx")
    for k in range(40):  # between the table's baselines; the third a paragraph's short last line
        y = 687.5 - 15 * (k - 6)
        if k == 9:
            c.setFont("Helvetica", 10)
            c.drawString(306, y, f"{next(words)} {next(words)}")
        else:
            _column_line(c, words, 306, y, justified=False, width=150 + 29 * k % 60, pad=" wordxxx")
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [rows]


def test_a_table_boxed_only_in_its_shaded_head_keeps_its_plain_rows_under_it(run_cli, tmp_path):
    """A table whose head row alone is set in shaded boxes, a head in each, and its rows plain
    under it (a word processor's table style): the rows under the band are the table's."""
    path = tmp_path / "band.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    for k in range(8):
        c.drawString(72, 780 - 14 * k, f"{BODY[:70]} {k}")
    rows = [["Gauge", "2001"], ["North bank", "55.6%"], ["Weir", "24.4"]]
    top = 660
    c.setFillColorRGB(0.85, 0.89, 0.95)
    for x0, x1 in ((200, 300), (300, 380)):
        c.rect(x0, top - 18, x1 - x0, 18, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica-Bold", 10)
    c.drawCentredString(250, top - 13, rows[0][0])
    c.drawCentredString(340, top - 13, rows[0][1])
    for r, (label, value) in enumerate(rows[1:]):
        c.setFont("Helvetica", 10)
        c.drawString(203, top - 32 - 16 * r, label)
        c.drawRightString(377, top - 32 - 16 * r, value)
    c.setFont("Helvetica", 10)
    for k in range(8):
        c.drawString(72, 580 - 14 * k, f"{BODY[:70]} after {k}")
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [rows]


def test_heads_centred_over_figures_set_flush_right_in_ruled_off_columns_head_their_columns(run_cli, tmp_path):
    """A framed table whose stub column alone is ruled off, its other columns wide, each head
    centred over figures set flush right so far that no figure lies under its head: each head
    heads its column, not a column of its own."""
    path = tmp_path / "ruled_off.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    for k in range(6):
        c.drawString(72, 780 - 14 * k, f"{BODY[:70]} {k}")
    rows = [["Site", "Gauges", "Readings"], ["North", "9.8", "178"], ["Cast", "44.2", "12"], ["Mill", "7.5", "90.0"],
            ["Ford", "3.1", "54"], ["Weir", "61", "4.4"]]
    top, stub, edges = 680, 152, (152, 292, 432)
    bottom = top - 20 * len(rows) - 4
    c.rect(72, bottom, 432 - 72, top - bottom)
    c.line(stub, bottom, stub, top)
    for r, row in enumerate(rows):
        y = top - 15 - 20 * r
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
        c.drawString(76, y, row[0])
        for (left, right), cell in zip(zip(edges, edges[1:], strict=False), row[1:], strict=True):
            if r == 0:
                c.drawCentredString((left + right) / 2, y, cell)
            else:
                c.drawRightString(right - 4, y, cell)
    c.setFont("Helvetica", 10)
    for k in range(6):
        c.drawString(72, bottom - 30 - 14 * k, f"{BODY[:70]} after {k}")
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [rows]


def _cell_run(text: str, x0: float, y: float, bold: bool = False, size: float = 10.0) -> dict[str, Any]:
    """A run of its own for one cell's ``text`` from ``x0`` (half an em a character)."""
    return {"text": text, "font": "Times-Bold" if bold else "Times-Roman", "size": size, "color": "#000000",
            "box": [x0, y - 2, x0 + 0.5 * size * len(text), y + 0.8 * size]}


def _flush_right(text: str, x1: float, y: float, bold: bool = False) -> dict[str, Any]:
    return _cell_run(text, x1 - 5.0 * len(text), y, bold)


def test_rows_each_with_a_blank_cell_one_after_another_stay_rows_of_an_unruled_table():
    """No rules; a label and two columns of figures set flush right; near the foot a row without
    its last figure, then one without its first, then a full row: every row is the table's, each
    blank where its figure is missing."""
    rows = [("Item", "2012", "2013"), ("Software licences", "74", "2013"), ("Insurance premiums", "887", "2010"),
            ("Research and development", "287", "2008"), ("Raw materials", "192", ""), ("Legal fees", "", "2025"),
            ("Interest paid", "408", "2014")]
    lines = [{"y": 740.0, "size": 10.0, "runs": [_cell_run(BODY, 72, 740)]}]
    for k, row in enumerate(rows):
        y = 700.0 - 17 * k
        runs = [_cell_run(row[0], 72, y, bold=not k)]
        runs += [_flush_right(text, x1, y, bold=not k)
                 for text, x1 in zip(row[1:], (370.0, 414.0), strict=True) if text]
        lines.append({"y": y, "size": 10.0, "runs": runs})
    lines.append({"y": 560.0, "size": 10.0, "runs": [_cell_run(BODY, 72, 560)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]


def test_group_heads_centred_over_two_columns_each_over_an_unruled_table_are_its_first_row():
    """No rules; over the columns' heads, a group head centred over each pair of columns (wider
    than the heads' gap, over two of them), and the stub's head centred on the two lines of heads:
    the group heads are the table's first row, each spanning its two columns."""
    xs = (176.7, 235.5, 295.9, 359.4)  # where each column's head starts
    heads = ("Share (%)", "Per capita", "Share (%)", "Index")
    body = [("Public debt", "6,411.09", "27.4%", "73.1", "182,493"),
            ("Housing starts", "8,064.76", "30.0%", "10.6", "231,596"),
            ("Exports of goods", "7,598.43", "30.1%", "97.5", "821")]
    lines = [{"y": 700.0, "size": 10.0, "runs": [_cell_run(BODY, 72, 700)]}]

    def centred(text: str, a: int, b: int, y: float) -> dict[str, Any]:
        middle = (xs[a] + xs[b] + 0.5 * 10 * len(heads[b])) / 2
        return _cell_run(text, middle - 2.5 * len(text), y, bold=True)
    lines.append({"y": 666.4, "size": 10.0, "runs": [centred("Women", 0, 1, 666.4), centred("Foreign", 2, 3, 666.4)]})
    lines.append({"y": 658.2, "size": 10.0, "runs": [_cell_run("Indicator", 86.0, 658.2, bold=True)]})
    lines.append({"y": 650.7, "size": 10.0,
                  "runs": [_cell_run(h, x, 650.7, bold=True) for h, x in zip(heads, xs, strict=True)]})
    for k, row in enumerate(body):
        y = 634.9 - 15.75 * k
        ends = [x + 0.5 * 10 * len(h) for h, x in zip(heads, xs, strict=True)]
        figures = [_flush_right(t, x1, y) for t, x1 in zip(row[1:], ends, strict=True)]
        lines.append({"y": y, "size": 10.0, "runs": [_cell_run(row[0], 70.5, y), *figures]})
    lines.append({"y": 560.0, "size": 10.0, "runs": [_cell_run(BODY, 72, 560)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    tables = [t for t in page["blocks"] if t["kind"] == "table"]
    assert len(tables) == 1
    assert _laid_out(tables[0]) == [["Indicator", "Women", "Women", "Foreign", "Foreign"],
                                    ["Indicator", *heads], *[list(row) for row in body]]


def _boxed_run(text: str, x0: float, x1: float, y: float, size: float = 12.0, bold: bool = False,
               gaps: list[list[float]] | None = None) -> dict[str, Any]:
    """A run drawing ``text`` from ``x0`` to ``x1`` (a browser's cell, measured), its wide spaces
    (``gaps``: offset, where the space starts, where the next word starts) as the evidence keeps them."""
    return {"text": text, "font": "Serif-Bold" if bold else "Serif", "size": size, "color": "#000000",
            "box": [x0, y - 2.6, x1, y + 10.7], **({"gaps": gaps} if gaps else {})}


def _page_round(table_lines: list[dict[str, Any]], top: float, bottom: float) -> list[dict[str, Any]]:
    """Evidence lines of a page: a paragraph's line over ``table_lines`` and one under them."""
    return [{"y": top, "size": 12.0, "runs": [_boxed_run(BODY, 72, 520, top)]}, *table_lines,
            {"y": bottom, "size": 12.0, "runs": [_boxed_run(BODY, 72, 520, bottom)]}]


def test_an_unruled_tables_rows_whose_cells_stand_closer_than_a_column_gap_are_its_rows():
    """A browser's table of three columns, cells padded by a few pixels: two of each row's cells
    three quarters of an em apart, drawn as one run (the evidence keeps the space), the other
    cell a run of its own; one row's three cells each a run. Each row's spaces stand over the
    next's and the rows give figures: all three rows are the table's, its bold heads the first."""
    rows = [{"y": 573.0, "size": 12.0, "runs": [_boxed_run("Tretoun 1993", 241.6, 315.4, 573.0, bold=True,
                                                             gaps=[[7, 282.43, 291.45]]),
                                                  _boxed_run("1990", 339.4, 363.4, 573.0, bold=True)]},
            {"y": 554.25, "size": 12.0, "runs": [_boxed_run("Mea", 241.6, 262.9, 554.25),
                                                   _boxed_run("106,854 52.9%", 291.4, 370.4, 554.25,
                                                              gaps=[[7, 330.45, 339.45]])]},
            {"y": 536.25, "size": 12.0, "runs": [_boxed_run("Trir", 241.6, 259.8, 536.25),
                                                   _boxed_run("-0.9", 311.4, 330.4, 536.25),
                                                   _boxed_run("-10.8", 345.4, 370.4, 536.25)]}]
    page = next(r for r in _unruled_page(_page_round(rows, 597.0, 501.8)) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == \
        [[["Tretoun", "1993", "1990"], ["Mea", "106,854", "52.9%"], ["Trir", "-0.9", "-10.8"]]]


def test_labels_three_quarters_of_an_em_from_the_widest_figure_are_a_column_of_their_own():
    """A table of two columns under a bold head of two parts, no rules: labels set flush left,
    figures flush right, the longest label three quarters of an em from the widest figure (cells
    padded by a few pixels): wider than any word space, so the labels and the figures are two
    columns and the table is read, not its lines."""
    cells = [("Grul", 367.7, 392.3, "2018", 419.4, 443.4), ("Moltreas", 367.7, 410.3, "373", 440.4, 458.4),
             ("Reastpio", 367.7, 409.6, "638", 440.4, 458.4), ("Plitpour", 367.7, 406.3, "189,172", 419.4, 458.4),
             ("Plea", 367.7, 388.3, "23,071", 425.4, 458.4)]
    rows = [{"y": 236.67 - 18 * k, "size": 12.0,
             "runs": [_boxed_run(label, a0, a1, 236.67 - 18 * k, bold=not k),
                      _boxed_run(figure, b0, b1, 236.67 - 18 * k, bold=not k)]}
            for k, (label, a0, a1, figure, b0, b1) in enumerate(cells)]
    page = next(r for r in _unruled_page(_page_round(rows, 270.0, 120.0)) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == \
        [[[label, figure] for label, _, _, figure, _, _ in cells]]


def test_a_head_wider_than_its_figures_three_quarters_of_an_em_from_the_labels_head_their_column():
    """An unruled table whose cells are padded by a few pixels: the labels' head and the next
    column's head drawn as one run three quarters of an em apart, the next head wider than the
    figures set flush right under it: the labels and the figures are columns of their own, and
    so are their heads."""
    rows = [{"y": 522.42, "size": 12.0, "runs": [
                _boxed_run("Custlimchest Triotean Mil", 189.5, 335.9, 522.42, bold=True,
                           gaps=[[12, 256.14, 265.2], [21, 308.93, 317.96]]),
                _boxed_run("Somfiot", 366.0, 405.9, 522.42, bold=True)]}]
    body = [("Plun", 211.5, ("80,030", 276.0), ("858", 339.0), ("7,335", 379.0)),
            ("Sitplan", 223.5, ("102,770", 270.0), ("468", 339.0), ("25", 394.0)),
            ("Boumto", 228.2, ("-10.5", 284.0), ("402", 339.0), ("59.4", 385.0)),
            ("Lis", 205.5, ("189,383", 270.0), ("176,778", 318.0), ("15.3%", 376.0))]
    for k, (label, label_end, *figures) in enumerate(body):
        y = 503.67 - 18 * k
        rows.append({"y": y, "size": 12.0, "runs": [_boxed_run(label, 189.5, label_end, y),
                                                     *(_boxed_run(t, x0, x1, y) for (t, x0), x1
                                                       in zip(figures, (309.0, 357.0, 406.0), strict=True))]})
    page = next(r for r in _unruled_page(_page_round(rows, 560.0, 420.0)) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == \
        [[["Custlimchest", "Triotean", "Mil", "Somfiot"],
          *[[label, *(t for t, _ in figures)] for label, _, *figures in body]]]


def test_group_heads_centred_on_their_columns_cells_not_on_their_narrower_heads_head_the_table():
    """No rules; two group heads over an unruled table's heads, each centred on the cells of its
    columns (figures wider than the heads under it, set flush right), so off the middle of the
    heads by more than half an em; the one over three columns stands over the middle one alone;
    the stub's head centred between the two lines: the group heads are the table's first row,
    spanning two columns and three."""
    heads = [("2018", 208.7, 233.7), ("2019", 259.0, 284.1), ("2018", 309.4, 334.5), ("2019", 349.5, 374.5),
             ("Rate", 390.7, 414.1)]
    body = [("Legal fees", 116.3, ("159", 216.5), ("$1,305.53", 248.7), ("2008", 311.6), ("97.2", 354.5),
             ("57.6", 395.2)),
            ("Rent", 91.0, ("586", 216.5), ("$6,434.53", 248.7), ("1999", 311.6), ("85.3", 354.5), ("7.6", 401.0)),
            ("Raw materials", 134.5, ("943", 216.5), ("$5,068.73", 248.7), ("2007", 311.6), ("5.7", 360.2),
             ("-17.8", 392.0)),
            ("Training", 105.8, ("710", 216.5), ("$1,089.48", 248.7), ("2023", 311.6), ("9.8", 360.2),
             ("113.1", 389.5))]
    ends = (233.7, 294.4, 334.5, 374.5, 415.2)
    lines = [{"y": 673.92, "size": 10.0, "runs": [_boxed_run("Women", 232.7, 270.4, 673.92, 10.0, bold=True),
                                                    _boxed_run("Men", 351.6, 373.1, 673.92, 10.0, bold=True)]},
             {"y": 665.67, "size": 10.0, "runs": [_boxed_run("Item", 120.5, 143.6, 665.67, 10.0, bold=True)]},
             {"y": 657.42, "size": 10.0,
              "runs": [_boxed_run(t, x0, x1, 657.42, 10.0, bold=True) for t, x0, x1 in heads]}]
    for k, (label, label_end, *figures) in enumerate(body):
        y = 640.92 - 16.5 * k
        lines.append({"y": y, "size": 10.0, "runs": [_boxed_run(label, 70.5, label_end, y, 10.0),
                                                      *(_boxed_run(t, x0, x1, y, 10.0)
                                                        for (t, x0), x1 in zip(figures, ends, strict=True))]})
    page = next(r for r in _unruled_page(_page_round(lines, 700.0, 520.0)) if "page" in r)
    tables = [t for t in page["blocks"] if t["kind"] == "table"]
    assert len(tables) == 1
    assert _laid_out(tables[0])[:2] == [["Item", "Women", "Women", "Men", "Men", "Men"],
                                        ["Item", *(t for t, _, _ in heads)]]
    assert not any("Women" in b.get("text", "") for b in page["blocks"] if b["kind"] != "table")


def test_heads_wrapped_at_a_pitch_of_one_and_a_half_ems_are_one_row_of_heads():
    """An unruled table set with a line height of one and a half (a browser's, commonly): group
    heads over pairs of columns, then the heads, one wrapped onto two lines ('Change' over '(%)')
    and the others centred on both, the stub's head centred on them all. The wrapped head's
    lines stand 1.5 ems apart: one row of heads under the group heads' row, not two, the stub's
    head spanning both."""
    def bold(text: str, x0: float, x1: float, y: float) -> dict[str, Any]:
        return _boxed_run(text, x0, x1, y, 9.49, bold=True)

    lines = [{"y": 652.92, "size": 9.49, "runs": [bold("Public", 222.4, 255.0, 652.92),
                                                   bold("Private", 330.8, 369.3, 652.92),
                                                   bold("Estimate", 443.8, 490.9, 652.92)]},
             {"y": 638.67, "size": 9.49, "runs": [bold("School", 103.1, 138.7, 638.67),
                                                   bold("Change", 194.7, 234.8, 638.67)]},
             {"y": 630.42, "size": 9.49, "runs": [bold(t, x0, x1, 630.42) for t, x0, x1 in (
                 ("Rate", 262.3, 287.0), ("Index", 306.1, 335.7), ("Number", 351.1, 393.6), ("Number", 414.4, 456.9),
                 ("Index", 486.8, 516.4))]},
             {"y": 624.42, "size": 9.49, "runs": [bold("(%)", 205.6, 223.8, 624.42)]}]
    ends = (243.1, 291.1, 335.7, 394.0, 462.4, 525.7)
    body = [("Primary", "46.5%", "10.3%", "341", "14,334", "$7,901.06", "$3,602.91"),
            ("Lower secondary", "77.3%", "60.3%", "583", "143,285", "$26.63", "$6,357.34"),
            ("Short-cycle tertiary", "24.0%", "64.0%", "345", "11,391", "$8,349.91", "$1,462.62")]
    for k, row in enumerate(body):
        y = 608.67 - 15.75 * k
        lines.append({"y": y, "size": 9.49, "runs": [_boxed_run(row[0], 70.5, 70.5 + 5 * len(row[0]), y, 9.49),
                                                      *(_boxed_run(t, x1 - 5 * len(t), x1, y, 9.49)
                                                        for t, x1 in zip(row[1:], ends, strict=True))]})
    page = next(r for r in _unruled_page(_page_round(lines, 690.0, 540.0)) if "page" in r)
    tables = [t for t in page["blocks"] if t["kind"] == "table"]
    assert len(tables) == 1
    assert _laid_out(tables[0]) == [["School", "Public", "Public", "Private", "Private", "Estimate", "Estimate"],
                                    ["School", "Change (%)", "Rate", "Index", "Number", "Number", "Index"],
                                    *map(list, body)]


@pytest.mark.parametrize("as_one", [False, True], ids=["word by word", "one object"])
def test_a_justified_line_drawn_word_by_word_beside_a_table_in_the_other_column_is_that_columns_text(as_one):
    """A table of three columns in the left column of two, the right column's prose beside it;
    on one row that line is drawn a word a run (a browser's), its stretched spaces alike, and
    read as two segments of three words each (parted where a channel of spaces runs down the
    column); or drawn as one object whose stretched spaces (a little under an em) part it into
    six runs, one of them a word of two letters, as a table's mark for none may be ('na'): the
    line is the right column's text, not cells more of the table's row."""
    figures = [("Weir", "50,447", "43.3%"), ("Mill", "34.9%", "2,380"), ("Ford", "126,589", "23.8%"),
               ("Lock", "86.6", "107.5")]
    beside = [[_segment(0, (80, 110, a)), _segment(0, (160, 200, b)), _segment(0, (230, 270, c))]
              for a, b, c in figures]
    rows = _two_column_page(beside)
    words = [(315, 350, "nevertheless"), (362, 380, "of"), (392, 424, "keeper"), (436, 460, "read"),
             (472, 502, "every"), (514, 540, "gauge")]
    row = rows[11]  # the table's second row: its cells, then the right column's line
    y = row[0].y
    halves = [words] if as_one else [words[:3], words[3:]]
    row[-1:] = [Item(text=" ".join(t for _, _, t in half), x0=half[0][0], y0=y - 2, x1=half[-1][1], y1=y + 8, y=y,
                     size=10, pieces=half) for half in halves]
    kept = ["nevertheless of keeper read every gauge"] if as_one else ["nevertheless of keeper", "read every gauge"]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == [list(f) for f in figures]
    assert sum(i.text in kept for line in out for i in line) == len(kept)


@pytest.mark.parametrize("as_one", [False, True], ids=["word by word", "one object"])
def test_a_list_entrys_line_of_two_words_justified_beside_a_table_is_that_columns_text(as_one):
    """A page of two columns: in the left one a list's entry, its marker hanging and its lines set
    in from the column's edge, a few long words each, one of them two words stretched to the
    entry's measure (a browser's justified text in a narrow column: drawn a word a run, or as one
    object); a table
    in the right column beside it under its caption, its rows on the baselines of its own pitch.
    The entry's lines are the left column's text and the table holds its figures alone."""
    rows = [[_prose(72, 700 - 12 * k), _prose(315, 700 - 12 * k)] for k in range(10)]
    entry = ["keepers measured everything", "along waterways upstream", "", "overnight, recording again",
             "whatever instruments showed", "afterwards."]
    left: list[Item] = []
    for k, text in enumerate(entry):
        y = 570 - 13.5 * k
        if k == 2:
            words = [(112, 170, "nevertheless"), (250, 297, "counted")]
            left += [_segment(y, *words)] if as_one else [_segment(y, word) for word in words]
        else:
            left.append(_segment(y, (112, 297 if k < len(entry) - 1 else 160, text)))
        if k == 0:
            left.insert(0, _segment(y, (84, 94, "1.")))
    figures = [("Weir", "50,447", "43.3%"), ("Mill", "34.9%", "2,380"), ("Ford", "126,589", "23.8%"),
               ("Lock", "86.6", "107.5")]
    right = [_segment(570, (315, 470, "Table 1. Flow at the gauges"))]
    right += [_segment(549.75 - 20.25 * k, cell) for k, row in enumerate(figures)  # (one on the entry's fourth line)
              for cell in zip((320, 400, 460), (350, 440, 500), row, strict=True)]
    for y in sorted({i.y for i in left + right}, reverse=True):
        rows.append(sorted((i for i in left + right if i.y == y), key=lambda i: i.x0))
    rows += [[_prose(72, 470 - 12 * k), _prose(315, 470 - 12 * k)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == [list(f) for f in figures]
    kept = {i.text for line in out for i in line if i.kind != "table"}
    assert {*entry[:2], *entry[3:], "1.", "Table 1. Flow at the gauges"} <= kept
    assert ({"nevertheless counted"} if as_one else {"nevertheless", "counted"}) <= kept


def test_a_group_head_beside_the_other_columns_line_heads_a_table_set_in_one_column():
    """A page of two columns: an unruled table in the left column under a group head centred over
    its two columns of figures, the stub's head blank; the right column's prose runs on beside
    the table, one of its lines on the group head's baseline: the group head is the table's first
    row, and that line stays the right column's."""
    prose = "the keeper read every gauge along the weir at dawn"
    caption = _boxed_run("Table 1. Flow by station and year", 81.2, 283.6, 398.67, 9.0)
    lines = [{"y": 398.67, "size": 9.0, "runs": [caption]},
             {"y": 390.42, "size": 9.0, "runs": [_boxed_run(prose, 308.6, 517.5, 390.42, 9.0)]},
             {"y": 368.67, "size": 9.0, "runs": [_boxed_run("Measured", 180.5, 240.0, 368.67, 9.0),
                                                  _boxed_run("and again at dusk each day", 308.6, 517.5, 368.67, 9.0)]},
             {"y": 356.67, "size": 9.0, "runs": [_boxed_run("Station", 117.4, 159.7, 356.67, 9.0, bold=True),
                                                  _boxed_run("1999", 172.9, 193.0, 356.67, 9.0, bold=True),
                                                  _boxed_run("Share", 214.5, 247.5, 356.67, 9.0, bold=True),
                                                  _boxed_run(prose, 308.6, 517.5, 354.8, 9.0)]}]
    body = [("Weir", "50,447", "43.3%"), ("Mill bridge", "34.9%", "2,380"), ("Ford", "126,589", "23.8%"),
            ("Lock", "86.6", "107.5")]
    for k, (label, a, b) in enumerate(body):
        y = 339.42 - 14.25 * k
        lines.append({"y": y, "size": 9.0, "runs": [_boxed_run(label, 117.4, 117.4 + 4.2 * len(label), y, 9.0),
                                                     _boxed_run(a, 205.5 - 4.5 * len(a), 205.5, y, 9.0),
                                                     _boxed_run(b, 247.5 - 4.5 * len(b), 247.5, y, 9.0),
                                                     _boxed_run(prose, 308.6, 517.5, y - 2.0, 9.0)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    tables = [t for t in page["blocks"] if t["kind"] == "table"]
    assert len(tables) == 1
    assert _laid_out(tables[0]) == [["", "Measured", "Measured"], ["Station", "1999", "Share"], *map(list, body)]
    text = " ".join(b.get("text", "") for b in page["blocks"] if b["kind"] != "table")
    assert "and again at dusk each day" in text


def test_a_table_of_two_columns_under_its_centred_caption_in_one_column_of_two_is_a_table():
    """A page of two columns: in the right one a caption of two lines (the second centred), then
    a table of two columns under a bold head, each row drawn as one run, its label and figure a
    column gap apart,
    its first row starting within an em of the caption's last line. The rows are the table's:
    a line under the column's text that starts where it starts is that text's only when no
    column gap parts it."""
    def run(text: str, x0: float, x1: float, y: float, gaps: list[list[float]] | None = None,
            bold: bool = False) -> dict[str, Any]:
        return _boxed_run(text, x0, x1, y, 9.96, bold=bold, gaps=gaps)

    left = "the survey counted every gauge along the river again"
    lines = [{"y": 700.0 - 11.95 * k, "size": 9.96, "runs": [run(left, 90.0, 300.8, 700.0 - 11.95 * k)]}
             for k in range(4)]
    lines += [{"y": 650.26, "size": 9.96, "runs": [run(left, 90.0, 300.8, 650.26)]},
              {"y": 641.53, "size": 9.96,
               "runs": [run("Table 2. Flow at the gauges of the river and", 325.8, 507.1, 641.53)]},
              {"y": 638.31, "size": 9.96, "runs": [run(left, 90.0, 300.8, 638.31)]},
              {"y": 629.58, "size": 9.96, "runs": [run("its weirs in the year.", 355.4, 477.5, 629.58)]},
              {"y": 626.35, "size": 9.96, "runs": [run(left, 90.0, 300.8, 626.35)]}]
    rows = [("Station", "Flow"), ("Weir", "612"), ("Mill bridge", "127,866"), ("Ford", "245,672"), ("Lock", "111.4")]
    for k, (label, figure) in enumerate(rows):
        y = 614.91 - 11.95 * k
        label_end, figure_start = 363.2 + 4.98 * len(label), 469.7 - 4.98 * len(figure)
        runs = [run(f"{label} {figure}", 363.2, 469.7, y, [[len(label), label_end, figure_start]], bold=not k)]
        if k < 3:  # (the first drawn with one wide space kept, as a justified line may be)
            kept = [[35, 249.41, 260.17]] if k == 0 else None
            runs.insert(0, run(left, 90.0, 300.8 if k < 2 else 128.7, y, kept))
        lines.append({"y": y, "size": 9.96, "runs": runs})
    lines.append({"y": 540.0, "size": 14.35, "runs": [_boxed_run("Evaluation", 90.0, 165.1, 540.0, 14.35)]})
    page = next(r for r in _unruled_page(lines) if "page" in r)
    tables = [t for t in page["blocks"] if t["kind"] == "table"]
    assert len(tables) == 1
    assert _texts(tables[0]) == [list(row) for row in rows]


def test_a_list_in_one_column_beside_a_table_in_the_other_is_none_of_its_cells():
    """A page of two columns: the left column's paragraph, then its list (a bullet, its entry's
    words, their lines run on under the words) beside an unruled table in the right column: the
    table holds its own cells alone, and the list's words stay the list's."""
    prose = BODY[:45]
    lines = [{"y": 700.0 - 12 * k, "size": 10.0,
              "runs": [_cell_run(prose, 72, 700.0 - 12 * k), _cell_run(prose, 315, 700.0 - 12 * k)]} for k in range(10)]
    entries = [("", prose), ("•", "Pumps were read every hour"), ("", "and the gauges every day at"),
               ("", "noon by the keeper."), ("•", "Weirs were read at dawn and"), ("", "again at dusk each day.")]
    table = [("Station", "Flow", "Level"), ("Upper weir", "1.20", "4.85"), ("Mill bridge", "2.05", "6.61"),
             ("Ford", "0.95", "3.10"), ("Lower weir", "1.75", "5.02")]
    for k, (bullet, words) in enumerate(entries):
        y = 580.0 - 12 * k
        runs = ([_cell_run(bullet, 72, y)] if bullet else []) + [_cell_run(words, 90 if k else 72, y)]
        if k < len(table):
            label, flow, level = table[k]
            runs += [_cell_run(label, 315, y, bold=not k), _flush_right(flow, 450, y, bold=not k),
                     _flush_right(level, 540, y, bold=not k)]
        lines.append({"y": y, "size": 10.0, "runs": runs})
    lines += [{"y": 508.0 - 12 * k, "size": 10.0,
               "runs": [_cell_run(prose, 72, 508.0 - 12 * k), _cell_run(prose, 315, 508.0 - 12 * k)]}
              for k in range(10)]
    page = next(r for r in _unruled_page(lines) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in table]]
    text = " ".join(b.get("text", "") for b in page["blocks"] if b["kind"] != "table")
    assert all(words in text for _, words in entries)


def test_heads_of_a_ruled_grid_drawn_as_one_run_across_a_column_rule_are_two_cells(run_cli, tmp_path):
    """A grid whose columns are so tight that the heads of two of them are drawn as one run, its
    space over the rule between them: each head in its own cell, as the figures under them."""
    path = tmp_path / "tight.pdf"
    c, _ = _table_canvas(path, lambda *_: None)
    xs, ys = [72, 130, 200, 262], [720, 704, 688, 672, 656]
    _grid(c, xs, ys)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(76, 708, "Vor")
    heads = "Dendvultrom Fioground"
    c.drawString(200 - pdfmetrics.stringWidth("Dendvultrom ", "Helvetica-Bold", 10) +
                 pdfmetrics.stringWidth(" ", "Helvetica-Bold", 10) / 2, 708, heads)
    c.setFont("Helvetica", 10)
    body = [("Litdeast", "33.1", "57.2"), ("Gingrund", "13.9%", "79.8%"), ("Ri", "32,940", "29.4%")]
    for k, (label, a, b) in enumerate(body):
        y = 692 - 16 * k
        c.drawString(76, y, label)
        c.drawRightString(196, y, a)
        c.drawRightString(258, y, b)
    c.drawString(72, 620, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [[["Vor", *heads.split()], *map(list, body)]]


def test_two_rows_of_a_label_and_a_figure_under_a_bold_head_of_two_parts_are_a_table():
    """The smallest table of two columns: a bold head of two parts, then two rows of a label and
    a figure set flush right (the figures rising, as two do half the time): a table."""
    rows = [("Catnor", "2025"), ("Dundpusta", "430"), ("Bodoudor", "233,278")]
    head = [_gapped_run("Catnor", [72.0], 700.0, size=10.0), _gapped_run("2025", [300.0], 700.0, size=10.0)]
    assert _pairs_under_a_head(rows, head, 72.0, 340.0) == [[list(row) for row in rows]]


def test_a_framed_table_of_two_columns_whose_bold_heads_one_run_draws_close_keeps_them_apart(run_cli, tmp_path):
    """A browser's framed table of two columns, its cells padded by half an em: the heads
    drawn as one run, three quarters of an em apart (wider than the run's other spaces, too
    close for a column gap), the labels flush left, the figures flush right: two heads over two
    columns."""
    path = tmp_path / "padded.pdf"
    c, _ = _table_canvas(path, lambda *_: None)
    c.rect(200, 640, 150, 60)
    space = pdfmetrics.stringWidth(" ", "Helvetica-Bold", 10)
    text = c.beginText(205, 686)
    text.setFont("Helvetica-Bold", 10)
    text.setWordSpace(7.5 - space)  # the space between the two heads' glyphs: three quarters of an em
    text.textOut("Geaven Somramdoul")
    text.setWordSpace(0)  # (the text state outlives the text object)
    c.drawText(text)
    c.setFont("Helvetica", 10)
    body = [("Milgrur", "51.5"), ("Cend", "104,435")]
    for k, (label, figure) in enumerate(body):
        c.drawString(205, 668 - 18 * k, label)
        c.drawRightString(345, 668 - 18 * k, figure)
    c.drawString(72, 600, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [[["Geaven", "Somramdoul"], *map(list, body)]]


def test_a_group_head_centred_over_three_columns_of_one_width_in_a_frame_spans_them(run_cli, tmp_path):
    """A frame with a rule under its head; a group head centred over the three columns of
    figures, each as wide as the others (so centred in the middle one too), the stub's head
    centred on the two lines of heads: the group head is a row of its own spanning the three."""
    path = tmp_path / "group.pdf"
    c, _ = _table_canvas(path, lambda *_: None)
    cells = ((160, 210), (210, 260), (260, 310))
    c.rect(72, 600, 238, 130)
    c.line(72, 690, 310, 690)
    c.setFont("Helvetica-Bold", 10)
    c.drawCentredString(235, 716, "Public")
    c.drawString(80, 706, "School")
    for (lo, hi), head in zip(cells, ("2002", "2003", "Index"), strict=True):
        c.drawCentredString((lo + hi) / 2, 696, head)
    c.setFont("Helvetica", 10)
    body = [("Lower secondary", "9.9%", "1994", "102.4"), ("Primary", "77.8%", "2001", "87.8"),
            ("Upper secondary", "13.1%", "2001", "119.1"), ("Total", "82.2%", "1997", "0.8")]
    for k, (label, *figures) in enumerate(body):
        y = 676 - 18 * k
        c.drawString(80, y, label)
        for (_, hi), figure in zip(cells, figures, strict=True):
            c.drawRightString(hi - 8, y, figure)
    c.drawString(72, 560, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    table = _tables(_extract(run_cli, path))[0]
    assert _laid_out(table) == [["School", "Public", "Public", "Public"], ["School", "2002", "2003", "Index"],
                                *map(list, body)]


def _grouped_table(run_cli, path: Path, groups: tuple[str, str], off: float, edge: bool) -> list[list[str]]:
    """A framed table with a rule under its heads: the stub's labels, six columns of figures set
    flush right, and over them a line of two group heads, each set ``off`` points left of the
    middle of the three columns it heads (their bounds midway between their text and the next
    column's); under that line, when ``edge``, a rule from the first column of figures to the
    frame's edge (a shaded head's edge). The table's cells where they stand."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, BODY)
    rights, heads = (210, 260, 330, 390, 425, 470), ("2011", "2012", "Value", "Rate", "Plan", "Index")
    body = [("Turbot", "125", "65.2", "191,015", "346", "9.3", "92.3"),
            ("Perch", "144", "-5.0", "10,234", "8,950", "3.8", "35.8"),
            ("Common carp", "947", "18.4", "136,417", "476", "2.1", "23.9"),
            ("Sea bass", "453", "79.0", "107,182", "8,034", "7.7", "54.4")]
    starts = [hi - max(pdfmetrics.stringWidth(text, "Helvetica", 10)
                       for text in (heads[k], *(row[k + 1] for row in body))) for k, hi in enumerate(rights)]
    stub = 80 + max(pdfmetrics.stringWidth(row[0], "Helvetica", 10) for row in body)
    bounds = [(stub + starts[0]) / 2, *((hi + lo) / 2 for hi, lo in zip(rights, starts[1:], strict=False)), 480]
    top = 740
    c.setFont("Helvetica-Bold", 10)
    for k, group in enumerate(groups):
        c.drawCentredString((bounds[3 * k] + bounds[3 * k + 3]) / 2 - off, top, group)
    if edge:
        c.line(bounds[0], top - 4, 480, top - 4)
    c.setFont("Helvetica", 10)
    c.drawString(80, top - 14, "Species")
    for hi, head in zip(rights, heads, strict=True):
        c.drawRightString(hi, top - 14, head)
    c.line(72, top - 20, 480, top - 20)
    for k, (label, *figures) in enumerate(body):
        y = top - 36 - 16 * k
        c.drawString(80, y, label)
        for hi, figure in zip(rights, figures, strict=True):
            c.drawRightString(hi, y, figure)
    c.rect(72, top - 30 - 16 * len(body), 408, 16 * len(body) + 46)
    c.drawString(72, 560, BODY)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert len(tables) == 1
    return _laid_out(tables[0])


def test_group_heads_off_their_columns_middle_or_running_over_one_of_them_span_their_columns(run_cli, tmp_path):
    """A line of two group heads, each over three columns of figures and set 0.6 ems left of
    their middle (a typesetter's measure is not the text's): one short, inside the middle
    column; one wider, running over into the first of its columns. Each spans its three."""
    texts = _grouped_table(run_cli, tmp_path / "groups.pdf", ("Estimate", "Totals (m)"), 6.0, edge=False)
    assert texts[0][1:] == ["Estimate"] * 3 + ["Totals (m)"] * 3
    assert texts[1] == ["Species", "2011", "2012", "Value", "Rate", "Plan", "Index"]


def test_a_rule_under_a_line_of_group_heads_and_both_is_neither_ones_own(run_cli, tmp_path):
    """Two group heads, each centred over three columns of about one width (so in the middle
    one too), over a rule running under both (a shaded head's edge): no rule drawn under one
    head alone (a booktabs ``cmidrule``) says what either spans, and each spans its three."""
    texts = _grouped_table(run_cli, tmp_path / "shaded.pdf", ("Estimate", "Total"), 0.0, edge=True)
    assert texts[0][1:] == ["Estimate"] * 3 + ["Total"] * 3
    assert texts[1][1:] == ["2011", "2012", "Value", "Rate", "Plan", "Index"]


def _two_column_evidence(left: dict[float, str],
                         right: list[tuple[float, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Evidence lines of a page of two columns: the left column's ``left`` lines (baseline: text,
    from 72; a full line is 218 points wide), the right column's ``right`` runs; lines sharing a
    baseline are one line of the evidence, top down."""
    merged: dict[float, list[dict[str, Any]]] = {}
    for y, text in left.items():
        merged.setdefault(y, []).append({"text": text, "font": "Times-Roman", "size": 10.0, "color": "#000000",
                                         "box": [72.0, y - 2, 72.0 + min(218.0, 4.5 * len(text)), y + 8]})
    for y, runs in right:
        merged.setdefault(y, []).extend(runs)
    return [{"y": y, "size": 10.0, "runs": sorted(runs, key=lambda r: r["box"][0])}
            for y, runs in sorted(merged.items(), reverse=True)]


def test_a_two_column_tables_first_label_is_no_short_line_of_the_other_columns_prose():
    """A table of two columns in the right column, its bold head of two parts, the left
    column's lines on baselines of their own between its rows; one of them a paragraph's last
    line, short, on the first row's baseline: it is no label of the table, which has its rows."""
    full = "Gunveastrest gralcarstim pe fol vupil manche cous plouttound vea"
    left = {700.0 - 12 * k: full for k in range(30)}
    left[496.0] = "Pet lend nul tral chou mest chitramciot?"
    rows = [("Pliond", "Fetpardos"), ("Nion", "99.0%"), ("Stur", "23.1"), ("Bettor", "14,830"), ("Lea", "192")]
    right: list[tuple[float, list[dict[str, Any]]]] = [(700.0 - 12 * k, [_cell_run(full[:48], 320, 700.0 - 12 * k)])
                                                       for k in range(10)]
    for k, (label, figure) in enumerate(rows):
        y = 510.0 - 14 * k
        run = _gapped_run(f"{label} {figure}", [366.0, 460.0 - 5.0 * len(figure)], y, size=10.0)
        right.append((y if k != 1 else 496.0, [{**run, "font": "Times-Bold" if not k else "Times-Roman"}]))
    right += [(420.0 - 12 * k, [_cell_run(full[:48], 320, 420.0 - 12 * k)]) for k in range(10)]
    page = next(r for r in _unruled_page(_two_column_evidence(left, right)) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]
    assert "chitramciot?" in page["text"]


def test_bold_heads_spaced_alike_over_two_rows_beside_a_centred_caption_are_a_table():
    """A table at the top of the right column, as tbl sets one: bold heads drawn as one run,
    their spaces alike, over two rows of a label and figures whose spaces line up with theirs;
    beside them the left column's caption, centred on two lines, then its prose: the heads and
    rows are a table, and the caption's lines none of its cells."""
    full = "Gunveastrest gralcarstim pe fol vupil manche cous plouttound vea"
    left = {760.0: "Table 1. Grol sturstout nastpes fend ratavos", **{724.0 - 12 * k: full for k in range(30)}}
    rows = [("Cimneavout", "1993", "Torpleal"), ("Gea", "211,198", "305"), ("Grettio", "4,198", "74.4%")]
    right: list[tuple[float, list[dict[str, Any]]]] = []
    for k, (label, first, second) in enumerate(rows):
        y = 760.0 - 12 * k
        starts = [328.0, 410.0, 462.0] if not k else [328.0, 440.0 - 5.0 * len(first), 500.0 - 5.0 * len(second)]
        run = _gapped_run(f"{label} {first} {second}", starts, y, size=10.0)
        right.append((y, [{**run, "font": "Times-Bold" if not k else "Times-Roman"}]))
    right.append((748.0, [{"text": "grodelbut niot tonsom sou?", "font": "Times-Roman", "size": 10.0,
                           "color": "#000000", "box": [118.0, 746.0, 227.0, 756.0]}]))  # the caption's last line
    right += [(712.0 - 12 * k, [_cell_run(full[:48], 320, 712.0 - 12 * k)]) for k in range(30)]
    page = next(r for r in _unruled_page(_two_column_evidence(left, right)) if "page" in r)
    assert [_texts(t) for t in page["blocks"] if t["kind"] == "table"] == [[list(row) for row in rows]]
    assert "grodelbut niot tonsom sou?" in page["text"]


def test_a_line_across_a_tables_rules_tells_none_of_its_columns(run_cli, tmp_path):
    """A table between a rule above and one below, the last line of its caption set inside them
    across its width, its heads of the last two columns drawn as one run three quarters of an em
    apart (a browser's padded cells: each head flush left, its figures flush right under its
    end), the first of them that close to the widest label: three columns all the same, each
    head over its figures."""
    path = tmp_path / "across.pdf"
    c, _ = _table_canvas(path, lambda *_: None)
    c.line(72, 740, 300, 740)
    c.drawString(74, 728, "of the gauges read along the river each day, at noon")
    space = pdfmetrics.stringWidth(" ", "Helvetica-Bold", 10)
    label = 76 + pdfmetrics.stringWidth("Lower weirs", "Helvetica", 10) + 7.5  # where the second column starts
    flow = label + pdfmetrics.stringWidth("Discharge", "Helvetica-Bold", 10)  # where its figures end
    level = flow + 7.5 + pdfmetrics.stringWidth("Stage", "Helvetica-Bold", 10)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(76, 712, "Station")
    text = c.beginText(label, 712)
    text.setFont("Helvetica-Bold", 10)
    text.setWordSpace(7.5 - space)
    text.textOut("Discharge Stage")
    text.setWordSpace(0)  # (the text state outlives the text object)
    c.drawText(text)
    c.setFont("Helvetica", 10)
    body = [("Upper weir", "1.20", "4.85"), ("Lower weirs", "12.05", "6.61"), ("Ford", "0.95", "13.10"),
            ("Mill", "1.75", "5.02"), ("Bridge", "2.50", "7.70"), ("Dam", "3.10", "9.40")]
    for k, (name, discharge, stage) in enumerate(body):
        y = 696 - 14 * k
        c.drawString(76, y, name)
        c.drawRightString(flow, y, discharge)
        c.drawRightString(level, y, stage)
    c.line(72, 606, 300, 606)
    c.drawString(72, 580, "After the table the text goes on as before.")
    c.showPage()
    c.save()
    rows = _texts(_tables(_extract(run_cli, path))[0])
    assert rows[-len(body) - 1:] == [["Station", "Discharge", "Stage"], *map(list, body)]


def test_a_paragraphs_first_line_of_three_words_set_ragged_beside_a_table_is_that_columns_text():
    """A browser's narrow columns set ragged in a large type, a table of two columns in the right
    one: a paragraph's first line, indented, three words, short of its column's widest lines but
    ending past the line under it (whose first word would not have fitted after it), on a row of
    the table's under the table's heads (no line beside them): the left column's text, not a
    third cell of that row."""
    figures = [("Dast", "Share"), ("Ciorboust", "55.7%"), ("Gindpiolrous", "36.5%"), ("Meatgrist", "7.8%")]

    def beside(k: int, y: float) -> Item:
        return _line9(89, 262, y, "Ceastgrast tandpusgam niosniol") if k == 1 else \
            _line9(72, 243, y, "durchomcut vo lispion loumpout grimplat") if k == 2 else _line9(72, 292, y)

    rows = _table_beside(figures, [(357, 420), (452, 483)], ((72, 292), (320, 483)), beside, (500, 500))
    rows[10] = rows[10][1:]  # the paragraph before ended a line above
    for head in rows[10]:
        head.bold = head.bold_all = True
    _one_table_beside(rows, figures, "Ceastgrast tandpusgam niosniol")


def test_a_heading_beside_a_tables_row_in_the_other_column_heads_that_columns_text():
    """A table of three columns in the right column; in the left, a paragraph ends, a bold
    heading set apart from it stands on a row of the table's, and the next paragraph's lines
    follow under it at the pitch: the heading is the left column's, not a cell of that row."""
    figures = [("Churnas", "2020", "Ratgream"), ("Mea", "81.8%", "65.8%"), ("Diol", "660", "7.2"),
               ("Pondpo", "55.3", "10,515")]

    def beside(k: int, y: float) -> Item:
        if k == 2:
            return Item("2.2. Greanstionplus", 72, y - 2, 170, y + 8, y, 9, bold=True, bold_all=True)
        return _line9(72, 297, y)

    rows = _table_beside(figures, [(327, 364), (378, 411), (440, 481)], ((72, 297), (315, 540)), beside,
                         (500, 500))
    rows[11] = [i for i in rows[11] if i.x0 > 300]  # the paragraph above ended a line before
    _one_table_beside(rows, figures, "2.2. Greanstionplus")


def test_two_tables_one_in_each_column_at_different_heights_are_two_tables():
    """groff's two columns, a table in each drawn a row an object (its cells parts a column gap
    apart), the left one's rows between the right column's baselines and its last on the right
    one's caption's, the right one's rows beside the left column's bold heading and the text
    under it: two tables, each of its own rows; the caption and the heading stay lines."""

    def cells(y: float, *parts: tuple[float, float, str]) -> Item:
        return _segment(y, *parts)

    left = [("Site", "1997"), ("Weir", "182,463"), ("Mill", "68.6"), ("Ford", "73,345"), ("Lock", "147")]
    right = [("River", "1997", "2001"), ("Galto", "35.5%", "157,719"), ("Chio", "16.4%", "671"),
             ("Car", "75.0", "36.8")]
    rows = [[_prose(72, 700 - 12 * k), _prose(315, 700 - 12 * k)] for k in range(10)]
    rows.append([Item("Table 1. Flows by station.", 120, 578, 250, 588, 580, 10)])
    for k, (label, figure) in enumerate(left):
        y = 566 - 12 * k
        rows.append([_prose(315, y + 6)])
        row = cells(y, (136, 136 + 5 * len(label), label), (230 - 5 * len(figure), 230, figure))
        row.bold = row.bold_all = k == 0  # the heads in bold
        rows.append([row])
    rows[-1].append(Item("Table 2. Loads by river.", 370, 500, 490, 510, 502, 10))
    for k, (label, one, two) in enumerate(right):
        y = 486 - 12 * k
        row = [cells(y, (369, 369 + 5 * len(label), label), (440 - 5 * len(one), 440, one),
                     (491 - 5 * len(two), 491, two))]
        if k == 1:
            row.insert(0, Item("2. Conclusion", 72, y - 2, 140, y + 8, y, 10, bold=True, bold_all=True))
        elif k > 1:
            row.insert(0, _prose(72, y))
        rows.append(row)
    rows += [[_prose(72, 430 - 12 * k), _prose(315, 430 - 12 * k)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert [[[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t.table] == \
        [[list(r) for r in left], [list(r) for r in right]]
    assert {"Table 2. Loads by river.", "2. Conclusion"} <= {i.text for line in out for i in line}


def test_a_table_of_labels_and_figures_goes_on_past_the_other_columns_heading_in_two_parts():
    """A word processor's table of a label and a figure a row in the left column, its bold head
    and rows between the right column's baselines, one row beside the right column's numbered
    heading, its number and its title two parts a tab apart: the table holds its four rows, the
    heading stays the right column's line."""

    def pair(y: float, label: tuple[float, float, str], figure: tuple[float, float, str], bold: bool = False) -> Item:
        return Item(f"{label[2]} {figure[2]}", label[0], y - 2, figure[1], y + 8, y, 10, bold=bold, bold_all=bold,
                    pieces=[label, figure])

    rows = [[_prose(90, 780 - 12 * k, 205), _prose(317, 780 - 12 * k, 205)] for k in range(6)]
    rows.append([Item("Table 1. Flows by station.", 110, 708, 280, 718, 710, 10), _prose(317, 710, 205)])
    rows.append([pair(689.4, (144, 184, "Site"), (230, 250, "2021"), bold=True)])
    rows.append([pair(674.7, (118, 177, "Northgate"), (241, 267, "23.5%"))])
    rows.append([Item("3.", 317, 671, 329, 683, 673.4, 12, bold=True, bold_all=True),
                 Item("Introduction", 346, 671, 427, 683, 673.4, 12, bold=True, bold_all=True)])
    rows.append([pair(660.1, (118, 140, "Reas"), (252, 267, "750"))])
    rows.append([_prose(317, 656.8, 205)])
    rows.append([pair(645.4, (118, 157, "Dunmow"), (234, 267, "146,059")), _prose(317, 645.4, 205)])
    rows += [[_prose(317, 630.4 - 13 * k, 205)] for k in range(3)]
    rows += [[_prose(90, 590 - 12 * k, 205), _prose(317, 590 - 12 * k, 205)] for k in range(6)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert [[[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t.table] == \
        [[["Site", "2021"], ["Northgate", "23.5%"], ["Reas", "750"], ["Dunmow", "146,059"]]]
    assert {"3.", "Introduction"} <= {i.text for line in out for i in line}


def test_a_table_of_labels_and_figures_under_another_in_the_other_column_is_found_too():
    """Two tables of a label and a figure a row, each under a bold head: one in the left column,
    the other in the right column starting a line under the first one's last row, the left
    column's text going on beside it. Looking for the first table's rows passes over the other
    column's lines; the second table is found all the same, each of its own rows."""

    def pair(y: float, label: str, figure: str, x0: float, x1: float, bold: bool = False) -> list[Item]:
        return [Item(text, a, y - 2, b, y + 8, y, 10, bold=bold, bold_all=bold, pieces=[(a, b, text)])
                for a, b, text in ((x0, x0 + 5 * len(label), label), (x1 - 5 * len(figure), x1, figure))]

    left = [("Site", "2021"), ("Weir", "23.5%"), ("Mill", "750"), ("Ford", "146,059")]
    right = [("Nul", "Count"), ("Tist", "43.9%"), ("Pugritche", "82"), ("Cendles", "237,563"), ("Chusut", "15,140")]
    rows = [[_prose(72, 760 - 12 * k, 212), _prose(315, 760 - 12 * k, 212)] for k in range(10)]
    rows += [[*pair(630 - 13 * k, label, figure, 100, 260, k == 0), _prose(315, 630 - 13 * k, 212)]
             for k, (label, figure) in enumerate(left)]
    rows.append([_prose(72, 570, 212)])
    for k, (label, figure) in enumerate(right):
        rows.append(pair(566 - 13 * k, label, figure, 340, 500, k == 0))
        rows.append([_prose(72, 559 - 13 * k, 212)])
    rows += [[_prose(72, 480 - 12 * k, 212), _prose(315, 480 - 12 * k, 212)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert [[[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t.table] == \
        [[list(r) for r in left], [list(r) for r in right]]


def test_a_table_found_by_its_rules_beside_a_table_without_rules_leaves_it_whole():
    """LaTeX's two columns, a table without rules in the left one (each row one object, its
    cells parts a column gap apart) and a ruled table found already in the right one, on the
    baseline of one of the left table's rows: the left table holds every row; the right one
    stays as it was."""

    left = [("Site", "North", "South"), ("Weir", "660", "89.8"), ("Mill", "586", "41.3"), ("Ford", "984", "16.8")]
    ruled = Item("Sto | 1994", 372, 470, 468, 540, 530, 10, kind="table",
                 table={"rows": [[{"text": "Sto"}, {"text": "1994"}]], "header_rows": 1})
    rows = [[_prose(72, 760 - 12 * k, 212), _prose(315, 760 - 12 * k, 212)] for k in range(10)]
    for k, cells in enumerate(left):
        y = 600 - 14 * k
        row = [_segment(y, (118, 118 + 5 * len(cells[0]), cells[0]), (200 - 5 * len(cells[1]), 200, cells[1]),
                        (266 - 5 * len(cells[2]), 266, cells[2]))]
        rows.append([*row, ruled] if k == 2 else row)
    rows += [[_prose(72, 520 - 12 * k, 212), _prose(315, 520 - 12 * k, 212)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert [[[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t is not ruled] == \
        [[list(r) for r in left]]
    assert any(i is ruled for line in out for i in line)


def test_two_tables_side_by_side_on_shared_baselines_are_two_tables():
    """groff's two columns, a table at the same height in each, their rows on the same baselines
    (each row of each one object, its cells parts a column gap apart), the left one a row longer:
    two tables, each of its own rows, not one of five columns."""

    left = [("Site", "North", "South"), ("Weir", "660", "89.8"), ("Mill", "586", "41.3"), ("Ford", "984", "16.8")]
    right = [("River", "1994"), ("Galto", "64,296"), ("Chio", "461")]
    rows = [[_prose(72, 760 - 12 * k, 212), _prose(315, 760 - 12 * k, 212)] for k in range(10)]
    for k, cells in enumerate(left):
        y = 620 - 13 * k
        row = [_segment(y, (108, 108 + 5 * len(cells[0]), cells[0]), (200 - 5 * len(cells[1]), 200, cells[1]),
                        (246 - 5 * len(cells[2]), 246, cells[2]))]
        if k < len(right):
            row.append(_segment(y, (371, 371 + 5 * len(right[k][0]), right[k][0]),
                                (457 - 5 * len(right[k][1]), 457, right[k][1])))
        rows.append(row)
    rows += [[_prose(72, 550 - 12 * k, 212), _prose(315, 550 - 12 * k, 212)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert sorted([[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t.table) == \
        sorted([[list(r) for r in left], [list(r) for r in right]])


def test_a_table_of_two_columns_between_the_other_columns_baselines_is_a_table():
    """A word processor's table of a label and a figure a row in the right column, its bold head
    and rows on baselines between the left column's lines: a table of its rows, the left
    column's lines its text."""

    figures = [("Station", "1991"), ("Meastream", "157,811"), ("Diontrosve", "350"), ("Fa", "90,963")]
    rows = [[_prose(72, 700 - 12 * k), _prose(315, 700 - 12 * k)] for k in range(10)]
    for k in range(5):
        rows.append([_prose(72, 580 - 12 * k)])
        if k < len(figures):
            label, figure = figures[k]
            y = 574 - 12 * k
            rows.append([Item(label, 336, y - 2, 336 + 5 * len(label), y + 8, y, 10, bold=k == 0, bold_all=k == 0),
                         Item(figure, 487 - 5 * len(figure), y - 2, 487, y + 8, y, 10, bold=k == 0,
                              bold_all=k == 0)])
    rows += [[_prose(72, 510 - 12 * k), _prose(315, 510 - 12 * k)] for k in range(10)]
    _one_table_beside(rows, figures, BODY[:50])
    out = unruled_tables(rows, 612)
    assert sum(i.text == BODY[:50] for line in out for i in line) == 20 + 20 + 5  # every line of prose kept


def test_a_tables_last_row_alone_at_the_head_of_the_next_column_goes_on_the_table(run_cli, tmp_path):
    """Two columns: the left one's end breaks a table of a label and a figure a row (its heads
    in bold) before its last row, which stands alone at the head of the right column, above
    the text there: one row, too few to read as a table alone, it is the table's last row,
    not a paragraph."""
    path = tmp_path / "row_over.pdf"
    rows = [("Plal", "Mulcheangim"), ("Neaschio", "613"), ("Chast", "45,223"), ("Meas", "119.3"), ("Dios", "531")]
    c, words = _left_column(path, 38, 14)
    c.setFont("Helvetica", 9)
    c.drawString(90, 240, "Table 1. Counts by gauge.")
    for k, (label, figure) in enumerate(rows):
        c.setFont("Helvetica-Bold" if k == 0 else "Helvetica", 9)
        c.drawString(80, 220 - 16 * k, label)
        c.drawRightString(280, 220 - 16 * k, figure)
    c.setFont("Helvetica", 9)
    c.drawString(320, 780, "Lousteand")
    c.drawRightString(520, 780, "66.5")
    for k in range(45):
        _column_line(c, words, 310, 750 - 14 * k)
    c.showPage()
    c.save()
    tables = _tables(_extract(run_cli, path))
    assert [_texts(t) for t in tables] == [[*map(list, rows), ["Lousteand", "66.5"]]]


def test_a_table_of_two_columns_under_the_other_columns_numbered_heading_is_a_table():
    """LaTeX's two columns: a numbered section heading in bold on the left (its number and title
    two parts, as a two-column head's are), then a table of a label and a figure a row in the
    right column, each row drawn as one object, under its bold head, beside the left column's
    lines: looking for the heading's rows passes over the table's (the other column's, beyond
    its reach), which are still a table of their own."""

    def segment(y: float, label: str, figure: str, bold: bool = False, size: float = 10) -> Item:
        item = _segment(y, (369, 369 + 5 * len(label), label), (481 - 5 * len(figure), 481, figure))
        item.bold = item.bold_all = bold
        item.size = size
        return item

    figures = [("Grust", "Share"), ("Nos", "8.3%"), ("Steas", "194"), ("Grendtust", "37.8%"), ("Poltiom", "468")]
    rows = [[_prose(72, 700 - 12 * k), _prose(315, 700 - 12 * k)] for k in range(10)]
    heading = _segment(580, (72, 80, "2"), (96, 170, "Discussion"))
    heading.bold = heading.bold_all = True
    heading.size = 14
    rows += [[heading], [Item("Table 2. Shares by gauge.", 345, 575, 500, 585, 577, 10)],
             [segment(557, *figures[0], bold=True)]]
    for k, (label, figure) in enumerate(figures[1:]):
        rows.append([_prose(72, 547 - 12 * k), segment(547 - 12 * k, label, figure)])
    rows += [[_prose(72, 490 - 12 * k), _prose(315, 490 - 12 * k)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert [[[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t.table] == \
        [[list(f) for f in figures]]
    assert "2 Discussion" in {i.text for line in out for i in line}


def test_a_table_in_one_column_beside_a_bulleted_list_in_the_other_keeps_the_lists_lines():
    """A page of two columns: an unruled table under its caption in the left column, and in the
    right one a bulleted list beside it, each entry's words set in from its bullet, none of its
    lines a third of the page wide (a word processor's narrow columns). An entry's line measured
    from its bullet is as wide as the column's text: the lines beside the table are the list's,
    and the table holds its figures alone."""
    rows = [[_prose(72, 700 - 12 * k, 200), _prose(315, 700 - 12 * k, 200)] for k in range(10)]
    figures = [("Weir", "13.8%", "731"), ("Mill", "5.9%", "93.9%"), ("Ford", "168,298", "-19.7"),
               ("Lock", "78.7%", "14.0%"), ("Pool", "611", "67,011")]
    entries = [["keepers measured everything along", "the waterways upstream overnight"],
               ["whatever instruments showed them", "recorded again afterwards"],
               ["nothing was left out of the count", "so the table holds it all"],
               ["the gauges were read at dawn", "and at dusk on the same days"],
               ["each reading was checked twice", "by a second keeper later on"]]
    left = [_segment(560, (90, 230, "Table 1. Flow at the gauges")),
            *(_segment(545 - 13 * k, cell) for k, row in enumerate(figures)
              for cell in zip((90, 150, 230), (120, 190, 260), row, strict=True))]
    right: list[Item] = []
    for k, lines in enumerate(entries):
        for j, text in enumerate(lines):
            y = 548 - 12 * (2 * k + j)
            right += [_segment(y, (315, 319, "•"))] if j == 0 else []  # the bullet drawn apart from its words
            right.append(_segment(y, (336, 500 if j == 0 else 490, text)))
    for y in sorted({i.y for i in left + right}, reverse=True):
        rows.append(sorted((i for i in left + right if i.y == y), key=lambda i: i.x0))
    rows += [[_prose(72, 420 - 12 * k, 200), _prose(315, 420 - 12 * k, 200)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == [list(f) for f in figures]
    kept = {i.text for line in out for i in line if i.kind != "table"}
    assert {"•"} | {line for lines in entries for line in lines} <= kept


def test_numbered_headings_under_a_table_in_one_column_are_no_row_of_it():
    """A page of two columns: an unruled table in the right column beside the left column's
    prose, then a numbered heading at the head of each column's next section, its number set
    apart from its title by a tab (two segments), over a paragraph whose first line is indented.
    The two headings are each column's, no row of the table's."""
    rows = [[_prose(72, 700 - 12 * k, 225), _prose(315, 700 - 12 * k, 225)] for k in range(8)]
    figures = [("Weir", "13.8%", "731"), ("Mill", "5.9%", "93.9%"), ("Ford", "168,298", "-19.7"),
               ("Lock", "78.7%", "14.0%")]
    rows.append([_prose(72, 604, 225), _segment(606, (320, 460, "Table 1. Flow at the gauges"))])
    for k, row in enumerate(figures):
        y = 590 - 14 * k
        rows.append([_prose(72, y + 2, 225), *(_segment(y, cell) for cell in
                                               zip((320, 400, 470), (360, 440, 510), row, strict=True))])
    rows.append([_segment(546, (72, 150, "the last line of it."))])
    heads = [_segment(515, (72, 82, "5.")), _segment(515, (96, 180, "Experiments")),
             _segment(515, (315, 325, "6.")), _segment(515, (340, 400, "Methods"))]
    for head in heads:
        head.size, head.bold, head.bold_all = 12, True, True
    rows.append(heads)
    rows.append([_prose(90, 498, 207), _prose(333, 498, 207)])  # each paragraph's first line, indented
    rows += [[_prose(72, 486 - 12 * k, 225), _prose(315, 486 - 12 * k, 225)] for k in range(10)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0].table is not None
    assert [[c["text"] for c in line] for line in tables[0].table["rows"]] == [list(f) for f in figures]
    assert {"5.", "Experiments", "6.", "Methods"} <= {i.text for line in out for i in line if i.kind != "table"}


def test_a_tables_heads_left_at_a_columns_foot_head_its_rows_at_the_next_columns_head(run_cli, tmp_path):
    """A browser's two columns: a table's caption and its line of bold heads at the foot of the
    left column, its rows (a label and figures each, read as a table of their own, headless) at
    the head of the right column. One table: the heads, then the rows."""
    path = tmp_path / "heads.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    for k in range(46):
        _column_line(c, words, 72, 780 - 12 * k, justified=False)
    c.setFont("Helvetica", 10)
    c.drawString(90, 780 - 12 * 46 - 8, "Table 1. Flow at the gauges.")
    heads = ["Site", "Visitors", "Share"]
    figures = [["North", "19,662", "52.8%"], ["Cast", "740", "13.4%"], ["Mill", "116.8", "37.1%"],
               ["Ford", "830", "7.4%"], ["Weir", "12", "4.5%"]]

    def row(x: float, y: float, cells: list[str], bold: bool = False) -> None:
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 10)
        c.drawString(x, y, cells[0])
        c.drawRightString(x + 130, y, cells[1])
        c.drawRightString(x + 190, y, cells[2])

    row(90, 780 - 12 * 46 - 26, heads, bold=True)
    for r, cells in enumerate(figures):
        row(324, 780 - 16 * r, cells)
    for k in range(40):
        _column_line(c, words, 306, 780 - 16 * 5 - 12 - 12 * k, justified=False)
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == [[heads, *figures]]


def _cells_line(y: float, *cells: tuple[float, float, str], bold: bool = True) -> list[Item]:
    """A line of cells, a segment each (x0, x1, text) on baseline ``y``, in bold or not."""
    out = [_segment(y, cell) for cell in cells]
    for item in out:
        item.bold = item.bold_all = bold
    return out


def _unruled_table(out: list[list[Item]]) -> dict[str, Any]:
    """The one table among the rows ``unruled_tables`` gave."""
    tables = [i.table for line in out for i in line if i.kind == "table"]
    assert len(tables) == 1 and tables[0] is not None
    return tables[0]


def _cell_spans(rows: list[list[dict[str, Any]]]) -> list[list[tuple[str, int, int]]]:
    """Each cell's text, rows and columns spanned."""
    return [[(c["text"], c.get("rowspan", 1), c.get("colspan", 1)) for c in row] for row in rows]


def test_a_tables_heads_of_years_under_group_heads_beside_the_stubs_head_are_its_heads():
    """A table without rules: group heads each centred over two columns, the stub's head set
    beside them lower down (centred on the two lines of heads), then a line of years heading
    every column, then the rows. The years are heads, not the first row of figures, and the
    stub's head is the head of the label column, over both lines."""
    line = _cells_line
    starts = (244, 289, 335, 394, 446, 494)
    rows = [[_prose(63, 760 - 12 * k, 450)] for k in range(3)]
    rows.append([_segment(675, (63, 217, "Table 21: Amount by item, 2007"))])
    rows.append(line(652, (256, 296, "Foreign"), (366, 392, "Total"), (474, 497, "Men")))
    rows.append(line(642, (135, 159, "Item")))
    rows.append(line(632, *((x, x + 24, str(2004 + k % 2)) for k, x in enumerate(starts))))
    body = [["Buildings", "4,434", "364", "57,813", "3,734", "101.2", "127,950"],
            ["Insurance", "(8,611)", "913", "205,199", "7,264", "18.3", "241,478"],
            ["Supplies", "(4,273)", "802", "247,034", "8,502", "87.5", "182,319"],
            ["Materials", "8,286", "190", "243,384", "1,621", "65.2", "228,995"]]
    for r, cells in enumerate(body):
        rows.append(line(612 - 18 * r, (70, 180, cells[0]),
                         *((x, x + 30, text) for x, text in zip(starts, cells[1:], strict=True)), bold=False))
    rows += [[_prose(63, 520 - 12 * k, 450)] for k in range(3)]
    out = unruled_tables(rows, 595)
    table = _unruled_table(out)
    assert _cell_spans(table["rows"][:2]) == [[("Item", 2, 1), ("Foreign", 1, 2), ("Total", 1, 2), ("Men", 1, 2)],
                                         [(str(2004 + k % 2), 1, 1) for k in range(6)]]
    assert [[c["text"] for c in row] for row in table["rows"][2:]] == body
    assert "Item" not in {i.text for line_ in out for i in line_ if i.kind != "table"}


def test_a_formulas_exponent_on_a_baseline_of_its_own_is_no_stub_head():
    """A display formula whose pieces are set apart (an integral's limits, an exponent a little
    below the line over it, the formula's number far right): its exponent, left of the pieces
    over it, is passed over as a line beside them; the line under it reaches further left, but
    a figure is no stub's head given back to a table, and the formula stays lines."""
    rows = [[_prose(72, 200 - 13.5 * k, 432)] for k in range(2)]
    rows.append([_segment(132, (262, 268, "(")), _segment(132, (298, 311, ")(")), _segment(132, (341, 354, ")(")),
                 _segment(132, (393, 404, ")2"))])
    rows.append([_segment(127, (276, 290, "0.5")), _segment(127, (312, 339, "0.3Z")), _segment(127, (369, 377, "R"))])
    rows.append([_segment(125.4, (232, 241, "10"))])
    rows.append([_segment(120, (165, 232, "Mgas . 6 × 10")), _segment(120, (245, 261, "M")),
                 _segment(120, (408, 411, ",")), _segment(120, (490, 504, "(4)"))])
    rows.append([_segment(112, (270, 296, "fO VII")), _segment(112, (322, 329, "Z")),
                 _segment(112, (355, 392, "500 kpc"))])
    rows += [[_prose(72, 90 - 13.5 * k, 432)] for k in range(3)]
    out = unruled_tables(rows, 612)
    assert [i for line in out for i in line if i.kind == "table"] == []


def test_a_group_head_centred_over_three_columns_of_years_heads_them_all():
    """As above, but one group head is centred over three columns of one width (standing in the
    middle one, centred there too), the other over two: each spans the years under it."""
    line = _cells_line
    starts = (199, 255, 307, 358, 403)
    years = ["2008", "2009", "2010", "2008", "2009"]
    rows = [[_prose(63, 760 - 12 * k, 450)] for k in range(3)]
    rows.append([_segment(684, (63, 224, "Table 31: Amount by indicator, 2015"))])
    rows.append(line(662, (246, 277, "Urban"), (373, 400, "Rural")))
    rows.append(line(652, (100, 144, "Indicator")))
    rows.append(line(642, *((x, x + 22, year) for x, year in zip(starts, years, strict=True))))
    body = [["Housing starts", "6,682", "7,356", "218,426", "7,762", "54"],
            ["Production", "7,934", "8,783", "49,053", "912", "454"],
            ["Prices", "6,114", "–", "59,994", "4,297", "312"]]
    for r, cells in enumerate(body):
        rows.append(line(622 - 18 * r, (70, 170, cells[0]),
                         *((x - 8, x + 22, text) for x, text in zip(starts, cells[1:], strict=True)), bold=False))
    rows += [[_prose(63, 540 - 12 * k, 450)] for k in range(3)]
    assert _cell_spans(_unruled_table(unruled_tables(rows, 595))["rows"][:2]) == \
        [[("Indicator", 2, 1), ("Urban", 1, 3), ("Rural", 1, 2)], [(year, 1, 1) for year in years]]


def test_a_line_passed_beside_a_runs_first_rows_right_of_them_stays_out_of_the_table():
    """Rows of three segments whose first ones stop short of the right, a short line set beside
    them on the right (another column's), then rows reaching across under it: the line lies
    within the span the whole run takes, but right of its first row's start, no stub's head:
    it is no row of the table."""
    rows = [[_prose(72, 760 - 12 * k, 450)] for k in range(3)]
    for k in range(3):
        rows.append([_segment(700 - 14 * k, (73, 110, f"Site{k}")), _segment(700 - 14 * k, (200, 230, f"{k}12")),
                     _segment(700 - 14 * k, (270, 300, f"{k}34"))])
    rows.append([_segment(662, (413, 435, "Exit"))])
    for k in range(3):
        rows.append([_segment(650 - 14 * k, (73, 110, f"Ford{k}")), _segment(650 - 14 * k, (200, 230, f"{k}56")),
                     _segment(650 - 14 * k, (270, 300, f"{k}78")), _segment(650 - 14 * k, (510, 540, f"{k}90"))])
    rows += [[_prose(72, 580 - 12 * k, 450)] for k in range(3)]
    out = unruled_tables(rows, 612)
    cells = {c["text"] for i in (i for line in out for i in line if i.kind == "table") if i.table
             for row in i.table["rows"] for c in row}
    assert cells and "Exit" not in cells and "Exit" in {i.text for line in out for i in line if i.kind != "table"}


def test_a_head_set_on_two_lines_over_its_column_is_no_group_head(run_cli, tmp_path):
    """A table between a rule over it and a rule under it, none between its heads and rows, one
    head wrapping onto a second line centred under its first ('Self-' over 'TER'), the other
    heads on that second line: one head in its column, not a group head over its neighbours."""
    path = tmp_path / "wrapped.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    for k in range(6):
        c.drawString(72, 780 - 14 * k, f"{BODY[:60]} line {k}")
    rights = (225, 292, 365, 425)
    c.line(72, 686, 440, 686)
    c.drawCentredString(279, 674, "Self-")
    c.drawString(72, 666, "Method")
    for x, head in zip(rights, ("BERT", "", "iBLEU", "SARI"), strict=True):
        c.drawRightString(x, 666, head)
    c.drawCentredString(279, 658, "TER")
    body = [["Prompt Tuning", "91.79", "34.23", "4.85", "40.49"], ["P-Tuning", "93.90", "27.74", "2.66", "37.33"],
            ["Prefix Tuning", "89.25", "43.98", "4.34", "38.69"], ["Prefix-layer", "88.64", "47.62", "4.63", "38.58"]]
    for r, cells in enumerate(body):
        c.drawString(72, 640 - 16 * r, cells[0])
        for x, text in zip(rights, cells[1:], strict=True):
            c.drawRightString(x, 640 - 16 * r, text)
    c.line(72, 572, 440, 572)
    for k in range(6):
        c.drawString(72, 540 - 14 * k, f"{BODY[:60]} after {k}")
    c.showPage()
    c.save()
    assert [_texts(t) for t in _tables(_extract(run_cli, path))] == \
        [[["Method", "BERT", "Self- TER", "iBLEU", "SARI"], *body]]


def test_group_labels_centred_on_their_two_rows_each_span_their_own():
    """The stub column of a table without rules between its rows, each group's label centred on
    its two rows (the first row two lines tall), a label read in the upper or the lower of its
    two rows: a label is centred on the four rows round its two as well, but the rows next to its own are
    its neighbours' (each centred on those at the fewest), so each spans its own two."""
    from siftpdf.organize.tables import _centred_rows, _find, _Piece

    middles = [596.6, 571.1, 552.3, 533.6, 514.8, 496.1, 477.3, 458.6]  # the rows' lines' middles
    labels = {0: ("North", 586.8), 3: ("South", 542.6), 5: ("East", 505.1), 6: ("West", 468.3)}
    slots: dict[tuple[int, int], list[Any]] = {}
    for r, m in enumerate(middles):
        slots[(r, 1)] = [_Piece(160, 200, m - 3, m + 4, m - 4, 9, f"item{r}", False)]
        slots[(r, 2)] = [_Piece(320, 360, m - 3, m + 4, m - 4, 9, f"{r}9,135", False)]
    for r, (text, centre) in labels.items():
        slots[(r, 0)] = [_Piece(76, 110, centre - 3, centre + 4, centre - 4, 10, text, False)]
    xs, ys = [72.0, 150.0, 300.0, 400.0], [606.0 - 19 * k for k in range(len(middles) + 1)]
    parent = list(range(3 * len(middles)))
    _centred_rows(xs, ys, slots, [[] for _ in ys], parent)
    spans = {text: sorted(k for k in range(len(middles)) if _find(parent, k * 3) == _find(parent, r * 3))
             for r, (text, _) in labels.items()}
    assert spans == {"North": [0, 1], "South": [2, 3], "East": [4, 5], "West": [6, 7]}


def test_a_label_centred_on_four_rows_alone_in_its_column_spans_all_four():
    """One label in the stub column, centred on four rows (and so on the middle two as well),
    nothing else in its column: it spans the four."""
    from siftpdf.organize.tables import _centred_rows, _find, _Piece

    middles = [596.0, 577.0, 558.0, 539.0]
    slots: dict[tuple[int, int], list[Any]] = {}
    for r, m in enumerate(middles):
        slots[(r, 1)] = [_Piece(160, 200, m - 3, m + 4, m - 4, 10, f"item{r}", False)]
    centre = (middles[0] + middles[3]) / 2
    slots[(2, 0)] = [_Piece(76, 110, centre - 3, centre + 4, centre - 4, 10, "Group", False)]
    ys = [606.0 - 19 * k for k in range(len(middles) + 1)]
    parent = list(range(2 * len(middles)))
    _centred_rows([72.0, 150.0, 300.0], ys, slots, [[] for _ in ys], parent)
    assert [k for k in range(len(middles)) if _find(parent, k * 2) == _find(parent, 2 * 2)] == [0, 1, 2, 3]


def test_a_table_beside_the_other_columns_caption_is_its_own_beside_that_table():
    """A browser's two narrow columns (lines shorter than a third of the page): a table under
    its caption at the head of the left column, and at the head of the right one the rows of
    another table, two of them beside the caption's lines, the rest on the left table's
    baselines; headings and prose under both. Two tables, each of its own column's rows, the
    caption's lines and the headings left as lines, not one table of four columns."""

    def cell(text: str, x0: float, y: float, bold: bool = False, right: bool = False) -> Item:
        x1 = x0 + 5 * len(text)
        return Item(text, x1 - 2 * (x1 - x0) if right else x0, y - 2, x0 if right else x1, y + 8, y, 10,
                    bold=bold, bold_all=bold)

    left = [("Site", "2024"), ("Weir", "478"), ("Mill", "174,588"), ("Ford", "66.7"), ("Dam", "10.8%")]
    right = [("Nunvios", "43.4"), ("Mosle", "119.4"), ("Pindgu", "-17.6"), ("Nocast", "5.0%"), ("Ditne", "33.5%"),
             ("Gum", "94,785"), ("Si", "42.1")]
    rows = [[cell("Table 1. Flows at the gauges", 108, 767), cell(*right[0][:1], 313, 767),
             cell(right[0][1], 495, 767, right=True)],
            [cell("along the river.", 140, 753)],
            [cell(right[1][0], 313, 749), cell(right[1][1], 495, 749, right=True)]]
    for k, (label, figure) in enumerate(left):
        y = 732 - 17 * k
        rows.append([cell(label, 100, y, bold=k == 0), cell(figure, 282, y, bold=k == 0, right=True),
                     cell(right[k + 2][0], 313, y), cell(right[k + 2][1], 495, y, right=True)])
    rows.append([cell("Method", 96, 634, bold=True), cell("Implementation", 309, 634, bold=True)])
    rows += [[_prose(96, 615 - 14 * k, 186), _prose(313, 615 - 14 * k, 182)] for k in range(30)]
    out = unruled_tables(rows, 612)
    tables = [i for line in out for i in line if i.kind == "table"]
    assert sorted([[c["text"] for c in line] for line in t.table["rows"]] for t in tables if t.table) == \
        sorted([[list(r) for r in left], [list(r) for r in right]])
    kept = {i.text for line in out for i in line if i.kind == "line"}
    assert {"Table 1. Flows at the gauges", "along the river.", "Method", "Implementation"} <= kept


def test_another_tables_last_row_between_a_tables_heads_and_rows_is_no_row_of_it():
    """A browser's two columns: the right one's table, set higher, ends in a row on a baseline
    between the heads and the first row of the left one's table, after the left table's
    caption and group head. The left table is of its own rows; the right one's row stays a
    line of its own (in its column, right under its table), not a row of a table of both."""

    def seg(x0: float, x1: float, y: float, text: str, bold: bool = False) -> Item:
        return Item(text, x0, y - 2, x1, y + 9, y, 11.9, bold=bold, bold_all=bold)

    def row(y: float, x0: float, cells: tuple[str, ...], ends: tuple[float, float], bold: bool = False) -> list[Item]:
        return [seg(x0, x0 + 5.5 * len(cells[0]), y, cells[0], bold),
                *(seg(end - 5.5 * len(text), end, y, text, bold) for text, end in zip(cells[1:], ends, strict=True))]

    prose = iter(f"{BODY[k % 40:k % 40 + 30]} {k}" for k in range(200))
    rows = [[seg(88, 270, 766 - 13.5 * k, next(prose)), seg(313, 500, 766 - 13.5 * k, next(prose))] for k in range(12)]
    rows += [[seg(308, 506, 595.2, "Table 2. Flows of the mills on the")], [seg(88, 219, 588.4, next(prose))],
             [seg(394, 421, 581.7, "river.")], [seg(88, 263, 574.2, next(prose))],
             [seg(88, 246, 562.9, next(prose)), seg(432, 467, 562.9, "Mills")],
             [seg(88, 285, 549.4, next(prose)), seg(410, 489, 549.4, "Both banks")],
             [seg(88, 256, 532.9, next(prose)), *row(532.9, 313, ("Gauge", "Flow", "Depth"), (428, 501), True)],
             [seg(88, 261, 519.4, next(prose))]]
    right = [("Mill", "201,367", "385"), ("Ford", "72.2", "93.3%"), ("Dam", "190,378", "65"),
             ("Pier", "23.3%", "16,861"), ("Stit", "-2.7", "2.7"), ("Gate", "638", "4.5")]
    ys = [515.7, 499.2, 482.7, 465.4, 448.9, 432.4]
    texts = {505.9: seg(88, 242, 505.9, next(prose)), 485.7: seg(105, 270, 485.7, "Table 1. Flows at the gauges"),
             471.4: seg(105, 270, 471.4, "of the river and of its mills,"), 457.9: seg(169, 206, 457.9, "dated."),
             439.2: seg(201, 261, 439.2, "Years")}
    for y, cells in zip(ys, right, strict=True):
        rows.append(row(y, 313, cells, (443, 502)))
        below = [t for t in texts if y > t > y - 16.5]
        rows += [[texts[t]] for t in below]
    left = [("Site", "Ral", "2013"), ("Weir", "61.5%", "7.2%"), ("Quay", "25.9", "63.1%"), ("Lock", "52.7%", "111.7"),
            ("Sluice", "90", "496"), ("Plur", "69,863", "42.7%")]
    rows += [row(422.7, 103, left[0], (209, 268), True), row(415.2, 313, ("Dul", "635", "145,821"), (443, 502)),
             row(405.4, 103, left[1], (228, 272)), row(388.2, 103, left[2], (228, 272)),
             [seg(308, 398, 384.4, "5. Methods", True)], row(371.7, 103, left[3], (228, 272)),
             [seg(308, 459, 364.9, next(prose))], row(355.2, 103, left[4], (228, 272)),
             [seg(308, 493, 351.4, next(prose))], row(338.7, 103, left[5], (228, 272)),
             [seg(308, 506, 337.9, next(prose))]]
    rows += [[seg(88, 270, 310 - 13.5 * k, next(prose)), seg(308, 500, 310 - 13.5 * k, next(prose))] for k in range(12)]
    out = unruled_tables(rows, 595)
    tables = [i.table for line in out for i in line if i.kind == "table" and i.table]
    assert [[c["text"] for c in line] for line in tables[-1]["rows"]] == [list(r) for r in left]
    assert any(i.kind == "line" and i.text == "Dul" for line in out for i in line)


def test_a_row_read_as_a_paragraph_right_under_a_table_in_its_column_is_its_last_row():
    """A table's last row that its finding left over (a table beside it in the other column took
    the baselines around it) reads as a paragraph right under the table, starting where it
    starts, its cells in the table's columns: it is the table's last row. A line of words
    there is not."""
    from siftpdf.organize import _Page, _tables_over_columns
    from siftpdf.organize.layout import Block

    def line_of(y: float, *cells: tuple[float, float, str]) -> Item:
        return Item(" ".join(t for _, _, t in cells), cells[0][0], y - 2, cells[-1][1], y + 9, y, 11.9,
                    pieces=list(cells))

    rows = [[{"text": t} for t in row] for row in (("Gauge", "Flow", "Depth"), ("Mill", "201,367", "385"),
                                                   ("Gate", "638", "4.5"))]
    for last, joined in ((line_of(415.2, (313, 330, "Dul"), (425, 443, "635"), (463, 502, "145,821")), True),
                         (line_of(415.2, (313, 480, "Source: the survey of the mills")), False)):
        table = Item("", 313, 428, 502, 540, 532, 11.9, kind="table", table={"rows": rows, "header_rows": 1})
        page = _Page({"page": 1, "evidence": {}})
        page.rows = [[last]]
        blocks = [Block("table", "", [{"page": 1, "rect": table.rect}], first=table, last=table,
                        table={"rows": list(rows), "header_rows": 1}),
                  Block("paragraph", last.text, [{"page": 1, "rect": last.rect}], first=last, last=last)]
        out = _tables_over_columns(blocks, page)
        if joined:
            assert len(out) == 1 and [c["text"] for c in out[0].table["rows"][-1]] == ["Dul", "635", "145,821"]
        else:
            assert [b.kind for b in out] == ["table", "paragraph"]


def test_a_stub_head_centred_on_its_box_beside_heads_of_two_lines_spans_the_rows_of_heads(run_cli, tmp_path):
    """A framed table, a rule under its heads: group heads over the figures' columns, heads of one
    line and of two under them, and the stub's head centred on the whole band, level with the
    first line of the heads of two lines. The stub's head spans both rows of heads."""
    path = tmp_path / "stub.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 740, BODY)
    top, rule, bottom = 700, 647.5, 580
    c.rect(72, bottom, 400, top - bottom)
    c.line(72, rule, 472, rule)
    c.setFont("Helvetica-Bold", 10)
    c.drawCentredString(110, 670.6, "Region")
    for middle, text in ((250, "Survey"), (400, "Census")):
        c.drawCentredString(middle, 687, text)
    c.drawCentredString(210, 661.6, "Amount")
    for middle, lines in ((290, ("Value", "(EUR m)")), (360, ("Share", "(%)")), (440, ("Per", "capita"))):
        c.drawCentredString(middle, 668.3, lines[0])
        c.drawCentredString(middle, 654.1, lines[1])
    c.setFont("Helvetica", 10)
    rows = [("North", "110", "63.14", "6.6", "672"), ("South", "989", "253.52", "3.1", "713"),
            ("West", "329", "796.97", "7.5", "215")]
    for r, row in enumerate(rows):
        y = 630 - 16 * r
        c.drawString(80, y, row[0])
        for right, text in zip((235, 320, 385, 465), row[1:], strict=True):
            c.drawRightString(right, y, text)
    c.showPage()
    c.save()
    (table,) = _tables(_extract(run_cli, path))
    assert [[(cell["text"], cell.get("rowspan", 1), cell.get("colspan", 1)) for cell in row]
            for row in table["rows"][:2]] == [[("Region", 2, 1), ("Survey", 1, 2), ("Census", 1, 2)],
                                              [("Amount", 1, 1), ("Value (EUR m)", 1, 1), ("Share (%)", 1, 1),
                                               ("Per capita", 1, 1)]]
    assert _texts(table)[2:] == list(map(list, rows)) and table["header_rows"] == 2


def _captioned(path: Path, text: float, caption: float, title: str) -> canvas.Canvas:
    """A page to draw at ``path``: a line of text at y ``text``, a caption ``title`` in italic at
    y ``caption`` (Helvetica, 9 points)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    c.drawString(63, text, BODY)
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(63, caption, title)
    return c


def test_an_unruled_tables_group_heads_over_heads_wrapped_on_lines_of_their_own_head_it(run_cli, tmp_path):
    """A table without rules, as a browser prints one, whose heads wrap, each centred on the band
    of heads: heads of one line beside one of two ('Share' over '(%)') and one of three ('Value',
    '(EUR', 'm)'), the stub's head centred on the group heads' row and the heads' together, their
    lines on six baselines; the first row's label set on two lines round its figures. The band is
    the table's head: a row of group heads, then one of the heads, each head's lines joined, the
    stub's head spanning both; no heading is made of them."""
    path = tmp_path / "wrapped_heads.pdf"
    c = _captioned(path, 700, 662, "Table 3: Catch by river, 2020")
    middles = [168, 234.5, 297.5, 368, 439, 501]  # of the heads; the figures end at ``rights``
    rights = [193, 261, 319, 402, 461, 526]
    c.setFont("Helvetica-Bold", 9)
    for middle, text in ((202.5, "Upper"), (339, "Middle"), (471, "Lower")):
        c.drawCentredString(middle, 640, text)
    c.drawString(73, 614, "River")
    for column, lines in enumerate([["Index"], ["Number"], ["Share", "(%)"], ["Number"], ["Value", "(EUR", "m)"],
                                    ["Index"]]):
        for k, text in enumerate(lines):  # centred on the band, 13 points a line
            c.drawCentredString(middles[column], 607.5 + 6.5 * (len(lines) - 1) - 13 * k, text)
    c.setFont("Helvetica", 10)
    rows = [("Upper reach", "128,731", "2025", "-8.0", "$1,421.26", "118.4", "74,895"),
            ("Tay", "121,957", "2013", "51.3", "$1,698.54", "38.3", "217,913"),
            ("Tweed", "210,827", "2017", "31.8", "$4,488.30", "-11.8", "124,646"),
            ("Spey", "203,449", "2001", "0.1", "$1,107.16", "21.0", "15,286")]
    y = 561.0
    for label, *figures in rows:
        words = label.split()
        if len(words) == 2:
            c.drawString(70, y + 7.5, words[0])
            c.drawString(70, y - 8.3, words[1])
        else:
            c.drawString(70, y, label)
        for right, text in zip(rights, figures, strict=True):
            c.drawRightString(right, y, text)
        y -= 24
    c.drawString(63, y - 10, "Note: the catch is counted at the weirs.")
    c.drawString(63, y - 40, BODY)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    (table,) = _tables(recs)
    assert _texts(table) == [["River", "Upper", "Middle", "Lower"],
                             ["Index", "Number", "Share (%)", "Number", "Value (EUR m)", "Index"], *map(list, rows)]
    assert table["header_rows"] == 2 and table["rows"][0][0].get("rowspan") == 2
    assert not [b for r in recs if "page" in r for b in r["blocks"] if b["kind"] == "heading"]


def test_a_tables_head_drawn_as_one_beside_the_other_columns_line_heads_its_labels_and_figures(run_cli, tmp_path):
    """A table of labels and figures at the head of a page's left column, each row drawn as one
    string (its figure moved to its column inside it), the bold head too, on the baseline of the
    right column's first line (a paragraph's short last line, run on from the left column's foot);
    the right column's lines fall between the rows after. The head heads the table, the line
    beside it stays the right column's."""
    path = tmp_path / "head_beside.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    rows = [["Gauge", "1993"], ["Gro", "58.2"], ["Trul", "160,429"], ["Tru", "106.9"]]
    for r, row in enumerate(rows):
        font = "Helvetica-Bold" if r == 0 else "Helvetica"
        widths = [pdfmetrics.stringWidth(cell, font, 10) for cell in row]
        move = 210 - widths[1] - 126 - widths[0]  # the figure flush right at 210
        text = c.beginText(126, 760 - 12 * r)
        text.setFont(font, 10)
        text._code.append(f"[({row[0]}) {-move * 100:.0f} ({row[1]})] TJ")
        c.drawText(text)
    c.setFont("Helvetica", 10)
    c.drawString(306, 760, "tail words?")
    for k in range(30):
        _column_line(c, words, 306, 743.5 - 12 * k, width=220)
    for k in range(30):
        _column_line(c, words, 72, 700 - 12 * k, width=205)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [rows]
    page = next(r for r in recs if "page" in r)
    assert any(b["kind"] == "paragraph" and b["text"].endswith("tail words?") for b in page["blocks"])


def test_a_list_set_in_beside_a_table_in_the_other_column_is_no_part_of_it(run_cli, tmp_path):
    """Numbered entries set in from the left column's edge, justified to its right edge, each
    entry's next line set in past its number and short, on the baselines of a table's rows in
    the right column: the entries are the left column's text, read whole, and the table keeps its
    own cells."""
    path = tmp_path / "list_beside.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    for k in range(8):
        _column_line(c, words, 72, 760 - 12 * k, width=225)
    entries = []
    for n, y in ((1, 664), (2, 640)):
        first = ""
        while pdfmetrics.stringWidth(f"{n}. {first} wordxxxx", "Helvetica", 10) < 213:
            first = f"{first} {next(words)}".strip()
        first = f"{n}. {first}"
        _justified_line(c, 84, y, first, 213)
        last = f"{next(words)} {next(words)}."
        c.setFont("Helvetica", 10)
        c.drawString(84 + pdfmetrics.stringWidth(f"{n}. ", "Helvetica", 10), y - 12, last)
        entries.append(f"{first} {last}")
    _entries_beside_a_table(run_cli, c, path, words, entries, 225, (320, 440, 318, 205))


LIST_ROWS = [["Site", "Count", "Share"], ["North", "19,662", "52.8"], ["Cast", "740", "13.4"], ["Mill", "116", "37.1"],
             ["Ford", "830", "7.4"]]


def _entries_beside_a_table(run_cli, c: canvas.Canvas, path: Path, words: Iterator[str], entries: list[str],
                            left: float, right: tuple[float, float, float, float]) -> None:
    """The page on ``c`` under a list in its left column (its ``entries``' text): ten more lines of
    that column, ``left`` wide, and in the right column a caption and ``LIST_ROWS`` on the list's
    baselines (``right``: the table's left edge, where its first figures end, the right column's
    left edge and width), twelve lines of text under them. Saved to ``path`` and read: the table
    keeps its own cells, and each entry is read whole."""
    x, figures, column, width = right
    for k in range(10):
        _column_line(c, words, 72, 604 - 12 * k, width=left)
    c.setFont("Helvetica-Oblique", 10)
    c.drawString(x, 688, "Table 1. What the gauges found.")
    for r, row in enumerate(LIST_ROWS):
        y = 676 - 12 * r
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 10)
        c.drawString(x, y, row[0])
        c.drawRightString(figures, y, row[1])
        c.drawRightString(520, y, row[2])
    for k in range(12):
        _column_line(c, words, column, 600 - 12 * k, width=width)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    assert [_texts(t) for t in _tables(recs)] == [LIST_ROWS]
    texts = [b["text"] for r in recs if "page" in r for b in r["blocks"]]
    assert all(any(entry in text for text in texts) for entry in entries)


def test_entries_set_in_past_bullets_drawn_as_dots_beside_a_table_are_no_part_of_it(run_cli, tmp_path):
    """A browser's list in the left column: its bullets drawn as dots (no text), each entry's
    lines set in past them by three ems, its first line justified to the column's right edge,
    on the baselines of a table's rows in the right column. The entries are the left column's
    text, read whole, and the table keeps its own cells."""
    path = tmp_path / "dots_beside.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    words = iter(f"word{k}" for k in range(10_000))
    for k in range(8):
        _column_line(c, words, 72, 760 - 12 * k, width=200)
    entries, short = [], iter(f"e{k}" for k in range(1000))
    for y in (664, 640):
        c.circle(84, y + 3, 1.5, stroke=0, fill=1)
        first = ""
        while pdfmetrics.stringWidth(f"{first} ab", "Helvetica", 10) < 160:
            first = f"{first} {next(short)}".strip()  # short words: the spaces stay a word space
        _justified_line(c, 104, y, first, 168)  # to 272
        last = f"{next(words)} {next(words)}."
        c.setFont("Helvetica", 10)
        c.drawString(104, y - 12, last)
        entries.append(f"{first} {last}")
    _entries_beside_a_table(run_cli, c, path, words, entries, 200, (300, 430, 300, 220))


def test_the_last_heads_next_line_past_the_reach_of_a_row_of_years_is_the_heads(run_cli, tmp_path):
    """Group heads over columns whose heads are years, a row of them, the last column's head set on
    two lines centred on that row ('Per' over it, 'capita' under it, past the years' reach): the
    head's next line is no line beside the table but the head's, the heads one row under the
    group heads."""
    path = tmp_path / "per_capita.pdf"
    c = _captioned(path, 735, 690, "Table 15: Value by indicator, 2009")
    c.setFont("Helvetica-Bold", 9)
    c.drawCentredString(323, 671.7, "Rural")
    c.drawCentredString(461.5, 671.7, "Urban")
    c.drawCentredString(159.5, 658.2, "Indicator")
    c.drawCentredString(502.5, 658.2, "Per")
    for middle, year in zip((280.5, 327, 369.5, 412, 453), ("2003", "2004", "2005", "2003", "2004"), strict=True):
        c.drawCentredString(middle, 650.7, year)
    c.drawCentredString(503, 644.7, "capita")
    c.setFont("Helvetica", 9)
    rows = [("Retail sales", "155,711", "14", "94.2%", "(5,236)", "2011", "147,357"),
            ("Public debt", "144,622", "5,784", "78.8%", "12", "1991", "141,898"),
            ("Labour productivity", "198,535", "3,394", "29.7%", "8,007", "2019", "109,508"),
            ("Housing starts", "9,518", "(772)", "70.2%", "8,584", "1995", "241,518")]
    for r, row in enumerate(rows):
        y = 629.7 - 15.8 * r
        c.drawString(70, y, row[0])
        for right, text in zip((297, 342, 382, 427, 464, 526), row[1:], strict=True):
            c.drawRightString(right, y, text)
    c.drawString(63, 540, BODY)
    c.showPage()
    c.save()
    recs = _extract(run_cli, path)
    (table,) = _tables(recs)
    heads = _texts(table)[:2]
    assert heads[1] == ["2003", "2004", "2005", "2003", "2004", "Per capita"] and heads[0][0] == "Indicator"
    assert [text for text in heads[0][1:] if text] == ["Rural", "Urban"]
    assert _texts(table)[2:] == list(map(list, rows)) and table["header_rows"] == 2
    assert not any("capita" in b["text"] for r in recs if "page" in r for b in r["blocks"] if b["kind"] != "table")


def test_a_head_level_with_the_middle_of_three_rows_by_chance_spans_only_its_own():
    """An unruled table of a browser's: group heads over three columns each, the stub's head
    centred on both rows of heads, and a head of one line beside heads of two; the first row of
    the body lacks a figure under that head. The head's middle falls where the middle of the
    group heads' row, its own and that first row's bounds lies: it spans its own row, centred on
    its own box; the stub's head spans both rows of heads, the group heads their columns."""
    def bold(text: str, x0: float, x1: float, y: float) -> dict[str, Any]:
        return _boxed_run(text, x0, x1, y, 9.49, bold=True)

    lines = [{"y": 662.7, "size": 9.49, "runs": [bold("Domestic", 232, 284, 662.7), bold("Men", 430, 453, 662.7)]},
             {"y": 646.2, "size": 9.49, "runs": [bold("Indicator", 90, 140, 646.2), bold("Change", 177, 218, 646.2),
                                                  bold("Value", 245, 276, 646.2)]},
             {"y": 637.2, "size": 9.49, "runs": [bold(t, x0, x1, 637.2) for t, x0, x1 in (
                 ("Amount", 299, 343), ("Amount", 358, 401), ("Number", 416, 460), ("2016", 487, 514))]},
             {"y": 629.7, "size": 9.49, "runs": [bold("(%)", 188, 207, 629.7), bold("(EUR m)", 238, 283, 629.7)]}]
    ends = (221, 284, 343, 401, 460, 526)
    body = [("Retail sales", "64,603", "", "(6,514)", "", "", "$6,115.17"),
            ("Gross product", "181,341", "6,881", "4,144", "185,342", "70.4", "$6,181.60"),
            ("Labour", "27,027", "1,417", "1,114", "95,309", "2.1", "$3,305.87"),
            ("Exports", "93,555", "2,017", "8,280", "22,061", "54.8", "$1,234.50")]
    for k, row in enumerate(body):
        y = 611.7 - 17.5 * k
        lines.append({"y": y, "size": 9.49, "runs": [_boxed_run(row[0], 70, 70 + 5 * len(row[0]), y, 9.49),
                                                      *(_boxed_run(t, x1 - 5 * len(t), x1, y, 9.49)
                                                        for t, x1 in zip(row[1:], ends, strict=True) if t)]})
    page = next(r for r in _unruled_page(_page_round(lines, 700.0, 520.0)) if "page" in r)
    (table,) = [t for t in page["blocks"] if t["kind"] == "table"]
    spans = [[(c["text"], c.get("colspan", 1), c.get("rowspan", 1)) for c in row] for row in table["rows"][:2]]
    assert spans == [[("Indicator", 1, 2), ("Domestic", 3, 1), ("Men", 3, 1)],
                     [("Change (%)", 1, 1), ("Value (EUR m)", 1, 1), ("Amount", 1, 1), ("Amount", 1, 1),
                      ("Number", 1, 1), ("2016", 1, 1)]]
