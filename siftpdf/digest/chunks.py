"""Page-aware chunks.

A chunk is about CHUNK_CHARS characters of consecutive text (~300 tokens), built from whole
lines (blocks when the text is organized); the next chunk starts with the last OVERLAP_CHARS or
so of the previous one, so a sentence cut at a chunk edge is still whole in one of them. A
chunk never loses its page: it records every page it covers, and where it crosses a page
boundary its text carries the ``--- page N ---`` marker at that point.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..document import TEXT_STATUSES
from ..views.text import marker

CHUNK_CHARS = 1200
OVERLAP_CHARS = 200
MAX_LINE = CHUNK_CHARS  # a longer line (a whole organized paragraph) is split at spaces


@dataclass(frozen=True)
class Chunk:
    index: int
    pages: tuple[int, ...]  # every page the chunk covers, in order
    text: str  # with --- page N --- markers where it crosses a page boundary
    overlap: int  # characters at the start repeated from the previous chunk

    @property
    def first_page(self) -> int:
        return self.pages[0]

    def page_at(self, offset: int) -> int:
        """The page of the character at ``offset`` in ``text``."""
        page = self.pages[0]
        for number in self.pages[1:]:
            where = self.text.find(marker(number))
            if 0 <= where <= offset:
                page = number
        return page


def _units(page: int, text: str) -> Iterator[tuple[int, str]]:
    """Lines of a page (long ones split at spaces), tagged with their page."""
    for line in text.split("\n"):
        line = line.strip()
        while len(line) > MAX_LINE:
            cut = line.rfind(" ", 0, MAX_LINE)
            cut = cut if cut > MAX_LINE // 2 else MAX_LINE
            yield page, line[:cut]
            line = line[cut:].strip()
        if line:
            yield page, line


def chunk_pages(pages: Iterable[dict[str, Any]]) -> Iterator[Chunk]:
    """Chunks over page records (only pages with text contribute), in document order."""
    current: list[tuple[int, str]] = []
    size = 0
    index = 0
    overlap = 0
    for record in pages:
        if record.get("status") not in TEXT_STATUSES:
            continue
        for unit in _units(record["page"], record.get("text") or ""):
            if current and size + len(unit[1]) > CHUNK_CHARS:
                yield _make(index, current, overlap)
                index += 1
                current, overlap = _tail(current)
                size = sum(len(t) + 1 for _, t in current)
            current.append(unit)
            size += len(unit[1]) + 1
    if current and size > overlap:
        yield _make(index, current, overlap)


def _tail(units: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], int]:
    """The last units of a chunk, up to about OVERLAP_CHARS, to start the next one."""
    kept: list[tuple[int, str]] = []
    size = 0
    for unit in reversed(units):
        if size + len(unit[1]) > OVERLAP_CHARS:
            break
        kept.insert(0, unit)
        size += len(unit[1]) + 1
    return kept, len(_join(kept)) + (1 if kept else 0)


def _join(units: list[tuple[int, str]]) -> str:
    parts: list[str] = []
    page = units[0][0] if units else 0
    for number, text in units:
        if number != page:
            parts.append(f"\n{marker(number)}\n")
            page = number
        parts.append(text)
    return "\n".join(parts)


def _make(index: int, units: list[tuple[int, str]], overlap: int) -> Chunk:
    pages = tuple(dict.fromkeys(page for page, _ in units))
    return Chunk(index, pages, _join(units), min(overlap, len(_join(units))))
