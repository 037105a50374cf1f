"""The Markdown view (docs/manual.md, MARKDOWN VIEW): organized blocks as CommonMark + GFM, page-marked.

Pure functions over doc-stream page records. The Markdown has the words of the text view
(:mod:`siftpdf.views.text`), word for word: markup is added around them, and any character that
Markdown would read as markup is escaped, so that no word turns into syntax and disappears.
"""

from __future__ import annotations

from ..document import TABLE_CELL_SEPARATOR
from ..fonts import SYMBOL_BULLETS
from ..lazyre import lazy
from .text import marker, page_text

# Not typing's TYPE_CHECKING: typing costs every cold command its import (docs/speed.md).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from re import Match
    from typing import Any

# Characters that mean something inside a line; each is judged in context by ``_inline_one``.
# A tilde strikes through only when paired, so a text with a single one ('~495') keeps it bare;
# a pipe parts cells only in a table's rows (a paragraph becomes no table: every line that
# could be a table's delimiter row is escaped), so it is escaped only in cells. Keyed by
# (tildes, pipes).
_INLINE = {(tildes, pipes): lazy("[\\\\`*_" + "~" * tildes + "|" * pipes + "\\[\\]<&]")
           for tildes in (False, True) for pipes in (False, True)}
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = lazy(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});")
# What a line may not start with: an ATX heading, a block quote, a bullet, a setext underline
# or thematic break, an ordered-list enumerator.
_LINE_START = lazy(r"^(?:[#>]|[-+](?=[ \t]|$)|[-=](?=[-=]*[ \t]*$))")
_ENUMERATOR_START = lazy(r"^(\d{1,9})([.)])(?=[ \t]|$)")
# A line of only pipes, colons, dashes and spaces may be read as a table's delimiter row, and
# the line above it as the table's head: a backslash before its first colon or dash keeps it text.
_DELIMITER_ROW = lazy(r"^[|:\-\\ \t]*-[|:\-\\ \t]*$")
_BULLET = lazy(rf"^[•◦▪‣●○■□·*–—{SYMBOL_BULLETS}-][ \t]+")
_ORDERED = lazy(r"^(0|[1-9][0-9]{0,8})([.)])[ \t]+")
_BREAKS = lazy(r"\r\n?")
_BACKTICKS = lazy(r"`+")


def _inline_one(match: Match[str]) -> str:
    text, at, char = match.string, match.start(), match.group()
    after = text[at + 1:at + 2]
    if char == "\\":  # only a backslash that would escape the next character (or break the line)
        return "\\\\" if after in _ASCII_PUNCTUATION or after in ("", "\n") else char
    if char == "_":  # an underscore inside a word never opens or closes emphasis
        before = text[at - 1:at] if at else ""
        return char if before.isalnum() and after.isalnum() else "\\_"
    if char == "[":
        return char  # a link needs its ']' followed by '(', '[' or ':', and that one is escaped
    if char == "]":
        return "\\]" if after in ("(", "[", ":") else char
    if char == "<":  # the start of a tag, an autolink or a comment
        return "\\<" if after.isascii() and (after.isalpha() or after in ("/", "!", "?")) else char
    if char == "&":
        return "\\&" if _ENTITY.match(text, at) else char
    return "\\" + char  # ` * ~ |


def escape_inline(text: str, tildes: bool | None = None, pipes: bool = True) -> str:
    """``text`` as literal inline Markdown: emphasis, code, links, tags, entities, strikethrough
    and (with ``pipes``: a table's cell) pipes escaped. ``tildes``: whether the paragraph it is
    part of has a pair of them (by default, whether ``text`` has)."""
    paired = text.count("~") > 1 if tildes is None else tildes
    return _INLINE[paired, pipes].sub(_inline_one, text)


def _escape_line_start(line: str) -> str:
    """An (already inline-escaped) line that cannot open a block construct."""
    match = _ENUMERATOR_START.match(line)
    if match:
        return f"{match.group(1)}\\{line[match.end(1):]}"
    if _LINE_START.match(line):
        return "\\" + line
    if _DELIMITER_ROW.match(line):
        at = min(i for i in (line.find(":"), line.find("-")) if i >= 0)
        return f"{line[:at]}\\{line[at:]}"
    return line


