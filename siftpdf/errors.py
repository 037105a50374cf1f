"""Typed errors: raised at the core, translated once at the CLI boundary (SPEC §10)."""

from __future__ import annotations

# Not typing's TYPE_CHECKING: typing costs the console's fast path (siftpdf.quick) its import.
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
