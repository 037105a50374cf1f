"""The doc stream, format 1 (SPEC §3): a writer, a streaming reader and a Document view.

JSON Lines in this order: ``{"meta"}``, ``{"page"}`` records in page order, then ``{"done"}``
(or ``{"error"}`` when the whole document failed). Readers ignore unknown keys.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .errors import NoTextError, UnreadableError, from_record

FORMAT = 1

# UTF-16 halves: a pair is one character beyond the BMP, a lone one cannot be written as UTF-8.
SURROGATE = re.compile("[\ud800-\udfff]")
# A JSON escape that decodes to one of them.
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


# Line breaks to str.splitlines and to JavaScript before ES2019, though JSON allows them raw:
# escaped, so a reader that splits the stream on any of them still gets whole records.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def dumps(record: dict[str, Any]) -> str:
    """One record as one line of the doc stream (UTF-8 text, nothing that reads as a break)."""
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if "\x85" in line or "\u2028" in line or "\u2029" in line:
        line = line.translate(_LINE_BREAKS)
    return line


def scrub(text: str) -> tuple[str, int]:
    """``text`` made encodable: surrogate pairs joined into their character, a lone surrogate
    replaced by U+FFFD. Returns the text and how many characters were replaced."""
    if SURROGATE.search(text) is None:
        return text, 0
    before = text.count("\ufffd")
    fixed = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return fixed, fixed.count("\ufffd") - before


def scrub_record(value: Any) -> int:
    """Scrub every string in a record (dicts and lists, in place); returns the characters
    replaced. Nothing in one page's content may fail the document it is written in."""
    replaced = 0
    stack = [value]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in items:
            if isinstance(item, str):
                if SURROGATE.search(item) is not None:
                    node[key], count = scrub(item)
                    replaced += count
            elif isinstance(item, (dict, list)):
                stack.append(item)
        if isinstance(node, dict):  # a key too, in a stream read back (JSON keys are strings)
            for key in [k for k in node if SURROGATE.search(k)]:
                fixed, count = scrub(key)
                node[fixed] = node.pop(key)
                replaced += count
    return replaced


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
            if "error" in record:  # the document failed before its meta: its typed error
                raise from_record(record)
            raise UnreadableError("doc stream line 1: the stream must start with a meta record")
        problem = _shape_problem(record)
        if problem:
            raise UnreadableError(f"doc stream line {number}: {problem}")
        if _ESCAPED_SURROGATE.search(line) is not None:
            scrub_record(record)
        yield record


def _is_int(value: Any, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _shape_problem(record: dict[str, Any]) -> str | None:
    """What makes a record unusable by the readers here, or None. Only the fields they use are
    checked; unknown keys are ignored, as the format promises."""
    if "meta" in record:
        return _meta_problem(record["meta"])
    if "page" in record:
        if not _is_int(record["page"], 1):
            return '"page" is not a page number'
        for key in ("text", "status", "error"):
            if key in record and not isinstance(record[key], str):
                return f'"{key}" of page {record["page"]} is not a string'
        for key in ("blocks", "furniture"):
            if key in record and not isinstance(record[key], list):
                return f'"{key}" of page {record["page"]} is not a list'
        if "evidence" in record and not isinstance(record["evidence"], dict):
            return f'"evidence" of page {record["page"]} is not an object'
        return None
    if "done" in record and not isinstance(record["done"], dict):
        return '"done" is not an object'
    return None


def _meta_problem(meta: Any) -> str | None:
    if not isinstance(meta, dict):
        return '"meta" is not an object'
    if not _is_int(meta.get("pages")):
        return '"pages" of the meta is not a number of pages'
    if "max_pages" in meta and meta["max_pages"] is not None and not _is_int(meta["max_pages"]):
        return '"max_pages" of the meta is not a number'
    if "title" in meta and not isinstance(meta["title"], str):
        return '"title" of the meta is not a string'
    outline = meta.get("outline", [])
    if not isinstance(outline, list):
        return '"outline" of the meta is not a list'
    for item in outline:
        if not (isinstance(item, dict) and isinstance(item.get("title"), str) and _is_int(item.get("page"), 1)
                and _is_int(item.get("level"), 1)):
            return 'an "outline" entry is not {"title", "page", "level"}'
    labels = meta.get("page_labels")
    if labels is not None and not (isinstance(labels, list) and all(isinstance(x, str) for x in labels)):
        return '"page_labels" of the meta is not a list of strings'
    return None


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
            if status == "text":
                seen_text = True
            elif status == "failed":
                first_error = first_error or str(record.get("error") or "").removeprefix("unreadable PDF (").rstrip(")")
            if status is not None:
                statuses[status] = statuses.get(status, 0) + 1
                salvaged = salvaged or record.get("engine") not in (None, "pdfium")
            elif "meta" in record:
                salvaged = (record["meta"].get("engine") or {}).get("name") not in (None, "pdfium")
            if "done" in record and not seen_text:
                raise _no_text_error(statuses, salvaged, first_error)
            yield record
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


def _no_text_error(statuses: dict[str, int], salvaged: bool, first_error: str) -> Exception:
    """Why a document gave no text: scanned (pages with images), damaged (a repaired or
    salvaged file whose pages hold nothing), blank, or unreadable (every page failed)."""
    if statuses.get("no_text") or statuses.get("garbled"):
        return NoTextError("no text layer (scanned PDF?)")
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


def schema() -> dict[str, Any]:
    """The JSON Schema every ``--json`` record validates against (shipped in the package)."""
    from importlib.resources import files

    text = files("siftpdf").joinpath("schema/docstream.schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result