def escape(text: str) -> str:
    """Text (of one or many lines) as Markdown paragraphs that show it literally."""
    lines = _BREAKS.sub("\n", text).split("\n")
    tildes = text.count("~") > 1
    # Stripped first: four leading spaces would make code, two trailing ones a line break.
    return "\n".join(_escape_line_start(escape_inline(line.strip(" \t"), tildes, pipes=False)) for line in lines)


def _flat(text: str) -> str:
    """One line: where a single line is required (headings, cells)."""
    return " ".join(_BREAKS.sub("\n", text).split("\n")).strip()


# --- blocks -----------------------------------------------------------------------------------

def _text(block: dict[str, Any]) -> str:
    text = block.get("text")
    return text if isinstance(text, str) else ""


def _page_of(block: dict[str, Any], page: int) -> int:
    spans = block.get("spans")
    if isinstance(spans, list) and spans and isinstance(spans[0], dict) and isinstance(spans[0].get("page"), int):
        return int(spans[0]["page"])
    return page


def heading(text: str, level: Any) -> str:
    depth = min(6, max(1, level)) if isinstance(level, int) and not isinstance(level, bool) else 1
    # Every '#' escaped: a trailing run would otherwise be read as the closing sequence.
    return "#" * depth + " " + escape_inline(_flat(text), pipes=False).replace("#", "\\#")


def figure(page: int) -> str:
    """An image placeholder that says what it is and where: ``![figure (p. 3)]()``."""
    return f"![figure (p. {page})]()"


def row_cells(block: dict[str, Any]) -> list[str]:
    """A table row's cells: its ``cells`` when it has them, else its text split where the text
    view joined them."""
    cells = block.get("cells")
    if isinstance(cells, list):
        return [c if isinstance(c, str) else str(c.get("text") or "") if isinstance(c, dict) else "" for c in cells]
    return _text(block).split(TABLE_CELL_SEPARATOR)


def pipe_table(rows: list[list[str]]) -> str:
    """GFM pipe table: the first row is the header, every row padded to the widest."""
    width = max(len(row) for row in rows)

    def line(cells: list[str]) -> str:
        cells = cells + [""] * (width - len(cells))
        return "| " + " | ".join(escape_inline(_flat(cell)) for cell in cells) + " |"

    return "\n".join([line(rows[0]), "|" + "---|" * width] + [line(row) for row in rows[1:]])


def plain_rows(rows: Iterable[str]) -> str:
    """Table rows without cells: one line each, held apart by hard line breaks."""
    return "\\\n".join(line for line in (escape(_flat(row)) for row in rows) if line)


def _span(cell: dict[str, Any], key: str) -> int:
    value = cell.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 1 else 1


