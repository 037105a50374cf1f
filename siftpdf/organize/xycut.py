"""Recursive XY-cut: a page's reading order from the whitespace between its parts.

A region is cut down a vertical channel of whitespace that runs its whole height when the
pieces either side read as columns of text, else across a horizontal channel that runs its whole
width; each piece is cut again. The leaves, read in order (left piece before right, upper before
lower), give the order of a page whose column structure changes down the page: a full-width
title, then two or three columns, then a full-width figure, then columns again.

Pure over boxes; work is bounded (a fixed depth, a sort per region and level).
"""

from __future__ import annotations

from bisect import bisect_left

MAX_DEPTH = 12
GUTTER = 0.8  # a column gutter is at least this many body sizes of whitespace: wider than a word space
LEADING = 0.9  # a horizontal channel at least this many body sizes high
MIN_COLUMN_CHARS = 40  # a column holds some text, not a lone label
PROSE_WIDTH = 0.15  # of the page width: lines narrower than this are labels or table cells
PROSE_SHARE = 0.5  # of a column's characters, set in lines of prose width

# Not typing's TYPE_CHECKING: typing costs every cold command its import (docs/speed.md).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from .boxes import Box

    B = TypeVar("B", bound=Box)
    #: Items read together, and the column (the piece of the last vertical cut, 0 the whole
    #: page: no vertical cut lies above them) they sit in.
    Leaf = tuple[list[B], int]


def xy_cut(items: list[B], body: float, width: float) -> tuple[list[Leaf[B]], list[list[B]]]:
    """Leaves in reading order, and the columns (lists of items) they refer to."""
    columns: list[list[B]] = [items]
    leaves: list[Leaf[B]] = []
    # An explicit stack: hostile evidence must not recurse deep; pushed in reverse order.
    stack: list[tuple[list[B], int, int]] = [(items, 0, 0)]
    while stack:
        region, column, depth = stack.pop()
        parts = None if depth >= MAX_DEPTH or len(region) < 2 else _vertical(region, body, width)
        if parts:
            for part in reversed(parts):
                columns.append(part)
                stack.append((part, len(columns) - 1, depth + 1))
            continue
        bands = None if depth >= MAX_DEPTH or len(region) < 2 else _horizontal(region, body)
        if bands and len(region) <= MERGE_ITEMS and len(bands) <= MERGE_BANDS:
            bands = _sections(bands, body, width)
        if bands:
            stack.extend((band, column, depth + 1) for band in reversed(bands))
            continue
        leaves.append((region, column))
    return leaves, columns


def _sections(bands: list[list[B]], body: float, width: float) -> list[list[B]]:
    """Bands on end that a channel runs down together, as columns of text, are one section: the
    rows of whitespace that two columns happen to share (a code box beside an equation, a
    paragraph's end beside another's) do not cut them into bands read across the gutter. A
    section runs from a band with text both sides of the channel to the last such band: a line
    on one side alone under two columns (a heading over a page of one column) stays a band."""
    out: list[list[B]] = []
    start, budget = 0, SECTION_TRIES * len(bands)  # cuts tried, at most: a hostile page costs no more
    while start < len(bands):
        joined, end, parts = list(bands[start]), start + 1, None
        while end < len(bands) and budget > 0 and (cut := _vertical(joined + bands[end], body, width)) is not None:
            joined += bands[end]
            parts, end, budget = cut, end + 1, budget - 1
        budget -= 1
        if parts is None:
            out.append(bands[start])
            start += 1
            continue
        side = {id(item): k for k, part in enumerate(parts) for item in part}
        both = [k for k in range(start, end) if len({side[id(item)] for item in bands[k]}) >= 2]
        section = [item for band in bands[both[0]:both[-1] + 1] for item in band] if both else []
        if len(both) < 2 or _vertical(section, body, width) is None:
            out += bands[start:end]  # no section starts inside: its bands read as they are cut
            start = end
            continue
        out += bands[start:both[0]]
        out.append(section)
        start = both[-1] + 1
    return out


SECTION_TRIES = 3  # cuts a band may be joined in, on average


MERGE_ITEMS = 2000  # items of a region past which its bands are read as they are cut (a hostile page)
MERGE_BANDS = 200  # ... and bands


