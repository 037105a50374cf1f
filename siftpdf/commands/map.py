"""siftpdf map: what is in a document, in at most --cap characters."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import complete_source, is_quiet, options_of

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..options import ReadOptions


@click.command("map")
@click.argument("sources", nargs=-1, shell_complete=complete_source)
@options_of("map")
def command(sources: tuple[str, ...], cap: int, output: str, read_options: ReadOptions) -> None:
    """Show the map of SOURCES: title, size, outline and the leading pages.

    A document that fits in --cap comes back whole, page-marked. A longer
    one gives '# title', 'pages N · ~T tokens', the outline with page
    numbers, the next commands to run, and as many leading pages as fit in
    a quarter of the cap. Several sources come in turn, each under a line
    '==> SOURCE <==' and within its own --cap (with --json, each record
    carries its "source"); one that fails is reported on stderr and the
    others still come, with exit status 2.

    \b
    Examples:
      siftpdf map thesis.pdf
      siftpdf extract datasheet.pdf | siftpdf map --cap 8000
      siftpdf map --cap 4000 *.pdf
    """
    from .actions import map_
    from .many_sources import each_source

    each_source(sources, output == "json", is_quiet(), lambda source, to: map_(source, cap, output, read_options, to))