def table(block: dict[str, Any]) -> str:
    """A ``table`` block (``rows`` of ``{"text", "colspan", "rowspan"}`` cells,
    ``header_rows``): a pipe table when every cell is one plain span and at most one row is a
    header, else an HTML table with its spans. The part of a table going on from the page
    before (``continued``) without a head of its own gets an empty head row: its first row
    is no head."""
    rows = [[c for c in row if isinstance(c, dict)] for row in block.get("rows") or [] if isinstance(row, list)]
    rows = [row for row in rows if row]
    if not rows:
        return escape(_text(block))
    header = block.get("header_rows")
    header = header if isinstance(header, int) and not isinstance(header, bool) else 1
    plain = all(_span(c, "colspan") == 1 and _span(c, "rowspan") == 1 for row in rows for c in row)
    if plain and header <= 1:
        texts = [[str(c.get("text") or "") for c in row] for row in rows]
        if header == 0 and block.get("continued") is True:
            texts.insert(0, [""] * max(len(row) for row in texts))  # its head is on the page before
        return pipe_table(texts)
    from html import escape as html_escape  # only here: its entity tables cost start-up time

    out = ["<table>"]
    for index, row in enumerate(rows):
        tag = "th" if index < header else "td"
        cells = []
        for cell in row:
            spans = "".join(f' {key}="{_span(cell, key)}"' for key in ("colspan", "rowspan") if _span(cell, key) > 1)
            cells.append(f"<{tag}{spans}>{html_escape(_flat(str(cell.get('text') or '')), quote=False)}</{tag}>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "\n".join(out + ["</table>"])


class _Lists:
    """Which list the previous block left open: an ordered item is written as one only when
    Markdown would show its own number (a list numbers its items from the first one's)."""

    def __init__(self) -> None:
        self.open: tuple[str, int] | None = None  # the last item's delimiter ('-' for a bullet) and number

    def item(self, text: str) -> tuple[str, bool]:
        """The item as Markdown, and whether it goes on the list the previous item is in (and
        so may follow it on the next line: a tight list)."""
        previous, self.open = self.open, None
        bullet = _BULLET.match(text)
        if bullet:
            self.open = ("-", 0)
            return "- " + escape(text[bullet.end():].lstrip()), previous == ("-", 0)
        ordered = _ORDERED.match(text)
        if ordered:
            number, delimiter = int(ordered.group(1)), ordered.group(2)
            # Another delimiter (or a bullet) starts another list, which may start anywhere.
            if previous is None or previous[0] != delimiter or previous[1] == number - 1:
                self.open = (delimiter, number)
                item = f"{ordered.group(1)}{delimiter} " + escape(text[ordered.end():].lstrip())
                return item, previous == (delimiter, number - 1)
        return escape(text), False  # an enumerator Markdown would renumber (or none) stays text

    def end(self) -> None:
        self.open = None


def render_blocks(blocks: list[Any], page: int) -> str:
    """One page's blocks as Markdown, one block per paragraph; footnotes at the end."""
    kept = [b for b in blocks if isinstance(b, dict)]
    ordered = [b for b in kept if b.get("kind") != "footnote"] + [b for b in kept if b.get("kind") == "footnote"]
    parts: list[str] = []
    lists = _Lists()
    index = 0
    while index < len(ordered):
        block = ordered[index]
        kind = block.get("kind")
        tight = False
        if kind == "table_row":
            end = index
            while end < len(ordered) and ordered[end].get("kind") == "table_row":
                end += 1
            part = _table_rows(ordered[index:end])
            index = end
            lists.end()
        elif kind == "list_item":
            part, tight = lists.item(_text(block))
            index += 1
        else:
            part = _block(block, kind, page)
            index += 1
            lists.end()
        if part:
            parts.append(("\n" if tight else "\n\n") + part if parts else part)
    return "".join(parts)


def _block(block: dict[str, Any], kind: Any, page: int) -> str:
    text = _text(block)
    if kind == "figure":
        return figure(_page_of(block, page))
    if kind == "heading":
        return heading(text, block.get("level")) if text.strip() else ""
    if kind == "table":
        return table(block)
    if kind == "code":
        return code(text)
    return escape(text)  # paragraph, provision (its number leads), caption, footnote, unknown


def code(text: str) -> str:
    """A block of code as a fenced code block: its lines as they are, under a fence of more
    backticks than any run of them in the code."""
    if not text.strip():
        return ""
    lines = _BREAKS.sub("\n", text).split("\n")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence, *(line.rstrip() for line in lines), fence])


def _table_rows(rows: list[dict[str, Any]]) -> str:
    """A run of table rows: one pipe table when they have cells, else plain lines."""
    cells = [row_cells(row) for row in rows]
    if max(len(c) for c in cells) < 2:
        return plain_rows(_text(row) for row in rows)
    return pipe_table(cells)


# --- pages ------------------------------------------------------------------------------------

def page_markdown(record: dict[str, Any]) -> str:
    """A page's body as Markdown: its blocks, or (a raw page, a page without evidence, a page
    with a note instead of text) its text, escaped."""
    blocks = record.get("blocks")
    if isinstance(blocks, list) and blocks and record.get("status") != "failed":
        return render_blocks(blocks, int(record["page"]))
    return escape(page_text(record))


def render_page(record: dict[str, Any], first: bool) -> str:
    """One page with its marker, framed exactly as :func:`siftpdf.views.text.render_page` frames
    it: the marker stands alone between blank lines, so it reads as a paragraph of its own."""
    head = "" if first else "\n"
    return f"{head}{marker(record['page'])}\n\n{page_markdown(record)}\n"
