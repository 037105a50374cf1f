"""grep over a document's pages with RE2: linear time whatever the pattern."""

from __future__ import annotations

from ..document import TEXT_STATUSES
from ..errors import UsageError
from .text import furniture_lines, page_text

# Not typing's TYPE_CHECKING, and no dataclass: the console's fast path (siftpdf.console.cache_hits) greps
# a cache hit with this module and does without those imports.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

MAX_PATTERN_BYTES = 200
WINDOW = 200  # characters shown around a match in a long line


class Line:
    """A line grep shows: a match, or context around one."""

    __slots__ = ("page", "text", "is_match", "number", "furniture")

    def __init__(self, page: int, text: str, is_match: bool, number: int, furniture: bool = False) -> None:
        self.page = page
        self.text = text
        self.is_match = is_match
        self.number = number  # 1-based line number within the page
        self.furniture = furniture  # a running head, footer, page number or stamp, not the body

    def _key(self) -> tuple[int, str, bool, int, bool]:
        return self.page, self.text, self.is_match, self.number, self.furniture

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Line(page={self.page!r}, text={self.text!r}, is_match={self.is_match!r}, number={self.number!r}"
                + (", furniture=True)" if self.furniture else ")"))


def compile_pattern(pattern: str, ignore_case: bool | None = None) -> Any:
    """Compile with RE2. ``ignore_case=None`` is smart case: insensitive unless upper case is used."""
    return compile_patterns([pattern], ignore_case)


# A word character for -w, as grep's "letters, digits and the underscore", in any script (RE2's
# \b knows ASCII only): letters, digits, combining marks, underscore. Never a newline, so a
# page's search in multi-line mode does not join two lines.
_NOT_WORD = r"[^\pL\pN\pM_\n]"
_NOTHING = r"[^\x00-\x{10FFFF}]"  # an empty pattern list matches nothing (grep -f /dev/null)


def compile_patterns(patterns: list[str], ignore_case: bool | None = None, fixed: bool = False,
                     word: bool = False, line: bool = False) -> Any:
    """Several patterns as one RE2 pattern that matches where any of them does (grep's -e, -f),
    each at most :data:`MAX_PATTERN_BYTES`; ``fixed`` takes them as literal strings (-F),
    ``line`` matches whole lines only (-x), else ``word`` whole words only (-w). Smart case
    (``ignore_case=None``) is insensitive unless a pattern has upper case. A -w pattern is a
    :class:`WordPattern`, whose matches are the word without the characters around it."""
    import re2

    for pattern in patterns:
        if len(pattern.encode("utf-8")) > MAX_PATTERN_BYTES:
            raise UsageError(f"pattern over {MAX_PATTERN_BYTES} bytes")
    if ignore_case is None:
        ignore_case = not any(any(ch.isupper() for ch in p) if fixed else _has_upper(p) for p in patterns)
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    parts = [re2.escape(p) for p in patterns] if fixed else list(patterns)
    wrapped = len(parts) != 1 or word or line
    if wrapped and not fixed:
        for part in parts:  # each alone: "a)|(b" must not become valid inside "(?:...)"
            _compile(re2, part, options)
    body = _NOTHING if not parts else parts[0] if len(parts) == 1 else "|".join(f"(?:{p})" for p in parts)
    if line:
        return _compile(re2, f"^(?:{body})$", options)
    if word:
        return WordPattern(_compile(re2, f"(?:^|{_NOT_WORD})({body})(?:{_NOT_WORD}|$)", options))
    return _compile(re2, body, options)


def _compile(re2: Any, pattern: str, options: Any) -> Any:
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise UsageError(f"bad pattern: {exc}") from None


class Span:
    """Where a -w pattern matched: the word, as a match object's start, end and span."""

    __slots__ = ("_start", "_end")

    def __init__(self, start: int, end: int) -> None:
        self._start, self._end = start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end


class WordPattern:
    """A -w pattern. RE2 has no look-around, so the compiled pattern takes in the character
    before and after the word (or a line's start or end); its group 1 is the word. Searches
    answer the word's :class:`Span`; ``pattern`` and ``options`` are the compiled pattern's,
    for the page filter."""

    __slots__ = ("regex",)

    def __init__(self, regex: Any) -> None:
        self.regex = regex

    @property
    def pattern(self) -> str:
        return str(self.regex.pattern)

    @property
    def options(self) -> Any:
        return self.regex.options

    def search(self, text: str, pos: int = 0) -> Span | None:
        found = self.regex.search(text, pos)
        return None if found is None else Span(found.start(1), found.end(1))

    def finditer(self, text: str) -> Iterator[Span]:
        pos = 0
        while pos <= len(text):
            found = self.search(text, pos)
            if found is None:
                return
            yield found
            # From the word's end: the character after it may start the next word's match.
            pos = found.end() if found.end() > found.start() else found.end() + 1


