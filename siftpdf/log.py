"""``--verbose`` log lines, told to the ``say`` the caller passes (the command line: stderr). For
a ``restricted`` caller a line carries the outcome only: no host, URL, title, path or text
(docs/manual.md, SERVICE: Callers)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    #: Told of every event, verbose or not, as ``observer(what, outcome, detail)`` (metrics).
    Observer = Callable[[str, str, dict[str, Any]], None]


class Log:
    def __init__(self, verbose: bool = False, restricted: bool = False, observer: Observer | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self.verbose, self.restricted, self.observer, self.say = verbose, restricted, observer, say

    def event(self, what: str, outcome: str, **detail: Any) -> None:
        """``what`` and ``outcome`` are fixed words; ``detail`` may name hosts and titles and is
        dropped for restricted callers (the observer then gets only the numbers: counts, ms)."""
        if self.observer is not None:
            numbers = {k: v for k, v in detail.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            self.observer(what, outcome, numbers if self.restricted else dict(detail))
        if not self.verbose or self.say is None:
            return
        fields = {"outcome": outcome} if self.restricted else {"outcome": outcome, **detail}
        text = " ".join(f"{key}={_value(value)}" for key, value in fields.items() if value is not None)
        self.say(f"siftpdf: {what} {text}")

    def warn(self, text: str) -> None:
        """A line a person should see, verbose or not (told to ``say``, when there is one)."""
        if self.say is not None:
            self.say(text)


def to_stderr(line: str) -> None:
    """A ``say`` for an application: ``line`` on stderr, at once (a stream that is gone is
    no reason to fail)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _value(value: Any) -> str:
    text = str(value)
    if not text or any(ch.isspace() or ch in "\"=" for ch in text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text
