"""The memory watchdog: where the kernel does not enforce RLIMIT_AS (macOS), the parent holds
each extraction child to its memory limit itself.

One thread per extraction samples the resident memory of its children :data:`RATE` times a
second (psutil: one system call each, tens of microseconds) and, when one is over the limit,
calls the child's ``over`` callback, which kills its process group (the runner then ends the
extraction ``too_large``). A page that allocates a GiB a second is over the limit by at most
what it allocates between two samples. The thread starts with the first child and stops, and
is joined, when the extraction closes: it never outlives its children.

Used only where :func:`siftpdf.system.memory_guard` says so: on Linux RLIMIT_AS costs nothing
and stops the allocation itself, so no thread runs there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

RATE = 20  # samples a second
INTERVAL = 1 / RATE
THREAD_NAME = "siftpdf-memory-watchdog"


def resident(process: object) -> int | None:
    """Resident bytes of a ``psutil.Process``; None once it is gone (or cannot be read)."""
    import psutil

    try:
        return int(process.memory_info().rss)  # type: ignore[attr-defined]
    except (psutil.Error, OSError):
        return None


class MemoryWatch:
    """Holds the children added to it to ``limit`` bytes of resident memory."""

    def __init__(self, limit: int, interval: float = INTERVAL) -> None:
        self.limit, self.interval = limit, interval
        self.samples = 0  # readings taken (``engine status`` shows the watchdog can read a child)
        self.peak = 0  # the highest reading
        self._watched: dict[int, tuple[object, Callable[[int], None]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, pid: int, over: Callable[[int], None]) -> None:
        """Watch process ``pid`` (a child not reaped yet, so the pid is its own); ``over(rss)``
        is called once when it is over the limit (from the watchdog's thread, or from here). The first
        reading is taken now: a child over the limit at once is stopped at once."""
        import psutil

        try:
            process = psutil.Process(pid)
        except psutil.Error:
            return  # gone already: its exit status says why
        with self._lock:
            self._watched[pid] = (process, over)
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
                self._thread.start()
        self._check(pid)

    def remove(self, pid: int) -> None:
        """Stop watching ``pid`` (before it is reaped: its pid may then be another's)."""
        with self._lock:
            self._watched.pop(pid, None)

    def close(self) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        with self._lock:
            thread, self._watched = self._thread, {}
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                pids = list(self._watched)
            for pid in pids:
                self._check(pid)

    def _check(self, pid: int) -> None:
        # Under the lock, the callback too: a child is removed before it is reaped, so no
        # reading and no kill can reach a process that took its pid after it.
        with self._lock:
            entry = self._watched.get(pid)
            rss = None if entry is None else resident(entry[0])
            if entry is None or rss is None:
                self._watched.pop(pid, None)
                return
            self.samples += 1
            self.peak = max(self.peak, rss)
            if rss > self.limit:
                self._watched.pop(pid, None)
                entry[1](rss)
