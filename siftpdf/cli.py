"""The console command ``siftpdf``. This module stays light: :func:`main` starts the
extraction child of a command line that names a local PDF (:mod:`siftpdf.warm`) before click
and the library are imported, so that the child's start-up overlaps the parent's. The click
group is :mod:`siftpdf.commands.group`; its names (``cli``, ``usage_error`` …) are read here too."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

COMMANDS = {
    "sniff": "siftpdf.commands.sniff",
    "extract": "siftpdf.commands.extract",
    "map": "siftpdf.commands.map",
    "pages": "siftpdf.commands.pages",
    "grep": "siftpdf.commands.grep",
    "fetch": "siftpdf.commands.fetch",
    "cache": "siftpdf.commands.cache",
    "digest": "siftpdf.commands.digest",
    "engine": "siftpdf.commands.engine",
    "serve": "siftpdf.commands.serve",
}


def main() -> None:
    from .warm import prestart

    prestart(sys.argv[1:])
    from .commands.group import main as run

    run()


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system asks for __path__ and such: not the group's
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .commands import group

    try:
        return getattr(group, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
