"""siftpdf map: what is in a document, in at most --cap characters."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import cap_option, complete_source, extraction_options, out, output_options, quiet_option, source_label

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..sources import ReadOptions


@click.command("map")
@click.argument("source", required=False, shell_complete=complete_source)
@cap_option
@output_options(default="text")
@extraction_options
@quiet_option
def command(source: str | None, cap: int, output: str, read_options: ReadOptions) -> None:
    """Show the map of SOURCE: title, size, outline and the leading pages.

    A document that fits in --cap comes back whole, page-marked. A longer
    one gives '# title', 'pages N · ~T tokens', the outline with page
    numbers, the next commands to run, and as many leading pages as fit in
    a quarter of the cap.

    \b
    Examples:
      siftpdf map thesis.pdf
      siftpdf extract datasheet.pdf | siftpdf map --cap 8000
    """
    from ..docstream import dumps
    from ..mapview import build_map, render_map
    from ..sources import open_source
    from ..textview import page_renderer

    with open_source(source, read_options) as doc:
        doc_map = build_map(doc, cap, page_renderer(output))
        text = render_map(doc_map, source_label(source), cap, markdown=output == "markdown")
        if output == "json":
            record = {"map": {
                "title": doc_map.title, "pages": doc_map.pages, "extracted": doc_map.extracted,
                "tokens": doc_map.tokens, "outline": doc_map.outline, "whole": doc_map.whole,
                "returned": list(doc_map.returned) if doc_map.returned else None, "text": text,
            }}
            out(dumps({"meta": doc.meta}) + "\n" + dumps(record) + "\n")
            return
        out(text if text.endswith("\n") else text + "\n")
