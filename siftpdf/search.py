"""grep over a document's pages with RE2: linear time whatever the pattern (SPEC §4)."""

from __future__ import annotations

from .errors import UsageError
from .textview import page_text

# Not typing's TYPE_CHECKING, and no dataclass: the console's fast path (siftpdf.quick) greps
# a cache hit with this module and does without those imports.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    from .docstream import Document
    from .ranges import PageRange

MAX_PATTERN_BYTES = 200
WINDOW = 200  # characters shown around a match in a long line


class Line:
    """A line grep shows: a match, or context around one."""

    __slots__ = ("page", "text", "is_match", "number")

    def __init__(self, page: int, text: str, is_match: bool, number: int) -> None:
        self.page = page
        self.text = text
        self.is_match = is_match
        self.number = number  # 1-based line number within the page

    def _key(self) -> tuple[int, str, bool, int]:
        return self.page, self.text, self.is_match, self.number

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Line(page={self.page!r}, text={self.text!r}, is_match={self.is_match!r}, number={self.number!r})"


def compile_pattern(pattern: str, ignore_case: bool | None = None) -> Any:
    """Compile with RE2. ``ignore_case=None`` is smart case: insensitive unless upper case is used."""
    import re2

    if len(pattern.encode("utf-8")) > MAX_PATTERN_BYTES:
        raise UsageError(f"pattern over {MAX_PATTERN_BYTES} bytes")
    if ignore_case is None:
        ignore_case = not _has_upper(pattern)
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise UsageError(f"bad pattern: {exc}") from None


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


def grep_pages(pages: Iterable[dict[str, Any]], regex: Any, context: int = 1) -> Iterator[list[Line]]:
    """Yield groups of lines: matches with ``context`` lines each side, within one page.

    Adjacent or overlapping groups on a page merge, as grep's do.
    """
    page_filter = _page_filter(regex)
    for record in pages:
        if record.get("status") != "text":
            continue
        text = page_text(record)
        every: list[str] | None = None
        matching_every = None
        if page_filter is not None:
            # One search per page instead of one per line: most pages do not match. On the
            # UTF-8 bytes, which re2 searches as they are (a str costs its wrapper more than
            # the search on a page): the same search, the same answer.
            data = text.encode("utf-8")
            if page_filter.search(data) is None:
                continue
            every = text.split("\n")
            matching_every = _matching_lines(data, page_filter)
            if matching_every is _EMPTY_MATCH:
                matching_every = _matching_lines_of_text(text, every, page_filter)
        every = every if every is not None else text.split("\n")
        # Blank lines only separate blocks of the text view: context is the neighbouring text.
        keep = [i for i, line in enumerate(every) if line.strip()]
        lines = [every[i] for i in keep]
        numbers = [i + 1 for i in keep]
        matching = None if matching_every is None else {k for k, i in enumerate(keep) if i in matching_every}
        group: list[Line] = []
        last_shown = -1
        for index, text in enumerate(lines):
            if matching is not None and index not in matching:
                continue
            found = regex.search(text)
            if not found:
                continue
            lo = max(0, index - context, last_shown + 1)
            if group and lo > last_shown + 1:
                yield group
                group = []
            for j in range(lo, index):
                group.append(Line(record["page"], _short(lines[j]), False, numbers[j]))
            group.append(Line(record["page"], window(text, found.start(), found.end()), True, numbers[index]))
            last_shown = index
            hi = min(len(lines) - 1, index + context)
            for j in range(index + 1, hi + 1):
                if (j in matching) if matching is not None else regex.search(lines[j]):
                    break  # the next iteration shows it as a match
                group.append(Line(record["page"], _short(lines[j]), False, numbers[j]))
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
    and the context lines before and after it (up to the neighbouring match)."""
    for index, line in enumerate(group):
        if not line.is_match:
            continue
        before = [x.text for x in _context(group[:index][::-1])][::-1]
        after = [x.text for x in _context(group[index + 1:])]
        yield {"source": source, "page": line.page, "line": line.number, "text": line.text,
               "before": before, "after": after}


def _context(lines: list[Line]) -> list[Line]:
    """The context lines up to the next match."""
    result = []
    for line in lines:
        if line.is_match:
            break
        result.append(line)
    return result


class GrepState:
    """What `siftpdf grep` has written so far, over its sources: matching lines, characters
    (for --cap) and groups (for the '--' between them)."""

    def __init__(self) -> None:
        self.matches = 0
        self.chars = 0
        self.groups = 0


def write_matches(doc: Document, regex: Any, wanted: PageRange | None, context: int, max_count: int, cap: int,
                  label: str, source: str, as_json: bool, state: GrepState, write: Callable[[str], object]) -> None:
    """`siftpdf grep` over one document: its lines (after ``label``) or, ``as_json``, its match
    records, written with ``write``, until ``max_count`` matches or ``cap`` characters in all."""
    if wanted:
        wanted.check(doc.extracted_count)
    pages = (r for r in doc.pages() if wanted is None or r["page"] in wanted)
    for group in grep_pages(pages, regex, context):
        group = limit_matches(group, max_count - state.matches)
        state.matches += sum(1 for line in group if line.is_match)
        if as_json:
            from .docstream import dumps

            for match in match_records(group, source):
                write(dumps({"match": match}) + "\n")
        else:
            text = ("--\n" if state.groups and context else "") + format_group(group, label)
            if state.chars + len(text) > cap:
                write(f"[output cut at --cap {cap} characters]\n")
                state.matches = max(state.matches, 1)
                state.chars = cap
                return
            state.chars += len(text)
            write(text)
        state.groups += 1
        if state.matches >= max_count:
            return
