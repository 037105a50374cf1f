"""Kind detection by content (docs/manual.md, DESCRIPTION): never by file name."""

from __future__ import annotations

from .record import FrozenRecord

SNIFF_BYTES = 1024
PDF_TYPES = ("application/pdf", "application/x-pdf")
# A doc stream starts with its meta, or with the error that stopped the document before it.
_DOCSTREAM_STARTS = (b'{"meta"', b'{"error":{"code":"')
_HTML_MARKERS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<title", b"<meta", b"<div", b"<p>")


class Sniffed(FrozenRecord):
    kind: str  # pdf | docstream | html | json | text | binary
    detail: str

    def describe(self) -> str:
        return f"{self.kind} ({self.detail})" if self.detail else self.kind


def sniff_bytes(head: bytes, content_type: str | None = None) -> Sniffed:
    """Classify the first bytes of a body (and its Content-Type, when there is one)."""
    mime = (content_type or "").split(";")[0].strip().lower()
    offset = head[:SNIFF_BYTES].find(b"%PDF-")
    if mime in PDF_TYPES:
        return Sniffed("pdf", f"Content-Type {mime}")
    if offset >= 0:
        return Sniffed("pdf", f"magic at byte {offset}")
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(_DOCSTREAM_STARTS):
        return Sniffed("docstream", "siftpdf doc stream")
    lowered = stripped[:512].lower()
    if mime in ("text/html", "application/xhtml+xml") or lowered.startswith(_HTML_MARKERS):
        return Sniffed("html", f"Content-Type {mime}" if mime else "markup")
    if mime == "application/json" or mime.endswith("+json") or stripped[:1] in (b"{", b"["):
        if _is_text(stripped):
            return Sniffed("json", f"Content-Type {mime}" if mime else "")
    if not head:
        return Sniffed("text", "empty")
    if _is_text(head):
        return Sniffed("text", f"Content-Type {mime}" if mime else "")
    return Sniffed("binary", f"Content-Type {mime}" if mime else "")


def _is_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut by the sniff window is still text.
        if exc.start < len(data) - 3:
            return False
    controls = sum(1 for b in data if b < 32 and b not in (9, 10, 12, 13))
    return controls <= len(data) // 100
