"""The warm extraction child: started by the console before its options are parsed, given its
job on stdin, killed when not needed; never parsing before its limits and hook are in place."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import records, run_siftpdf

from siftpdf.child.job import Job, job_bytes, read_words
from siftpdf.console import early
from siftpdf.workers import early_child
from siftpdf.workers.runner import run_child

WARM = [sys.executable, "-I", "-m", "siftpdf.child.main", "--warm"]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the warm child is Linux only")


def _warm(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(WARM, input=stdin, capture_output=True, env={}, timeout=60)


def test_warm_child_without_a_job_exits_quietly() -> None:
    done = _warm(b"")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_warm_child_does_its_job_like_a_child(fixtures: Path) -> None:
    data = (fixtures / "three_page.pdf").read_bytes()
    done = _warm(job_bytes(["--max-pages", "2"]) + data)
    assert done.returncode == 0
    lines = records(done.stdout.decode())
    plain = subprocess.run(WARM[:-1] + ["--max-pages", "2"], input=data, capture_output=True, env={}, timeout=60)
    assert lines[:-1] == records(plain.stdout.decode())[:-1]  # done differs only in its elapsed_ms
    assert [r["page"] for r in lines[1:-1]] == [1, 2]


def test_warm_job_carries_any_option_word() -> None:
    """Option words reach the child as they are: quotes, backslashes, line breaks, non-ASCII
    and undecodable file names (the JSON line before took plain ASCII words only)."""
    words = ["--ocr-models", '/tmp/a "b"\\c\nd/模型/\udcff', "--max-pages", "3", ""]
    reader = io.BytesIO(job_bytes(words) + b"%PDF-1.4")
    assert read_words(reader) == words and reader.read() == b"%PDF-1.4"
    assert read_words(io.BytesIO(b"")) is None


@pytest.mark.parametrize("job", [b'["--max-pages", "2"]\n', b"40\n--max-pages\x00", b"3\nabc",
                                 b"-1\n", b"99999999999\n", job_bytes(["--nope"]),
                                 b"0" * 32 + b"9\n--memory\x00"])
def test_warm_child_refuses_a_bad_job(job: bytes) -> None:
    """A job that is not a length and NUL-ended options (JSON was the old form), is cut short,
    or names an unknown option: a usage error, before any PDF byte."""
    done = _warm(job + b"%PDF-1.4")
    assert done.returncode == 2 and done.stdout == b""


def test_warm_child_applies_the_jobs_limits_before_reading(fixtures: Path) -> None:
    """The limits come from the job: one that cannot be enforced fails before any PDF byte."""
    code = textwrap.dedent("""
        import sys, siftpdf.child.main as c, siftpdf.system as s
        s.rlimit_enforced = lambda: False
        sys.exit(c.main(["--warm"]))
    """)
    job = job_bytes(["--memory", str(1 << 30)])
    done = subprocess.run([sys.executable, "-I", "-c", code], input=job + (fixtures / "three_page.pdf").read_bytes(),
                          capture_output=True, env={}, timeout=60)
    assert done.returncode == 2 and b"cannot apply limits" in done.stderr and done.stdout == b""


def test_warm_child_refuses_the_network_once_it_has_its_job() -> None:
    code = textwrap.dedent("""
        import sys, siftpdf.child.main as c
        def fake_extract(data, opts):
            import socket
            socket.socket()
            yield {}
        import siftpdf.child.extraction as e
        e.extract_records = fake_extract
        sys.exit(c.main(["--warm"]))
    """)
    done = subprocess.run([sys.executable, "-I", "-c", code], input=job_bytes([]) + b"%PDF-1.4\n",
                          capture_output=True, env={}, timeout=60)
    assert done.returncode != 0 and b"siftpdf child: socket." in done.stderr


@pytest.mark.parametrize(("args", "expected"), [
    (["extract", "--no-cache", "{pdf}"], True),
    (["--debug", "pages", "--no-cache", "1", "{pdf}"], True),
    (["grep", "word", "{pdf}", "--json", "--no-cache"], True),
    (["extract", "{pdf}"], False),
    (["extract", "--no-cache", "--", "{pdf}"], True),
    (["extract", "{pdf}", "--", "--no-cache"], False),
    (["extract", "--no-cache", "--in-process", "{pdf}"], False),
    (["extract", "--no-cache", "--help", "{pdf}"], False),
    (["extract", "--no-cache", "{txt}"], False),
    (["extract", "--no-cache", "missing.pdf"], False),
    (["sniff", "--no-cache", "{pdf}"], False),
    (["--version"], False),
    ([], False),
])
def test_which_command_lines_start_a_warm_child(fixtures: Path, args: list[str], expected: bool) -> None:
    names = {"pdf": str(fixtures / "three_page.pdf"), "txt": str(fixtures / "not_a_pdf.txt")}
    assert early.wanted([arg.format(**names) for arg in args]) is expected


def test_run_child_adopts_the_warm_child(fixtures: Path) -> None:
    pdf = fixtures / "encrypted_user.pdf"
    early.prestart(["extract", "--no-cache", str(pdf)])
    started = early_child._Warm.child
    try:
        assert started is not None
        lines = list(run_child(pdf.read_bytes(), password="secret", job=Job(max_pages=1)))
        assert early_child._Warm.child is None and started.returncode is not None  # taken, and reaped
        assert [r.get("page") for r in lines[1:-1]] == [1] and lines[1]["status"] == "text" and "done" in lines[-1]
    finally:
        early_child.discard()


def test_a_discarded_warm_child_is_gone(fixtures: Path) -> None:
    early.prestart(["extract", "--no-cache", str(fixtures / "three_page.pdf")])
    child = early_child._Warm.child
    assert child is not None
    early_child.discard()
    assert early_child._Warm.child is None and child.returncode is not None
    assert not os.path.exists(f"/proc/{child.pid}")


def _warm_children() -> list[int]:
    """Warm children of this interpreter's installation (another checkout's runs are not ours)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        if argv[0] == os.fsencode(sys.executable) and b"siftpdf.child.main" in argv and b"--warm" in argv:
            found.append(int(pid))
    return found


