"""siftpdf pages: read a slice of a document."""

from __future__ import annotations

import sys

import click

from ..docstream import Document, write_record
from ..ranges import PageRange
from ..sources import ReadOptions, open_source
from ..textview import render_page
from .options import cap_option, extraction_options, json_option, out, source_label

MAX_PAGES_PER_CALL = 100


@click.command("pages")
@click.argument("page_range", metavar="RANGE")
@click.argument("source", required=False)
@cap_option
@json_option
@extraction_options
def command(page_range: str, source: str | None, cap: int, as_json: bool, read_options: ReadOptions) -> None:
    """Print the pages RANGE of SOURCE as page-marked text.

    RANGE is a-b, a, a- (to the end) or a comma list of them, 1-based and
    inclusive. At most 100 pages or --cap characters come back; a final note
    says where the output was cut and how to go on.

    \b
    Examples:
      siftpdf pages 3-5 paper.pdf
      siftpdf pages 1,7,12- doc.jsonl
      siftpdf extract book.pdf | siftpdf pages 41-60 --json
    """
    wanted = PageRange.parse(page_range)
    with open_source(source, read_options) as doc:
        wanted.check(doc.extracted_count)
        if as_json:
            _write_json(doc, wanted)
            return
        _write_text(doc, wanted, cap, source_label(source))


def _write_json(doc: Document, wanted: PageRange) -> None:
    write_record(sys.stdout, {"meta": doc.meta})
    returned = 0
    for record in doc.pages():
        if record["page"] in wanted and returned < MAX_PAGES_PER_CALL:
            write_record(sys.stdout, record)
            returned += 1
    write_record(sys.stdout, {"done": doc.done or {}})


def _write_text(doc: Document, wanted: PageRange, cap: int, label: str) -> None:
    size = returned = 0
    with_text = False
    last = wanted.last(doc.extracted_count)
    for record in doc.pages():
        page = record["page"]
        if page > last:
            break
        if page not in wanted:
            continue
        text = render_page(record, first=returned == 0)
        if returned == MAX_PAGES_PER_CALL or size + len(text) > cap:
            if returned == 0:  # one page alone over the cap: give what fits
                out(text[:cap] + "\n")
                out(f"\n[cut inside page {page} at --cap {cap} characters; "
                    f"raise --cap or use: siftpdf grep PATTERN {label}]\n")
                return
            out(f"\n[cut before page {page}: at most {MAX_PAGES_PER_CALL} pages or --cap {cap} "
                f"characters per call; go on with: siftpdf pages {_rest(wanted, page, doc.extracted_count)} {label}]\n")
            return
        out(text)
        size += len(text)
        returned += 1
        with_text = with_text or record.get("status") == "text"
    if not with_text:
        doc.drain()  # a document with no text layer at all is an error, not blank pages


def _rest(wanted: PageRange, page: int, count: int) -> str:
    """The part of ``wanted`` from ``page`` on, as a range spec."""
    parts = []
    for a, b in wanted.parts:
        end = count if b is None else b
        if end < page:
            continue
        start = max(a, page)
        parts.append(f"{start}-" if b is None else (f"{start}-{end}" if end != start else f"{start}"))
    return ",".join(parts)
