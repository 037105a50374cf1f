"""siftpdf engine: what this machine's PDF engines can do."""

from __future__ import annotations

from pathlib import Path

import click

from .options import options_of, out


@click.group("engine")
def command() -> None:
    """Inspect the PDF engines siftpdf uses on this machine.

    \b
    Examples:
      siftpdf engine status
      siftpdf engine status --json | jq .engine_status.memory_limit
    """


@command.command("status", short_help="Engines, versions, memory limit and cache.")
@options_of("engine status")
def status(as_json: bool, cache_dir: Path | None, cache_url: str | None) -> None:
    """Show which engines load, their versions and PDFium build, whether the
    memory limit is enforced here and by what, the cache location and size
    (and, with --cache-url, whether the shared cache server answers), and
    the --ocr default in force: auto when an OCR engine is installed, never
    when none is (or what SIFTPDF_OCR says).

    The engines are loaded in a fresh child, under the same limits as an
    extraction. The memory limit is enforced by RLIMIT_AS on Linux, tested
    by an allocation that must fail; on macOS by a watchdog in siftpdf that
    reads each child's memory and kills it over the limit, tested by reading
    the child's. Exit 0 when the default engine loads and the limit is
    enforced, 1 otherwise.

    \b
    Examples:
      siftpdf engine status
      siftpdf engine status --json
      SIFTPDF_CACHE_DIR=/tmp/sift siftpdf engine status
    """
    from ..docstream import dumps
    from ..status import engine_status, render_status

    ctx = click.get_current_context()
    ctx.meta["siftpdf.json"] = as_json
    from ..store.local_store import check_url

    found = engine_status(cache_dir, cache_url=check_url(cache_url))
    out(dumps({"engine_status": found}) + "\n" if as_json else render_status(found))
    ctx.exit(0 if found["ok"] else 1)
