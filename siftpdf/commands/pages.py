"""siftpdf pages: read a slice of a document."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from .options import (
    cap_option,
    complete_source,
    emit,
    extraction_options,
    out,
    output_options,
    quiet_option,
    source_label,
)

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..docstream import Document
    from ..ranges import PageRange
    from ..sources import ReadOptions


@click.command("pages")
@click.argument("page_range", metavar="RANGE")
@click.argument("source", required=False, shell_complete=complete_source)
@cap_option
@output_options(default="text")
@extraction_options
@quiet_option
def command(page_range: str, source: str | None, cap: int, output: str, read_options: ReadOptions) -> None:
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
    from ..ranges import PageRange
    from ..sources import open_source

    wanted = PageRange.parse(page_range)
    with open_source(source, read_options) as doc:
        wanted.check(doc.extracted_count)
        if output == "json":
            _write_json(doc, wanted)
            return
        _write_text(doc, wanted, cap, source_label(source), output)


def _write_json(doc: Document, wanted: PageRange) -> None:
    from ..slices import MAX_PAGES_PER_CALL

    emit({"meta": doc.meta})
    returned = 0
    for record in doc.pages():
        if record["page"] in wanted and returned < MAX_PAGES_PER_CALL:
            emit(record)
            returned += 1
    emit({"done": doc.done or {}})


def _write_text(doc: Document, wanted: PageRange, cap: int, label: str, output: str) -> None:
    """The text view, or the Markdown view (where the notes are escaped like any text)."""
    from ..slices import MAX_PAGES_PER_CALL, rest_of, take_pages
    from ..textview import page_renderer

    taken = take_pages(doc, wanted, cap, page_renderer(output))
    said = _escaper(output)
    if taken.cut_inside is not None:  # one page alone over the cap: give what fits
        out(taken.parts[0][:cap] + "\n")
        out(said(f"\n[cut inside page {taken.cut_inside} at --cap {cap} characters; "
                 f"raise --cap or use: siftpdf grep PATTERN {label}]\n"))
        return
    out("".join(taken.parts))
    if taken.cut_before is not None:
        rest = rest_of(wanted, taken.cut_before, doc.extracted_count)
        out(said(f"\n[cut before page {taken.cut_before}: at most {MAX_PAGES_PER_CALL} pages or --cap {cap} "
                 f"characters per call; go on with: siftpdf pages {rest} {label}]\n"))
    elif not taken.with_text:
        doc.drain()  # a document with no text layer at all is an error, not blank pages


def _escaper(output: str) -> Callable[[str], str]:
    if output != "markdown":
        return str
    from ..markdown import escape  # only when asked for: --help and the text view never load it

    return escape
