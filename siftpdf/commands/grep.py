"""siftpdf grep: find lines in documents, with their pages. RE2 syntax, linear time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from .. import flags as spec
from ..errors import SiftError, UsageError
from .options import complete_source, options_of, out, set_quiet

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from collections.abc import Iterator

    from ..options import ReadOptions
    from ..views.grep import GrepSpec

def _refuse_pcre(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        raise click.UsageError("-P: patterns are RE2 (no backreferences, no look-around); leave -P out", ctx)


def _grep_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    set_quiet(ctx, param, value)  # and so no progress bar or notes, as -q elsewhere
    return value




# The command's help (click's), a constant: the grep and pdfgrep flag table makes it long.
HELP = """Print the lines of SOURCES that match PATTERN, as 'p. N: line'.

PATTERN is RE2 syntax (linear time, no backreferences), at most 200
bytes, smart case: case-insensitive unless it has upper case (-i and -s
force). Several patterns (-e, -f, or lines of one) match where any does.
Context lines read 'p. N- line'; groups are separated by '--'. With
several sources (or -r) each line starts with its source. The lines of a
page are its lines of text, blank ones left out, then its running heads,
footers, page numbers and stamps (marked "furniture": true in --json), as
pdfgrep finds them. Exit 0 when a line was
selected, 1 when none was, 2 on error (-q: 0 when one was, errors or not).

