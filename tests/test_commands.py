"""sniff, extract, map, pages and grep as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import records, run_siftpdf


def stream_file(tmp_path: Path, pages: list[str], title: str = "T") -> Path:
    """A hand-written doc stream: lets a test control page text exactly."""
    meta = {"format": 1, "source": None, "sha256": "0" * 64, "bytes": 0, "pages": len(pages), "title": title,
            "outline": [], "engine": {"name": "pdfium", "version": "x"}, "max_pages": 2000}
    lines = [{"meta": meta}] + [{"page": i, "text": t, "status": "text"} for i, t in enumerate(pages, 1)]
    lines.append({"done": {"pages_processed": len(pages), "pages_failed": 0, "page_limit_reached": False,
                           "clipped_chars": 0, "unmapped_chars": 0, "elapsed_ms": 0}})
    path = tmp_path / "doc.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


# --- sniff -----------------------------------------------------------------------------------

def test_sniff(fixtures: Path, run_cli) -> None:
    result = run_cli("sniff", str(fixtures / "three_page.pdf"))
    assert (result.exit_code, result.stdout) == (0, "pdf (magic at byte 0)\n")
    result = run_cli("sniff", str(fixtures / "junk_prefix.pdf"))
    assert (result.exit_code, result.stdout) == (0, "pdf (magic at byte 26)\n")
    result = run_cli("sniff", str(fixtures / "not_a_pdf.txt"))
    assert result.exit_code == 1 and result.stdout.startswith("text")
    assert run_cli("sniff", input=b"<!DOCTYPE html><html><body>x").stdout.startswith("html")
    assert run_cli("sniff", input=b'{"a": [1, 2]}').stdout.startswith("json")
    assert run_cli("sniff", input=bytes(range(256))).stdout.startswith("binary")


# --- pages -----------------------------------------------------------------------------------

def test_three_pages_carry_markers(fixtures: Path, run_cli) -> None:
    result = run_cli("pages", "1-", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 0
    text = result.stdout
    assert text.startswith("--- page 1 ---\n\n")
    assert "\n\n--- page 2 ---\n\n" in text and "\n\n--- page 3 ---\n\n" in text
    assert text.index("alpha quantum") < text.index("--- page 2 ---") < text.index("beta crimson")
    meta = records(run_cli("extract", str(fixtures / "three_page.pdf")).stdout)[0]["meta"]
    assert meta["pages"] == 3


def test_pages_range_is_exact(fixtures: Path, run_cli) -> None:
    out = run_cli("pages", "2-3", str(fixtures / "three_page.pdf")).stdout
    assert "--- page 1 ---" not in out and "alpha" not in out
    assert "beta crimson harbor" in out and "gamma velvet mountain" in out
    out = run_cli("pages", "3,1", str(fixtures / "three_page.pdf")).stdout
    assert out.index("--- page 1 ---") < out.index("--- page 3 ---") and "--- page 2 ---" not in out
    docs = records(run_cli("pages", "2", "--json", str(fixtures / "three_page.pdf")).stdout)
    assert [d["page"] for d in docs if "page" in d] == [2]


@pytest.mark.parametrize("spec", ["0-1", "5-4", "999", "x", "2-9"])
def test_bad_ranges_are_usage_errors(spec: str, fixtures: Path, run_cli) -> None:
    result = run_cli("pages", spec, str(fixtures / "three_page.pdf"))
    assert result.exit_code == 2
    assert result.stderr.startswith("siftpdf: ")
    if spec in ("0-1", "999", "2-9"):
        assert "1–3" in result.stderr


def test_pages_cut_at_cap_says_how_to_go_on(fixtures: Path, run_cli) -> None:
    out = run_cli("pages", "1-", "--cap", "5000", str(fixtures / "long.pdf")).stdout
    assert len(out) < 5400
    assert "[cut before page" in out and "go on with: siftpdf pages" in out
    cut_at = int(out.split("[cut before page ")[1].split(":")[0])
    assert f"siftpdf pages {cut_at}-" in out
    assert f"--- page {cut_at - 1} ---" in out and f"--- page {cut_at} ---" not in out


def test_pages_at_most_100(tmp_path: Path, run_cli) -> None:
    doc = stream_file(tmp_path, [f"p{i}" for i in range(1, 151)])
    out = run_cli("pages", "1-150", str(doc)).stdout
    assert "--- page 100 ---" in out and "--- page 101 ---" not in out
    assert "go on with: siftpdf pages 101-150" in out


def test_pdf_on_stdin(fixtures: Path, run_cli) -> None:
    out = run_cli("pages", "2", input=(fixtures / "three_page.pdf").read_bytes()).stdout
    assert "beta crimson harbor" in out


# --- grep ------------------------------------------------------------------------------------

def test_grep_finds_page_two(fixtures: Path, run_cli) -> None:
    result = run_cli("grep", "crimson harbor", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 0
    assert "p. 2: The phrase here is beta crimson harbor." in result.stdout
    assert "p. 2- Page 2 of the three page test" in result.stdout  # context before
    assert run_cli("grep", "no such words", str(fixtures / "three_page.pdf")).exit_code == 1


def test_grep_pattern_limits(fixtures: Path, run_cli) -> None:
    result = run_cli("grep", "a" * 201, str(fixtures / "three_page.pdf"))
    assert result.exit_code == 2 and "200 bytes" in result.stderr
    result = run_cli("grep", "(unclosed", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 2 and "bad pattern" in result.stderr


def test_grep_is_linear_time(tmp_path: Path) -> None:
    """Page 2 makes a backtracking engine take exponential time ((a+)+$ failing at the '!'):
    grep answers anyway. A hang is the failure, caught by a generous timeout, not a timing."""
    doc = stream_file(tmp_path, ["a" * (1 << 20), "a" * (1 << 20) + "!"])
    result = run_siftpdf("grep", "(a+)+$", str(doc), timeout=120)
    assert result.returncode == 0
    assert result.stdout.startswith(b"p. 1: aaa") and b"p. 2" not in result.stdout
    assert len(result.stdout) < 1000  # a window around the match, not the megabyte


def test_grep_smart_case_and_flags(tmp_path: Path, run_cli) -> None:
    doc = str(stream_file(tmp_path, ["Alpha beta\nalpha gamma"]))
    assert run_cli("grep", "-C", "0", "alpha", doc).stdout.count("p. 1:") == 2
    assert run_cli("grep", "-C", "0", "Alpha", doc).stdout.count("p. 1:") == 1
    assert run_cli("grep", "-C", "0", "-i", "Alpha", doc).stdout.count("p. 1:") == 2
    assert run_cli("grep", "-C", "0", "-s", "alpha", doc).stdout.count("p. 1:") == 1
    assert run_cli("grep", "-C", "0", r"\Salpha", doc).exit_code == 1  # \S is not upper case


def test_grep_context_groups_max_and_pages(tmp_path: Path, run_cli) -> None:
    lines = "\n".join(["hit one", "x1", "x2", "x3", "x4", "hit two", "y"])
    doc = str(stream_file(tmp_path, [lines, "hit three"]))
    out = run_cli("grep", "hit", doc).stdout
    assert out.split("\n--\n")[0] == "p. 1: hit one\np. 1- x1"
    assert "p. 1- x4\np. 1: hit two\np. 1- y" in out
    assert out.count("--\n") == 2 and "p. 2: hit three" in out
    assert run_cli("grep", "-m", "1", "hit", doc).stdout.count(":") == 1
    assert run_cli("grep", "--pages", "2", "-C", "0", "hit", doc).stdout == "p. 2: hit three\n"


def test_grep_several_sources_prefix(fixtures: Path, tmp_path: Path, run_cli) -> None:
    doc = str(stream_file(tmp_path, ["crimson tide"]))
    pdf = str(fixtures / "three_page.pdf")
    out = run_cli("grep", "-C", "0", "crimson", pdf, doc).stdout
    assert f"{pdf}:p. 2: The phrase here is beta crimson harbor.\n" in out
    assert f"{doc}:p. 1: crimson tide\n" in out


def test_grep_error_in_one_of_several_sources(fixtures: Path, run_cli) -> None:
    result = run_cli("grep", "crimson", str(fixtures / "three_page.pdf"), str(fixtures / "not_a_pdf.txt"))
    assert result.exit_code == 2 and "p. 2:" in result.stdout and "not a PDF" in result.stderr


# --- map -------------------------------------------------------------------------------------

def test_map_of_long_document(fixtures: Path, run_cli) -> None:
    out = run_cli("map", str(fixtures / "long.pdf")).stdout
    assert len(out) <= 40_000 + 1
    head = out.splitlines()
    assert head[0] == "# A Long Report"
    assert head[1].startswith("pages 40 · ~") and head[1].endswith("tokens")
    assert "- Chapter 2 (p. 11)" in head and "  - Section 2.1 (p. 15)" in head
    assert any(line.startswith("next: siftpdf pages") and "grep" in line and "digest" in line for line in head)
    assert "--- page 1 ---" in out
    assert len(out.split("--- page 1 ---", 1)[1]) <= 10_000


def test_map_whole_when_it_fits(fixtures: Path, run_cli) -> None:
    out = run_cli("map", str(fixtures / "three_page.pdf")).stdout
    assert out.startswith("--- page 1 ---") and "--- page 3 ---" in out and "# " not in out


def test_map_says_when_page_cap_cut(fixtures: Path, run_cli) -> None:
    out = run_cli("map", "--max-pages", "2", str(fixtures / "three_page.pdf")).stdout
    assert "pages 1–2 of 3 extracted" in out


def test_map_cap_bounds_a_huge_outline(tmp_path: Path, run_cli) -> None:
    doc = stream_file(tmp_path, ["x" * 3000] * 30)
    lines = doc.read_text().splitlines()
    meta = json.loads(lines[0])
    meta["meta"]["outline"] = [{"title": f"Entry {i}", "page": 1, "level": 1} for i in range(5000)]
    lines[0] = json.dumps(meta)
    doc.write_text("\n".join(lines) + "\n")
    out = run_cli("map", "--cap", "2000", str(doc)).stdout
    assert len(out) <= 2001 and "more outline entries" in out


# --- extract and streams ---------------------------------------------------------------------

def test_extract_round_trips_through_a_stream(fixtures: Path, run_cli) -> None:
    stream = run_cli("extract", str(fixtures / "three_page.pdf")).stdout
    again = run_cli("extract", input=stream.encode()).stdout
    assert records(again)[1:] == records(stream)[1:]
    text = run_cli("extract", "--text", str(fixtures / "three_page.pdf")).stdout
    assert text == run_cli("pages", "1-", input=stream.encode()).stdout


def test_extract_cap_keeps_the_pages_that_fit_and_says_where_it_cut(fixtures: Path, run_cli) -> None:
    """--cap on extract: the text view is pages' (whole pages, a note how to go on) over the
    whole document (no 100-page limit); the doc stream keeps whole records whose lines fit
    and says in done where it was cut; without --cap, and whatever SIFTPDF_CAP says, the
    whole document."""
    long_pdf = str(fixtures / "long.pdf")
    text = run_cli("extract", "--text", "--cap", "5000", long_pdf).stdout
    cut_at = int(text.split("[cut before page ")[1].split(":")[0])
    assert text.endswith(f"[cut before page {cut_at}: --cap 5000 characters; go on with: "
                         f"siftpdf pages {cut_at}- {long_pdf}]\n")
    assert text == run_cli("pages", "1-", "--cap", "5000", long_pdf).stdout.replace(
        "at most 100 pages or --cap 5000 characters per call", "--cap 5000 characters")
    markdown = run_cli("extract", "--markdown", "--cap", "5000", long_pdf).stdout
    assert "cut before page" in markdown and len(markdown) < 5400

    whole = records(run_cli("extract", long_pdf, env={"SIFTPDF_CAP": "300"}).stdout)
    assert len([r for r in whole if "page" in r]) == 40 and "cut" not in whole[-1]["done"]
    capped = run_cli("extract", "--cap", "5000", long_pdf).stdout
    lines = capped.splitlines()
    kept = records(capped)
    pages = [r["page"] for r in kept if "page" in r]
    assert pages == list(range(1, len(pages) + 1)) and 0 < len(pages) < 40
    assert sum(len(line) + 1 for line in lines[1:-1]) <= 5000
    next_line = json.dumps(whole[len(pages) + 1], ensure_ascii=False, separators=(",", ":"))
    assert sum(len(line) + 1 for line in lines[1:-1]) + len(next_line) + 1 > 5000
    assert kept[-1]["done"]["cut"] == {"before_page": len(pages) + 1, "cap": 5000}
    assert kept[-1]["done"]["pages_processed"] == 40  # the document's diagnostics, as without the cap
    assert kept[:-1] == whole[:len(pages) + 1]


def test_extract_cap_is_a_number_of_characters(fixtures: Path, run_cli) -> None:
    result = run_cli("extract", "--cap", "10", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 2 and "--cap" in result.stderr


def test_bad_stream_line_names_its_number(tmp_path: Path, fixtures: Path, run_cli) -> None:
    stream = run_cli("extract", str(fixtures / "three_page.pdf")).stdout.splitlines()
    stream[2] = "{broken"
    result = run_cli("pages", "1-", input="\n".join(stream) + "\n")
    assert result.exit_code == 4 and "line 3" in result.stderr


def test_stdin_stream_is_read_line_by_line(fixtures: Path) -> None:
    """pages 1 answers while the writer still holds the rest of the stream back."""
    stream = run_siftpdf("extract", str(fixtures / "three_page.pdf")).stdout.splitlines(keepends=True)
    proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "pages", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"".join(stream[:3]))  # meta, page 1, page 2; no done yet
    proc.stdin.flush()
    watchdog = threading.Timer(20, proc.kill)
    watchdog.start()
    assert proc.stdout is not None
    out = proc.stdout.read()  # EOF: the command finished while its stdin is still open
    watchdog.cancel()
    assert proc.wait() == 0
    proc.stdin.close()
    assert b"alpha quantum lighthouse" in out


def test_errors_are_one_line_and_typed(fixtures: Path, run_cli) -> None:
    cases = {
        "encrypted_user.pdf": 3, "scanned.pdf": 5, "not_a_pdf.txt": 4,
    }
    for name, code in cases.items():
        result = run_cli("pages", "1", str(fixtures / name))
        assert result.exit_code == code, name
        assert result.stderr.startswith("siftpdf: ") and "Traceback" not in result.stderr
    scanned = run_cli("map", "--ocr", "never", str(fixtures / "scanned.pdf"))
    assert "hint: rerun with --ocr auto" in scanned.stderr
    missing = run_cli("map", "/nonexistent/file.pdf")
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_truncated_salvages_or_is_unreadable(fixtures: Path) -> None:
    proc = run_siftpdf("extract", str(fixtures / "truncated.pdf"))
    assert proc.returncode in (0, 4)
    assert b"Traceback" not in proc.stderr
    if proc.returncode == 4:
        assert proc.stderr.startswith(b"siftpdf: unreadable")


def test_broken_pipe_is_quiet(big_pdf: Path) -> None:
    proc = subprocess.run(f"{sys.executable} -m siftpdf extract --text --max-pages 400 {big_pdf} | head -n 2",
                          shell=True, capture_output=True, timeout=120)
    assert proc.stdout.decode().startswith("--- page 1 ---")
    assert proc.stderr == b""


def test_python_dash_m_and_help() -> None:
    proc = run_siftpdf("--help")
    assert proc.returncode == 0
    for name in ("sniff", "extract", "map", "pages", "grep"):
        assert name in proc.stdout.decode()


def test_grep_window_cuts_between_words(tmp_path: Path, run_cli) -> None:
    words = [f"w{i:03d}" for i in range(300)]
    words[150] = "needle"
    doc = stream_file(tmp_path, [" ".join(words)])
    line = run_cli("grep", "-C", "0", "needle", str(doc)).stdout.strip()
    shown = line.removeprefix("p. 1: ").strip("…").split()
    assert "needle" in shown and len(shown) < 100
    assert set(shown) <= set(words)  # no word cut in half at either end
