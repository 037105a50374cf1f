"""siftpdf extract: a PDF (or doc stream) in, the doc stream out."""

from __future__ import annotations

import click

from ..sources import ReadOptions, open_source
from ..textview import render_page
from .options import complete_source, emit, extraction_options, json_option, out, quiet_option


@click.command("extract")
@click.argument("source", required=False, shell_complete=complete_source)
@click.option("--text", "as_text", is_flag=True, help="Write the page-marked text view instead of the doc stream.")
@json_option
@extraction_options
@quiet_option
def command(source: str | None, as_text: bool, as_json: bool, read_options: ReadOptions) -> None:
    """Extract SOURCE into the doc stream: meta, one line per page, done.

    The PDF is parsed in a child process with a deadline, an address-space
    limit and no network; a page that fails is reported and the rest go on.

    \b
    Examples:
      siftpdf extract paper.pdf > paper.jsonl
      siftpdf extract --text paper.pdf | less
      cat paper.pdf | siftpdf extract --max-pages 50
    """
    click.get_current_context().meta["siftpdf.json"] = not as_text
    with open_source(source, read_options) as doc:
        if as_text:
            for index, record in enumerate(doc.pages()):
                out(render_page(record, first=index == 0))
            return
        emit({"meta": doc.meta})
        for record in doc.pages():
            emit(record)
        emit({"done": doc.done or {}})