\b
grep(1) and pdfgrep(1) flags in siftpdf grep:
  -e PAT, -f FILE, -F, -i   the same (several patterns: any of them)
  -w, -x, -v                the same (-w: words of any script)
  -E                        accepted: patterns are always RE2
  -P (PCRE)                 refused: RE2 has no backreferences
  -c                        the same: selected lines per source (pdfgrep
                            counts matches); --json: per page and source
  -p (pdfgrep)              the same, lines per page: 'p. N: count'
  -l, -L, -q, -o            the same; exit status as GNU grep 3.5+
  -H, -h, -Z                the same
  -m NUM                    the same: per source (default 100)
  -A, -B, -C                the same (default -C 1)
  -n (line or page number)  accepted: pages are always shown ('p. N:')
  -r, -R, --include,        the same, PDFs and doc streams found by
    --exclude, --exclude-dir  their bytes (globs: files found in folders)
  --color[=WHEN]            the same (default auto: a terminal)
  --match-prefix-separator  the same (after the source's name)
  --page-range (pdfgrep)    --pages
  --password (pdfgrep)      the same, one password
  --cache, --warn-empty     accepted: always cached; no text is exit 5
  -s (grep: no messages)    case-sensitive (ripgrep's -s); --no-messages
  -V, --debug               siftpdf --version, siftpdf --debug grep
  --unac, -a, -b, -T, -U    not accepted

\b
Examples:
  siftpdf grep -C 0 --pages 40-60 'Figure \\d+' book.jsonl
  siftpdf grep -i 'learning rate' a.pdf b.pdf c.jsonl
  siftpdf grep -rlw -e adam -e sgd papers/
"""


@click.command("grep", short_help="Print the lines that match PATTERN, with their pages.", help=HELP,
               context_settings={"help_option_names": [spec.HELP.long]})  # -h is grep's --no-filename
@click.argument("words", nargs=-1, metavar="PATTERN [SOURCES]...", shell_complete=complete_source)
@options_of("grep", perl_regexp={"callback": _refuse_pcre}, quiet={"callback": _grep_quiet})
def command(words: tuple[str, ...], cap: int, as_json: bool, read_options: ReadOptions, **given: Any) -> None:
    """siftpdf grep: :data:`HELP`."""
    from ..ranges import PageRange
    from ..views.grep import GrepState, write_source
    from ..views.search import compile_patterns, page_filter
    from .many_sources import say_failed, stdin_once

    patterns, sources = _patterns_and_sources(words, given)
    stdin_once(sources)
    regex = compile_patterns(patterns, {"ignore": True, "sensitive": False}.get(given["case"] or ""),
                             given["fixed"], given["word"], given["line"])
    # grep reads only the text of pages, and of those only the pages its filter matches: a
    # cache hit reads them from the document's text blob, found by one search of it (not with
    # -v: a page without a match is all selected lines).
    read_options = read_options.with_hints(text_only=True, search=None if given["invert"] else page_filter(regex))
    wanted = PageRange.parse(given["page_range"]) if given["page_range"] else None
    recursive = given["recursive"] or given["dereference"]
    implicit = recursive and not sources  # grep -r without a source: this folder, its paths without './'
    sources = (".",) if implicit else sources
    several = len(sources) > 1 or (recursive and any(_is_folder(source) for source in sources))
    spec = _spec(given, cap, as_json, several)
    state = GrepState()
    errors = 0
    for source, problem in _sources(sources or ("-",), given, recursive, implicit):
        if problem is not None:  # a file the folder's walk could not read
            errors += 1
            if not given["no_messages"]:
                click.echo(f"siftpdf: {source}: {problem}", err=True)
            continue
        try:
            with _open(source, read_options) as doc:
                write_source(doc, regex, wanted, spec, source, state, out)
        except SiftError as error:
            if not several:
                raise
            errors += 1
            if not given["no_messages"]:
                say_failed(error, source)  # named, with its hint, as extract, pages and map say it
        if state.stop:
            break
    ctx = click.get_current_context()
    if errors and not (given["quiet"] and state.selected):
        ctx.exit(2)
    ctx.exit(0 if state.selected else 1)


def _spec(given: dict[str, Any], cap: int, as_json: bool, several: bool) -> GrepSpec:
    """What to write of each source, from the flags."""
    import sys

    from ..views.grep import GrepSpec, mode_of, use_color

    context = given["context"]
    return GrepSpec(mode_of(given), context if given["before"] is None else given["before"],
                    context if given["after"] is None else given["after"], given["invert"], given["max_count"], cap,
                    as_json, several if given["with_filename"] is None else given["with_filename"], given["null"],
                    given["separator"], not as_json and use_color(given["color"], sys.stdout))


def _open(source: str, read_options: ReadOptions) -> Any:
    from ..sources import open_source

    return open_source(source, read_options)


def _patterns_and_sources(words: tuple[str, ...], given: dict[str, Any]) -> tuple[list[str], tuple[str, ...]]:
    """The patterns (of -e and -f, else the first word) and the sources (the other words)."""
    from ..views.grep import split_patterns

    patterns = split_patterns(given["regexps"])
    for name in given["pattern_files"]:
        patterns += _pattern_file(name)
    if given["regexps"] or given["pattern_files"]:
        return patterns, words
    if not words:
        raise click.MissingParameter(ctx=click.get_current_context(), param_hint="'PATTERN'", param_type="argument")
    return split_patterns(words[:1]), words[1:]


def _pattern_file(name: str) -> list[str]:
    """The patterns of -f FILE: its lines (none in an empty file)."""
    import sys

    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as handle:
                data = handle.read()
        text = data.decode("utf-8")
    except OSError as exc:
        raise UsageError(f"-f {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"-f {name}: not UTF-8 text") from None
    return text.removesuffix("\n").split("\n") if text else []


def _is_folder(source: str) -> bool:
    import os

    return source != "-" and os.path.isdir(source)


def _sources(sources: tuple[str, ...], given: dict[str, Any], recursive: bool,
             implicit: bool) -> Iterator[tuple[str, str | None]]:
    """Each source to search, with None, or with why it cannot be (a folder found unreadable);
    with -r a folder is the documents in it."""
    from ..sources import find_documents

    problems: list[tuple[str, str]] = []  # heard of while walking a folder, told in order

    def problem(path: str, reason: str) -> None:
        problems.append((path, reason))

    for source in sources:
        if not (recursive and _is_folder(source)):
            yield source, None
            continue
        for found in find_documents(source, given["dereference"], given["include"], given["exclude"],
                                    given["exclude_dir"], problem):
            yield from problems
            problems.clear()
            yield found.removeprefix("./") if implicit else found, None
        yield from problems
        problems.clear()