def _has_upper(pattern: str) -> bool:
    """Upper case that is a literal, not the letter of an escape such as \\S or \\p{Lu}."""
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if pattern[i + 1 : i + 2] in ("p", "P") and pattern[i + 2 : i + 3] == "{":
                end = pattern.find("}", i)
                i = end + 1 if end > 0 else len(pattern)
            else:
                i += 2
            continue
        if ch.isupper():
            return True
        i += 1
    return False


def window(text: str, start: int, end: int, width: int = WINDOW) -> str:
    """About ``width`` characters around text[start:end], with ellipses where cut."""
    if len(text) <= width * 2:
        return text
    if end - start > width * 2:  # the match itself is long: its start, cut
        return ("…" if start else "") + text[start:start + width * 2] + "…"
    pad = max(0, (width - (end - start)) // 2)
    left, right = max(0, start - pad), min(len(text), max(end, start) + pad)
    # Cut between words where a space is near, so the window does not start or end mid-word.
    space = text.find(" ", left, start)
    if left and 0 <= space - left < 20:
        left = space + 1
    space = text.rfind(" ", max(end, start), right)
    if right < len(text) and 0 <= right - space < 20:
        right = space
    return ("…" if left else "") + text[left:right] + ("…" if right < len(text) else "")


def grep_pages(pages: Iterable[dict[str, Any]], regex: Any, context: int = 1, before: int | None = None,
               after: int | None = None, invert: bool = False) -> Iterator[list[Line]]:
    """Yield groups of lines: the selected lines (those that match, or ``invert``: those that do
    not) with ``before`` and ``after`` lines of context (``context`` each side unless given),
    within one page. Adjacent or overlapping groups on a page merge, as grep's do."""
    before = context if before is None else before
    after = context if after is None else after
    page_filter = _page_filter(regex)
    for record in pages:
        found = page_hits(record, regex, page_filter, invert)
        if found is not None:
            yield from _groups(record["page"], *found, before, after)


def capped_groups(pages: Iterable[dict[str, Any]], regex: Any, max_count: int, context: int = 1,
                  before: int | None = None, after: int | None = None,
                  invert: bool = False) -> Iterator[list[Line]]:
    """:func:`grep_pages`' groups, until ``max_count`` lines are selected in all (grep's -m):
    the group of the last one is cut after it (keeping its context after)."""
    found = 0
    for group in grep_pages(pages, regex, context, before, after, invert):
        group = limit_matches(group, max_count - found)
        found += sum(1 for line in group if line.is_match)
        yield group
        if found >= max_count:
            return


class PageLines:
    """A page's lines as grep sees them: the non-blank lines of its text (blank lines only
    separate blocks of the text view), with their 1-based line numbers within the page, then
    its furniture's lines (``body``: how many lines the body has), numbered on after them."""

    __slots__ = ("lines", "numbers", "body")

    def __init__(self, lines: list[str], numbers: list[int], body: int | None = None) -> None:
        self.lines, self.numbers = lines, numbers
        self.body = len(lines) if body is None else body


def searched_text(record: dict[str, Any]) -> tuple[str, int]:
    """The text grep searches on a page: its body as the text view shows it, then the lines the
    organization set aside as furniture (running heads, footers, page numbers, stamps), which
    pdfgrep finds too; and how many lines of it are the body's."""
    text = page_text(record)
    extra = furniture_lines(record)
    return ("\n".join([text, *extra]) if extra else text), text.count("\n") + 1


def page_hits(record: dict[str, Any], regex: Any, page_filter: Any, invert: bool = False,
              ) -> tuple[PageLines, list[tuple[int, tuple[int, int] | None]]] | None:
    """A page's lines and its selected ones, as (index, span of the first match, None when
    ``invert``); None for a page that has no text, or none that matches (unless ``invert``)."""
    if record.get("status") not in TEXT_STATUSES:
        return None
    text, body = searched_text(record)
    every: list[str] | None = None
    matching_every: set[int] | None = None
    if page_filter is not None:
        # One search per page instead of one per line: most pages do not match. On the
        # UTF-8 bytes, which re2 searches as they are (a str costs its wrapper more than
        # the search on a page): the same search, the same answer.
        data = text.encode("utf-8")
        if page_filter.search(data) is None:
            if not invert:
                return None
            matching_every = set()
        else:
            every = text.split("\n")
            matching_every = _matching_lines(data, page_filter)
            if matching_every is _EMPTY_MATCH:
                matching_every = _matching_lines_of_text(text, every, page_filter)
    every = every if every is not None else text.split("\n")
    keep = [i for i, line in enumerate(every) if line.strip()]
    lines = PageLines([every[i] for i in keep], [i + 1 for i in keep], sum(i < body for i in keep))
    hits: list[tuple[int, tuple[int, int] | None]] = []
    for index, line in enumerate(lines.lines):
        if matching_every is not None and keep[index] not in matching_every:
            found = None
        else:
            found = regex.search(line)
        if invert:
            if found is None:
                hits.append((index, None))
        elif found is not None:
            hits.append((index, (found.start(), found.end())))
    return (lines, hits) if hits or invert else None


def _groups(page: int, lines: PageLines, hits: list[tuple[int, tuple[int, int] | None]], before: int,
            after: int) -> Iterator[list[Line]]:
    """The groups of one page's selected lines with their context (see :func:`grep_pages`)."""
    texts, numbers, body = lines.lines, lines.numbers, lines.body
    selected = {index for index, _ in hits}
    group: list[Line] = []
    last_shown = -1
    for index, span in hits:
        # Context stays on its side of the body's end: a footer is no context of the text.
        side_lo, side_hi = (body, len(texts) - 1) if index >= body else (0, body - 1)
        lo = max(side_lo, index - before, last_shown + 1)
        if group and lo > last_shown + 1:
            yield group
            group = []
        for j in range(lo, index):
            group.append(Line(page, _short(texts[j]), False, numbers[j], j >= body))
        text = texts[index]
        group.append(Line(page, window(text, *span) if span else _short(text), True, numbers[index], index >= body))
        last_shown = index
        for j in range(index + 1, min(side_hi, index + after) + 1):
            if j in selected:
                break  # the next one is shown as selected
            group.append(Line(page, _short(texts[j]), False, numbers[j], j >= body))
            last_shown = j
    if group:
        yield group


_EMPTY_MATCH: set[int] = set()


def _matching_lines(data: bytes, page_filter: Any) -> set[int] | None:
    """:func:`_matching_lines_of_text` on the page's UTF-8 bytes: the same matches (re2 walks
    a str on its bytes too), unless one is empty, after which a str search steps a character
    and a bytes search a byte: then :data:`_EMPTY_MATCH`, for the search on the text."""
    from bisect import bisect_right

    starts = [0]
    at = data.find(b"\n")
    while at >= 0:
        starts.append(at + 1)
        at = data.find(b"\n", at + 1)
    found: set[int] = set()
    for match in page_filter.finditer(data):
        start, end = match.span()
        if start == end:
            return _EMPTY_MATCH
        if b"\n" in data[start:end]:
            return None
        found.add(bisect_right(starts, start) - 1)
    return found


def _matching_lines_of_text(text: str, lines: list[str], page_filter: Any) -> set[int] | None:
    """The indices of the lines that match, from one pass of the multi-line pattern over the
    page. None when a match crosses a line break: such a match could hide a line's own match,
    so the lines are then searched one by one."""
    from bisect import bisect_right

    starts, position = [], 0
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    found: set[int] = set()
    for match in page_filter.finditer(text):
        if "\n" in text[match.start():match.end()]:
            return None
        found.add(bisect_right(starts, match.start()) - 1)
    return found


def page_filter(regex: Any) -> Any:
    """The pattern grep searches whole pages with first (see :func:`_page_filter`), or None."""
    return _page_filter(regex)


def _page_filter(regex: Any) -> Any:
    """The pattern in multi-line mode, to skip a page whole when no line of it can match.
    It may match where no single line does (``\\s`` crosses a newline): the lines are then
    searched one by one as before. ``\\A`` and ``\\z`` mean "line start/end" per line but not
    in a page, so such a pattern gets no filter."""
    import re2

    pattern = getattr(regex, "pattern", None)
    if not isinstance(pattern, str) or "\\A" in pattern or "\\z" in pattern:
        return None
    try:
        return re2.compile("(?m)" + pattern, regex.options)
    except (re2.error, AttributeError, TypeError):
        return None


def _short(text: str) -> str:
    return text if len(text) <= WINDOW * 2 else text[:WINDOW] + "…"


def limit_matches(group: list[Line], room: int) -> list[Line]:
    """Cut a group after its ``room``-th match (keeping that match's trailing context)."""
    seen = 0
    for index, line in enumerate(group):
        if line.is_match:
            seen += 1
            if seen > room:
                return group[:index]
    return group


def format_group(group: list[Line], prefix: str = "") -> str:
    """grep's lines: ``p. N: match`` and ``p. N- context``, each after ``prefix``."""
    return "".join(f"{prefix}p. {line.page}{':' if line.is_match else '-'} {line.text}\n" for line in group)


def match_records(group: list[Line], source: str) -> Iterator[dict[str, Any]]:
    """Each match of a group as the body of a ``match`` record: source, page, line number, text,
    and the context lines before and after it (up to the neighbouring match); ``furniture``
    true where the line is a running head, footer, page number or stamp."""
    for index, line in enumerate(group):
        if not line.is_match:
            continue
        before = [x.text for x in _context(group[:index][::-1])][::-1]
        after = [x.text for x in _context(group[index + 1:])]
        match = {"source": source, "page": line.page, "line": line.number, "text": line.text,
                 "before": before, "after": after}
        if line.furniture:
            match["furniture"] = True
        yield match


def _context(lines: list[Line]) -> list[Line]:
    """The context lines up to the next match."""
    result = []
    for line in lines:
        if line.is_match:
            break
        result.append(line)
    return result
