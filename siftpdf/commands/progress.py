"""A progress bar on stderr for long extractions: the CLI side of ``ReadOptions.on_page``.

rich is imported only when a bar is actually drawn (stderr is a terminal and the document is
longer than a few pages), so pipes, scripts and short documents never pay its import time.
stdout is never touched.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MIN_PAGES = 8  # a shorter document is done before a bar is worth drawing

_active: list[PageProgress] = []


class PageProgress:
    """``on_page(done, total)``: draws a transient rich bar on stderr for a long document."""

    def __init__(self, quiet: bool = False) -> None:
        self.off = quiet or not _stderr_is_terminal()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.off:
            return
        if self.bar is None:
            if total < MIN_PAGES or done >= total:
                return
            self._start(total)
        self.bar.update(self.task, completed=done, total=total)
        if done >= total:
            self._stop()  # the next document (grep over several) may draw its own

    def _stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
            if self in _active:
                _active.remove(self)

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        console = Console(file=sys.stderr)  # honours NO_COLOR and TERM=dumb itself
        self.bar = Progress(TextColumn("extracting"), BarColumn(), MofNCompleteColumn(), TextColumn("pages"),
                            TimeRemainingColumn(), console=console, transient=True,
                            redirect_stdout=False, redirect_stderr=False)
        self.task = self.bar.add_task("extract", total=total)
        self.bar.start()
        _active.append(self)

    def close(self) -> None:
        """Take the bar off the screen; no more drawing after this."""
        self.off = True
        self._stop()


def before_output() -> None:
    """Data is about to go to stdout: when that is the terminal the bar is drawn on, the data
    wins and the bar goes away rather than be drawn over the text."""
    if _active and _stdout_is_terminal():
        for progress in list(_active):
            progress.close()


def _stderr_is_terminal() -> bool:
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
