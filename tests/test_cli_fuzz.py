"""A bounded fuzz of the command line: argument vectors built from the real commands and their
real options (click's introspection) with plausible and hostile values, and hostile stdin.
Whatever comes in, the CLI ends as docs/manual.md (EXIT STATUS) says: a known exit code, never 70 (a bug), never a
traceback, and a failure says 'siftpdf: ...' on stderr."""

from __future__ import annotations

import json
import os
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from conftest import ROOT
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from siftpdf.cli import cli
from siftpdf.settings import KNOWN_SETTINGS

pytestmark = pytest.mark.check  # make check: long fuzzing

SAMPLE = str(ROOT / "samples" / "sample.pdf")
EXIT_CODES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 75}
# What the fuzz leaves out, and why: serve runs until stopped; --semantic loads an embedding
# model; --in-process parses hostile bytes in the test process itself; --allow-private would
# let a fetch connect. --llm-cmd and --render-dir only get harmless values (below).
SKIPPED_COMMANDS = {"serve"}
SKIPPED_OPTIONS = {"--semantic", "--in-process", "--allow-private"}
# Environment the CLI reads, cleared so that no example reaches a model or the network.
CLEARED_ENV = ("SIFTPDF_LLM_URL", "SIFTPDF_LLM_MODEL", "SIFTPDF_LLM_KEY", "SIFTPDF_PASSWORD", "SIFTPDF_CAP",
               "SIFTPDF_CACHE_SIZE", "SIFTPDF_CALLER_CLASS", "SIFTPDF_CALLER_ID", "SIFTPDF_CACHE_URL", "SIFTPDF_FORMAT")

unicode_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)

# Each vocabulary: plausible values first, then hostile ones; a draw is plausible more often, so
# that examples get past parsing into the commands.
RANGES = (["1", "2", "1-3", "2-", "1,3", "5-5"],
          ["0", "-1", "3-1", "a-b", "1,,2", "", " ", "-", "1-", ",", "9" * 30, "1-" + "9" * 30, "1_000", "１",
           "٣", " 2 ", "1.5", "1 - 2", "+1", "1-2-3", "99"])
PATTERNS = (["river", "oxbow|sediment", "(?i)RIVER", "\\d+", ".", "meander", "page \\d", "^$", "x"],
            ["(", "[a-", "a{1000}", "a{2,1}", "(?P<n>x)(?P=n)", "\\", "\\1", "x" * 201, "é" * 101, "",
             "\\p{Greek}", "a**", "(?<=a)b", "\ufffd", "漢字", "a\nb", "\x00", "-x", "--json"])
NUMBERS = (["0", "1", "3", "200", "1000", "40000", "2.5"],
           ["-1", "9" * 40, "", "a", "1e3", "٣", " 5 ", "0x10", "nan", "inf", "-inf", "1e309", "0.05"])
SIZES = (["1G", "1.5M", "64k", "0"], ["-1", "", "abc", "1TiB", "9" * 30, "1 G"])
CLASSES = (["default", "restricted", "team-a"], ["", "a b", "x" * 65, "é", "../x"])
QUESTIONS = (["why do rivers meander?", "oxbow"], ["", "?", "漢字", "x" * 3000])
LLM_COMMANDS = (["cat", "false"], ["", "no-such-llm-command-here", "true", "sh -c 'exit 3'"])
URLS = (["http://127.0.0.1:9/x.pdf"], ["ftp://example.org/x.pdf", "not a url", "https://[::1]:9/x.pdf", "http://",
                                       "file:///etc/passwd", "http://169.254.169.254/latest", "HTTP://10.0.0.1/"])


def vocabulary(values: tuple[list[str], list[str]]) -> st.SearchStrategy[str]:
    plausible, hostile = values
    return st.one_of(*[st.sampled_from(plausible)] * 3, st.sampled_from(hostile), unicode_text)


def settings_values() -> st.SearchStrategy[str]:
    keys = sorted(KNOWN_SETTINGS)
    valid = st.builds(lambda k, v: f"{k}={v}", st.sampled_from(keys),
                      st.sampled_from(["true", "false", "1", "0", "none", "embedded", "8", "17", "x", ""]))
    return st.one_of(valid, valid, st.sampled_from(["nope=1", "organize", "=", "organize.furniture", "=true",
                                                    "organize.window=-3", "organize.window=" + "9" * 30,
                                                    "output.evidence=TRUE"]), unicode_text)


