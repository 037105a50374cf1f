"""The console's fast paths: a cache hit of pages or grep answered without click
(siftpdf.console.cache_hits), and --help from the generated text (siftpdf.console.helptext). Each must write what
the click command writes, byte for byte, with its exit status; anything else goes to click."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_siftpdf

from siftpdf.cli import COMMANDS
from siftpdf.console import cache_hits
from siftpdf.console.helptext import HELP

CLICK = "import sys; sys.argv[0] = 'siftpdf'; from siftpdf.commands.group import main; main()"


def _run(args: list[str], env: dict[str, str] | None = None, via_click: bool = False) -> tuple[int, bytes, bytes, bool]:
    """Exit status, stdout, stderr, and whether click was imported."""
    full = dict(os.environ, PYTHONPROFILEIMPORTTIME="1", **(env or {}))
    argv = [sys.executable, "-c", CLICK, *args] if via_click else [sys.executable, "-m", "siftpdf", *args]
    done = subprocess.run(argv, capture_output=True, env=full, timeout=120)
    lines = done.stderr.decode().splitlines()
    clicked = any(line.startswith("import time:") and line.split("|")[-1].strip() == "click" for line in lines)
    err = "\n".join(line for line in lines if not line.startswith("import time:")).encode()
    return done.returncode, done.stdout, err, clicked


@pytest.fixture
def cached(fixtures: Path, tmp_path: Path) -> tuple[Path, Path]:
    """Two documents in the cache: the three-page fixture and a longer one (a copy, so that a
    test may change it)."""
    three = tmp_path / "three.pdf"
    shutil.copy(fixtures / "three_page.pdf", three)
    long = tmp_path / "long.pdf"
    shutil.copy(fixtures / "long.pdf", long)
    for path in (three, long):
        assert run_siftpdf("extract", str(path)).returncode == 0
    return three, long


ANSWERED = [
    "pages 2 {three}",
    "pages 1-3 {three}",
    "pages -q 1,3 {three}",
    "pages 1 --json {three}",
    "pages 2- --cap 300 {long}",
    "pages --cap=250 1 {long}",
    "pages 3 --text {three}",
    "pages 1- -q {long}",
    "grep velvet {three}",
    "grep -i VELVET {three}",
    "grep -s Velvet {three}",
    "grep -C 0 -m 1 a {long}",
    "grep --json e {long}",
    "grep --pages 2-3 a {three}",
    "grep zzzqqq {three}",
    "grep --cap 200 e {long}",
    "grep --context=3 --max-count=4 the {long}",
    "grep -m 2 --ignore-case -s The {long}",
    "grep --max-pages 2000 -i the {three}",
    "pages 2 --wait 5 {three}",
    "grep --wait=0.5 velvet {three}",
    "pages 2 --ocr auto {three}",  # the default in force (an engine is installed: make test)
    "grep --ocr=auto velvet {three}",
    "pages 2 --workers 4 {three}",  # a hit starts no child: only checked
    "grep --workers=64 velvet {three}",
]
DECLINED = [
    "pages x {three}",
    "pages 2 --cap 100 {three}",
    "pages 2 --text --json {three}",
    "pages 2 --set organize.clip=false {three}",
    "grep ( {three}",
    "grep -m5 a {three}",
    "grep -iC0 a {three}",
    "grep a {three} {long}",
    "grep --pages 9 a {three}",
    "grep -m 0 a {three}",
    "grep -- -a {three}",
    "pages 1 --max-pages 0 {three}",
    "pages 2 --wait x {three}",
    "pages 2 --wait -1 {three}",
    "grep --wait 1e3 velvet {three}",
    "pages 2 --ocr sometimes {three}",
    "pages 2 --ocr Auto {three}",
    "pages 2 --workers 0 {three}",
    "pages 2 --workers 65 {three}",
    "grep --workers two velvet {three}",
]


def _args(line: str, paths: tuple[Path, Path]) -> list[str]:
    return [word.format(three=paths[0], long=paths[1]) for word in line.split()]


@pytest.mark.parametrize("line", ANSWERED)
def test_the_fast_path_writes_what_the_command_writes(cached: tuple[Path, Path], line: str) -> None:
    args = _args(line, cached)
    fast = _run(args)
    slow = _run(args, via_click=True)
    assert not fast[3] and slow[3]  # answered without click, and the other way with it
    assert fast[:3] == slow[:3]


@pytest.mark.parametrize("line", DECLINED)
def test_what_the_fast_path_does_not_answer_goes_to_click(cached: tuple[Path, Path], line: str) -> None:
    args = _args(line, cached)
    fast = _run(args)
    assert fast[3]
    assert fast[:3] == _run(args, via_click=True)[:3]


@pytest.mark.parametrize("env", [{"SIFTPDF_CAP": "300"}, {"SIFTPDF_FORMAT": "json"}, {"SIFTPDF_FORMAT": " Text "},
                                 {"SIFTPDF_WAIT": "30"}, {"SIFTPDF_WAIT": "soon"},
                                 {"SIFTPDF_CAP": ""}, {"SIFTPDF_FORMAT": "bogus"}, {"SIFTPDF_CAP": "12"},
                                 {"SIFTPDF_PASSWORD": "x"}, {"SIFTPDF_CACHE_SIZE": "nonsense"},
                                 {"SIFTPDF_FORMAT": "markdown"}, {"SIFTPDF_OCR": "auto"},
                                 {"SIFTPDF_OCR": "never"}, {"SIFTPDF_OCR": "bogus"},
                                 {"SIFTPDF_WORKERS": "8"}, {"SIFTPDF_WORKERS": "0"}])
def test_environment_variables_are_read_as_click_reads_them(cached: tuple[Path, Path], env: dict[str, str]) -> None:
    args = ["pages", "1-3", str(cached[0])]
    assert _run(args, env)[:3] == _run(args, env, via_click=True)[:3]


def test_a_changed_file_is_not_served_from_its_old_entry(cached: tuple[Path, Path]) -> None:
    three, long = cached
    shutil.copy(long, three)
    args = ["pages", "1", str(three)]
    assert _run(args)[1] == _run(["pages", "1", str(long)])[1]
    assert not _run(args)[3]  # known again, now as the other document


def test_a_reader_that_goes_away_is_no_error(cached: tuple[Path, Path]) -> None:
    reader = subprocess.Popen([sys.executable, "-m", "siftpdf", "grep", "-m", "1000", "e", str(cached[1])],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.read(10)
    reader.stdout.close()
    assert reader.wait(timeout=60) == 0
    assert reader.stderr.read() == b""


def test_the_parser_reads_click_spellings_and_declines_the_rest() -> None:
    assert cache_hits.parse(["grep", "-i", "x", "--max-count=3", "f", "-C", "2"]) == (
        "grep", ["x", "f"], {"case": "ignore", "max_count": "3", "context": "2"})
    assert cache_hits.parse(["pages", "1", "f", "--cap", "500", "--cap", "600"]) == (
        "pages", ["1", "f"], {"cap": "600"})
    for args in (["grep", "-iq", "x", "f"], ["grep", "x", "f", "--"], ["pages", "1", "f", "--cap"],
                 ["pages", "1", "f", "--json=1"], ["extract", "f"], [], ["--debug", "pages", "1", "f"]):
        assert cache_hits.parse(args) is None, args


def test_the_commands_name_the_options_the_fast_path_answers() -> None:
    from siftpdf.commands.actions import read_options
    from siftpdf.extras import default_ocr, ocr_installed
    from siftpdf.store.local_reader import options_name

    def name(max_pages: int, **changed: object) -> str | None:
        return read_options({"max_pages": max_pages, **changed}, quiet=True)[0].extraction.name()

    in_force = default_ocr()
    assert name(7) == options_name(7, in_force) != name(8)
    assert name(7, ocr="never") == options_name(7, "never") != options_name(7, "auto")
    if ocr_installed():
        assert name(7, ocr="auto") == options_name(7, "auto") == name(7)
    # Options the fast path does not answer are not named: a hit for them goes through click.
    assert name(7, raw=True) is None and name(7, settings=("organize.clip=false",)) is None
    # How many children read a document (and how long, in how much memory) does not change what
    # it reads to; a setting given at its default neither.
    assert name(7, workers=5) == name(7, deadline=9.0, memory_limit=100) == name(7)
    assert name(7, settings=("organize.clip=true",)) == name(7)


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_the_stored_help_is_what_click_prints(name: str) -> None:
    args = [name, "--help"] if name else ["--help"]
    for columns in ("", "80", "132"):  # unset: not a terminal, which click takes as 80 columns
        assert _run(args, {"COLUMNS": columns}, via_click=True)[:3] == (0, HELP[name].encode(), b"")


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["grep", "--help"], ["cache", "-h"]])
def test_help_is_answered_without_click_on_a_wide_terminal(args: list[str]) -> None:
    code, out, err, clicked = _run(args, {"COLUMNS": "100"})
    assert (code, err, clicked) == (0, b"", False)
    assert out.decode() == HELP[args[0] if len(args) == 2 else ""]
    narrow = _run(args, {"COLUMNS": "60"})
    assert narrow[3] and narrow[:3] == _run(args, {"COLUMNS": "60"}, via_click=True)[:3]


def test_a_pipe_is_left_to_the_command_unopened(cached: tuple[Path, Path], tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    data = cached[0].read_bytes()

    def write() -> None:
        with open(fifo, "wb") as writer:  # waits for the one reader: the command's own open
            writer.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        code, out, err, clicked = _run(["pages", "2", str(fifo)])
    finally:
        writer.join(timeout=60)
    assert (code, err) == (0, b"") and clicked
    assert out == _run(["pages", "2", str(cached[0])])[1]


def test_a_damaged_cache_is_reported_by_the_command(cached: tuple[Path, Path], own_cache: Path) -> None:
    (own_cache / "docs" / "cache.db").write_bytes(b"not a database" * 100)
    for name in ("cache.db-wal", "cache.db-shm"):
        (own_cache / "docs" / name).unlink(missing_ok=True)
    args = ["pages", "2", str(cached[0])]
    fast = _run(args)
    assert fast[0] != 0
    assert fast[:3] == _run(args, via_click=True)[:3]  # (the same report, though the fast path imports no click)


# -- the cold path (siftpdf.console.local_pdf): extract, pages and map of one local PDF, without click -------

COLD = "siftpdf.commands.options"  # the click commands' options: imported by click's way only
COLD_ANSWERED = [
    "extract --no-cache {three}",
    "extract --no-cache --text {three}",
    "extract --no-cache --markdown -q {long}",
    "extract --no-cache --wait 30 {three}",
    "extract --no-cache --cap 2000 {long}",
    "extract --no-cache --text --cap=2000 {long}",
    "extract --cap 2000 --markdown {long}",
    "pages 2 --wait=0.5 {three}",
    "map --no-cache --wait 0 {three}",
    "extract --no-cache --max-pages 2 {long}",
    "extract --no-cache --raw {three}",
    "extract --raw --text {long}",
    "pages --no-cache --raw 2-3 {three}",
    "map --raw --no-cache {long}",
    "extract --json --no-cache --max-pages=1 {three}",
    "extract {three}",
    "extract --markdown --quiet {long}",
    "pages --no-cache 2 {three}",
    "pages --no-cache 2-3 --json {three}",
    "pages --no-cache 1- --cap 300 {long}",
    "pages --no-cache 9 {three}",
    "pages 2 --markdown {three}",
    "pages 1,3 {three}",
    "pages 9 {three}",
    "map --no-cache {three}",
    "map --no-cache --json {long}",
    "map --no-cache --markdown --cap 500 {long}",
    "map {three}",
    "map --text --max-pages 1 {long}",
    "extract --no-cache {encrypted}",
    "extract --no-cache --json {encrypted}",
    "pages --no-cache --json 1 {encrypted}",
    "map {encrypted}",
    "extract --no-cache {scanned}",
    "extract --no-cache --json {scanned}",
    "extract {scanned}",
    "extract --no-cache --ocr never {scanned}",
    "extract --no-cache --ocr=always --raw {three}",
    "map --ocr never {long}",
    "pages 1 --text {garbled}",
    "extract --no-cache {truncated}",
    "extract --no-cache --json {damaged}",
    "map --no-cache {damaged}",
    "extract {damaged}",
    "extract --no-cache --markdown {blank}",
    "extract --no-cache {junk}",
    "extract --no-cache --workers 1 {long}",
    "map --workers=3 {long}",
]
COLD_DECLINED = [
    "extract --no-cache --raw --set organize.clip=false {three}",
    "extract --no-cache --set organize.furniture=false {three}",
    "extract --no-cache --password x {encrypted}",
    "extract --no-cache --deadline 5 {three}",
    "extract --no-cache --text --json {three}",
    "extract --no-cache --max-pages 0 {three}",
    "extract --no-cache --max-pages=+2 {three}",
    "extract --no-cache {three} {long}",
    "extract --no-cache {text}",
    "extract --no-cache {missing}",
    "extract --no-cache -",
    "extract --no-cache http://127.0.0.1:9/x.pdf",
    "extract --no-cache --in-process {three}",
    "--debug extract --no-cache {three}",
    "extract --no-cache -- {three}",
    "map --no-cache --cap 100 {three}",
    "extract --no-cache --cap 100 {three}",
    "extract --no-cache --wait 1e3 {three}",
    "extract --no-cache --wait -1 {three}",
    "pages --no-cache x {three}",
    "pages --no-cache {three}",
    "extract --nope {three}",
    "extract --no-cache --cache-dir {text} {three}",
    "map --cache-dir={three} {three}",
    "extract --no-cache --ocr sometimes {three}",
    "extract --no-cache --workers 0 {three}",
    "map --workers 65 {three}",
    "map --workers 1_0 {three}",
]


def _cold_args(line: str, fixtures: Path, tmp_path: Path) -> list[str]:
    names = {"three": fixtures / "three_page.pdf", "long": fixtures / "long.pdf",
             "encrypted": fixtures / "encrypted_user.pdf", "scanned": fixtures / "scanned.pdf",
             "garbled": fixtures / "garbled_scan.pdf", "truncated": fixtures / "truncated.pdf",
             "damaged": fixtures / "damaged_empty.pdf", "blank": fixtures / "blank.pdf",
             "junk": fixtures / "junk_prefix.pdf", "text": fixtures / "not_a_pdf.txt",
             "missing": tmp_path / "missing.pdf"}
    return [word.format(**names) for word in line.split()]


def _cold_run(args: list[str], cache: Path, via_click: bool = False) -> tuple[int, bytes, bytes, bool]:
    """As _run, in a cache of its own; the last item: whether the click commands' options were
    imported. A doc stream's elapsed_ms is the one thing two runs may not share."""
    full = dict(os.environ, PYTHONPROFILEIMPORTTIME="1", SIFTPDF_CACHE_DIR=str(cache))
    argv = [sys.executable, "-c", CLICK, *args] if via_click else [sys.executable, "-m", "siftpdf", *args]
    done = subprocess.run(argv, capture_output=True, env=full, timeout=120)
    lines = done.stderr.decode().splitlines()
    optioned = any(line.startswith("import time:") and line.split("|")[-1].strip() == COLD for line in lines)
    err = "\n".join(line for line in lines if not line.startswith("import time:")).encode()
    import re

    out = re.sub(rb'"elapsed_ms":\d+', b'"elapsed_ms":0', done.stdout)
    return done.returncode, out, err, optioned