@pytest.mark.parametrize("args", [["extract", "--markdown", "--no-cache"], ["pages", "--no-cache", "1"],
                                  ["extract", "--no-cache", "--nope"], ["pages", "--no-cache", "--cap", "10", "1"]])
def test_console_leaves_no_warm_child(fixtures: Path, args: list[str]) -> None:
    """Whether the child was given its job or killed (a usage error), none is left."""
    before = set(_warm_children())
    pdf = str(fixtures / "three_page.pdf")
    outputs = [run_siftpdf(*args, pdf) for _ in range(2)]
    assert outputs[0].stdout == outputs[1].stdout and outputs[0].returncode == outputs[1].returncode
    assert set(_warm_children()) <= before


def test_poll_does_not_wait_behind_a_wait(fixtures: Path) -> None:
    """The watchdog's poll (then kill) must go through while the reader waits for the child."""
    import threading

    early.prestart(["extract", "--no-cache", str(fixtures / "three_page.pdf")])
    child = early_child._Warm.child
    assert child is not None
    waiter = threading.Thread(target=child.wait)
    waiter.start()
    try:
        while not child._lock.locked():
            pass
        assert child.poll() is None  # at once, though the child still runs and wait() holds the lock
    finally:
        early_child.discard()
        waiter.join(10)
    assert not waiter.is_alive() and child.returncode is not None


def test_a_named_pipe_is_never_opened_to_look_for_a_pdf(tmp_path: Path) -> None:
    # Opening a pipe would let its writer go on as if the command were reading it (and die
    # writing to no reader once the look closed it again).
    fifo = tmp_path / "in.pdf"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"printf '%%PDF-1.4' > '{fifo}' && echo written"], stdout=subprocess.PIPE)
    wchan = Path(f"/proc/{writer.pid}/wchan")
    try:
        for _ in range(500):  # the writer waits in the kernel for a reader
            if wchan.read_text() == "wait_for_partner":
                break
            time.sleep(0.01)
        assert not early.wanted(["extract", "--no-cache", str(fifo)])
        for _ in range(20):  # ... and goes on waiting: nobody opened the pipe
            assert wchan.read_text() == "wait_for_partner"
            time.sleep(0.01)
        with open(fifo, "rb") as reader:  # the real reader comes
            assert reader.read() == b"%PDF-1.4"
        assert writer.communicate(timeout=30)[0] == b"written\n"
    finally:
        writer.kill()


def test_the_child_is_isolated_and_starts_without_site() -> None:
    """The child's interpreter: isolated (no environment, no user site, no script folder) and
    without site's work, yet it finds this package and PDFium's bindings on the path it is
    given, after the standard library's."""
    argv = early_child.default_argv()
    assert argv[1:4] == ["-I", "-S", "-c"] and argv[4].endswith("from siftpdf.child.main import main; sys.exit(main())")
    probe = argv[4].replace("from siftpdf.child.main import main; sys.exit(main())",
                            "import siftpdf, siftpdf.child.pdfium as p; "
                            "print(sys.flags.isolated, sys.flags.no_site, 'site' in sys.modules, "
                            "sys.path.index(siftpdf.__path__[0].rsplit('/', 1)[0]) > "
                            "sys.path.index(p.os.path.dirname(p.os.__file__)))")
    done = subprocess.run(argv[:4] + [probe], capture_output=True, text=True, env={}, timeout=60)
    assert done.stdout.split() == ["1", "1", "False", "True"], done.stderr


def test_threads_asking_for_the_child_command_at_once_get_one_command(monkeypatch) -> None:
    """The command is made once per process; requests served by threads (serve, mcp) that ask
    for it first at the same moment each get it whole, never two commands run together."""
    import threading

    monkeypatch.setattr(early_child, "_ARGV", None)
    start, got = threading.Barrier(16), []

    def ask() -> None:
        start.wait()
        got.append(early_child.default_argv())

    threads = [threading.Thread(target=ask) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 16 and all(argv == got[0] and len(argv) == 5 for argv in got)


def test_the_childs_path_leaves_out_only_the_script_and_current_folders(tmp_path: Path, monkeypatch) -> None:
    """The child imports from where this process imports, but the folder of the script that
    started it or the current one (which -I leaves out); a folder an embedding program put
    first on the path stays, or the child would not find what it put there."""
    vendor, script = tmp_path / "vendor", tmp_path / "bin"
    vendor.mkdir()
    script.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(script / "tool")])
    monkeypatch.setattr(sys, "path", [str(vendor), *sys.path])
    assert str(vendor) in early_child.child_path()
    for first in (str(script), str(tmp_path), ""):
        monkeypatch.setattr(sys, "path", [first, str(vendor), *sys.path[1:]])
        path = early_child.child_path()
        assert first not in path and str(vendor) in path
