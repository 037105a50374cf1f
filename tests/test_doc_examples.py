"""Every command block of README.md and docs/*.md runs as written: doctest for the shell.

Which blocks: fenced blocks tagged ``sh``, ``bash``, ``shell``, ``zsh`` or ``console``, and
untagged ones whose every line is a ``$ `` prompt or starts with a program on PATH (``siftpdf``,
``curl`` …); a ``python`` block without ``>>>`` runs as a script (docs/api.md's doctests are
tests/test_api_docs.py's). Anything else (a doc stream, a benchmark's output) is text. New
blocks are found by themselves.

How a block runs: its commands, in order, in one ``bash`` (``pipefail``), each with its own
stdout, stderr and exit status; in a folder per document, shared by that document's blocks in
order (the README's tour writes rivers.jsonl, later blocks read it), where the files the
examples name appear when a block first names them (FILES: paper.pdf, thesis.pdf, report.pdf …
made by tests/make_fixtures.py). One
cache (``SIFTPDF_CACHE_DIR``), one loopback upstream and one server per ``siftpdf serve`` line
serve the whole module. What is rewritten before running, and nothing else:

- a URL on the internet (``https://arxiv.org/pdf/1706.03762``) is not rewritten: the test seam
  ``SIFTPDF_TEST_FETCH_VIA`` (tests/seams) makes every process fetch it from the loopback
  upstream instead, at ``/HOST/PATH``, where URLS puts a generated document; the command and
  its output keep the URL;
- a port a document listens on (``siftpdf serve`` 8765, ``python3 -m http.server … 8000``) is
  replaced by a free one, in that command and in every ``HOST:PORT`` of the document's blocks;
- a ``siftpdf serve`` line is not run in the block (it would never end): the module starts it
  on loopback, as written plus ``--port``, before the block's other commands, and stops it at
  the end;
- a Redis server a command names (``redis://localhost:6379/0``) is a redis-server the module
  starts on the free port for the document's (tests/redisserver.py), and stops at the end.

What passes: each command exits 0, or the status its comment documents (``# … exit 5 …``).
Where the document shows output (the lines after a ``$ `` command), stdout must match it line
by line: trailing spaces and blank lines at either end do not count, a line ``…`` alone stands
for any lines, and for the commands in MACHINE_DEPENDENT (versions, paths, sizes) every word
with a digit and every path is masked. Where it shows none, the answer of an HTTP client (HTTP_CLIENTS:
``curl -s`` exits 0 on a 400) must not be an error record (``{"error": …}``, or
``"success": false``); siftpdf's own error records come with their exit status. Never a
traceback on stderr.

Not run: the commands that start with a key of NOT_RUN (``make``), each with its reason
(counted and printed by test_every_command_block_is_run_or_listed_with_its_reason).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import make_fixtures
import make_scans
import pytest
from httpserver import Route, Running
from redisserver import RedisServer

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_TAGS = {"sh", "bash", "shell", "zsh", "console", "shell-session"}

# The files the examples name, made in each document's folder.
FILES: dict[str, Callable[[], bytes]] = {
    "samples/sample.pdf": lambda: (ROOT / "samples" / "sample.pdf").read_bytes(),
    "paper.pdf": make_fixtures.attention_paper,
    "thesis.pdf": make_fixtures.thesis,
    "book.pdf": make_fixtures.book,
    "report.pdf": lambda: make_fixtures.encrypted(make_fixtures.three_page(), "secret", "owner", "AES-256"),
    "scan.pdf": lambda: make_scans.many_pages(3, dpi=150),  # a real scan: the OCR examples read it
    "huge.pdf": make_fixtures.long_doc,
    # A folder of papers (named by ``papers/``): one says "Adam", one does not.
    "papers/attention.pdf": make_fixtures.attention_paper,
    "papers/thesis.pdf": make_fixtures.thesis,
}
# The URLs the examples fetch, served by the loopback upstream.
URLS: dict[str, Callable[[], bytes]] = {
    "https://arxiv.org/pdf/1706.03762": make_fixtures.attention_paper,
}
# Commands not run, by their first words (after VAR=value), and why.
NOT_RUN = {
    "make": "a Makefile target: makes the virtualenv with pip, runs the whole suite (this test with it), "
            "a benchmark or the bake-off (minutes to a quarter of an hour), or installs into ~/.local",
}
# Commands whose output is this machine's: versions, the cache's path and size.
MACHINE_DEPENDENT = ("siftpdf engine status",)
# Their exit status does not tell an HTTP error (curl -s exits 0 on a 400): their answer does.
HTTP_CLIENTS = ("curl",)
BLOCK_TIMEOUT = 300.0
SERVE_TIMEOUT = 60.0


# -- finding the blocks -------------------------------------------------------------------------

@dataclass
class Command:
    text: str
    line: int
    output: list[str] | None = None  # what the document shows, when it shows something
    status: int = 0

    @property
    def program(self) -> str:
        return program_of(self.text)

    @property
    def not_run(self) -> str | None:
        """The key of NOT_RUN this command starts with, if any."""
        words = words_of(self.text)
        return next((key for key in NOT_RUN if words[: len(key.split())] == key.split()), None)


@dataclass
class Block:
    doc: Path
    line: int
    kind: str  # "shell", "python" or "text"
    lines: list[str]
    commands: list[Command] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"

    @property
    def run(self) -> list[Command]:
        return [c for c in self.commands if c.not_run is None]

    @property
    def not_run(self) -> list[Command]:
        return [c for c in self.commands if c.not_run is not None]


FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def fenced_blocks(doc: Path) -> Iterator[tuple[int, str, list[str]]]:
    lines = doc.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        index += 1
        if not opening:
            continue
        indent, fence, tag = opening.groups()
        body: list[str] = []
        start = index
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index].lstrip())
            index += 1
        index += 1
        yield start, tag.lower(), body


def words_of(command: str) -> list[str]:
    """A command line's words after its leading ``VAR=value`` assignments."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        words = command.split()
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words.pop(0)
    return words


