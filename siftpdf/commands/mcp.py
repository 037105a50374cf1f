"""siftpdf mcp: the filters as tools for agents that speak the Model Context Protocol."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import UsageError
from .options import options_of

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..options import ReadOptions


@click.command("mcp", short_help="Serve map, pages, grep, digest, sniff and fetch as MCP tools over stdio.")
@options_of("mcp", roots={"type": click.Path(exists=True, file_okay=False, path_type=Path)})
def command(roots: tuple[Path, ...], cap: int, read_options: ReadOptions) -> None:
    """Serve siftpdf's filters as MCP tools over stdin and stdout.

    An MCP client (a coding assistant, an agent framework) starts this
    command and calls its tools: map, pages (a range; text or markdown),
    grep (pattern, context, pages), digest (question), sniff and fetch.
    Each takes a source: a path inside a --root folder, or an http(s) URL,
    which the fetch guard checks (no private address without
    --allow-private). The tools read through the same cache, pool and
    child as the commands, with the options given here; an answer is the
    text view, capped by --cap, with the records as structured content. A
    failure is a tool error carrying the code, message and hint a command
    would give; a cancelled call kills its extraction child. Needs the
    MCP SDK: pip install 'siftpdf[mcp]'.

    \b
    Examples:
      siftpdf mcp --root ~/papers
      siftpdf mcp --root docs --root /srv/reports --cap 20000
      siftpdf mcp --root . --allow-private --ocr auto
    """
    if read_options.sharing.in_process:
        raise UsageError("mcp: --in-process is not for a server: a cancelled call must be able to kill its "
                         "extraction, which runs in a child")
    from .. import extras

    extras.require("mcp", "mcp: the MCP SDK is not installed")
    import siftpdf

    from ..mcp.server import serve
    from ..mcp.tools import Roots, ToolConfig

    serve(ToolConfig(read_options, cap, Roots([str(root) for root in roots])), siftpdf.__version__)