def option_values(option: click.Option, folders: dict[str, str]) -> st.SearchStrategy[str]:
    """Plausible and hostile values of one option, from its name and type."""
    name = option.opts[-1]
    by_name: dict[str, st.SearchStrategy[str]] = {
        "--pages": vocabulary(RANGES), "--render": vocabulary(RANGES),
        "--set": settings_values(), "--cache-size": vocabulary(SIZES),
        "--caller-class": vocabulary(CLASSES), "--question": vocabulary(QUESTIONS),
        "--llm-cmd": vocabulary(LLM_COMMANDS),
        "--cache-dir": vocabulary(([folders["cache"]], ["/proc/nope", "/dev/null", folders["file"]])),
        "--render-dir": vocabulary(([folders["render"]], ["/proc/nope/x", folders["file"]])),
        "--password": st.sampled_from(["", "secret", "pässword"]) | unicode_text,
    }
    if name in by_name:
        return by_name[name]
    if isinstance(option.type, (click.types.IntParamType, click.types.FloatParamType)):
        return vocabulary(NUMBERS)
    return unicode_text


def command_paths() -> Iterator[tuple[list[str], click.Command]]:
    ctx = click.Context(cli, info_name="siftpdf")
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        if name in SKIPPED_COMMANDS or command is None:
            continue
        if isinstance(command, click.Group):
            yield from (([name, sub], cmd) for sub, cmd in command.commands.items())
        else:
            yield [name], command


COMMANDS = list(command_paths())


def sources() -> st.SearchStrategy[str]:
    # stdin most of the time; the bundled sample (it starts an extraction child when not cached)
    # rarely; paths the system refuses; URLs that never connect.
    return st.one_of(st.just("-"), st.just("-"), st.just("-"), st.just(SAMPLE),
                     st.sampled_from(["/proc/nope.pdf", "/tmp", "", "x" * 300, "/proc/self/mem", "/dev/null",
                                      "http://127.0.0.1:9/x.pdf"]), unicode_text)


def argument_values(argument: click.Argument) -> st.SearchStrategy[str]:
    return {"page_range": vocabulary(RANGES), "pattern": vocabulary(PATTERNS),
            "url": vocabulary(URLS)}.get(argument.name or "", sources())


@st.composite
def argv(draw: st.DrawFn, folders: dict[str, str]) -> list[str]:
    """A command path, then its options in any order with its arguments (in their order) among them."""
    path, command = draw(st.sampled_from(COMMANDS))
    options = [p for p in command.params if isinstance(p, click.Option) and p.opts[-1] not in SKIPPED_OPTIONS]
    required = [p for p in options if p.required and draw(st.integers(0, 9))]
    words: list[list[str]] = []
    for option in required + (draw(st.lists(st.sampled_from(options), max_size=4)) if options else []):
        spelling = draw(st.sampled_from(option.opts))
        words.append([spelling] if option.is_flag else [spelling, draw(option_values(option, folders))])
    words = list(draw(st.permutations(words)))
    at = 0
    for argument in (p for p in command.params if isinstance(p, click.Argument)):
        count = draw(st.integers(0, 3)) if argument.nargs == -1 else draw(st.sampled_from([1, 1, 1, 1, 0]))
        for _ in range(count):
            at = draw(st.integers(at, len(words)))
            words.insert(at, [draw(argument_values(argument))])
            at += 1
    if not draw(st.integers(0, 7)):  # now and then a word no command expects
        words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(
            [["--frob"], ["-Z"], ["--json=1"], ["--"], ["extra"], ["-"], ["--cap"], ["--help"]])))
    return path + [word for group in words for word in group]


def doc_lines(pages: int = 3) -> list[str]:
    meta = {"format": 1, "source": None, "sha256": "0" * 64, "bytes": 10, "pages": pages, "title": "Rivers",
            "outline": [{"title": "Meanders", "page": 1, "level": 1}]}
    lines = [{"meta": meta}] + [{"page": n, "text": f"page {n}: rivers meander and oxbow lakes form",
                                 "status": "text"} for n in range(1, pages + 1)]
    return [json.dumps(line) for line in lines + [{"done": {"pages_processed": pages}}]]


