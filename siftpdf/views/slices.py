"""A slice of a document's pages, as `siftpdf pages` and the service's `pages` return it:
at most MAX_PAGES_PER_CALL pages or ``cap`` characters of page-marked text.

Light to import (no dataclasses, no typing): the console's fast path (siftpdf.console.cache_hits) writes
a cache hit's pages with :func:`write_text` and :func:`write_json`, as the command does."""

from __future__ import annotations

from ..document import TEXT_STATUSES
from .renderers import page_renderer
from .text import render_page

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    from ..docstream import Document
    from ..ranges import PageRange
    from .text import PageRenderer

MAX_PAGES_PER_CALL = 100


class Slice:
    """The pages taken: ``parts`` (rendered pages, in order) and ``pages`` (their numbers);
    ``cut_before``, the first page left out by the limits; ``cut_inside``, a page alone over
    the cap (``parts`` then holds all of its text); ``with_text``: a returned page has a text
    layer."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pages: list[int] = []
        self.cut_before: int | None = None
        self.cut_inside: int | None = None
        self.with_text = False


def take_pages(doc: Document, wanted: PageRange, cap: int, render: PageRenderer = render_page,
               most: int | None = MAX_PAGES_PER_CALL, records: Iterable[dict[str, Any]] | None = None) -> Slice:
    """Read ``wanted`` of ``doc`` (its ``records``, when given: its pages as the caller sees
    them) until the limits, at most ``most`` pages (None: any number) and ``cap`` characters;
    stop reading as soon as they are reached. ``render`` writes a page in the view asked for
    (the text view, or Markdown)."""
    result = Slice()
    size = 0
    end = wanted.last(doc.extracted_count)
    for record in doc.pages() if records is None else records:
        page = record["page"]
        if page > end:
            break
        if page not in wanted:
            continue
        text = render(record, not result.parts)
        if len(result.parts) == most or size + len(text) > cap:
            if not result.parts:
                result.parts, result.pages, result.cut_inside = [text], [page], page
            else:
                result.cut_before = page
            return result
        result.parts.append(text)
        result.pages.append(page)
        size += len(text)
        result.with_text = result.with_text or record.get("status") in TEXT_STATUSES
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


def write_text(doc: Document, wanted: PageRange, cap: int, label: str, output: str,
               write: Callable[[str], object], most: int | None = MAX_PAGES_PER_CALL,
               records: Iterable[dict[str, Any]] | None = None) -> None:
    """`siftpdf pages`' text view, or its Markdown view (where the notes are escaped like any
    text), written with ``write``; ``label`` names the source in the notes. ``most`` and
    ``records`` as :func:`take_pages` takes them (`extract --cap`: every page, up to the cap)."""
    taken = take_pages(doc, wanted, cap, page_renderer(output), most, records)
    said = _escaper(output)
    if taken.cut_inside is not None:  # one page alone over the cap: give what fits
        write(taken.parts[0][:cap] + "\n")
        write(said(f"\n[cut inside page {taken.cut_inside} at --cap {cap} characters; "
                   f"raise --cap or use: siftpdf grep PATTERN {label}]\n"))
        return
    write("".join(taken.parts))
    if taken.cut_before is not None:
        rest = rest_of(wanted, taken.cut_before, doc.extracted_count)
        limits = f"at most {most} pages or --cap {cap} characters per call" if most else f"--cap {cap} characters"
        write(said(f"\n[cut before page {taken.cut_before}: {limits}; go on with: siftpdf pages {rest} {label}]\n"))
    elif not taken.with_text:
        doc.drain()  # a document with no text layer at all is an error, not blank pages


def write_json(doc: Document, wanted: PageRange, emit: Callable[[dict[str, object]], object]) -> None:
    """`siftpdf pages --json`: the meta, the wanted pages (at most MAX_PAGES_PER_CALL), the done."""
    emit({"meta": doc.meta})
    returned = 0
    for record in doc.pages():
        if record["page"] in wanted and returned < MAX_PAGES_PER_CALL:
            emit(record)
            returned += 1
    emit({"done": doc.done or {}})


def write_capped_json(doc: Document, cap: int, emit: Callable[[dict[str, Any]], object],
                      records: Iterable[dict[str, Any]] | None = None) -> None:
    """`siftpdf extract --json --cap`: the meta, the page records in order while their lines
    hold at most ``cap`` characters in all (a record is never cut inside), the done, which
    says where the stream was cut (``cut``: the first page left out and the cap)."""
    from ..docstream import dumps

    emit({"meta": doc.meta})
    size, cut = 0, None
    for record in doc.pages() if records is None else records:
        size += len(dumps(record)) + 1
        if size > cap:
            cut = record["page"]
            break
        emit(record)
    done = dict(doc.drain() or {})  # the whole document's diagnostics, as without the cap
    if cut is not None:
        done["cut"] = {"before_page": cut, "cap": cap}
    emit({"done": done})


def _escaper(output: str) -> Callable[[str], str]:
    if output != "markdown":
        return str
    from .markdown import escape  # only when asked for: --help and the text view never load it

    return escape
