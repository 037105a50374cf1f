"""siftpdf grep: find lines in documents, with their pages. RE2 syntax, linear time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..errors import SiftError
from .options import cap_option, complete_source, extraction_options, json_option, out, quiet_option

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..sources import ReadOptions


@click.command("grep", short_help="Print the lines that match PATTERN, with their pages.")
@click.argument("pattern")
@click.argument("sources", nargs=-1, shell_complete=complete_source)
@click.option("-i", "--ignore-case", "case", flag_value="ignore", help="Match case-insensitively.")
@click.option("-s", "--case-sensitive", "case", flag_value="sensitive", help="Match case-sensitively.")
@click.option("-m", "--max-count", type=click.IntRange(min=1), default=100, show_default=True,
              help="Stop after this many matching lines.")
@click.option("-C", "--context", type=click.IntRange(min=0), default=1, show_default=True,
              help="Lines of context each side of a match.")
@click.option("--pages", "page_range", metavar="RANGE", help="Search only these pages (a-b, a, a-, lists).")
@cap_option
@json_option
@extraction_options
@quiet_option
def command(pattern: str, sources: tuple[str, ...], case: str | None, max_count: int, context: int,
            page_range: str | None, cap: int, as_json: bool, read_options: ReadOptions) -> None:
    """Print the lines of SOURCES that match PATTERN, as 'p. N: line'.

    PATTERN is RE2 syntax (linear time, no backreferences), at most 200
    bytes, smart case: case-insensitive unless it has upper case (-i and -s
    force). Context lines read 'p. N- line'; groups are separated by '--'.
    With several sources each line starts with its source. Exit 0 when a
    line matched, 1 when none did, 2 on error.

    \b
    Examples:
      siftpdf grep 'attention head' paper.pdf
      siftpdf grep -C 0 --pages 40-60 'Figure \\d+' book.jsonl
      siftpdf grep -i 'learning rate' a.pdf b.pdf c.jsonl
    """
    from ..ranges import PageRange
    from ..search import GrepState, compile_pattern, page_filter, write_matches
    from ..sources import open_source

    regex = compile_pattern(pattern, {"ignore": True, "sensitive": False}.get(case or ""))
    # grep reads only the text of pages, and of those only the pages its filter matches: a
    # cache hit reads them from the document's text blob, found by one search of it.
    read_options.text_only, read_options.search = True, page_filter(regex)
    wanted = PageRange.parse(page_range) if page_range else None
    ctx = click.get_current_context()
    state = GrepState()
    errors: list[SiftError] = []
    for source in sources or ("-",):
        if state.matches >= max_count:
            break
        label = f"{source}:" if len(sources) > 1 else ""
        try:
            with open_source(source, read_options) as doc:
                write_matches(doc, regex, wanted, context, max_count, cap, label, source, as_json, state, out)
        except SiftError as error:
            if len(sources) <= 1:
                raise
            named = error.message if error.message.startswith(f"{source}: ") else f"{source}: {error.message}"
            click.echo(f"siftpdf: {named}", err=True)
            errors.append(error)
    if errors:
        ctx.exit(2)
    ctx.exit(0 if state.matches else 1)