def program_of(command: str) -> str:
    return (words_of(command) or [""])[0]


def _is_command_line(line: str) -> bool:
    stripped = line.strip()
    if not stripped or stripped.startswith("#") or stripped.startswith("$ "):
        return True
    program = program_of(stripped)
    return program == "siftpdf" or bool(program and shutil.which(program))


def classify(tag: str, body: list[str]) -> str:
    if tag in SHELL_TAGS:
        return "shell"
    if tag == "python":
        return "text" if any(line.lstrip().startswith(">>>") for line in body) else "python"
    if tag == "" and any(line.strip() for line in body) and all(_is_command_line(line) for line in body):
        return "shell"
    return "text"


def comment_of(command: str) -> str:
    """The shell comment ending a command line ('' when none): a ``#`` after a blank, outside
    quotes."""
    quote = ""
    for index, char in enumerate(command):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or command[index - 1].isspace()):
            return command[index + 1:]
    return ""


def documented_status(command: str) -> int:
    found = re.search(r"\bexit (\d+)\b", comment_of(command.splitlines()[-1]))
    return int(found.group(1)) if found else 0


def commands_of(lines: list[str], first_line: int) -> list[Command]:
    prompted = any(line.startswith("$ ") for line in lines)
    commands: list[Command] = []
    index = 0
    while index < len(lines):
        line, number = lines[index], first_line + index + 1
        index += 1
        if prompted and not line.startswith("$ "):
            if commands and commands[-1].output is not None:
                commands[-1].output.append(line)
            continue
        text = line[2:] if prompted else line
        if not prompted and (not text.strip() or text.lstrip().startswith("#")):
            continue
        while text.endswith("\\") and index < len(lines):  # a continued line
            following = lines[index]
            index += 1
            text += "\n" + (following[2:] if prompted and following.startswith("> ") else following)
        commands.append(Command(text, number, [] if prompted else None, documented_status(text)))
    return commands


def discover() -> list[Block]:
    blocks = []
    for doc in DOCS:
        for start, tag, body in fenced_blocks(doc):
            block = Block(doc, start, classify(tag, body), body)
            if block.kind == "shell":
                block.commands = commands_of(body, start)
            blocks.append(block)
    return blocks


