"""The extraction pool and single-flight locks, shared by every process using one cache dir.

Everything is an OS file lock (``flock``) on a file under ``<cache dir>/pool``: the kernel drops
a lock when its holder exits, however it exits, so a process killed while holding a slot frees
it at once and nothing needs cleaning up.

The pool rule: at most ``SLOTS`` extraction children at once per cache dir (more while a job
asked for more workers runs: ``--workers N`` lets that job's pool have N slots). A job holds one slot
for each child it runs. It waits for its first slot in a line of places (``wait.0`` …
``wait.N``), and takes a second one only when it is free at that moment and nobody is waiting,
so a large document uses both cores when the machine is idle and never makes another job wait
for its second child.

The line is first come, first served (nearly): a job joins behind the last place held; each
waiter moves up one place when the place in front of it frees, and the first ``SLOTS`` places
take a slot when one frees. A waiter in front that does not move up into a free place passes
for stuck and is passed (a stopped process keeps its place, not the line).

How long a job waits, and how far back it may join, is its caller's: without a wait of its own
(the service, the library) a job joins in the first ``WAITING`` places and waits at most
``MAX_WAIT`` seconds, and a full line is busy at once (503 with Retry-After); the command line
gives a wait of its own (``--wait``, default :data:`siftpdf.defaults.WAIT`) and may join
anywhere in the ``QUEUE`` places, so a batch (``xargs -P 10``) queues instead of failing. Past
the wait, or with the line full, the job is :class:`BusyError` (exit 75). One job in flight per
caller id (``SIFTPDF_CALLER_ID``): a second concurrent one is busy at once.
"""

from __future__ import annotations

import fcntl
import os
import time

from ..defaults import MAX_WORKERS, QUEUE, SLOTS
from ..errors import BusyError, CallerBusyError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from os import PathLike

    from ..cancel import Cancel

__all__ = ["SLOTS", "WAITING", "MAX_WAIT", "QUEUE", "CALLER_BUSY", "Pool", "flight_lock", "take_caller"]

WAITING = 4  # places a job without a wait of its own may join at (the service's line)
MAX_WAIT = 20.0  # and how long it waits
# The whole line (QUEUE, siftpdf.defaults): places a job with a wait of its own (the command line)
# may join at. A waiting job is a process holding its PDF's bytes: the line is bounded so a
# runaway batch (xargs -P 0) is refused at once rather than filling the machine's memory.
POLL = 0.05
# The head of the line looks for a free slot this often: a slot left free is a core left idle
# (two such processes, a few lock calls each: far less than what a child costs).
HEAD_POLL = 0.01
# A waiter whose place in front is held while the place in front of that stays free this long
# passes the waiter between: it is stuck (a live one moves up within one poll).
STUCK = 1.0
# The kernel's table of file locks (Linux): who holds a place, read without taking it. Where
# there is none (macOS, a Linux without /proc), places are probed: taken and given back at once.
LOCKS_TABLE = "/proc/locks"


def poll(try_acquire: Callable[[], bool], timeout: float, cancel: Cancel | None = None,
         every: float = POLL) -> bool:
    """Try a lock until it is taken or ``timeout`` seconds have passed (polling, ``every``
    seconds, so that a wait can be bounded); a ``cancel`` set meanwhile ends the wait in
    CancelledError."""
    end = time.monotonic() + timeout
    while not try_acquire():
        if cancel is not None:
            cancel.check()
        if time.monotonic() >= end:
            return False
        time.sleep(every)
    return True


