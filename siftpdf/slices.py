"""A slice of a document's pages, as `siftpdf pages` and the service's `pages` return it:
at most MAX_PAGES_PER_CALL pages or ``cap`` characters of page-marked text."""

from __future__ import annotations

from dataclasses import dataclass, field

from .docstream import Document
from .ranges import PageRange
from .textview import PageRenderer, render_page

MAX_PAGES_PER_CALL = 100


@dataclass
class Slice:
    parts: list[str] = field(default_factory=list)  # rendered pages, in order
    pages: list[int] = field(default_factory=list)  # their numbers
    cut_before: int | None = None  # the first page left out by the limits
    cut_inside: int | None = None  # a page alone over the cap: parts holds all of its text
    with_text: bool = False  # a returned page has a text layer


def take_pages(doc: Document, wanted: PageRange, cap: int, render: PageRenderer = render_page) -> Slice:
    """Read ``wanted`` of ``doc`` until the limits; stop reading as soon as they are reached.
    ``render`` writes a page in the view asked for (the text view, or Markdown)."""
    result = Slice()
    size = 0
    end = wanted.last(doc.extracted_count)
    for record in doc.pages():
        page = record["page"]
        if page > end:
            break
        if page not in wanted:
            continue
        text = render(record, not result.parts)
        if len(result.parts) == MAX_PAGES_PER_CALL or size + len(text) > cap:
            if not result.parts:
                result.parts, result.pages, result.cut_inside = [text], [page], page
            else:
                result.cut_before = page
            return result
        result.parts.append(text)
        result.pages.append(page)
        size += len(text)
        result.with_text = result.with_text or record.get("status") == "text"
    return result


def rest_of(wanted: PageRange, page: int, count: int) -> str:
    """The part of ``wanted`` from ``page`` on, as a range spec."""
    parts = []
    for a, b in wanted.parts:
        end = count if b is None else b
        if end < page:
            continue
        start = max(a, page)
        parts.append(f"{start}-" if b is None else (f"{start}-{end}" if end != start else f"{start}"))
    return ",".join(parts)
