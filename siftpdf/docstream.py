"""The doc stream, format 1 (SPEC §3): a writer, a streaming reader and a Document view.

JSON Lines in this order: ``{"meta"}``, ``{"page"}`` records in page order, then ``{"done"}``
(or ``{"error"}`` when the whole document failed). Readers ignore unknown keys.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .errors import NoTextError, UnreadableError, from_record

FORMAT = 1


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_record(out: IO[str], record: dict[str, Any]) -> None:
    """Write one record and flush: a consumer downstream sees each page as soon as it exists."""
    out.write(dumps(record))
    out.write("\n")
    out.flush()


def read_records(lines: Iterable[bytes | str]) -> Iterator[dict[str, Any]]:
    """Parse doc-stream lines one at a time; a bad line is an error naming its number."""
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                raise UnreadableError(f"doc stream line {number}: not UTF-8") from None
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UnreadableError(f"doc stream line {number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise UnreadableError(f"doc stream line {number}: not a JSON object")
        if number == 1 and "meta" not in record:
            raise UnreadableError("doc stream line 1: the stream must start with a meta record")
        yield record


def require_text(records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Pass records through; when the document ends with no page of text, raise NoTextError.
    The source is closed however this ends, so what it holds (locks, a child) is released at
    once, not when it is garbage-collected: a long-running service depends on that."""
    seen_text = False
    blank = 0
    first_error = ""
    try:
        for record in records:
            status = record.get("status")
            if status == "text":
                seen_text = True
            elif status == "failed":
                first_error = first_error or str(record.get("error") or "").removeprefix("unreadable PDF (").rstrip(")")
            elif status is not None:
                blank += 1
            if "done" in record and not seen_text:
                if first_error and not blank:
                    # Every page failed: that is an unreadable document, not a scanned one.
                    raise UnreadableError(f"unreadable PDF (no page could be extracted: {first_error})")
                raise NoTextError("no text layer (scanned PDF?)")
            yield record
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


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
            raise UnreadableError("empty doc stream" if first is None else "doc stream without meta")
        if "error" in first:
            raise from_record(first)
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


def schema() -> dict[str, Any]:
    """The JSON Schema every ``--json`` record validates against (shipped in the package)."""
    from importlib.resources import files

    text = files("siftpdf").joinpath("schema/docstream.schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result
