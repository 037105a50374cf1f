"""siftpdf extract: a PDF (or doc stream) in, the doc stream out; several into a folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import SiftError, UsageError
from .options import complete_source, is_quiet, note, options_of

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..batch import Item, Outcome
    from ..options import ReadOptions


@click.command("extract")
@click.argument("sources", nargs=-1, shell_complete=complete_source)
@options_of("extract")
def command(sources: tuple[str, ...], output_dir: Path | None, render: str | None, render_dir: Path,
            cap: int | None, output: str,
            read_options: ReadOptions) -> None:
    """Extract SOURCES into the doc stream: meta, one line per page, done.

    The PDF is parsed in a child process with a deadline, an address-space
    limit and no network; a page that fails is reported and the rest go on.
    Pages are organized (reading order, blocks, furniture removed) unless
    --raw; a doc stream saved with --set output.evidence=true is organized
    again from its evidence, without the PDF.

    One source goes to stdout. Several go to files, with -o DIR: one per
    source, named after it (a.pdf to DIR/a.jsonl; sources whose names clash
    get '-' and 8 hex digits of their SHA-256: a-3f2c1d9e.jsonl), two at a
    time within the extraction pool. A file is written under a temporary name
    and renamed when whole; a doc stream that ends with its 'done' record is
    finished and skipped by the next run, so a batch that was stopped goes
    on where it was. Failures are reported by source, the other files are
    still written, and the exit status is then 2 (one source: its own).

    \b
    Examples:
      siftpdf extract --markdown paper.pdf > paper.md
      siftpdf extract -o streams/ *.pdf
      siftpdf extract --set output.evidence=true paper.pdf > ev.jsonl
    """
    if render:
        from ..ranges import PageRange

        PageRange.parse(render)  # a bad range is a usage error before any work
        read_options = read_options.with_extraction(render=render)
    if output_dir is not None:
        if cap is not None:  # a cut file would be taken for a finished one and never redone
            raise UsageError("extract: --cap cuts what goes to stdout; -o DIR writes whole documents",
                             hint="drop --cap, or read a slice later: siftpdf pages RANGE DIR/NAME.jsonl")
        _to_folder(sources, output_dir, output, read_options, render_dir)
        return
    if len(sources) > 1:
        # stdout holds one doc stream, as a reader reads one: several go to files.
        raise UsageError("extract: several sources go into a folder, one doc stream each: give -o DIR",
                         hint="siftpdf extract -o DIR SOURCE...")
    from .actions import extract

    source = sources[0] if sources else None
    stem = Path(source).stem if source not in (None, "-") else "stdin"
    extract(source, output, read_options, (lambda record: _save_render(record, render_dir, stem)) if render else None,
            cap)


def _to_folder(sources: tuple[str, ...], directory: Path, output: str, read_options: ReadOptions,
               render_dir: Path) -> None:
    """extract -o DIR: each source into its file in DIR; what failed on stderr, by source."""
    from ..batch import Batch, plan

    ctx = click.get_current_context()
    ctx.meta["siftpdf.json"] = False  # stdout carries nothing: an error is told on stderr only
    items = plan(sources or ("-",), directory, output)

    def renders(item: Item) -> Any:
        stem = item.path.name.removesuffix(item.path.suffix)
        return lambda record: _save_render(record, render_dir, stem)

    outcomes = Batch(items, output, read_options, on_outcome=_tell, on_page=renders).run()
    failed = [outcome for outcome in outcomes if outcome.state == "failed"]
    _summary(outcomes, directory)
    if failed:
        ctx.exit(_error(failed[0]).exit_code if len(items) == 1 else 2)


def _error(outcome: Outcome) -> SiftError:
    from .group import CACHE_DIR_KEY, typed_error

    assert outcome.error is not None
    return typed_error(outcome.error, click.get_current_context().meta.get(CACHE_DIR_KEY))


def _tell(outcome: Outcome) -> None:
    """A failure as it happens, named by its source (errors are told even with -q)."""
    if outcome.state == "failed":
        from .many_sources import say_failed

        say_failed(_error(outcome), outcome.item.source)


def _summary(outcomes: list[Outcome], directory: Path) -> None:
    """One line on stderr: how many files were written, skipped, and which sources failed."""
    if is_quiet():
        return
    written = sum(outcome.state == "written" for outcome in outcomes)
    skipped = sum(outcome.state == "skipped" for outcome in outcomes)
    failed = [outcome for outcome in outcomes if outcome.state == "failed"]
    parts = [f"{written} written"] + ([f"{skipped} skipped (finished already)"] if skipped else [])
    if failed:
        parts.append(f"{len(failed)} failed: " + ", ".join(
            f"{outcome.item.source} ({_error(outcome).code})" for outcome in failed))
    note(f"siftpdf: {directory}: " + ", ".join(parts))


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
