"""siftpdf grep: find lines in documents, with their pages. RE2 syntax, linear time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..errors import SiftError
from .options import cap_option, complete_source, extraction_options, json_option, out, quiet_option

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..ranges import PageRange
    from ..search import Line
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
    from ..search import compile_pattern

    regex = compile_pattern(pattern, {"ignore": True, "sensitive": False}.get(case or ""))
    wanted = PageRange.parse(page_range) if page_range else None
    ctx = click.get_current_context()
    state = {"matches": 0, "chars": 0, "groups": 0}
    errors: list[SiftError] = []
    for source in sources or ("-",):
        if state["matches"] >= max_count:
            break
        label = f"{source}:" if len(sources) > 1 else ""
        try:
            _grep_one(source, regex, wanted, context, max_count, cap, label, as_json, state, read_options)
        except SiftError as error:
            if len(sources) <= 1:
                raise
            named = error.message if error.message.startswith(f"{source}: ") else f"{source}: {error.message}"
            click.echo(f"siftpdf: {named}", err=True)
            errors.append(error)
    if errors:
        ctx.exit(2)
    ctx.exit(0 if state["matches"] else 1)


def _grep_one(source: str, regex: Any, wanted: PageRange | None, context: int, max_count: int, cap: int,
              label: str, as_json: bool, state: dict[str, int], read_options: ReadOptions) -> None:
    from ..search import format_group, grep_pages, limit_matches
    from ..sources import open_source

    with open_source(source, read_options) as doc:
        if wanted:
            wanted.check(doc.extracted_count)
        pages = (r for r in doc.pages() if wanted is None or r["page"] in wanted)
        for group in grep_pages(pages, regex, context):
            group = limit_matches(group, max_count - state["matches"])
            state["matches"] += sum(1 for line in group if line.is_match)
            if as_json:
                _emit_json(source, group)
            else:
                text = ("--\n" if state["groups"] and context else "") + format_group(group, label)
                if state["chars"] + len(text) > cap:
                    out(f"[output cut at --cap {cap} characters]\n")
                    state["matches"] = max(state["matches"], 1)
                    state["chars"] = cap
                    return
                state["chars"] += len(text)
                out(text)
            state["groups"] += 1
            if state["matches"] >= max_count:
                return


def _emit_json(source: str, group: list[Line]) -> None:
    from ..docstream import dumps
    from ..search import match_records

    for match in match_records(group, source):
        out(dumps({"match": match}) + "\n")