# Lines that break a stream at the line level (and lines that are odd but well formed).
BROKEN_LINES = ['{"page": 2, "text": "cut', "not json", "[1, 2]", '"a string"', "null", "{}",
                '{"page": 9, "text": "late", "status": "text"}', '{"page": 2, "text": "a\\ud800b", "status": "text"}',
                '{"page": 2, "text": "\\udfff\\ud800", "status": "text"}', '{"meta": {}}',
                '{"page": -1, "text": "x", "status": "text"}', '{"page": 2, "text": "x", "status": "weird"}',
                '{"page": 1e400, "text": "x"}', "\udcff\udcfe not UTF-8",
                '{"page": 2, "text": "' + "long line " * 30_000 + '"}',
                '{"page": 2, "blocks": "x", "text": "x", "status": "text"}', '{"error": {"code": "timeout"}}',
                '{"error": "x"}', '{"error": {"code": 5, "message": null, "hint": 7}}', '{"error": [1]}']
FIRST_LINES = ['{"error": {"code": "encrypted", "status": 422, "message": "password needed", "hint": null}}',
               '{"error": {"code": "nonsense", "message": 5}}', '{"error": null}', '{"error": "x"}',
               '{"meta": {"title": "\\ud800", "pages": 1}}', '{"meta": {"pages": 1, "outline": []}, "x": 1}',
               # as siftpdf writes them (compact), which sniff as a doc stream:
               '{"error":{"code":"encrypted","status":422,"message":"password needed","hint":null}}',
               '{"error":{"code":"nonsense","message":{"a":1},"hint":["x"]}}', '{"error":{"code":"usage","hint":{}}}']
# Records of the right kind with fields of the wrong type, in place of the meta (at 0) or
# inserted before that line. The reader does not check shapes yet (see KNOWN_BUGS), so these
# have a fuzz of their own, marked as failing.
WRONG_SHAPES = [(1, '{"page": "2"}'), (1, '{"page": 2, "text": 5, "status": "text"}'), (1, '{"done": 3}'),
                (0, '{"meta": 5}'), (0, '{"meta": {"pages": "many"}}'), (0, '{"meta": {"pages": 2, "outline": 7}}'),
                (0, '{"meta": {"pages": 2, "outline": [{"title": 1}]}}')]

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | unicode_text,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(unicode_text, inner, max_size=3),
                           max_leaves=6)


@st.composite
def stdin_bytes(draw: st.DrawFn) -> bytes:
    """Nothing, random bytes, a doc stream cut anywhere, one with a bad line, one with an odd
    first line, a good one, or bytes that sniff as a PDF."""
    kind = draw(st.sampled_from(["empty", "random", "truncated", "broken", "first", "valid", "pdf-ish"]))
    lines = doc_lines(draw(st.integers(1, 4)))
    if kind == "empty":
        return b""
    if kind == "random":
        return draw(st.binary(max_size=600))
    if kind == "truncated":
        text = "\n".join(lines) + "\n"
        return text[: draw(st.integers(0, len(text)))].encode()
    if kind == "pdf-ish":  # sniffs as a PDF: the child refuses it
        return b"%PDF-1.7\n" + draw(st.binary(max_size=200))
    if kind == "broken":
        at = draw(st.integers(1, len(lines)))
        lines[at:at] = [draw(st.sampled_from(BROKEN_LINES))]
    elif kind == "first":
        lines[0] = draw(st.sampled_from(FIRST_LINES))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


@st.composite
def wrong_shapes(draw: st.DrawFn) -> bytes:
    """A small stream where one field of one record (meta, a page, done) has another JSON value."""
    lines = doc_lines(draw(st.integers(1, 4)))
    if draw(st.booleans()):
        at, line = draw(st.sampled_from(WRONG_SHAPES))
        lines[at:at + (at == 0)] = [line]
    else:
        at = draw(st.integers(0, len(lines) - 1))
        record = json.loads(lines[at])
        body = record["meta"] if "meta" in record else record["done"] if "done" in record else record
        body[draw(st.sampled_from(sorted(body) + ["blocks", "furniture", "page_labels"]))] = draw(json_values)
        lines[at] = json.dumps(record)
    return ("\n".join(lines) + "\n").encode()


def check(args: list[str], stdin: bytes, result: Any) -> None:
    """EXIT STATUS (docs/manual.md) whatever came in: a known exit code, no traceback, a failure says 'siftpdf: '."""
    where = f"siftpdf {' '.join(map(repr, args))} < {stdin[:120]!r}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        where, "".join(traceback.format_exception(result.exception)))
    assert result.exit_code in EXIT_CODES, (where, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr, (where, result.stderr)
    if args[0] == "grep" and "--no-messages" in args and result.exit_code == 2 and not result.stderr:
        return  # asked for: no message about a source that cannot be read, as grep -s
    if result.exit_code >= 2 or result.stderr:
        assert result.stderr.startswith("siftpdf: "), (where, result.exit_code, result.stderr)


@pytest.fixture
def folders(tmp_path: Path, own_cache: Path) -> Iterator[dict[str, str]]:
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "work").mkdir()
    old = os.getcwd()
    os.chdir(tmp_path / "work")  # nothing an example writes lands in the repository
    try:
        yield {"cache": str(own_cache), "render": str(tmp_path / "renders"), "file": str(tmp_path / "a-file")}
    finally:
        os.chdir(old)


