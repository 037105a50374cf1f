"""Shared fixtures: generated PDFs, the corpus, and helpers to run the CLI for real."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from siftpdf.cli import cli

HERE = Path(__file__).parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus"
FIXTURES = HERE / ".fixtures"

sys.path.insert(0, str(HERE))
import make_fixtures  # noqa: E402
import make_hostile  # noqa: E402
from httpserver import Running  # noqa: E402

# The test seams (tests/seams): patched in here for in-process tests, and loaded by every Python
# process a test starts through the sitecustomize on its PYTHONPATH.
SEAMS = HERE / "seams"
sys.path.insert(0, str(SEAMS))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(SEAMS), os.environ.get("PYTHONPATH")) if p)
import siftpdf_seams  # noqa: E402

siftpdf_seams.install()


@contextmanager
def making() -> Iterator[None]:
    """Held while a generated fixture is made: the workers of a parallel run (pytest-xdist)
    make each file once, one of them at a time, and none reads one half written."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    with open(FIXTURES / ".making.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _script_digest() -> str:
    return hashlib.sha256((HERE / "make_fixtures.py").read_bytes()).hexdigest()[:16]


@pytest.fixture(scope="session")
def fixtures() -> Path:
    """The small generated fixtures, regenerated when the generator changes."""
    stamp = FIXTURES / f".stamp-{_script_digest()}"
    with making():
        if not stamp.exists():
            make_fixtures.write_all(FIXTURES)
            stamp.touch()
    return FIXTURES


@pytest.fixture(scope="session")
def big_pdf(fixtures: Path) -> Path:
    """The 2,100-page document, made on demand and never committed."""
    path = fixtures / f"big_2100-{_script_digest()}.pdf"
    with making():
        if not path.exists():
            path.write_bytes(make_fixtures.big_doc())
    return path


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


@pytest.fixture
def run_cli():
    """Run the CLI in-process through click's runner; returns the Result."""
    runner = CliRunner()

    def run(*args: str, input: bytes | str | None = None, env: dict[str, str] | None = None) -> Any:
        return runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False)

    return run


def run_siftpdf(*args: str, input: bytes | None = None, timeout: float = 120,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m siftpdf`` as a real process (real pipes, real exit codes)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "siftpdf", *args], input=input, capture_output=True,
                          timeout=timeout, env=full_env)


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets an empty cache dir of its own (and so its own pool): no test sees
    another's cached documents, and none touches the user's cache."""
    path = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("SIFTPDF_CACHE_DIR", str(path))
    monkeypatch.delenv("SIFTPDF_CALLER_CLASS", raising=False)
    monkeypatch.delenv("SIFTPDF_CALLER_ID", raising=False)
    monkeypatch.delenv("SIFTPDF_FORMAT", raising=False)  # the views the tests expect, whatever the shell says
    return path


@pytest.fixture
def child_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Counts extraction children started by any process of this test (a test seam)."""
    path = tmp_path / "children.log"
    monkeypatch.setenv("SIFTPDF_TEST_CHILD_LOG", str(path))

    def count() -> int:
        return len(path.read_text().splitlines()) if path.exists() else 0

    return count


@pytest.fixture
def redis_server(tmp_path: Path) -> Any:
    """A real redis-server on a free loopback port, with no persistence, stopped at teardown
    (tests/redisserver.py)."""
    from redisserver import RedisServer

    server = RedisServer(tmp_path)
    yield server
    server.stop()


def run_on_terminal(args: list[str], env: dict[str, str], stderr_tty: bool) -> tuple[bytes, bytes, int]:
    """Run siftpdf with stdout on a pipe and stderr on a pseudo-terminal (or a pipe)."""
    full_env = {**os.environ, "TERM": "xterm-256color", **env}
    if "NO_COLOR" not in env:
        full_env.pop("NO_COLOR", None)
    argv = [sys.executable, "-m", "siftpdf", *args]
    if not stderr_tty:
        done = subprocess.run(argv, capture_output=True, env=full_env, timeout=180)
        return done.stdout, done.stderr, done.returncode
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=full_env)
    os.close(slave)
    # stdout is drained meanwhile: a command that writes more than a pipe holds before it closes
    # the terminal would otherwise wait on us while we wait on the terminal.
    out: list[bytes] = []
    drain = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else b""), daemon=True)
    drain.start()
    screen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        screen += chunk
    drain.join(timeout=180)
    stdout = out[0] if out else b""
    code = proc.wait(timeout=180)
    os.close(master)
    return stdout, bytes(screen), code


@pytest.fixture(scope="session")
def memory_hog() -> Path:
    """One page whose content inflates to 400 MiB: fine under 2 GiB, too much under 256 MiB."""
    path = FIXTURES / "hostile" / "memory_hog.pdf"
    with making():
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(make_hostile.memory_hog())
    return path


@pytest.fixture
def upstream() -> Iterator[Running]:
    """A web server on loopback (tests/httpserver.py) whose routes a test sets."""
    running = Running("127.0.0.1")
    yield running
    running.stop()
