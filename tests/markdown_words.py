"""What a reader of rendered Markdown sees, for tests: the words, with the markup taken away by
a real CommonMark + GFM parser (markdown-it-py, which rich already brings), never by a regex
that shares the renderer's assumptions. A word that Markdown turned into syntax is missing.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from typing import Any

from markdown_it import MarkdownIt

PARSER = MarkdownIt("commonmark").enable("table").enable("strikethrough")
FIGURE = "[figure]"  # what the text view writes where the Markdown has an image placeholder


def words(text: str) -> list[str]:
    """Whitespace-separated words that hold a letter or digit: bullets, rules and the ' | '
    between cells are layout, not words."""
    return [word for word in text.split() if any(ch.isalnum() for ch in word)]


def rendered_text(markdown: str) -> str:
    """The text a Markdown renderer shows: inline text and code, ordered-list numbers as shown
    (a list counts from its first item), an image as ``[figure]``; raw HTML shows nothing."""
    out: list[str] = []
    lists: list[list[Any]] = []  # [next number, delimiter] of each open ordered list; []: bullets
    for token in PARSER.parse(markdown):
        if token.type == "ordered_list_open":
            start = token.attrGet("start")
            lists.append([1 if start is None else int(start), token.markup])
        elif token.type == "bullet_list_open":
            lists.append([])
        elif token.type in ("ordered_list_close", "bullet_list_close"):
            lists.pop()
        elif token.type == "list_item_open" and lists[-1]:
            out.append(f" {lists[-1][0]}{lists[-1][1]} ")
            lists[-1][0] += 1
        elif token.type == "inline":
            out.append(_inline(token.children or []))
        elif token.type in ("code_block", "fence"):
            out.append(token.content)
        elif token.type == "html_block" and _is_table(token.content):
            out.append(_cell_text(token.content))
        out.append(" ")
    return "".join(out)


def _inline(children: list[Any]) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "image":
            parts.append(f" {FIGURE} ")
    return "".join(parts)


def _is_table(html: str) -> bool:
    return html.startswith("<table>") and html.rstrip().endswith("</table>")


class _CellText(HTMLParser):
    """The text a browser shows of an HTML table: its cells' text, entities resolved."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts.append(" ")


def _cell_text(html: str) -> str:
    parser = _CellText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def markdown_words(markdown: str) -> list[str]:
    return words(rendered_text(markdown))


def html_tokens(markdown: str) -> list[str]:
    """Raw HTML that the parser found, besides the tables written in HTML for their spans."""
    found = []
    for token in PARSER.parse(markdown):
        if token.type == "html_block" and not _is_table(token.content):
            found.append(token.content)
        elif token.type == "inline":
            found += [c.content for c in token.children or [] if c.type == "html_inline"]
    return found


def missing_and_extra(plain: str, markdown: str) -> tuple[Counter[str], Counter[str]]:
    """Words of the text view the Markdown lost, and words it has that the text view has not."""
    want, got = Counter(words(plain)), Counter(markdown_words(markdown))
    return want - got, got - want
