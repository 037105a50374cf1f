"""What differs between the systems siftpdf runs on, in one place: whether it can run here at
all (a POSIX system), the default cache folder, how an extraction child's memory limit is
enforced (the kernel's RLIMIT_AS, or a watchdog in the parent: :mod:`siftpdf.workers.memwatch`),
and which sha256 is quickest to load.

This module imports only ``os`` and ``sys``: the console's fast paths read the cache folder
from here. platformdirs is imported only where the folder is not XDG's (off Linux), and psutil
only where the watchdog is the mechanism.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

APP = "siftpdf"
POSIX_ONLY = "siftpdf needs a POSIX system: Linux, macOS or WSL"
# Below this many bytes Python's own sha256 is quicker than OpenSSL's (hashlib's), which takes
# 2 ms to load and hashes four times as fast: the break-even, measured, is near 0.8 MiB.
SMALL_HASH = 512 << 10
RLIMIT = "rlimit"
WATCHDOG = "watchdog"


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data`` in hex, hashed where it is quickest: a cache key or lock name,
    or a short PDF, on a command's path that would otherwise load OpenSSL for it."""
    if len(data) < SMALL_HASH:
        try:
            from _sha2 import sha256  # Python 3.12 on
        except ImportError:
            try:
                from _sha256 import sha256
            except ImportError:
                from hashlib import sha256
    else:
        from hashlib import sha256
    return sha256(data).hexdigest()


def silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is quiet
    (the reader went away: what is left goes nowhere)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class PlatformError(ImportError):
    """siftpdf imported on a system it cannot run on (Windows without WSL): its pool, its
    child's limits and its locks are POSIX calls (fcntl, resource, process groups)."""


def refuse_non_posix() -> NoReturn:
    """End here, before anything imports fcntl or resource: the siftpdf command with one line
    and exit 2 (never a traceback: docs/manual.md, EXIT STATUS), a program importing the library with
    :class:`PlatformError`."""
    if _is_console():
        sys.stderr.write(f"siftpdf: {POSIX_ONLY}\n")
        sys.stderr.flush()
        raise SystemExit(2)
    raise PlatformError(POSIX_ONLY)


def _is_console() -> bool:
    """Whether this process is the siftpdf command (its console script, siftpdf.exe on
    Windows, or ``python -m siftpdf``) rather than a program importing the library."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if name.lower().removesuffix(".exe").removesuffix("-script.py") == APP:
        return True
    argv = list(getattr(sys, "orig_argv", ()))
    return any(argv[index:index + 2] == ["-m", APP] for index in range(len(argv)))


# -- the cache folder -----------------------------------------------------------------------------

def default_cache_dir() -> str:
    """The cache folder when none is given: $SIFTPDF_CACHE_DIR, else the platform's user cache
    folder for siftpdf: ``$XDG_CACHE_HOME/siftpdf`` or ``~/.cache/siftpdf`` on Linux,
    ``~/Library/Caches/siftpdf`` on macOS (where platformdirs honours $XDG_CACHE_HOME too):
    platformdirs' rule everywhere."""
    env = os.environ.get("SIFTPDF_CACHE_DIR")
    if env:
        return env
    if sys.platform.startswith("linux"):
        # platformdirs' rule on Linux, spelled here: platformdirs imports pathlib, which would
        # cost a cache hit a sixth of its time (a test holds the two equal).
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return os.path.join(base, APP)
    import platformdirs

    return platformdirs.user_cache_dir(APP, appauthor=False)


# -- the memory limit -------------------------------------------------------------------------------

def rlimit_enforced() -> bool:
    """Whether the kernel enforces RLIMIT_AS here: Linux does; macOS accepts it and ignores it."""
    return sys.platform.startswith("linux")


def watchdog_available() -> bool:
    """Whether the parent can read a child's resident memory here (psutil loads)."""
    try:
        import psutil  # noqa: F401
    except ImportError:
        return False
    return True


def memory_guard() -> str | None:
    """How an extraction child's memory limit is enforced here: :data:`RLIMIT` (the child sets
    RLIMIT_AS on itself), :data:`WATCHDOG` (the parent samples the child's resident memory and
    kills it over the limit: :mod:`siftpdf.workers.memwatch`), or None (neither: a limit asked for
    fails). The watchdog is never used where RLIMIT_AS works: it would only cost."""
    if rlimit_enforced():
        return RLIMIT
    if watchdog_available():
        return WATCHDOG
    return None


def child_memory(limit: int) -> int:
    """The memory limit the child applies to itself (its ``--memory``): the limit under
    RLIMIT_AS, 0 under the watchdog (the parent holds it to the limit; RLIMIT_AS would do
    nothing there, and the child refuses a limit it cannot set)."""
    return 0 if memory_guard() == WATCHDOG else limit
