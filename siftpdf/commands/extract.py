"""siftpdf extract: a PDF (or doc stream) in, the doc stream out."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .options import complete_source, extraction_options, note, output_options, quiet_option, whole_cap_option

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..sources import ReadOptions


@click.command("extract")
@click.argument("source", required=False, shell_complete=complete_source)
@click.option("--render", "render", metavar="PAGES",
              help="Also render these pages (a-b, a, a-, lists) to PNG files at 150 dpi, for OCR.")
@click.option("--render-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Where --render writes SOURCE-pN.png.")
@whole_cap_option
@output_options(default="json")
@extraction_options
@quiet_option
def command(source: str | None, render: str | None, render_dir: Path, cap: int | None, output: str,
            read_options: ReadOptions) -> None:
    """Extract SOURCE into the doc stream: meta, one line per page, done.

    The PDF is parsed in a child process with a deadline, an address-space
    limit and no network; a page that fails is reported and the rest go on.
    Pages are organized (reading order, blocks, furniture removed) unless
    --raw; a doc stream saved with --set output.evidence=true is organized
    again from its evidence, without the PDF.

    \b
    Examples:
      siftpdf extract --markdown paper.pdf > paper.md
      siftpdf extract --set output.evidence=true paper.pdf > ev.jsonl
      siftpdf extract --set organize.furniture=false ev.jsonl
    """
    from .bodies import extract

    if render:
        from ..ranges import PageRange

        PageRange.parse(render)  # a bad range is a usage error before any work
        read_options = dataclasses.replace(read_options, render=render)
    stem = Path(source).stem if source not in (None, "-") else "stdin"
    extract(source, output, read_options, (lambda record: _save_render(record, render_dir, stem)) if render else None,
            cap)


def _save_render(record: dict[str, Any], directory: Path, stem: str) -> None:
    """Write a page's PNG render to a file (never to stdout) and say where on stderr."""
    png = record.pop("render_png", None)
    if not png:
        return
    import base64

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{stem}-p{record['page']}.png"
    path.write_bytes(base64.b64decode(png))
    note(f"siftpdf: page {record['page']} rendered to {path}")
