"""siftpdf fetch: download a PDF (checked, limited), extract it in the child, cache it."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..errors import FetchError, UsageError
from .options import extraction_options, out, output_options

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..sources import ReadOptions


@click.command("fetch")
@click.argument("url")
@output_options(default="json")
@extraction_options
def command(url: str, output: str, read_options: ReadOptions) -> None:
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
    from ..docstream import write_record
    from ..sources import is_url, open_source
    from ..textview import page_renderer

    if "://" in url and not is_url(url):
        raise FetchError(f"fetch refused: only http and https URLs ({url.split('://', 1)[0]}:)")
    if not is_url(url):
        raise UsageError(f"{url}: not an http(s) URL (local files: siftpdf extract FILE)")
    with open_source(url, read_options) as doc:
        if output != "json":
            render_page = page_renderer(output)
            for index, record in enumerate(doc.pages()):
                out(render_page(record, index == 0))
            return
        write_record(sys.stdout, {"meta": doc.meta})
        for record in doc.pages():
            write_record(sys.stdout, record)
        write_record(sys.stdout, {"done": doc.done or {}})
