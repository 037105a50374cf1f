"""OCR through the commands: ``--ocr never|auto|always`` on generated scans, read
by the real extraction child, cached under its own key, and the errors a user meets.

The scans come from tests/make_scans.py (corpus pages rendered, turned and grained into
image-only PDFs); the reference is the source page's text layer."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import make_scans
import pytest
from conftest import records, run_on_terminal, run_siftpdf

from siftpdf import extras

pytestmark = [
    pytest.mark.skipif(not make_scans.CORPUS.is_dir(), reason="../shared/corpus is absent"),
    pytest.mark.skipif(not extras.ocr_installed(), reason=f"no OCR engine: {extras.OCR_INSTALL}"),
]


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("scans")
    english = make_scans.scan(make_scans.ENGLISH[0], dpi=200)
    half = make_scans.half_scan(dpi=200)
    files = {"scan": english.pdf, "half": half.pdf, "blank": make_scans.blank(dpi=150).pdf,
             "four": make_scans.many_pages(4, dpi=150)}
    for name, data in files.items():
        (folder / f"{name}.pdf").write_bytes(data)
    return {"dir": folder, "scan": english, "half": half}


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w{3,}", text.lower()))


def _pages(result: Any) -> list[dict[str, Any]]:
    return [r for r in records(result.stdout.decode()) if "page" in r]


def test_without_ocr_a_scan_is_no_text_and_the_hint_names_the_option(scans: dict[str, Any]) -> None:
    result = run_siftpdf("pages", "1", "--ocr", "never", str(scans["dir"] / "scan.pdf"))
    assert result.returncode == 5
    assert b"hint: rerun with --ocr auto" in result.stderr


@pytest.mark.check  # make check: a long run, about 4 s
def test_the_default_reads_scans_and_costs_a_text_page_nothing(scans: dict[str, Any], fixtures: Path) -> None:
    """With an engine installed, --ocr auto is the default: a scan is read with no option, and
    a text page (one with a figure too) gives the same records as with --ocr never."""
    env = {name: value for name, value in os.environ.items() if name != "SIFTPDF_OCR"}
    page = _pages(run_siftpdf("pages", "1", "--json", str(scans["dir"] / "scan.pdf"), env=env))[0]
    assert page["status"] == "ocr"
    for path in (fixtures / "three_page.pdf", make_scans.CORPUS / "paper/api_design_api-design.pdf"):
        default = run_siftpdf("extract", "--no-cache", str(path), env=env)
        never = run_siftpdf("extract", "--no-cache", "--ocr", "never", str(path), env=env)
        assert default.returncode == never.returncode == 0
        assert _timeless(default.stdout) == _timeless(never.stdout)
    status = json.loads(run_siftpdf("engine", "status", "--json", env=env).stdout)
    assert status["engine_status"]["ocr_default"] == {"mode": "auto", "why": "an OCR engine is installed"}


def _timeless(stream: bytes) -> bytes:
    return re.sub(rb'"elapsed_ms":\d+', b'"elapsed_ms":0', stream)


def test_without_an_engine_the_default_is_never_and_the_hint_names_the_install(
        run_cli: Any, scans: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIFTPDF_OCR", raising=False)
    monkeypatch.setattr(extras, "ocr_installed", lambda: False)
    result = run_cli("pages", "1", str(scans["dir"] / "scan.pdf"))
    assert result.exit_code == 5
    assert "hint: pip install 'siftpdf[ocr]'" in result.output and "then rerun with --ocr auto" in result.output


def test_auto_reads_a_scan_close_to_its_text_layer(scans: dict[str, Any]) -> None:
    result = run_siftpdf("extract", "--ocr", "auto", str(scans["dir"] / "scan.pdf"))
    assert result.returncode == 0, result.stderr
    stream = records(result.stdout.decode())
    (page,) = [r for r in stream if "page" in r]
    assert page["status"] == "ocr"
    assert page["ocr"]["engine"].startswith(("tesseract", "rapidocr")) and page["ocr"]["confidence"] > 0.8
    assert make_scans.cer_any_order(page["text"].splitlines(), scans["scan"].reference) < 0.05
    # The recognized lines are the page's evidence: organization made blocks of them.
    assert any(block["kind"] == "paragraph" for block in page["blocks"])
    assert stream[-1]["done"]["ocr"] == {"pages": 1}


def test_the_setting_is_part_of_the_cache_key(scans: dict[str, Any], child_log: Any) -> None:
    path = str(scans["dir"] / "scan.pdf")
    assert run_siftpdf("pages", "1", "--ocr", "never", path).returncode == 5
    started = child_log()
    first = run_siftpdf("pages", "1", path)  # the default: auto, an engine being installed
    assert first.returncode == 0 and child_log() > started  # not the no-text answer cached without OCR
    started = child_log()
    again = run_siftpdf("pages", "1", "--ocr", "auto", path, env={"SIFTPDF_OCR": "never"})
    assert again.stdout == first.stdout and child_log() == started  # a cache hit; the option wins over the env
    by_env = run_siftpdf("grep", "-c", "the", path, env={"SIFTPDF_OCR": "auto"})
    assert by_env.returncode == 0 and int(by_env.stdout) > 5 and child_log() == started


def test_a_blank_scan_is_empty_never_invented_text(scans: dict[str, Any]) -> None:
    result = run_siftpdf("extract", "--ocr", "auto", "--in-process", str(scans["dir"] / "blank.pdf"))
    assert result.returncode == 5
    assert b"OCR read nothing on any page" in result.stderr and b"hint:" not in result.stderr


@pytest.mark.parametrize("view", [[], ["--raw"]], ids=["organized", "raw"])
def test_auto_reads_only_the_scanned_part_of_a_half_scanned_page(scans: dict[str, Any], view: list[str]) -> None:
    path = str(scans["dir"] / "half.pdf")
    plain = _pages(run_siftpdf("extract", "--ocr", "never", "--raw", path))[0]
    read = _pages(run_siftpdf("extract", "--ocr", "auto", *view, path))[0]
    assert plain["status"] == read["status"] == "text"
    ((x0, y0, x1, y1),) = read["ocr"]["regions"]  # the scanned lower half, in points
    assert x0 <= 1 and y0 <= 1 and y1 == pytest.approx(scans["half"].split, abs=2) and x1 > 500
    image_words = _words(scans["half"].image_reference) - _words(plain["text"])
    assert len(image_words) > 30
    assert len(image_words & _words(read["text"])) > 0.8 * len(image_words)
    # The text layer is kept (its running head set aside as furniture, as on any page).
    body = " ".join([read["text"], *(item["text"] for item in read.get("furniture", []))])
    assert _words(plain["text"]) <= _words(body)


def test_auto_leaves_a_photo_on_a_text_page_unread(tmp_path: Path) -> None:
    """A large image no text lies over is read only when it is an image of text: a photo
    (tones spread over the whole range) costs its page nothing, which reads as with never."""
    path = tmp_path / "photo.pdf"
    path.write_bytes(make_scans.half_photo())
    never = run_siftpdf("extract", "--no-cache", "--ocr", "never", str(path))
    auto = run_siftpdf("extract", "--no-cache", "--ocr", "auto", str(path))
    (page,) = _pages(auto)
    assert page["status"] == "text" and "ocr" not in page
    assert _timeless(auto.stdout) == _timeless(never.stdout)


def test_always_reads_pages_that_have_a_text_layer(scans: dict[str, Any]) -> None:
    page = _pages(run_siftpdf("extract", "--ocr", "always", "--raw", str(scans["dir"] / "half.pdf")))[0]
    assert page["status"] == "ocr" and "regions" not in page["ocr"]


@pytest.mark.check  # make check: OCR of several pages, about 14 s
def test_a_scan_of_several_pages_uses_both_workers(scans: dict[str, Any], child_log: Any) -> None:
    """always: the pages alternate between two children from the start. auto: a child reads the
    document in chunks, as it reads text pages, until page 1 turns out to be a scan; then two
    children alternate on the pages after it (a large file has had its second child started
    early too, stopped once the pages were counted)."""
    for mode, children in (("always", {2}), ("auto", {3, 4})):
        started = child_log()
        result = run_siftpdf("extract", "--no-cache", "--ocr", mode, "--raw", str(scans["dir"] / "four.pdf"))
        assert result.returncode == 0, result.stderr
        assert [p["status"] for p in _pages(result)] == ["ocr"] * 4
        assert child_log() - started in children, mode


def test_a_scan_over_the_deadline_names_the_option_that_gives_it_time(scans: dict[str, Any]) -> None:
    # Four scanned pages cannot be read in half a second: the deadline ends the run, and the
    # hint says how to give OCR the time it needs.
    result = run_siftpdf("extract", "--ocr", "always", "--raw", "--deadline", "0.5", str(scans["dir"] / "four.pdf"))
    assert result.returncode == 6
    assert b"timed out after 0.5 s" in result.stderr and b"hint: OCR reads a page" in result.stderr
    assert b"--deadline 600" in result.stderr


@pytest.mark.check  # make check: a minute of OCR
def test_a_scan_of_2000_pages_shows_progress_and_ends_at_the_deadline_with_its_pages(tmp_path: Path) -> None:
    path = tmp_path / "long-scan.pdf"
    path.write_bytes(make_scans.many_pages(2000, dpi=100))
    # A deadline long enough for a few pages on a busy machine (a page is 1-3 s a worker), far
    # too short for 2,000 of them.
    stdout, screen, code = run_on_terminal(["extract", "--no-cache", "--raw", "--ocr", "auto", "--deadline", "25",
                                            str(path)], {}, stderr_tty=True)
    assert code == 6
    counts = [int(n) for n in re.findall(rb"(\d+)/2000(?:\x1b\[[0-9;]*m)? pages", screen)]
    assert b"extracting" in screen and counts, screen[-500:]  # the bar, on the terminal
    stream = records(stdout.decode())
    read = [r for r in stream if "page" in r]
    assert read and all(r["status"] == "ocr" for r in read)  # what was read before the deadline
    assert stream[-1]["error"]["code"] == "timeout" and "--deadline" in stream[-1]["error"]["hint"]


def test_the_page_cap_applies_to_recognized_pages(scans: dict[str, Any]) -> None:
    result = run_siftpdf("extract", "--ocr", "auto", "--raw", "--max-pages", "1", str(scans["dir"] / "four.pdf"))
    stream = records(result.stdout.decode())
    assert [r["page"] for r in stream if "page" in r] == [1]
    assert stream[-1]["done"]["page_limit_reached"] is True and stream[-1]["done"]["ocr"] == {"pages": 1}


@pytest.mark.check  # make check: a long run, about 4 s
def test_a_huge_page_is_read_at_the_render_cap_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "huge.pdf"
    path.write_bytes(make_scans.huge_page())
    result = run_siftpdf("extract", "--ocr", "always", "--raw", str(path), timeout=300)
    stream = records(result.stdout.decode())
    (page,) = [r for r in stream if "page" in r]
    # 20,000 pixels a side drawn on 200 inches: read at the cap (5,000 pixels), which says so.
    assert page["ocr"]["capped"] is True and page["ocr"]["dpi"] == 25.0
    # The image is blank: nothing is made up, and the document ends as one with no text.
    assert page["status"] == "empty" and result.returncode == 5


def test_without_an_engine_ocr_is_a_usage_error_naming_the_install(run_cli: Any, scans: dict[str, Any],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extras, "ocr_installed", lambda: False)
    result = run_cli("pages", "1", "--ocr", "auto", str(scans["dir"] / "scan.pdf"))
    assert result.exit_code == 2
    assert "no OCR engine is installed" in result.output and "pip install 'siftpdf[ocr]'" in result.output


def test_the_records_are_valid_doc_stream_records(scans: dict[str, Any]) -> None:
    import jsonschema

    schema = json.loads((Path(__file__).parent.parent / "siftpdf/schema/docstream.schema.json").read_text())
    result = run_siftpdf("extract", "--ocr", "auto", "--set", "output.evidence=true", str(scans["dir"] / "half.pdf"))
    validator = jsonschema.Draft202012Validator(schema)
    for record in records(result.stdout.decode()):
        assert not list(validator.iter_errors(record)), record.keys()


def test_raw_text_of_a_two_column_scan_reads_column_by_column(tmp_path: Path) -> None:
    """The engine reads a two-column page a column at a time; the raw text keeps that order
    (a page's lines sorted top down would alternate the columns' lines)."""
    two_columns = make_scans.scan(make_scans.ENGLISH[1], dpi=200)
    path = tmp_path / "two-columns.pdf"
    path.write_bytes(two_columns.pdf)
    result = run_siftpdf("extract", "--raw", "--ocr", "auto", "--no-cache", str(path))
    assert result.returncode == 0, result.stderr
    (page,) = _pages(result)
    assert page["status"] == "ocr"
    # The characters read well whatever their order, and the order costs little more: a column's
    # footnote read at the column's foot, where the text layer has it last (0.017). Lines of the
    # two columns taken in turn cost 0.77.
    read = make_scans.cer_any_order(page["text"].splitlines(), two_columns.reference)
    assert read < 0.01
    assert make_scans.cer(page["text"], two_columns.reference) - read < 0.02



def _scanned_and_text_layer(source: make_scans.Source, folder: Path) -> tuple[make_scans.Scan, dict[str, Any],
                                                                            dict[str, Any]]:
    """A corpus page scanned at 300 dpi, turned slightly as a scanner feeds it: the scan, its
    page organized from what OCR read, and the same page organized from its text layer."""
    scanned = make_scans.scan(source, dpi=300)
    assert scanned.angle != 0  # the scanner's skew is part of what is read through
    path = folder / f"{source.label}.pdf"
    path.write_bytes(scanned.pdf)
    result = run_siftpdf("extract", "--ocr", "auto", "--no-cache", str(path))
    assert result.returncode == 0, result.stderr
    (page,) = _pages(result)
    assert page["status"] == "ocr"
    text_layer = _pages(run_siftpdf("extract", "--no-cache", "--ocr", "never", "--max-pages", str(source.page + 1),
                                    str(make_scans.CORPUS / source.path)))[source.page]
    return scanned, page, text_layer


@pytest.mark.check  # make check: a long run, about 7 s
def test_a_scanned_page_reads_as_the_article_its_text_layer_gives(tmp_path: Path) -> None:
    """A two-column paper page: the recognized lines are joined into the paragraphs the text
    layer gives (at most 1.3 times its blocks, where a skewed scan's lines each made a block
    when their boxes' heights told their sizes), under the same headings."""
    _, page, text_layer = _scanned_and_text_layer(make_scans.ENGLISH[1], tmp_path)
    assert len(page["blocks"]) <= 1.3 * len(text_layer["blocks"])
    headings = [b["text"] for b in page["blocks"] if b["kind"] == "heading"]
    assert headings and headings == [b["text"] for b in text_layer["blocks"] if b["kind"] == "heading"]


@pytest.mark.check  # make check: a long run, about 4 s
def test_a_word_hyphenated_across_scanned_lines_is_joined(tmp_path: Path) -> None:
    """A book page whose text layer breaks 'argu-ments' over two lines: the organized scan
    reads the word whole, as the organized text layer does."""
    scanned, page, text_layer = _scanned_and_text_layer(make_scans.ENGLISH[3], tmp_path)
    broken = ["".join(parts) for parts in re.findall(r"(\w+)\ufffe\s*(\w+)", scanned.reference)]
    assert broken
    assert len(page["blocks"]) <= 1.3 * len(text_layer["blocks"])
    read = _words(" ".join(b["text"] for b in page["blocks"]))
    assert all(word.lower() in read for word in broken), broken


@pytest.mark.check  # make check: a long run, about 4 s
def test_links_in_a_scanned_pages_footnotes_are_read_however_unsure_the_engine_is(tmp_path: Path) -> None:
    """A book page whose footnotes are links: tesseract reads them clearly, yet is unsure of
    words no dictionary holds (confidence 0 for some). A line with an address is kept; the
    lines of specks and figure marks that little confidence drops are never addresses."""
    scanned = make_scans.scan(make_scans.ENGLISH[4], dpi=300)
    path = tmp_path / "links.pdf"
    path.write_bytes(scanned.pdf)
    page = _pages(run_siftpdf("extract", "--ocr", "auto", "--raw", "--no-cache", str(path)))[0]
    links = re.findall(r"https://(\S+)", scanned.reference)
    assert len(links) >= 5
    read = page["text"].replace(" ", "")
    assert all(link in read for link in ("facebook.github.io/immutable-js", "github.com/reactjs/react-redux")), links


def test_a_scanned_line_that_ends_a_word_broken_over_the_line_before_is_kept(tmp_path: Path) -> None:
    """A book's line under one ending 'deep-' whose note marks make the engine unsure of it
    (confidence under the bar that drops specks): it ends the word the line before broke, so
    it is text, and kept."""
    path = tmp_path / "redux.pdf"
    path.write_bytes(make_scans.scan(make_scans.ENGLISH[4], dpi=300).pdf)
    page = _pages(run_siftpdf("extract", "--ocr", "auto", "--raw", "--no-cache", str(path)))[0]
    assert re.search(r"deep-\nfreeze\S*, seamless", page["text"]) and "Immutable.js" in page["text"]


def test_auto_reads_a_scan_that_carries_a_few_words_of_text_layer(tmp_path: Path) -> None:
    """A page scanned whole whose text layer holds only its footer: the page is a scan whatever
    the footer says. Its words are read (95 % of them at least), the footer once (set aside as
    the running foot it is), and ``ocr.regions`` says which part of the page was a picture."""
    scanned = make_scans.scan_with_footer()
    path = tmp_path / "footer.pdf"
    path.write_bytes(scanned.pdf)
    plain = _pages(run_siftpdf("extract", "--ocr", "never", "--raw", "--no-cache", str(path)))[0]
    assert plain["status"] == "text" and len(plain["text"].split()) < 10
    page = _pages(run_siftpdf("extract", "--ocr", "auto", "--no-cache", str(path)))[0]
    ((x0, y0, x1, y1),) = page["ocr"]["regions"]
    assert x0 <= 1 and y0 <= 1 and x1 >= 600 and y1 >= 780  # the whole page was a picture
    words = re.findall(r"\w+", scanned.reference.lower())
    read = re.findall(r"\w+", " ".join(b["text"] for b in page["blocks"]).lower())
    recalled = sum((Counter(words) & Counter(read)).values())
    assert recalled >= 0.95 * len(words)
    footer = plain["text"].strip()  # a running foot with its page number: set aside, once
    assert " ".join(b["text"] for b in page["blocks"]).count(footer) == 0
    assert [f["text"] for f in page["furniture"]].count(footer) == 1


@pytest.mark.check  # make check: a long run, about 4 s
def test_figures_printed_on_shaded_cells_of_a_scan_are_read(tmp_path: Path) -> None:
    """A report's table whose figures stand on cells shaded three tints of grey, under heads set
    white on dark: every figure the text layer gives is read from the scan (tesseract's one
    threshold over the page lost those on the darker tints)."""
    source = make_scans.Source("ground-truth/src_test_resources_technology_tabula_icdar2013-dataset_"
                               "competition-dataset-us_us-010.pdf", 1, "en", "shaded")
    path = tmp_path / "shaded.pdf"
    path.write_bytes(make_scans.scan(source, dpi=300).pdf)
    (page,) = _pages(run_siftpdf("extract", "--ocr", "always", "--raw", "--no-cache", str(path)))
    figures = ["47", "272,768", "389,933", "237", "1,079", "652,412", "2,348,928", "21", "29"]
    assert all(figure in page["text"].split() for figure in figures[1:2])  # read either way
    assert [figure for figure in figures if figure not in re.findall(r"[\d,]+", page["text"])] == []
    assert "Total data sets available" in page["text"]  # the heads set light on dark too


def test_a_scanned_table_without_rules_reads_as_a_table(tmp_path: Path) -> None:
    """A report's table of ages and enrolment, no rule between its columns, scanned: each row's
    cells stand apart by their wide spaces (the engine reads a row as one line), so the table
    is read with its rows, as the text layer's is."""
    source = make_scans.Source("ground-truth/src_test_resources_technology_tabula_icdar2013-dataset_"
                               "competition-dataset-us_us-027.pdf", 1, "en", "enrolment")
    path = tmp_path / "enrolment.pdf"
    path.write_bytes(make_scans.scan(source, dpi=300).pdf)
    (page,) = _pages(run_siftpdf("extract", "--ocr", "always", "--no-cache", str(path)))
    rows = [[c["text"] for c in row] for b in page["blocks"] if b["kind"] == "table" for row in b["rows"]]
    bands = [row for row in rows if len(row) == 3 and re.fullmatch(r"\d\d-\d\d", row[0])
             and re.fullmatch(r"[\d,]+,000", row[1])]
    assert len(bands) >= 4, rows  # of six ('14-17' '231,000' '1.3' …); each was a line of text


@pytest.mark.check  # make check: a long run, about 5 s
def test_a_scanned_ruled_table_reads_as_a_table_with_its_rows(tmp_path: Path) -> None:
    """A report's ruled table scanned slightly turned: its rules are not read as '|' and '['
    glued to the cells, its rows stand level, and the organized scan has the table the text
    layer gives, row for row (most cells read alike)."""
    source = make_scans.Source("forms-tables/examples_pdfs_ca-warn-report.pdf", 0, "en", "warn")
    scanned = make_scans.scan(source, dpi=200)
    assert scanned.angle != 0
    path = tmp_path / "table.pdf"
    path.write_bytes(scanned.pdf)
    (page,) = _pages(run_siftpdf("extract", "--ocr", "auto", "--no-cache", str(path)))
    text_layer = _pages(run_siftpdf("extract", "--no-cache", "--max-pages", "1",
                                    str(make_scans.CORPUS / source.path)))[0]

    def cells(record: dict[str, Any]) -> list[str]:
        return [c["text"] for b in record["blocks"] if b["kind"] == "table" for row in b["rows"] for c in row]

    expected, read = cells(text_layer), cells(page)
    assert len(expected) > 100
    assert sum((Counter(expected) & Counter(read)).values()) > 0.6 * len(expected)  # 0.71 read; none before
    assert not any("|" in text or "[" in text for text in read)
    # The ruling drawn in the image is the page's evidence, level as its lines are: a rule a
    # stroke (not a staircase of pieces), as the text layer's vector rules are.
    evidence = _pages(run_siftpdf("extract", "--ocr", "auto", "--no-cache", "--set", "output.evidence=true",
                                  str(path)))[0]["evidence"]
    across = [r for r in evidence["rules"] if r[3] - r[1] < 1.5]
    assert len(across) >= 10 and all(r[3] - r[1] < 1.5 for r in across)
    assert max(r[2] - r[0] for r in across) > 0.6 * evidence["width"]  # the table's full-width rules, whole


def _corpus_page(tmp_path: Path, name: str, index: int) -> Path:
    """One page of a corpus PDF as a PDF of its own (its fonts as they are)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.add_page(PdfReader(make_scans.CORPUS / name).pages[index])
    path = tmp_path / f"page{index + 1}.pdf"
    with path.open("wb") as out:
        writer.write(out)
    return path


def test_a_page_whose_text_layer_is_glyph_codes_is_read_whole() -> None:
    """A paper set in Type 3 fonts without a Unicode map: PDFium reads its text as control
    characters and stray letters, as pdftotext does. Never: the page is garbled, and a read of
    it alone has no text (exit 5, with the way to read it). Auto: the page is read as a scan is."""
    path = make_scans.CORPUS / "paper/security_ids-evasion-ptacek-newsham.pdf"
    never = run_siftpdf("extract", "--ocr", "never", "--no-cache", "--max-pages", "1", str(path))
    plain = records(never.stdout.decode())
    assert plain[1]["status"] == "garbled" and "Evasion" not in plain[1]["text"]
    assert never.returncode == 5 and plain[-1]["error"]["code"] == "no_text" and b"--ocr auto" in never.stderr
    page = _pages(run_siftpdf("extract", "--ocr", "auto", "--no-cache", "--max-pages", "1", str(path)))[0]
    assert page["status"] == "ocr"
    assert "Insertion, Evasion, and Denial of Service" in " ".join(b["text"] for b in page["blocks"])


def test_headings_in_a_font_numbered_in_order_of_use_are_read_where_they_stand(tmp_path: Path) -> None:
    """A manual's headings in fonts whose codes were handed out in order of use ('!"#$%&' for
    'Manual Objectives'), its body in a font with a map: auto reads the headings' boxes alone,
    in place of the codes, and keeps the face and size the layer gave them (their levels); the
    body stays the text layer's, read once."""
    path = _corpus_page(tmp_path, "long/z80cpu_um.pdf", 14)
    plain = _pages(run_siftpdf("extract", "--ocr", "never", "--no-cache", str(path)))[0]
    assert '!"#$' in plain["text"] and "Objectives" not in plain["text"]
    page = _pages(run_siftpdf("extract", "--ocr", "auto", "--no-cache", str(path)))[0]
    assert page["status"] == "text" and 0 < len(page["ocr"]["regions"]) <= 12
    headings = {b["text"]: b["level"] for b in page["blocks"] if b["kind"] == "heading"}
    assert headings["Manual Objectives"] < headings["Intended Audience"] == headings["Manual Organization"] < \
        headings["Hardware and Software Implementation"], headings  # in the type the layer gave each
    text = " ".join(b["text"] for b in page["blocks"])
    assert '!"#$' not in text and text.count("is divided into four chapters") == 1


