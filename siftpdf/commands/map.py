"""siftpdf map: what is in a document, in at most --cap characters."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import cap_option, complete_source, extraction_options, output_options, quiet_option

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
    from .bodies import map_

    map_(source, cap, output, read_options)
