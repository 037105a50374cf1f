"""The flags grep and pdfgrep users type, as `siftpdf grep` answers them: on hand-written doc
streams (exact text), on PDFs in a folder (-r), and on a cache miss and the cache hit after
it (the console's fast path, siftpdf.console.cache_hits, must write what the click command writes)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import records, run_siftpdf
from test_commands import stream_file
from test_fast_paths import _run

from siftpdf.console import cache_hits
from siftpdf.docstream import schema

PAGES = [
    "alpha one\nbeta two\nalpha three",
    "un café noir\ncafés chauds\nle_café x\nnaïve café",
    "price 1.5 (net)\nprice 105 net\nend",
]


@pytest.fixture
def doc(tmp_path: Path) -> str:
    return str(stream_file(tmp_path, PAGES))


@pytest.fixture
def other(tmp_path: Path) -> str:
    folder = tmp_path / "other"
    folder.mkdir()
    return str(stream_file(folder, ["alpha four\nalpha five\nalpha six\nomega"]))


def _valid(text: str) -> list[dict]:
    found = records(text)
    for record in found:
        jsonschema.Draft202012Validator(schema()).validate(record)
    return found


# --- what is selected -------------------------------------------------------------------------

def test_word_regexp_knows_words_of_any_script(run_cli, doc: str) -> None:
    result = run_cli("grep", "-w", "-C", "0", "café", doc)
    # not 'cafés' (s is a letter), not 'le_café' (_ is a word character), as grep -w
    assert result.stdout == "p. 2: un café noir\np. 2: naïve café\n"
    assert run_cli("grep", "-w", "caf", doc).exit_code == 1  # é ends no word (RE2's \b would say it does)
    assert run_cli("grep", "-w", "-C", "0", "-o", "alpha|one", doc).stdout == "p. 1: alpha\np. 1: one\np. 1: alpha\n"


def test_line_regexp_and_fixed_strings(run_cli, doc: str) -> None:
    assert run_cli("grep", "-x", "-C", "0", "end", doc).stdout == "p. 3: end\n"
    assert run_cli("grep", "-x", "en", doc).exit_code == 1
    assert run_cli("grep", "-F", "-C", "0", "1.5 (net)", doc).stdout == "p. 3: price 1.5 (net)\n"
    assert run_cli("grep", "-C", "0", "1.5", doc).stdout == "p. 3: price 1.5 (net)\np. 3: price 105 net\n"
    assert run_cli("grep", "-F", "(", doc).exit_code == 0  # not a bad pattern: a string


def test_several_patterns_from_e_and_f(run_cli, doc: str, tmp_path: Path) -> None:
    result = run_cli("grep", "-C", "0", "-e", "beta", "-e", "end", doc)
    assert result.stdout == "p. 1: beta two\np. 3: end\n"
    patterns = tmp_path / "patterns.txt"
    patterns.write_text("beta\nnoir\n")
    assert run_cli("grep", "-c", "-f", str(patterns), "-e", "end", doc).stdout == "3\n"
    assert run_cli("grep", "-C", "0", "beta\nend", doc).stdout == "p. 1: beta two\np. 3: end\n"  # lines of one
    assert run_cli("grep", "-e", "-one", doc).exit_code == 1  # a pattern that starts with '-'
    empty = tmp_path / "none.txt"
    empty.write_text("")
    assert run_cli("grep", "-f", str(empty), doc).exit_code == 1  # no pattern matches nothing
    assert run_cli("grep", "-c", "-v", "-f", str(empty), doc).stdout == "10\n"
    missing = run_cli("grep", "-f", str(tmp_path / "absent"), doc)
    assert missing.exit_code == 2 and "absent: No such file" in missing.stderr
    upper = run_cli("grep", "-c", "-e", "alpha", "-e", "Beta", doc)  # smart case over all patterns
    assert upper.stdout == "2\n"


def test_invert_match_selects_the_other_lines(run_cli, doc: str) -> None:
    assert run_cli("grep", "-v", "-C", "0", "--pages", "1", "alpha", doc).stdout == "p. 1: beta two\n"
    assert run_cli("grep", "-vc", "a", doc).stdout == "3\n"  # the lines of page 3
    assert run_cli("grep", "-v", ".", doc).exit_code == 1  # every line has a character


def test_v_is_invert_and_verbose_is_spelled_out(run_cli, doc: str, fixtures: Path) -> None:
    assert "beta two" in run_cli("grep", "-v", "-C", "0", "alpha", doc).stdout
    result = run_cli("grep", "--verbose", "crimson", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 0 and "siftpdf: pdf outcome=ok pages=3" in result.stderr
    for command in (["pages", "1"], ["map"], ["extract"]):
        refused = run_cli(*command, "-v", doc)
        assert refused.exit_code == 2 and "no such option: -v" in refused.stderr


def test_context_after_and_before(run_cli, tmp_path: Path) -> None:
    doc = str(stream_file(tmp_path, ["a\nb\nhit\nc\nd\ne"]))
    assert run_cli("grep", "-A", "2", "-B", "0", "hit", doc).stdout == "p. 1: hit\np. 1- c\np. 1- d\n"
    assert run_cli("grep", "-B", "2", "-C", "0", "hit", doc).stdout == "p. 1- a\np. 1- b\np. 1: hit\n"
    assert run_cli("grep", "-A", "1", "hit", doc).stdout == "p. 1- b\np. 1: hit\np. 1- c\n"  # -B stays -C 1


# --- what is printed --------------------------------------------------------------------------

def test_count_per_source_and_per_page(run_cli, doc: str, other: str) -> None:
    assert run_cli("grep", "-c", "alpha", doc).stdout == "2\n"
    assert run_cli("grep", "-c", "alpha", doc, other).stdout == f"{doc}:2\n{other}:3\n"
    assert run_cli("grep", "-c", "-m", "2", "alpha", doc, other).stdout == f"{doc}:2\n{other}:2\n"
    assert run_cli("grep", "-c", "zzz", doc).stdout == "0\n"
    assert run_cli("grep", "-c", "zzz", doc).exit_code == 1
    assert run_cli("grep", "-p", "a", doc).stdout == "p. 1: 3\np. 2: 4\n"  # pages with none are left out
    found = _valid(run_cli("grep", "-c", "--json", "alpha|café", doc, other).stdout)
    assert found == [
        {"count": {"source": doc, "page": 1, "lines": 2}}, {"count": {"source": doc, "page": 2, "lines": 4}},
        {"count": {"source": doc, "lines": 6}},
        {"count": {"source": other, "page": 1, "lines": 3}}, {"count": {"source": other, "lines": 3}}]


def test_files_with_and_without_match_and_their_exit_status(run_cli, doc: str, other: str) -> None:
    assert run_cli("grep", "-l", "omega", doc, other).stdout == f"{other}\n"
    without = run_cli("grep", "-L", "omega", doc, other)
    assert (without.exit_code, without.stdout) == (0, f"{doc}\n")  # a line was selected (in other)
    nowhere = run_cli("grep", "-L", "zzz", doc, other)
    assert (nowhere.exit_code, nowhere.stdout) == (1, f"{doc}\n{other}\n")  # as GNU grep 3.5 and later
    assert run_cli("grep", "-lZ", "alpha", doc, other).stdout == f"{doc}\0{other}\0"
    assert _valid(run_cli("grep", "-L", "--json", "omega", doc, other).stdout) == [
        {"file": {"source": doc, "matched": False}}]


def test_only_matching(run_cli, doc: str) -> None:
    assert run_cli("grep", "-o", "caf[ée]s?", doc).stdout == "p. 2: café\np. 2: cafés\np. 2: café\np. 2: café\n"
    assert run_cli("grep", "-o", "-v", "alpha", doc).stdout == ""  # as grep: nothing, but lines were selected
    assert run_cli("grep", "-o", "-v", "alpha", doc).exit_code == 0
    found = _valid(run_cli("grep", "-o", "--json", r"\d+", doc).stdout)
    assert [(r["match"]["page"], r["match"]["line"], r["match"]["text"]) for r in found] == [
        (3, 1, "1"), (3, 1, "5"), (3, 2, "105")]


def test_file_names_nul_and_separator(run_cli, doc: str, other: str) -> None:
    assert run_cli("grep", "-H", "-C", "0", "beta", doc).stdout == f"{doc}:p. 1: beta two\n"
    assert run_cli("grep", "-h", "-C", "0", "beta|omega", doc, other).stdout == "p. 1: beta two\np. 1: omega\n"
    assert run_cli("grep", "-Z", "-C", "0", "omega", doc, other).stdout == f"{other}\0p. 1: omega\n"
    assert run_cli("grep", "--match-prefix-separator", " | ", "-C", "0", "omega", doc, other).stdout == (
        f"{other} | p. 1: omega\n")
    assert run_cli("grep", "-n", "-C", "0", "beta", doc).stdout == "p. 1: beta two\n"  # pages are always shown
    alone = run_cli("grep", "-h")  # grep's -h, not help: the pattern is missing
    assert alone.exit_code == 2 and "missing argument PATTERN" in alone.stderr


def test_max_count_is_per_source(run_cli, doc: str, other: str) -> None:
    out = run_cli("grep", "-m", "1", "-C", "0", "alpha", doc, other).stdout
    assert out == f"{doc}:p. 1: alpha one\n{other}:p. 1: alpha four\n"


def test_quiet_prints_nothing_and_stops_at_the_first_match(run_cli, doc: str, other: str, tmp_path: Path) -> None:
    assert (run_cli("grep", "-q", "alpha", doc).exit_code, run_cli("grep", "-q", "alpha", doc).stdout) == (0, "")
    assert run_cli("grep", "-q", "zzz", doc).exit_code == 1
    missing = str(tmp_path / "absent.pdf")
    after = run_cli("grep", "-q", "alpha", doc, missing)
    assert (after.exit_code, after.stdout, after.stderr) == (0, "", "")  # stopped before the missing one
    before = run_cli("grep", "-q", "alpha", missing, doc)
    assert (before.exit_code, before.stdout) == (0, "") and "absent.pdf" in before.stderr  # grep: 0 all the same
    assert run_cli("grep", "alpha", missing, doc).exit_code == 2
    quiet = run_cli("grep", "--no-messages", "alpha", missing, doc)
    assert (quiet.exit_code, quiet.stderr) == (2, "")


def test_color(run_cli, doc: str, other: str) -> None:
    result = run_cli("grep", "--color=always", "-C", "0", "beta", doc, other)
    assert result.stdout == (f"\x1b[35m\x1b[K{doc}\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K"
                             "\x1b[32m\x1b[Kp. 1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K "
                             "\x1b[01;31m\x1b[Kbeta\x1b[m\x1b[K two\n")
    for args in (["--color", "never"], ["--color=auto"], []):  # auto: not on a pipe
        assert "\x1b" not in run_cli("grep", *args, "beta", doc).stdout


def test_pcre_is_refused_and_pdfgrep_spellings_accepted(run_cli, doc: str) -> None:
    result = run_cli("grep", "-P", "a(?=b)", doc)
    assert result.exit_code == 2 and "RE2" in result.stderr
    plain = run_cli("grep", "alpha", doc).stdout
    for extra in (["-E"], ["--cache"], ["--warn-empty"], ["--page-number"], ["--line-number"]):
        assert run_cli("grep", *extra, "alpha", doc).stdout == plain, extra
    assert run_cli("grep", "--page-range", "3", "-C", "0", "end", doc).stdout == "p. 3: end\n"


# --- -r: a folder ------------------------------------------------------------------------------

@pytest.fixture
def folder(tmp_path: Path, fixtures: Path) -> Path:
    """PDFs (one named like no PDF), a doc stream, a text file named .pdf, a folder in a
    folder and a link to a PDF outside."""
    root = tmp_path / "library"
    (root / "sub" / "deeper").mkdir(parents=True)
    shutil.copy(fixtures / "three_page.pdf", root / "a.pdf")
    shutil.copy(fixtures / "three_page.pdf", root / "sub" / "scan0001")
    shutil.copy(fixtures / "not_a_pdf.txt", root / "notes.pdf")
    stream_file(root / "sub" / "deeper", ["crimson in a stream"])  # doc.jsonl
    (root / "readme.txt").write_text("crimson, but not a document\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(fixtures / "three_page.pdf", outside / "linked.pdf")
    (root / "link.pdf").symlink_to(outside / "linked.pdf")
    return root


def test_recursive_searches_the_documents_found_by_their_bytes(run_cli, folder: Path) -> None:
    result = run_cli("grep", "-r", "-C", "0", "crimson", str(folder))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (f"{folder}/a.pdf:p. 2: The phrase here is beta crimson harbor.\n"
                             f"{folder}/sub/deeper/doc.jsonl:p. 1: crimson in a stream\n"
                             f"{folder}/sub/scan0001:p. 2: The phrase here is beta crimson harbor.\n")
    assert result.stderr == ""  # the text files are passed over, not errors
    linked = run_cli("grep", "-R", "-l", "crimson", str(folder)).stdout.splitlines()
    assert linked == [f"{folder}/{name}" for name in ("a.pdf", "link.pdf", "sub/deeper/doc.jsonl", "sub/scan0001")]
    assert run_cli("grep", "-rc", "--include", "*.pdf", "crimson", str(folder)).stdout == f"{folder}/a.pdf:1\n"
    assert run_cli("grep", "-rl", "--exclude", "*.pdf", "--exclude-dir", "deeper", "crimson",
                   str(folder)).stdout == f"{folder}/sub/scan0001\n"


def test_recursive_without_a_source_is_this_folder(run_cli, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder / "sub")
    assert run_cli("grep", "-rl", "crimson").stdout == "deeper/doc.jsonl\nscan0001\n"


def test_a_folder_without_recursive_is_an_error(run_cli, folder: Path, doc: str) -> None:
    result = run_cli("grep", "alpha", str(folder), doc)
    assert result.exit_code == 2 and f"{folder}: is a directory" in result.stderr
    assert f"{doc}:p. 1: alpha one" in result.stdout


# --- a cache miss, then the hit (siftpdf.console.cache_hits) -------------------------------------------------

MISS_THEN_HIT = [
    ("-c the {three}", 0, "9\n"),
    ("-c zzz {three}", 1, "0\n"),
    ("-p -i PAGE {three}", 0, "p. 1: 1\np. 2: 1\np. 3: 1\n"),
    ("-l velvet {three}", 0, "{three}\n"),
    ("-L velvet {three}", 0, ""),
    ("-L zzz {three}", 1, "{three}\n"),
    ("-q crimson {three}", 0, ""),
    ("-w -C 0 -o th[a-z]+ --pages 1 {three}", 0, None),
    ("-x -C 0 -i page.2.of.the.three.page.test {three}", 0, "p. 2: Page 2 of the three page test\n"),
    ("-F -C 0 beta.crimson {three}", 1, ""),
    ("-e quantum -e velvet -C 0 {three}", 0, None),
    ("-v -C 0 --pages 2 the {three}", 1, ""),
    ("-v -c quick {three}", 0, "6\n"),
    ("-A 1 -B 0 crimson {three}", 0, None),
    ("-H -Z -C 0 crimson {three}", 0, "{three}\0p. 2: The phrase here is beta crimson harbor.\n"),
    ("-h -n crimson {three}", 0, None),
    ("--json -c the {three}", 0, None),
    ("--json -o crimson {three}", 0, None),
    ("--silent -m 1 the {three}", 0, ""),
    ("--page-range 3 velvet {three}", 0, None),
]


@pytest.mark.parametrize(("line", "code", "expected"), MISS_THEN_HIT)
def test_a_flag_means_the_same_on_a_miss_and_on_the_hit(tmp_path: Path, fixtures: Path, line: str, code: int,
                                                        expected: str | None) -> None:
    three = tmp_path / "three.pdf"
    shutil.copy(fixtures / "three_page.pdf", three)
    args = ["grep", *(word.format(three=three) for word in line.split())]
    miss = _run(args)
    hit = _run(args)
    assert miss[3] and not hit[3]  # the miss runs the command, the hit is the fast path's
    assert miss[:3] == hit[:3]
    assert hit[0] == code
    if expected is not None:
        assert hit[1].decode() == expected.format(three=three)


@pytest.mark.parametrize("line", ["-r crimson {folder}", "-f {patterns} {three}", "--color=always crimson {three}",
                                  "--no-messages crimson {three}", "-lc crimson {three}"])
def test_what_the_fast_path_does_not_answer_runs_the_command(tmp_path: Path, fixtures: Path, line: str) -> None:
    three = tmp_path / "three.pdf"
    shutil.copy(fixtures / "three_page.pdf", three)
    patterns = tmp_path / "patterns"
    patterns.write_text("crimson\n")
    assert run_siftpdf("extract", str(three)).returncode == 0
    args = ["grep", *(word.format(three=three, folder=tmp_path, patterns=patterns) for word in line.split())]
    code, out, err, clicked = _run(args)
    assert clicked and code == 0
    if "-lc" in line:  # -l wins: the file's name
        assert out == f"{three}\n".encode()
    else:
        assert b"crimson" in out and b"p. 2" in out
    assert _run(args, via_click=True)[:3] == (code, out, err)


def test_the_fast_path_reads_repeated_e() -> None:
    assert cache_hits.parse(["grep", "-e", "a", "--regexp=b", "-c", "f"]) == (
        "grep", ["f"], {"regexps": ["a", "b"], "count": True})


def test_the_exit_status_of_a_real_process(tmp_path: Path, fixtures: Path) -> None:
    three = str(fixtures / "three_page.pdf")
    stream = str(stream_file(tmp_path, ["nothing here"]))
    assert run_siftpdf("grep", "-L", "crimson", three, stream).returncode == 0
    assert run_siftpdf("grep", "-l", "zzz", three, stream).returncode == 1
    done = run_siftpdf("grep", "-c", "--json", "crimson", three, stream)
    assert done.returncode == 0
    assert [json.loads(line)["count"]["lines"] for line in done.stdout.decode().splitlines()] == [1, 1, 0]


def test_grep_finds_what_a_running_footer_prints(run_cli, tmp_path: Path) -> None:
    """A URL and an identifier in a running footer are set aside from the article, yet grep
    finds them on every page as pdfgrep does, and says in --json that the line is furniture."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = tmp_path / "footer.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    for page in range(4):
        c.setFont("Helvetica", 10)
        for k in range(30):
            c.drawString(72, 740 - 18 * k, f"Line {k} of page {page + 1} says what the gauges read this week.")
        c.setFont("Helvetica", 8)
        c.drawString(72, 40, "Report draft_v2 at https://example.org/report_v2")
        c.drawString(500, 40, str(page + 1))
        c.showPage()
    c.save()
    body = run_cli("extract", "--in-process", "--text", str(path))
    assert "draft_v2" not in body.output  # furniture: not in the article
    found = run_cli("grep", "--in-process", "-c", "draft_v2", str(path))
    assert found.exit_code == 0 and found.output.strip() == "4"
    matches = [r["match"] for r in _valid(run_cli("grep", "--in-process", "--json", "draft_v2|gauges read",
                                                  str(path)).output) if "match" in r]
    assert {m["page"] for m in matches if m.get("furniture")} == {1, 2, 3, 4}
    assert any("gauges read" in m["text"] and "furniture" not in m for m in matches)
