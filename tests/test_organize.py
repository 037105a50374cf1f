"""Organization on generated documents, checked the way a reader would (olmOCR-bench style):
paragraphs whole on one line, furniture out of the body, reading order, tables by row."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import make_fixtures
import pytest
from conftest import records


def _extract(run_cli, path: Path, *extra: str) -> list[dict[str, Any]]:
    result = run_cli("extract", "--in-process", *extra, str(path))
    assert result.exit_code == 0, result.output
    return records(result.output)


def _text_view(run_cli, path: Path, *extra: str) -> list[str]:
    result = run_cli("extract", "--in-process", "--text", *extra, str(path))
    assert result.exit_code == 0, result.output
    return result.output.split("\n")


def _pages(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in recs if "page" in r]


# --- the two-column paper -------------------------------------------------------------------

@pytest.fixture(scope="module")
def paper(fixtures: Path) -> Path:
    return fixtures / "paper_2col.pdf"


def test_each_paragraph_stands_whole_on_one_line(run_cli, paper):
    lines = _text_view(run_cli, paper)
    paragraphs = [text for kind, text in make_fixtures.paper_paragraphs() if kind == "para"]
    missing = [p[:40] for p in paragraphs if p not in lines]
    assert not missing, missing


def test_paragraphs_crossing_columns_and_pages_carry_both_spans(run_cli, paper):
    _, placed = make_fixtures.two_column_paper()
    crossing = {text: places for text, places in placed.items() if len(places) > 1}
    across_pages = [t for t, places in crossing.items() if places[0][0] != places[-1][0]]
    assert across_pages, "the fixture must have a paragraph running over a page break"
    blocks = {b["text"]: b for page in _pages(_extract(run_cli, paper)) for b in page["blocks"]}
    for text, places in crossing.items():
        spans = blocks[text]["spans"]
        assert sorted({s["page"] for s in spans}) == sorted({p for p, _ in places})
        assert len(spans) == len(places)


def test_paragraph_over_a_page_break_is_written_where_it_starts(run_cli, paper):
    _, placed = make_fixtures.two_column_paper()
    text = next(t for t, places in placed.items() if places[0][0] != places[-1][0])
    start_page = placed[text][0][0]
    pages = {p["page"]: p["text"] for p in _pages(_extract(run_cli, paper))}
    assert text in pages[start_page].split("\n")
    tail = text.split()[-6:]
    assert " ".join(tail) not in pages[start_page + 1]


def test_reading_order_title_abstract_then_left_then_right_column(run_cli, paper):
    text = "\n".join(_text_view(run_cli, paper))
    order = [make_fixtures.PAPER_TITLE, make_fixtures.PAPER_ABSTRACT, "1 Introduction", "P10 ", "P13 ",
             "2 Methods", make_fixtures.PAPER_CAPTION, "P20 ", "P23 ", "3 Results", "P30 ", "4 Discussion"]
    positions = [text.find(marker) for marker in order]
    assert -1 not in positions, [m for m, p in zip(order, positions, strict=True) if p < 0]
    assert positions == sorted(positions)


def test_running_header_and_page_numbers_are_furniture(run_cli, paper):
    pages = _pages(_extract(run_cli, paper))
    assert len(pages) == 3
    for page in pages:
        assert make_fixtures.PAPER_HEADER not in page["text"]
        assert str(page["page"]) not in page["text"].split("\n")
        kinds = {(f["kind"], f["text"]) for f in page["furniture"]}
        assert ("header", make_fixtures.PAPER_HEADER) in kinds
        assert ("page_number", str(page["page"])) in kinds


def test_raw_keeps_the_engine_text(run_cli, paper):
    pages = _pages(_extract(run_cli, paper, "--raw"))
    assert make_fixtures.PAPER_HEADER in pages[1]["text"]
    assert "blocks" not in pages[0] and "furniture" not in pages[0]


def test_headings_stand_alone_with_levels(run_cli, paper):
    blocks = [b for page in _pages(_extract(run_cli, paper)) for b in page["blocks"]]
    headings = {b["text"]: b.get("level") for b in blocks if b["kind"] == "heading"}
    # The paper's title is level 1; its numbered sections sit one level below it.
    assert headings.get(make_fixtures.PAPER_TITLE) == 1
    for title in ("1 Introduction", "2 Methods", "3 Results", "4 Discussion"):
        assert headings.get(title) == 2


def test_table_one_block_its_rows_one_per_line(run_cli, paper):
    lines = _text_view(run_cli, paper)
    for row in make_fixtures.PAPER_TABLE:
        assert " | ".join(row) in lines
    blocks = [b for page in _pages(_extract(run_cli, paper)) for b in page["blocks"]]
    tables = [b for b in blocks if b["kind"] == "table"]
    assert len(tables) == 1
    assert [[c["text"] for c in row] for row in tables[0]["rows"]] == make_fixtures.PAPER_TABLE


def test_figure_caption_and_footnote_blocks(run_cli, paper):
    blocks = [b for page in _pages(_extract(run_cli, paper)) for b in page["blocks"]]
    kinds = [b["kind"] for b in blocks]
    caption = blocks[kinds.index("caption")]
    assert caption["text"] == make_fixtures.PAPER_CAPTION
    figure = blocks[kinds.index("figure")]
    x0, y0, x1, y1 = figure["spans"][0]["rect"]
    assert x1 - x0 == pytest.approx(200, abs=1) and y1 - y0 == pytest.approx(80, abs=1)
    assert kinds.index("figure") + 1 == kinds.index("caption")  # the figure sits where it was set
    footnotes = [b["text"] for b in blocks if b["kind"] == "footnote"]
    assert footnotes == [make_fixtures.PAPER_FOOTNOTE]


def test_hyphenated_line_ends_are_rejoined(run_cli, paper):
    raw = "\n".join(p["text"] for p in _pages(_extract(run_cli, paper, "--raw")))
    organized = "\n".join(p["text"] for p in _pages(_extract(run_cli, paper)))
    vocabulary = set(make_fixtures._WORDS)
    broken = {m for m in re.findall(r"[a-z]+-[a-z]+", raw) if m.replace("-", "") in vocabulary}
    assert len(broken) >= 3  # the fixture does hyphenate at line ends
    for fragment in broken:
        assert fragment not in organized
        assert fragment.replace("-", "") in organized


def test_each_step_can_be_turned_off(run_cli, paper):
    kept = _pages(_extract(run_cli, paper, "--set", "organize.furniture=false"))
    assert make_fixtures.PAPER_HEADER in kept[1]["text"]
    assert kept[1]["furniture"] == []
    unjoined = _text_view(run_cli, paper, "--set", "organize.join=false")
    first = next(t for k, t in make_fixtures.paper_paragraphs() if k == "para")
    assert first not in unjoined and first.split()[0] + " " in "\n".join(unjoined)


def test_continuation_and_columns_can_be_turned_off(run_cli, paper):
    _, placed = make_fixtures.two_column_paper()
    text = next(t for t, places in placed.items() if places[0][0] != places[-1][0])
    split = _pages(_extract(run_cli, paper, "--set", "organize.continuation=false"))
    start = placed[text][0][0]
    assert text not in split[start - 1]["text"]
    assert " ".join(text.split()[-4:]) in split[start]["text"]
    across = "\n".join(_text_view(run_cli, paper, "--set", "organize.columns=false"))
    assert "P10 " in across and make_fixtures.paper_paragraphs()[1][1] not in across.split("\n")


def test_page_text_is_the_blocks(run_cli, paper):
    for page in _pages(_extract(run_cli, paper)):
        texts = [b["text"] if b["kind"] != "figure" else "[figure]" for b in page["blocks"]]
        # A table's text is its rows, one a line.
        assert page["text"].replace("\n\n", "\n").split("\n") == [ln for t in texts for ln in t.split("\n")]


# --- the Chinese regulation -------------------------------------------------------------------

@pytest.fixture(scope="module")
def regulation(fixtures: Path) -> Path:
    return fixtures / "regulation_cn.pdf"


def test_cjk_provisions_whole_with_no_inserted_spaces(run_cli, regulation):
    blocks = [b for p in _pages(_extract(run_cli, regulation)) for b in p["blocks"]]
    provisions = [b["text"] for b in blocks if b["kind"] == "provision"]
    expected = [t for items in make_fixtures.REG_CHAPTERS.values() for t in items]
    assert provisions == expected
    assert all(" " not in text for text in provisions)


def test_cjk_chapter_headings_level_one(run_cli, regulation):
    blocks = [b for p in _pages(_extract(run_cli, regulation)) for b in p["blocks"]]
    headings = [(b["text"], b.get("level")) for b in blocks if b["kind"] == "heading"]
    assert headings == [(chapter, 1) for chapter in make_fixtures.REG_CHAPTERS]


def test_full_width_page_numbers_are_one_template(run_cli, regulation):
    pages = _pages(_extract(run_cli, regulation))
    assert len(pages) >= 3
    for page in pages:
        furniture = {f["kind"]: f["text"] for f in page["furniture"]}
        assert furniture["header"] == make_fixtures.REG_HEADER
        assert furniture["page_number"].startswith("— ") and furniture["page_number"].endswith(" —")
        assert "—" not in page["text"] and make_fixtures.REG_HEADER not in page["text"]


def test_provision_across_the_page_break_has_spans_on_both_pages(run_cli, regulation):
    blocks = [b for p in _pages(_extract(run_cli, regulation)) for b in p["blocks"]]
    crossing = [b for b in blocks if len({s["page"] for s in b["spans"]}) == 2]
    assert crossing and all(b["kind"] == "provision" for b in crossing)


# --- clipped text and short documents ---------------------------------------------------------

def test_clipped_text_is_dropped_and_counted(run_cli, fixtures):
    path = fixtures / "clipped_form.pdf"
    recs = _extract(run_cli, path)
    body = _pages(recs)[0]["text"]
    assert make_fixtures.FORM_VISIBLE in body
    assert "Wellington" not in body and "Saxony" not in body
    hidden = len(make_fixtures.FORM_HIDDEN.replace(" ", ""))
    assert recs[-1]["done"]["clipped_chars"] >= hidden
    kept = _pages(_extract(run_cli, path, "--set", "organize.clip=false"))[0]["text"]
    assert make_fixtures.FORM_HIDDEN in kept


def test_text_outside_the_crop_box_is_clipped(run_cli, fixtures):
    path = fixtures / "cropped_spread.pdf"
    recs = _extract(run_cli, path)
    first, second = (p["text"] for p in _pages(recs))
    assert make_fixtures.SPREAD_SHOWN in first and make_fixtures.SPREAD_HIDDEN not in first
    assert make_fixtures.OFFSET_SHOWN in second  # a crop box away from the origin hides nothing inside it
    assert recs[-1]["done"]["clipped_chars"] >= len(make_fixtures.SPREAD_HIDDEN.replace(" ", ""))
    kept = _pages(_extract(run_cli, path, "--set", "organize.clip=false"))[0]["text"]
    assert make_fixtures.SPREAD_HIDDEN in kept


def test_two_pages_skip_repetition_and_say_so(run_cli, fixtures):
    recs = _extract(run_cli, fixtures / "two_page_header.pdf")
    organization = recs[-1]["done"]["organization"]
    assert organization["furniture_repetition_skipped"] is True
    assert "3 pages" in organization["furniture_note"]
    assert all("Quarterly Harbour Bulletin" in p["text"] for p in _pages(recs))


def test_three_pages_do_not_skip(run_cli, paper):
    assert _extract(run_cli, paper)[-1]["done"]["organization"]["furniture_repetition_skipped"] is False


# --- evidence, re-organization, plumbing -------------------------------------------------------

def test_saved_evidence_is_reorganized_without_the_pdf(run_cli, paper, tmp_path):
    saved = run_cli("extract", "--in-process", "--set", "output.evidence=true", str(paper))
    first = records(saved.output)
    page = _pages(first)[0]
    ev = page["evidence"]
    assert ev["width"] == 612 and ev["height"] == 792 and ev["rotation"] == 0
    assert make_fixtures.PAPER_HEADER in ev["raw_text"]
    run = ev["lines"][0]["runs"][0]
    assert {"text", "font", "size", "color", "box"} <= set(run)
    stream = tmp_path / "ev.jsonl"
    stream.write_text(saved.output, encoding="utf-8")
    again = _pages(records(run_cli("extract", str(stream)).output))
    assert [p["text"] for p in again] == [p["text"] for p in _pages(first)]
    no_furniture = _pages(records(run_cli("extract", "--set", "organize.furniture=false", str(stream)).output))
    assert make_fixtures.PAPER_HEADER in no_furniture[0]["text"]
    raw = _pages(records(run_cli("extract", "--raw", str(stream)).output))
    assert raw[0]["text"] == ev["raw_text"]


def test_evidence_runs_carry_fonts_and_images(run_cli, paper):
    page = _pages(_extract(run_cli, paper, "--set", "output.evidence=true"))[0]
    fonts = {run["font"] for line in page["evidence"]["lines"] for run in line["runs"]}
    assert {"Times-Roman", "Times-Bold", "Helvetica"} <= fonts
    listed = page["evidence"]["images"]  # the figure is listed; its bytes only when asked for
    assert [image["pixels"] for image in listed] == [[200, 120]] and "data" not in listed[0]
    images = [i for p in _pages(_extract(run_cli, paper, "--set", "extract.image_mode=embedded"))
              for i in p["evidence"]["images"]]
    assert images and images[0]["pixels"] == [200, 120] and images[0]["data"]


def test_outputs_validate_against_the_schema(run_cli, paper, fixtures):
    jsonschema = pytest.importorskip("jsonschema")
    from siftpdf.docstream import schema

    validator = jsonschema.Draft202012Validator(schema())
    for path in (paper, fixtures / "regulation_cn.pdf", fixtures / "clipped_form.pdf"):
        for record in _extract(run_cli, path, "--set", "output.evidence=true"):
            validator.validate(record)


def test_unknown_setting_is_a_usage_error(run_cli, paper):
    result = run_cli("extract", "--set", "organize.magic=true", str(paper))
    assert result.exit_code == 2 and "organize.furniture" in result.output


def test_settings_digest_is_stable_and_distinguishes():
    from siftpdf.settings import DEFAULT_DIGEST, OrganizeOptions, parse_settings

    assert OrganizeOptions().digest() == parse_settings([]).digest()
    assert parse_settings(["organize.furniture=false"]).digest() != OrganizeOptions().digest()
    assert len(OrganizeOptions().digest()) == 64
    # The defaults' digest is stored rather than computed: it must be the computed one.
    assert OrganizeOptions().digest() == OrganizeOptions().computed_digest() == DEFAULT_DIGEST
    assert OrganizeOptions(window=4.0).digest() == OrganizeOptions(window=4.0).computed_digest()


def test_grep_and_pages_read_the_organized_text(run_cli, paper):
    para = next(t for k, t in make_fixtures.paper_paragraphs() if k == "para")
    result = run_cli("grep", "-C", "0", "--in-process", para.split()[0], str(paper))
    assert result.exit_code == 0
    assert result.output.startswith("p. 1: " + para[:20])
    assert len(result.output.splitlines()) == 1  # the paragraph is one line, hence one match
    tail = " ".join(para.split()[-3:])  # a match at the end of the paragraph shows that end
    assert tail in run_cli("grep", "-C", "0", "--in-process", re.escape(tail), str(paper)).output
    pages = run_cli("pages", "--in-process", "2", str(paper)).output
    assert make_fixtures.PAPER_HEADER not in pages


def test_map_lists_organized_headings_without_an_outline(run_cli, paper):
    result = run_cli("map", "--in-process", "--cap", "2000", str(paper))
    assert "- 1 Introduction (p. 1)" in result.output
    assert "- 4 Discussion (p. 2)" in result.output


def test_child_and_in_process_agree(run_cli, paper):
    child = _pages(records(run_cli("extract", str(paper)).output))
    assert [p["text"] for p in child] == [p["text"] for p in _pages(_extract(run_cli, paper))]


def test_evidence_stream_is_line_per_record(run_cli, paper):
    out = run_cli("extract", "--in-process", "--set", "output.evidence=true", str(paper)).output
    assert all(json.loads(line) for line in out.splitlines())


def test_a_text_layer_of_glyph_codes_is_garbled_and_said_so(run_cli, tmp_path: Path) -> None:
    """A Type 3 font that maps no glyph to a character reads as its codes (control characters):
    such a page is garbled, organized or not, wherever it lies (no scan under it); a document of
    nothing else has no text, and the error says why and how to read it."""
    mixed, coded = tmp_path / "mixed.pdf", tmp_path / "coded.pdf"
    mixed.write_bytes(make_fixtures.type3_codes(2))
    coded.write_bytes(make_fixtures.type3_codes(1, readable=False))
    spaced = tmp_path / "spaced.pdf"  # codes that read as letters, each glyph set apart: 'A B C D'
    spaced.write_bytes(make_fixtures.type3_codes(1, first=65))
    for raw in ((), ("--raw",)):
        pages = _pages(_extract(run_cli, mixed, "--ocr", "never", *raw))
        assert [p["status"] for p in pages] == ["garbled", "garbled", "text"], raw
        pages = _pages(_extract(run_cli, spaced, "--ocr", "never", *raw))
        assert pages[0]["text"].startswith("A B C D") and [p["status"] for p in pages] == ["garbled", "text"], raw
    done = run_cli("extract", "--in-process", "--ocr", "never", str(coded))
    assert done.exit_code == 5
    assert done.stderr.startswith("siftpdf: no readable text layer (junk over scans, or its fonts' codes instead")
    assert "--ocr auto" in done.stderr


def test_a_type3_font_sized_by_its_own_matrix_reads_at_its_glyphs_size(run_cli, tmp_path: Path) -> None:
    """A Type 3 font whose matrix, not its Tf size, makes its glyphs 10 and 16 points tall (as
    dvips set TeX's bitmap fonts, at 0.24 point): the heading is a heading and the paragraph's
    three lines one paragraph, as set in any other font, not four paragraphs of type too small
    to rank."""
    path = tmp_path / "type3.pdf"
    path.write_bytes(make_fixtures.type3_scaled())
    page = _pages(_extract(run_cli, path, "--set", "output.evidence=true"))[0]
    assert [(b["kind"], b["text"]) for b in page["blocks"]] == \
        [("heading", make_fixtures.TYPE3_HEAD), ("paragraph", " ".join(make_fixtures.TYPE3_LINES))]
    sizes = sorted({run["size"] for line in page["evidence"]["lines"] for run in line["runs"]})
    assert sizes == [10.0, 16.0]


def test_a_type3_font_of_no_size_keeps_the_pages_evidence(run_cli, tmp_path: Path) -> None:
    """The same font at a size of 0, and under a text matrix with no height whose skew gives its
    glyphs one (a hostile page): there is no size to scale, and the page is organized all the
    same, not read without its evidence."""
    path = tmp_path / "type3_degenerate.pdf"
    flat = make_fixtures.type3_scaled().replace(b"BT /T 0.24 Tf 12 TL 72 670 Td", b"BT /T 0.24 Tf 1 1 0 0 72 670 Tm")
    path.write_bytes(flat.replace(b"BT /T 0.384 Tf", b"BT /T 0 Tf"))
    page = _pages(_extract(run_cli, path))[0]
    assert page.get("blocks") and "organize_error" not in page
    assert _extract(run_cli, path)[-1]["done"]["organization"].get("pages_without_evidence") is None


def test_a_picture_inside_a_form_is_where_the_page_draws_it(run_cli, tmp_path: Path) -> None:
    """An image drawn inside a form XObject has its box in the form's space; the page moves the
    form: the figure stands where it is seen, between the paragraphs above and below it, not at
    the page's corner after them."""
    path = tmp_path / "form_image.pdf"
    path.write_bytes(make_fixtures.form_image())
    page = _pages(_extract(run_cli, path))[0]
    assert [b["kind"] for b in page["blocks"]] == ["paragraph", "figure", "paragraph"]
    assert page["blocks"][1]["spans"][0]["rect"] == [300.0, 200.0, 400.0, 280.0]


def test_the_labels_of_a_diagram_placed_small_are_set_at_the_size_they_are_seen(run_cli, fixtures) -> None:
    """A diagram's labels set at 20 points in a form the page draws at 0.4 of its size are
    8-point text (the size drawn, the form's matrix included): small print between the body's
    paragraphs, not a heading over the second."""
    recs = _extract(run_cli, fixtures / "chart_in_form.pdf", "--set", "output.evidence=true")
    page = _pages(recs)[0]
    sizes = {run["text"]: run["size"] for line in page["evidence"]["lines"] for run in line["runs"]}
    assert [sizes.get(label) for label in make_fixtures.CHART_LABELS] == [8.0, 8.0, 8.0]
    assert [b["kind"] for b in page["blocks"]] == ["paragraph"] * 3
    assert page["blocks"][1]["text"] == " ".join(make_fixtures.CHART_LABELS)


def test_junk_text_over_a_scan_is_garbled(run_cli, fixtures):
    recs = _extract(run_cli, fixtures / "garbled_scan.pdf", "--ocr", "never")  # with OCR on, the scan is read
    assert [p["status"] for p in _pages(recs)] == ["garbled", "text"]


def test_render_writes_png_files_not_stdout(run_cli, paper, tmp_path):
    result = run_cli("extract", "--in-process", "--render", "2", "--render-dir", str(tmp_path), str(paper))
    assert result.exit_code == 0
    assert "render_png" not in result.output
    png = (tmp_path / "paper_2col-p2.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width == 1275 and abs(height - 1650) <= 1  # US Letter at 150 dpi
    assert not (tmp_path / "paper_2col-p1.png").exists()


def test_scanned_pages_keep_their_status_under_organization(run_cli, fixtures):
    result = run_cli("extract", "--in-process", "--ocr", "never", str(fixtures / "scanned.pdf"))
    assert result.exit_code == 5
    lines = [line for line in result.output.splitlines() if line.startswith("{")]  # stderr is mixed in
    assert [r["status"] for r in records("\n".join(lines)) if "page" in r] == ["no_text", "no_text"]


def test_the_read_path_loads_the_organizer_while_the_child_starts() -> None:
    # run_child calls it as soon as the first child is started: the import (about 13 ms) then
    # overlaps the child's own start instead of waiting for the first page.
    import subprocess
    import sys

    code = ("import sys; from siftpdf import read; assert 'siftpdf.organize' not in sys.modules; "
            "read._load_organizer(); assert 'siftpdf.organize' in sys.modules")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0
