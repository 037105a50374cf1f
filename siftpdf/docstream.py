"""The doc stream, format 1 (docs/manual.md, DOC STREAM): a writer, a streaming reader and a Document view.

JSON Lines in this order: ``{"meta"}``, ``{"page"}`` records in page order, then ``{"done"}``
(or ``{"error"}`` when the whole document failed). Readers ignore unknown keys.
"""

from __future__ import annotations

from .docline import FORMAT, dumps, loads, scrub, scrub_record  # noqa: F401  (named here too, as before)
from .document import Document, require_text, with_source  # noqa: F401  (named here too)
from .errors import UnreadableError, from_record
from .lazyre import lazy

# Not typing's TYPE_CHECKING: typing costs the console's fast path (siftpdf.console.cache_hits) its import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import IO, Any

# A JSON escape that decodes to a UTF-16 half (siftpdf.docline.has_surrogate).
_ESCAPED_SURROGATE = lazy(r"\\u[dD][89a-fA-F]")


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
            record = loads(line)
        except ValueError as exc:  # json's JSONDecodeError, which says what and where in msg
            raise UnreadableError(f"doc stream line {number}: not JSON ({getattr(exc, 'msg', exc)})") from None
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


def schema() -> dict[str, Any]:
    """The JSON Schema every ``--json`` record validates against (shipped in the package)."""
    import json
    from importlib.resources import files

    text = files("siftpdf").joinpath("schema/docstream.schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result
