"""The Document view of a doc stream (docs/manual.md, DOC STREAM) and what every reader checks of its pages:
``meta`` at once, pages lazily, ``done`` after the last page. Kept apart from
:mod:`siftpdf.docstream` (the format: writing, parsing, scrubbing) and light to import, with
neither json nor re, for the console's fast path (:mod:`siftpdf.console.cache_hits`)."""

from __future__ import annotations

from .errors import NoTextError, UnreadableError, from_record

# Not typing's TYPE_CHECKING: typing costs the console's fast path (siftpdf.console.cache_hits) its import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

# The statuses of a page that has text: read from its text layer, or recognized (OCR, ``--ocr``).
TEXT_STATUSES = frozenset({"text", "ocr"})
# A table block's text in the doc stream (what the text view shows): one row a line, its
# cells joined by this; the Markdown view splits a row back into its cells by it.
TABLE_CELL_SEPARATOR = " | "


def table_text(rows: list[list[dict[str, Any]]]) -> str:
    """A table block's text: one row a line, its cells joined."""
    return "\n".join(TABLE_CELL_SEPARATOR.join(cell["text"] for cell in row) for row in rows)



def require_text(records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Pass records through; when the document ends with no page of text, raise NoTextError.
    The source is closed however this ends, so what it holds (locks, a child) is released at
    once, not when it is garbage-collected: a long-running service depends on that."""
    seen_text = False
    statuses: dict[str, int] = {}
    salvaged = False
    first_error = ""
    try:
        for record in records:
            status = record.get("status")
            if status in TEXT_STATUSES:
                seen_text = True
            elif status == "failed":
                first_error = first_error or str(record.get("error") or "").removeprefix("unreadable PDF (").rstrip(")")
            if status is not None:
                statuses[status] = statuses.get(status, 0) + 1
                salvaged = salvaged or record.get("engine") not in (None, "pdfium")
            elif "meta" in record:
                salvaged = (record["meta"].get("engine") or {}).get("name") not in (None, "pdfium")
            if "done" in record and not seen_text:
                raise _no_text_error(statuses, salvaged, first_error, record["done"].get("ocr"))
            yield record
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


def with_source(records: Iterator[dict[str, Any]], name: str | None,
                extra: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Pass records through, with the meta's ``source`` set to ``name`` (and ``extra`` added)."""
    try:
        for record in records:
            if "meta" in record:
                record["meta"]["source"] = name
                record["meta"].update(extra or {})
            yield record
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


def _no_text_error(statuses: dict[str, int], salvaged: bool, first_error: str,
                   ocr: dict[str, int] | None = None) -> Exception:
    """Why a document gave no text: scanned (pages with images), damaged (a repaired or
    salvaged file whose pages hold nothing), blank, or unreadable (every page failed); with
    OCR asked for (``ocr``: its tally), recognition failed or read nothing."""
    if ocr is not None and (ocr.get("failed") or ocr.get("blank")):
        if ocr.get("failed"):
            return NoTextError(f"no text: recognition failed on {ocr['failed']} page(s)",
                               hint="each page's ocr_error says why (--json)")
        nothing = NoTextError("no text: OCR read nothing on any page (blank scans?)")
        nothing.hint = None
        return nothing
    if statuses.get("no_text") or statuses.get("garbled"):
        from .extras import OCR_INSTALL, ocr_installed

        # OCR was off: the hint names the option, or what to install first when there is no engine
        what = "no text layer (scanned PDF?)" if statuses.get("no_text") else \
            "no readable text layer (junk over scans, or its fonts' codes instead of characters)"
        return NoTextError(what,
                           hint=None if ocr_installed() else f"{OCR_INSTALL}; then rerun with --ocr auto")
    if not statuses.get("empty"):
        # Every page failed: that is an unreadable document, not a scanned one.
        return UnreadableError(f"unreadable PDF (no page could be extracted: {first_error})" if first_error
                               else "unreadable PDF (no pages)")
    if salvaged or first_error:
        return UnreadableError("unreadable PDF (damaged: the pages recovered from it hold neither text nor images)",
                               hint="the file is damaged or truncated: get a complete copy")
    blank = NoTextError("no text (every page is blank: no text and no images)")
    blank.hint = None  # nothing to recognize: OCR would not help
    return blank


class Document:
    """A doc stream being read: ``meta`` at once, pages lazily, ``done`` after the last page."""

    def __init__(self, records: Iterator[dict[str, Any]],
                 on_close: Callable[[], None] | None = None) -> None:
        self._records = records
        self._on_close = on_close
        self.done: dict[str, Any] | None = None
        try:
            first = next(records, None)
        except BaseException:
            self.close()
            raise
        if first is None or "meta" not in first:
            self.close()
            if first is not None and "error" in first:
                raise from_record(first)
            raise UnreadableError("empty doc stream" if first is None else "doc stream without meta")
        self.meta: dict[str, Any] = first["meta"]

    @property
    def page_count(self) -> int:
        return int(self.meta.get("pages") or 0)

    @property
    def extracted_count(self) -> int:
        """Pages the stream holds: the page cap may have cut the document short."""
        max_pages = int(self.meta.get("max_pages") or 0)
        return min(self.page_count, max_pages) if max_pages > 0 else self.page_count

    def pages(self) -> Iterator[dict[str, Any]]:
        """Page records in order. Raises the document's typed error if the stream ends in one."""
        for record in self._records:
            if "page" in record:
                yield record
            elif "done" in record:
                self.done = record["done"]
                return
            elif "error" in record:
                raise from_record(record)

    def drain(self) -> dict[str, Any] | None:
        """Read to the end without holding pages, for the ``done`` diagnostics."""
        for _ in self.pages():
            pass
        return self.done

    def close(self) -> None:
        close = getattr(self._records, "close", None)
        if close:
            close()
        if self._on_close:
            self._on_close()
            self._on_close = None

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
