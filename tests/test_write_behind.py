"""A first read's cache writes, left to a copy of the command that outlives it
(siftpdf/store/behind.py): the command returns as soon as it has printed, and every later look
in the cache finds what it read, as if the command had written it itself."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from siftpdf.store import behind, local_reader
from siftpdf.store.local_reader import file_stamp
from siftpdf.workers.pool import FileLock


def _siftpdf(args: list[str], cache: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    """The ``siftpdf`` command as a user runs it (``python -m siftpdf``: the console's main)."""
    full = {**os.environ, "SIFTPDF_CACHE_DIR": str(cache), **env}
    return subprocess.run([sys.executable, "-m", "siftpdf", *args], capture_output=True, env=full, timeout=120)


def _imported(stderr: bytes) -> set[str]:
    return {line.split("|")[-1].strip() for line in stderr.decode().splitlines() if line.startswith("import time:")}


def test_a_first_read_prints_without_opening_the_store_and_the_next_read_is_a_hit(fixtures: Path,
                                                                                  tmp_path: Path) -> None:
    pdf, cache = fixtures / "three_page.pdf", tmp_path / "cache"
    bare = _siftpdf(["extract", "--json", "--no-cache", str(pdf)], cache)
    first = _siftpdf(["extract", "--json", str(pdf)], cache, PYTHONPROFILEIMPORTTIME="1")
    assert first.returncode == 0, first.stderr
    assert _strip(first.stdout) == _strip(bare.stdout)
    # The command itself loaded neither the store (diskcache, SQLite) nor OpenSSL's hashes.
    assert not _imported(first.stderr) & {"diskcache", "sqlite3", "_sqlite3", "_hashlib"}
    # At once, as a script runs its next line: a hit, the same records.
    again = _siftpdf(["extract", "--json", "--verbose", str(pdf)], cache)
    assert again.returncode == 0, again.stderr
    assert b"pdf outcome=cached" in again.stderr and b"outcome=ok" not in again.stderr, again.stderr
    assert _strip(again.stdout) == _strip(bare.stdout)


def _strip(out: bytes) -> bytes:
    import re

    return re.sub(rb'"elapsed_ms":\d+', b'"elapsed_ms":0', out)


def test_cache_clear_right_after_a_read_clears_what_that_read_wrote(fixtures: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for name in ("three_page.pdf", "long.pdf"):
        assert _siftpdf(["extract", "--max-pages", "3", str(fixtures / name)], cache).returncode == 0
    cleared = _siftpdf(["cache", "clear"], cache)
    assert cleared.stdout == b"removed 2 documents\n", cleared.stderr
    info = _siftpdf(["cache", "info", "--json"], cache)
    assert b'"documents":0' in info.stdout.replace(b" ", b"")
    assert not (cache / local_reader.KNOWN).exists()  # nothing said to be there any longer


def _held(path: str, shared: bool) -> FileLock:
    lock = FileLock(path)
    assert lock.try_acquire(shared=shared)
    return lock


def _waiting(args: list[str], cache: Path, meanwhile: Callable[[], None]) -> tuple[int, bytes, bytes]:
    """Run the command; it must still be waiting a second later, when ``meanwhile`` (which
    asserts what holds while it waits, then lets it go on) is called; its status and output."""
    full = {**os.environ, "SIFTPDF_CACHE_DIR": str(cache)}
    process = subprocess.Popen([sys.executable, "-m", "siftpdf", *args], env=full,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert _still_running(process, 1.0)
        meanwhile()
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, out, err


def _still_running(process: subprocess.Popen[bytes], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            return False
        time.sleep(0.05)
    return True


def test_a_look_in_the_cache_waits_for_a_copy_still_writing_the_file(fixtures: Path, tmp_path: Path) -> None:
    """A copy writing a file holds the file's lock: a command that looks the file up waits for
    it, then finds it (here the test plays the copy, and writes the file's entries itself)."""
    pdf, cache = fixtures / "three_page.pdf", tmp_path / "cache"
    assert _siftpdf(["extract", str(pdf)], cache).returncode == 0
    assert _siftpdf(["cache", "info"], cache).returncode == 0  # what the first read left, written
    path, stamp = str(pdf.resolve()), file_stamp(os.stat(pdf))
    lock = _held(behind._lock_path(str(cache), behind.file_lock_name("default", path, stamp)), shared=False)
    hidden = cache / local_reader.KNOWN
    hidden.rename(cache / "known-aside")  # the file not yet marked: what a look sees mid-write

    def written() -> None:  # the copy done
        (cache / "known-aside").rename(hidden)
        lock.release()

    code, out, err = _waiting(["pages", "2", str(pdf)], cache, written)
    assert code == 0, err
    assert out == _siftpdf(["pages", "2", "--no-cache", str(pdf)], cache).stdout


def test_cache_commands_wait_for_every_copy_still_writing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    lock = _held(os.path.join(cache, "pool", behind._WRITERS), shared=True)
    code, out, err = _waiting(["cache", "clear"], cache, lock.release)
    assert code == 0 and out == b"removed 0 documents\n", err


def test_a_read_in_a_process_that_goes_on_writes_the_cache_itself(fixtures: Path, own_cache: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A library caller, a service, or a command with another thread running makes no copy:
    when the read returns, what it read is in the cache."""
    import siftpdf
    from siftpdf import console
    from siftpdf.commands import actions

    made: list[Any] = []
    monkeypatch.setattr(os, "fork", lambda: made.append(1) or -1)
    with siftpdf.open_doc(str(fixtures / "three_page.pdf")) as doc:  # the library: write_behind is off
        list(doc.pages())
    monkeypatch.setattr(console, "COMMAND", True)  # the command, but a thread runs beside it
    options, _progress = actions.read_options({"max_pages": 2}, quiet=True)
    assert options.hints.write_behind
    import threading

    beside = threading.Event()
    thread = threading.Thread(target=beside.wait)
    thread.start()
    try:
        with siftpdf.open_doc(str(fixtures / "long.pdf"), options) as doc:
            list(doc.pages())
    finally:
        beside.set()
        thread.join()
    assert not made
    view = local_reader.View(own_cache)
    for name in ("three_page.pdf", "long.pdf"):
        path = str((fixtures / name).resolve())
        assert view.file("default", path, file_stamp(os.stat(path))) is not None


def test_a_document_longer_than_a_copy_keeps_is_written_as_it_is_read(fixtures: Path, own_cache: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import siftpdf
    from siftpdf import console
    from siftpdf.commands import actions

    made: list[Any] = []
    monkeypatch.setattr(behind, "outlive", lambda work, keep: made.append(work) or False)
    monkeypatch.setattr(behind, "PAGES", 2)
    monkeypatch.setattr(console, "COMMAND", True)
    options, _progress = actions.read_options({"max_pages": 6}, quiet=True)
    with siftpdf.open_doc(str(fixtures / "long.pdf"), options) as doc:
        assert len(list(doc.pages())) == 6
    assert not made  # past PAGES the writer wrote here, page by page: no copy was asked for
    path = str((fixtures / "long.pdf").resolve())
    assert local_reader.View(own_cache).file("default", path, file_stamp(os.stat(path))) is not None


def test_a_store_that_never_held_a_file_is_told_without_opening_it(tmp_path: Path) -> None:
    from siftpdf.store.local_store import CacheSettings, open_store

    store = open_store(CacheSettings(directory=tmp_path))
    assert not local_reader.known(tmp_path, "file", "default", "/a.pdf")
    store.put_file("default", "/a.pdf", "stamp", "0" * 64)
    assert local_reader.known(tmp_path, "file", "default", "/a.pdf")
    assert not local_reader.known(tmp_path, "file", "restricted", "/a.pdf")  # per caller class
    assert not local_reader.known(tmp_path, "doc", "default", "0" * 64)


def test_a_first_reads_look_in_a_cache_a_copy_wrote_imports_no_threading(fixtures: Path, tmp_path: Path) -> None:
    """The look that decides a first read comes before its child is started (the child is what
    a one-page command waits for): where a copy once wrote, it reads the copies' locks, and the
    pool's module they live in no longer brings threading (with functools and collections)."""
    cache = tmp_path / "cache"
    assert _siftpdf(["extract", str(fixtures / "three_page.pdf")], cache).returncode == 0
    behind.wait_all(str(cache))
    assert (Path(behind.pool_folder(str(cache))) / "behind").is_dir()  # a copy wrote here
    given = {"cache_dir": str(cache), "max_pages": 2000, "ocr": None}
    code = ("import sys; from siftpdf.console.cache_hits import cached; "
            f"print(cached({str(fixtures / 'long.pdf')!r}, {given!r}), 'threading' in sys.modules)")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}  # no test seams
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=60)
    assert done.stdout.split() == [b"None", b"False"], done.stderr


def test_a_command_waiting_for_another_reading_the_same_bytes_holds_no_pool_slot(fixtures: Path,
                                                                                 tmp_path: Path) -> None:
    """Three first reads of one file at once: two took the pool's two slots for their warm
    children, the third the file's flight lock, and it waited for a slot while the two waited
    for the lock. A command that must wait for another reading the same bytes gives its slot
    back first."""
    from siftpdf.store.local_store import Store
    from siftpdf.workers.pool import Pool, flight_lock

    pdf = fixtures / "three_page.pdf"
    probe = tmp_path / "probe"
    assert _siftpdf(["extract", str(pdf)], probe).returncode == 0
    assert _siftpdf(["cache", "info"], probe).returncode == 0
    (key,) = [key for key in Store(probe).docs.iterkeys() if str(key).startswith("doc|")]
    _, cls, sha, digest = key.split("|")
    cache = tmp_path / "cache"
    leader = flight_lock(cache, f"{cls}|content|{sha}|{digest}")  # the test plays the one reading it
    assert leader.try_acquire()

    def read() -> None:  # while it waits for the lock, no slot is held; then the test is done
        assert Pool(cache).status()["running"] == 0
        leader.release()

    code, out, err = _waiting(["extract", str(pdf)], cache, read)
    assert code == 0, err
    assert _strip(out) == _strip(_siftpdf(["extract", "--no-cache", str(pdf)], cache).stdout)
