"""How many extraction children run at once under a set of processes, watched from outside
(Linux /proc): the pool's promise, as a user counting processes would see it. Used by the
pool's tests and by bench/bench_queue.py."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable

# What an extraction child's command line holds: the package's child, or the tests' hooked one.
MARKS = ("siftpdf.child.main", "hooked_child.py")


def _alive(pid: int) -> bool:
    """Running, or sleeping: not exited (a zombie waiting to be reaped runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def children_under(roots: Iterable[int]) -> set[int]:
    """The live extraction children among the descendants of ``roots``."""
    found, stack = set(), list(roots)
    while stack:
        pid = stack.pop()
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().decode("utf-8", "replace")
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as handle:
                    stack.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue
        if any(mark in cmdline for mark in MARKS) and _alive(pid):
            found.add(pid)
    return found


def at_once(roots: Iterable[int]) -> int:
    """Children that were all alive at one moment. A walk of the tree is not one instant (a
    child may end and the next start while it runs), so those it found are looked at again:
    each one alive at both looks was alive all along, at the same time as the others."""
    return sum(1 for pid in children_under(roots) if _alive(pid))


class Watch:
    """Samples :func:`at_once` every ``every`` seconds in a thread until :meth:`stop`; ``peak``
    is the most children seen at once. ``roots`` is called at each sample (processes come
    and go)."""

    def __init__(self, roots: Callable[[], Iterable[int]], every: float = 0.01) -> None:
        self.roots, self.every, self.peak, self.samples = roots, every, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, at_once(self.roots()))
            self.samples += 1
            time.sleep(self.every)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak
