"""What extract, pages and map do once their options are read, without click: the click
commands call these, and so does the console's cold path (:mod:`siftpdf.console.local_pdf`), which reads a
few command lines itself, so that both write the same bytes.

Imports: what the commands' progress bar needs (os, sys), and the cache's key names
(:mod:`siftpdf.store.local_reader`: os and time); the library when a command runs.
"""

from __future__ import annotations

import os
import sys

from ..log import to_stderr
from .progress import PageProgress, before_output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from ..options import ReadOptions



def read_options(values: dict[str, Any], quiet: bool) -> tuple[ReadOptions, PageProgress]:
    """The options of a command's read, built (:func:`siftpdf.options.build`) from the values of
    its extraction and cache options (by key; one left out as if not given), with the progress
    bar they report to (the caller closes it when the command ends), the caller id of
    SIFTPDF_CALLER_ID, the read's lines for a person on stderr, and stdout flushed when a
    reader stops early."""
    from .. import console
    from ..options import Hints, build

    progress = PageProgress(quiet=quiet)
    values = {"caller_id": os.environ.get("SIFTPDF_CALLER_ID") or None, **values}
    hints = Hints(on_page=progress, say=to_stderr, before_finish=_flush_stdout, write_behind=console.COMMAND)
    return build(values, hints), progress


def _flush_stdout() -> None:
    """What a command wrote reaches its pipe now (its reader stopped early: the rest of the
    document is read into the cache before the command ends)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def out(text: str) -> None:
    """Write to stdout (the data channel)."""
    before_output()
    sys.stdout.write(text)


def emit(record: dict[str, Any]) -> None:
    """Write one JSON Lines record to stdout and flush."""
    from ..docstream import write_record

    before_output()
    write_record(sys.stdout, record)


def _out_flushed(text: str) -> None:
    """Write a record's line to stdout and flush: a reader downstream sees each page at once."""
    out(text)
    sys.stdout.flush()


class Output:
    """Where a command's results go: stdout, text (:meth:`text`) and JSON Lines records
    (:meth:`record`). One of several sources writes through a subclass that names its source
    (:class:`siftpdf.commands.many_sources.Labelled`)."""

    def text(self, text: str) -> None:
        out(text)

    def record(self, record: dict[str, Any]) -> None:
        emit(record)


STDOUT = Output()


def source_label(source: str | None) -> str:
    return "-" if source in (None, "-") else str(source)


def extract(source: str | None, output: str, options: ReadOptions,
            save_render: Callable[[dict[str, Any]], None] | None = None, cap: int | None = None) -> None:
    """siftpdf extract (and fetch): the doc stream (or its text or Markdown view) of SOURCE;
    with ``cap``, only the pages that fit in that many characters, and where it was cut."""
    from ..sources import open_source
    from ..views.renderers import write_document

    with open_source(source, options) as doc:
        if cap is None:
            write_document(doc, output, _out_flushed if output == "json" else out, save_render)
            return
        from ..ranges import PageRange
        from ..views.slices import write_capped_json, write_text

        records = doc.pages() if save_render is None else _saving(doc.pages(), save_render)
        if output == "json":
            write_capped_json(doc, cap, emit, records)
        else:
            write_text(doc, PageRange.parse("1-"), cap, source_label(source), output, out, None, records)


def _saving(records: Iterator[dict[str, Any]], save: Callable[[dict[str, Any]], None]) -> Iterator[dict[str, Any]]:
    for record in records:
        save(record)
        yield record


def pages(page_range: str, source: str | None, cap: int, output: str, options: ReadOptions,
          to: Output = STDOUT) -> None:
    """siftpdf pages: the pages RANGE of SOURCE."""
    from ..ranges import PageRange
    from ..sources import open_source
    from ..views.slices import write_json, write_text

    wanted = PageRange.parse(page_range)
    # A cache hit then reads (and decodes) only the pages from the first to the last wanted.
    first, last = wanted.bounds()
    options = options.with_hints(first_page=first, last_page=last)
    with open_source(source, options) as doc:
        wanted.check(doc.extracted_count)
        if output == "json":
            write_json(doc, wanted, to.record)
            return
        write_text(doc, wanted, cap, source_label(source), output, to.text)


def map_(source: str | None, cap: int, output: str, options: ReadOptions, to: Output = STDOUT) -> None:
    """siftpdf map: the map of SOURCE."""
    from ..sources import open_source
    from ..views.map import build_map, render_map
    from ..views.renderers import page_renderer

    with open_source(source, options) as doc:
        doc_map = build_map(doc, cap, page_renderer(output))
        text = render_map(doc_map, source_label(source), cap, markdown=output == "markdown")
        if output == "json":
            record = {"map": {
                "title": doc_map.title, "pages": doc_map.pages, "extracted": doc_map.extracted,
                "tokens": doc_map.tokens, "outline": doc_map.outline, "whole": doc_map.whole,
                "returned": list(doc_map.returned) if doc_map.returned else None, "text": text,
            }}
            to.record({"meta": doc.meta})
            to.record(record)
            return
        to.text(text if text.endswith("\n") else text + "\n")
