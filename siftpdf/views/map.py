"""The map of a document (``siftpdf map``): what is in it, and where to read next."""

from __future__ import annotations

from ..docstream import Document
from .text import render_page

TYPE_CHECKING = False  # not typing's: a cold map imports neither typing nor dataclasses (docs/speed.md)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .text import PageRenderer


class DocMap:
    def __init__(self, title: str, pages: int, extracted: int, chars: int, outline: list[dict[str, Any]]) -> None:
        self.title, self.pages, self.extracted, self.chars, self.outline = title, pages, extracted, chars, outline
        self.leading: list[str] = []  # rendered pages that fit
        self.returned: tuple[int, int] | None = None
        self.whole = False

    @property
    def tokens(self) -> int:
        return self.chars // 4


def build_map(doc: Document, cap: int, render: PageRenderer = render_page) -> DocMap:
    """One pass over the pages: keep the whole text while it fits the cap, else the leading
    pages that fit in cap/4, and count every character for the token estimate. ``render``
    writes a page in the view asked for (the text view, or Markdown)."""
    meta = doc.meta
    result = DocMap(title=meta.get("title") or "", pages=doc.page_count, extracted=0, chars=0,
                    outline=list(meta.get("outline") or []))
    rendered: list[tuple[int, str]] = []
    headings: list[dict[str, Any]] = []
    size = 0
    for record in doc.pages():
        if not result.outline:
            headings += _headings(record, MAX_HEADINGS - len(headings))
        text = render(record, not rendered and result.extracted == 0)
        result.extracted += 1
        result.chars += len(text)
        if size <= cap:
            rendered.append((record["page"], text))
            size += len(text)
    if not result.outline:
        result.outline = headings
    if size <= cap and result.extracted >= result.pages:
        result.whole = True
        result.leading = [t for _, t in rendered]
    else:
        budget, used = cap // 4, 0
        kept: list[str] = []
        for _, text in rendered:
            if used + len(text) > budget:
                break
            kept.append(text)
            used += len(text)
        result.leading = kept
    if result.leading:
        first = rendered[0][0]
        result.returned = (first, first + len(result.leading) - 1)
    return result


MAX_HEADINGS = 500


def _headings(record: dict[str, Any], room: int) -> list[dict[str, Any]]:
    """Organized headings of a page as outline items: the map of a PDF without an outline."""
    found: list[dict[str, Any]] = []
    for block in record.get("blocks") or []:
        if block.get("kind") == "heading" and block.get("text") and len(found) < room:
            found.append({"title": block["text"][:200], "page": record["page"], "level": block.get("level") or 1})
    return found


def render_map(m: DocMap, source: str, cap: int, next_line: str | None = None, markdown: bool = False) -> str:
    """The map as text (or Markdown), never longer than ``cap`` characters. ``next_line``
    replaces the line naming the commands to run next (a service names its request fields)."""
    if m.whole:
        return "".join(m.leading)[:cap]
    escape, heading = _markup(markdown)
    src = source if source and source != "-" else "doc.jsonl"
    if m.extracted < m.pages:
        counts = f"pages 1–{m.extracted} of {m.pages} extracted · ~{m.tokens:,} tokens"
    else:
        counts = f"pages {m.pages} · ~{m.tokens:,} tokens"
    head = [heading(m.title or "(untitled)"), escape(counts), ""]
    nxt = escape(next_line or (f"next: siftpdf pages A-B {src} · siftpdf grep PATTERN {src} · "
                               f"siftpdf digest -q QUESTION {src}"))
    body = "".join(m.leading)
    budget = cap - len("\n".join(head)) - len(nxt) - len(body) - 8
    outline_lines: list[str] = []
    used, depth = 0, -1
    for item in m.outline:
        # Markdown nests a list one level at a time: a deeper jump would read as code.
        depth = max(0, item["level"] - 1) if not markdown else min(max(0, item["level"] - 1), depth + 1)
        line = f"{'  ' * depth}- {escape(str(item['title']))} (p. {item['page']})"
        if used + len(line) + 1 > budget - 60:
            outline_lines.append(escape(f"… {len(m.outline) - len(outline_lines)} more outline entries "
                                        f"(siftpdf extract --json shows all)"))
            break
        outline_lines.append(line)
        used += len(line) + 1
    parts = head + outline_lines + ([""] if outline_lines else []) + [nxt, "", body]
    return "\n".join(parts)[:cap]


def _markup(markdown: bool) -> tuple[Callable[[str], str], Callable[[str], str]]:
    """How the map's own lines are escaped, and its title made a heading."""
    if not markdown:
        return (lambda text: text), (lambda title: f"# {title}")
    from .markdown import escape, heading

    return escape, (lambda title: heading(title, 1))
