"""siftpdf off Linux, simulated on this Linux machine: the memory limit held by the parent's
watchdog where the kernel does not enforce RLIMIT_AS (macOS), the pool and the warm child
without /proc, the platform's cache folder on macOS, and one clear line on Windows.

The platform without RLIMIT_AS is the test seam SIFTPDF_TEST_PLATFORM_NO_RLIMIT (and without
the watchdog either, SIFTPDF_TEST_PLATFORM_NO_WATCHDOG; tests/seams): the parent then asks its
children for no RLIMIT_AS, so only the watchdog stands between a hostile page and the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import platformdirs
import psutil
import pytest
from conftest import ROOT, records, run_siftpdf

import siftpdf
from siftpdf import system
from siftpdf.child.job import WARM
from siftpdf.console import early
from siftpdf.errors import TooLargeError
from siftpdf.workers import early_child, memwatch, pool
from siftpdf.workers.pool import FileLock, Pool

SAMPLE = str(ROOT / "samples" / "sample.pdf")
HOG_TEXT = b"hostile fixture page text"
NO_RLIMIT = {"SIFTPDF_TEST_PLATFORM_NO_RLIMIT": "1"}
NEITHER = {**NO_RLIMIT, "SIFTPDF_TEST_PLATFORM_NO_WATCHDOG": "1"}
POSIX_LINE = "siftpdf: siftpdf needs a POSIX system: Linux, macOS or WSL\n"


def _watchdog_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == memwatch.THREAD_NAME]


def _extraction_children() -> list[psutil.Process]:
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if "siftpdf.child.main" in child.cmdline():
                found.append(child)
        except psutil.Error:
            continue  # gone meanwhile
    return found


# -- the memory limit without RLIMIT_AS --------------------------------------------------------------

def test_platform_without_rlimit_the_watchdog_kills_a_child_over_the_limit(memory_hog: Path) -> None:
    proc = run_siftpdf("pages", "1", "--json", "--memory-limit", "256", str(memory_hog), env=NO_RLIMIT)
    assert proc.returncode == 7, proc.stderr
    (error,) = [r["error"] for r in records(proc.stdout.decode()) if "error" in r]
    assert error["code"] == "too_large"
    assert "over the 256 MiB memory limit" in error["message"]
    used = int(error["message"].split("child used ")[1].split(" MiB")[0])
    assert used > 256  # the child really was over the limit when it was killed
    assert "--memory-limit" in error["hint"]
    assert HOG_TEXT not in proc.stdout


def test_platform_without_rlimit_the_text_view_says_why_in_one_line_and_a_hint(memory_hog: Path) -> None:
    proc = run_siftpdf("pages", "1", "--memory-limit", "256", str(memory_hog), env=NO_RLIMIT)
    assert proc.returncode == 7
    message, hint = proc.stderr.decode().splitlines()
    assert message.startswith("siftpdf: too large (the extraction child used ")
    assert message.endswith(" MiB, over the 256 MiB memory limit)")
    assert hint == "hint: a larger limit: --memory-limit MIB (0: none, for PDFs you trust)"


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_platform_without_rlimit_reads_the_sample_with_default_options(cache: list[str]) -> None:
    proc = run_siftpdf("pages", "1", *cache, SAMPLE, env=NO_RLIMIT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("--- page 1 ---\n\n1 Why rivers meander")
    assert not proc.stderr


def test_platform_without_rlimit_the_watchdog_ends_with_its_children(
        monkeypatch: pytest.MonkeyPatch, memory_hog: Path, fixtures: Path) -> None:
    """In the library: no watchdog thread and no child outlives an extraction, whether it
    ended well, over the limit, or was left after its first record."""
    monkeypatch.setenv("SIFTPDF_TEST_PLATFORM_NO_RLIMIT", "1")
    assert system.memory_guard() == system.WATCHDOG
    records_read = list(siftpdf.extract(fixtures / "three_page.pdf", cache=False))
    assert records_read[-1]["done"]["pages_processed"] == 3
    assert _watchdog_threads() == [] and _extraction_children() == []

    with pytest.raises(TooLargeError, match="over the 256 MiB memory limit"):
        list(siftpdf.extract(memory_hog, cache=False, memory_limit_mib=256))
    assert _watchdog_threads() == [] and _extraction_children() == []

    stream = siftpdf.extract(fixtures / "three_page.pdf", cache=False)
    assert "meta" in next(stream)
    assert len(_watchdog_threads()) == 1  # watching the child that reads the pages
    stream.close()
    assert _watchdog_threads() == [] and _extraction_children() == []


def test_platform_without_rlimit_or_watchdog_refuses_a_memory_limit() -> None:
    proc = run_siftpdf("pages", "1", "--no-cache", SAMPLE, env=NEITHER)
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        "siftpdf: cannot apply limits: a memory limit cannot be enforced on linux (no RLIMIT_AS, and psutil "
        "cannot read a child's memory)\nhint: --memory-limit 0 runs without a memory limit\n")
    assert proc.stdout == b""
    unlimited = run_siftpdf("pages", "1", "--no-cache", "--memory-limit", "0", SAMPLE, env=NEITHER)
    assert unlimited.returncode == 0, unlimited.stderr
    assert b"Why rivers meander" in unlimited.stdout


@pytest.mark.parametrize(("env", "mechanism", "enforced"), [({}, "rlimit", True), (NO_RLIMIT, "watchdog", True),
                                                             (NEITHER, None, False)])
def test_platform_engine_status_names_the_memory_limits_mechanism(
        env: dict[str, str], mechanism: str | None, enforced: bool) -> None:
    proc = run_siftpdf("engine", "status", "--json", env=env)
    status = json.loads(proc.stdout)["engine_status"]
    limit = status["memory_limit"]
    assert (limit["mechanism"], limit["enforced"], status["ok"]) == (mechanism, enforced, enforced)
    assert proc.returncode == (0 if enforced else 1)
    if mechanism == "watchdog":
        assert "a watchdog reads each child's resident memory 20 times a second" in limit["detail"]
    text = run_siftpdf("engine", "status", env=env).stdout.decode()
    line = {"rlimit": "memory limit: enforced by RLIMIT_AS (2048 MiB",
            "watchdog": "memory limit: enforced by the watchdog (2048 MiB",
            None: "memory limit: NOT enforced (2048 MiB"}[mechanism]
    assert line in text


def test_platform_memory_probe_needs_no_proc() -> None:
    """engine status's RLIMIT_AS test works where /proc cannot be read."""
    code = textwrap.dedent("""
        import builtins, os
        real_open, real_listdir = builtins.open, os.listdir
        def refuse(path, *args, **kwargs):
            if str(path).startswith("/proc"):
                raise FileNotFoundError(path)
            return real_open(path, *args, **kwargs)
        builtins.open = refuse
        from siftpdf.child import main as _child, probe as _probe
        _child.apply_limits(2 << 30, 30)
        print(_probe.probe_memory_limit()["enforced"])
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True", done.stderr


# -- the pool and the warm child without /proc ---------------------------------------------------------

@pytest.fixture
def no_proc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(pool, "LOCKS_TABLE", str(tmp_path / "no-proc" / "locks"))
    monkeypatch.setattr(early_child, "FD_FOLDER", str(tmp_path / "no-proc" / "self" / "fd"))
    assert pool._locked_inodes() is None


def test_platform_without_proc_the_pool_counts_what_is_held(own_cache: Path, no_proc: None) -> None:
    pool_ = Pool(own_cache)
    locks = [FileLock(os.path.join(pool_.dir, name)) for name in ("slot.1", "wait.0", "wait.3")]
    assert all(lock.try_acquire() for lock in locks)
    try:
        assert pool_.status() == {"running": 1, "waiting": 2, "slots": 2, "places": 32}
        assert not pool_._free(0) and pool_._free(1)
    finally:
        for lock in locks:
            lock.release()
    assert pool_.status() == {"running": 0, "waiting": 0, "slots": 2, "places": 32}


def test_platform_without_proc_commands_wait_in_line_and_run(tmp_path: Path, own_cache: Path, no_proc: None) -> None:
    """Two jobs of this process behind a held slot: both wait in line and both run."""
    pool_ = Pool(own_cache, slots=1, wait=60)
    slot = FileLock(os.path.join(pool_.dir, "slot.0"))
    assert slot.try_acquire()
    ran: list[int] = []

    def job(index: int) -> None:
        with pool_.job():
            ran.append(index)

    threads = [threading.Thread(target=job, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    slot.release()
    for thread in threads:
        thread.join(60)
    assert sorted(ran) == [0, 1]


def test_platform_without_proc_starts_no_warm_child(tmp_path: Path, no_proc: None, fixtures: Path) -> None:
    """The warm child needs this process's descriptors listed: without /proc there is none,
    nothing leaks, and the command starts its child the usual way."""
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError):
        early_child._spawn(early_child.default_argv() + [WARM])
    assert len(os.listdir("/proc/self/fd")) == before
    pdf = str(fixtures / "three_page.pdf")
    early.prestart(["pages", "--no-cache", "1", pdf], str(tmp_path / "pool"))
    try:
        assert early_child._Warm.child is None
    finally:
        early_child.discard()


# -- the cache folder ---------------------------------------------------------------------------------

def _simulated(tmp_path: Path, lines: str) -> str:
    """A folder whose sitecustomize makes Python look like another platform from its start."""
    folder = tmp_path / "platform"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text("import os, sys\n" + textwrap.dedent(lines))
    return str(folder)


def _run_as(folder: str, argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {key: value for key, value in os.environ.items() if key not in ("SIFTPDF_CACHE_DIR", "XDG_CACHE_HOME")}
    full.update(env, PYTHONPATH=folder)
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=full, timeout=60)


def test_platform_macos_cache_folder_is_library_caches(tmp_path: Path) -> None:
    mac = _simulated(tmp_path, 'sys.platform = "darwin"\n')
    home = tmp_path / "home"
    done = _run_as(mac, ["-m", "siftpdf", "cache", "info", "--json"], {"HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cache"]["directory"] == str(home / "Library" / "Caches" / "siftpdf")
    chosen = _run_as(mac, ["-m", "siftpdf", "cache", "info", "--json"],
                     {"HOME": str(home), "SIFTPDF_CACHE_DIR": str(tmp_path / "mine")})
    assert json.loads(chosen.stdout)["cache"]["directory"] == str(tmp_path / "mine")


@pytest.mark.parametrize("xdg", [None, "/tmp/xdg-cache"])
def test_platform_linux_cache_folder_is_platformdirs_rule(monkeypatch: pytest.MonkeyPatch, xdg: str | None) -> None:
    """On Linux the folder is spelled by hand (a cache hit does not import platformdirs): it
    is the one platformdirs gives, and SIFTPDF_CACHE_DIR still wins."""
    monkeypatch.delenv("SIFTPDF_CACHE_DIR")
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert system.default_cache_dir() == platformdirs.user_cache_dir("siftpdf", appauthor=False)
    monkeypatch.setenv("SIFTPDF_CACHE_DIR", "/tmp/chosen")
    assert system.default_cache_dir() == "/tmp/chosen"


# -- Windows without WSL ---------------------------------------------------------------------------------

WINDOWS = 'os.name = "nt"\nsys.platform = "win32"\n'


def test_platform_windows_command_says_so_in_one_line(tmp_path: Path) -> None:
    win = _simulated(tmp_path, WINDOWS)
    script = tmp_path / "siftpdf.exe"  # what pip's launcher runs: its console script
    script.write_text("import sys\nfrom siftpdf.cli import main\nsys.exit(main())\n")
    for argv in (["-m", "siftpdf", "pages", "1", SAMPLE], [str(script), "pages", "1", SAMPLE],
                 [str(script), "--help"]):
        done = _run_as(win, argv, {})
        assert (done.returncode, done.stderr, done.stdout) == (2, POSIX_LINE, ""), argv


def test_platform_windows_library_import_is_a_clear_import_error(tmp_path: Path) -> None:
    win = _simulated(tmp_path, WINDOWS)
    code = textwrap.dedent("""
        import sys
        try:
            import siftpdf
        except ImportError as exc:
            print(type(exc).__name__, exc)
        print("fcntl" in sys.modules, "resource" in sys.modules)
    """)
    done = _run_as(win, ["-c", code], {})
    assert done.stdout.splitlines() == ["PlatformError siftpdf needs a POSIX system: Linux, macOS or WSL",
                                        "False False"], done.stderr