@pytest.fixture
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CLEARED_ENV:
        monkeypatch.delenv(name, raising=False)


def test_the_vocabulary_covers_every_command() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"sniff", "extract", "map", "pages", "grep", "fetch", "digest", "cache info", "cache clear",
            "cache prune", "engine status"} <= names


HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_the_cli_never_ends_in_a_traceback(data: st.DataObject, folders: dict[str, str], quiet_env: None) -> None:
    args = data.draw(argv(folders), label="args")
    stdin = data.draw(stdin_bytes(), label="stdin")
    result = CliRunner().invoke(cli, args, input=stdin, catch_exceptions=True)
    check(args, stdin, result)


STREAM_READERS = [["pages", "1-"], ["pages", "--json", "1-"], ["grep", "river"], ["grep", "--json", "-C", "0", "page"],
                  ["map"], ["map", "--json"], ["extract"], ["extract", "--text"], ["digest", "-q", "river"]]


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=HEALTH, phases=[Phase.generate])
@given(command=st.sampled_from(STREAM_READERS), stdin=wrong_shapes())
def test_records_of_the_wrong_shape_are_typed_errors(command: list[str], stdin: bytes, quiet_env: None) -> None:
    check(command, stdin, CliRunner().invoke(cli, command, input=stdin, catch_exceptions=True))


def _stream_with(at: int, line: str) -> bytes:
    """Three pages with ``line`` in place of the meta (at 0) or inserted before line ``at``."""
    lines = doc_lines(3)
    lines[at:at + (at == 0)] = [line]
    return ("\n".join(lines) + "\n").encode()


# What the fuzz found: each input, and where it used to fail. The doc-stream reader now refuses
# a record whose fields have the wrong type, naming its line.
FOUND = [
    pytest.param(["pages", "1-"], _stream_with(1, '{"page": "2"}'), id="slices.py: page number as a string"),
    pytest.param(["map"], _stream_with(1, '{"page": "2"}'), id="mapview.py: page number as a string"),
    pytest.param(["digest", "-q", "river"], _stream_with(1, '{"page": 2, "text": 5, "status": "text"}'),
                 id="digest/retrieval.py: text not a string"),
    pytest.param(["grep", "river"], _stream_with(1, '{"done": 3}'), id="organize.py: done not an object"),
    pytest.param(["grep", "river"], _stream_with(0, '{"meta": 5}'), id="organize.py: meta not an object"),
    pytest.param(["pages", "1"], _stream_with(0, '{"meta": {"pages": "many"}}'), id="organize.py: pages not a number"),
    pytest.param(["map"], _stream_with(0, '{"meta": {"pages": 2, "outline": 7}}'), id="mapview.py: outline not a list"),
    pytest.param(["map"], b'{"meta": {"pages": 2, "outline": [{"title": 1}]}}\n{"page": 1, "text": "x", '
                          b'"status": "text"}\n{"done": {}}\n', id="mapview.py: outline entry without level or page"),
    pytest.param(["pages", "1", "--cache-size", "9" * 400], _stream_with(1, '{"page": 2, "text": "x"}'),
                 id="cache.parse_size: a size beyond a float"),
]


@pytest.mark.parametrize(("args", "stdin"), FOUND)
def test_what_the_fuzz_found_ends_typed(args: list[str], stdin: bytes, quiet_env: None) -> None:
    check(args, stdin, CliRunner().invoke(cli, args, input=stdin, catch_exceptions=True))


@pytest.mark.parametrize("args", [["map"], ["pages", "1"], ["grep", "river"]])
def test_standard_input_named_twice_is_a_usage_error(args: list[str], quiet_env: None) -> None:
    """A doc stream on standard input is read once: '-' named twice says so (exit 2) rather
    than reading a closed stream."""
    result = CliRunner().invoke(cli, [*args, "-", "-"], input=_stream_with(1, '{"page": 2, "text": "x"}'))
    assert result.exit_code == 2
    assert "named more than once" in result.stderr
