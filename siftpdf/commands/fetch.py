"""siftpdf fetch: download a PDF (checked, limited), extract it in the child, cache it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import options_of

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..options import ReadOptions


@click.command("fetch")
@click.argument("url")
@options_of("fetch")
def command(url: str, cap: int | None, output: str, read_options: ReadOptions) -> None:
    """Download URL and write its doc stream: meta, one line per page, done.

    Only http and https; every redirect is re-checked, and loopback, private,
    link-local and cloud-metadata addresses are refused unless
    --allow-private. A PDF body may be 100 MB (5 MB for anything else) and
    must arrive within 120 s. The document is cached for --max-age seconds
    (24 h), then revalidated with a conditional GET; the meta records the
    final URL after redirects.

    \b
    Examples:
      siftpdf fetch https://arxiv.org/pdf/1706.03762 > paper.jsonl
      siftpdf fetch https://example.org/report.pdf | siftpdf map
      siftpdf pages 41-60 https://example.org/datasheet.pdf   # the same cache
    """
    from ..sources import require_url
    from .actions import extract

    require_url(url, local="siftpdf extract FILE")
    extract(url, output, read_options, cap=cap)
