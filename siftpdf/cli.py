"""The console command ``siftpdf``. This module stays light: :func:`main` starts the
extraction child of a command line that names a local PDF (:mod:`siftpdf.workers.early_child`) before click
and the library are imported, so that the child's start-up overlaps the parent's. The click
group is :mod:`siftpdf.commands.group`; its names (``cli``, ``usage_error`` …) are read here too.

Before all that, fast paths answer without click: ``--help`` from the text click wrote
at ``make docs`` (:mod:`siftpdf.console.helptext`), a cache hit of ``pages`` or ``grep``
(:mod:`siftpdf.console.cache_hits`), and ``extract``, ``pages`` or ``map`` of one local PDF with the
default extraction options (:mod:`siftpdf.console.local_pdf`)."""

from __future__ import annotations

import os
import sys

from . import flags
from .commands import COMMANDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HELP_OPTIONS = flags.HELP.names
# Commands where -h means something else: grep's is --no-filename, as grep's and pdfgrep's.
H_IS_NOT_HELP = frozenset({"grep"})


def main() -> None:
    from . import console

    console.COMMAND = True
    args = sys.argv[1:]
    code = _help(args)
    if code is None:
        from .console.cache_hits import answer

        code = answer(args)
    if code is None:
        from .console.local_pdf import answer as run_cold

        code = run_cold(args)
    if code is not None:  # answered without click: end as the group's main does
        _exit(code)
    from .console.early import prestart

    prestart(args)
    from .commands.group import main as run

    run()


def _help(args: list[str]) -> int | None:
    """``siftpdf --help`` and ``siftpdf COMMAND --help`` from the text click wrote for them
    (siftpdf/console/helptext.py, made by ``make docs``), when the terminal is as wide as click's
    widest help (80 columns), so the text is what click would print; else None."""
    if not (len(args) == 1 and args[0] in HELP_OPTIONS or
            len(args) == 2 and args[0] in COMMANDS and args[1] in help_options(args[0])) or sys.stdout is None:
        return None
    if _columns() < 80:
        return None
    from .console.helptext import HELP

    text = HELP.get(args[0] if len(args) == 2 else "")
    if text is None:
        return None
    try:
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: not an error (as the group's main)
        pass
    except (OSError, ValueError) as exc:
        from .errors import report, typed_error

        error = typed_error(exc)
        report(error, False)
        return error.exit_code
    return 0


def help_options(command: str) -> tuple[str, ...]:
    """The options that ask a command for its help."""
    return (flags.HELP.long,) if command in H_IS_NOT_HELP else HELP_OPTIONS


def _columns() -> int:
    """The terminal's width as click's help formatter reads it (shutil.get_terminal_size,
    whose import this spares)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
        columns = columns or 80
    return columns


def _exit(code: int) -> None:
    """End now, as the group's main does after a command (siftpdf.commands.group._exit_now):
    what stdout and stderr hold is written, the interpreter's teardown is skipped."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:
                from .system import silence_stdout

                silence_stdout()
    os._exit(code)


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # the import system asks for __path__ and such: not the group's
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .commands import group

    try:
        return getattr(group, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
