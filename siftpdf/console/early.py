"""Whether a command line will parse a local PDF in a child, so that the console starts the
child first thing (:func:`siftpdf.workers.early_child.prestart`), before click and the library are
imported: the words of the command line read as :mod:`siftpdf.flags` spells them.

Imports: ``os`` and ``sys`` (and the warm start's own) until the child is started.
"""

from __future__ import annotations

from .. import flags

# The commands whose SOURCE is parsed by an extraction child (a local PDF).
COMMANDS = frozenset({"extract", "pages", "map", "grep", "digest"})
# Options after which no child is started: help asked for, or the PDF parsed in this process.
NO_CHILD = frozenset({*flags.HELP.names, flags.IN_PROCESS.long})


def wanted(args: list[str], commands: frozenset[str] = COMMANDS, miss: bool = False) -> bool:
    """Whether a console command line will parse a local PDF in a child: one of ``commands``
    (after the group's --debug only) with --no-cache (or a known ``miss`` of the cache), no
    help or --in-process, and an argument that names a regular file with a PDF header. A wrong
    guess costs a killed child, never a different result. With the cache the next call is
    most likely a hit, which a child starting beside it would only slow down (on a busy
    machine, by as much as it saves), unless the cache was found not to hold the file."""
    from ..workers.early_child import is_pdf

    words = list(args)
    while words and words[0] == flags.DEBUG.long:
        words.pop(0)
    if not words or words[0] not in commands:
        return False
    rest = words[1:]
    options = rest[: rest.index("--")] if "--" in rest else rest
    no_child = NO_CHILD - {"-h"} if words[0] == "grep" else NO_CHILD  # grep's -h: --no-filename
    if any(word in no_child for word in options) or not miss and flags.NO_CACHE.long not in options:
        return False
    return any(is_pdf(word) for word in rest if word != "--" and not word.startswith("-"))


def prestart(args: list[str], pool_dir: str | None = None, miss: bool = False) -> None:
    """Start the warm child when ``args`` will likely need one (:func:`wanted`; ``miss``: the
    cache was found not to hold what the command reads, which the cold path knows) in the pool
    of ``pool_dir``, found in ``args`` and the environment when not given."""
    import sys

    from ..workers import early_child

    if early_child.started() or not sys.platform.startswith("linux") or not wanted(args, miss=miss):
        return
    early_child.prestart(pool_dir or pool_dir_of(args))


def pool_dir_of(args: list[str]) -> str:
    """The pool folder of a command line: under its last --cache-dir, else the environment's
    or the default cache dir (as click and siftpdf.store.local_store read them)."""
    from ..workers.early_child import pool_folder

    spelled = flags.CACHE_DIR.long
    directory = None
    words = args[: args.index("--")] if "--" in args else args
    for index, word in enumerate(words):
        if word == spelled and index + 1 < len(words):
            directory = words[index + 1]
        elif word.startswith(spelled + "="):
            directory = word.partition("=")[2]
    return pool_folder(directory)
