"""What ``siftpdf grep`` writes of one source, in each of grep's output modes: the selected
lines with their context, the matches only (-o), a count (-c, and per page -p), the source's
name (-l, -L), or nothing (-q); as text or JSON Lines records.

The command (siftpdf.commands.grep) and the console's fast path (siftpdf.console.cache_hits) both write
with :func:`write_source`, so a flag means the same on a cache hit and a miss. Light imports
only (the fast path's): no click, no dataclasses, no typing at run time.
"""

from __future__ import annotations

from .search import capped_groups, match_records, page_hits, window

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    from ..docstream import Document
    from ..ranges import PageRange

# The output modes, strongest first: grep's -q wins over -l, which wins over -c, and so on.
MODES = ("quiet", "files_with", "files_without", "page_count", "count", "only", "lines")
COLORS = ("never", "auto", "always")
# GNU grep's default GREP_COLORS: match bold red, file name magenta, line (here page) number
# green, separators cyan.
_MATCH, _FILE, _PAGE, _SEP = "01;31", "35", "32", "36"


def mode_of(flags: dict[str, Any]) -> str:
    """The output mode of the flags given (``flags[mode]`` true), as grep picks among them."""
    return next((mode for mode in MODES[:-1] if flags.get(mode)), "lines")


def split_patterns(patterns: Iterable[str]) -> list[str]:
    """grep's PATTERNS: each given pattern is one or more, separated by newlines."""
    return [part for pattern in patterns for part in pattern.split("\n")]


def use_color(when: str, stream: Any) -> bool:
    """--color WHEN: always, never, or auto (a terminal, unless NO_COLOR is set or TERM=dumb)."""
    if when != "auto":
        return when == "always"
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class GrepState:
    """What ``siftpdf grep`` has done so far, over its sources: lines selected, characters
    written (for --cap), groups written (for the ``--`` between them), and whether to stop
    (-q has its answer, or the cap is reached). ``matches``, when a list, gets the ``match``
    record of each selected line the text view wrote (the MCP server answers both)."""

    __slots__ = ("selected", "chars", "groups", "stop", "matches")

    def __init__(self, matches: list[dict[str, Any]] | None = None) -> None:
        self.selected = 0
        self.chars = 0
        self.groups = 0
        self.stop = False
        self.matches = matches


class GrepSpec:
    """How ``siftpdf grep`` writes each source: the output ``mode`` (:data:`MODES`), lines of
    context ``before`` and ``after`` a selected line, ``invert`` (select the lines that do not
    match), at most ``max_count`` selected lines per source, at most ``cap`` characters of
    text in all, JSON records or text, the source's name before each line (``with_filename``,
    then ``separator``, or a NUL with ``null``) and ``color``."""

    __slots__ = ("mode", "before", "after", "invert", "max_count", "cap", "as_json", "with_filename", "null",
                 "separator", "color")

    def __init__(self, mode: str = "lines", before: int = 1, after: int = 1, invert: bool = False,
                 max_count: int = 100, cap: int = 40_000, as_json: bool = False, with_filename: bool = False,
                 null: bool = False, separator: str = ":", color: bool = False) -> None:
        self.mode, self.before, self.after, self.invert = mode, before, after, invert
        self.max_count, self.cap, self.as_json = max_count, cap, as_json
        self.with_filename, self.null, self.separator, self.color = with_filename, null, separator, color

    def paint(self, text: str, sgr: str) -> str:
        return f"\x1b[{sgr}m\x1b[K{text}\x1b[m\x1b[K" if self.color and text else text

    def prefix(self, source: str) -> str:
        """What goes before each line of a source: its name and a separator, or nothing."""
        if not self.with_filename:
            return ""
        return self.paint(source, _FILE) + ("\0" if self.null else self.paint(self.separator, _SEP))

    def page(self, page: int, mark: str) -> str:
        """``p. N:`` (a selected line) or ``p. N-`` (context), and the space after it."""
        return self.paint(f"p. {page}", _PAGE) + self.paint(mark, _SEP) + " "


def write_source(doc: Document, regex: Any, wanted: PageRange | None, spec: GrepSpec, source: str,
                 state: GrepState, write: Callable[[str], object]) -> None:
    """Search one document and write what ``spec`` asks for, counting its selected lines in
    ``state`` (``state.stop`` once grep would stop reading: -q's first selected line, the cap)."""
    if wanted:
        wanted.check(doc.extracted_count)
    pages = (r for r in doc.pages() if wanted is None or r["page"] in wanted)
    _WRITERS[spec.mode](pages, regex, spec, source, state, write)


def _put(text: str, spec: GrepSpec, state: GrepState, write: Callable[[str], object]) -> bool:
    """Write text within the cap; past it, the note once, and stop."""
    if state.chars + len(text) > spec.cap:
        write(f"[output cut at --cap {spec.cap} characters]\n")
        state.chars, state.stop = spec.cap, True
        state.selected = max(state.selected, 1)
        return False
    state.chars += len(text)
    write(text)
    return True


def _json(record: dict[str, Any], write: Callable[[str], object]) -> None:
    from ..docstream import dumps

    write(dumps(record) + "\n")


