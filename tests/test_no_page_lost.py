"""Nothing in one page's content, and no failed step or killed child, costs a document (README, Safety).

Each test runs the real extraction child on a generated file; faults are real: a child that
aborts on a page, that hangs, that stops in the middle of a line (tests/seams)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import records, run_siftpdf
from make_fixtures import CELL_ROWS, CUT_HEAD, FIGURE_LABELS, ODD_PAGES, WATERMARK, WATERMARK_LINES

from siftpdf.child.job import Job
from siftpdf.errors import TooLargeError
from siftpdf.options import Limits
from siftpdf.workers import runner

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "sample.pdf"
MODES = [pytest.param([], id="organized"), pytest.param(["--raw"], id="raw")]


def _pages(out: list[dict]) -> list[dict]:
    return [r for r in out if "page" in r]


@pytest.mark.parametrize("mode", MODES)
def test_characters_beyond_the_bmp_and_lone_surrogates_cost_no_page(fixtures: Path, mode: list[str]) -> None:
    proc = run_siftpdf("extract", "--no-cache", *mode, str(fixtures / "odd_unicode.pdf"))
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode("utf-8"))  # strict: every line is valid UTF-8
    pages = _pages(out)
    assert [p["page"] for p in pages] == list(range(1, ODD_PAGES + 1))
    for page in pages:
        assert page["status"] == "text"
        assert "hello 😀𝐀 and \ufffd then \ufffd world" in page["text"]  # kept, and replaced
        assert page["replaced_chars"] == 2
    assert out[-1]["done"]["replaced_chars"] == 2 * ODD_PAGES
    assert out[-1]["done"]["pages_failed"] == 0


def test_the_evidence_of_such_pages_is_written_as_its_text_is(fixtures: Path) -> None:
    """The evidence's run texts are scrubbed where the evidence is made: the page's writer
    does not walk it again, and its last guard finds nothing left to replace."""
    from siftpdf.child.extraction import ExtractOptions, extract_records
    from siftpdf.child.main import encode_record

    data = (fixtures / "odd_unicode.pdf").read_bytes()
    pages = [r for r in extract_records(data, ExtractOptions(evidence=True)) if "page" in r]
    assert len(pages) == ODD_PAGES
    for page in pages:
        runs = " ".join(run["text"] for line in page["evidence"]["lines"] for run in line["runs"])
        assert "hello 😀𝐀 and \ufffd then \ufffd world" in runs
        assert page["replaced_chars"] == 2
        written = json.loads(encode_record(page).decode("utf-8"))  # strict UTF-8
        assert written["replaced_chars"] == 2 and written["evidence"] == page["evidence"]


def test_the_text_view_and_grep_read_such_pages(fixtures: Path) -> None:
    path = str(fixtures / "odd_unicode.pdf")
    text = run_siftpdf("pages", "4", path)
    assert text.returncode == 0 and "Page 4 says hello 😀𝐀" in text.stdout.decode("utf-8")
    found = run_siftpdf("grep", "😀", path)
    assert found.returncode == 0
    assert found.stdout.decode("utf-8").count("😀") == ODD_PAGES


def test_a_doc_stream_with_escaped_lone_surrogates_is_read(tmp_path: Path) -> None:
    stream = tmp_path / "doc.jsonl"
    stream.write_text('{"meta":{"format":1,"source":null,"sha256":"0","bytes":1,"pages":1,"title":"",'
                      '"outline":[],"engine":{"name":"pdfium","version":"x"},"max_pages":2000}}\n'
                      '{"page":1,"text":"bad \\ud800 half and a \\ud83d\\ude00 pair","status":"text"}\n'
                      '{"done":{"pages_processed":1,"pages_failed":0,"page_limit_reached":false,'
                      '"clipped_chars":0,"unmapped_chars":0,"elapsed_ms":1}}\n')
    proc = run_siftpdf("pages", "1", str(stream))
    assert proc.returncode == 0, proc.stderr
    assert "bad \ufffd half and a 😀 pair" in proc.stdout.decode("utf-8")


@pytest.mark.parametrize("mode", MODES)
def test_a_page_that_crashes_pdfium_is_read_by_the_salvage_chain(fixtures: Path, mode: list[str]) -> None:
    proc = run_siftpdf("extract", "--no-cache", *mode, str(fixtures / "three_page.pdf"),
                       env={"SIFTPDF_TEST_CHILD_CRASH": "2"})
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    pages = _pages(out)
    assert [p["status"] for p in pages] == ["text"] * 3
    assert pages[1]["engine"] == "pypdf" and "beta crimson harbor" in pages[1]["text"]
    assert "engine crashed: signal 6" in pages[1]["retried_after"]
    assert "engine" not in pages[0] and "engine" not in pages[2]  # the pages around it: PDFium
    done = out[-1]["done"]
    assert (done["pages_retried"], done["pages_failed"], done["engines"]) == (1, 0, {"pdfium": 2, "pypdf": 1})


def test_a_page_every_engine_crashes_on_costs_only_that_page(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", str(fixtures / "three_page.pdf"),
                       env={"SIFTPDF_TEST_CHILD_CRASH": "2", "SIFTPDF_TEST_CHILD_CRASH_SALVAGE": "1"})
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    pages = _pages(out)
    assert [p["status"] for p in pages] == ["text", "failed", "text"]
    assert "gamma velvet mountain" in pages[2]["text"] and "engine" not in pages[2]  # PDFium again after it
    assert pages[1]["error"].count("engine crashed") == 2  # the engine's failure, then salvage's
    assert out[-1]["done"]["pages_failed"] == 1


def test_a_run_of_crashing_pages_sends_the_rest_to_salvage(child_log) -> None:
    proc = run_siftpdf("extract", "--no-cache", "--raw", str(SAMPLE), env={"SIFTPDF_TEST_CHILD_CRASH": "1,2,3,4"})
    assert proc.returncode == 0, proc.stderr
    pages = _pages(records(proc.stdout.decode()))
    assert [p["status"] for p in pages] == ["text"] * 5
    assert [p.get("engine") for p in pages] == ["pypdf"] * 5
    assert [("retried_after" in p) for p in pages] == [True, True, True, False, False]
    assert child_log() == 4  # the first child, and one after each of the three crashes


def test_a_crash_in_one_of_two_workers_keeps_page_order(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", "--raw", str(fixtures / "long.pdf"),
                       env={"SIFTPDF_TEST_CHILD_CRASH": "5,37"})
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    pages = _pages(out)
    assert [p["page"] for p in pages] == list(range(1, out[0]["meta"]["pages"] + 1))
    assert [p["page"] for p in pages if p.get("engine") == "pypdf"] == [5, 37]
    assert all(p["status"] == "text" for p in pages)


def test_a_child_killed_by_the_deadline_in_the_middle_of_a_line_timed_out(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", "--raw", "--deadline", "3", str(fixtures / "three_page.pdf"),
                       env={"SIFTPDF_TEST_CHILD_STALL": "2"})
    assert proc.returncode == 6
    assert proc.stderr.decode().startswith("siftpdf: pdf extraction timed out after 3 s")
    assert records(proc.stdout.decode())[-1]["error"]["code"] == "timeout"


def _text_bytes(data: bytes) -> int:
    return sum(len(r["text"].encode()) for r in runner.run_child(data) if "page" in r)


@pytest.mark.parametrize("evidence", [False, True], ids=["raw", "evidence"])
def test_the_text_cap_counts_text_whatever_comes_with_it(fixtures: Path, evidence: bool) -> None:
    data = (fixtures / "long.pdf").read_bytes()
    text = _text_bytes(data)
    under = Limits(max_text=text - 1)
    with pytest.raises(TooLargeError, match="text over"):
        list(runner.run_child(data, limits=under, job=Job(evidence=evidence)))
    over = Limits(max_text=text + 4096)  # room for the meta line, not for the evidence
    out = list(runner.run_child(data, limits=over, job=Job(evidence=evidence)))
    assert out[-1]["done"]["pages_processed"] == out[0]["meta"]["pages"]
    if evidence:
        assert all("evidence" in r for r in out if "page" in r)


def test_an_error_before_the_meta_survives_a_pipe(fixtures: Path) -> None:
    siftpdf = f"{sys.executable} -m siftpdf"
    proc = subprocess.run(f"{siftpdf} extract {fixtures / 'encrypted_user.pdf'} | {siftpdf} map",
                          shell=True, capture_output=True, timeout=120)
    assert proc.returncode == 3
    assert proc.stderr.decode().startswith("siftpdf: encrypted PDF (password required)\nhint: ")
    as_json = subprocess.run(f"{siftpdf} extract {fixtures / 'encrypted_user.pdf'} | {siftpdf} pages 1 --json",
                             shell=True, capture_output=True, timeout=120)
    assert as_json.returncode == 3
    assert json.loads(as_json.stdout)["error"]["code"] == "encrypted"


def test_a_damaged_file_whose_pages_hold_nothing_is_unreadable_not_scanned(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", str(fixtures / "damaged_empty.pdf"))
    out = records(proc.stdout.decode())
    assert out[0]["meta"]["engine"]["name"] == "repaired"  # the fixture is what it says
    assert proc.returncode == 4
    assert proc.stderr.decode() == ("siftpdf: unreadable PDF (damaged: the pages recovered from it hold neither "
                                    "text nor images)\nhint: the file is damaged or truncated: get a complete copy\n")


def test_blank_pages_say_blank_and_suggest_no_ocr(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", str(fixtures / "blank.pdf"))
    assert proc.returncode == 5
    assert proc.stderr.decode() == "siftpdf: no text (every page is blank: no text and no images)\n"
    scanned = run_siftpdf("extract", "--no-cache", "--ocr", "never", str(fixtures / "scanned.pdf"))
    assert scanned.returncode == 5 and b"hint: rerun with --ocr auto" in scanned.stderr


def test_the_installed_siftpdf_reads_no_test_variable(fixtures: Path) -> None:
    package = Path(__file__).resolve().parent.parent / "siftpdf"
    assert not [p.name for p in package.rglob("*.py") if "SIFTPDF_TEST" in p.read_text()]
    # Without the tests' seams on its path, a user's environment cannot make a child hang.
    env = {"SIFTPDF_TEST_CHILD_SLEEP": "60", "PYTHONPATH": ""}
    proc = run_siftpdf("extract", "--no-cache", "--deadline", "20", str(fixtures / "three_page.pdf"), env=env)
    assert proc.returncode == 0, proc.stderr


def test_a_diagonal_watermark_does_not_swallow_the_lines_it_crosses(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", "--set", "output.evidence=true", str(fixtures / "watermarked.pdf"))
    assert proc.returncode == 0, proc.stderr
    for page in _pages(records(proc.stdout.decode())):
        for line in WATERMARK_LINES:  # each listing line whole, its words in order
            assert line in page["text"]
        kept = page["text"] + "\n".join(f["text"] for f in page["furniture"])
        assert WATERMARK in kept
        rotated = [r for ln in page["evidence"]["lines"] for r in ln["runs"] if "angle" in r]
        assert [(r["text"], r["angle"]) for r in rotated] == [(WATERMARK, 45)]


def test_a_record_is_one_line_to_any_line_splitter() -> None:
    from siftpdf.docstream import dumps

    text = "next\x85line\u2028separator\u2029paragraph"
    line = dumps({"page": 1, "text": text, "status": "text"})
    assert len(line.splitlines()) == 1  # Python's str.splitlines breaks on all three
    assert json.loads(line)["text"] == text


def test_a_cell_next_to_a_clipped_cell_is_not_dropped_as_hidden(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", str(fixtures / "clipped_cells.pdf"))
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    text = _pages(out)[0]["text"]
    for cells in CELL_ROWS:
        for cell in cells:
            assert cell in text
    assert out[-1]["done"]["clipped_chars"] == 0


def test_the_labels_of_a_scaled_figure_are_not_dropped_as_hidden(fixtures: Path) -> None:
    """The figure's clip is in its own (form) coordinates, its labels' boxes in the page's."""
    proc = run_siftpdf("extract", "--no-cache", str(fixtures / "scaled_figure.pdf"))
    assert proc.returncode == 0, proc.stderr
    text = _pages(records(proc.stdout.decode()))[0]["text"]
    for label in FIGURE_LABELS:
        assert label[:18] in text  # the start of each label; its tail runs past the figure's edge


def test_a_running_head_half_cut_by_the_page_edge_is_read(fixtures: Path) -> None:
    proc = run_siftpdf("extract", "--no-cache", str(fixtures / "cut_head.pdf"))
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    for page in _pages(out):
        assert CUT_HEAD in page["text"] + "\n".join(f["text"] for f in page["furniture"])
    assert out[-1]["done"]["clipped_chars"] == 0


def test_a_source_that_cannot_be_read_is_named_and_grep_goes_on(fixtures: Path) -> None:
    empty = run_siftpdf("pages", "1", "")
    assert empty.returncode == 2 and empty.stderr.decode().startswith("siftpdf: an empty source name")
    proc = run_siftpdf("grep", "crimson", "/proc/self/mem", str(fixtures / "three_page.pdf"))
    assert proc.returncode == 2  # an error, as grep says one with its exit status, after the matches
    assert proc.stderr.decode() == "siftpdf: /proc/self/mem: Input/output error\n"
    assert "beta crimson harbor" in proc.stdout.decode()