class FileLock:
    """An ``flock`` on one file (exclusive, or shared when taken so), released by :meth:`release`
    or by process exit."""

    def __init__(self, path: str | PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._fd: int | None = None

    @classmethod
    def adopt(cls, taken: tuple[str, int] | None) -> FileLock | None:
        """The lock of a (path, descriptor) whose flock is held already (taken by
        :mod:`siftpdf.workers.early_child`, which cannot import this module); None for None."""
        if taken is None:
            return None
        lock = cls(taken[0])
        lock._fd = taken[1]
        return lock

    def try_acquire(self, shared: bool = False) -> bool:
        """Take the lock now if it is free (``shared``: beside other shared holders)."""
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def acquire(self, timeout: float, cancel: Cancel | None = None) -> bool:
        return poll(self.try_acquire, timeout, cancel)

    @property
    def held(self) -> bool:
        return self._fd is not None

    @property
    def descriptor(self) -> int | None:
        """The descriptor that holds the lock (a copy of the process holds it through its own)."""
        return self._fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None


def lock_name(key: str) -> str:
    """The file name of the lock of ``key`` (any string: a path's undecodable bytes too)."""
    from ..system import sha256_hex

    return sha256_hex(key.encode("utf-8", "surrogateescape"))[:32]


def pool_dir(cache_dir: str | PathLike[str]) -> str:
    from .early_child import pool_folder

    return pool_folder(os.fspath(cache_dir))


class Job:
    """A running job's slots: one per extraction child it runs."""

    def __init__(self, pool: Pool, slots: list[FileLock]) -> None:
        self._pool = pool
        self._slots = slots

    def add_slot(self) -> bool:
        """A second child, only if a slot is free right now and no job waits for one: never
        waited for, and never taken from the line."""
        slot = self._pool._take_slot_if_nobody_waits()
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

    def __enter__(self) -> Job:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


class _CallerLock(FileLock):
    def __init__(self, path: str, caller_id: str, held_by: dict[str, _CallerLock]) -> None:
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
try:  # threading.local itself, without threading's import (a first read's look in the cache comes here
    from _thread import _local as _ThreadLocal  # before its child is started, threading after)
except ImportError:  # pragma: no cover - a Python without it
    from threading import local as _ThreadLocal
_THREAD = _ThreadLocal()


def _callers() -> dict[str, _CallerLock]:
    held: dict[str, _CallerLock] | None = getattr(_THREAD, "callers", None)
    if held is None:
        held = _THREAD.callers = {}
    return held


CALLER_BUSY = "busy: this caller already has a PDF job in flight"


def take_caller(cache_dir: str | PathLike[str], caller_id: str) -> FileLock | None:
    """The caller's one-job lock on this machine (:meth:`siftpdf.store.tiers.Caches.take_caller` adds
    the shared server's); None when this thread holds it already; busy when another does."""
    held = _callers()
    if caller_id in held:
        return None
    lock = _CallerLock(os.path.join(pool_dir(cache_dir), f"caller.{lock_name(caller_id)}"), caller_id, held)
    if not lock.try_acquire():
        raise CallerBusyError(CALLER_BUSY)
    held[caller_id] = lock
    return lock


class Pool:
    def __init__(self, cache_dir: str | PathLike[str], slots: int = SLOTS, waiting: int = WAITING,
                 max_wait: float = MAX_WAIT, wait: float | None = None, cancel: Cancel | None = None) -> None:
        """``wait`` is the caller's own wait (``--wait``): the job may then join anywhere in
        the ``QUEUE`` places and waits that long; None is the service's line (``waiting``
        places, ``max_wait`` seconds). A ``cancel`` set while the job waits takes it out of
        the line (CancelledError)."""
        self.cancel = cancel
        self.dir = pool_dir(cache_dir)
        self.slots, self.waiting, self.max_wait = slots, waiting, max_wait
        self.wait = wait
        if wait is not None:
            self.waiting, self.max_wait = QUEUE, wait

    def _slot(self, index: int) -> FileLock:
        return FileLock(os.path.join(self.dir, f"slot.{index}"))

    def _place(self, index: int) -> FileLock:
        return FileLock(os.path.join(self.dir, f"wait.{index}"))

    def _take_slot(self) -> FileLock | None:
        for index in range(self.slots):
            lock = self._slot(index)
            if lock.try_acquire():
                return lock
        return None

    def _take_slot_if_nobody_waits(self) -> FileLock | None:
        """A slot free now, unless a job waits for one (:func:`siftpdf.workers.early_child.free_slot`)."""
        from .early_child import free_slot

        os.makedirs(self.dir, exist_ok=True)
        return FileLock.adopt(free_slot(self.dir, self.slots))

    def _claimed(self) -> FileLock | None:
        """The slot the console took for this job before the pool was imported
        (:func:`siftpdf.workers.early_child.claim_slot`), if it was taken in this pool."""
        from .early_child import take_slot

        return FileLock.adopt(take_slot(self.dir))

    def job(self) -> Job:
        """A slot held for one extraction job (waited for in the line if need be), released at
        the end of ``with``. The caller's one-job lock is taken before
        (:meth:`siftpdf.store.tiers.Caches.take_caller`)."""
        job = Job(self, [])
        try:
            job._slots.append(self._claimed() or self._wait_for_slot())
        except BaseException:
            job.release()
            raise
        return job

    def _wait_for_slot(self) -> FileLock:
        end = time.monotonic() + self.max_wait
        index, place = self._join()
        try:
            gap_since: float | None = None  # when the place two ahead was first seen free
            gave_up_warm = False
            while True:
                if index < self.slots:
                    slot = self._take_slot()
                    if slot is not None:
                        return slot
                moved = self._move_up(index, gap_since)
                if moved is not None:
                    place.release()
                    index, place = moved
                    gap_since = None
                    continue
                if self.cancel is not None:
                    self.cancel.check()
                now = time.monotonic()
                if now >= end:
                    raise self._busy(full=False)
                if index >= 2 and self._free(index - 2):
                    gap_since = gap_since or now
                else:
                    gap_since = None
                if not gave_up_warm:  # an idle child waiting in line is a child too many
                    from .early_child import discard

                    discard()
                    gave_up_warm = True
                time.sleep(min(HEAD_POLL if index < self.slots else POLL * (index // self.slots), end - now))
        finally:
            place.release()

    def _join(self) -> tuple[int, FileLock]:
        """A place behind the last one held (or any free one, where the kernel's lock table
        cannot be read); busy when this caller's part of the line is full."""
        held = self._held("wait", QUEUE)
        first = max(held) + 1 if held else 0
        order = list(range(first, self.waiting))
        if _locked_inodes() is None:
            # Probed: another's probe (a job joining, `cache info`) holds a free place for a
            # moment and looks like a waiter, so the line may look longer than it is.
            order += range(min(first, self.waiting))
        for index in order:
            place = self._place(index)
            if place.try_acquire():
                return index, place
        raise self._busy(full=True)

    def _move_up(self, index: int, gap_since: float | None) -> tuple[int, FileLock] | None:
        """The place in front, when it is free; else the one in front of that, when it has
        stayed free for ``STUCK`` seconds (since ``gap_since``): the waiter between has stopped."""
        if index == 0:
            return None
        place = self._place(index - 1)
        if place.try_acquire():
            return index - 1, place
        if gap_since is not None and time.monotonic() - gap_since >= STUCK:
            place = self._place(index - 2)
            if place.try_acquire():
                return index - 2, place
        return None

    def _free(self, index: int) -> bool:
        """Whether place ``index`` is free, read from the kernel's lock table without taking it
        (taking it would stand in the way of the waiter moving into it); probed where there is
        no table (a waiter moving into it that moment tries again at its next poll)."""
        locked = _locked_inodes()
        if locked is None:
            return not self._held_now(os.path.join(self.dir, f"wait.{index}"))
        try:
            return os.stat(os.path.join(self.dir, f"wait.{index}")).st_ino not in locked
        except FileNotFoundError:
            return True

    def _busy(self, full: bool) -> BusyError:
        if self.wait is None:
            return BusyError("pdf workers busy")  # the service's answer: 503 with Retry-After
        if full:
            return BusyError(f"pdf workers busy ({self.waiting} jobs waiting already)")
        if self.wait == 0:
            return BusyError("pdf workers busy", hint="retry after 10 s, or wait in line: --wait SECONDS")
        return BusyError(f"pdf workers busy (waited {self.wait:g} s in line)",
                         hint="retry later, or wait longer: --wait SECONDS (env SIFTPDF_WAIT)")

    def status(self) -> dict[str, int]:
        """How many slots and waiting places are held right now, of how many (the running
        children of jobs with more workers than this pool's slots counted too)."""
        running = len(self._held("slot", max(self.slots, MAX_WORKERS)))
        return {"running": running, "waiting": len(self._held("wait", QUEUE)),
                "slots": self.slots, "places": QUEUE}

    def _held(self, prefix: str, count: int) -> list[int]:
        """The indexes of the ``prefix`` files held, read from the kernel's lock table (probing
        could steal a place meanwhile); by probing where there is no such table."""
        locked = _locked_inodes()
        held = []
        for index in range(count):
            path = os.path.join(self.dir, f"{prefix}.{index}")
            if locked is not None:
                try:
                    if os.stat(path).st_ino in locked:
                        held.append(index)
                except FileNotFoundError:
                    pass
                continue
            if self._held_now(path):
                held.append(index)
        return held

    @staticmethod
    def _held_now(path: str) -> bool:
        """Whether another holds the lock of ``path``, found by taking it and giving it back."""
        lock = FileLock(path)
        if lock.try_acquire():
            lock.release()
            return False
        return True


def _locked_inodes() -> set[int] | None:
    """Inodes with a flock held, from the kernel's lock table (:data:`LOCKS_TABLE`, Linux); None
    where there is no such table.
    A line reads ``1: FLOCK ADVISORY WRITE <pid> <major>:<minor>:<inode> 0 EOF``; ``->`` lines
    are waiters, not holders."""
    try:
        with open(LOCKS_TABLE, encoding="ascii") as table:
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


def flight_lock(cache_dir: str | PathLike[str], key: str) -> FileLock:
    return FileLock(os.path.join(pool_dir(cache_dir), "flight", lock_name(key)))