@pytest.mark.parametrize("line", COLD_ANSWERED)
def test_the_cold_path_writes_what_the_command_writes(fixtures: Path, tmp_path: Path, line: str) -> None:
    args = _cold_args(line, fixtures, tmp_path)
    fast = _cold_run(args, tmp_path / "fast")
    slow = _cold_run(args, tmp_path / "slow", via_click=True)
    assert not fast[3] and slow[3]  # answered without the click commands, and the other way with them
    assert fast[:3] == slow[:3]
    if "--no-cache" not in args:  # once more, from the cache each first run filled
        again = _cold_run(args, tmp_path / "fast")
        assert not again[3] and again[:3] == _cold_run(args, tmp_path / "slow", via_click=True)[:3]


HEAVY = {"typing", "dataclasses", "inspect", "ast", "click"}  # what the cold path is there to spare


@pytest.mark.parametrize("line", ["extract --no-cache {three}", "extract --no-cache --raw --markdown {long}",
                                  "pages --no-cache 2 {three}", "map --no-cache {long}", "extract {three}"])
def test_a_cold_command_imports_none_of_the_heavy_modules(fixtures: Path, tmp_path: Path, line: str) -> None:
    """The parent of a cold command (the child has its own test in test_docline): neither
    typing, dataclasses (with inspect and ast) nor click; nor pathlib without the cache."""
    args = _cold_args(line, fixtures, tmp_path)
    # As a user runs it: without the test seams on PYTHONPATH (their sitecustomize imports what
    # a user's start does not), the cache in the platform's place (here under tmp_path).
    full = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "SIFTPDF_CACHE_DIR")}
    full.update(PYTHONPROFILEIMPORTTIME="1", XDG_CACHE_HOME=str(tmp_path / "xdg"))
    done = subprocess.run([sys.executable, "-m", "siftpdf", *args], capture_output=True, env=full, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "xdg" / "siftpdf").is_dir()
    loaded = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
              if line.startswith("import time:")}
    # platformdirs, which finds the cache folder off Linux, imports pathlib.
    heavy = HEAVY | ({"pathlib"} if "--no-cache" in args and sys.platform.startswith("linux") else set())
    assert not loaded & heavy, sorted(loaded & heavy)


