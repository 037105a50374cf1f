"""The text view: page-marked text an agent can cite (docs/manual.md, DOC STREAM)."""

from __future__ import annotations

# Not typing's TYPE_CHECKING: typing costs the console's fast path (siftpdf.console.cache_hits) its import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    PageRenderer = Callable[[dict[str, Any], bool], str]

_NOTES = {
    "no_text": "[no text layer on this page: scanned? render it and OCR]",
    "empty": "[empty page]",
    "garbled": "[text layer unreadable on this page: scanned? render it and OCR]",
}


def marker(page: int) -> str:
    return f"--- page {page} ---"


def page_text(record: dict[str, Any]) -> str:
    """A page's body as the text view shows it, with a note where there is no text."""
    status = record.get("status")
    if status == "failed":
        return f"[page {record['page']} could not be extracted: {record.get('error', 'failed')}]"
    if status in _NOTES and not (record.get("text") or "").strip():
        return _NOTES[status]
    return str(record.get("text") or "").strip("\n")


def furniture_lines(record: dict[str, Any]) -> list[str]:
    """The page's furniture (running heads, footers, page numbers, stamps) as lines of text,
    each on one line, blank ones left out: what grep searches after the page's body."""
    furniture = record.get("furniture")
    if not isinstance(furniture, list):
        return []
    texts = (f.get("text") for f in furniture if isinstance(f, dict))
    return [" ".join(text.split("\n")) for text in texts if isinstance(text, str) and text.strip()]


def render_page(record: dict[str, Any], first: bool) -> str:
    """One page with its marker; pages after the first get the blank line before the marker."""
    head = "" if first else "\n"
    return f"{head}{marker(record['page'])}\n\n{page_text(record)}\n"
