"""The extraction pool and single-flight locks, shared by every process using one cache dir.

Everything is an OS file lock (``flock``) on a file under ``<cache dir>/pool``: the kernel drops
a lock when its holder exits, however it exits, so a process killed while holding a slot frees
it at once and nothing needs cleaning up.

The pool rule: at most ``SLOTS`` extraction children at once per cache dir. A job holds one slot
for each child it runs: it waits (in one of ``WAITING`` places, at most ``MAX_WAIT`` seconds) for
its first slot, and takes a second one only when it is free at that moment, so a large document
uses both cores when the machine is idle and never makes another job wait for its second child.
A full queue or a wait over ``MAX_WAIT`` is :class:`BusyError` (exit 75). One job in flight per
caller id (``SIFTPDF_CALLER_ID``): a second concurrent one is busy at once.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import BusyError, CallerBusyError

SLOTS = 2
WAITING = 4
MAX_WAIT = 20.0
POLL = 0.05


class FileLock:
    """An exclusive ``flock`` on one file, released by :meth:`release` or by process exit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def acquire(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds (polling, so a wait can be bounded)."""
        end = time.monotonic() + timeout
        while not self.try_acquire():
            if time.monotonic() >= end:
                return False
            time.sleep(POLL)
        return True

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None


def _name(key: str) -> str:
    import hashlib

    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def pool_dir(cache_dir: Path) -> Path:
    return cache_dir / "pool"


class Job:
    """A running job's slots: one per extraction child it runs."""

    def __init__(self, pool: Pool, slots: list[FileLock]) -> None:
        self._pool = pool
        self._slots = slots

    @property
    def workers(self) -> int:
        return len(self._slots)

    def add_slot(self) -> bool:
        """A second child, only if a slot is free right now: never waited for."""
        slot = self._pool._take_slot()
        if slot is None:
            return False
        self._slots.append(slot)
        return True

    def drop_slot(self) -> None:
        if len(self._slots) > 1:
            self._slots.pop().release()

    def release(self) -> None:
        while self._slots:
            self._slots.pop().release()


class _CallerLock(FileLock):
    def __init__(self, path: Path, caller_id: str, held_by: dict[str, _CallerLock]) -> None:
        super().__init__(path)
        self.caller_id = caller_id
        self._held_by = held_by

    def release(self) -> None:
        if self.held:
            self._held_by.pop(self.caller_id, None)
        super().release()


# Caller ids whose job this thread is running: a download and then the extraction of what
# it brought are one job, so the extraction does not take the caller's lock a second time.
# Per thread, so that two requests of one caller served by one process are two jobs (flock
# locks of two descriptors conflict even within a process).
_THREAD = threading.local()


def _callers() -> dict[str, _CallerLock]:
    held: dict[str, _CallerLock] | None = getattr(_THREAD, "callers", None)
    if held is None:
        held = _THREAD.callers = {}
    return held


def take_caller(cache_dir: Path, caller_id: str) -> FileLock | None:
    """The caller's one-job lock; None when this thread holds it already; busy when another does."""
    held = _callers()
    if caller_id in held:
        return None
    lock = _CallerLock(pool_dir(cache_dir) / f"caller.{_name(caller_id)}", caller_id, held)
    if not lock.try_acquire():
        raise CallerBusyError("busy: this caller already has a PDF job in flight")
    held[caller_id] = lock
    return lock


class Pool:
    def __init__(self, cache_dir: Path, slots: int = SLOTS, waiting: int = WAITING,
                 max_wait: float = MAX_WAIT) -> None:
        self.cache_dir = cache_dir
        self.dir = pool_dir(cache_dir)
        self.slots, self.waiting, self.max_wait = slots, waiting, max_wait

    def _slot(self, index: int) -> FileLock:
        return FileLock(self.dir / f"slot.{index}")

    def _take_slot(self) -> FileLock | None:
        for index in range(self.slots):
            lock = self._slot(index)
            if lock.try_acquire():
                return lock
        return None

    def _claimed(self) -> FileLock | None:
        """The slot the console's cold path took for this job before the pool was imported
        (:func:`siftpdf.warm.claim_slot`), if it was taken in this pool."""
        from .warm import take_slot

        claimed = take_slot(os.fspath(self.dir))
        if claimed is None:
            return None
        lock = FileLock(Path(claimed[0]))
        lock._fd = claimed[1]
        return lock

    def _take_waiting_place(self) -> FileLock | None:
        for index in range(self.waiting):
            lock = FileLock(self.dir / f"wait.{index}")
            if lock.try_acquire():
                return lock
        return None

    @contextmanager
    def job(self, caller_id: str | None = None) -> Iterator[Job]:
        """Hold a slot for one extraction job (waiting for it in the queue if need be)."""
        caller = take_caller(self.cache_dir, caller_id) if caller_id else None
        job = Job(self, [])
        try:
            job._slots.append(self._claimed() or self._take_slot() or self._wait_for_slot())
            yield job
        finally:
            job.release()
            if caller:
                caller.release()

    def _wait_for_slot(self) -> FileLock:
        place = self._take_waiting_place()
        if place is None:
            raise BusyError("pdf workers busy")
        try:
            end = time.monotonic() + self.max_wait
            while time.monotonic() < end:
                slot = self._take_slot()
                if slot is not None:
                    return slot
                time.sleep(POLL)
            raise BusyError("pdf workers busy")
        finally:
            place.release()

    def status(self) -> dict[str, int]:
        """How many slots and waiting places are held right now (by probing the locks)."""
        return {"running": self._count("slot", self.slots), "waiting": self._count("wait", self.waiting)}

    def _count(self, prefix: str, count: int) -> int:
        locked = _locked_inodes()
        if locked is not None:  # read the kernel's table: probing could steal a place meanwhile
            held = 0
            for index in range(count):
                try:
                    held += os.stat(self.dir / f"{prefix}.{index}").st_ino in locked
                except FileNotFoundError:
                    pass
            return held
        held = 0
        for index in range(count):
            lock = FileLock(self.dir / f"{prefix}.{index}")
            if lock.try_acquire():
                lock.release()
            else:
                held += 1
        return held


def _locked_inodes() -> set[int] | None:
    """Inodes with a flock held, from /proc/locks (Linux); None where there is no such table.
    A line reads ``1: FLOCK ADVISORY WRITE <pid> <major>:<minor>:<inode> 0 EOF``; ``->`` lines
    are waiters, not holders."""
    try:
        with open("/proc/locks", encoding="ascii") as table:
            lines = table.read().splitlines()
    except OSError:
        return None
    inodes = set()
    for line in lines:
        fields = line.split()
        if "FLOCK" not in fields or "->" in fields:
            continue
        for field_ in fields:
            parts = field_.split(":")
            if len(parts) == 3 and parts[2].isdigit():
                inodes.add(int(parts[2]))
                break
    return inodes


@contextmanager
def flight(cache_dir: Path, key: str, timeout: float) -> Iterator[FileLock]:
    """Single-flight: one process at a time does the work named by ``key``; the others wait
    here and then find the result in the cache. Waiting longer than ``timeout`` is busy."""
    lock = flight_lock(cache_dir, key)
    if not lock.acquire(timeout):
        raise BusyError("pdf workers busy (waiting for the same document)")
    try:
        yield lock
    finally:
        lock.release()


def flight_lock(cache_dir: Path, key: str) -> FileLock:
    return FileLock(pool_dir(cache_dir) / "flight" / _name(key))
