"""siftpdf sniff: what kind of document is this?"""

from __future__ import annotations

import click

from .options import complete_source, options_of, out


@click.command("sniff")
@click.argument("source", required=False, shell_complete=complete_source)
@options_of("sniff")
def command(source: str | None, as_json: bool) -> None:
    """Tell whether SOURCE is a PDF, by its first 1024 bytes.

    Prints one line such as 'pdf (magic at byte 0)'; other kinds are html,
    json, docstream, text and binary. Exit 0 for a PDF, 1 otherwise.

    \b
    Examples:
      siftpdf sniff report.pdf
      curl -s https://example.org/x | siftpdf sniff
    """
    from ..docstream import dumps
    from ..sources import sniff_source

    found = sniff_source(source)
    if as_json:
        out(dumps({"sniff": {"source": source, "kind": found.kind, "detail": found.detail}}) + "\n")
    else:
        out(found.describe() + "\n")
    click.get_current_context().exit(0 if found.kind == "pdf" else 1)