def _cuts(spans: list[tuple[float, float]], gap: float) -> list[float]:
    """Where the spans (sorted by start) leave a channel of at least ``gap`` uncovered."""
    cuts: list[float] = []
    reach = spans[0][1]
    for start, end in spans[1:]:
        if start - reach >= gap:
            cuts.append((reach + start) / 2)
        if end > reach:  # reach = max(reach, end)
            reach = end
    return cuts


def no_channel(items: list[B], gap: float) -> bool:
    """Certainly no vertical channel ``gap`` wide runs between any of ``items``: no item
    starts ``gap`` or more to the right of where another ends. (A channel between two parts
    is such a pair; a number that is no number leaves the question open.)"""
    return bool(items) and max(i.x0 for i in items) - min(i.x1 for i in items) < gap


def columns_of(region: list[B], body: float, width: float) -> bool:
    """Does the region part down a channel of whitespace into columns of text?"""
    return len(region) > 1 and _vertical(region, body, width) is not None


def _vertical(region: list[B], body: float, width: float) -> list[list[B]] | None:
    if no_channel(region, GUTTER * body):
        return None  # most regions: the lines of one column overlap
    ordered = sorted(region, key=lambda i: i.x0)
    cuts = _cuts([(i.x0, i.x1) for i in ordered], GUTTER * body)
    if not cuts:
        return None
    parts: list[list[B]] = [[] for _ in range(len(cuts) + 1)]
    for item in ordered:
        parts[bisect_left(cuts, item.x0)].append(item)  # the cuts are ascending: the count of those left of it
    # Pieces that are not columns of text (labels of a chart, cells of a table) are no cut; a
    # table found whole, with its caption, beside columns of text is a column's (a short page's
    # columns, one a table).
    texts = [_reads_as_column(part, width) or _own_flow(part, parts) for part in parts]
    if all(text or _captioned_table(part) for text, part in zip(texts, parts, strict=True)) and any(texts):
        return parts
    return None


TABLE_LINES = 2  # lines beside a table in a piece of its own: its caption, a note


def _captioned_table(part: list[B]) -> bool:
    """A table and at most its caption and a note, the whole piece."""
    return any(i.kind == "table" for i in part) and sum(i.kind == "line" for i in part) <= TABLE_LINES


OWN_LINES = 3  # a narrow column (a sidebar) has a few lines at least
SHARED_BASELINES = 0.2  # at most this share of its lines sit on another piece's baselines
WORDY = 0.5  # of its characters, letters: words, not a chart's figures


def _own_flow(part: list[B], parts: list[list[B]]) -> bool:
    """A narrow column read on its own (a sidebar, a margin note): lines of words set on
    baselines of their own. The cells of a table row, or a label and its value, share their
    baseline with the piece beside them; a sidebar set in its own leading does not."""
    lines = [i for i in part if i.kind == "line"]
    chars = sum(len(i.text) for i in lines)
    letters = sum(c.isalpha() for i in lines for c in i.text)
    if len(lines) < OWN_LINES or chars < MIN_COLUMN_CHARS or letters < WORDY * chars:
        return False
    others = sorted(round(i.y0) for other in parts if other is not part for i in other if i.kind == "line")
    shared = sum(_near(others, i.y0) for i in lines)
    return shared <= SHARED_BASELINES * len(lines)


def _near(values: list[int], y: float) -> bool:
    """Is some value (sorted) within a point of ``y``?"""
    index = bisect_left(values, y - 1)
    return index < len(values) and values[index] <= y + 1


def _reads_as_column(part: list[B], width: float) -> bool:
    lines = [i for i in part if i.kind == "line"]
    chars = sum(len(i.text) for i in lines)
    prose = sum(len(i.text) for i in lines if i.x1 - i.x0 >= PROSE_WIDTH * width)
    return chars >= MIN_COLUMN_CHARS and prose >= PROSE_SHARE * chars


def _horizontal(region: list[B], body: float) -> list[list[B]] | None:
    ordered = sorted(region, key=lambda i: -i.y1)
    cuts = _cuts([(-i.y1, -i.y0) for i in ordered], LEADING * body)
    if not cuts:
        return None
    bands: list[list[B]] = [[] for _ in range(len(cuts) + 1)]
    for item in ordered:
        bands[bisect_left(cuts, -item.y1)].append(item)
    return [band for band in bands if band]
