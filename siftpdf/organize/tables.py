"""Tables (``table`` blocks): cells, rows and spans from a page's ruling and its text alignment.

Pure over the evidence's ``rules`` and the page's segments (``layout.Item``), like the rest of
organization. Three kinds of table are found, in this order:

* ruled grids: horizontal and vertical rules that cross; cells are the grid's boxes, a box
  with no rule between it and its neighbour is one cell spanning both (colspan, rowspan);
* rule-stacked tables: horizontal rules only (booktabs: a rule above, one under the header,
  one below), the columns taken from the text's alignment between the rules;
* unruled tables: consecutive lines of several narrow segments, columns from alignment.

The reference design is pdfplumber's table finder (snap and join edges, then cells); here the
grid is read off the rules' positions, which gives the spans directly. Every step is bounded:
rules, intersections and cells per page are capped, beyond which the page has no table.
"""

from __future__ import annotations

import math
import unicodedata
from bisect import bisect_left, bisect_right
from itertools import combinations

from ..document import table_text
from ..lazyre import lazy
from .layout import (
    CAPTION,
    SPREAD,
    Item,
    find_gutter,
    first_word_width,
    is_caption,
    is_leader,
    is_list_item,
    join_lines,
    kept_gutter,
    median,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

SNAP = 3.0  # points: rules this close on their cross axis are one line (a double border)
JOIN = 3.0  # points: collinear rules this close end to end are one rule
TOUCH = 0.1  # points: collinear rules this close end to end touch (one rule drawn in pieces)
MAX_RULES = 3000  # rules read from one page's evidence
MAX_CROSSINGS = 200_000  # horizontal x vertical pairs tested for crossings on one page
MAX_GRID = 40_000  # elementary cells of one grid
MAX_CELLS = 20_000  # cells of one table written out
MAX_TABLE_LINES = 2000  # lines of one region aligned into columns
MIN_GAP_EM = 0.9  # a column gap is at least this many ems wide (word spaces are about 0.25)
MIN_FILLED = 0.5  # share of a table's cells that hold text
CHART_FILLED = 0.5  # a grid with fewer boxes holding text, and only numbers, is a chart's
UNDERLINE_EM = 0.25  # ems under a baseline a rule may run and still be the text's underline
SHADED_EM = 0.5  # ems between a shading's edge under a line of text and the border under it
LONG_RULE = 0.75  # share of a table's extent a rule meeting its frame at one end only must run
STACK_SLACK = 0.06  # share of a rule's length its ends may differ from its stack's


class _Edge:
    """A rule along one axis: ``pos`` across it, from ``lo`` to ``hi`` along it."""

    __slots__ = ("pos", "lo", "hi")

    def __init__(self, pos: float, lo: float, hi: float) -> None:
        self.pos, self.lo, self.hi = pos, lo, hi


Rules = tuple[list[_Edge], list[_Edge], list[_Edge]]  # a page's horizontal rules, vertical ones, and those touching


class _Region:
    """A table's box and the grid lines known from its rules (sorted, top first for ys)."""

    __slots__ = ("x0", "y0", "x1", "y1", "xs", "ys", "horizontal", "vertical", "items", "spanners", "stripe", "open")

    def __init__(self, x0: float, y0: float, x1: float, y1: float, xs: list[float], ys: list[float],
                 horizontal: list[_Edge], vertical: list[_Edge], items: list[Item] | None = None) -> None:
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.xs = xs  # column boundaries from vertical rules (empty: from the text)
        self.ys = ys  # row boundaries from horizontal rules, top down
        self.horizontal, self.vertical = horizontal, vertical
        self.items: list[Item] = [] if items is None else items
        self.spanners: list[_Edge] = []  # rules inside it short of an edge: each under a head over its columns
        self.stripe = 0.0  # joined from shaded rows, a plain row between each: the plain rows' height
        self.open = ""  # a frame a page's end broke (``_open_box``): open "below" or "above"

    @classmethod
    def around(cls, items: list[Item]) -> _Region:
        """The box of ``items``, without rules: a table whose columns come from the text."""
        return cls(min(i.x0 for i in items), min(i.y0 for i in items), max(i.x1 for i in items),
                   max(i.y1 for i in items), [], [], [], [], items)

    @property
    def inner_xs(self) -> list[float]:
        """Its column rules inside its frame: what parts its columns (empty: only the text does)."""
        return [x for x in self.xs if self.x0 + SNAP < x < self.x1 - SNAP]

    def holds(self, item: Item) -> bool:
        cx, cy = (item.x0 + item.x1) / 2, (item.y0 + item.y1) / 2
        return self.x0 - 1 <= cx <= self.x1 + 1 and self.y0 - 1 <= cy <= self.y1 + 1


_NUMBER = lazy(r"[\s\d.,:%+\-\u2212\u2013()$€£¥]*")
_STOP = lazy(r"[.!?:;][\"')\]\u201d\u2019]*$")  # a sentence or a clause ends here
PROSE_WORDS = 4  # mean words of a cell from which columns of cells that run on are prose


# --- rules ------------------------------------------------------------------------------------

def read_rules(evidence: dict[str, Any], width: float, height: float) -> Rules:
    """Horizontal and vertical rules of the evidence, checked (a saved stream may hold
    anything), clipped to the page, snapped and joined; and the horizontal ones joined only
    where they touch (two rules under two groups of column heads, a few points apart)."""
    raw = evidence.get("rules")
    horizontal: list[_Edge] = []
    vertical: list[_Edge] = []
    if not isinstance(raw, list):
        return horizontal, vertical, []
    right, top = width + 1, height + 1
    for rule in raw[:MAX_RULES]:
        numbers = _numbers(rule)
        if numbers is None:
            continue
        x0, y0, x1, y1 = numbers
        # Ordered and clipped to the page, as min and max would (a page draws many rules).
        x0, x1 = (x1, x0) if x1 < x0 else (x0, x1) if x1 > x0 else (x0, x0)
        y0, y1 = (y1, y0) if y1 < y0 else (y0, y1) if y1 > y0 else (y0, y0)
        x0, y0 = x0 if x0 > -1.0 else -1.0, y0 if y0 > -1.0 else -1.0
        x1, y1 = x1 if x1 < right else right, y1 if y1 < top else top
        if y1 - y0 <= SNAP and x1 - x0 >= 2 * JOIN:
            horizontal.append(_Edge((y0 + y1) / 2, x0, x1))
        elif x1 - x0 <= SNAP and y1 - y0 >= 2 * JOIN:
            vertical.append(_Edge((x0 + x1) / 2, y0, y1))
    touching = _merge([_Edge(e.pos, e.lo, e.hi) for e in horizontal], TOUCH)
    return _merge(horizontal), _merge(vertical), touching


def _numbers(rule: Any) -> tuple[float, float, float, float] | None:
    if not isinstance(rule, (list, tuple)) or len(rule) != 4:
        return None
    try:
        x0, y0, x1, y1 = float(rule[0]), float(rule[1]), float(rule[2]), float(rule[3])
    except (TypeError, ValueError, OverflowError):
        return None
    # Finite and less than 1e7 across: a NaN or an infinity fails the comparisons.
    if not (-1e7 < x0 < 1e7 and -1e7 < y0 < 1e7 and -1e7 < x1 < 1e7 and -1e7 < y1 < 1e7):
        return None
    return x0, y0, x1, y1


def _merge(edges: list[_Edge], join: float = JOIN) -> list[_Edge]:
    """Snap rules whose positions lie within ``SNAP`` to their mean, then join the collinear
    ones that overlap or stand ``join`` apart at most."""
    edges.sort(key=lambda e: e.pos)
    snapped: list[list[_Edge]] = []
    for edge in edges:
        if snapped and edge.pos - snapped[-1][0].pos <= SNAP:
            snapped[-1].append(edge)
        else:
            snapped.append([edge])
    out: list[_Edge] = []
    for group in snapped:
        pos = sum((e.pos for e in group), 0.0) / len(group)
        group.sort(key=lambda e: e.lo)
        current = _Edge(pos, group[0].lo, group[0].hi)
        for edge in group[1:]:
            if edge.lo <= current.hi + join:
                current.hi = max(current.hi, edge.hi)
            else:
                out.append(current)
                current = _Edge(pos, edge.lo, edge.hi)
        out.append(current)
    return out


# --- regions ----------------------------------------------------------------------------------

def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def grid_regions(horizontal: list[_Edge], vertical: list[_Edge]) -> list[_Region]:
    """Boxes of rules that cross each other: each connected set of at least two horizontal
    and two vertical rules is a grid, and a frame a page's end left open (``_open_box``)."""
    if not horizontal or not vertical or len(horizontal) * len(vertical) > MAX_CROSSINGS:
        return []
    parent = list(range(len(horizontal) + len(vertical)))
    tol = JOIN
    by_x = sorted(range(len(vertical)), key=lambda k: vertical[k].pos)
    xs = [vertical[k].pos for k in by_x]
    for h, edge in enumerate(horizontal):
        for k in by_x[bisect_left(xs, edge.lo - tol):bisect_right(xs, edge.hi + tol)]:
            v = vertical[k]
            if v.lo - tol <= edge.pos <= v.hi + tol:
                a, b = _find(parent, h), _find(parent, len(horizontal) + k)
                if a != b:
                    parent[a] = b
    groups: dict[int, tuple[list[_Edge], list[_Edge]]] = {}
    for h, edge in enumerate(horizontal):
        groups.setdefault(_find(parent, h), ([], []))[0].append(edge)
    for k, edge in enumerate(vertical):
        groups.setdefault(_find(parent, len(horizontal) + k), ([], []))[1].append(edge)
    regions = []
    for hs, vs in groups.values():
        opening = _open_box(hs, vs) if len(hs) == 1 and len(vs) >= 2 else ""
        if len(vs) < 2 or len(hs) < 2 and not opening:
            continue
        x0, x1 = min(min(e.lo for e in hs), min(v.pos for v in vs)), max(max(e.hi for e in hs), max(v.pos for v in vs))
        y0 = min(min(h.pos for h in hs), min(v.lo for v in vs))
        y1 = max(max(h.pos for h in hs), max(v.hi for v in vs))
        hs, vs = _structural(hs, vs, (x0, y0, x1, y1))
        region = _Region(x0, y0, x1, y1, _positions([v.pos for v in vs]), _positions([h.pos for h in hs])[::-1], hs, vs)
        region.open = opening
        regions.append(region)
    return regions


OPEN_BOX = 24.0  # points a broken frame's sides run at least: two rows of text (a formula's bars are shorter)


def _open_box(hs: list[_Edge], vs: list[_Edge]) -> str:
    """Where a frame broken by a page's end is open ("below", "above"; "" for none): one rule
    across, at one end of two sides or more that run as far as each other (a table's frame drawn
    on over a page break, open where it breaks)."""
    lo, hi = min(v.lo for v in vs), max(v.hi for v in vs)
    rule = hs[0]
    if not (all(abs(v.lo - lo) <= JOIN and abs(v.hi - hi) <= JOIN for v in vs) and hi - lo >= OPEN_BOX and
            rule.lo <= min(v.pos for v in vs) + JOIN and rule.hi >= max(v.pos for v in vs) - JOIN):
        return ""
    return "below" if abs(rule.pos - hi) <= JOIN else "above" if abs(rule.pos - lo) <= JOIN else ""


def _broken_by_page(region: _Region, rows: list[list[Item]]) -> bool:
    """Is a frame open below (above) where the page's text ends (starts): no line of the page's
    text (its running lines set aside) further down (up)? Else its sides and rule are some
    other drawing's (a head's band, a bracket)."""
    if region.open == "below":
        return not any(item.y1 < region.y0 - SNAP for row in rows for item in row)
    return not any(item.y0 > region.y1 + SNAP for row in rows for item in row)


def _column_feet(horizontal: list[_Edge], vertical: list[_Edge], rows: list[list[Item]]) -> list[tuple[float, float]]:
    """Where frames open below end a column (``lo``, ``hi`` across): a rule with two sides down
    from its ends and no line of the column's text under them (a word processor's table the
    column's end broke, its first rows there, however few, the rest at the head of the next
    column). Read once a page, when a frame open above is met."""
    feet = []
    for rule in horizontal:
        sides = [v for v in vertical if abs(v.hi - rule.pos) <= JOIN and
                 (abs(v.pos - rule.lo) <= JOIN or abs(v.pos - rule.hi) <= JOIN)]
        if len(sides) >= 2 and not any(item.y1 < min(v.lo for v in sides) - SNAP and item.x1 > rule.lo and
                                       item.x0 < rule.hi for row in rows for item in row):
            feet.append((rule.lo, rule.hi))
    return feet


def _broken_by_column(region: _Region, feet: list[tuple[float, float]]) -> bool:
    """Is a frame open above drawn on from the foot of the column to its left: a frame as wide
    ends that column (``_column_feet``)?"""
    return region.open == "above" and \
        any(hi <= region.x0 and abs(hi - lo - (region.x1 - region.x0)) <= 2 * SNAP for lo, hi in feet)


GRID_GAP = 12.0  # points: grids stacked closer than this, sharing a column rule, are one table
MAX_GRIDS = 200  # grids of one page tried for joining


def joined_grids(regions: list[_Region]) -> list[_Region]:
    """Grids stacked one above the other, a few points apart, that share a column rule: one
    table drawn as bands of boxes whose borders do not meet (a gap between each band's
    boxes, a band whose label cell is shaded instead of ruled)."""
    if len(regions) < 2 or len(regions) > MAX_GRIDS:
        return regions
    regions = sorted(regions, key=lambda r: -r.y1)
    out = [regions[0]]
    for region in regions[1:]:
        for other in out:
            if _stacked(other, region):
                _absorb(other, region)
                break
        else:
            out.append(region)
    return out


def _stacked(upper: _Region, lower: _Region) -> bool:
    gap = min(abs(upper.y0 - lower.y1), abs(lower.y0 - upper.y1))
    overlap = min(upper.x1, lower.x1) - max(upper.x0, lower.x0)
    if gap > GRID_GAP and _striped(upper, lower, gap):
        return True
    if gap > GRID_GAP or overlap < 0.5 * min(upper.x1 - upper.x0, lower.x1 - lower.x0):
        return False
    if not upper.inner_xs and not lower.inner_xs and \
            (abs(upper.x0 - lower.x0) > SNAP or abs(upper.x1 - lower.x1) > SNAP):
        return False  # boxes of one cell as wide as their own line each: each line shaded, no column
    inner = lower.inner_xs or lower.xs
    return any(abs(x - y) <= SNAP for x in inner for y in upper.xs)


STRIPE_GAP = 2.5  # of a stripe's height: the row left plain between two shaded ones is at most this high (three lines)


def _striped(upper: _Region, lower: _Region, gap: float) -> bool:
    """Are two grids a striped table's shaded rows: the lower one band high, both parted into the
    same columns by their cells' edges, a plain row's height apart (every other row shaded,
    cell by cell)?"""
    if len(lower.ys) != 2 or not lower.inner_xs or len(upper.xs) != len(lower.xs):
        return False
    same_columns = all(abs(a - b) <= SNAP for a, b in zip(upper.xs, lower.xs, strict=True))
    return same_columns and gap <= STRIPE_GAP * (lower.y1 - lower.y0)


def _absorb(region: _Region, other: _Region) -> None:
    """Join ``other`` (stacked under or over it) to ``region``; a gap wider than ``GRID_GAP``
    between them is a striped table's plain row (``_striped``): its height is kept."""
    gap = max(region.y0 - other.y1, other.y0 - region.y1)
    if gap > GRID_GAP:
        region.stripe = max(region.stripe, gap)
    region.x0, region.x1 = min(region.x0, other.x0), max(region.x1, other.x1)
    region.y0, region.y1 = min(region.y0, other.y0), max(region.y1, other.y1)
    region.xs = _positions(region.xs + other.xs)
    region.ys = _positions(region.ys + other.ys)[::-1]
    region.horizontal += other.horizontal
    region.vertical += other.vertical
    region.stripe = max(region.stripe, other.stripe)


def _structural(hs: list[_Edge], vs: list[_Edge], box: tuple[float, float, float, float]) -> tuple[list[_Edge],
                                                                                                  list[_Edge]]:
    """The rules that part cells: those whose both ends meet the table's border or another
    such rule. A box drawn around a label inside a cell (or a shaded band's outline) meets
    only itself, and would otherwise cut its cell into rows and columns of slivers."""
    x0, y0, x1, y1 = box
    keep_h = [abs(h.pos - y0) <= SNAP or abs(h.pos - y1) <= SNAP for h in hs]
    keep_v = [abs(v.pos - x0) <= SNAP or abs(v.pos - x1) <= SNAP for v in vs]
    inset = _inset(vs)

    def meets(end: float, pos: float, others: list[_Edge], kept: list[bool], lo: float, hi: float) -> bool:
        if abs(end - lo) <= SNAP or abs(end - hi) <= SNAP:
            return True
        return any(k and abs(o.pos - end) <= SNAP and o.lo - SNAP <= pos <= o.hi + SNAP
                   for o, k in zip(others, kept, strict=True))

    def parts(edge: _Edge, others: list[_Edge], kept: list[bool], lo: float, hi: float) -> bool:
        # Both ends meet the frame; or one does and the rule runs most of the way across (a
        # column rule stopping short of an open bottom edge).
        at_lo, at_hi = meets(edge.lo, edge.pos, others, kept, lo, hi), meets(edge.hi, edge.pos, others, kept, lo, hi)
        return (at_lo and at_hi) or ((at_lo or at_hi) and edge.hi - edge.lo >= LONG_RULE * (hi - lo))

    for _ in range(8):  # each pass adds the rules that meet those already kept: a few suffice
        changed = False
        for i, h in enumerate(hs):
            if not keep_h[i] and parts(h, vs, keep_v, x0, x1):
                keep_h[i] = changed = True
        for i, v in enumerate(vs):
            if not keep_v[i] and not inset[i] and parts(v, hs, keep_h, y0, y1):
                keep_v[i] = changed = True
        if not changed:
            break
    return [h for h, k in zip(hs, keep_h, strict=True) if k], [v for v, k in zip(vs, keep_v, strict=True) if k]


INSET = 8.0  # points: a rule this close beside a longer one, along all of it, is a box's side set inside a cell


def _inset(vs: list[_Edge]) -> list[bool]:
    """For each vertical rule, whether it runs beside another one a few points off along all
    of its length: the side of a box set inside a cell (a shading drawn line by line, a frame
    around the cell's text), which parts no columns, nor do the rules that end on it."""
    order = sorted(range(len(vs)), key=lambda k: vs[k].pos)
    out = [False] * len(vs)
    for a, b in zip(order, order[1:], strict=False):
        # Neighbours in position only: a side has its cell's rule next to it.
        upper, lower = vs[a], vs[b]
        if SNAP < lower.pos - upper.pos <= INSET:
            for this, other, k in ((upper, lower, a), (lower, upper, b)):
                along = other.lo <= this.lo + SNAP and other.hi >= this.hi - SNAP
                if along and other.hi - other.lo > this.hi - this.lo + SNAP:
                    out[k] = True
    return out


def _positions(values: list[float]) -> list[float]:
    out: list[float] = []
    for value in sorted(values):
        if not out or value - out[-1] > SNAP:
            out.append(value)
    return out


def _head_rows(regions: list[_Region]) -> list[_Region]:
    """The grids one or two bands high parted into three columns or more: rows of boxes, as a
    table's head rows shaded box by box are drawn (a group head's row over its columns')."""
    return [r for r in regions if len(r.ys) in (2, 3) and len(r.inner_xs) >= 2]


def _headed_stacks(grids: list[_Region], stacks: list[_Region]) -> list[_Region]:
    """The regions, each stack whose first rule is the foot of a row of boxes (``_head_rows``)
    grown up over it: the boxes are the table's head, their edges its columns, the stack's rules
    its body's rows."""
    heads = _head_rows(grids)
    for stack in stacks:
        for head in heads:
            if abs(stack.y1 - head.y0) <= SNAP and abs(stack.x0 - head.x0) <= SNAP and abs(stack.x1 - head.x1) <= SNAP:
                stack.y1, stack.ys, stack.xs = head.y1, [*head.ys[:-1], *stack.ys], list(head.xs)
                grids = [g for g in grids if g is not head]
                break
    return grids + stacks


def stacked_regions(horizontal: list[_Edge], taken: list[_Region], rows: list[list[Item]],
                    boxed_heads: list[_Region] | None = None) -> list[_Region]:
    """Horizontal rules of about the same extent stacked one above the other with text lines
    between them (a booktabs table, a table ruled between rows only): one region per stack.
    The foot of a row of boxes in ``boxed_heads`` may start a stack, never go on one (with two rules
    of its own below: a table's head shaded box by box over rules between its rows; a row shaded
    so inside a table is a highlight)."""
    feet = {id(e) for e in horizontal for r in boxed_heads or [] if abs(e.pos - r.y0) <= SNAP and _inside(e, r)}
    free = [e for e in horizontal if id(e) in feet or not any(_inside(e, r) for r in taken)]
    if not free:
        return []
    free.sort(key=lambda e: -e.pos)
    placed = sorted((row[0].y, index) for index, row in enumerate(rows) if row)
    baselines = [y for y, _ in placed]
    regions = []
    used = [False] * len(free)
    for i, edge in enumerate(free):
        if used[i]:
            continue
        stack = [edge]
        tail: list[list[Item]] | None = None  # the rows over a caption that ends the stack's table
        slack = STACK_SLACK * (edge.hi - edge.lo) + JOIN
        for j in range(i + 1, len(free)):
            other = free[j]
            if not used[j] and id(other) not in feet and abs(other.lo - edge.lo) <= slack and \
                    abs(other.hi - edge.hi) <= slack:
                between = _under(edge, [rows[k] for _, k in placed[bisect_left(baselines, other.pos):
                                                                      bisect_right(baselines, stack[-1].pos)]])
                if _running_text(between, edge) or len(between) > STACK_LINES and not _cells(between):
                    break  # a page, or a few lines, of prose between two rules is not a table
                if (tail := _caption_last(between)) is not None:
                    break  # a float's rule under the caption set below its table: the table ends above
                stack.append(other)
                used[j] = True
        if sum(id(e) not in feet for e in stack) >= 2:
            region = _Region(min(e.lo for e in stack), stack[-1].pos, max(e.hi for e in stack), stack[0].pos,
                             [], [e.pos for e in stack], stack, [])
            heads = _heads_over(stack, [rows[k] for _, k in placed])
            if heads:
                region.y1 = max(i.y1 for row in heads for i in row) + 1.0
            body = tail or _body_under(stack, [rows[k] for _, k in placed], horizontal)
            if body:
                region.y0 = min(i.y0 for row in body for i in row) - 1.0
            regions.append(region)
    return regions


HEAD_ROWS = 3  # lines of column heads set over a stack's first rule, at most


def _heads_over(stack: list[_Edge], rows: list[list[Item]]) -> list[list[Item]]:
    """The column heads of a stack of rules set over its first rule, when that rule is the one
    under the heads (a table without a top rule), not a top rule over heads of its own: the
    lines under it, down to the next rule, are rows of figures, and the lines just over it
    hold short heads under the rule's reach, two at least on the line next to the rule (a
    caption, a title or a paragraph's line is no heads). The head lines, nearest first; none
    when the stack's first band is not figures."""
    top, below = stack[0], stack[1]
    band = _under(top, [row for row in rows if below.pos < row[0].y < top.pos])
    figures = [row for row in band if _figure_row(row)]
    if len(figures) < 2 or len(figures) < CELL_ROWS * len(band):
        return []
    heads: list[list[Item]] = []
    edge = top.pos
    for row in sorted(_under(top, [row for row in rows if row[0].y > top.pos]), key=lambda r: r[0].y):
        size = max(i.size for i in row)
        pieces = [p for i in row for p in i.parts]
        if min(i.y0 for i in row) - edge > 1.5 * size or len(heads) == HEAD_ROWS or _prose(row) and len(pieces) < 2:
            break
        if any(i.kind != "line" for i in row) or any(len(p[2].split()) > HEAD_WORDS or _figure(p[2]) for p in pieces):
            break
        if not heads and len(pieces) < 2:
            break
        heads.append(row)
        edge = max(i.y1 for i in row)
    return heads


def _caption_last(rows: list[list[Item]]) -> list[list[Item]] | None:
    """The lines over a caption that the lines between two rules (bottom first) end in, when
    they are a table's rows: lines of prose from the bottom up to one that opens as a caption
    does ("Table 4:"), and above it a line that is no prose, named in words at its left (a
    chart's axis is numbers alone). None otherwise."""
    for k, row in enumerate(rows):
        if not _prose(row):
            return None
        if is_caption(row[0].text):
            named = any(not _prose(above) and _named(above) for above in rows[k + 1:])
            return rows[k + 1:] if named else None
    return None


def _body_under(stack: list[_Edge], rows: list[list[Item]], horizontal: list[_Edge]) -> list[list[Item]]:
    """The rows of a table set under its stack's last rule, when the rules bound its column heads
    alone (a head ruled above and below over a body without a bottom rule, or with its rule
    under the caption below): the band between the last two rules holds ``HEAD_ROWS`` lines at
    most, one of them parted in two pieces or more, and under the last rule come lines of
    figures named in words at their left (``_figure_row``), two at least, each within one and a
    half lines of the one above.
    None when the band holds a table's body already (more lines), or what comes under the rule
    is not figures (a note, a paragraph). The rows end at the next rule under the last one
    (a table of heads over heads, ruled apart, is the stack of rules round it)."""
    last, above = stack[-1], stack[-2]
    band = _under(last, [row for row in rows if last.pos < row[0].y < above.pos])
    if not band or len(band) > HEAD_ROWS or all(len([p for i in row for p in i.parts]) < 2 for row in band):
        return []
    floor = max((e.pos for e in horizontal if e.pos < last.pos - SNAP and e.lo < last.hi and e.hi > last.lo),
                default=-math.inf)
    body: list[list[Item]] = []
    edge = last.pos
    for row in sorted(_under(last, [row for row in rows if floor < row[0].y < last.pos]), key=lambda r: -r[0].y):
        size = max(i.size for i in row)
        if edge - max(i.y1 for i in row) > 1.5 * size or any(i.kind != "line" for i in row) or \
                not _figure_row(row) or not _named(row):
            break
        body.append(row)
        edge = min(i.y0 for i in row)
    return body if len(body) >= 2 else []


def _named(row: list[Item]) -> bool:
    """Whether a line opens with words, not a bare number: a table's row is named at its left, a
    chart's axis is numbers alone."""
    return _NUMBER.fullmatch(min(p for i in row for p in i.parts)[2]) is None


def _figure_row(row: list[Item]) -> bool:
    """A line of a statistics table: a label, then cells that end in a figure and are
    figures for the most part (a column of words among them: a language, a unit)."""
    pieces = sorted(p for i in row for p in i.parts)
    cells = [_figure(p[2]) for p in pieces[1:]]
    return bool(cells) and cells[-1] and sum(cells) >= 0.5 * len(cells)


def _under(rule: _Edge, rows: list[list[Item]]) -> list[list[Item]]:
    """The parts of the rows that stand under a rule (not the next column's lines beside it)."""
    kept = ([i for i in row if rule.lo - SNAP <= (i.x0 + i.x1) / 2 <= rule.hi + SNAP] for row in rows)
    return [row for row in kept if row]


def _cells(rows: list[list[Item]]) -> bool:
    """Whether the rows read as a table's (``CELL_ROWS`` of them parted in three pieces or more),
    not as a page's lines in two columns."""
    return len(rows) <= MAX_TABLE_LINES and \
        sum(sum(max(1, len(i.pieces)) for i in row) >= 3 for row in rows) >= CELL_ROWS * len(rows)


def _running_text(rows: list[list[Item]], rule: _Edge) -> bool:
    """Whether the lines between two rules of a stack are running text, not a table's rows:
    all of them prose and one as wide as a paragraph's line (a caption and the paragraph
    above a table), or ``RUNNING_LINES`` such lines among others (a glossary's entries)."""
    prose = [_prose(row) for row in rows]
    em = max((i.size for row in rows for i in row), default=0.0)
    wide = [p and row[0].x0 <= rule.lo + 2 * em and row[0].x1 - row[0].x0 >= PROSE_WIDTH * (rule.hi - rule.lo)
            for p, row in zip(prose, rows, strict=True)]
    return bool(rows) and (all(prose) and any(wide) or sum(wide) >= RUNNING_LINES) or _paragraph(rows, prose, rule)


def _paragraph(rows: list[list[Item]], prose: list[bool], rule: _Edge) -> bool:
    """Whether the lines between two rules hold ``PARAGRAPH_ROWS`` lines of running text on
    end: lines of prose alone on their baselines, as wide as a paragraph's line
    (``PROSE_WIDTH`` of the rule), justified (each ending within an em of the one before) and
    each starting within an indent of the one before (a paragraph's last line, shorter, goes by
    without a count; pieces in the margin left of them, on baselines of their own, are passed
    over). A column of text beside a margin that the rules span (a journal's running head and
    side captions set in the margin) is set so; a table's cells are not, many justified lines
    on end as wide as most of the table with nothing on their baselines (a term beside a
    description's first line ends the count, and so does a cell's ragged edge)."""
    span, count, edge, right = rule.hi - rule.lo, 0, None, 0.0
    for row, is_prose in zip(rows, prose, strict=True):  # prose: _prose of each row
        if edge is not None and all(i.x1 <= edge for i in row):
            continue  # in the margin beside the text
        item = row[0]
        if not is_prose or edge is not None and abs(item.x0 - edge) > INDENT_EMS * item.size:
            count, edge = 0, None
            continue
        if item.x1 - item.x0 >= PROSE_WIDTH * span:
            if count and abs(item.x1 - right) > item.size:
                count, edge = 0, None  # a ragged edge: a cell's lines, not a justified column's
            count += 1
            if count >= PARAGRAPH_ROWS:
                return True
            edge, right = item.x0 if edge is None else min(edge, item.x0), item.x1
    return False


def _prose(row: list[Item]) -> bool:
    """A line of running text (a caption, a note, a paragraph's line), never a table's row of
    cells: one segment whose runs stand no column gap apart, or only its first, when that is
    a caption's or a note's label ("Source:", "Table 4.—") before text that holds most of the
    line. A short cell apart before or after the rest of the line makes a row ("cs.LG   On
    Unifying Deep Models", "Further studies (in higher education)   15")."""
    if len(row) != 1 or row[0].kind != "line":
        return False
    item = row[0]
    pieces = sorted(item.pieces)
    wide = [k for k, (a, b) in enumerate(zip(pieces, pieces[1:], strict=False))
            if b[0] - a[1] >= MIN_GAP_EM * item.size]
    if not wide:
        return True
    if wide != [0] or item.x1 - pieces[1][0] < PROSE_SHARE * (item.x1 - item.x0):
        return False
    # A label set in small capitals reads "tABLE 2." in the text layer.
    return pieces[0][2].rstrip().endswith(LABEL_ENDS) or CAPTION.match(item.text[:16].capitalize()) is not None


LABEL_ENDS = (":", ".", "\u2014", "\u2013", ")")  # how a caption's or a note's label ends ("Source:", "Table 4.—")
PROSE_SHARE = 0.6  # of a caption's line the text after its label holds
PROSE_WIDTH = 0.6  # of a rule's length a line of running text between two rules spans, from its
# left end (a row naming a group of the rows below it is short; a cell's lines start in its column)
RUNNING_LINES = 3  # such lines between two rules, among others, that are a page's text
PARAGRAPH_ROWS = 8  # such lines on end, wherever they start, that are a paragraph's
STACK_LINES = 40  # lines between two rules past which only rows of cells are a table's
CELL_ROWS = 0.6  # share of those lines parted in three pieces or more


def _inside(edge: _Edge, region: _Region) -> bool:
    return region.y0 - SNAP <= edge.pos <= region.y1 + SNAP and edge.lo >= region.x0 - SNAP and \
        edge.hi <= region.x1 + SNAP


# --- cells ------------------------------------------------------------------------------------

class _Piece:
    """A run of text in a table region: where it sits and what it says."""

    __slots__ = ("x0", "x1", "y", "top", "bottom", "size", "text", "bold", "item")

    def __init__(self, x0: float, x1: float, y: float, top: float, bottom: float, size: float, text: str,
                 bold: bool, item: Item | None = None) -> None:
        self.x0, self.x1 = x0, x1
        self.y = y  # baseline
        self.top, self.bottom, self.size, self.text, self.bold = top, bottom, size, text, bold
        self.item = item  # the line it is a piece of

    @property
    def middle(self) -> float:
        """Where it stands across: the column it sits in is the one holding its middle."""
        return (self.x0 + self.x1) / 2


def _pieces(items: list[Item]) -> list[_Piece]:
    out = []
    for item in items:
        for x0, x1, text in item.parts:
            try:
                a, b = float(x0), float(x1)
            except (TypeError, ValueError, OverflowError):
                a, b = item.x0, item.x1
            if not (math.isfinite(a) and math.isfinite(b)):
                a, b = item.x0, item.x1
            out.append(_Piece(min(a, b), max(a, b), item.y, item.y1, item.y0, item.size, str(text), item.bold, item))
    return out


def _cell_text(pieces: list[_Piece]) -> str:
    """The pieces of one cell as text: lines top down, runs left to right, lines joined as a
    paragraph's are."""
    pieces.sort(key=lambda p: (-p.y, p.x0))
    lines: list[str] = []
    last: _Piece | None = None
    for piece in pieces:
        if last is not None and abs(piece.y - last.y) <= 0.3 * max(piece.size, last.size, 1.0):
            gap = piece.x0 - last.x1
            lines[-1] += (piece.text if gap < 0.15 * piece.size else " " + piece.text)
        else:
            lines.append(piece.text)
        last = piece
    return join_lines(lines)


def _column_gaps(pieces: list[_Piece], lo: float, hi: float, bounded: bool = False) -> list[float]:
    """Column boundaries from alignment: x positions inside [lo, hi] that no line's text
    covers, each gap at least ``MIN_GAP_EM`` wide, or ``FIGURE_GAP_EM`` between numbers (the
    widest number of a column and the one that starts the next: columns of figures set
    close), or, where a frame bounds the rows (``bounded``), before numbers
    (a column of labels and the widest figure of the column beside it, each cell padded by
    less than half an em), or, framed or not, ``LABEL_GAP_EM`` (wider than any word space)
    before a column of figures set flush right (``_flush_right_from``) or flush left
    (``_flush_left_from``); the boundary is the gap's middle."""
    if not pieces:
        return []
    size = _size(pieces)
    ordered = sorted(pieces, key=lambda p: (p.x0, p.x1))
    wide, narrow, spaced = MIN_GAP_EM * size, FIGURE_GAP_EM * size, LABEL_GAP_EM * size
    ends = sorted((p.x1, p.x0) for p in pieces if _numeric(p.text))  # the figures' right edges
    boundaries: list[float] = []
    # How far right the text reaches so far, and whether a number ends there (a column's
    # widest figures end together; its head may end there too).
    reach, figures = ordered[0].x1, _numeric(ordered[0].text)
    for k, piece in enumerate(ordered[1:], 1):
        gap = piece.x0 - reach
        if gap >= wide or gap >= narrow and (figures or bounded) and _figures_start(ordered, k, TIE) or \
                gap >= spaced and (_flush_right_from(ordered, k, ends) or _flush_left_from(ordered, k)):
            boundaries.append((piece.x0 + reach) / 2)
        if piece.x1 > reach + TIE:
            reach, figures = piece.x1, _numeric(piece.text)
        elif piece.x1 >= reach - TIE:
            reach, figures = max(reach, piece.x1), figures or _numeric(piece.text)
    return [b for b in boundaries if lo < b < hi]


FIGURE_GAP_EM = 0.5  # ems between two columns of figures (siftpdf.child.evidence records such gaps)
LABEL_GAP_EM = 0.7  # ems from a column of words to figures after it: more than any word space (a monospaced one, 0.6)
TIE = 0.5  # points: text that ends or starts this close to another ends or starts with it


def _flush_right_from(ordered: list[_Piece], k: int, ends: list[tuple[float, float]]) -> bool:
    """Whether a column of figures set flush right starts where ``ordered[k]`` (sorted by x0)
    starts: a number starting there (within ``TIE``) or under it (its head, wider) whose right
    edge a narrower number ends at (figures of one width set flush left end together too: a
    column of one-digit marks is none). ``ends``: the numbers' (x1, x0), sorted."""
    x0, x1 = ordered[k].x0, ordered[k].x1
    looked: set[float] = set()  # right edges looked at (figures of one width set flush left share theirs)
    for piece in ordered[k:]:
        if piece.x0 > max(x0 + TIE, x1):
            return False
        if _numeric(piece.text) and piece.x1 not in looked:
            looked.add(piece.x1)
            if any(start > piece.x0 + TIE for _, start in ends[
                    bisect_left(ends, (piece.x1 - TIE, -math.inf)):bisect_right(ends, (piece.x1 + TIE, math.inf))]):
                return True
    return False


def _flush_left_from(ordered: list[_Piece], k: int) -> bool:
    """Whether a column of figures set flush left starts where ``ordered[k]`` (sorted by x0)
    starts: ``FLUSH_FIGURES`` numbers or more start there, within ``TIE``, not all ending
    together (a browser's cells set flush left, padded close: their figures start together,
    whatever their widths; figures of one width end together too, as a column of one-digit
    marks or a form's line numbers does, which is none)."""
    x0 = ordered[k].x0
    ends: list[float] = []
    for piece in ordered[k:]:
        if piece.x0 > x0 + TIE:
            break
        if _numeric(piece.text):
            ends.append(piece.x1)
    return len(ends) >= FLUSH_FIGURES and max(ends) - min(ends) > TIE


FLUSH_FIGURES = 3  # numbers starting at one x: a column of figures set flush left


def _figures_start(ordered: list[_Piece], k: int, tie: float) -> bool:
    """Whether a number starts where ``ordered[k]`` (sorted by x0) starts, within ``tie``, or
    under it: a head set flush right over its figures, wider than the widest of them, starts
    its column a little left of them."""
    x0, x1 = ordered[k].x0, ordered[k].x1
    for piece in ordered[k:]:
        if piece.x0 > max(x0 + tie, x1):
            return False
        if _numeric(piece.text):
            return True
    return False


def _numeric(text: str) -> bool:
    """A number with its signs and brackets: '1,144', '(182.2–204.8)', '$9,600', '12%'."""
    return _NUMBER.fullmatch(text) is not None and any(ch.isdigit() for ch in text)


def _label_words(text: str) -> bool:
    """A few words, as a row's or a group's label is: letters, no digit, ``LABEL_WORDS`` words at most
    (a sentence, a year, a line's number are no label)."""
    return any(ch.isalpha() for ch in text) and not any(ch.isdigit() for ch in text) and \
        len(text.split()) <= LABEL_WORDS


LABEL_WORDS = 4


def _labels_only(row: list[_Piece], end: float) -> bool:
    """Whether a line holds labels alone, all ending by ``end`` (the first two columns'): a
    group's label set on a line of its own, a label's second line."""
    return all(p.x1 <= end and _label_words(p.text) for p in row)


def _size(pieces: list[_Piece]) -> float:
    """The pieces' middle size (10 points where they say none)."""
    return sorted(p.size for p in pieces)[len(pieces) // 2] or 10.0 if pieces else 10.0


def _baseline_rows(pieces: list[_Piece]) -> list[list[_Piece]]:
    """Pieces grouped by baseline, top down."""
    pieces = sorted(pieces, key=lambda p: -p.y)
    rows: list[list[_Piece]] = []
    for piece in pieces:
        if rows and abs(rows[-1][0].y - piece.y) <= 0.3 * max(piece.size, 1.0):
            rows[-1].append(piece)
        else:
            rows.append([piece])
    return rows


def _spanning_free_gaps(rows: list[list[_Piece]], lo: float, hi: float, vote: bool = False,
                        framed: bool = False) -> list[float]:
    """Column gaps of the rows, a row that crosses a gap others leave open (a header over
    two columns) left out of the reckoning when most rows agree on the gap; with ``vote``
    (rules bound the rows: they are a table's), a few rows may cross it (``_voted_gaps``);
    without, the first line may (group heads over the columns under them). ``framed``: a
    frame round the rows (``_column_gaps``' bounded; a page's head and foot rules are none); a
    frame round two lines alone (a table's heads, a page's end parting them from its body) takes
    the second's columns, the first's heads running over their gaps or centred over them."""
    everything = [p for row in rows for p in row]
    gaps = _column_gaps(everything, lo, hi, framed)
    if len(rows) == 2 and framed:  # a frame round a table's heads alone, its body on the next page
        under = _column_gaps(rows[1], lo, hi, framed)
        xs = [lo, *under, hi]
        if len(under) > len(gaps) and len(rows[1]) == len(xs) - 1 and \
                all(_runs_over(p, xs) or _centred_over(p, xs) for p in rows[0] if any(p.x0 < x < p.x1 for x in under)):
            return under
    if len(rows) < 3:
        return gaps
    # Rows that would close a gap: drop the fewest that let the most columns open.
    wide = [row for row in rows if len(row) <= 2]
    narrow = [row for row in rows if len(row) > 2]
    if wide and len(narrow) >= 2:
        more = _column_gaps([p for row in narrow for p in row], lo, hi)
        if len(more) > len(gaps) and len(narrow) >= 0.6 * len(rows):
            gaps = more
    if vote and len(rows) >= VOTE_ROWS:
        # A line of text across the rows (a caption's, a title's set in the frame) tells no column.
        counted = [row for row in rows if not _across(row, lo, hi)]
        counted = counted if len(counted) >= VOTE_ROWS else rows
        voted = _voted_gaps(counted, lo, hi)
        if len(voted) > len(gaps) and _own_columns(counted, voted):
            return voted
    elif len(rows) >= VOTE_ROWS:  # the first line alone closing gaps: group heads over the columns
        under = _column_gaps([p for row in rows[1:] for p in row], lo, hi)
        if len(under) > len(gaps) and _own_columns(rows[1:], under):
            return under
    return gaps


VOTE_ROWS = 5  # rows from which a few that cross a column gap others leave open may span it
SPANNING = 0.8  # of a table's width a line of text, no column gap in it, spans, from which it is a title across it


def _across(row: list[_Piece], lo: float, hi: float) -> bool:
    """Is a row one stretch of text (its pieces nowhere half an em apart) across most of the
    table (``SPANNING``)?"""
    ordered = sorted(row, key=lambda p: p.x0)
    reach = ordered[0].x1
    for piece in ordered[1:]:
        if piece.x0 - reach >= FIGURE_GAP_EM * piece.size:
            return False
        reach = max(reach, piece.x1)
    return reach - ordered[0].x0 >= SPANNING * (hi - lo)


CROSSING = 0.2  # share of the rows that may cross such a gap (heads over several columns, totals)


def _voted_gaps(rows: list[list[_Piece]], lo: float, hi: float) -> list[float]:
    """Column gaps that all rows but a few leave open: x ranges at least ``MIN_GAP_EM`` wide
    (``FIGURE_GAP_EM`` between numbers) that at most ``CROSSING`` of the rows cover (column
    heads set closer than the columns below them, a heading over two columns); the boundary
    is the middle of the range's widest stretch that no row covers, when there is room, else
    of the range or of its stretch fewest rows cover (``_boundary``). Each row counts once
    however many of its pieces cover a point."""
    everything = [p for row in rows for p in row]
    size = _size(everything)
    # Where numbers start: a run of text starting a column speaks for numbers when one starts
    # under it (a head set flush right, wider than its figures, starts the column left of them).
    starts = sorted(p.x0 for p in everything if _numeric(p.text))
    events: list[tuple[float, int, bool]] = []  # (x, +1 a row's text starts / -1 ends, numbers only)

    def run(start: float, reach: float, numbers: bool) -> None:
        under = bisect_left(starts, start - TIE) < bisect_right(starts, reach)
        events.extend([(start, 1, numbers or under), (reach, -1, numbers)])

    for row in rows:
        ordered = sorted(row, key=lambda p: (p.x0, p.x1))
        start, reach, numbers = ordered[0].x0, ordered[0].x1, _numeric(ordered[0].text)
        for p in ordered[1:]:
            if p.x0 > reach:
                run(start, reach, numbers)
                start, numbers = p.x0, True
            reach, numbers = max(reach, p.x1), numbers and _numeric(p.text)
        run(start, reach, numbers)
    # At one x, starts before ends, and numbers start first: a number that starts where the
    # gap ends speaks for it (a column's head may share its edge).
    events.sort(key=lambda e: (e[0], -e[1], not e[2]))
    allowed = int(CROSSING * len(rows))
    left, right = events[0][0], events[-1][0]
    wide, narrow = MIN_GAP_EM * size, FIGURE_GAP_EM * size
    boundaries: list[float] = []
    covered, opened, after_numbers = 0, None, False
    level = 0.0  # where the open range's stretch at the present cover began
    stretches: list[tuple[int, float, float]] = []  # the open range's: (rows covering it, start, end)
    for x, step, numbers in events:
        before, covered = covered, covered + step
        if opened is None:
            if covered <= allowed:
                opened, after_numbers, level, stretches = x, numbers, x, []
            continue
        if x > level:
            stretches.append((before, level, x))
        level = x
        if step < 0 and x <= opened + TIE:
            after_numbers = after_numbers or numbers  # a number that ends where the gap opens
        elif covered > allowed:
            gap = x - opened
            if (gap >= wide or gap >= narrow and after_numbers and numbers) and left < opened and x < right:
                boundaries.append(_boundary(stretches, opened, x, narrow))
            opened = None
    return [b for b in boundaries if lo < b < hi]


def _boundary(stretches: list[tuple[int, float, float]], opened: float, closed: float, room: float) -> float:
    """Where a column gap's boundary falls, given the stretches of the gap (how many rows
    cover each, where it starts and ends): in the widest stretch no row covers, if one is
    ``room`` wide; else in the gap's middle, unless more rows cover it there than cover some
    stretch that wide (a head beside a group head over both its columns): then in the widest
    of the stretches fewest rows cover. The few rows that cross keep their cell."""
    roomy = [(cover, start - end, start) for cover, start, end in stretches if end - start >= room]
    middle = (opened + closed) / 2
    if not roomy:
        return middle
    cover, width, start = min(roomy)
    there = next((c for c, a, b in stretches if a <= middle <= b), cover)
    return start - width / 2 if cover == 0 or cover < there else middle


def _own_columns(rows: list[list[_Piece]], boundaries: list[float]) -> bool:
    """Whether each column between the boundaries holds text of its own (a piece inside it)
    on ``OWN_ROWS`` of the rows: a column, not the room long labels and a centred head leave
    beside the short labels under it. A line of one label in the first two columns (a group's
    label, a label's second line: ``_labels_only``) counts for none; so does a line of labels
    there when the first column holds words alone (a group's label beside a name's line)."""
    edges = [-math.inf, *boundaries, math.inf]
    own = [0] * (len(edges) - 1)
    for row in rows:
        inside = {bisect_right(edges, p.x0) for p in row if bisect_right(edges, p.x0) == bisect_left(edges, p.x1)}
        for col in inside:
            own[col - 1] += 1
    # The first column's own text is words (groups' labels), not figures (a plot's ticks).
    words = all(_label_words(p.text) for row in rows for p in row if p.x1 <= edges[1])
    end = edges[min(2, len(edges) - 1)]
    counted = sum(not ((len(row) == 1 or words) and _labels_only(row, end)) for row in rows)
    least = max(2, OWN_ROWS * counted)
    return min(own[1:]) >= least and own[0] >= (max(2, GROUP_ROWS * counted) if words else least)


OWN_ROWS = 0.5  # share of a table's rows with text inside each column the rows' gaps make (a plot's ticks fill fewer)
GROUP_ROWS = 0.25  # the same for a first column of words: a group's label, once for the rows it spans


def _grid_cells(region: _Region, pieces: list[_Piece]) -> tuple[list[float], list[float]]:
    """Column and row boundaries of a region: its rules', with the text's alignment where
    the rules say nothing (no vertical rules; bands of several lines between two rules)."""
    xs = list(region.xs)
    if len(xs) < 2 or xs[0] > region.x0 + SNAP or xs[-1] < region.x1 - SNAP:
        xs = _positions(xs + [region.x0, region.x1])
    if len(xs) <= 2:
        rows = _baseline_rows(pieces)
        gaps = _spanning_free_gaps(rows, region.x0, region.x1, bool(region.horizontal), bool(region.vertical))
        xs = [region.x0] + _heads_aside(rows, gaps) + [region.x1]
    ys = list(region.ys) or [region.y1]
    if ys[0] < region.y1 - SNAP:
        ys.insert(0, region.y1)
    if ys[-1] > region.y0 + SNAP:
        ys.append(region.y0)
    if not region.vertical:  # rows ruled off in bands: a band of several rows is split by baseline
        ys = _split_bands(ys, xs, pieces, region.spanners)
    elif len(xs) > 2:  # a grid whose body is ruled off in bands of data lines
        ruled = bool(region.inner_xs)
        if ruled:
            xs = _subcolumns(xs, pieces)
        parted = _split_data_bands(ys, xs, pieces, ruled, bool(region.open))
        if not ruled and len(parted) == len(ys) and len(ys) > 2 and _lines_of_cells(ys, xs, pieces):
            parted = _split_bands(ys, xs, pieces, region.spanners)  # a frame round rows ruled off in bands
        elif not ruled and (len(ys) > 2 or len(parted) > 3 or region.open == "below" and len(parted) == 2):
            # A frame round rows of figures: its head's lines as in a band's; round it all with no
            # rule inside: its first row's; open below round one band: a head alone, its body on
            # the next page.
            head = next(_ruled_bands(ys[:2] if len(ys) > 2 else parted[:2], pieces))[1]
            parted = [parted[0], *_header_lines(head, xs, region.spanners), *parted[1:]]
        ys = parted
    return xs, ys


HEAD_LINES_ASIDE = 2  # a table's first lines, where a column's head may stand beside its column
BODY_ROWS_ASIDE = 2  # lines under them the neighbour has text on, at the least


def _heads_aside(rows: list[list[_Piece]], gaps: list[float]) -> list[float]:
    """The column gaps, less those between a column whose only text is in the table's first
    lines (``HEAD_LINES_ASIDE``) and its neighbour, empty on those lines and holding text on the
    rows under them: a head set flush left over figures set flush right in a wide column (a
    browser's and a word processor's tables by default), or flush right over words set flush
    left, is that column's head, not a column of its own. The neighbour on the right is taken
    first; a piece counts in a column it lies wholly inside (a group head spanning columns in
    none). A column whose heads all stand clear past one end of its body's text (``_heads_past``:
    the padding of a browser's cells parts a head set flush left from the figures of the column
    before it, set flush right, by less than a column gap) is parted there first, when the heads
    then go with their own columns."""
    if not gaps or len(rows) <= BODY_ROWS_ASIDE:
        return gaps
    past = _heads_past(rows, gaps)
    if past:
        kept = _heads_to_columns(rows, sorted(gaps + past))
        if len(kept) <= len(gaps):
            return kept
    return _heads_to_columns(rows, gaps)


def _heads_past(rows: list[list[_Piece]], gaps: list[float]) -> list[float]:
    """Where columns part between their heads (on the first line or two, ``HEAD_LINES_ASIDE``) and
    the text of their body, the heads lying wholly one side of it, ``HEAD_CLEAR_EM`` clear."""
    edges = [-math.inf, *gaps, math.inf]
    out = []
    for lo, hi in zip(edges, edges[1:], strict=False):
        lines = [[p for p in row if lo <= p.x0 and p.x1 <= hi] for row in rows]
        for first in range(1, HEAD_LINES_ASIDE + 1):
            heads = [p for line in lines[:first] for p in line]
            body = [p for line in lines[first:] for p in line]
            if not heads or sum(map(bool, lines[first:])) < BODY_ROWS_ASIDE:
                continue
            clear = HEAD_CLEAR_EM * max(p.size for p in heads + body)
            start, end = min(p.x0 for p in body), max(p.x1 for p in body)
            if min(p.x0 for p in heads) - end >= clear:
                out.append((end + min(p.x0 for p in heads)) / 2)
                break
            if start - max(p.x1 for p in heads) >= clear:
                out.append((start + max(p.x1 for p in heads)) / 2)
                break
    return out


HEAD_CLEAR_EM = 0.5  # ems between a column's heads and its body's text, at the least, for them to part there


def _heads_to_columns(rows: list[list[_Piece]], gaps: list[float]) -> list[float]:
    """``_heads_aside``'s gaps, less those between a column of heads alone and its neighbour."""
    edges = [-math.inf, *gaps, math.inf]
    lines: list[set[int]] = [set() for _ in range(len(edges) - 1)]  # the lines each column has text on
    for k, row in enumerate(rows):
        for piece in row:
            column = bisect_right(edges, piece.x0)
            if column == bisect_left(edges, piece.x1):
                lines[column - 1].add(k)
    heads = set(range(HEAD_LINES_ASIDE))
    kept = list(gaps)
    for column, held in enumerate(lines):
        if not held or not held <= heads:
            continue
        for other in (column + 1, column - 1):
            if 0 <= other < len(lines) and not lines[other] & held and len(lines[other]) >= BODY_ROWS_ASIDE:
                gap = gaps[min(column, other)]
                if gap in kept:
                    kept.remove(gap)
                break
    return kept


FRAMED_COLUMNS = 3  # columns of a framed table whose lines of words part into rows by baseline


def _lines_of_cells(ys: list[float], xs: list[float], pieces: list[_Piece]) -> bool:
    """Are a frame's bands of several lines rows of cells: three columns or more, and most lines
    of each such band under the head (``CELL_ROWS``) with text across most of them (``_fills``)?
    A diagram's boxes drawn in a frame set their labels here and there. A line of labels in the
    first two columns alone (a group's label, a label's other lines) is in the count of none."""
    bands = [rows for _, rows in list(_ruled_bands(ys, pieces))[1:] if len(rows) >= 2]

    def cells(rows: list[list[_Piece]]) -> bool:
        counted = [row for row in rows if not _labels_only(row, xs[min(2, len(xs) - 1)])]
        return bool(counted) and sum(_fills(row, xs) for row in counted) >= CELL_ROWS * len(counted)
    return len(xs) - 1 >= FRAMED_COLUMNS and bool(bands) and all(cells(rows) for rows in bands)


MIN_LINES = 3  # lines with text on both sides of a gap in a ruled column; lines of a band of short rows


def _subcolumns(xs: list[float], pieces: list[_Piece]) -> list[float]:
    """Column boundaries inside ruled columns: a column gap in a ruled column's text that most
    of its lines, three at least, have text on both sides of (a grid ruling off groups of
    columns: age and count, three times across the page); not one beside a head set aside
    over its figures (``_heads_aside``)."""
    out = [xs[0]]
    for a, b in zip(xs, xs[1:], strict=False):
        rows = _baseline_rows([p for p in pieces if a <= p.middle < b])
        if len(rows) >= MIN_LINES:
            for gap in _heads_aside(rows, _spanning_free_gaps(rows, a, b)):
                both = sum(any(p.x1 <= gap for p in row) and any(p.x0 >= gap for p in row) for row in rows)
                if both >= MIN_LINES and both >= 0.5 * len(rows):
                    out.append(gap)
        out.append(b)
    return out


def _ruled_bands(ys: list[float], pieces: list[_Piece]) -> Iterator[tuple[float, list[list[_Piece]]]]:
    """Each band between ``ys`` (top down): its bottom and its pieces by baseline. Pieces are
    sorted by the height of their middle once: each band takes its own slice, not a pass over all."""
    ordered = sorted(pieces, key=lambda p: (p.top + p.bottom) / 2)
    middles = [(p.top + p.bottom) / 2 for p in ordered]
    for top, bottom in zip(ys, ys[1:], strict=False):
        yield bottom, _baseline_rows(ordered[bisect_right(middles, bottom):bisect_left(middles, top)])


def _between(upper: list[_Piece], lower: list[_Piece]) -> float:
    """The row boundary between two lines: midway from the upper one's foot to the lower one's top."""
    return (min(p.bottom for p in upper) + max(p.top for p in lower)) / 2


def _split_bands(ys: list[float], xs: list[float], pieces: list[_Piece], spanners: list[_Edge]) -> list[float]:
    """Between horizontal rules that do not part every row (the header rule of a booktabs
    table), each baseline starts a row, unless its first column is empty: then it goes on
    the cells of the line above (a cell of several lines). A band of two lines stays one
    row, unless rules bound it and each line gives figures in most columns (two rows, not a
    cell that wraps; two lines alone, without rules, are too few to tell). Where the rules
    part most rows (``_parted``), a band with one full line at most is one row: the lines of
    its cells set round the line that fills the columns (a title of three lines beside one
    line of figures, centred on it). A line whose label runs on from the one above (``_runs_on``)
    goes on its row, unless both carry cells past the label (two rows: "of which" under a total)."""
    out = [ys[0]]
    first = xs[1] if len(xs) > 2 else math.inf
    bands = list(_ruled_bands(ys, pieces))
    parted = _parted([rows for _, rows in bands], xs)
    for band, (bottom, rows) in enumerate(bands):
        heads = _unruled_heads(rows, xs) if band == 0 and len(ys) == 2 else 0
        if heads:
            start = 0  # the body under heads of several lines, no rule between them: rows of heads
            for k in range(1, heads + 1):  # ... parted where the lines step farther than a head's wrap
                if k == heads or rows[k - 1][0].y - rows[k][0].y > HEAD_PITCH * max(p.size for p in rows[k]):
                    out += [*_header_lines(rows[start:k], xs, spanners, aligned=True), _between(rows[k - 1], rows[k])]
                    start = k
            rows = rows[heads:]
        if band == 0 and len(ys) > 2:  # the header, above the rule under it
            out += _header_lines(rows, xs, spanners)
        elif len(rows) == 2 and (len(ys) > 2 and (all(_fills(row, xs) and _figures(row, first) for row in rows) or
                                                  _two_rows(rows[0], rows[1], xs)) or
                                 len(xs) > 3 and _heads_over_figures(rows[0], rows[1], xs)):
            out.append(_between(rows[0], rows[1]))
        elif parted and sum(_fills(row, xs) for row in rows) <= 1:
            pass
        elif len(rows) >= (2 if heads else 3):
            lo, hi = _label_column(rows, xs)
            label: list[_Piece] = [p for p in rows[0] if lo <= p.middle < hi]  # the label column's last line so far
            beyond = any(p.middle >= hi for p in rows[0])  # the row so far has text past its label
            for upper, lower in zip(rows, rows[1:], strict=False):
                size = max(p.size for p in lower)
                leads = [p for p in lower if lo <= p.middle < hi]
                past = any(p.middle >= hi for p in lower)
                # A row's label set over the group's column ("Total") starts a row too.
                if leads and not (_runs_on(label, leads) and not (beyond and past)) or \
                        not leads and past and beyond and any(p.middle < lo for p in lower) or \
                        upper[0].y - lower[0].y > 2.0 * size:
                    out.append(_between(upper, lower))
                    beyond = False
                label = leads or label
                beyond = beyond or past
        out.append(bottom)
    return out


def _unruled_heads(rows: list[list[_Piece]], xs: list[float]) -> int:
    """The lines of a table without rules that hold its column heads, when two or more: those
    above its first line of figures (a line of years alone is one of heads: ``_years``) and
    above the lines of that row's label set over it (in the first column alone). Heads wrap
    onto lines of their own, set centred or at the foot of their row, so that a column's head
    may stand on any of them (``Indicator`` beside ``Value`` over ``(EUR m)``): a row of heads
    is its lines set a line's pitch apart (``HEAD_PITCH``), a farther step parts two rows of
    them. Zero when the first line of figures opens the table, and unless the lines are heads:
    a few (``HEAD_LINES``), of short labels (``HEAD_WORDS``) and no number but a year (a
    listing's line numbers), none a blank line from the next (``HEAD_GAP``)."""
    first = xs[1] if len(xs) > 2 else math.inf

    def figures(row: list[_Piece]) -> bool:  # figures past the label, a digit among them ('=' and 'y,' are none)
        return _figures(row, first) and any(ch.isdigit() for p in row if p.middle >= first for ch in p.text) and \
            not _years(row, first)

    body = next((k for k, row in enumerate(rows) if figures(row)), 0)
    while body > 0 and all(p.middle < first for p in rows[body - 1]):
        body -= 1  # the first label's lines, set over its figures
    if not 2 <= body <= HEAD_LINES or \
            any(_numeric(p.text) and not _year(p.text) or len(p.text.split()) > HEAD_WORDS
                for row in rows[:body] for p in row) or \
            any(upper[0].y - lower[0].y > HEAD_GAP * max(p.size for p in lower)
                for upper, lower in zip(rows[:body], rows[1:body], strict=False)):
        return 0
    return body


def _years(row: list[_Piece], label: float) -> bool:
    """Is a line a line of heads that are years ('2004', '2005'), nothing in the label column:
    no row of figures (a row's figures follow its label)?"""
    return all(p.middle >= label and _year(p.text) for p in row)


def _year(text: str) -> bool:
    """Is a head a year ('2012'), as a column's head often is (a number, yet no figure)?"""
    text = text.strip()
    return len(text) == 4 and text.isdigit() and YEARS[0] <= int(text) <= YEARS[1]


YEARS = (1800, 2100)  # the years a table's heads name
HEAD_PITCH = 1.6  # ems between the baselines of a head's lines, at most (a line's pitch is 1.2; a page set 1.5 apart)
HEAD_AXIS = 0.15  # ems off the axis its first line is set on that a head's next line may lie
HEAD_GAP = 2.5  # ems between two rows of heads, at most: a farther one parts a table from lines above it
HEAD_LINES = 6  # lines of heads, at most (two rows of three)
HEAD_WORDS = 6  # words of a head on one line, at most: a line of prose is no head


def _two_rows(upper: list[_Piece], lower: list[_Piece], xs: list[float]) -> bool:
    """Whether two lines between rules are two rows, not one whose cells wrap: both have text in
    every column, and no cell of the lower runs on from the one above it (``_runs_on``)."""
    columns = range(1, len(xs))
    cells = [[[p for p in row if bisect_right(xs, p.middle) == col] for col in columns] for row in (upper, lower)]
    return all(cells[0]) and all(cells[1]) and not any(_runs_on(a, b) for a, b in zip(*cells, strict=True))


def _heads_over_figures(upper: list[_Piece], lower: list[_Piece], xs: list[float]) -> bool:
    """Whether two lines without rules are a row of heads over a row of figures, not one row
    whose cells wrap: text in every column on both, the upper all in bold, the lower in none
    and with figures past its label (a cell wraps in its own face)."""
    return all(p.bold for p in upper) and not any(p.bold for p in lower) and \
        _figures(lower, xs[1]) and _two_rows(upper, lower, xs)


def _label_column(rows: list[list[_Piece]], xs: list[float]) -> tuple[float, float]:
    """The span across of the column that labels a band's rows: the first with text on half its
    lines or more, when the columns left of it hold labels on lines with no cells past it below
    the first, on half such lines at least (a group's label centred on the rows it spans, under
    its head, alone or beside a label's second line: it starts no row); else the first column."""
    first = -math.inf, (xs[1] if len(xs) > 2 else math.inf)
    for k in range(len(xs) - 2):
        held = sum(any(xs[k] <= p.middle < xs[k + 1] for p in row) for row in rows)
        if held >= 0.5 * len(rows):
            # Columns left of it hold labels on lines of no cells (a group's, centred), or it is the first.
            grouped = [row for row in rows[1:] if any(p.middle < xs[k] for p in row)]
            alone = sum(all(p.middle < xs[k + 1] and (p.middle >= xs[k] or _label_words(p.text)) for p in row)
                        for row in grouped)
            return (xs[k], xs[k + 1]) if k and alone and alone >= 0.5 * len(grouped) else first
    return first


def _runs_on(label: list[_Piece], line: list[_Piece]) -> bool:
    """Does a line of a table's first column go on the label above it: no stop ends that one, and
    this one starts in lower case or with a bracket (``Research and development`` over
    ``(business sector)``; ``Wages and`` over ``salaries``), or the one above leaves a bracket
    open (``（净亏损`` over ``以“－”号填列）``)? A row's label starts a row of its own,
    and a formula's lines (a mathematical sign in either) are no label's."""
    above = " ".join(p.text for p in sorted(label, key=lambda p: p.x0)).strip()
    text = " ".join(p.text for p in sorted(line, key=lambda p: p.x0)).strip()
    if not above or not text or any(unicodedata.category(c) == "Sm" for c in above + text):
        return False  # a formula's lines (∑, ∈, ≥), not a label's words
    if sum(map(above.count, "(（[")) > sum(map(above.count, ")）]")):
        return True  # a bracket left open goes on here, in any script
    return not _STOP.search(above) and (text[0].islower() or text[0] == "(")


PARTED_BANDS = 3  # bands of one row each from which a table's rules part its rows
PARTED_SHARE = 0.75  # share of a table's bands that must hold one row each


def _parted(bands: list[list[list[_Piece]]], xs: list[float]) -> bool:
    """Whether a table's horizontal rules part its rows: most of its bands, three at least,
    hold one line at most that fills the columns (a booktabs table's rules part its head from
    a body of many such lines)."""
    held = [rows for rows in bands if rows]
    single = sum(sum(_fills(row, xs) for row in rows) <= 1 for rows in held)
    return single >= PARTED_BANDS and single >= PARTED_SHARE * len(held)


def _fills(row: list[_Piece], xs: list[float]) -> bool:
    """Whether a line has text in ``FILLED_COLUMNS`` of the columns, two at least."""
    columns = {bisect_right(xs, p.middle) for p in row}
    return len(columns) >= max(2, FILLED_COLUMNS * (len(xs) - 1))


FILLED_COLUMNS = 0.6  # share of a table's columns a line of one row fills


def _split_data_bands(ys: list[float], xs: list[float], pieces: list[_Piece], ruled: bool,
                      broken: bool = False) -> list[float]:
    """Rows of a grid ruled between groups of rows, not between rows (a statistics table):
    in a band holding two lines of figures or more, each line of figures is a row, and the
    lines of its label (above or below it, centred on two lines) go with the nearest one;
    column heads above the first line of figures are a row of their own. A band with fewer
    lines of figures, or whose figures are not named in words at their left (a chart's axis),
    is one row: a cell of several lines in a ruled grid is text; unless (``ruled``: rules
    part its columns) its lines are rows of short entries (``_short_lines``). In a frame a
    page's end broke (``broken``), one line of figures under the heads is a row: what the
    break left of the table's rows."""
    if not pieces:
        return ys
    out = [ys[0]]
    # The end of the first column that holds text (a double border leaves empty slivers).
    first = xs[min(len(xs) - 1, bisect_right(xs, min(p.middle for p in pieces)))]
    for bottom, rows in _ruled_bands(ys, pieces):
        # Past a column of groups' labels, the column that labels the rows (``_label_column``) of figures.
        lo, hi = _label_column(rows, xs)
        label = hi if lo > -math.inf and sum(_figures(row, hi) for row in rows) >= 2 else first
        figures = [k for k, row in enumerate(rows) if _figures(row, label)]
        # Most lines of figures named in words at their left: a chart's axis is numbers too.
        named = sum(any(p.middle < label and not _NUMBER.fullmatch(p.text) for p in rows[k]) for k in figures)
        if len(figures) >= (1 if broken else 2) and named >= 0.5 * len(figures):
            heads = [k for k in range(figures[0]) if any(p.middle >= label for p in rows[k])]
            parts = list(zip(figures, figures[1:], strict=False))
            cuts = [_between(rows[upper], rows[lower])
                    for upper, lower in ([(heads[-1], heads[-1] + 1)] if heads else []) + parts]
            cuts += [_between(rows[k], rows[k + 1]) for k in _labelled_rows(rows, figures, label)]
            out += sorted(set(cuts), reverse=True)
        elif ruled and (joins := _short_lines(rows, xs, label)) is not None:
            for above, line, join in zip(rows, rows[1:], joins, strict=False):
                # A line without a label, or whose cell runs on, goes on the one above.
                if not join and any(p.middle < label for p in line):
                    out.append(_between(above, line))
        elif ruled:
            out += [_between(rows[k - 1], rows[k]) for k in _after_blank_lines(rows, xs, label)]
        out.append(bottom)
    return out


def _labelled_rows(rows: list[list[_Piece]], figures: list[int], label: float) -> list[int]:
    """The lines of a band between two lines of figures that are rows of their own, their
    figures' cells empty: a label a whole row's step from the figures above and below it
    (``OWN_ROW_STEP`` of the usual step between lines of figures, a step wider than a cell's
    lines are set apart, ``ROW_STEP_EMS``), those two steps apart (room for one row between
    them). Each is parted from the line above it and below it (a group's label centred beside
    it and the next row spans both)."""
    steps = sorted(rows[upper][0].y - rows[lower][0].y for upper, lower in zip(figures, figures[1:], strict=False))
    if len(steps) < 2:
        return []
    step = steps[(len(steps) - 1) // 2]
    out: list[int] = []
    for upper, lower in zip(figures, figures[1:], strict=False):
        if abs(rows[upper][0].y - rows[lower][0].y - 2 * step) > (1 - OWN_ROW_STEP) * 2 * step:
            continue
        for k in range(upper + 1, lower):
            line = rows[k]
            if step >= ROW_STEP_EMS * max(p.size for p in line) and any(p.middle < label for p in line) and \
                    min(rows[upper][0].y - line[0].y, line[0].y - rows[lower][0].y) >= OWN_ROW_STEP * step:
                out += [k - 1, k]
    return sorted(set(out))


OWN_ROW_STEP = 0.9  # of the usual step between a table's lines of figures
ROW_STEP_EMS = 1.6  # ems: rows stepping farther apart than a cell's lines are set


BLANK_LINE = 1.6  # of a band's usual step between baselines: a wider one leaves a blank line
BLANK_LINE_EMS = 2.0  # ... and at least this many of the lower line's size


def _after_blank_lines(rows: list[list[_Piece]], xs: list[float], label: float) -> list[int]:
    """The lines of a band (three at least) that start a row of their own: a blank line above
    them, a label in the first column and text across most columns (``_fills``): a group's
    sub-rows of prose cells, set apart by a blank line, under rules that part only the
    groups. Lines set at the band's usual pitch go on the cells above: a label or a cell of
    several lines."""
    if len(rows) < 3:
        return []
    steps = [upper[0].y - lower[0].y for upper, lower in zip(rows, rows[1:], strict=False)]
    pitch = sorted(steps)[(len(steps) - 1) // 2]  # the lower median: blank lines are the fewer steps
    return [k + 1 for k, step in enumerate(steps)
            if step > BLANK_LINE * pitch and step > BLANK_LINE_EMS * max(p.size for p in rows[k + 1])
            and any(p.middle < label for p in rows[k + 1]) and _fills(rows[k + 1], xs)]


def _short_lines(rows: list[list[_Piece]], xs: list[float], label: float) -> list[bool] | None:
    """Whether the lines of a band are rows of short entries (three lines or more, each with
    text in two columns or more, a few words to a cell: a cell of prose runs on over many
    words; most of them labelled in the first column: column heads of several lines leave it
    empty), and then, for each line after the first, whether it goes on the row above: one
    of its cells runs on from the cell above it (no stop there, a small letter here, and the
    cell above spans half its column at least: a cell wraps where its line is full; a column
    of symbols, centred, starts each row with a small Greek letter)."""
    if len(rows) < MIN_LINES:
        return None
    if sum(any(p.middle < label for p in row) for row in rows) < LABELLED * len(rows):
        return None
    cells = words = 0
    joins: list[bool] = []
    last: dict[int, str] = {}  # each column's text on the line above
    full: set[int] = set()  # the columns whose cell on the line above spans half the column
    for row in rows:
        columns: dict[int, str] = {}
        spans: dict[int, tuple[float, float]] = {}
        for p in sorted(row, key=lambda p: p.x0):
            col = bisect_right(xs, p.middle)
            columns[col] = f"{columns[col]} {p.text}" if col in columns else p.text
            spans[col] = (spans[col][0], p.x1) if col in spans else (p.x0, p.x1)
        if len(columns) < 2:
            return None
        if last:
            joins.append(any(col in full and last.get(col) and not _STOP.search(last[col]) and text[:1].islower()
                             for col, text in columns.items()))
        last = columns
        full = {col for col, (a, b) in spans.items()
                if not 0 < col < len(xs) or b - a >= WRAPPED_SHARE * (xs[col] - xs[col - 1])}
        cells += len(columns)
        words += sum(len(text.split()) for text in columns.values())
    return joins if words < SHORT_WORDS * cells else None


SHORT_WORDS = 3  # mean words of a cell in a band whose every line is a row
WRAPPED_SHARE = 0.5  # of its column's width a cell spans on a line it wraps from, at least
LABELLED = 2 / 3  # share of such a band's lines with a label in the first column


def _figures(row: list[_Piece], label: float) -> bool:
    """Whether a line gives figures right of the label column, and only those."""
    rest = [p for p in row if p.middle >= label]
    return bool(rest) and all(_figure(p.text) for p in rest)


def _figure(text: str) -> bool:
    """A statistics table's entry: a number with its signs and marks (``*2,247``, ``12.5a``,
    ``(X)``), a dash or a short mark standing for none (``–``, ``***``, ``NA``): at most two
    letters, and a digit unless it is that short. A bracket left open is the first line of a
    cell that wraps (``200 (as`` over ``BTEX)``)."""
    text = text.strip()
    if not text or sum(ch.isalpha() for ch in text) > 2 or text.count("(") != text.count(")"):
        return False
    return any(ch.isdigit() for ch in text) or len(text) <= 5


def _header_lines(rows: list[list[_Piece]], xs: list[float], spanners: list[_Edge],
                  aligned: bool = False) -> list[float]:
    """Row boundaries inside a header band: its lines make one row, the heads of two or three
    lines joined per column, except that a line of group heads spreading over several
    columns, or each standing over a rule drawn under it (``spanners``), stays a row of its
    own above them. Where the text's alignment set the columns (``aligned``), a head wider
    than its column's figures runs over their gap, and a head's first line may be centred over
    three: a line spreads when every head on it past the first column does, or holds one head
    that no line under it, a head's pitch on, goes on in its column, set on the same axis (its
    middle, left or right edge: a group head centred over three columns, standing in the middle
    one); elsewhere such a head spreads when it is centred over the columns round its own."""
    def continued(piece: _Piece, k: int, centred: bool = False) -> bool:
        """By a line under it at a head's pitch, in its column on one of its axes (its middle,
        left or right edge; ``centred``: its middle, a head set on two lines)."""
        column, near = bisect_right(xs, piece.middle), HEAD_AXIS * piece.size
        return any(bisect_right(xs, q.middle) == column and
                   (abs(q.middle - piece.middle) if centred else
                    min(abs(q.middle - piece.middle), abs(q.x0 - piece.x0), abs(q.x1 - piece.x1))) <= near
                   for row in rows[k + 1:] for q in row if piece.y - q.y <= HEAD_PITCH * piece.size)

    def spreads(k: int) -> bool:  # line k running over columns, or a line of few heads centred over them
        heads = [p for p in rows[k] if p.middle >= xs[1]]
        alone = len(heads) == 1 and len(xs) > 3 and not continued(heads[0], k)
        if aligned:  # (the band's first line: centred over the columns the lines under it have heads in,
            # but a head whose next line is centred under it: one head set on two lines, 'Self-' over 'TER')
            under = {bisect_right(xs, q.middle) - 1 for row in rows[k + 1:] for q in row} if k == 0 else None
            return bool(heads) and (alone or all(_runs_over(p, xs) or
                                                 _centred_over(p, xs, None if continued(p, k, True) else under)
                                                 for p in heads))
        few = 2 * len(rows[k]) <= len(xs) - 1
        # (the one head of its line: centred over the columns round its own, as near as to its own)
        return alone and bool(_centred_over(heads[0], xs, set(range(len(xs))))) or \
            any(_runs_over(p, xs) for p in rows[k]) or few and any(_centred_over(p, xs) for p in rows[k])

    def ruled(upper: list[_Piece], lower: list[_Piece]) -> bool:  # each head of the line over its rule
        head = max(p.top for p in lower)
        return bool(spanners) and all(any(head - SNAP <= rule.pos <= p.bottom and rule.lo <= p.middle <= rule.hi
                                          for rule in spanners) for p in upper)

    def beside(upper: list[_Piece], lower: list[_Piece]) -> bool:  # heads only where the line above has none
        return not {bisect_right(xs, p.middle) for p in upper} & {bisect_right(xs, p.middle) for p in lower}

    out = []
    for k, (upper, lower) in enumerate(zip(rows, rows[1:], strict=False)):
        if lower is rows[-1] and beside(upper, lower) and not ruled(upper, lower):
            continue  # the band's last line, a stub's head centred on the rows of heads: it is in the row above
        if (spreads(k) and not spreads(k + 1)) or ruled(upper, lower):
            out.append(_between(upper, lower))
    return out


def build_table(region: _Region, items: list[Item], outside: list[Item] | None = None) -> dict[str, Any] | None:
    """Rows of cells for the region (None when it is no table: fewer than two rows or two
    columns hold text; one row will do in a frame a page's end broke). With ``outside``, a
    caption set in the frame's first row and a note in its last (``_caption_and_note``) are no
    rows of it: their lines go there."""
    pieces = _pieces(items)
    if not pieces:
        return None
    if region.vertical:
        _drop_underlines(region, pieces)
        pieces = _cut_at_rules(region, pieces)
    xs, ys = _grid_cells(region, pieces)
    ncols, nrows = len(xs) - 1, len(ys) - 1
    if ncols < 1 or nrows < 1 or ncols * nrows > MAX_GRID:
        return None
    slots: dict[tuple[int, int], list[_Piece]] = {}
    for piece in pieces:
        cx, cy = (piece.x0 + piece.x1) / 2, (piece.top + piece.bottom) / 2
        col = min(ncols - 1, max(0, bisect_right(xs, cx) - 1))
        row = min(nrows - 1, max(0, _row_of(ys, cy)))
        slots.setdefault((row, col), []).append(piece)
    keep_cols = [c for c in range(ncols) if any((r, c) in slots for r in range(nrows))]
    keep_rows = [r for r in range(nrows) if any((r, c) in slots for c in range(ncols))]
    # A frame a page's end broke may hold one row of its table: the rest is over the break.
    least = 1 if region.open else 2
    if len(keep_cols) < 2 or len(keep_rows) < least or _chart(slots, ncols * nrows):
        return None
    xs, ys, slots = _drop_empty(region, xs, ys, slots, keep_cols, keep_rows)
    cells = _spans(region, xs, ys, slots)
    if cells is None or sum(len(r) for r in cells) > MAX_CELLS or not _filled(cells):
        return None
    # Columns read from the text alone: at least two rows that say something in two columns,
    # and no numbered listing (a code box with its line numbers).
    if not region.inner_xs and (sum(sum(bool(c[0]) for c in row) >= 2 for row in cells) < least or
                                _numbered_lines(cells)):
        return None
    heads = _header_rows(cells, slots, len(xs) - 1, region.open == "below")
    if outside is not None:
        first, last = _caption_and_note(cells, len(xs) - 1)
        if first or last:
            lines = {id(p.item): p.item for (r, _), row in slots.items() if r < first or r >= len(cells) - last
                     for p in row if p.item is not None}
            outside += lines.values()
            cells = cells[first:len(cells) - last]
            heads = max(0, heads - first)
    rows = [[_cell(text, cs, rs) for text, cs, rs in row] for row in cells]
    return {"rows": rows, "header_rows": heads}


# How a table's note opens: its source, its notes, how to read it, its key, a footnote's mark.
_NOTE = lazy(r"^(Sources?|Notes?|NOTES?|SOURCES?|Exhibit reads|Reading note|Key|\*)\b")


def _caption_and_note(cells: list[list[tuple[str, int, int]]], ncols: int) -> tuple[int, int]:
    """Rows at the frame's top and foot that are no rows of the table: a first row of one
    cell across it that is a caption ("Exhibit 9 …"), a last such row that is a caption set
    under the table or opens as a note does ("Source:", "Note:", "Exhibit reads:"; a long
    last row without such a word may be the table's own, a list in a cell across it).
    Counts (0 or 1 each); none when fewer than two rows would be left."""
    def across(row: list[tuple[str, int, int]]) -> str | None:
        return row[0][0] if len(row) == 1 and row[0][1] == ncols and ncols >= 2 else None

    first = int((text := across(cells[0])) is not None and is_caption(text))
    tail = across(cells[-1]) if len(cells) - first >= 2 else None
    last = int(tail is not None and (_NOTE.match(tail) is not None or is_caption(tail)))
    return (first, last) if len(cells) - first - last >= 2 else (0, 0)


def _drop_underlines(region: _Region, pieces: list[_Piece]) -> None:
    """Horizontal rules that run through a line of text, just under its baseline or across
    its letters (an underline, a strike, a highlight's edge), part no rows: a cell's border
    leaves room for the descenders. A rule only under baselines that runs on across a column
    rule is a row's border however close the text above sits to it (an underline stays
    inside its cell), unless a rule just under it along most of it is the border (it edges a
    shading)."""
    size = _size(pieces)

    def crosses(edge: _Edge) -> bool:
        if any(0 < edge.pos - e.pos <= SHADED_EM * size and
               min(e.hi, edge.hi) - max(e.lo, edge.lo) >= 0.5 * (edge.hi - edge.lo) for e in region.horizontal):
            return False
        return any(edge.lo + SNAP < v.pos < edge.hi - SNAP and v.lo - JOIN <= edge.pos <= v.hi + JOIN
                   for v in region.vertical)

    def struck(edge: _Edge) -> bool:
        under = through = False
        for p in pieces:
            if p.x0 < edge.hi and p.x1 > edge.lo and p.y - UNDERLINE_EM * p.size < edge.pos < p.y + 0.6 * p.size:
                through = through or edge.pos >= p.y
                under = True
        return through or under and not crosses(edge)

    kept = [e for e in region.horizontal if not struck(e)]
    if len(kept) == len(region.horizontal) or len(kept) < 2:
        return
    region.horizontal = kept
    region.ys = [y for y in region.ys if any(abs(e.pos - y) <= SNAP for e in kept)]


def _cut_at_rules(region: _Region, pieces: list[_Piece]) -> list[_Piece]:
    """Pieces of text that run across a column rule of their row (the cells either side set so
    close that one run draws both: no wide space parts them) cut at their space nearest the rule,
    reckoned by their characters' share of the piece's width: no cell's text crosses a rule. Each
    part is a cell's few words (``CUT_WORDS``), and there is a space for each rule crossed, near
    it (``CUT_NEAR``)."""
    out: list[_Piece] = []
    edges = sorted(region.vertical, key=lambda e: e.pos)
    across = [e.pos for e in edges]
    for piece in pieces:
        if " " not in piece.text:
            out.append(piece)
            continue
        middle = (piece.top + piece.bottom) / 2
        tie = CUT_EM * piece.size
        inside = edges[bisect_right(across, piece.x0 + tie):bisect_left(across, piece.x1 - tie)]
        rules = _positions([e.pos for e in inside if e.lo <= middle <= e.hi])  # (a double rule is one)
        text, width = piece.text, piece.x1 - piece.x0
        cuts = [-1]  # the spaces cut at, after the start
        for rule in rules:
            near = [(abs(piece.x0 + width * (k + 0.5) / len(text) - rule), k)
                    for k in range(cuts[-1] + 1, len(text)) if text[k] == " "]
            if not near or min(near)[0] > CUT_NEAR * piece.size:
                break
            cuts.append(min(near)[1])
        parts = [text[a + 1:b].strip() for a, b in zip(cuts, [*cuts[1:], len(text)], strict=True)]
        if len(cuts) == 1 or len(cuts) <= len(rules) or any(len(part.split()) > CUT_WORDS for part in parts):
            out.append(piece)  # (a line of prose across a chart's gridlines: no cells)
            continue
        bounds = [piece.x0, *(rule + tie / 2 for rule in rules), piece.x1 + tie]  # where each part may start
        for k, part in enumerate(parts):
            if part:
                out.append(_Piece(bounds[k], min(piece.x1, bounds[k + 1] - tie), piece.y, piece.top, piece.bottom,
                                  piece.size, part, piece.bold, piece.item))
    return out


CUT_EM = 0.2  # ems a piece must run past a column rule on each side to be cut at it
CUT_WORDS = 4  # words of each cell's text such a piece holds, at most
CUT_NEAR = 0.5  # ems from the rule its space lies, at most (text over a chart's gridlines crosses them anywhere)


def _chart(slots: dict[tuple[int, int], list[_Piece]], boxes: int) -> bool:
    """Whether a grid is a chart's: its boxes mostly empty (gridlines, bars' outlines) and
    what text it holds only numbers (data labels); a table says in words what it counts."""
    if len(slots) >= CHART_FILLED * boxes:
        return False
    return all(_NUMBER.fullmatch(p.text) for pieces in slots.values() for p in pieces)


def _row_of(ys: list[float], y: float) -> int:
    """The band of ``ys`` (top down) that holds ``y``."""
    lo, hi = 0, len(ys) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if ys[mid + 1] >= y:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1 if lo == len(ys) - 1 else lo


def _drop_empty(region: _Region, xs: list[float], ys: list[float], slots: dict[tuple[int, int], list[_Piece]],
                keep_cols: list[int], keep_rows: list[int]) -> tuple[list[float], list[float],
                                                                   dict[tuple[int, int], list[_Piece]]]:
    """Columns and rows that hold no text (the sliver between a double border, a label's
    box) are merged into their neighbours; of the boundaries between two kept ones, the
    longest ruled stays."""
    new_xs = [xs[0]] + [_best(region.vertical, xs, a + 1, b) for a, b in zip(keep_cols, keep_cols[1:], strict=False)]
    new_ys = [ys[0]] + [_best(region.horizontal, ys, a + 1, b) for a, b in zip(keep_rows, keep_rows[1:], strict=False)]
    col_map = {c: i for i, c in enumerate(keep_cols)}
    row_map = {r: i for i, r in enumerate(keep_rows)}
    moved = {(row_map[r], col_map[c]): v for (r, c), v in slots.items()}
    return new_xs + [xs[-1]], new_ys + [ys[-1]], moved


def _best(edges: list[_Edge], positions: list[float], first: int, last: int) -> float:
    """Of ``positions[first..last]``, the one the rules cover furthest."""
    if first == last:
        return positions[first]
    return max(positions[first:last + 1],
               key=lambda pos: sum((e.hi - e.lo for e in edges if abs(e.pos - pos) <= SNAP), 0.0))


def _spans(region: _Region, xs: list[float], ys: list[float],
           slots: dict[tuple[int, int], list[_Piece]]) -> list[list[tuple[str, int, int]]] | None:
    """Cells with their spans: neighbouring boxes with no rule between them are one cell, but
    in a frame round a table whose columns the text set (``_framed_table``). Where no rule
    stands between two columns, the text decides (``_text_spans``)."""
    ncols, nrows = len(xs) - 1, len(ys) - 1
    parent = list(range(ncols * nrows))
    across = _at(region.vertical, xs) if region.vertical else [[] for _ in xs]
    down = _at(region.horizontal, ys)
    if region.vertical:
        figures = _row_figures(slots, nrows)
        framed = _framed_table(region, slots, ncols, nrows)
        for r in range(nrows):
            # A striped table's plain row (no column rule at all): its text decides.
            plain = bool(region.stripe) and not any(_ruled(across[k], ys[r + 1], ys[r]) for k in range(1, ncols))
            for c in range(ncols):
                # No rule at all on a column boundary in a framed table (columns set by the text): the text decides.
                if c + 1 < ncols and not plain and (across[c + 1] or not framed) and \
                        not _ruled(across[c + 1], ys[r + 1], ys[r]) and \
                        not _apart(slots.get((r, c)), slots.get((r, c + 1))):
                    _union(parent, r * ncols + c, r * ncols + c + 1)
                # No rule at all on a row boundary: the text's lines parted the rows there.
                if r + 1 < nrows and down[r + 1] and not _ruled(down[r + 1], xs[c], xs[c + 1]) and \
                        not (_in_line(slots, figures, r, c) and _in_line(slots, figures, r + 1, c)):
                    _union(parent, r * ncols + c, (r + 1) * ncols + c)
    _text_spans(region, xs, slots, across, parent)
    _centred_rows(xs, ys, slots, down, parent)
    members: dict[int, list[int]] = {}
    for index in range(ncols * nrows):
        members.setdefault(_find(parent, index), []).append(index)
    boxes: dict[int, list[int]] = {}
    for root, group in members.items():
        r0, r1 = min(i // ncols for i in group), max(i // ncols for i in group)
        c0, c1 = min(i % ncols for i in group), max(i % ncols for i in group)
        if (r1 - r0 + 1) * (c1 - c0 + 1) == len(group):
            boxes[root] = [r0, c0, r1, c1]
        else:  # a span that is no rectangle (a broken rule): its boxes stand alone
            boxes.update((i, [i // ncols, i % ncols, i // ncols, i % ncols]) for i in group)
    rows: list[list[tuple[str, int, int]]] = [[] for _ in range(nrows)]
    for root in sorted(boxes, key=lambda k: (boxes[k][0], boxes[k][1])):
        r0, c0, r1, c1 = boxes[root]
        pieces = [p for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) for p in slots.get((r, c), [])]
        rows[r0].append((_cell_text(pieces), c1 - c0 + 1, r1 - r0 + 1))
    return [row for row in rows if row]


def _text_spans(region: _Region, xs: list[float], slots: dict[tuple[int, int], list[_Piece]],
                across: list[list[_Edge]], parent: list[int]) -> None:
    """Where no rule stands on a column boundary (``across``), the text joins boxes: a piece
    running over the boundary spans the columns it covers, a head over the rule drawn under it
    (``_spanned``: under it alone, not a rule under the line's other heads too, a shaded head's
    edge) or, on a line of group heads, centred over empty boxes (``_centred_over``) spans them.
    Two heads of a line centred over one column both: one running over its column spans what it
    covers; of two inside theirs, neither spans more."""
    ncols = len(xs) - 1
    past: dict[int, int] = {}  # each row's heads past the first column, but those running over columns
    columns: dict[int, set[int]] = {}  # the columns each row has text in
    for (r, c), pieces in slots.items():
        past[r] = past.get(r, 0) + (sum(not _runs_over(p, xs) for p in pieces) if c > 0 else 0)
        columns.setdefault(r, set()).add(c)
    centred = {id(p): _centred_over(p, xs, columns.get(r + 1, set()) if past[r] <= 1 or r == 0 else None)
               for (r, _), pieces in slots.items() for p in pieces}
    line: dict[int, list[_Piece]] = {}
    for (r, _), pieces in slots.items():
        line.setdefault(r, []).extend(p for p in pieces if centred[id(p)])
    for heads_on in line.values():  # two heads centred over a column both: one running over spans what it covers
        for a, b in combinations(heads_on, 2):
            if set(centred[id(a)]) & set(centred[id(b)]):
                over = [p for p in (a, b) if _runs_over(p, xs)]
                for p in over or (a, b):
                    centred[id(p)] = []
    heads: dict[int, bool] = {}  # rows of group heads, each over its columns (centred, or running over them)
    for (r, c), pieces in slots.items():  # (the stub's head beside them is none)
        heads[r] = heads.get(r, True) and (c == 0 or all(centred[id(p)] or _runs_over(p, xs) for p in pieces))
    for (r, c), pieces in slots.items():
        for piece in pieces:
            for k in range(c + 1, ncols):
                if not across[k] and piece.x1 > xs[k] + 0.5 * piece.size:
                    _union(parent, r * ncols + c, r * ncols + k)
            for k in range(c - 1, -1, -1):
                if not across[k + 1] and piece.x0 < xs[k + 1] - 0.5 * piece.size:
                    _union(parent, r * ncols + c, r * ncols + k)
            spanned = [] if region.vertical else _spanned(region.spanners, piece, xs, c)
            if any(k != c and (r, k) in slots for k in spanned):
                spanned = []  # a rule under several heads (under the line, a shading's edge): none's own
            if heads[r] and not spanned:
                spanned = [k for k in centred[id(piece)]
                           if not any(across[j] for j in range(min(k, c) + 1, max(k, c) + 1))]
            if all(k == c or (r, k) not in slots for k in spanned):  # a head over empty boxes
                for k in spanned:
                    _union(parent, r * ncols + c, r * ncols + k)


def _centred_rows(xs: list[float], ys: list[float], slots: dict[tuple[int, int], list[_Piece]],
                  down: list[list[_Edge]], parent: list[int]) -> None:
    """A label alone in its box, set midway between the lines of two rows or more (a group's
    label, a stub's head centred on two rows of heads), spans those rows where its column is
    empty in the others and no rule (``down``) parts them: its middle within ``CENTRED_ROWS``
    ems of the middle of their lines, half an em at least off its own row's line, or of the
    middle of their bounds, half an em at least off the middle of its own (a stub's head centred
    on its box beside heads of two lines, level with their first). Of the runs of rows it is
    centred on (two round it, four round those), the widest that takes none of the rows another
    label of its column is centred on at the fewest (labels of groups of two rows each, one
    under the other: each its own two)."""
    ncols, nrows = len(xs) - 1, len(ys) - 1
    lines: dict[int, list[tuple[int, float]]] = {}  # each row's pieces' middles, with their columns
    for (r, c), pieces in slots.items():
        lines.setdefault(r, []).extend((c, (p.top + p.bottom) / 2) for p in pieces)
    middle = {r: median([m for _, m in found]) for r, found in lines.items()}
    runs: dict[tuple[int, int], list[tuple[int, int]]] = {}  # each label's box: the runs it is centred on
    for (r, c), pieces in slots.items():
        if len(pieces) != 1 or not _label_words(pieces[0].text):
            continue
        piece = pieces[0]
        centre = (piece.top + piece.bottom) / 2
        own = [m for j, m in lines[r] if j != c]
        if not own:
            continue
        near = CENTRED_ROWS * piece.size
        apart = abs(median(own) - centre) >= 0.5 * piece.size  # off its own row's line
        boxed = abs((ys[r] + ys[r + 1]) / 2 - centre) >= 0.5 * piece.size  # off the middle of its own box
        found = [(a, b) for a in range(max(0, r - MAX_SPAN_ROWS + 1), r + 1)
                 for b in range(max(r, a + 1), min(nrows, a + MAX_SPAN_ROWS))
                 if a in middle and b in middle and
                 (apart and abs((middle[a] + middle[b]) / 2 - centre) <= near or
                  boxed and abs((ys[a] + ys[b + 1]) / 2 - centre) <= near) and
                 not any((k, c) in slots for k in range(a, b + 1) if k != r) and
                 not any(_ruled(down[k], xs[c], xs[c + 1]) for k in range(a + 1, b + 1))]
        if found:
            runs[(r, c)] = sorted(found, key=lambda run: (run[0] - run[1], run[0]))  # the widest first
    fewest = {box: min(found, key=lambda run: (run[1] - run[0], run[0])) for box, found in runs.items()}
    for (r, c), found in runs.items():
        taken = {k for (q, j), (a, b) in fewest.items() if j == c and q != r for k in range(a, b + 1)}
        chosen = next(((a, b) for a, b in found if not taken.intersection(range(a, b + 1))), None)
        if chosen is not None:
            for k in range(chosen[0], chosen[1] + 1):
                _union(parent, r * ncols + c, k * ncols + c)


CENTRED_ROWS = 0.3  # ems a label's middle may lie off the middle of the lines of the rows it is centred on
MAX_SPAN_ROWS = 4  # rows a label centred on them may span


def _runs_over(piece: _Piece, xs: list[float]) -> bool:
    """Whether a piece runs half an em or more over an inner column boundary on both sides."""
    return any(piece.x0 < x - 0.5 * piece.size and piece.x1 > x + 0.5 * piece.size for x in xs[1:-1])


SPANNER_GAP = 1.0  # ems from a head's foot down to the rule under it at the most
MAX_SPANNERS = 60  # short rules inside one table read as rules under its group heads


def _framed_table(region: _Region, slots: dict[tuple[int, int], list[_Piece]], ncols: int, nrows: int) -> bool:
    """Whether a frame holds a table whose columns the text set: a rule inside it (under the
    head) or none at all (tbl's ``box``), three rows or more (two in a frame a page's end broke
    under them: a table's heads, its body on the next page), and half of them at least with
    text in most columns, three at least (a diagram's boxes drawn in a frame label a few places
    on each line), or of two columns, each row holding both. Its empty boxes are empty cells,
    not room a neighbour's text spans."""
    filled = [0] * nrows
    for r, _ in slots:
        filled[r] += 1
    full = sum(n >= max(FRAMED_COLUMNS, FILLED_COLUMNS * ncols) for n in filled)
    if ncols == 2:  # a label and its value a row: every row holds both
        full = nrows if all(n == 2 for n in filled) else 0
    least = 2 if region.open == "below" else 3
    return (len(region.ys) > 2 or not region.inner_xs) and nrows >= least and full >= 0.5 * nrows


def _centred_over(piece: _Piece, xs: list[float], over: set[int] | None = None) -> list[int]:
    """The columns, two or more and the first (the rows' labels) not among them, a head (a few
    words) inside one column, or running over into a neighbour, is centred over (a group's head
    set in a cell spanning them, with no rule to say so): its middle within ``GROUP_OFF_EM`` of
    the middle of their bounds (a typesetter centres it on its cell, not on the text under it)
    and nearer by ``CENTRED_EM`` than to the middle of its own columns' (those it covers), or,
    given the columns the line under it has heads in (``over``), as near as to its own
    columns' when the head is the line's one head past the first column (but heads running
    over columns) or the line is the table's first, and stands over heads in each of them
    (centred over an odd number of columns of one width, it stands in the middle one, centred
    there too). The nearest such run; of those about as near (``OFF_TIE``), the widest."""
    own = bisect_right(xs, piece.middle) - 1
    if not 0 < own < len(xs) - 1 or not _label_words(piece.text):
        return []
    first, last = own, own  # the columns it covers (a head wider than its column runs over)
    while first > 1 and piece.x0 < xs[first] - 0.5 * piece.size:
        first -= 1
    while last < len(xs) - 2 and piece.x1 > xs[last + 1] + 0.5 * piece.size:
        last += 1
    if piece.x0 < xs[first] - 0.5 * piece.size:
        return []  # over the rows' labels
    away = abs(piece.middle - (xs[first] + xs[last + 1]) / 2)
    runs: list[tuple[float, int, int]] = []
    for k in range(max(1, first - 3), first + 1):
        for m in range(max(last, k + 1), min(len(xs) - 1, last + 4)):
            off = abs(piece.middle - (xs[k] + xs[m + 1]) / 2)
            nearer = off + CENTRED_EM * piece.size <= away or over is not None and set(range(k, m + 1)) <= over
            if off <= GROUP_OFF_EM * piece.size and nearer:
                runs.append((off, k, m))
    if not runs:
        return []
    least = min(off for off, _, _ in runs) + OFF_TIE * piece.size  # of those as near as the nearest, the widest
    _, _, k, m = max((m - k, -off, k, m) for off, k, m in runs if off <= least)
    return list(range(k, m + 1))


CENTRED_EM = 0.5  # ems a group head's middle may lie off the middle of the columns it is centred over
GROUP_OFF_EM = 0.75  # ... (``_centred_over``: off the middle of their bounds, a typesetter's measure, not the text's)
OFF_TIE = 0.25  # ems: runs a head is centred over this near alike (columns of one width round its own)


def _spanned(spanners: list[_Edge], piece: _Piece, xs: list[float], column: int) -> list[int]:
    """The columns a head spans by the rule drawn under it over them (a booktabs
    ``cmidrule``): those whose middles the rule runs over, the head's own among them."""
    for rule in spanners:
        if 0 < piece.bottom - rule.pos <= SPANNER_GAP * piece.size and rule.lo <= piece.middle <= rule.hi:
            columns = [k for k in range(len(xs) - 1) if rule.lo <= (xs[k] + xs[k + 1]) / 2 <= rule.hi]
            return columns if column in columns else []
    return []


def _row_figures(slots: dict[tuple[int, int], list[_Piece]], nrows: int) -> list[list[tuple[float, int]]]:
    """Each row's figures with digits, as (baseline, column), in baseline order: read once for
    all the boxes of a grid."""
    rows: list[list[tuple[float, int]]] = [[] for _ in range(nrows)]
    for (r, c), pieces in slots.items():
        rows[r] += [(p.y, c) for p in pieces if _figure(p.text) and any(ch.isdigit() for ch in p.text)]
    for row in rows:
        row.sort()
    return rows


def _in_line(slots: dict[tuple[int, int], list[_Piece]], figures: list[list[tuple[float, int]]], r: int,
             c: int) -> bool:
    """Whether box (r, c) holds words and all of them stand on the baselines of figures with
    digits (``_row_figures``) in two other boxes of its row at least: a row's label in a column
    left unruled between rows, not a line of a cell that runs on into the box below (nor a
    line of a head of several lines, whose neighbours are heads)."""
    own = slots.get((r, c))
    if not own or not any(ch.isalpha() for p in own for ch in p.text):
        return False
    row = figures[r]
    for piece in own:
        slack, others = 0.3 * piece.size, set[int]()
        for y, k in row[bisect_left(row, (piece.y - slack, -1)):]:
            if y > piece.y + slack or len(others) >= 2:
                break
            if k != c:
                others.add(k)
        if len(others) < 2:
            return False
    return True


def _apart(left: list[_Piece] | None, right: list[_Piece] | None) -> bool:
    """Whether two neighbouring boxes with no rule between them hold text of two columns:
    all of one side's text ends a column gap before the other's starts (a rule missing over
    a header, not one heading spread over both)."""
    if not left or not right:
        return False
    size = max(p.size for p in left + right)
    return min(p.x0 for p in right) - max(p.x1 for p in left) >= MIN_GAP_EM * size


def _filled(rows: list[list[tuple[str, int, int]]]) -> bool:
    """Whether the cells are filled like a table's: most rows say something in two cells or
    more (a cell spanning rows says it in each, where two rows at least have two cells of
    their own: a diagram's boxes have one), or (a form to fill in) the first column labels
    every row and the first row every column. A chart's gridlines hold one scattered label
    per row."""
    said = [0] * len(rows)  # cells saying something in each row, a cell spanning rows in each
    for r, row in enumerate(rows):
        for text, _, rowspan in row:
            if text:
                for k in range(r, min(len(rows), r + rowspan)):
                    said[k] += 1
    own = sum(sum(bool(c[0]) for c in row) >= 2 for row in rows)  # rows with two cells of their own
    full = sum(n >= 2 for n in said)
    if own >= 2 and full >= MIN_FILLED * len(rows) or own >= MIN_FILLED * len(rows):
        return True
    labels = all(row[0][0] for row in rows[1:])
    heads = all(c[0] for c in rows[0][1:]) and len(rows[0]) >= 2
    return labels and heads


_LEADING_NUMBER = lazy(r"\s*(\d{1,6})\b")


def _numbered_lines(rows: list[list[tuple[str, int, int]]]) -> bool:
    """Whether the first column, read from the text alone, numbers the lines from 1 (a code
    listing's line numbers, a numbered legal text): 1, 2, 3 down the rows, the first row
    included; or from further on, in two columns (a listing continued from the page before).
    A table that numbers its rows heads that column ("No.", "#") above them; a listing's
    title (a first row of one cell across it) heads nothing."""
    if len(rows) > 1 and len(rows[0]) == 1:
        rows = rows[1:]
    numbers = []
    for row in rows:
        found = _LEADING_NUMBER.match(row[0][0]) if row else None
        if found is not None:
            numbers.append(int(found.group(1)))
    if len(numbers) < 2 or len(numbers) < 0.5 * len(rows) or not rows[0]:
        return False
    if _LEADING_NUMBER.match(rows[0][0][0]) is None:
        return False
    # A listing continued from the page before (or parted from its first lines) numbers on from
    # where it was: a number and a line of code, two columns and no more, down many rows, or a
    # few rows whose lines read as code.
    if numbers[0] != 1 and (len(numbers) < LISTING_LINES and not _code_lines(rows) or
                            any(len(row) > 2 for row in rows)):
        return False
    return all(b == a + 1 for a, b in zip(numbers, numbers[1:], strict=False))


LISTING_LINES = 5  # numbered lines of a listing continued from the page before, at the least
CODE_ROWS = 2 / 3  # of a few numbered rows whose second cell reads as a line of code, for a listing
_CODE_END = (";", "{", "}", ",", "(")  # how a line of code in the C family ends


def _code_lines(rows: list[list[tuple[str, int, int]]]) -> bool:
    """Do most of the rows' second cells read as lines of code: ending as a statement or a block
    does (``_CODE_END``) or holding a comment?"""
    code = sum(len(row) == 2 and (row[1][0].rstrip().endswith(_CODE_END) or "//" in row[1][0]) for row in rows)
    return len(rows) >= 3 and code >= CODE_ROWS * len(rows)


def _union(parent: list[int], a: int, b: int) -> None:
    ra, rb = _find(parent, a), _find(parent, b)
    if ra != rb:
        parent[max(ra, rb)] = min(ra, rb)


def _at(edges: list[_Edge], positions: list[float]) -> list[list[_Edge]]:
    """The rules lying on each of ``positions`` (sorted either way), found once per table."""
    order = sorted(range(len(positions)), key=positions.__getitem__)
    ranked = [positions[i] for i in order]
    found: list[list[_Edge]] = [[] for _ in positions]
    for edge in edges:
        for k in range(bisect_left(ranked, edge.pos - SNAP), bisect_right(ranked, edge.pos + SNAP)):
            found[order[k]].append(edge)
    return found


def _ruled(edges: list[_Edge], lo: float, hi: float) -> bool:
    """Whether the rules (all on one line) cover most of [lo, hi]."""
    lo, hi = min(lo, hi), max(lo, hi)
    covered = sum((max(0.0, min(hi, edge.hi) - max(lo, edge.lo)) for edge in edges), 0.0)
    return covered >= 0.5 * (hi - lo)


def _cell(text: str, colspan: int, rowspan: int) -> dict[str, Any]:
    cell: dict[str, Any] = {"text": text}
    if colspan > 1:
        cell["colspan"] = colspan
    if rowspan > 1:
        cell["rowspan"] = rowspan
    return cell


def _header_rows(cells: list[list[tuple[str, int, int]]], slots: dict[tuple[int, int], list[_Piece]],
                 ncols: int, broken: bool = False) -> int:
    """The header: the first row, and the rows below it while a cell above still spans
    into them or spreads over several columns (a grouped header), unless the row under the
    spread is one of data (``_data_row``). The last row is the body's, unless a page's end
    broke the table under it (``broken``: its body is on the next page)."""
    header = 1
    reach = max((rs for _, _, rs in cells[0]), default=1)
    spread = any(cs > 1 for _, cs, _ in cells[0]) and len(cells[0]) < ncols and \
        not (len(cells) > 1 and _data_row(cells[1]))
    while header < len(cells) - (not broken) and (header < reach or spread):
        spread = False
        reach = max(reach, header + max((rs for _, _, rs in cells[header]), default=1))
        header += 1
    return header


def _data_row(row: list[tuple[str, int, int]]) -> bool:
    """A row that names itself in words in its first cell and gives figures in all the others
    (two at least). A unit in brackets under a head ("(ft)") names no row."""
    label = row[0][0].strip()
    rest = [text for text, _, _ in row[1:] if text]
    return any(ch.isalpha() for ch in label) and not (label.startswith("(") and label.endswith(")")) and \
        len(rest) >= 2 and all(_figure(text) for text in rest)


# --- the page ---------------------------------------------------------------------------------

def table_item(region: _Region, table: dict[str, Any], items: list[Item]) -> Item:
    """One item standing for the whole table in the page's reading order."""
    text = table_text(table["rows"])
    size = sorted(i.size for i in items)[len(items) // 2]
    top = max(i.y1 for i in items)
    return Item(text=text, x0=min(region.x0, min(i.x0 for i in items)), y0=min(region.y0, min(i.y0 for i in items)),
                x1=max(region.x1, max(i.x1 for i in items)), y1=max(region.y1, top), y=max(i.y for i in items),
                size=size, kind="table", table=table)


def _header_above(region: _Region, rows: list[list[Item]]) -> None:
    """A grid whose top rule has a line of column heads just above it, one head over each of
    some of its columns and none across a column rule (a header set on the page's ground,
    the body boxed): that line is the grid's first row, the column rules read up to it."""
    inner = region.inner_xs
    if not region.vertical or not inner:
        return
    above = [row for row in rows if row and min(i.y0 for i in row) >= region.y1 - SNAP]
    if not above:
        return
    row = min(above, key=lambda r: min(i.y0 for i in r))
    size = max(i.size for i in row)
    if len(row) < 2 or min(i.y0 for i in row) - region.y1 > 1.5 * size or \
            any(i.kind != "line" or i.x0 < region.x0 - SNAP or i.x1 > region.x1 + SNAP for i in row):
        return
    if any(i.x0 < x < i.x1 for i in row for x in inner):
        return
    top = max(i.y1 for i in row) + 1.0
    for edge in region.vertical:
        if edge.hi >= region.y1 - SNAP:
            edge.hi = top
    region.y1 = top


def _plain_row_below(region: _Region, rows: list[list[Item]]) -> None:
    """A striped table's last row left plain under its last shaded one: the line just under it,
    within a plain row's height, of two pieces at least, each inside one of its columns. (The
    other column's lines beside a table set in one of two, wholly to one side, are none.)"""
    below = [[i for i in row if i.x1 > region.x0 and i.x0 < region.x1] for row in rows]
    below = [row for row in below if row and max(i.y1 for i in row) <= region.y0 + SNAP]
    if not region.stripe or not below:
        return
    row = max(below, key=lambda r: max(i.y1 for i in r))
    if any(i.kind != "line" for i in row) or region.y0 - min(i.y0 for i in row) > region.stripe + SNAP:
        return
    pieces = _pieces(row)
    if len(pieces) < 2 or not _within_columns(region, pieces):
        return
    region.y0 = min(i.y0 for i in row) - 1.0


def _within_columns(region: _Region, pieces: list[_Piece]) -> bool:
    """Does each piece lie inside one of the region's columns (no column rule across it)?"""
    inner = region.inner_xs
    return all(region.x0 - SNAP <= p.x0 and p.x1 <= region.x1 + SNAP and not any(p.x0 < x < p.x1 for x in inner)
               for p in pieces)


BAND_PITCH = 2.0  # sizes of space at most from a head band's foot, or a row's foot, down to the next row's top


def _rows_under_head_band(region: _Region, rows: list[list[Item]]) -> None:
    """A table of two columns whose head alone is boxed (a shaded band of one row, a head in
    each column) and whose rows are set plain under it: the lines just under the band, each
    ``BAND_PITCH`` or less under the one above, of two pieces at least each inside one of its columns,
    one in its first, are its rows. The other column's lines beside them, wholly outside the
    band's width, are passed over."""
    inner = region.inner_xs
    if not region.vertical or len(inner) != 1 or len(region.ys) > 2 or region.stripe:
        return  # wider tables' plain rows are read by their alignment (``unruled_tables``)
    heads = [[i for i in row if region.holds(i)] for row in rows]
    heads = [row for row in heads if row]
    edges = [region.x0, *inner, region.x1]
    if len(heads) != 1 or len({bisect_right(edges, (i.x0 + i.x1) / 2) for i in heads[0]}) < len(edges) - 1:
        return  # one line of heads, one in each column
    bottom, size = region.y0, max(i.size for i in heads[0])
    for row in sorted((r for r in rows if r and max(i.y1 for i in r) < region.y0 - SNAP),
                      key=lambda r: -max(i.y for i in r)):
        cells = [i for i in row if i.x1 > region.x0 - SNAP and i.x0 < region.x1 + SNAP]
        if not cells:
            continue
        pieces = _pieces(cells)
        top = max(i.y1 for i in cells)
        if bottom - top > BAND_PITCH * size or len(pieces) < 2 or any(i.kind != "line" for i in cells) or \
                not _within_columns(region, pieces) or not any(p.x1 <= inner[0] for p in pieces):
            break
        bottom = min(i.y0 for i in cells) - 1.0
    region.y0 = min(region.y0, bottom)


def find_tables(rows: list[list[Item]], rules: Rules) -> list[list[Item]]:
    """The page's rows (baseline groups, top down) with each table's lines replaced by one
    ``table`` item, placed where the table's first line was; ``rules``: the page's (``read_rules``)."""
    horizontal, vertical, touching = rules
    grids = joined_grids(grid_regions(horizontal, vertical))
    feet = _column_feet(horizontal, vertical, rows) if any(r.open == "above" for r in grids) else []
    regions = [r for r in grids if not r.open or _broken_by_page(r, rows) or _broken_by_column(r, feet)]
    for region in regions:
        _header_above(region, rows)
        _plain_row_below(region, rows)
        _rows_under_head_band(region, rows)
    regions = _headed_stacks(regions, stacked_regions(horizontal, regions, rows, _head_rows(regions)))
    if not regions:
        return [list(row) for row in rows if row]  # most pages: no rules that make a table
    for region in regions:
        spanners = [e for e in touching if region.y0 + SNAP < e.pos < region.y1 - SNAP and
                    region.x0 - SNAP <= e.lo and e.hi <= region.x1 + SNAP and
                    (e.lo > region.x0 + SNAP or e.hi < region.x1 - SNAP)]
        # Many short rules inside a table are its boxes' sides, not rules under a few heads;
        # left out, they cost nothing per piece of text on a hostile page.
        region.spanners = spanners if len(spanners) <= MAX_SPANNERS else []
    # The innermost region first: a line inside a grid that is itself inside a frame of rules
    # (the page's border, a box around a figure and its table) is the grid's, and what a
    # region that makes no table held goes back to the regions around it.
    regions.sort(key=lambda r: ((r.x1 - r.x0) * (r.y1 - r.y0), -r.y1))
    claimed: dict[int, _Region] = {}
    tables: dict[int, Item] = {}
    for region in regions:
        for row in rows:
            for item in row:
                if id(item) not in claimed and item.kind == "line" and region.holds(item):
                    claimed[id(item)] = region
                    region.items.append(item)
        if not region.items:
            continue
        outside: list[Item] = []
        table = build_table(region, region.items, outside)
        if table is not None:
            for item in outside:  # a caption or a note set in the table's frame: lines of the page
                del claimed[id(item)]
            region.items = [i for i in region.items if id(i) in claimed]
            tables[id(region)] = table_item(region, table, region.items)
        else:
            for item in region.items:
                del claimed[id(item)]
            region.items = []
    out: list[list[Item]] = []
    placed: set[int] = set()
    for row in rows:
        kept = []
        for item in row:
            owner = claimed.get(id(item))
            if owner is None:
                kept.append(item)
            elif id(owner) not in placed:
                placed.add(id(owner))
                kept.append(tables[id(owner)])
        if kept:
            out.append(kept)
    return out


WIDE_CELL = 0.3  # of the page width: a wider segment is a description, at most one to a row
COLUMN_FILL = 0.85  # of a column's width: a segment one side of the gutter filling this much is its text
RAGGED_FILL = 0.6  # ... or this much, alone on its side, from its left edge, in words (``RAGGED_WORDS``): set ragged
RAGGED_WORDS = 4
TEXT_PITCH = 1.6  # ems from a line of a column's text down to the next line of its paragraph
DISPLAY_PITCH = 2.5  # ems from a line of a column's text down to a display set in the column, and on to the next
DISPLAY_SPACE = 1.25  # of the column's line pitch, the space a display leaves above and below it at the least


def unruled_tables(rows: list[list[Item]], width: float, known: float | None = None) -> list[list[Item]]:
    """Runs of at least two consecutive baselines with three or more narrow segments (one
    wide cell, a description, allowed) are a table without rules; columns from alignment.
    The lines of a column's text beside the run (``_beside_text``) are not its cells; what a row
    keeps without them has three cells still, counted by the wide gaps between its runs (a row
    of a table in one column is often drawn as one segment, the text beside it another). So has
    a row of narrow segments alone whose runs part at wide spaces into cells of words
    (``_cells_of_words``): one text object may draw a row's first cells, another its last. A run
    ends at a row whose cells lie wholly beside the span its rows take across (``_beyond``:
    another table's, set in the other column). The lines of heads just over a run are its first
    rows (``_head_above``): two at most, as many as ``HEAD_LINES`` where a head's next line is
    among them (heads wrapped onto lines of their own); a label's line over its figures counts
    for none. ``known``: the gutter the page before was read by, for a page too bare to show its
    columns (``_beside_text``)."""
    def is_row(k: int) -> bool:
        group, beside = parts[k]
        if sum(i.x1 - i.x0 >= WIDE_CELL * width for i in group) > 1 or any(i.kind != "line" for i in group):
            return False
        if len(group) >= 3:
            return True
        alike = _spaced_alike(parts, k, near)
        if _gapped(group) < 3 and not alike:
            return k in pairs
        if beside and len(group) >= 2:
            return True
        columned = alike or _gaps_lined_up(parts, k, near)
        return _narrow_parts(group, width, columned) and _cells_of_words(group, columned)

    def near(upper: int, lower: int) -> bool:
        above, below = (parts[k][0] or rows[k] for k in (upper, lower))
        return above[0].y - below[0].y <= 3.0 * below[0].size

    parts, gutter = _beside_text(rows, width, known)
    pairs = _labelled_figures(parts, width, near)
    for k, cells in pairs.items():  # a column's lines beside a table of two columns set in the other
        parts[k] = (cells, [*parts[k][1], *(i for i in parts[k][0] if i not in cells)])
    out: list[list[Item]] = []
    index = 0
    while index < len(rows):
        end = index
        passed: dict[int, tuple[list[Item], list[Item]]] = {}  # rows read as the other column's, as they were
        reach = _Reach(index)
        while end < len(rows) and end - index < MAX_TABLE_LINES:
            # (the span is looked for only where a row may be passed over: one line, or the other column's)
            # (and a row wholly beside a table of labels and figures: ``_labelled_figures`` passed it)
            paired = end - 1 in pairs
            after = _past_beside(parts, end, reach.to(parts, end), rows=paired) \
                if end > index and (len(parts[end][0]) == 1 or not parts[end][0] or paired) else end
            if after > end and after < len(rows) and after - index < MAX_TABLE_LINES and near(end - 1, after) and \
                    is_row(after) and not (end - index >= 2 and _beyond(parts[after][0], reach.to(parts, end))):
                passed.update(_set_beside(parts, end, after))  # the other column's lines between a table's rows
                end = after
                continue
            if end - index >= 2 and parts[end][0] and _beyond(parts[end][0], reach.to(parts, end)):
                break  # another table's row, in the other column
            if (is_row(end) or end - index >= 2 and not parts[end][1] and
                    _in_columns(parts[end][0], [parts[k][0] for k in range(index, end)])) and \
                    (end == index or near(end - 1, end)):
                end += 1
                continue
            resume = _bridged(parts, index, end, near, is_row) if end > index else None
            if resume is None:
                break
            end = resume + 1
        if end - index >= 2 and end < len(rows) and near(end - 1, end) and _label_ends(parts, index, end):
            end += 1  # the last label's last line, under its figures
        if passed and end - index >= 2 and parts[index][0]:  # a stub's head passed over beside group heads
            span, opening = reach.to(parts, end), min(i.x0 for i in parts[index][0])
            for k, part in passed.items():  # (a label left of the first row, within the span all the rows take)
                if span is not None and part[0] and \
                        all(span[0] <= i.x0 and i.x1 <= opening and _label_words(i.text) for i in part[0]):
                    parts[k] = part
        table = _run_table(parts, index, end) if end - index >= 2 else None
        start, heads = index, 0
        below = [item for cells, _ in parts[index:end] for item in cells]  # the table's cells, its columns
        across = reach.to(parts, end) if table is not None else None
        wrapped = False  # a line of heads' next lines above it: heads set on several lines, the band deeper
        while across is not None and start > 0 and heads < (HEAD_LINES if wrapped else HEAD_ABOVE):  # (a table)
            # past the other column's lines, between a head and the rows of a table set in one
            up = max(0, _past_beside(parts, start - 1, across, -1))
            if not (len(out) > index - up and out[up - index] is rows[up] and near(up, start) and
                    _head_above(parts[up], parts[index][0], below, width, across)):
                break
            _set_beside(parts, up + 1, start)
            # the lines output as they came, now heads of the table under them (a label's line, set
            # over its figures left of them, is none)
            opening = min(i.x0 for i in parts[index][0])
            start, heads = up, heads + (heads > 0 or any(i.x1 >= opening for i in parts[up][0]))
            wrapped = wrapped or _next_lines(parts[up][0])
        start = _heads_whole(parts, start, index)  # (each head's next line taken with its head)
        # a head's next line passed over as beside the rows (past their reach) is its head's, with it
        kept = {} if start == index else {
            k: parts[k] for k, part in passed.items() if part[0] and _next_lines(part[0]) and
            all(_head_goes_on(item, [i for cells, _ in parts[start:k] for i in cells]) for item in part[0])}
        for k in kept:
            parts[k] = passed[k]
        if start < index and (headed := _run_table(parts, start, end)) is not None:
            table = headed
            del out[start - index:]
        else:
            for k, part in kept.items():
                parts[k] = part
            start = index
        if table is not None:
            two = _side_by_side(parts, start, end, gutter, _plain_above(out, rows, index)) if start == index else None
            if two is not None and two[1]:
                for k, cells in two[1].items():  # (rows of one side's table set beside the other's caption)
                    out[k - index] = [item for item in out[k - index] if item not in cells]
                out[:] = [row for row in out if row]
            out.append(two[0] if two is not None else [table])
            out += [text for _, text in parts[start:end] if text]
            index = end
        else:
            for k, part in passed.items():  # no table: those rows are looked at again as they were
                parts[k] = part
            out.append(rows[index])
            index += 1
    return out


def _plain_above(out: list[list[Item]], rows: list[list[Item]], index: int) -> int:
    """How many rows right above ``rows[index]`` were put out as they came (no table's): the
    rows ``out`` ends with, ``rows[index - n:index]``."""
    n = 0
    while n < index and n < len(out) and out[-1 - n] is rows[index - 1 - n]:
        n += 1
    return n


def _side_by_side(parts: list[tuple[list[Item], list[Item]]], start: int, end: int,
                  gutter: float | None, plain: int = 0) -> tuple[list[Item], dict[int, list[Item]]] | None:
    """Two tables set side by side, one in each column of the page, their rows on shared
    baselines (a typesetter's baseline grid): no cell of the run crosses the gutter between the
    page's two columns (``_beside_text``'s), each side's cells make a table of their own, and
    the two sides part in their rows (a row with cells one side only, one table longer than the
    other, or starting higher: rows of one side's cells right above the run, in its columns,
    beside the other column's text, such as the other table's caption, ``_side_above``, of the
    ``plain`` rows above put out as they came); the page is set in two columns right above or
    below the run (lines both sides of the gutter), or its rows or those above show it (a
    column's text beside the other's cells, ``_text_beside_cells``). A table across the page
    whose columns happen to part at the gutter fills its rows on both sides. A side of one row,
    where no row of the run holds cells both sides, is another table's row left over in its
    column: its cells stay as they are. Returns the two tables (or the one, and that row's
    cells) and the cells taken from rows above the run (by row); None for any other run."""
    if gutter is None:
        return None
    run = [cells for cells, _ in parts[start:end]]
    if any(i.x0 < gutter < i.x1 for cells in run for i in cells):
        return None
    sides = [[[i for i in cells if i.x1 <= gutter] for cells in run],
             [[i for i in cells if i.x0 >= gutter] for cells in run]]
    higher = {s: _side_above(parts, start, plain, gutter, sides[s], s == 1) for s in (0, 1)}
    if all(bool(left) == bool(right) for left, right in zip(*sides, strict=True)) and not any(higher.values()):
        return None
    top = start - max((len(up) for up in higher.values()), default=0)
    near = [parts[k] for k in (*range(max(0, top - NEAR_ROWS), top), *range(end, min(len(parts), end + NEAR_ROWS)))]
    if not any(higher.values()) and not any(_text_beside_cells(parts[k], gutter) for k in range(start, end)) and \
            not any(any(i.x1 <= gutter for i in cells + text) and any(i.x0 >= gutter for i in cells + text)
                    for cells, text in near):
        return None
    tables: list[Item] = []
    apart = not any(left and right for left, right in zip(*sides, strict=True))  # (no baseline shared)
    for s, side in enumerate(sides):
        side = [*higher[s], *side]
        filled = [k for k, cells in enumerate(side) if cells]
        if len(filled) == 1 and apart and not higher[s]:
            tables += side[filled[0]]  # another table's row left over, in its column: no row of this one
            continue
        if len(filled) < 2:
            return None
        table = _run_table([(cells, []) for cells in side[filled[0]:filled[-1] + 1]], 0, filled[-1] + 1 - filled[0])
        if table is None:
            return None
        tables.append(table)
    taken = {start - len(up) + k: cells for up in higher.values() for k, cells in enumerate(up) if cells}
    return tables, taken


def _text_beside_cells(part: tuple[list[Item], list[Item]], gutter: float) -> bool:
    """Does a row hold a column's text one side of the gutter and cells only the other side?"""
    cells, text = part
    return bool(cells and text) and (all(i.x1 <= gutter for i in text) and all(i.x0 >= gutter for i in cells) or
                                     all(i.x0 >= gutter for i in text) and all(i.x1 <= gutter for i in cells))


def _side_above(parts: list[tuple[list[Item], list[Item]]], start: int, plain: int, gutter: float,
                side: list[list[Item]], right: bool) -> list[list[Item]]:
    """The rows right above a run of two tables set side by side that hold cells of one side's
    table alone (``right``: the right-hand one), up to ``plain`` rows: each within the span of
    that side's cells in the run, its first cell where they start, no more cells than their
    widest row holds, on the other side of the gutter one line of words at most (no column gap
    in it), one of those lines that column's text or a caption (the other table's); rows of
    such a line alone passed over, the rows within a line's pitch of each other (three of their
    size). The rows' cells from the highest one holding any (none when none does)."""
    cells = [i for row in side for i in row]
    if not cells:
        return []
    x0, x1, most = min(i.x0 for i in cells), max(i.x1 for i in cells), max(map(len, side))
    out: list[list[Item]] = []
    below = max((row for row in side if row), key=lambda row: row[0].y)[0]
    captioned = False
    for k in range(start - 1, start - plain - 1, -1):
        row = [*parts[k][0], *parts[k][1]]
        here = [i for i in row if (i.x0 >= gutter if right else i.x1 <= gutter)]
        there = [i for i in row if (i.x1 <= gutter if right else i.x0 >= gutter)]
        if len(here) + len(there) < len(row) or len(here) > most or len(there) > 1 or not row or \
                any(i.kind != "line" or _wide_gaps(i) for i in there) or \
                here and (here[0].y - below.y > 3.0 * here[0].size or abs(here[0].x0 - x0) > here[0].size or
                          any(i.x0 < x0 - i.size or i.x1 > x1 + i.size for i in here)):
            break
        captioned = captioned or any(i in parts[k][1] or is_caption(i.text) for i in there)
        out.insert(0, here)
        below = here[0] if here else there[0]
    while out and not out[0]:
        del out[0]
    return out if captioned else []


PAIR_ROWS = 2  # rows of a label and a figure, at the least, under a bold head, for a table of two columns
RISING_ROWS = 3  # such rows whose whole numbers rise, from which they are a contents page's (two rise as often as not)
REACH_EMS = 4.0  # ems either side of such a table's head within which its rows' cells lie


def _labelled_figures(parts: list[tuple[list[Item], list[Item]]], width: float,
                      near: Callable[[int, int], bool]) -> dict[int, list[Item]]:
    """The rows of tables of two columns, each with its cells: a label and a figure a wide
    space apart, on ``PAIR_ROWS`` lines or more on end under a head of two parts in bold, the
    spaces of all of them (the head's too) clear at one x; the figures not a contents page's
    numbers (rising page by page, ``RISING_ROWS``), no label a description's width. A line of the other column's
    prose on the same baseline, wholly to one side, is no cell of theirs (the head's too, drawn as
    one object of two parts a column gap from it), and a row wholly left
    of the head's reach or starting right of the head's end (the other column's heading, in one
    part or two, a line of its text) is passed over."""
    def cells_of(k: int, span: tuple[float, float] | None = None) -> list[Item]:
        group = parts[k][0]
        if span is None:
            narrow = [i for i in group if i.x1 - i.x0 < WIDE_CELL * width]
        else:  # under a head: what lies within reach of it (the other column's lines are beyond);
            # a figure however far (set flush right in a wide column, its head flush left); a
            # first label anywhere left (``span[0]`` unbounded) that is no line of a column (no
            # sentence's end, a cell's few words)
            narrow = [i for i in group if i.x1 > span[0] and (i.x0 < span[1] or _figure(i.text)) and
                      (span[0] > -math.inf or i.x1 - i.x0 < WIDE_CELL * width and
                       len(i.text.split()) <= CELL_WORDS and not _STOP.search(i.text))]
        if not narrow or any(i.kind != "line" or i.code is not None for i in narrow):
            return []
        left, right = min(i.x0 for i in narrow), max(i.x1 for i in narrow)
        others = [i for i in group if i not in narrow]
        if any(i.x1 > left and i.x0 < right or any(_figure(text) for _, _, text in i.parts) for i in others):
            return []  # a line across the pair, or more of a table's cells: not the other column's
        return narrow

    def pair(k: int, span: tuple[float, float] | None = None, head: bool = False) -> \
            tuple[float, float, str, str, list[Item]] | None:
        """Row ``k`` as two cells: where the space between them starts and ends, the label,
        the figure, and the cells. A head's two may stand closer than a column gap (a head set
        flush left in its column, beside the widest label): the rows' spaces, clear where the
        head's is, say it is one; so may a row's, wider than any word space (``LABEL_GAP_EM``:
        the widest label beside a figure set flush right, a browser's cells padded close)."""
        cells = cells_of(k, span)
        if head and len(cells) > 1:  # a head drawn as one, the other column's line on its baseline
            drawn = [i for i in cells if len(i.parts) == 2 and i.bold_all]
            clear = MIN_GAP_EM * max(i.size for i in cells)
            if len(drawn) == 1 and all(_beyond([i], (drawn[0].x0 - clear, drawn[0].x1 + clear))
                                       for i in cells if i is not drawn[0]):
                cells = drawn
        pieces = sorted(p for i in cells for p in i.parts)
        if len(pieces) != 2:
            return None
        (_, gap_left, label), (gap_right, _, value) = pieces
        if _gapped(cells) != 2 and not head and gap_right - gap_left < LABEL_GAP_EM * max(i.size for i in cells):
            return None
        return gap_left, gap_right, label.strip(), value.strip(), cells

    found: dict[int, list[Item]] = {}
    k = 0
    while k < len(parts):
        head = pair(k, head=True)
        if head is None or not all(i.bold_all for i in head[4]):
            k += 1
            continue
        rows = {k: head[4]}
        left, right = head[0], head[1]
        reach = REACH_EMS * max(i.size for i in head[4])
        span = (min(i.x0 for i in head[4]) - reach, max(i.x1 for i in head[4]) + reach)
        values: list[int | None] = []  # the figures as whole numbers, where they are
        head_end = max(i.x1 for i in head[4])  # a line alone starting past it is the other column's
        end = last = k + 1
        while (end := _past_beside(parts, end, (span[0], head_end), rows=True)) < len(parts) and \
                near(last - 1, end) and \
                (row := pair(end, span if len(rows) > 1 else (-math.inf, span[1]))) is not None and \
                _labelled(row[2]) and _figure(row[3]) and any(c.isdigit() for c in row[3]) and \
                max(left, row[0]) < min(right, row[1]) and not any(i.bold_all for i in row[4]):
            left, right = max(left, row[0]), min(right, row[1])
            values.append(_leading_int(row[3]))
            rows[end] = row[4]
            # the labels set flush left, out of reach of a head centred over them (the first
            # row's label is looked for anywhere left): the next row's starts where this one
            # did, however short
            span = (min(span[0], min(i.x0 for i in row[4]) - SNAP), span[1])
            end = last = end + 1
        rising = all(a is not None and b is not None and a <= b for a, b in zip(values, values[1:], strict=False))
        if len(values) >= PAIR_ROWS and not (rising and len(values) >= RISING_ROWS):
            found.update(rows)
            k = max(last, k + 1)  # (rows passed over past the last may hold the next head)
        else:  # (the rows passed over looking for this head's may hold the next head)
            k += 1
    return found


def _past_beside(parts: list[tuple[list[Item], list[Item]]], k: int, span: tuple[float, float] | None = None,
                 step: int = 1, rows: bool = False) -> int:
    """The first row from ``k`` on (or back, ``step`` -1) that holds more than the other column's
    lines (``_beside_text``), or, given the ``span`` across that a table's cells take, more than
    one line wholly beside it (the other column's heading): a table set in one column of two has
    them between its rows where the columns' baselines differ. ``rows``: a row of parts wholly
    beside the span is passed over too (a numbered heading in two parts, another table's row)."""
    while 0 <= k < len(parts) and (not parts[k][0] and parts[k][1] or span is not None and
                                   (len(parts[k][0]) == 1 or rows and parts[k][0]) and _beyond(parts[k][0], span) and
                                   not any(_cells_drawn_as_one(i) for i in parts[k][0])):
        k += step
    return k


def _beyond(cells: list[Item], span: tuple[float, float] | None) -> bool:
    """Do a row's cells lie wholly one side of the ``span`` a table's rows take across: the
    row of another table, set in the other column?"""
    return span is not None and (all(i.x0 > span[1] for i in cells) or all(i.x1 < span[0] for i in cells))


class _Reach:
    """Where the cells of a run of rows start and end across, an em either side, kept as the
    run grows: each row is read once, not once for every row added after it."""

    __slots__ = ("left", "right", "size", "upto")

    def __init__(self, start: int) -> None:
        self.left, self.right, self.size, self.upto = math.inf, -math.inf, 0.0, start

    def to(self, parts: list[tuple[list[Item], list[Item]]], stop: int) -> tuple[float, float] | None:
        """The span of the run's rows up to ``stop``; None while they hold no cell."""
        for group, _ in parts[self.upto:stop]:
            for item in group:
                self.left, self.right = min(self.left, item.x0), max(self.right, item.x1)
                self.size = max(self.size, item.size)
        self.upto = max(self.upto, stop)
        return None if self.size <= 0.0 else (self.left - self.size, self.right + self.size)


def _set_beside(parts: list[tuple[list[Item], list[Item]]], start: int,
                end: int) -> dict[int, tuple[list[Item], list[Item]]]:
    """Rows ``start`` to ``end`` (``_past_beside``'s) are the other column's lines beside a table;
    returns them as they were."""
    was = {k: parts[k] for k in range(start, end)}
    for k in range(start, end):
        parts[k] = ([], parts[k][0] + parts[k][1])
    return was


def _labelled(text: str) -> bool:
    """A row's label: words, not a figure ('Tu' and 'NA' are words here, beside a figure)."""
    return sum(c.isalpha() for c in text) >= 2 or any(c.isalpha() for c in text) and not _figure(text)


def _leading_int(text: str) -> int | None:
    """The whole number a figure is (``12``, ``1,024``), None for any other (``12.5``, ``4%``)."""
    digits = text.replace(",", "")
    return int(digits) if digits.isdigit() else None


def _in_columns(group: list[Item], run: list[list[Item]]) -> bool:
    """Whether a line of two segments, nothing beside it, is a row of the run of rows of three
    cells or more above it with a blank cell: the first starts where the row above starts, the
    other starts or ends where a segment past the first does in two rows of the run at least;
    its segments and the row above's short (``CELL_WORDS``: cells, not lines of prose)."""
    full = next((cells for cells in reversed(run) if len(cells) >= 3), None)  # the last row with every cell
    if len(group) != 2 or any(i.kind != "line" for i in group) or full is None or \
            any(len(i.text.split()) > CELL_WORDS for i in group + run[-1] + full):
        return False
    tie = 0.5 * max(i.size for i in group)
    first, other = sorted(group, key=lambda i: i.x0)
    aligned = sum(any(abs(other.x0 - i.x0) <= tie or abs(other.x1 - i.x1) <= tie
                      for i in sorted(cells, key=lambda i: i.x0)[1:]) for cells in run)
    return abs(first.x0 - min(i.x0 for i in full)) <= tie and aligned >= 2


CELL_WORDS = 6  # words of a cell of a row with a blank, at most


def _label_ends(parts: list[tuple[list[Item], list[Item]]], start: int, end: int) -> bool:
    """Whether the line under a run is the last line of the label of the run's last row (set
    round its figures): one piece of a few words (``CELL_WORDS``), nothing beside it, where the
    labels start, going on from the label line above it (``_runs_on``)."""
    line, beside = parts[end]
    if len(line) != 1 or beside or line[0].kind != "line":
        return False
    item = line[0]
    labels = [cells[0] for cells, _ in parts[start:end] if cells and abs(cells[0].x0 - item.x0) <= 0.5 * item.size]
    return bool(labels) and labels[-1] in parts[end - 2][0] + parts[end - 1][0] and \
        all(len(i.text.split()) <= CELL_WORDS for i in (item, labels[-1])) and \
        abs(labels[-1].size - item.size) <= 0.1 * item.size and _runs_on(_pieces([labels[-1]]), _pieces([item]))


def _run_table(parts: list[tuple[list[Item], list[Item]]], start: int, end: int) -> Item | None:
    """The table the cells of a run of rows make, as one item; None when they make none (too
    few rows or columns, a display formula, prose read on across its cells)."""
    items = [item for cells, _ in parts[start:end] for item in cells]
    region = _Region.around(items)
    found = None if _formula([cells for cells, _ in parts[start:end] if cells]) else build_table(region, items)
    if found is None or _reads_on(found["rows"]):
        return None
    return table_item(region, found, items)


HEAD_ABOVE = 2  # lines of heads set over a table's first line of heads (a group head's, a stub's centred on
# two); as many as ``HEAD_LINES`` where a head's next line is among them (heads wrapped: 'Share' over '(%)')


def _head_above(line: tuple[list[Item], list[Item]], first: list[Item], below: list[Item], width: float,
                span: tuple[float, float]) -> bool:
    """Is a line just over an unruled table's first row (a table without it) a line of its
    heads, the table still one with it: the first row no statistics row, the line's pieces short
    words in the rows' size, each starting with a capital, over one cell of the first row at most
    and over some cell of the table's rows (``below``: a group head over its columns, whose heads
    may be narrower than it is off their middle, or centred over the space between them; the
    stub's head centred on two lines beside them), none a caption's, a sentence's, a contents
    entry's or a cell's running on from above (a small letter, a bracket) but a head's next line
    ('(%)' under 'Share': ``_next_lines``; ``_heads_whole`` keeps it only with its head)? The other
    column's line beside them stands wholly outside the ``span`` across the table's cells take."""
    cells, beside = line
    size = max(i.size for i in first)
    if not cells or any(span[0] < i.x1 and i.x0 < span[1] for i in beside) or _named_figures(first) or \
            any(item.kind != "line" or item.spread and len(item.parts) < HEADS_DRAWN for item in cells):
        return False
    heads, first, below = _part_items(cells), _part_items(first), _part_items(below)
    columns = _columns_under(first, below)
    return all(
        abs(item.size - size) <= 0.1 * size and
        item.x1 - item.x0 < WIDE_CELL * width and not CAPTION.match(item.text) and not _STOP.search(item.text) and
        (item.text.strip()[:1].isupper() or _next_lines([item])) and ". ." not in item.text and
        (_under_one(item, first) or _centred_on(item, first) or _centred_on(item, columns)) and
        (_in_a_column(item, below) or _centred_on(item, columns)) for item in heads)


def _next_lines(cells: list[Item]) -> bool:
    """Is a row's every part a head's next line: a small letter or a bracket first, no digit
    ('(%)', 'm)')?"""
    parts = _part_items(cells)
    return bool(parts) and all(not any(ch.isdigit() for ch in i.text) and
                               (i.text.strip()[:1].islower() or i.text.strip()[:1] in "([") for i in parts)


def _heads_whole(parts: list[tuple[list[Item], list[Item]]], start: int, index: int) -> int:
    """Where the lines of heads taken over row ``index`` (from ``start``) start once each head's
    next line among them ('(%)', ``_next_lines``) has its head among them too: a line with one
    whose head is not (a cell's last line, of a row above) is no line of heads, nor any above it."""
    while start < index:
        lines = [_part_items(cells) for cells, _ in parts[start:index]]
        cut = next((n for n, line in enumerate(lines) for piece in line if _next_lines([piece]) and
                    not _head_goes_on(piece, [other for above in lines[:n] for other in above])), None)
        if cut is None:
            break
        start += cut + 1
    return start


def _head_goes_on(item: Item, higher: list[Item]) -> bool:
    """Is ``item`` (a small letter or a bracket first: '(%)', 'm)') the next line of a head set
    over it, in its column, a head's pitch above (``HEAD_PITCH``), among the lines ``higher``
    (heads wrap onto lines of their own, centred in their row: a neighbour's line may stand
    between)?"""
    return any(min(item.x1, other.x1) > max(item.x0, other.x0) and
               0 < other.y - item.y <= HEAD_PITCH * item.size and not _STOP.search(other.text) for other in higher)


def _columns_under(first: list[Item], below: list[Item]) -> list[Item]:
    """The first row's segments, each as wide as its column: across the cells of the rows that
    stand under it and under no other (a head centred in its cell spans less than the figures
    set flush right under it; a group head is centred on the cells, not on their heads)."""
    out = []
    for item in first:
        under = [other for other in below
                 if min(item.x1, other.x1) > max(item.x0, other.x0) and _under_one(other, first)]
        out.append(Item(item.text, min(i.x0 for i in [item, *under]), item.y0, max(i.x1 for i in [item, *under]),
                        item.y1, item.y, item.size))
    return out


HEADS_DRAWN = 3  # parts of a line of heads drawn as one object, at the least (a running head's are two)


def _part_items(items: list[Item]) -> list[Item]:
    """Each segment's parts (a row drawn as one text object parts at its wide spaces into its
    cells) as segments of their own."""
    if all(len(item.parts) == 1 for item in items):
        return items
    return [Item(text, x0, item.y0, x1, item.y1, item.y, item.size, kind=item.kind)
            for item in items for x0, x1, text in item.parts]


CELL_LINES = 3  # lines of a row's cells that run on between two rows of a table, at most
HEADS_UNDER = 5  # lines of heads under a table's first line of heads (a group head's), at most


def _bridged(parts: list[tuple[list[Item], list[Item]]], start: int, end: int, near: Any, row_at: Any) -> int | None:
    """Where a run of a table's rows resumes after lines that are its cells running on, or None.
    A label of several lines sets its other lines between two rows (above and below the row's
    figures when cells are centred, below when set at the top); heads of several lines set
    theirs under the run's first row, or under its rows when all of them are heads in bold
    (group heads, the first lines of heads of two, heads of one beside them: ``heads``; their
    last line holds only what runs on, 'm)' under 'Value (EUR'). Such lines are in the rows'
    size, at a row's pitch, and hold words, figures or units (a tall bracket's pieces are a
    formula's). A label's lie left of the row's second cell; a head's each under one cell of
    the row above. Each
    stands over or under a cell of the rows around or of the run's rows (a group's label in a
    column of its own, under its head). The row the run resumes with keeps the columns (no
    cell of either row reaches over two of the other's, but a group head over its columns), and
    one of the two is a statistics row (``_named_figures``; figures named by the label of several
    lines set round them count): prose, code and a chart's ticks set in columns are none."""
    above = parts[end - 1][0]  # a row of the run: it holds cells
    heads = end - 1 == start or all(item.bold_all for cells, _ in parts[start:end] for item in cells)
    run = [item for cells, _ in parts[start:end] for item in cells]  # the run's rows, its heads among them
    size = max(i.size for i in above)
    first = min(i.x0 for i in above)
    label = min((i.x0 for i in above if i.x0 > first + size), default=first)  # where the row's second cell starts
    for resume in range(end, min(end + (HEADS_UNDER if heads else CELL_LINES), len(parts) - 1) + 1):
        if not near(resume - 1, resume):
            return None
        if resume > end:
            line = parts[resume - 1]
            if line[1] or not all(item.kind == "line" and not item.spread and abs(item.size - size) <= 0.1 * size
                                  and any(c.isalnum() or c in "%$€£¥" for c in item.text) and _under_one(item, above)
                                  and (heads or item.x1 < label) for item in line[0]):
                return None
        if resume > end and row_at(resume):
            below = parts[resume][0]
            between = [item for cells, _ in parts[end:resume] for item in cells]
            # A label of several lines set round its figures names them: its line just above them.
            named = all(len(i.text.split()) <= CELL_WORDS for i in between) and \
                _named_figures(parts[resume - 1][0] + below)
            if (_named_figures(above) or _named_figures(below) or named) and \
                    all(_under_one(item, below) and _in_a_column(item, run + below) for item in between) and \
                    all(_under_one(item, above) for item in below) and \
                    (heads or all(_under_one(item, below) for item in above)):
                return resume
    return None


def _named_figures(row: list[Item]) -> bool:
    """A statistics table's row, its segments read as cells (``_data_row``)."""
    return _data_row([(item.text, 1, 1) for item in row])


def _in_a_column(item: Item, cells: list[Item]) -> bool:
    """Does ``item`` stand over or under one of ``cells`` (a column of the rows around it)?"""
    return any(min(item.x1, other.x1) > max(item.x0, other.x0) for other in cells)


def _under_one(item: Item, row: list[Item]) -> bool:
    """Does ``item`` overlap at most one of ``row``'s segments across?"""
    return sum(min(item.x1, other.x1) > max(item.x0, other.x0) for other in row) <= 1


def _centred_on(item: Item, row: list[Item]) -> bool:
    """Is ``item`` a group head centred on a run of two or more of ``row``'s segments, those it
    overlaps among them (or the two either side of it, where it overlaps none): its middle
    within ``CENTRED_EM`` of theirs?"""
    row = sorted(row, key=lambda other: other.x0)
    over = [k for k, other in enumerate(row) if min(item.x1, other.x1) > max(item.x0, other.x0)]
    if not over:  # narrower than the space between two of them: those two
        left = [k for k, other in enumerate(row) if other.x1 <= item.x0]
        if not left or left[-1] + 1 == len(row):
            return False
        over = [left[-1], left[-1] + 1]
    middle, near = (item.x0 + item.x1) / 2, CENTRED_EM * item.size
    return any(abs((row[first].x0 + row[last].x1) / 2 - middle) <= near
               for first in range(over[0] + 1) for last in range(max(over[-1], first + 1), len(row)))


FORMULA_PITCH = 0.8  # ems: lines of one size closer than this are a formula's levels (a fraction), not rows
FORMULA_ROWS = 3  # lines of a display formula numbered at its end, at the most
_EQUATION_NUMBER = lazy(r"^\(\d{1,3}[a-z]?\)$")
_RELATION = lazy(r"[=<>\u2248\u2261\u2264\u2265\u2208\u2192\u223c\u221d\u2282\u2286\u226a\u226b]")


def _formula(rows: list[list[Item]]) -> bool:
    """Whether lines set as rows are a display formula: one of them states a relation (=, ≤, ∈,
    →) and two of them of one size stand closer than lines of text can (a numerator over its
    fraction's line). With no relation read (a font may draw it as no character of its own: '≲'
    read as '.'), two or three lines with a mathematical sign (×, ±) whose only number in
    brackets ends one of them (an equation's number)."""
    if not any(_RELATION.search(item.text) for row in rows for item in row):
        numbers = [item for row in rows for item in row if _EQUATION_NUMBER.match(item.text)]
        return len(rows) <= FORMULA_ROWS and len(numbers) == 1 and \
            any(max(row, key=lambda item: item.x1) is numbers[0] for row in rows) and \
            any(ord(c) > 127 and unicodedata.category(c) == "Sm" for row in rows for item in row for c in item.text)
    for upper, lower in zip(rows, rows[1:], strict=False):
        size = max(i.size for i in upper)
        if abs(max(i.size for i in lower) - size) <= 0.1 * size and upper[0].y - lower[0].y < FORMULA_PITCH * size:
            return True
    return False


def _narrow_parts(group: list[Item], width: float, columned: bool = False) -> bool:
    """Is each run of a row, parted at its wide spaces, narrower than a description's cell, but
    one among four cells or more (a ledger's particulars between its dates and its amounts),
    and none spread to the page's edges? A line of a column's prose beside a table is one wide
    part, however its neighbours part; a contents entry and its page, or a figure's panel
    labels, stand a measure apart; a contents entry's leaders run wide to its page. A row whose
    spaces are ``columned`` (``_gaps_lined_up``) may stand spread before two cells or more: a
    short label in a wide stub column, far from its figures (a contents entry's title stands
    spread before its page number alone)."""
    if any(item.spread for item in group) and not (columned and _spread_inside(group)):
        return False
    if is_leader(" ".join(item.text for item in group)):
        return False
    parts = [x1 - x0 for item in group for x0, x1, _ in item.parts]
    wide = sum(part >= WIDE_CELL * width for part in parts)
    return wide == 0 or wide == 1 and len(parts) >= DESCRIBED_CELLS


DESCRIBED_CELLS = 4  # cells of a row, at the least, beside one as wide as a description's


def _spread_inside(group: list[Item]) -> bool:
    """Does every space of the row wider than ``SPREAD`` ems have two of its cells after it?"""
    pieces = sorted((x0, x1, item.size) for item in group for x0, x1, _ in item.parts)
    spread = [k for k in range(1, len(pieces)) if pieces[k][0] - pieces[k - 1][1] > SPREAD * pieces[k][2]]
    return bool(spread) and spread[-1] <= len(pieces) - 2


def _cells_of_words(group: list[Item], columned: bool = False) -> bool:
    """Do a row's runs, parted at their wide spaces, read as a table's cells: not a justified
    line's words (``_uneven``; a row of figures or of heads in bold whose spaces are ``columned``,
    lined up with the next row's, may have them alike, each column set a fixed space from the
    next), a display
    formula's terms about a lone operator, a line of code or a drawing in characters (cells
    with no letter or figure)?"""
    parts = [text.strip() for item in group for _, _, text in item.parts]
    worded = sum(any(c.isalnum() for c in text) for text in parts)
    figures = sum(any(c.isdigit() for c in text) for text in parts)
    return all(item.code is None for item in group) and not any(text in _OPERATORS for text in parts) and \
        worded >= max(2, len(parts) - 1) and \
        (_uneven(group) or columned and (FIGURES_ROW * len(parts) <= figures or all(i.bold_all for i in group)))


FIGURES_ROW = 0.5  # of a row's cells that hold figures, at the least, for its spaces to tell its columns


def _gap_spans(group: list[Item]) -> list[tuple[float, float]]:
    """Where a row's wide spaces lie across the page, left to right: the gaps between its
    segments' runs a table's column gap wide (``MIN_GAP_EM``)."""
    spans = []
    for item in group:
        runs = sorted(item.parts)
        spans += [(a[1], b[0]) for a, b in zip(runs, runs[1:], strict=False) if b[0] - a[1] >= MIN_GAP_EM * item.size]
    return sorted(spans)


def _spaces(group: list[Item]) -> list[tuple[float, float]]:
    """Where a row's runs stand apart across the page, left to right: the spaces between them
    wider than any word's (``LABEL_GAP_EM``), each run a part of a segment."""
    pieces = sorted(_part_items(group), key=lambda item: item.x0)
    return [(a.x1, b.x0) for a, b in zip(pieces, pieces[1:], strict=False)
            if b.x0 - a.x1 >= LABEL_GAP_EM * max(a.size, b.size)]


def _spaced_alike(parts: list[tuple[list[Item], list[Item]]], k: int, near: Callable[[int, int], bool]) -> bool:
    """Is row ``k`` a table's row whose cells stand closer than a column gap (cells padded by
    less than half an em): its spaces wider than any word's (``_spaces``) lined up with a near
    row's (``_lined_up``), one of the two a statistics row (``_named_figures``: a justified
    line's spaces may fall under another's, but neither gives figures)?"""
    return any(all(i.kind == "line" for i in parts[j][0]) and
               (_named_figures(_part_items(parts[j][0])) or _named_figures(_part_items(parts[k][0])))
               for j in _lined_up(parts, k, near, _spaces))


def _gaps_lined_up(parts: list[tuple[list[Item], list[Item]]], k: int, near: Callable[[int, int], bool]) -> bool:
    """Do the wide spaces of row ``k`` (``_gap_spans``) line up with a near row's (``_lined_up``):
    a table's columns, where a row's gaps may be alike (each column set a fixed space from the
    next); a justified line's spaces fall anywhere under the line above's."""
    return bool(_lined_up(parts, k, near, _gap_spans))


def _lined_up(parts: list[tuple[list[Item], list[Item]]], k: int, near: Callable[[int, int], bool],
              spaces: Callable[[list[Item]], list[tuple[float, float]]]) -> list[int]:
    """The rows above and below row ``k`` (the other column's lines between a table's rows,
    ``_past_beside``, passed over), near it, whose ``spaces``, as many as row ``k``'s and two or
    more, each lie over one of its own."""
    spans = spaces(parts[k][0])
    if len(spans) < 2:
        return []
    found = []
    for j in (_past_beside(parts, k - 1, step=-1), _past_beside(parts, k + 1)):
        if not 0 <= j < len(parts) or not near(min(j, k), max(j, k)):
            continue
        other = spaces(parts[j][0])
        if len(other) == len(spans) and \
                all(max(a0, b0) < min(a1, b1) for (a0, a1), (b0, b1) in zip(spans, other, strict=True)):
            found.append(j)
    return found


# A term of a formula set alone between two others; a dash alone is an empty cell's mark.
_OPERATORS = frozenset("+=×/<>≤≥≠≈→←↔⇒⇔∧∨∈∪∩⊆⊂|")


def _uneven(group: list[Item]) -> bool:
    """Are the wide spaces inside each of a row's runs of different widths, as the gaps between
    a table's cells are (each column as wide as its text)? A justified line of prose drawn as one
    text object with wide spaces has them alike: its words are no cells."""
    for item in group:
        gaps = sorted(_wide_gaps(item))
        if any(b - a <= EVEN_SLACK for a, b in zip(gaps, gaps[1:], strict=False)):
            return False
    return True


EVEN_SLACK = 0.3  # points: two spaces of one line this close are a justified line's, alike


def _gapped(group: list[Item]) -> int:
    """The cells of a row: its segments' runs, parted where they stand a table's column gap apart."""
    return sum(1 + len(_wide_gaps(item)) for item in group)


def _wide_gaps(item: Item) -> list[float]:
    """The widths of the gaps between a segment's runs, left to right, that are a table's
    column gap wide (``MIN_GAP_EM``)."""
    return [right - left for left, right in _gap_spans([item])]


def _beside_text(rows: list[list[Item]], width: float,
                 known: float | None = None) -> tuple[list[tuple[list[Item], list[Item]]], float | None]:
    """Each row parted into what may be a table's cells and the lines of a column's text beside
    them. On a two-column page a segment wholly one side of the gutter that fills its column from
    edge to edge is that column's prose running on beside a table, an equation or a chart's labels
    set in the other column: a float set full width interrupts both columns, so no line of theirs
    shares its baselines (but a table's row drawn as one, ``_cells_drawn_as_one``). So is the
    line under it that starts where it starts, or is centred where it is, or set in past the
    list's marker that opens it (words with no wide space: not a table's row), at a line's pitch,
    alone on its side (a paragraph's last line, a centred caption's, an entry's next line); a
    line of words alone on its side, from its left edge and across most of it (``RAGGED_FILL``:
    set ragged right), or set in and ending at its right edge (a list entry's justified line, its
    marker drawn, no text); a caption alone on its side; a paragraph's
    first line over such a line (``_opens_paragraph``); a display alone on its side between two
    such lines, set apart from them by more than their own pitch (an equation between a column's
    paragraphs, beside a grammar set as a table in the other); a heading alone on its side,
    set apart from what is above it, over such a line (``_heads_text``); and a table already
    found (ruled), alone on its side beside the other's segments. The gutter is looked
    for only when some row of three or more segments (or parts, a row of cells drawn as one; or
    a label and its figure between the other column's lines) holds a wide one, what such a line
    is, or a row a line or two from it does (its segment beside the table a paragraph's last
    line, short), or the page's lines make two columns (``find_gutter``) narrower than a wide
    segment (a browser's, on a wide page); with none, the page may be set in three columns of
    prose or more (``_prose_columns``), each a side of its own. A page too bare to show its
    columns keeps ``known``, the gutter the page before was read by, where nothing crosses it
    (``kept_gutter``). Returns the rows so parted, and the gutter between two columns where
    it parted them at one ``find_gutter`` finds or the one kept (None for none, three columns,
    or a gutter told only by a column's lines, ``_lenient_gutter``, ``_prose_column``)."""
    plain: list[tuple[list[Item], list[Item]]] = [(row, []) for row in rows]
    # (a row drawn as one text object beside the other column's line is two segments of three
    # parts, or of two, a label and its figure; between the other column's baselines, one
    # segment of three, a figure among them, or a label and its figure, a near row's lines
    # wholly beside it)
    threes = [k for k, row in enumerate(rows)
              if len(row) >= 3 or len(row) == 2 and (_gapped(row) >= 4 or any(map(_label_and_figure_drawn, row))) or
              len(row) == 1 and _cells_drawn_as_one(row[0]) and _lines_beside(rows, k) or
              len(row) == 2 and _label_and_figure(row) and _lines_beside(rows, k)]
    if not threes:
        return plain, None
    items = [item for row in rows for item in row]
    found = _prose_columns(items, width)
    near = [row for k in threes for row in rows[max(0, k - NEAR_ROWS):k + NEAR_ROWS + 1]]
    gutter: float | None = None
    if len(found) < 3:  # (columns of narrow lines, without a wide segment: their lines told from the page's)
        gutter = find_gutter(items, width) or kept_gutter(items, known)
        if gutter is None and not any(wide >= WIDE_CELL * width for row in near for wide in _widths(row)):
            return plain, None
    if len(found) >= 3:  # three columns or more of justified prose: each its own side
        columns = {str(k): x1 - x0 for k, (x0, x1) in enumerate(found)}
        starts = {str(k): x0 for k, (x0, _) in enumerate(found)}

        def side_of(item: Item) -> str:
            return next((str(k) for k, (x0, x1) in enumerate(found)
                         if item.x0 >= x0 - item.size and item.x1 <= x1 + item.size), "")
    else:
        split = gutter or _lenient_gutter(items, width) or _prose_column(items, width)
        if split is None or not any(i.x1 <= split for i in items) or not any(i.x0 >= split for i in items):
            return plain, None  # (a column of prose with nothing wholly in the other: a document's last page)
        # (each side holds an item wholly: its start and width are taken from them)
        starts = {"L": min(i.x0 for i in items if i.x1 <= split), "R": min(i.x0 for i in items if i.x0 >= split)}
        columns = {"L": max(i.x1 for i in items if i.x1 <= split) - starts["L"],
                   "R": max(i.x1 for i in items if i.x0 >= split) - starts["R"]}

        def side_of(item: Item) -> str:
            return "L" if item.x1 <= split else "R" if item.x0 >= split else ""
    above: dict[str, tuple[Item, bool, float]] = {}  # each column's last line so far, whether text, its right edge
    indented = _indented_text(rows, side_of, columns)

    def text(item: Item, side: str, alone: bool, lead: float | None = None) -> bool:
        """``lead``: where the list's marker before the line starts (the line is its entry's)."""
        if item.kind != "line":
            return False
        x0 = item.x0 if lead is None else lead
        if item.x1 - x0 >= COLUMN_FILL * columns[side]:
            return not (_cells_drawn_as_one(item) or _heads_drawn_as_one(item) or _two_cells_drawn(item)) or \
                _justified([item], columns[side])
        if alone and item.x1 - x0 >= RAGGED_FILL * columns[side] and x0 - starts[side] <= item.size and \
                len(item.text.split()) >= RAGGED_WORDS:
            return True  # a line of ragged prose, alone on its side
        if alone and abs(item.x1 - starts[side] - columns[side]) <= TIE and \
                item.x1 - x0 >= RAGGED_FILL * columns[side] and len(item.text.split()) >= RAGGED_WORDS and \
                not _wide_gaps(item):
            return True  # a justified line set in (a list entry's, its marker drawn), to the column's edge
        if alone and is_caption(item.text) and not _wide_gaps(item):
            return True  # a float's caption set in its column: no table's cell
        if alone and id(item) in indented:
            return True  # a quotation's line, indented both sides
        last, was_text, right = above.get(side, (None, False, 0.0))
        if alone and _spread([item], last, was_text, right):
            return True  # a line of few words justified under the line above, drawn as one
        if not (alone and was_text and last is not None and last.y - item.y <= TEXT_PITCH * item.size) or \
                _wide_gaps(item):
            return False
        return abs(item.x0 - last.x0) <= item.size or \
            len(item.parts) == 1 and abs(item.x0 + item.x1 - last.x0 - last.x1) <= 2 * item.size or \
            0 < item.x0 - last.x0 <= INDENT_EMS * item.size and is_list_item(last.text)  # set in past its marker

    out: list[tuple[list[Item], list[Item]]] = []
    besides: list[list[Item]] = []
    flow: dict[str, list[tuple[Item, bool, bool, int]]] = {side: [] for side in columns}  # (item, alone, text, row)
    leads: dict[int, Item] = {}  # id of an entry's words -> the marker set apart before them ('5.', '•')
    for number, row in enumerate(rows):
        beside: list[Item] = []
        seen: dict[str, tuple[Item, bool, float]] = {}
        sides = [side_of(item) for item in row]
        alone = {side: sides.count(side) == 1 for side in columns}
        justified = {side for side in columns if sides.count(side) >= 2 and
                     (_justified(mine := [i for i, s in zip(row, sides, strict=True) if s == side], columns[side])
                      or _spread(mine, *above.get(side, (None, False, 0.0))))}
        marked = {side: marker for side in columns if sides.count(side) == 2 and
                  (marker := _list_marker([i for i, s in zip(row, sides, strict=True) if s == side]))}
        for item, side in zip(row, sides, strict=True):
            if side and item.kind == "table" and alone[side] and any(s != side for s in sides):
                beside.append(item)  # a table found already, set in its column: no cell of the row beside it
                continue
            if side:
                marker = marked.get(side)
                if marker is item:
                    continue  # an entry's marker goes with its words
                if marker is not None:
                    leads[id(item)] = marker
                is_text = side in justified or text(item, side, alone[side] or marker is not None,
                                                    marker.x0 if marker else None)
                if is_text:
                    beside.extend((marker, item) if marker else (item,))
                if side in justified and side in seen:
                    seen[side] = (seen[side][0], True, item.x1)  # a justified line's words: from its first
                elif side not in seen or is_text:
                    seen[side] = (item, is_text, item.x1)
                flow[side].append((item, alone[side], is_text, number))
        above.update(seen)
        besides.append(beside)
    for side, down in flow.items():  # a paragraph's first line, indented, over that side's text at the pitch
        for (item, alone_there, is_text, number), (lower, _, lower_text, _) in zip(down, down[1:], strict=False):
            if not is_text and alone_there and lower_text and \
                    _opens_paragraph(item, lower, starts[side] + columns[side]):
                besides[number].append(item)
    for side, down in flow.items():  # a display or a heading alone on its side, set apart from that side's text
        steps = sorted(upper.y - lower.y
                       for (upper, _, one, _), (lower, _, other, _) in zip(down, down[1:], strict=False)
                       if one and other and 0 < upper.y - lower.y <= DISPLAY_PITCH * lower.size)
        if not steps:
            continue
        least = DISPLAY_SPACE * steps[len(steps) // 2]  # farther than the text's own pitch
        for k in range(1, len(down) - 1):
            (upper, _, upper_text, _), (item, alone_there, is_text, number), (lower, _, lower_text, _) = \
                down[k - 1:k + 2]
            if upper_text and lower_text and alone_there and not is_text and item.kind == "line" and \
                    least <= upper.y - item.y <= DISPLAY_PITCH * item.size and \
                    least <= item.y - lower.y <= DISPLAY_PITCH * item.size:
                besides[number].append(item)
        for k, (item, alone_there, is_text, number) in enumerate(down[:-1]):  # a heading over that side's text
            before, (lower, _, lower_text, below) = down[k - 1][0] if k else None, down[k + 1]
            lower_text = lower_text or lower in besides[below]  # (a paragraph's first line, set in)
            lead = leads.get(id(item))  # a numbered heading's number set apart: the heading starts with it
            if lower_text and (alone_there or lead is not None) and not is_text and item.kind == "line" and \
                    item not in besides[number] and (before is None or before.y - item.y >= least) and \
                    _heads_text(item, lower, starts[side], lead.x0 if lead is not None else item.x0):
                besides[number].extend((lead, item) if lead is not None else (item,))
    for row, beside in zip(rows, besides, strict=True):
        if beside:
            aside = {id(item) for item in beside}
            out.append(([item for item in row if id(item) not in aside], beside))
        else:
            out.append((row, []))
    return out, gutter


def _heads_text(item: Item, lower: Item, start: float, x0: float) -> bool:
    """Is a line alone on its side, set apart from the text above it, the heading of the text
    under it: words with no column gap among them, set from the column's edge (``start``; the
    line, or its number set apart before it, at ``x0``), bolder or larger than that text, the
    text's first line within ``DISPLAY_PITCH`` of it?"""
    return 0 < item.y - lower.y <= DISPLAY_PITCH * item.size and abs(x0 - start) <= item.size and \
        not _wide_gaps(item) and (item.bold_all and not lower.bold_all or item.size >= HEAD_SIZE * lower.size)


HEAD_SIZE = 1.1  # of the text's size, a heading's at the least (or it is bolder)


NEAR_ROWS = 2  # rows either side of a row of three segments where a line of a column's prose is looked for


def _label_and_figure_drawn(item: Item) -> bool:
    """Is a segment a table's label and its figure drawn as one text object: two cells
    (``_two_cells_drawn``), its two parts a label and its figure (``_label_and_figure``)?"""
    return _two_cells_drawn(item) and len(pair := _part_items([item])) == 2 and _label_and_figure(pair)


def _two_cells_drawn(item: Item) -> bool:
    """Is a segment two cells of a table's row drawn as one text object: a column gap between
    its runs (``_wide_gaps``) and fewer words than a line of prose has (``RAGGED_WORDS``)?"""
    return len(_wide_gaps(item)) == 1 and len(item.text.split()) < RAGGED_WORDS


def _lines_beside(rows: list[list[Item]], k: int) -> bool:
    """Does a row near row ``k`` (``NEAR_ROWS``) stand wholly beside its segments, clear of their
    span across: the other column's line between a table's rows set in one column?"""
    x0, x1 = rows[k][0].x0, rows[k][-1].x1
    return any(all(other.x1 < x0 or other.x0 > x1 for other in rows[j])
               for j in range(max(0, k - NEAR_ROWS), min(len(rows), k + NEAR_ROWS + 1)) if j != k)


def _label_and_figure(row: list[Item]) -> bool:
    """Is a row of two segments a table's label and its figure: words, then a figure a column
    gap after them (``MIN_GAP_EM``)?"""
    label, figure = row
    return label.kind == figure.kind == "line" and _labelled(label.text) and not _figure(label.text) and \
        _figure(figure.text) and any(ch.isdigit() for ch in figure.text) and \
        figure.x0 - label.x1 >= MIN_GAP_EM * label.size


def _opens_paragraph(item: Item, lower: Item, right: float) -> bool:
    """Is a line a paragraph's first over ``lower``, a line of its column's text: set in from
    where that line starts by an indent (``INDENT_EMS`` at most), ending within the column
    (``right``, its text's right edge: set ragged, the first line may end past the next), words
    with no column gap among them, going on (no sentence ends it: an entry's last line set with
    a hanging indent ends one), the next line at the text's pitch? Its words are four or more,
    or fewer where they fill it (the next line's first word would not have fitted after them:
    a narrow column set in a large type)."""
    size = item.size
    if not (item.kind == "line" and 0 < item.y - lower.y <= TEXT_PITCH * size and
            0.5 * size <= item.x0 - lower.x0 <= INDENT_EMS * size and item.x1 <= max(lower.x1, right) + size and
            not _wide_gaps(item) and not _STOP.search(item.text)):
        return False
    words = len(item.text.split())
    return words >= RAGGED_WORDS or words >= 2 and first_word_width(lower) >= right - item.x1


INDENT_EMS = 3.0  # ems a paragraph's first line may be set in from where its lines start


def _indented_text(rows: list[list[Item]], side_of: Callable[[Item], str], columns: dict[str, float]) -> set[int]:
    """The lines of a paragraph set in from its column's edges (a quotation, an abstract), each
    alone on its side: words (``RAGGED_WORDS``, no wide space), across most of the column
    (``RAGGED_FILL``), starting and ending where the next line on that side does, a line's
    pitch below it. A justified paragraph's lines end together; a column of a table's cells
    ends where each cell's words do. Their ids."""
    found: set[int] = set()
    last: dict[str, Item | None] = {}
    for row in rows:
        sides = [side_of(item) for item in row]
        for item, side in zip(row, sides, strict=True):
            if not side:
                continue
            if sides.count(side) != 1:
                last[side] = None
                continue
            words = item.kind == "line" and item.x1 - item.x0 >= RAGGED_FILL * columns[side] and \
                len(item.text.split()) >= RAGGED_WORDS and not _wide_gaps(item)
            up = last.get(side)
            if words and up is not None and up.y - item.y <= TEXT_PITCH * item.size and \
                    abs(up.x0 - item.x0) <= EVEN_EDGE and abs(up.x1 - item.x1) <= EVEN_EDGE:
                found.update((id(up), id(item)))
            last[side] = item if words else None
    return found


EVEN_EDGE = 1.0  # points: lines of a justified paragraph start and end this close to each other's ends


def _justified(items: list[Item], column: float) -> bool:
    """Are a row's segments on one side of the gutter a line of that column's justified prose
    drawn word by word (a browser's, or as one object whose spaces are wide): words, no figure
    among them (a short word of letters is a word: 'ma', 'NA'), four or more, across the column
    (``COLUMN_FILL``), every space between them alike (``EVEN_SLACK``: a justified line stretches
    its spaces by one measure; a table's cells stand as far apart as their widths leave)?"""
    parts = sorted(part for item in items for part in item.parts)
    if len(parts) < JUSTIFIED_WORDS or any(item.kind != "line" for item in items) or \
            any(_figure(text) and not text.isalpha() for _, _, text in parts):
        return False
    gaps = [b[0] - a[1] for a, b in zip(parts, parts[1:], strict=False)]
    return parts[-1][1] - parts[0][0] >= COLUMN_FILL * column and max(gaps) - min(gaps) <= EVEN_SLACK


JUSTIFIED_WORDS = 4  # words of a justified line drawn word by word, at the least


def _spread(items: list[Item], last: Item | None, was_text: bool, right: float) -> bool:
    """Are a row's segments on one side of the gutter a line of few words justified word by word
    under the line of that side's text above (``last``, ending at ``right``): words, no figure
    among them, every space between them alike (``EVEN_SLACK``), from that line's left edge to
    its right (within an em), at a line's pitch (``TEXT_PITCH``)? A narrow column's line of two
    or three long words is stretched to its measure: no table's row under a paragraph starts and
    ends where its lines do."""
    parts = sorted(part for item in items for part in item.parts)
    if last is None or not was_text or len(parts) < 2 or any(item.kind != "line" for item in items) or \
            any(_figure(text) and not text.isalpha() for _, _, text in parts):
        return False
    size = max(item.size for item in items)
    gaps = [b[0] - a[1] for a, b in zip(parts, parts[1:], strict=False)]
    return 0 < last.y - items[0].y <= TEXT_PITCH * size and max(gaps) - min(gaps) <= EVEN_SLACK and \
        abs(parts[0][0] - last.x0) <= size and abs(parts[-1][1] - right) <= size


def _list_marker(pair: list[Item]) -> Item | None:
    """The marker of a list's entry (a bullet, '1.', 'a)') when ``pair`` is one and its words."""
    marker, words = sorted(pair, key=lambda i: i.x0)
    if marker.kind != "line" or words.kind != "line" or len(marker.text.strip()) > MARKER_CHARS or \
            not is_list_item(f"{marker.text.strip()} {words.text}"):
        return None
    return marker


MARKER_CHARS = 3  # characters of a list's marker set apart from its words ('•', '12.', 'a)')


def _widths(row: list[Item]) -> list[float]:
    """The widths of a row's segments, a list entry's words measured from its marker set apart
    before them (a bullet's line is as wide as the column's text it is)."""
    ordered = sorted(row, key=lambda i: i.x0)
    return [item.x1 - (before.x0 if before is not None and _list_marker([before, item]) is before else item.x0)
            for before, item in zip([None, *ordered], ordered, strict=False)]


def _cells_drawn_as_one(item: Item) -> bool:
    """Is a segment a table's row drawn as one text object: three parts or more a column gap
    apart (``_wide_gaps``), a figure among them? A line of prose has no such gaps."""
    return _parted_wide(item) and any(_figure(text) for _, _, text in item.parts)


def _parted_wide(item: Item) -> bool:
    """Does a segment part into three runs or more, two of its gaps a column gap wide?"""
    return len(item.parts) >= 3 and len(_wide_gaps(item)) >= 2


def _heads_drawn_as_one(item: Item) -> bool:
    """Is a segment a table's heads drawn as one text object: three parts or more a column
    gap apart, all in bold? A line of prose set in bold has no such gaps."""
    return item.bold_all and _parted_wide(item)


def _lenient_gutter(items: list[Item], width: float) -> float | None:
    """A gutter beside a column of narrow pieces (a listing's line numbers and code, an
    equation's terms), found as reading order finds one (by the width of the lines most of
    its text is set in), when each side is a column: a share of its pieces start at its left
    edge (``EDGE_SHARE``). Pieces either side of a line of a single column (a contents entry's
    title and its leader) start anywhere."""
    gutter = find_gutter(items, width, lenient=True)
    if gutter is None:
        return None
    for side in ([i for i in items if i.x1 <= gutter], [i for i in items if i.x0 >= gutter]):
        edge = min(i.x0 for i in side)
        if sum(i.x0 - edge <= i.size for i in side) < EDGE_SHARE * len(side):
            return None
    return gutter


EDGE_SHARE = 0.3  # of a column's pieces, starting within an em of its left edge


def _column_lines(items: list[Item], width: float, narrowest: float) -> list[Item]:
    """The lines that may be a column of prose's: from ``narrowest`` to half the page wide,
    none a contents entry's leader."""
    return [i for i in items if i.kind == "line" and narrowest * width <= i.x1 - i.x0 <= width / 2 and i.size > 0
            and not any(dots in i.text for dots in LEADER_DOTS)]


def _edge_bins(lines: list[Item]) -> tuple[dict[tuple[int, int], list[Item]], float]:
    """The lines binned by their left and right edges, bins as wide as the largest size: the
    lines within an em of a line's edges lie in its bin or the next ones (:func:`_sharing_edges`)."""
    step = max((i.size for i in lines), default=1.0)
    bins: dict[tuple[int, int], list[Item]] = {}
    for i in lines:
        bins.setdefault((int(i.x0 // step), int(i.x1 // step)), []).append(i)
    return bins, step


def _sharing_edges(item: Item, bins: dict[tuple[int, int], list[Item]], step: float) -> list[Item]:
    """The lines of ``bins`` whose both edges lie within an em of ``item``'s (itself among them)."""
    left, right = int(item.x0 // step), int(item.x1 // step)
    return [o for dx in (-1, 0, 1) for dy in (-1, 0, 1) for o in bins.get((left + dx, right + dy), ())
            if abs(o.x0 - item.x0) <= item.size and abs(o.x1 - item.x1) <= item.size]


def _prose_columns(items: list[Item], width: float) -> list[tuple[float, float]]:
    """The edges (left, right) of the page's columns of justified prose, left to right: where
    ``COLUMN_LINES`` lines narrower than half the page (``NARROW_COLUMN`` at the least), none a
    leader, share both edges within an em; of overlapping ones, that of the most lines."""
    lines = _column_lines(items, width, NARROW_COLUMN)
    bins, step = _edge_bins(lines)
    candidates: list[tuple[int, float, float]] = []
    for item in lines:
        near = _sharing_edges(item, bins, step)
        if len(near) >= COLUMN_LINES:
            candidates.append((len(near), min(i.x0 for i in near), max(i.x1 for i in near)))
    found: list[tuple[float, float]] = []
    for _, x0, x1 in sorted(candidates, key=lambda c: -c[0]):  # the columns of most lines first
        if not any(a <= x1 and x0 <= b for a, b in found):
            found.append((x0, x1))
    return sorted(found)


NARROW_COLUMN = 0.2  # of the page width, the narrowest column of prose (of three or more)


def _prose_column(items: list[Item], width: float) -> float | None:
    """The gutter beside a column of justified prose, whatever stands in the other column (a
    proof's rules, a diagram's labels): ``COLUMN_LINES`` lines as wide as a column
    (``COLUMN_WIDTH``) that share their left and right edges (within an em), wholly one side of
    the page's middle, none of them a contents entry's leader. The gutter is just past the
    column's inner edge."""
    lines = _column_lines(items, width, COLUMN_WIDTH)
    bins, step = _edge_bins(lines)
    for item in lines:
        if len(_sharing_edges(item, bins, step)) < COLUMN_LINES:
            continue
        if item.x1 <= width / 2:
            return item.x1 + item.size
        if item.x0 >= width / 2:
            return item.x0 - item.size
    return None


COLUMN_WIDTH = 0.3  # of the page width, the narrowest column of prose beside another column
COLUMN_LINES = 5  # lines that share both edges: a justified column
LEADER_DOTS = ("....", ". . . .", "\u2026", "\u00b7\u00b7")  # a contents entry's leader, not prose


def headed_tables(rows: list[list[Item]], width: float) -> list[list[Item]]:
    """Tables without rules whose columns are anchored on a line of column heads: a line of
    three or more bold parts set well apart, and below it lines whose segments each sit
    inside one head's column (cells of several lines, shorter or longer than their
    neighbours). Rows part where every column's text leaves a gap wider than a line's."""
    out: list[list[Item]] = []
    index = tries = 0
    while index < len(rows):
        found = None
        if tries < MAX_HEAD_TRIES and _heads(rows[index], width):
            tries += 1
            found = _headed(rows, index, width)
        if found is not None:
            out.append([found[0]])
            index = found[1]
        else:
            out.append(rows[index])
            index += 1
    return out


MAX_HEAD_TRIES = 20  # lines of a page tried as a table's column heads
HEAD_GAP_EM = 2.0  # column heads stand at least this many ems apart
CELL_PITCH = 2.0  # lines of one cell stand at most this many of their ems apart
TABLE_GAP = 4.0  # a wider gap (in ems) between two lines ends the table
MAX_HEADS = 40  # column heads of one table
MIN_BODY_ROWS = 3  # rows under the heads, each saying something in two columns or more


def _heads(row: list[Item], width: float) -> bool:
    if not 3 <= len(row) <= MAX_HEADS or any(i.kind != "line" or not i.bold or i.x1 - i.x0 >= 0.3 * width for i in row):
        return False
    parts = sorted(row, key=lambda i: i.x0)
    return all(b.x0 - a.x1 >= HEAD_GAP_EM * max(a.size, b.size) for a, b in zip(parts, parts[1:], strict=False))


def _column(anchors: list[float], item: Item, width: float) -> int | None:
    """The column (from the heads' left edges) an item sits inside, None if it crosses one."""
    em = item.size
    col = bisect_right(anchors, item.x0 + em) - 1
    if col < 0:
        return None
    right = anchors[col + 1] - 0.5 * em if col + 1 < len(anchors) else width
    return col if item.x1 <= right else None


def _headed(rows: list[list[Item]], index: int, width: float) -> tuple[Item, int] | None:
    head = sorted(rows[index], key=lambda i: i.x0)
    anchors = [i.x0 for i in head]
    size = max(i.size for i in head)
    body: list[tuple[Item, int]] = []
    last = head[0].y
    end = index + 1
    while end < len(rows) and end - index < MAX_TABLE_LINES:
        row = rows[end]
        if last - row[0].y > TABLE_GAP * max(i.size for i in row) or \
                any(i.kind != "line" or i.size > 1.15 * size for i in row):
            break
        cols = [_column(anchors, i, width) for i in row]
        if any(c is None for c in cols):
            break
        body += [(i, c) for i, c in zip(row, cols, strict=True) if c is not None]
        last = row[0].y
        end += 1
    bands = _bands(body, len(anchors))
    if len(bands) < MIN_BODY_ROWS:
        return None
    cells = [[_cell_text(_pieces([i for i, c in band if c == k])) for k in range(len(anchors))] for band in bands]
    if sum(sum(bool(t) for t in row) >= 2 for row in cells) < 0.7 * len(cells):
        return None
    out = [[_cell(i.text, 1, 1) for i in head]] + [[_cell(t, 1, 1) for t in row] for row in cells]
    if _reads_on(out):
        return None
    table: dict[str, Any] = {"rows": out, "header_rows": 1}
    items = head + [i for i, _ in body]
    region = _Region.around(items)
    return table_item(region, table, items), end


def _bands(body: list[tuple[Item, int]], ncols: int) -> list[list[tuple[Item, int]]]:
    """Body lines grouped into rows: a row ends between two lines where no column has a line
    above and a line below standing closer than a cell's line pitch. A row that still holds
    two cells of one column (a column's cell pitch bridged by a neighbour's longer, centred
    cell) parts where only one column bridges, at the widest such gap."""
    body = sorted(body, key=lambda e: -e[0].y)
    links = _links(body, ncols)
    bands: list[list[tuple[Item, int]]] = []
    start = 0
    for k in range(1, len(body) + 1):
        if k == len(body) or (links[k] == 0 and not _same_line(body, k)):
            bands += _part(body, start, k, links, ncols)
            start = k
    return bands


def _same_line(body: list[tuple[Item, int]], k: int) -> bool:
    return body[k - 1][0].y - body[k][0].y <= 0.5 * body[k][0].size


def _links(body: list[tuple[Item, int]], ncols: int) -> list[int]:
    """For the gap above each line: how many columns' cells run on across it."""
    links = [0] * (len(body) + 2)
    last: list[int | None] = [None] * ncols
    for k, (item, col) in enumerate(body):
        prev = last[col]
        if prev is not None and _close(body[prev][0], item):
            links[prev + 1] += 1  # marked at both ends, summed below: linear in the lines
            links[k + 1] -= 1
        last[col] = k
    return _running(links)


def _running(marks: list[int]) -> list[int]:
    total = 0
    out = []
    for mark in marks:
        total += mark
        out.append(total)
    return out


def _close(upper: Item, lower: Item) -> bool:
    return upper.y - lower.y <= CELL_PITCH * max(upper.size, lower.size)


def _part(body: list[tuple[Item, int]], start: int, end: int, links: list[int],
          ncols: int) -> list[list[tuple[Item, int]]]:
    """One row, or several where it holds cells of one column apart (see ``_bands``): it
    parts in the gaps that only one column bridges and that at least two columns' cells
    end in, at the widest of each run of such gaps."""
    breaks = [0] * (end + 2)
    last: list[int | None] = [None] * ncols
    for k in range(start, end):
        item, col = body[k]
        prev = last[col]
        if prev is not None and not _close(body[prev][0], item):
            breaks[prev + 1] += 1
            breaks[k + 1] -= 1
        last[col] = k
    breaks = _running(breaks)
    cuts: list[int] = []
    run: list[int] = []
    for k in range(start + 1, end + 1):
        if k < end and not _same_line(body, k) and links[k] <= 1 and breaks[k] >= 2:
            run.append(k)
        elif run:
            cuts.append(max(run, key=lambda g: body[g - 1][0].y - body[g][0].y))
            run = []
    bounds = [start] + cuts + [end]
    return [body[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def _reads_on(rows: list[list[dict[str, Any]]]) -> bool:
    """Whether cells found by alignment alone are lines of prose set side by side (a page's
    text columns, a brochure's panels): their cells hold several words, and down the columns
    most cells run on into the cell below as one sentence (no stop at the end, a small letter
    at the start of the next). A table's cells each say their own thing."""
    columns: dict[int, list[str]] = {}
    for _, col, cell in places(rows):
        columns.setdefault(col, []).append(str(cell["text"]))
    texts = [t for column in columns.values() for t in column if t]
    if not texts or sum(len(t.split()) for t in texts) < PROSE_WORDS * len(texts):
        return False
    pairs = runs = 0
    for column in columns.values():
        for upper, lower in zip(column, column[1:], strict=False):
            if upper and lower:
                pairs += 1
                runs += not _STOP.search(upper) and lower[0].islower()
    return pairs >= 3 and runs >= 0.5 * pairs


def places(rows: list[list[dict[str, Any]]]) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Each cell of a table's ``rows`` with the row and column of its first box, row by row:
    a cell spanning rows above takes its columns in the rows it reaches."""
    taken: set[tuple[int, int]] = set()
    for r, row in enumerate(rows):
        col = 0
        for cell in row:
            while (r, col) in taken:
                col += 1
            span = int(cell.get("colspan", 1))
            taken.update((r + k, col + j) for k in range(1, int(cell.get("rowspan", 1))) for j in range(span))
            yield r, col, cell
            col += span


def _width(rows: list[list[dict[str, Any]]]) -> int:
    return max((sum(int(c.get("colspan", 1)) for c in row) for row in rows), default=0)


def continues_table(tail: dict[str, Any], head: dict[str, Any], tail_bottom: float, head_top: float,
                    zone: float) -> bool:
    """Whether ``head`` (the first block of a page, a table starting in its top ``zone``)
    goes on with ``tail`` (the last table of the page before, ending in its bottom
    ``zone``): both as many columns wide. Heights are shares of the page (0 bottom, 1 top)."""
    return tail_bottom <= zone and head_top >= 1 - zone and same_columns(tail, head)


def same_columns(tail: dict[str, Any], head: dict[str, Any]) -> bool:
    """Are two tables as many columns wide (one broken by a page's or a column's end)?"""
    return _width(tail["rows"]) == _width(head["rows"]) > 0


def headless(table: dict[str, Any]) -> bool:
    """Has ``table`` no head of its own: none taken, or its head rows each a label and then
    figures (``_label_then_figures``: a row of the body's, no head)?"""
    return all(_label_then_figures([cell["text"] for cell in row])
               for row in table["rows"][:table.get("header_rows") or 0])


def _label_then_figures(texts: list[str]) -> bool:
    """Are a row's cells a label (letters, a short one too: 'UK'; no number) and then figures
    (``_figure``), a digit among them: a statistics table's row of its body?"""
    label, figures = (texts[0], texts[1:]) if texts else ("", [])
    return bool(figures) and not _numeric(label) and any(ch.isalpha() for ch in label) and \
        all(_figure(text) for text in figures) and any(ch.isdigit() for text in figures for ch in text)


def rows_going_on(tail: dict[str, Any], lines: list[list[Item]]) -> list[list[dict[str, Any]]] | None:
    """The rows of ``tail`` (a table a page's end broke) that the next page prints at its top
    as lines of text: too few, and without the heads, to be read as a table alone. Each line
    (its segments) parts at spaces wider than any word's (``LABEL_GAP_EM``) into as many cells
    as the table has columns: a label (letters, a short one too: 'UK'), then figures (a digit
    among them); each column's cells start or end together from line to line (a column of
    figures aligned on their decimal point may do neither, where no cell of it reaches the
    next column's; the lines a column's end broke off, read on at the head of the next, line up
    among themselves). None when any line is otherwise."""
    width = _width(tail["rows"])
    found: list[list[tuple[float, float, str]]] = []
    for line in lines:
        cells = _gap_cells(line)
        if len(cells) != width or width < 2:
            return None
        if not _label_then_figures([text for _, _, text in cells]):
            return None
        found.append(cells)
    breaks = [k for k in range(1, len(found)) if found[k][0][0] >= found[k - 1][-1][1]]  # (the next column's)
    for first, last in zip([0, *breaks], [*breaks, len(found)], strict=True):
        columns = list(zip(*found[first:last], strict=True))
        apart = all(max(c[1] for c in column) < min(c[0] for c in after)
                    for column, after in zip(columns, columns[1:], strict=False))
        for column in columns:
            if not (all(abs(c[0] - column[0][0]) <= SNAP for c in column) or
                    all(abs(c[1] - column[0][1]) <= SNAP for c in column) or apart and _figure(column[0][2])):
                return None  # not set in columns
    return [[{"text": text} for _, _, text in cells] for cells in found] if found else None


def _gap_cells(line: list[Item]) -> list[tuple[float, float, str]]:
    """A line's segments parted at spaces wider than any word's (``LABEL_GAP_EM``): its cells,
    (x0, x1, text) left to right."""
    parts = sorted((x0, x1, text.strip(), item.size) for item in line for x0, x1, text in item.parts if text.strip())
    cells: list[tuple[float, float, str]] = []
    for x0, x1, text, size in parts:
        if cells and x0 - cells[-1][1] < LABEL_GAP_EM * size:
            cells[-1] = (cells[-1][0], x1, f"{cells[-1][2]} {text}")
        else:
            cells.append((x0, x1, text))
    return cells


def head_left(lines: list[list[Item]]) -> list[list[dict[str, Any]]] | None:
    """The head rows of a table that a page's end left alone under its caption, its rows printed
    at the next page's head: one line, in bold, parting at spaces wider than any word's into two
    cells or more; or two lines, the first its group heads (in bold or not), each centred over
    two cells of the second or more (``_group_row``). None when the lines are otherwise."""
    if not 1 <= len(lines) <= 2 or not all(item.bold_all for item in lines[-1]):
        return None
    cells = _gap_cells(lines[-1])
    if len(cells) < 2:
        return None
    head = [{"text": text} for _, _, text in cells]
    if len(lines) == 1:
        return [head]
    group = _group_row(_gap_cells(lines[0]), cells, max(item.size for item in lines[0]))
    return None if group is None else [group, head]


def _group_row(groups: list[tuple[float, float, str]], cells: list[tuple[float, float, str]],
               em: float) -> list[dict[str, Any]] | None:
    """The row of group heads over a line of heads (``cells``): each group head spans the run of
    two heads or more whose text it is centred over (its middle within an em of theirs, itself
    within their reach), the nearest such run; the heads under none have an empty cell over
    them. None when a group head is centred over no run, or two share a head."""
    spans: list[tuple[int, int, str]] = []
    for x0, x1, text in groups:
        runs = [(abs((x0 + x1) / 2 - (cells[i][0] + cells[j][1]) / 2), i, j)
                for i in range(len(cells)) for j in range(i + 1, len(cells))
                if cells[i][0] - em <= x0 and x1 <= cells[j][1] + em]
        off, i, j = min(runs, default=(math.inf, 0, 0))
        if off > em or spans and i <= spans[-1][1]:
            return None
        spans.append((i, j, text))
    row: list[dict[str, Any]] = []
    column = 0
    for i, j, text in spans:
        row += [{"text": ""} for _ in range(column, i)]
        row.append({"text": text, "colspan": j - i + 1})
        column = j + 1
    return row + [{"text": ""} for _ in range(column, len(cells))]


def repeats_head(tail: dict[str, Any], head: dict[str, Any]) -> bool:
    """Does ``head`` (a table's part going on from ``tail``) open with ``tail``'s head rows
    printed again? Otherwise its first row is one of the body, its head the part before's."""
    repeat = head.get("header_rows", 0)
    return bool(repeat) and [[c["text"] for c in r] for r in head["rows"][:repeat]] == \
        [[c["text"] for c in r] for r in tail["rows"][:repeat]]


def join_rows(tail: dict[str, Any], head: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The rows of a table continued in the next column: a header repeated there is dropped."""
    return tail["rows"] + head["rows"][head.get("header_rows", 0) if repeats_head(tail, head) else 0:]