def test_a_page_whose_flagged_glyphs_read_as_words_is_not_read_again() -> None:
    """An invoice whose fonts PDFium flags as unmapped, though their text reads right ('Faktura nr
    FV 1/2021', dates, sums): nothing of it is read again, and the glyphs are still counted."""
    path = make_scans.CORPUS / "parser-samples/samples_contrib_issue-625-identity-cmap.pdf"
    out = records(run_siftpdf("extract", "--ocr", "auto", "--no-cache", str(path)).stdout.decode())
    pages = [r for r in out if "page" in r]
    assert pages and all(p["status"] == "text" and "ocr" not in p for p in pages)
    assert "Faktura nr FV 1/2021" in pages[0]["text"] and out[-1]["done"]["unmapped_chars"] > 1000


def test_raw_text_of_a_page_of_glyph_codes_is_read_as_a_scan_is() -> None:
    """``--raw`` has no runs to tell glyph codes by: the page's text does (control characters
    among characters no text is written in, few words), and auto reads the page whole."""
    path = make_scans.CORPUS / "paper/security_ids-evasion-ptacek-newsham.pdf"
    page = _pages(run_siftpdf("extract", "--ocr", "auto", "--raw", "--no-cache", "--max-pages", "1", str(path)))[0]
    assert page["status"] == "ocr" and "Insertion, Evasion, and" in page["text"]
