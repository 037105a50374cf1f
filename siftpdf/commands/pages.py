"""siftpdf pages: read a slice of a document."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import complete_source, is_quiet, options_of

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..options import ReadOptions


@click.command("pages")
@click.argument("page_range", metavar="RANGE")
@click.argument("sources", nargs=-1, shell_complete=complete_source)
@options_of("pages")
def command(page_range: str, sources: tuple[str, ...], cap: int, output: str, read_options: ReadOptions) -> None:
    """Print the pages RANGE of SOURCES as page-marked text.

    RANGE is a-b, a, a- (to the end) or a comma list of them, 1-based and
    inclusive. At most 100 pages or --cap characters come back per source; a
    final note says where the output was cut and how to go on. Several
    sources come in turn, each under a line '==> SOURCE <==' (with --json,
    each record carries its "source"); one that fails is reported on stderr
    and the others still come, with exit status 2.

    \b
    Examples:
      siftpdf pages 3-5 paper.pdf
      siftpdf pages 1,7,12- paper.pdf notes.jsonl
      siftpdf extract book.pdf | siftpdf pages 41-60 --json
    """
    from ..ranges import PageRange
    from .actions import pages
    from .many_sources import each_source

    PageRange.parse(page_range)  # a bad range is the command's usage error, not each source's
    each_source(sources, output == "json", is_quiet(),
                lambda source, to: pages(page_range, source, cap, output, read_options, to))
