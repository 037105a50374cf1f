"""Stopping a read from another thread: a server's caller that gives up on a call (an MCP
``notifications/cancelled``) must not leave its extraction child running to the deadline.

A :class:`Cancel` travels in :class:`siftpdf.options.ReadOptions`; the read watches it where
it waits (its place in the pool's line, a single-flight lock) and where it runs children
(:func:`siftpdf.workers.runner.run_child` kills them the moment it is set). The read then raises
:class:`siftpdf.errors.CancelledError`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Cancel:
    """A switch that is set once, from any thread; what watches it is told at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._watchers: list[Callable[[], None]] = []

    @property
    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        with self._lock:
            if self._set:
                return
            self._set = True
            watchers, self._watchers = self._watchers, []
        for watcher in watchers:
            watcher()

    def watch(self, watcher: Callable[[], None]) -> Callable[[], None]:
        """Call ``watcher`` when the switch is set (now, if it is already); returns what stops
        the watching."""
        with self._lock:
            if not self._set:
                self._watchers.append(watcher)
                return lambda: self._forget(watcher)
        watcher()
        return lambda: None

    def check(self) -> None:
        """Raise CancelledError when the switch is set."""
        if self._set:
            from .errors import CancelledError

            raise CancelledError("cancelled by the caller")

    def _forget(self, watcher: Callable[[], None]) -> None:
        with self._lock:
            if watcher in self._watchers:
                self._watchers.remove(watcher)