BLOCKS = discover()
RUN = [b for b in BLOCKS if (b.kind == "shell" and b.run) or b.kind == "python"]


# -- the sandbox ----------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def siftpdf_bin(tmp: Path) -> Path:
    """The folder of the ``siftpdf`` users run: this Python's console script, or a shim."""
    script = Path(sys.executable).with_name("siftpdf")
    if script.exists():
        return script.parent
    shim = tmp / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "siftpdf").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m siftpdf "$@"\n')
    (shim / "siftpdf").chmod(0o755)
    return shim


@dataclass
class Outcome:
    status: int
    stdout: str
    stderr: str


class Sandbox:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.upstream = Running("127.0.0.1")
        for url, make in URLS.items():
            self.upstream.server.routes["/" + url.split("://", 1)[1]] = Route(make())
        env = {k: v for k, v in os.environ.items() if not k.startswith("SIFTPDF_")}
        bin_dir = siftpdf_bin(tmp)
        env.update(SIFTPDF_CACHE_DIR=str(tmp / "cache"), SIFTPDF_TEST_FETCH_VIA=self.upstream.server.url(""),
                   PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", LC_ALL="C.UTF-8")
        self.env = env
        self.ports: dict[str, int] = {}
        self.servers: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}
        self.redis_servers: dict[str, RedisServer] = {}
        self.done: dict[str, list[Outcome]] = {}

    def folder(self, block: Block) -> Path:
        """The document's folder, with the FILES this block names (a file appears when a block
        first names it, so a ``*.pdf`` sees the files the document has spoken of)."""
        folder = self.tmp / block.doc.relative_to(ROOT).as_posix().replace("/", "-")
        text = "\n".join(block.lines)
        for name, make in FILES.items():
            path = folder / name
            named = name.split("/")[0] + "/" if name.startswith("papers/") else path.name
            if named in text and not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(make())
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def port(self, doc_port: str) -> str:
        return str(self.ports.setdefault(doc_port, free_port()))

    def rewrite(self, command: str) -> str:
        """The document's ports made free ones (see the module's docstring)."""
        if "http.server" in command:
            command = re.sub(r"(?<=\s)(\d{4,5})(?=\s|$)", lambda m: self.port(m.group(1)), command)
        return re.sub(r"\b(localhost|127\.0\.0\.1|\[::1\]):(\d{2,5})\b",
                      lambda m: f"{m.group(1)}:{self.port(m.group(2))}", command)

    def redis(self, command: str) -> None:
        """Start the redis-server of each Redis URL the command names, once, on the free port for
        the document's."""
        for doc_port in re.findall(r"redis://(?:[^@\s/]*@)?(?:localhost|127\.0\.0\.1):(\d{2,5})", command):
            if doc_port not in self.redis_servers:
                folder = self.tmp / f"redis-{doc_port}"
                folder.mkdir(exist_ok=True)
                self.redis_servers[doc_port] = RedisServer(folder, port=int(self.port(doc_port)))

    def serve(self, command: str, folder: Path) -> None:
        """Start the ``siftpdf serve`` of a document's line once, on the free port for its own."""
        if command in self.servers:
            return
        words = shlex.split(command, comments=True)
        doc_port = words[words.index("--port") + 1] if "--port" in words else "8765"
        log = self.tmp / f"serve-{len(self.servers)}.log"
        with open(log, "wb") as handle:
            line = command[: len(command) - len(comment_of(command))].rstrip("#").strip()
            process = subprocess.Popen(["bash", "-c", f"exec {line} --port {self.port(doc_port)}"],
                                       cwd=folder, env=self.env, stdout=handle, stderr=subprocess.STDOUT)
        self.servers[command] = (process, log)
        end = time.monotonic() + SERVE_TIMEOUT
        while "serving on " not in log.read_text():
            assert process.poll() is None and time.monotonic() < end, f"{command!r} did not start: {log.read_text()}"
            time.sleep(0.05)

    def run(self, block: Block) -> list[Outcome]:
        """Run a block, after the blocks before it in its document (each once)."""
        for earlier in RUN:
            if earlier.doc == block.doc and earlier.line < block.line and earlier.name not in self.done:
                self.run(earlier)
        if block.name not in self.done:
            self.done[block.name] = self._python(block) if block.kind == "python" else self._shell(block)
        return self.done[block.name]

    def _python(self, block: Block) -> list[Outcome]:
        done = subprocess.run([sys.executable, "-c", "\n".join(block.lines)], cwd=self.folder(block),
                              env=self.env, capture_output=True, text=True, timeout=BLOCK_TIMEOUT)
        return [Outcome(done.returncode, done.stdout, done.stderr)]

    def _shell(self, block: Block) -> list[Outcome]:
        folder = self.folder(block)
        out = self.tmp / "out" / block.name.replace("/", "-")
        out.mkdir(parents=True, exist_ok=True)
        script = ["set -o pipefail", "trap 'kill $(jobs -p) 2>/dev/null' EXIT"]
        for number, command in enumerate(block.run):
            self.redis(command.text)
            if words_of(command.text)[:2] == ["siftpdf", "serve"]:
                self.serve(self.rewrite(command.text), folder)
                script.append(f"echo 0 > {out}/{number}.rc")
                continue
            script.append(f"{{ {self.rewrite(command.text)}\n}} >{out}/{number}.out 2>{out}/{number}.err "
                          f"</dev/null; echo $? >{out}/{number}.rc")
        subprocess.run(["bash", "-c", "\n".join(script)], cwd=folder, env=self.env, timeout=BLOCK_TIMEOUT,
                       capture_output=True)
        return [Outcome(int((out / f"{n}.rc").read_text() or 1) if (out / f"{n}.rc").exists() else -1,
                        _read(out / f"{n}.out"), _read(out / f"{n}.err")) for n in range(len(block.run))]

    def stop(self) -> list[str]:
        """Stop the servers; what each logged, for the teardown's check."""
        logs = []
        for process, log in self.servers.values():
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
            logs.append(log.read_text())
        for redis_server in self.redis_servers.values():
            redis_server.stop()
        self.upstream.stop()
        return logs


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace") if path.exists() else ""


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    box = Sandbox(tmp_path_factory.mktemp("doc-examples"))
    yield box
    for log in box.stop():
        assert "Traceback" not in log and "internal error" not in log, log[-3000:]


# -- judging what ran -----------------------------------------------------------------------------

def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _masked(line: str) -> str:
    words = ["PATH" if re.match(r"[~/]", w) else "N" if re.search(r"\d", w) else w for w in line.split(" ")]
    return " ".join(words)


def output_matches(expected: list[str], actual: list[str], machine: bool) -> bool:
    """Line by line; ``…`` alone stands for any lines (doctest's ellipsis, for whole lines)."""
    if machine:
        expected, actual = [_masked(x) for x in expected], [_masked(x) for x in actual]
    pattern = "".join(r"(?:[^\n]*\n)*?" if line.strip() in ("…", "...") else re.escape(line) + r"\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def error_record(stdout: str) -> Any:
    """A JSON error answer in stdout (a doc stream's ``{"error"}``, an HTTP error body), or None."""
    candidates = [stdout, *stdout.splitlines()]
    for text in candidates:
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict) and ("error" in value or value.get("success") is False):
            return value
    return None


def problems(block: Block, outcomes: list[Outcome]) -> list[str]:
    found = []
    commands = block.run if block.kind == "shell" else [Command("\n".join(block.lines), block.line)]
    for command, outcome in zip(commands, outcomes, strict=True):
        found += judge(block, command, outcome)
    return found


def judge(block: Block, command: Command, outcome: Outcome) -> list[str]:
    found = []
    where = f"{block.doc.name}:{command.line}: {command.text.splitlines()[0]}"
    if outcome.status != command.status:
        found.append(f"{where}\n  exit {outcome.status}, the document implies {command.status}\n"
                     f"  stderr: {outcome.stderr.strip()[-1500:]}\n  stdout: {outcome.stdout.strip()[-500:]}")
    if "Traceback (most recent call last)" in outcome.stderr:
        found.append(f"{where}\n  a traceback:\n{outcome.stderr[-3000:]}")
    if command.output and any(line.strip() for line in command.output):
        machine = command.text.startswith(MACHINE_DEPENDENT)
        if not output_matches(_lines("\n".join(command.output)), _lines(outcome.stdout), machine):
            found.append(f"{where}\n  the output differs from the document's:\n"
                         f"--- document\n{chr(10).join(_lines(chr(10).join(command.output)))}\n"
                         f"--- actual\n{outcome.stdout.rstrip()}")
    elif command.status == 0 and command.program in HTTP_CLIENTS and (record := error_record(outcome.stdout)):
        found.append(f"{where}\n  answered an error: {json.dumps(record)[:1000]}")
    if found and "://" in command.text and not any(url in command.text for url in URLS):
        found.append("  (a URL the upstream does not know? add it to URLS)")
    return found