@pytest.mark.parametrize("line", COLD_DECLINED)
def test_what_the_cold_path_does_not_answer_goes_to_click(fixtures: Path, tmp_path: Path, line: str) -> None:
    args = _cold_args(line, fixtures, tmp_path)
    fast = _cold_run(args, tmp_path / "fast")
    assert fast[3]
    assert fast[:3] == _cold_run(args, tmp_path / "slow", via_click=True)[:3]


@pytest.mark.parametrize(("env", "answered"), [
    ({"SIFTPDF_FORMAT": "markdown"}, True), ({"SIFTPDF_FORMAT": " TEXT "}, True), ({"SIFTPDF_FORMAT": ""}, True),
    ({"SIFTPDF_FORMAT": "bogus"}, False), ({"SIFTPDF_PASSWORD": "x"}, False), ({"SIFTPDF_CACHE_SIZE": "2G"}, False),
    ({"SIFTPDF_CALLER_CLASS": "bad class"}, False), ({"SIFTPDF_CALLER_CLASS": "restricted"}, True),
    ({"SIFTPDF_CALLER_ID": "someone"}, True), ({"SIFTPDF_CAP": "250"}, True), ({"SIFTPDF_CAP": "20"}, False),
    ({"SIFTPDF_WAIT": "45.5"}, True), ({"SIFTPDF_WAIT": "-3"}, False), ({"SIFTPDF_WAIT": ""}, True),
    ({"SIFTPDF_OCR": "never"}, True), ({"SIFTPDF_OCR": "always"}, True), ({"SIFTPDF_OCR": "AUTO"}, False),
    ({"SIFTPDF_WORKERS": "1"}, True), ({"SIFTPDF_WORKERS": "0"}, False),
])
@pytest.mark.parametrize("command", [["extract", "--no-cache"], ["map"]])
def test_the_cold_path_reads_the_environment_as_click_does(fixtures: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                                          answered: bool, command: list[str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    # OCR of every page: the three pages of a short document show it as well as long.pdf's many
    args = [*command, str(fixtures / ("three_page.pdf" if env.get("SIFTPDF_OCR") == "always" else "long.pdf"))]
    fast = _cold_run(args, tmp_path / "fast")
    assert fast[3] is not (answered or ("SIFTPDF_CAP" in env and command[0] == "extract"))  # not extract's cap
    assert fast[:3] == _cold_run(args, tmp_path / "slow", via_click=True)[:3]


@pytest.mark.parametrize("raw", [[], ["--raw"]])
def test_the_cold_path_gives_the_warm_child_its_job_early(fixtures: Path, tmp_path: Path, child_log: Any,
                                                          raw: list[str]) -> None:
    """One child does the work: the warm one, given its job by the cold path, taken over by the
    runner (a child given another job would be killed, and a second one started)."""
    args = ["extract", "--no-cache", *raw, "--max-pages", "2", str(fixtures / "long.pdf")]
    fast = _cold_run(args, tmp_path / "fast")
    assert fast[0] == 0 and not fast[3] and child_log() == 1
    assert fast[:3] == _cold_run(args, tmp_path / "slow", via_click=True)[:3]


def test_the_early_job_is_the_runners(monkeypatch: pytest.MonkeyPatch) -> None:
    from siftpdf.console import local_pdf
    from siftpdf.extras import ocr_models_root
    from siftpdf.options import Limits, build
    from siftpdf.system import default_cache_dir
    from siftpdf.workers import runner

    asked: list[list[str]] = []

    def start(argv: list[str], *_args: Any) -> Any:
        asked.append(argv)
        raise RuntimeError("enough")

    monkeypatch.setattr(runner._Child, "start", start)
    models = ocr_models_root(default_cache_dir())
    for evidence in (True, False):  # the default limits but for --max-pages; organized or --raw
        for ocr in ("never", "auto", "always"):
            with pytest.raises(RuntimeError):
                # the job read.py gives the runner for these options
                job = build({"max_pages": 7, "raw": not evidence, "ocr": ocr}).extraction.job(models)
                list(runner.run_child(b"%PDF-1.4", job=job))
            assert asked[-1] == runner.child_argv() + local_pdf.job_words(7, raw=not evidence, ocr=ocr)
    for workers in (1, 5):  # --workers
        with pytest.raises(RuntimeError):
            list(runner.run_child(b"%PDF-1.4", limits=Limits().with_workers(workers),
                                  job=build({"max_pages": 7, "ocr": "never"}).extraction.job()))
        assert asked[-1] == runner.child_argv() + local_pdf.job_words(7, workers=workers)


def test_the_cold_path_takes_its_progress_bar_off_when_the_command_fails(
        fixtures: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """As click's context does: the bar is closed before the error is written."""
    from siftpdf.commands import actions, progress
    from siftpdf.console import local_pdf

    closed: list[bool] = []
    monkeypatch.setattr(progress.PageProgress, "close", lambda self: closed.append(True))

    def fail(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(actions, "extract", fail)
    parsed = cache_hits.parse(["extract", "--no-cache", str(fixtures / "three_page.pdf")], local_pdf.OPTIONS)
    assert parsed is not None
    plan = local_pdf._plan(*parsed)
    assert plan is not None
    assert local_pdf._run(plan) == 70 and closed == [True]
    assert "the disk went away" in capsys.readouterr().err


def test_the_cold_path_declines_an_empty_cache_dir(fixtures: Path, tmp_path: Path) -> None:
    """click makes a path of it (the working folder): left to click."""
    from siftpdf.console import local_pdf

    pdf = str(fixtures / "three_page.pdf")
    for args in (["extract", "--cache-dir=", pdf], ["map", "--cache-dir", "", pdf]):
        parsed = cache_hits.parse(args, local_pdf.OPTIONS)
        assert parsed is not None and local_pdf._plan(*parsed) is None
        parsed = cache_hits.parse([word if word not in ("", "--cache-dir=") else word + str(tmp_path) for word in args],
                             local_pdf.OPTIONS)
        assert parsed is not None and local_pdf._plan(*parsed) is not None


def test_a_cache_miss_gives_the_warm_child_its_job_early_and_a_hit_starts_none(
        fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """With the cache, a file the cache does not hold is read as with --no-cache: the child
    starts first thing and gets its job before the library is imported; a file it holds starts
    no child at all."""
    from siftpdf.console import local_pdf
    from siftpdf.workers import early_child

    spawned: list[list[str]] = []
    sent: list[list[str]] = []
    spawn, send = early_child._spawn, early_child.send
    monkeypatch.setattr(early_child, "_spawn", lambda argv: spawned.append(argv) or spawn(argv))
    monkeypatch.setattr(early_child, "send", lambda job, data: sent.append(job) or send(job, data))
    args = ["extract", "--markdown", "--max-pages", "2", "--cache-dir", str(tmp_path / "cache"),
            str(fixtures / "long.pdf")]
    assert local_pdf.answer(args) == 0
    first = capsys.readouterr().out
    assert len(spawned) == 1 and len(sent) == 1 and sent[0][:2] == ["--max-pages", "2"]
    assert local_pdf.answer(args) == 0  # a hit now
    assert capsys.readouterr().out == first and len(spawned) == 1 and len(sent) == 1
    assert early_child._Warm.child is None and early_child._Warm.slot is None
