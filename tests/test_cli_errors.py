"""Every failure ends as docs/manual.md (EXIT STATUS) says: one line 'siftpdf: message' (and 'hint: ...') on stderr,
the exit code of its kind, an {"error"} record on stdout with --json; never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import ROOT, run_siftpdf

from siftpdf.cli import cli
from siftpdf.docstream import schema
from siftpdf.errors import InternalError, from_record

SAMPLE = str(ROOT / "samples" / "sample.pdf")
INTERNAL_HINT = "hint: rerun with --debug for the traceback, and report it\n"
CACHE_HINT = "hint: set SIFTPDF_CACHE_DIR (or pass --cache-dir) to a writable folder\n"


def stream(*texts: str) -> str:
    """A small doc stream with these page texts."""
    meta = {"format": 1, "source": None, "sha256": "0" * 64, "bytes": 1, "pages": len(texts), "title": "T",
            "outline": []}
    lines = [{"meta": meta}] + [{"page": n, "text": t, "status": "text"} for n, t in enumerate(texts, 1)]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines + [{"done": {}}])


def invoke(*args: str, input: str | bytes | None = None, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), input=input, env=env, catch_exceptions=False)


def valid_error(stdout: str, code: str, status: int) -> dict[str, Any]:
    """The one JSON record on stdout: an error of this code, valid against the schema."""
    [line] = stdout.splitlines()
    record = json.loads(line)
    jsonschema.Draft202012Validator(schema()).validate(record)
    assert (record["error"]["code"], record["error"]["status"]) == (code, status)
    return record["error"]


# --- click's own usage errors -----------------------------------------------------------------

USAGE = [
    (["grep", "--frob", "x"], "grep: no such option: --frob", "siftpdf grep --help"),
    (["grep", "--fro", "x"], "grep: no such option: --fro (did you mean one of --ocr, --raw?)", "siftpdf grep --help"),
    (["pages"], "pages: missing argument RANGE", "siftpdf pages --help"),
    (["digest", "doc.jsonl"], "digest: missing option -q / --question", "siftpdf digest --help"),
    (["grpe", "x"], "no such command 'grpe' (did you mean 'grep'?)", "siftpdf --help"),
    (["frobnicate"], "no such command 'frobnicate'", "siftpdf --help"),
    (["--frob", "pages"], "no such option: --frob", "siftpdf --help"),
    (["pages", "--cap", "5", "1"], "pages: invalid value for '--cap': 5 is not in the range x>=200",
     "siftpdf pages --help"),
    (["grep", "-m", "many", "x"], "grep: invalid value for '-m' / '--max-count': 'many' is not a valid integer range",
     "siftpdf grep --help"),
    (["grep", "x", "-C"], "grep: option '-C' requires an argument", "siftpdf grep --help"),
    (["extract", "--json=yes"], "extract: option '--json' does not take a value", "siftpdf extract --help"),
    (["sniff", "a.pdf", "b.pdf"], "sniff: got unexpected extra argument (b.pdf)", "siftpdf sniff --help"),
    (["cache", "info", "--frob"], "cache info: no such option: --frob", "siftpdf cache info --help"),
    (["cache", "wipe"], "cache: no such command 'wipe'", "siftpdf cache --help"),
]


@pytest.mark.parametrize(("args", "message", "hint"), USAGE, ids=[" ".join(a) for a, _, _ in USAGE])
def test_a_usage_error_is_one_line_and_a_hint(args: list[str], message: str, hint: str) -> None:
    result = invoke(*args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"siftpdf: {message}\nhint: {hint}\n"


def test_a_usage_error_in_json_mode_is_also_a_record_on_stdout() -> None:
    result = invoke("grep", "--json", "--frob", "x")
    assert result.exit_code == 2
    assert valid_error(result.stdout, "usage", 400) == {
        "code": "usage", "status": 400, "message": "grep: no such option: --frob", "hint": "siftpdf grep --help"}
    assert result.stderr == "siftpdf: grep: no such option: --frob\nhint: siftpdf grep --help\n"


def test_a_usage_error_of_a_real_process() -> None:
    done = run_siftpdf("pages", "--json")
    assert done.returncode == 2
    assert done.stderr == b"siftpdf: pages: missing argument RANGE\nhint: siftpdf pages --help\n"
    assert valid_error(done.stdout.decode(), "usage", 400)["message"] == "pages: missing argument RANGE"


def test_help_version_and_exit_codes_of_commands_are_kept() -> None:
    assert invoke("--help").exit_code == 0 and "Commands:" in invoke("--help").stdout
    assert invoke("grep", "--help").exit_code == 0
    version = invoke("--version")
    assert version.exit_code == 0 and version.stdout.startswith("siftpdf, version ")
    assert invoke("grep", "meander", input=stream("rivers meander")).exit_code == 0
    assert invoke("grep", "oxbow", input=stream("rivers meander")).exit_code == 1  # ctx.exit(1): no match
    assert invoke("sniff", input="plain text\n").exit_code == 1


def test_no_arguments_still_show_the_help() -> None:
    result = invoke()
    assert result.exit_code == 2 and result.stdout == ""
    assert "Commands:" in result.stderr and "siftpdf:" not in result.stderr


def test_shell_completion_still_answers() -> None:
    env = {"_SIFTPDF_COMPLETE": "bash_complete", "COMP_WORDS": "siftpdf gr", "COMP_CWORD": "1"}
    result = CliRunner().invoke(cli, [], prog_name="siftpdf", env=env, catch_exceptions=False)
    assert (result.exit_code, result.stdout) == (0, "plain,grep\n")


# --- what the system refuses: the cache folder, inputs, outputs -------------------------------

def test_an_unusable_cache_folder_is_named_with_the_way_out() -> None:
    result = invoke("pages", "1", SAMPLE, env={"SIFTPDF_CACHE_DIR": "/proc/nope"})
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "siftpdf: cache folder /proc/nope: No such file or directory\n" + CACHE_HINT


def test_an_unusable_cache_folder_given_as_an_option() -> None:
    result = invoke("grep", "--json", "--cache-dir", "/dev/null", "x", SAMPLE)
    assert result.exit_code == 2
    message = "cache folder /dev/null: Not a directory"
    assert result.stderr == f"siftpdf: {message}\n" + CACHE_HINT
    assert valid_error(result.stdout, "usage", 400)["message"] == message
    info = invoke("cache", "info", "--cache-dir", "/proc/nope")
    assert (info.exit_code, info.stderr) == (2, "siftpdf: cache folder /proc/nope: No such file or directory\n"
                                             + CACHE_HINT)


def test_an_unusable_cache_folder_in_a_real_process() -> None:
    done = run_siftpdf("pages", "1", SAMPLE, env={"SIFTPDF_CACHE_DIR": "/proc/nope/deeper"})
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == ("siftpdf: cache folder /proc/nope/deeper: No such file or directory\n"
                                    + CACHE_HINT)


def test_a_damaged_cache_is_named(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "cache.db").write_bytes(b"this is no sqlite database" * 100)
    result = invoke("pages", "1", SAMPLE, env={"SIFTPDF_CACHE_DIR": str(tmp_path)})
    assert result.exit_code == 2
    assert result.stderr == (f"siftpdf: cache folder {tmp_path}: file is not a database\nhint: remove the "
                             "damaged cache folder, or point SIFTPDF_CACHE_DIR (or --cache-dir) at another one\n")


@pytest.mark.parametrize(("source", "message"), [
    ("/proc/self/mem", "/proc/self/mem: Input/output error"),  # open works, read fails
    ("/tmp", "/tmp: is a directory"),
    ("/no/such/dir/x.pdf", "/no/such/dir/x.pdf: no such file"),
    ("x" * 300 + ".pdf", "x" * 300 + ".pdf: File name too long"),
    ("bad\0name.pdf", "a path has a NUL byte in it"),     # only Python callers can pass one
])
def test_an_input_the_system_refuses_is_one_line(source: str, message: str) -> None:
    for command in (["pages", "1"], ["grep", "x"], ["map"]):
        result = invoke(*command, source)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"siftpdf: {message}\n"), command


def _shell(command: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["sh", "-c", command, "sh", sys.executable], capture_output=True, timeout=60,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", **env})


def test_a_closed_or_full_stdout_is_one_line(tmp_path: Path) -> None:
    doc = tmp_path / "doc.jsonl"
    doc.write_text(stream("some text"))
    closed = _shell(f'"$1" -m siftpdf pages 1 {doc} >&-')
    assert (closed.returncode, closed.stderr) == (2, b"siftpdf: standard output is closed\n")
    full = _shell(f'"$1" -m siftpdf pages 1 {doc} >/dev/full')
    assert (full.returncode, full.stderr) == (2, b"siftpdf: No space left on device\n")
    read_only = _shell(f'"$1" -m siftpdf pages 1 {doc} 1</dev/null')
    assert (read_only.returncode, read_only.stderr) == (2, b"siftpdf: Bad file descriptor\n")


# --- bugs: one line, exit 70, and --debug for the traceback -----------------------------------

@pytest.mark.parametrize("error", [RuntimeError("boom\n  on two lines"), MemoryError(), RecursionError("deep"),
                                   KeyError("k"), OverflowError("x" * 400)])
def test_a_bug_is_an_internal_error(error: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(source: str | None) -> None:
        raise error

    monkeypatch.setattr("siftpdf.sources.sniff_source", broken)
    result = invoke("sniff", "--json", "x.pdf")
    assert result.exit_code == 70
    detail = " ".join(str(error).split())
    detail = detail if len(detail) <= 300 else detail[:299] + "…"
    message = f"internal error ({type(error).__name__}{': ' + detail if detail else ''})"
    assert result.stderr == f"siftpdf: {message}\n" + INTERNAL_HINT
    assert valid_error(result.stdout, "internal", 500) == {
        "code": "internal", "status": 500, "message": message, "hint": INTERNAL_HINT[6:-1]}


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(source: str | None) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("siftpdf.sources.sniff_source", broken)
    result = CliRunner().invoke(cli, ["--debug", "sniff", "x.pdf"])
    assert isinstance(result.exception, RuntimeError) and str(result.exception) == "boom"


def test_an_interrupt_is_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(source: str | None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("siftpdf.sources.sniff_source", interrupted)
    result = invoke("sniff", "x.pdf")
    assert (result.exit_code, result.stderr) == (130, "siftpdf: interrupted\n")


def test_an_internal_record_reads_back_as_an_internal_error() -> None:
    error = from_record({"error": {"code": "internal", "status": 500, "message": "internal error (X)",
                                   "hint": None}})
    assert isinstance(error, InternalError) and (error.exit_code, error.status) == (70, 500)


# --- stdout is UTF-8 whatever the locale ------------------------------------------------------

@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_stdout_is_utf8_whatever_the_locale(encoding: str, tmp_path: Path) -> None:
    doc = tmp_path / "cjk.jsonl"
    doc.write_text(stream("漢字かな 한국어 – ünïcode"), encoding="utf-8")
    env = {"PYTHONIOENCODING": encoding, "LC_ALL": "C", "LANG": "C"}
    text = run_siftpdf("pages", "1", str(doc), env=env)
    assert text.returncode == 0 and "漢字かな 한국어 – ünïcode" in text.stdout.decode("utf-8")
    records = run_siftpdf("pages", "--json", "1", str(doc), env=env)
    assert records.returncode == 0 and json.loads(records.stdout.splitlines()[1])["text"] == "漢字かな 한국어 – ünïcode"
    # the error record (its message has an en dash) is UTF-8 too; stderr stays in the locale's encoding
    error = run_siftpdf("pages", "--json", "2", str(doc), env=env)
    assert error.returncode == 2
    assert json.loads(error.stdout)["error"]["message"] == "pages out of range (1–1): '2'"
    assert error.stderr.startswith(b"siftpdf: pages out of range (1")


# --- values that pass a range but cannot work (found by tests/test_cli_fuzz.py) ---------------

@pytest.mark.parametrize(("args", "message"), [
    (["pages", "--deadline", "inf", "1"], "pages: invalid value for '--deadline': 'inf' is not a finite number"),
    (["pages", "--deadline", "nan", "1"], "pages: invalid value for '--deadline': 'nan' is not a finite number"),
    (["grep", "--max-age", "1e309", "x"], "grep: invalid value for '--max-age': '1e309' is not a finite number"),
    (["digest", "-q", "x", "--llm-timeout", "inf"],
     "digest: invalid value for '--llm-timeout': 'inf' is not a finite number"),
    (["map", "--memory-limit", "9" * 30],
     f"map: invalid value for '--memory-limit': {'9' * 30} is not in the range 0<=x<=1073741824"),
])
def test_a_value_no_timer_or_limit_can_take_is_a_usage_error(args: list[str], message: str) -> None:
    result = invoke(*args, input=stream("text"))
    assert (result.exit_code, result.stderr) == (2, f"siftpdf: {message}\nhint: siftpdf {args[0]} --help\n")


# --- an error record read back from a stream --------------------------------------------------

META = '{"meta":{"format":1,"pages":1,"title":"T","outline":[]}}\n'


@pytest.mark.parametrize(("stdin", "code", "stderr"), [
    ('{"error":{"code":"encrypted","status":422,"message":"password needed","hint":null}}\n', 3,
     "siftpdf: password needed\nhint: pass the user password with --password or SIFTPDF_PASSWORD\n"),
    (META + '{"error":"gave up"}\n', 4, "siftpdf: gave up\n"),
    (META + '{"error":{"code":5,"message":null,"hint":7}}\n', 4, "siftpdf: unreadable PDF\nhint: 7\n"),
    ('{"error":{"code":"nonsense","message":{"a":1},"hint":["x"]}}\n', 4, "siftpdf: {'a': 1}\nhint: ['x']\n"),
    # a stream written by a run that hit a bug says so again, with the hint it carried
    (META + '{"error":{"code":"internal","status":500,"message":"internal error (KeyError: x)","hint":"h"}}\n',
     70, "siftpdf: internal error (KeyError: x)\nhint: h\n"),
])
def test_an_error_record_in_a_stream_is_relayed_typed(stdin: str, code: int, stderr: str) -> None:
    result = invoke("pages", "1", input=stdin)
    assert (result.exit_code, result.stderr) == (code, stderr)


def test_a_typed_error_is_reported_without_importing_anything() -> None:
    """A command reports its error while its child's reader threads may still be importing; an
    import made then can fail (a module's globals changing under another thread's import), and
    the user would get a traceback for 'no text'. Reporting imports nothing: not click, not
    inspect."""
    import subprocess
    import sys

    code = ("import sys; from siftpdf.errors import report, typed_error; before = set(sys.modules); "
            "report(typed_error(RuntimeError('boom')), False); print(sorted(set(sys.modules) - before))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert done.stderr.startswith("siftpdf: ")
