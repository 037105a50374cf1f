"""The prompt: selected chunks in document order, page markers kept, and the citation rule."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..views.text import marker
from .chunks import Chunk

CITE_LINE = "When the document has `--- page N ---` markers, cite pages as (p. N)."
INSTRUCTIONS = (
    "Answer the question using only the document excerpts below. " + CITE_LINE + "\n"
    "If the excerpts do not contain the answer, say so plainly."
)
# Our own fixed pattern: (p. 4), (pp. 4-6), (p. 4, 7), (p. 4; p. 9).
_CITATION = re.compile(r"\(\s*pp?\.\s*([0-9][0-9,;\s\-–p.]*)\)")


@dataclass
class Prompt:
    text: str
    pages: list[int]  # every page whose text is in the prompt
    chunks: list[Chunk]


def select(ranked: list[tuple[Chunk, float]], budget: int) -> list[Chunk]:
    """Best chunks first until the character budget is spent, then put back in document order."""
    chosen: list[Chunk] = []
    used = 0
    for chunk, _score in ranked:
        if used + len(chunk.text) > budget and chosen:
            break
        chosen.append(chunk)
        used += len(chunk.text)
    return sorted(chosen, key=lambda c: c.index)


def build_prompt(question: str, meta: dict[str, Any], chunks: list[Chunk]) -> Prompt:
    title = meta.get("title") or "(untitled)"
    parts = [INSTRUCTIONS, "", f"Document: {title} ({meta.get('pages', '?')} pages)",
             f"Question: {question}", "", "Excerpts, in document order:", ""]
    previous: Chunk | None = None
    pages: list[int] = []
    for chunk in chunks:
        if previous is not None and chunk.index == previous.index + 1:
            parts.append(chunk.text[chunk.overlap:].lstrip("\n"))
        else:
            if previous is not None:
                parts.append("[…]\n")
            parts.append(f"{marker(chunk.first_page)}\n")
            parts.append(chunk.text)
        parts.append("")
        pages.extend(p for p in chunk.pages if p not in pages)
        previous = chunk
    return Prompt("\n".join(parts).rstrip() + "\n", sorted(pages), chunks)


def cited_pages(answer: str) -> list[int]:
    """Pages an answer cites as (p. N), (pp. N–M) or (p. N, M)."""
    pages: set[int] = set()
    for match in _CITATION.finditer(answer):
        for part in re.split(r"[,;]", match.group(1)):
            numbers = [int(n) for n in re.findall(r"\d+", part)]
            if len(numbers) == 2 and numbers[0] <= numbers[1] and numbers[1] - numbers[0] < 1000:
                pages.update(range(numbers[0], numbers[1] + 1))
            else:
                pages.update(numbers)
    return sorted(pages)