def _lines(pages: Iterable[dict[str, Any]], regex: Any, spec: GrepSpec, source: str, state: GrepState,
           write: Callable[[str], object]) -> None:
    """The selected lines, ``p. N: line``, with context lines ``p. N- line``, groups between
    ``--`` lines; or a ``match`` record for each."""
    prefix = spec.prefix(source)
    for group in capped_groups(pages, regex, spec.max_count, before=spec.before, after=spec.after,
                               invert=spec.invert):
        state.selected += sum(1 for line in group if line.is_match)
        if spec.as_json:
            for match in match_records(group, source):
                _json({"match": match}, write)
        else:
            between = spec.paint("--", _SEP) + "\n" if state.groups and (spec.before or spec.after) else ""
            text = between + "".join(
                prefix + spec.page(line.page, ":" if line.is_match else "-")
                + (_highlight(line.text, regex, spec) if line.is_match else line.text) + "\n" for line in group)
            if not _put(text, spec, state, write):
                return
            if state.matches is not None:
                state.matches.extend(match_records(group, source))
        state.groups += 1


def _highlight(text: str, regex: Any, spec: GrepSpec) -> str:
    """A selected line with its (non-empty) matches in colour, when colour is on."""
    if not spec.color or spec.invert:
        return text
    out, at = [], 0
    for match in regex.finditer(text):
        if match.end() > match.start():
            out += [text[at:match.start()], spec.paint(text[match.start():match.end()], _MATCH)]
            at = match.end()
    return "".join(out) + text[at:]


def _selected(pages: Iterable[dict[str, Any]], regex: Any,
              spec: GrepSpec) -> Iterator[tuple[int, int, str, bool]]:
    """(page, line number, line, whether it is furniture) of each selected line, in order."""
    from .search import page_filter

    pf = page_filter(regex)
    for record in pages:
        found = page_hits(record, regex, pf, spec.invert)
        if found is not None:
            lines, hits = found
            for index, _ in hits:
                yield record["page"], lines.numbers[index], lines.lines[index], index >= lines.body


def _only(pages: Iterable[dict[str, Any]], regex: Any, spec: GrepSpec, source: str, state: GrepState,
          write: Callable[[str], object]) -> None:
    """Each non-empty match of a selected line on a line of its own, ``p. N: match`` (-o);
    with -v nothing, as grep (the lines still count for the exit status)."""
    found = 0
    prefix = spec.prefix(source)
    for page, number, line, furniture in _selected(pages, regex, spec):
        found += 1
        state.selected += 1
        for match in () if spec.invert else regex.finditer(line):
            start, end = match.start(), match.end()
            if start == end:
                continue
            text = window(line[start:end], 0, end - start)
            if spec.as_json:
                match = {"source": source, "page": page, "line": number, "text": text, "before": [], "after": []}
                _json({"match": {**match, "furniture": True} if furniture else match}, write)
            elif not _put(prefix + spec.page(page, ":") + spec.paint(text, _MATCH) + "\n", spec, state, write):
                return
        if found >= spec.max_count:
            return


def _counts(pages: Iterable[dict[str, Any]], regex: Any, spec: GrepSpec, source: str, state: GrepState,
            write: Callable[[str], object]) -> None:
    """The number of selected lines (at most -m): of the source (-c) or of each page that has
    one (-p); with JSON, a ``count`` record for each such page, then one for the source."""
    per_page: dict[int, int] = {}
    total = 0
    for page, _number, _line, _furniture in _selected(pages, regex, spec):
        per_page[page] = per_page.get(page, 0) + 1
        total += 1
        if total >= spec.max_count:
            break
    state.selected += total
    if spec.as_json:
        for page, count in per_page.items():
            _json({"count": {"source": source, "page": page, "lines": count}}, write)
        _json({"count": {"source": source, "lines": total}}, write)
        return
    prefix = spec.prefix(source)
    if spec.mode == "count":
        _put(f"{prefix}{total}\n", spec, state, write)
        return
    for page, count in per_page.items():
        if not _put(f"{prefix}{spec.page(page, ':')}{count}\n", spec, state, write):
            return


def _files(pages: Iterable[dict[str, Any]], regex: Any, spec: GrepSpec, source: str, state: GrepState,
           write: Callable[[str], object]) -> None:
    """The source's name when a line is selected (-l) or none is (-L), read up to the first
    selected line; nothing, and stop, at the first one (-q)."""
    matched = next(_selected(pages, regex, spec), None) is not None
    state.selected += matched
    if spec.mode == "quiet":
        state.stop = state.stop or matched
        return
    if matched != (spec.mode == "files_with"):
        return
    if spec.as_json:
        _json({"file": {"source": source, "matched": matched}}, write)
    else:
        _put(spec.paint(source, _FILE) + ("\0" if spec.null else "\n"), spec, state, write)


_WRITERS: dict[str, Callable[..., None]] = {
    "lines": _lines, "only": _only, "count": _counts, "page_count": _counts,
    "files_with": _files, "files_without": _files, "quiet": _files,
}