@pytest.mark.parametrize("block", RUN, ids=lambda b: b.name)
def test_block_runs_as_documented(block: Block, sandbox: Sandbox) -> None:
    found = problems(block, sandbox.run(block))
    assert not found, "\n\n".join(found)


def test_every_command_block_is_run_or_listed_with_its_reason() -> None:
    """The count, and no block left out without a word: a command block either runs or each of
    its commands that does not is in NOT_RUN (which stays short and every entry of which is
    used)."""
    shell = [b for b in BLOCKS if b.kind == "shell"]
    left_out = [b for b in shell if not b.run]
    used = {c.not_run for b in shell for c in b.not_run}
    assert used == set(NOT_RUN), f"NOT_RUN lists commands no document has: {set(NOT_RUN) - used}"
    assert len(RUN) >= 10, "the documents lost their examples"
    lines = [f"{len(RUN)} blocks run ({sum(len(b.run) for b in RUN if b.kind == 'shell')} commands and "
             f"{sum(b.kind == 'python' for b in RUN)} Python scripts); {len(left_out)} blocks not run:"]
    for block in left_out:
        keys = sorted({c.not_run or "" for c in block.not_run})
        lines.append(f"  {block.name}: " + "; ".join(f"{key}: {NOT_RUN[key]}" for key in keys))
    partly = [b for b in RUN if b.not_run]
    lines += [f"  (in {b.name}, not run: {', '.join(c.text.split('#')[0].strip() for c in b.not_run)})"
              for b in partly]
    print("\n".join(lines))
    assert len(left_out) <= 6, "more and more examples are not run: run them, or say here why not\n" + "\n".join(lines)


def test_the_reader_finds_commands_outputs_and_statuses() -> None:
    """The parts of a block the runner relies on, on a block written for the purpose."""
    body = ["$ siftpdf grep x \\", "> a.pdf   # exit 1: no match", "$ siftpdf map a.pdf", "# A Title", "",
            "pages 1"]
    first, second = commands_of(body, 10)
    assert first.text == "siftpdf grep x \\\na.pdf   # exit 1: no match" and first.status == 1 and first.line == 11
    assert first.output == [] and second.output == ["# A Title", "", "pages 1"] and second.status == 0
    assert classify("", ['{"meta": {"format": 1}}']) == "text"
    assert classify("", ["siftpdf serve --no-auth", "curl -s localhost:8765/healthz"]) == "shell"
    assert classify("python", [">>> 1"]) == "text" and classify("python", ["print(1)"]) == "python"
    assert program_of("SIFTPDF_PASSWORD=secret siftpdf map report.pdf") == "siftpdf"
    assert Command("make bench  # x", 1).not_run == "make" and Command("siftpdf map a.pdf", 1).not_run is None
    assert comment_of("""curl -d '{"a": "#b"}'  # the Markdown view""") == " the Markdown view"
    assert output_matches(["p. 1: a", "…", "p. 9: z"], ["p. 1: a", "p. 2: b", "p. 9: z"], False)
    assert not output_matches(["p. 1: a"], ["p. 2: a"], False)
    assert output_matches(["pypdf 7.1.1 at /root/.cache"], ["pypdf 7.2 at /tmp/x"], True)
    assert error_record('{"error": {"code": "usage"}}') and error_record('{"success": false}')
    assert error_record('{"url": "u", "content": "error"}') is None
