"""siftpdf pages: read a slice of a document."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import cap_option, complete_source, extraction_options, output_options, quiet_option

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
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
    from .bodies import pages

    pages(page_range, source, cap, output, read_options)
