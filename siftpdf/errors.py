"""Typed errors: raised where the trouble is found, each with its code, HTTP-style status and
exit status (docs/manual.md, EXIT STATUS). A library caller gets them as they are. At a
boundary, any other exception is made one by :func:`typed_error` (the command line, the MCP
server: ``internal`` for a bug); the HTTP server answers a SiftError in its error shapes and
anything else as a 500 ``internal``."""

from __future__ import annotations

# Not typing's TYPE_CHECKING: typing costs the console's fast path (siftpdf.console.cache_hits) its import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class SiftError(Exception):
    """Base of every error a user can see. Subclasses fix code, HTTP-style status and exit."""

    code = "unreadable"
    status = 422
    exit_code = 4
    default_hint: str | None = None

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint if hint is not None else self.default_hint

    def to_record(self) -> dict[str, Any]:
        return {
            "error": {
                "code": self.code,
                "status": self.status,
                "message": self.message,
                "hint": self.hint,
            }
        }


class UsageError(SiftError):
    code, status, exit_code = "usage", 400, 2


class EncryptedError(SiftError):
    code, status, exit_code = "encrypted", 422, 3
    default_hint = "pass the user password with --password or SIFTPDF_PASSWORD"


class UnreadableError(SiftError):
    code, status, exit_code = "unreadable", 422, 4


class NotPdfError(UnreadableError):
    """A URL answered with something other than a PDF; ``fetched`` (a
    :class:`siftpdf.fetch.Fetched`) has its body, so a caller that reads other kinds too (the
    service) needs no second download."""

    def __init__(self, message: str, fetched: Any, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.fetched = fetched


class NoTextError(SiftError):
    code, status, exit_code = "no_text", 422, 5
    default_hint = "rerun with --ocr auto"


class TimedOutError(SiftError):
    code, status, exit_code = "timeout", 422, 6


class TooLargeError(SiftError):
    code, status, exit_code = "too_large", 413, 7


class FetchError(SiftError):
    code, status, exit_code = "fetch", 502, 8


class BusyError(SiftError):
    code, status, exit_code = "busy", 503, 75
    default_hint = "retry after 10 s"


class CallerBusyError(BusyError):
    """The caller already has a job in flight (the pool itself may be idle)."""

    status = 429


class CancelledError(SiftError):
    """The caller stopped the read (:class:`siftpdf.cancel.Cancel`): its extraction children are
    killed. Only a caller that cancels sees it, so docs/manual.md (EXIT STATUS) does not list it;
    its exit status is an interrupt's, 130."""

    code, status, exit_code = "cancelled", 499, 130


class InternalError(SiftError):
    """Something no user input should cause (a bug): the boundary's last resort (EX_SOFTWARE)."""

    code, status, exit_code = "internal", 500, 70
    default_hint = "rerun with --debug for the traceback, and report it"


_BY_CODE: dict[str, type[SiftError]] = {
    cls.code: cls
    for cls in (
        UsageError,
        EncryptedError,
        UnreadableError,
        NoTextError,
        TimedOutError,
        TooLargeError,
        FetchError,
        BusyError,
        InternalError,
    )
}


def from_record(record: dict[str, Any]) -> SiftError:
    """Rebuild a typed error from an ``{"error": {...}}`` doc-stream record. The record comes
    from outside (a file, a pipe): any field may be missing or of another JSON type."""
    body = record.get("error")
    if not isinstance(body, dict):
        body = {"message": body}
    cls = _BY_CODE.get(str(body.get("code")), UnreadableError)
    message, hint = body.get("message"), body.get("hint")
    return cls(str(message) if message not in (None, "") else "unreadable PDF", None if hint is None else str(hint))


# --- any exception, as the typed error a user sees -------------------------------------------

def one_line(text: str) -> str:
    return " ".join(text.split())


def report(error: SiftError, as_json: bool) -> None:
    """The one place a typed error meets the user: a line on stderr (and a record in JSON mode).
    It imports nothing but the doc stream's writer in JSON mode: a command reports while its
    child's reader threads may still be importing, and an import made then can fail."""
    import sys

    if as_json:
        from .docline import dumps

        try:
            sys.stdout.write(dumps(error.to_record()) + "\n")
            sys.stdout.flush()
        except (OSError, ValueError, AttributeError):
            pass
    lines = [f"siftpdf: {one_line(error.message)}"] + ([f"hint: {one_line(error.hint)}"] if error.hint else [])
    try:
        sys.stderr.write("\n".join(lines) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # stderr gone too: the exit status is all that is left
        pass


def typed_error(exc: Exception, cache_dir: Any = None) -> SiftError:
    """Any exception that reached a boundary (a command, a tool call), as the typed error a
    user sees; ``cache_dir`` is the cache folder the call used, named when it is the trouble."""
    if isinstance(exc, SiftError):
        return exc
    if isinstance(exc, OSError):
        return _os_error(exc, cache_dir)
    if type(exc).__module__ == "sqlite3":  # only the cache's stores use sqlite (diskcache)
        return _cache_error(cache_dir, one_line(str(exc)) or type(exc).__name__,
                            hint="remove the damaged cache folder, or point SIFTPDF_CACHE_DIR (or --cache-dir) "
                                 "at another one")
    if isinstance(exc, ValueError) and "null byte" in str(exc):  # open() of a path with \0
        return UsageError("a path has a NUL byte in it")
    detail = one_line(str(exc))
    detail = detail if len(detail) <= 300 else detail[:299] + "…"
    return InternalError(f"internal error ({type(exc).__name__}{': ' + detail if detail else ''})")


def _os_error(exc: OSError, cache_dir: Any) -> SiftError:
    """A failed system call: about the cache folder (a usage error with the way out), or a
    one-line '<reason>: <file>'."""
    import os

    reason = os.strerror(exc.errno) if exc.errno else one_line(str(exc)) or type(exc).__name__
    files = [os.fsdecode(name) for name in (exc.filename, exc.filename2) if isinstance(name, (str, bytes))]
    cache = _cache_path(cache_dir)
    if cache and (any(_related(name, cache) for name in files) or (not files and cache in str(exc))):
        return _cache_error(cache_dir, reason)
    return UsageError(f"{reason}: {files[0]}" if files else reason)


def _cache_path(cache_dir: Any) -> str:
    import os

    from .system import default_cache_dir

    try:
        return os.path.abspath(os.fspath(cache_dir or default_cache_dir()))
    except (OSError, ValueError, TypeError):
        return ""


def _related(name: str, folder: str) -> bool:
    """``name`` is the folder, lies in it, or is one of its parents (made on the way to it)."""
    import os

    try:
        name = os.path.abspath(name)
    except ValueError:
        return False
    return name == folder or name.startswith(folder.rstrip("/") + "/") or folder.startswith(name.rstrip("/") + "/")


def _cache_error(cache_dir: Any, reason: str,
                 hint: str = "set SIFTPDF_CACHE_DIR (or pass --cache-dir) to a writable folder") -> UsageError:
    return UsageError(f"cache folder {_cache_path(cache_dir)}: {reason}", hint=hint)
