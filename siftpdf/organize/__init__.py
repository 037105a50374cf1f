"""Organization: the article, not the page (README, The article, not the page).

``organize_records`` is a streaming transform over doc-stream records whose pages carry
evidence: it holds a bounded window of pages (furniture is decided by repetition over the
neighbouring pages; a paragraph continued across a page break needs the next page), never the
whole document. Everything here is pure over the evidence dicts: a saved evidence stream is
organized again, with other settings, without the PDF.
"""

from __future__ import annotations

import math
from collections import deque
from functools import cached_property

from ..document import table_text
from ..lazyre import IGNORECASE, lazy
from ..settings import OrganizeOptions
from .headings import Levels, Outline
from .layout import (
    BODY_CHARS,
    DATE_FORM,
    FLOATS,
    RIGHTS,
    SPREAD,
    Block,
    Item,
    a_word,
    body_size,
    broken_word,
    build_blocks,
    figure_items,
    is_caption,
    is_leader,
    join_text,
    justified_edges,
    line_segments,
    may_stretch,
    median,
    narrow_gutters,
    next_word_fits,
    page_gutter,
    page_size,
    reading_order,
    run_gutters,
    stretched_spans,
)
from .tables import (
    PAIR_ROWS,
    continues_table,
    find_tables,
    head_left,
    headed_tables,
    headless,
    join_rows,
    read_rules,
    repeats_head,
    rows_going_on,
    same_columns,
    unruled_tables,
)
from .turned import turn_back, turn_of, upright

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator
    from typing import Any

    from .tables import Rules

MARGIN_SHARE = 0.12  # running heads and folios sit in the outer 12% of the page height
MARGIN_LINES = 3  # and among the three outermost lines there
MARGIN_WORDED = 5  # or among the five, when a line of words
MIN_REPEAT_PAGES = 3
_DIGITS = lazy(r"[0-9０-９]+")
_ROMAN = lazy(r"\b[ivxlc]+\b")
_SPACE = lazy(r"\s+")
# One number, with its marks ('- 4 -', '[12]', 'Page 3', 'Page 3 of 9', '3 / 9', '第3页'); not two
# numbers joined by a point or a dash: '(15.19)' numbers an equation, '2.1' a section.
_PAGE_NUMBER = lazy(r"^[^\w#]*(page|p\.|第)?[^\w#]*#[^\w#]*((页(共#页)?|/[^\w#]*#|of#)[^\w#]*)?$", IGNORECASE)
REPEAT_SHARE = 0.4  # of the pages in the window: alternating odd/even heads still qualify


def template(text: str) -> str:
    """A line's furniture template: digit runs (ASCII and full-width) and roman numerals
    collapsed, spaces dropped, case folded; '— ５６ —' and '— ５７ —' are one template."""
    text = _DIGITS.sub("#", text.lower())
    return _SPACE.sub("", _ROMAN.sub("#", text))


class _Page:
    """A page on its way through the window."""

    def __init__(self, record: dict[str, Any], error: str | None = None) -> None:
        self.record = record
        self.rows: list[list[Item]] = []  # segments by baseline, top down
        self.margin: dict[int, str] = {}  # id(item) -> band:template
        self.parts: dict[int, list[str]] = {}  # id(item) -> band:template of each part of a spread margin line
        self.stamps: dict[int, str] = {}  # id(item) -> side:template, text set up the side margin (or across it)
        self.oblique: dict[int, str] = {}  # id(item) -> watermark:template, slanted text no watermark by its size
        self.drawn_again = 0  # characters of text drawn again on the same spot, read once
        self.blocks: list[Block] = []
        self.furniture: list[dict[str, Any]] = []
        self.error = error  # why organizing this page failed: it goes out with its raw text
        self.recurring: set[str] = set()  # margin templates also on another page of the window
        self.numbered = False  # the pages of its window carry their numbers in a margin
        self.slots: dict[int, str] = {}  # id(item) -> where and how a small line heads the page
        self.folios: dict[int, str] = {}  # id(item) -> the outermost line's number against the page's
        self.turn = 0  # degrees the page is read turned (siftpdf.organize.turned), 0: as it stands
        self.original: dict[str, Any] | None = None  # the evidence as it came, when read turned
        self.gutter: tuple[float, float] | None = None  # (the gutter between its two columns it was read by,
        # its width), for the next page

    @property
    def number(self) -> int:
        return int(self.record["page"])

    @cached_property
    def body(self) -> float:
        """The size most of the page's text is set in (notes not weighed apart); the rows are
        complete once the page is prepared."""
        return body_size([i for row in self.rows for i in row])

    @cached_property
    def rules(self) -> Rules:
        """The page's rules (``read_rules``), read once for its tables and its running head's."""
        evidence = self.record["evidence"]
        return read_rules(evidence, *page_size(evidence))

    @cached_property
    def part_keys(self) -> set[str]:
        """The templates of the parts of its spread margin lines (``_spread_parts``)."""
        return {key for keys in self.parts.values() for key in keys}

    @cached_property
    def keys(self) -> set[str]:
        """The margin's templates and the slots of its head; asked of each page once per page
        of its window, and the margin is complete once the page is prepared."""
        return {*self.margin.values(), *self.slots.values(), *self.folios.values(), *self.oblique.values()}


def organize_records(records: Iterable[dict[str, Any]],
                     opts: OrganizeOptions) -> Generator[dict[str, Any], None, None]:
    """Organize a doc stream's pages; meta, done and errors pass through (done gains the
    organization diagnostics). Pages without evidence pass through unchanged."""
    state = _Stream(opts)
    for record in records:
        if "page" in record:
            yield from state.push(record)
        elif "meta" in record:
            state.expected = _expected_pages(record["meta"])
            state.outline = Outline(record["meta"].get("outline"))
            yield record
        else:
            yield from state.flush()
            if "done" in record and (state.organized or "organization" not in record["done"]):
                record["done"]["organization"] = state.diagnostics()
                record["done"]["organize_fallbacks"] = state.fallbacks
            yield record
    yield from state.flush()


def _expected_pages(meta: dict[str, Any]) -> int:
    pages, cap = int(meta.get("pages") or 0), int(meta.get("max_pages") or 0)
    return min(pages, cap) if cap > 0 else pages


# Evidence is whatever the engine saw in a hostile file: no page's content may end the document
# (README, Safety), so each per-page step is guarded and a page it fails on keeps its raw text.
_PAGE_FAULTS = (Exception, RecursionError)
ERROR_CHARS = 300


def _failure(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:ERROR_CHARS]


class _Stream:
    def __init__(self, opts: OrganizeOptions) -> None:
        self.opts = opts
        self.expected = 0
        self.pending: deque[_Page] = deque()  # prepared, waiting for pages after them
        # pages gone by: their margin keys, and those of their spread lines' parts
        self.history: deque[tuple[int, set[str], set[str]]] = deque(maxlen=opts.window)
        self.held: _Page | None = None  # organized, waiting for the next page's first block
        self.seen = 0
        self.organized = 0  # pages organized here (a saved stream without evidence has none)
        self.without_evidence = 0
        self.ruling_skipped = 0  # pages whose evidence has no ruling: too many paths to read
        self.drawn_again = 0  # characters drawn twice on the same spot, read once
        self.tex_math = 0  # glyphs without Unicode read through a TeX math font's encoding
        self.fallbacks = 0  # pages whose organization failed, sent out with their raw text
        self.previous_body = 10.0
        self.previous_gutter: tuple[float, float] | None = None  # the page before's gutter and width
        self.outline = Outline()  # the meta's outline: its titles become headings at its depths
        self.levels = Levels()  # heading sizes seen so far: levels by rank

    def repetition(self) -> bool:
        return self.opts.furniture and max(self.expected, self.seen) >= MIN_REPEAT_PAGES

    def diagnostics(self) -> dict[str, Any]:
        result: dict[str, Any] = {"enabled": self.opts.enabled, "digest": self.opts.digest(),
                                  "furniture_repetition_skipped": self.opts.enabled and not self.repetition()}
        if result["furniture_repetition_skipped"]:
            result["furniture_note"] = (f"furniture by repetition needs at least {MIN_REPEAT_PAGES} pages:"
                                        " page numbers, small running heads and side-margin stamps were found"
                                        " by form alone"
                                        if self.opts.furniture else "turned off (organize.furniture=false)")
        if self.without_evidence:
            result["pages_without_evidence"] = self.without_evidence
        if self.ruling_skipped:
            result["ruling_skipped_pages"] = self.ruling_skipped
        if self.drawn_again:
            result["drawn_twice_chars"] = self.drawn_again
        if self.tex_math:
            result["tex_math_chars"] = self.tex_math
        return result

    def push(self, record: dict[str, Any]) -> Iterator[dict[str, Any]]:
        self.seen += 1
        evidence = record.get("evidence")
        if not isinstance(evidence, dict) or record.get("status") == "failed":
            if record.get("status") != "failed":
                self.without_evidence += 1
            yield from self.flush()
            yield self._finish_plain(record)
            return
        if not self.opts.enabled:
            self.organized += 1
            yield from self.flush()
            yield self._finish_raw(record)
            return
        self.organized += 1
        self.ruling_skipped += evidence.get("rules_skipped") is True
        tex_math = evidence.get("tex_math_chars")
        self.tex_math += tex_math if type(tex_math) is int and tex_math > 0 else 0
        self.pending.append(self._prepared(record))
        while len(self.pending) > self.opts.window:
            yield from self._advance()

    def _prepared(self, record: dict[str, Any]) -> _Page:
        """The page prepared for the window; one that fails waits its turn in page order with
        nothing in its margin, so it weighs on no neighbour's furniture."""
        try:
            page = _prepare(record, self.opts)
            self.drawn_again += page.drawn_again
            return page
        except _PAGE_FAULTS as exc:  # noqa: BLE001 - this page falls back, the rest go on
            return _Page(record, error=_failure(exc))

    def flush(self) -> Iterator[dict[str, Any]]:
        while self.pending:
            yield from self._advance()
        if self.held:
            yield self._emit(self.held)
            self.held = None

    def _advance(self) -> Iterator[dict[str, Any]]:
        page = self.pending.popleft()
        if page.error is None:
            self._organize_page(page)
        held, self.held = self.held, None
        if held is not None:
            if page.error is None:
                self._join(held, page)
            yield self._emit(held)
        if page.error is None:
            self.held = page
        else:
            yield self._fallback(page)

    def _organize_page(self, page: _Page) -> None:
        try:
            repeated = self._repeated(page) if self.repetition() else None if self.opts.furniture else set()
            body = _organize(page, repeated, self.opts, self.previous_body, (self.outline, self.levels),
                             self.previous_gutter)
            if page.original is not None:
                turn_back(page.blocks, page.furniture, page.number, page.turn, *page_size(page.original))
        except _PAGE_FAULTS as exc:  # noqa: BLE001 - this page falls back, the rest go on
            page.error = _failure(exc)
            return
        self.history.append((page.number, page.keys, page.part_keys))
        self.previous_body = body
        self.previous_gutter = page.gutter

    def _join(self, before: _Page, after: _Page) -> None:
        """A paragraph continued over the break; ``_continue`` changes nothing until it has
        decided, so a failure leaves ``before`` whole and only ``after`` falls back."""
        try:
            if self.opts.continuation and before.number + 1 == after.number:
                _continue(before, after, self.opts)
                _continue_part(before, after)
        except _PAGE_FAULTS as exc:  # noqa: BLE001 - this page falls back, the rest go on
            after.error = _failure(exc)

    def _repeated(self, page: _Page) -> set[str]:
        """Templates of this page's margin lines that recur on at least three pages of the
        window around it (and, in ``page.recurring``, those on another page at least). A line
        on every other page of the window, on three at least, recurs too: a running head that
        alternates between left- and right-hand pages, near a document's first or last page
        (its first page aside: a title page carries no running lines), and so does a line on
        every page but the first of a short document seen whole (pages 2 and 3 of three).
        A small head's slot (``_head_slots``: its place and type, not its words) recurs on most
        of the pages around it."""
        around = [*self.history, *((p.number, p.keys, p.part_keys) for p in self.pending)]
        page.recurring = {key for key in page.keys if any(key in keys for _, keys, _ in around)}
        # The share is of a full window (or of the document when shorter): near the end of a
        # document the window is short, and three hits there are no stronger evidence.
        span = max(1 + len(around), min(2 * self.opts.window + 1, max(self.expected, self.seen)))
        need = max(MIN_REPEAT_PAGES, math.ceil(REPEAT_SHARE * span))
        facing = [keys for number, keys, _ in around if (number - page.number) % 2 == 0 and number > 1]
        # A short document seen whole: its pages after the title page, which carries no running lines.
        after_title = [keys for number, keys, _ in around if number > 1] \
            if page.number > 1 and 1 + len(around) >= max(self.expected, self.seen) else []
        found = set()
        # A line is looked for among the parts of the other pages' spread lines too, but on a
        # title page: its title is no running head because the pages after it print it beside
        # their folios.
        titled = page.number == 1
        for key in page.keys:
            hits = 1 + sum(key in keys or not titled and key in parts for _, keys, parts in around)
            if key.startswith(_SLOT):  # a place and a type, not words: on most pages around it
                if hits >= max(MIN_REPEAT_PAGES, math.ceil(SLOT_SHARE * (1 + len(around)))):
                    found.add(key)
            elif hits >= need or len(facing) >= MIN_REPEAT_PAGES - 1 and all(key in keys for keys in facing) or \
                    len(after_title) >= MIN_REPEAT_PAGES - 2 and all(key in keys for keys in after_title):
                found.add(key)
        for key in page.part_keys - page.keys:  # a spread line's parts, among the others' lines and parts
            if 1 + sum(key in keys or key in parts for _, keys, parts in around) >= need:
                found.add(key)
        # The pages around carry their numbers in a margin: this page's own, set elsewhere, is too.
        page.numbered = bool(around) and sum(any(_numbering(key) for key in keys) for _, keys, _ in around) >= \
            max(MIN_REPEAT_PAGES - 1, math.ceil(REPEAT_SHARE * len(around)))
        return found

    def _emit(self, page: _Page) -> dict[str, Any]:
        try:
            text, blocks = render_blocks(page.blocks), [b.to_record() for b in page.blocks]
        except _PAGE_FAULTS as exc:  # noqa: BLE001 - this page falls back, the rest go on
            page.error = _failure(exc)
            return self._fallback(page)
        record = page.record
        raw = record.get("text", "")
        record["text"], record["blocks"], record["furniture"] = text, blocks, page.furniture
        if page.original is not None:
            record["evidence"] = page.original
        return self._evidence_out(record, raw)

    def _fallback(self, page: _Page) -> dict[str, Any]:
        """A page whose organization failed: its raw text, and why (``organize_error``)."""
        self.fallbacks += 1
        if page.original is not None:
            page.record["evidence"] = page.original
        record = self._finish_raw(page.record)
        record["organize_error"] = page.error
        return record

    def _finish_raw(self, record: dict[str, Any]) -> dict[str, Any]:
        evidence = record.get("evidence") or {}
        # Damaged evidence may hold anything: text is a string whatever it holds.
        raw = next((t for t in (evidence.get("raw_text"), record.get("text")) if isinstance(t, str)), "")
        record["text"] = raw
        record.pop("blocks", None)
        record.pop("furniture", None)
        return self._evidence_out(record, raw)

    def _finish_plain(self, record: dict[str, Any]) -> dict[str, Any]:
        return record

    def _evidence_out(self, record: dict[str, Any], raw: str) -> dict[str, Any]:
        evidence = record.pop("evidence", None)
        if self.opts.emits_evidence and isinstance(evidence, dict):
            evidence.setdefault("raw_text", raw)
            record["evidence"] = evidence
        return record


def _prepare(record: dict[str, Any], opts: OrganizeOptions) -> _Page:
    """Segments by baseline and the templates of the margin lines: all that the window needs.
    A page whose text runs up or down the page is prepared as the page turned upright shows
    it (siftpdf.organize.turned); its evidence goes out as it came."""
    turn = turn_of(record["evidence"])
    if not turn:
        return _prepare_rows(record, opts)
    original = record["evidence"]
    record["evidence"] = upright(original, turn)
    try:
        page = _prepare_rows(record, opts)
    except BaseException:
        record["evidence"] = original
        raise
    page.turn, page.original = turn, original
    return page


def _prepare_rows(record: dict[str, Any], opts: OrganizeOptions) -> _Page:
    page = _Page(record)
    evidence = record["evidence"]
    width, height = page_size(evidence)
    lines = evidence.get("lines", [])
    channels = narrow_gutters(lines) if opts.columns else None
    gutters = run_gutters(lines) if opts.columns else None
    rotated: list[Item] = []
    slanted: list[Item] = []
    parted: list[tuple[int, dict[str, Any]]] = []  # rows of lines parted in segments, to look at again
    for line in lines:
        items, again = line_segments(line, keep_clipped=not opts.clip, channels=channels, gutters=gutters)
        page.drawn_again += again
        if items:
            if len(items) > 1 and not line.get("rotated"):
                parted.append((len(page.rows), line))
            page.rows.append(items)
            if line.get("rotated"):
                rotated += items
                if _slanted(line):
                    slanted += items
    if parted:
        _stretched_lines(page, parted, opts, channels, gutters)
    if rotated:
        page.stamps = _side_stamps(rotated, page.rows, width)
    if slanted:
        page.stamps.update(_watermarks(slanted, page.rows))
        page.oblique = {id(item): f"{_WATERMARK}{template(item.text)}" for item in slanted
                        if id(item) not in page.stamps}
    top = _margin_rows([r for r in page.rows if r[0].y1 >= height * (1 - MARGIN_SHARE)]) or _set_off(page.rows, 0)
    bottom = _margin_rows([r for r in page.rows if r[0].y0 <= height * MARGIN_SHARE][::-1])[::-1] or \
        _set_off(page.rows, -1)
    for band, rows in (("top", top), ("bottom", bottom)):
        for row in rows:
            for item in row:
                page.margin[id(item)] = f"{band}:{template(item.text)}"
                if item.spread:
                    page.parts[id(item)] = [f"{band}:{template(part)}" for part in _spread_parts(item)]
    for row in top[:HEAD_ROWS]:  # a running head of two lines: the chapter's, then the section's
        page.slots.update(_head_slots(page, row))
    for band, row in (("top", top[0] if top else []), ("bottom", bottom[-1] if bottom else [])):
        page.folios.update(_folio_keys(page, row, band))
    return page


def _margin_rows(band: list[list[Item]]) -> list[list[Item]]:
    """The rows of a margin band, outermost first, that may be running lines: the
    ``MARGIN_LINES`` outermost, and further in, up to ``MARGIN_WORDED``, those of words (a
    draft's footer of five lines: its stamp, date, file and book under the folio). A number
    further in is a figure's tick label, not a folio."""
    return band[:MARGIN_LINES] + [row for row in band[MARGIN_LINES:MARGIN_WORDED]
                                  if any(a_word(item.text) for item in row)]


def _stretched_lines(page: _Page, parted: list[tuple[int, dict[str, Any]]], opts: OrganizeOptions,
                     channels: list[float] | None, gutters: list[tuple[float, float, float, float]] | None) -> None:
    """Lines of justified text whose stretched spaces parted them word by word
    (``stretched_spans``) segmented again, each such span one segment, read whole: its words'
    wide spaces are no table's column gaps."""
    parted = [(index, line) for index, line in parted if may_stretch(page.rows[index])]
    edges = justified_edges(page.rows) if parted else []
    if not edges:
        return
    for index, line in parted:
        joins = stretched_spans(page.rows[index], edges)
        if joins:
            row = line_segments(line, keep_clipped=not opts.clip, channels=channels, gutters=gutters, joins=joins)[0]
            for item in row:
                if any(x0 <= item.x0 and item.x1 <= x1 for x0, x1 in joins):
                    item.pieces = []  # one stretch of text: no table's cells in it
            page.rows[index] = row


def _spread_parts(item: Item) -> list[str]:
    """The texts of a margin line's parts that stand a ``SPREAD`` apart: a running head's left
    and right parts ('Journal of …' and 'Vol. 39, No. 10') read as one segment on a page whose
    columns did not part it, and as two on the pages whose columns did."""
    parts: list[list[str]] = []
    gap = SPREAD * item.size
    end = None
    for x0, x1, text in item.pieces:
        if end is None or x0 - end > gap:
            parts.append([])
        parts[-1].append(text)
        end = x1
    return [" ".join(words) for words in parts]


HEAD_ROWS = 2  # lines of a running head whose place and type recur, its words changing
SLOT_POINTS = 2.0  # a running head stands within this of the same height from page to page
SLOT_SHARE = 0.6  # of the window's pages: a table's head or a figure's label at the top is on fewer
_SLOT = "slot:"


def _folio_keys(page: _Page, row: list[Item], band: str) -> dict[int, str]:
    """The outermost line's pieces that open or close with a number, keyed by how far that
    number stands from the page's place in the file: a folio set in one line with a running head
    ('20 Chapter 3. Functions', '3.3. Composition 19') keeps that distance from page to page
    while the head's words change with each section and its type is the text's. A line set
    larger than the text is a numbered title ('3 Measuring discharge' heading page 3 of a short
    guide), whatever page it opens."""
    keys = {}
    for item in row:
        text = item.text.strip()
        number = _FOLIO_ENDS.search(text) if len(text) <= LONE_HEAD_CHARS and item.size <= FOLIO_SIZE * page.body \
            else None
        figure = next((g for g in number.groups() if g), "") if number else ""
        value = int(figure) if figure.isdigit() else _roman(figure)
        if value:
            keys[id(item)] = f"{_FOLIO}{band}:{value - page.number}"
    return keys


FOLIO_SIZE = 1.05  # of the text's size, the largest a running line that holds the folio is set in
# A page's number alone, or opening or closing a line apart from its words: in figures or small roman.
_FOLIO_ENDS = lazy(r"^(\d{1,4}|[ivxlc]{1,7})(?:\s|$)|\s(\d{1,4}|[ivxlc]{1,7})$")
_FOLIO = "folio:"


_ROMAN_DIGITS = ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _roman(text: str) -> int:
    """The value of a small roman numeral written as folios are ('xiv'); 0 for letters that
    are none ('il', 'iiv', or empty)."""
    value, rest = 0, text
    for number, letters in _ROMAN_DIGITS:
        while rest.startswith(letters):
            value, rest = value + number, rest[len(letters):]
    return value if text and not rest and _written(value) == text else 0


def _written(value: int) -> str:
    out = ""
    for number, letters in _ROMAN_DIGITS:
        count, value = divmod(value, number)
        out += letters * count
    return out


def _head_slots(page: _Page, row: list[Item]) -> dict[int, str]:
    """Where and how one of the page's top lines is set, when it is short and smaller than the
    text: a running head whose words change from section to section ('2 Asynchronous
    Distributed Systems', then '3 Distributed Computations') recurs in its place and its type,
    not in its words; so does the section's line under the chapter's. At the foot a note's last
    line is set so too, and only the head is taken."""
    if any(len(i.text) > LONE_HEAD_CHARS for i in row) or any(i.size > LONE_HEAD_SIZE * page.body for i in row):
        return {}  # the length first: most pages open with a line of text, and the body costs a pass
    return {id(i): f"{_SLOT}{round(i.y / SLOT_POINTS)}:{round(2 * i.size)}:{i.bold}:{i.caps}" for i in row}


def _set_off(rows: list[list[Item]], end: int) -> list[list[Item]]:
    """Where the margins are wider than the band (a small text block on A4, a scan with a wide
    border), the outermost line (``end``: 0 the top, -1 the bottom) when it is set off from the
    text by more than ``SET_OFF`` line pitches and no larger than the text: a running head
    or a folio, not a chapter's title. The pitch is the median step, not ``_row_pitch``'s
    lower quartile: a table's last row under a taller one would stand set off by that; where
    lines of running text follow one another, their median step when it is the smaller (a
    page of displayed formulas, each set off by space, between a few lines of text)."""
    if len(rows) < 4:
        return []
    outer, inner = rows[end], rows[1 if end == 0 else -2]
    steps = [(a[0].y - b[0].y, _prose(a) and _prose(b))
             for a, b in zip(rows, rows[1:], strict=False) if a[0].y > b[0].y]
    pitch = median([step for step, _ in steps])
    prose = [step for step, both in steps if both]
    if len(prose) >= MIN_PROSE_STEPS:
        pitch = min(pitch, median(prose))
    sizes = sorted(r[0].size for r in rows)
    if not steps or max(i.size for i in outer) > LARGER * sizes[len(sizes) // 2]:
        return []
    gap = outer[0].y - inner[0].y if end == 0 else inner[0].y - outer[0].y
    numbers = [i.text for i in outer if _PAGE_NUMBER.match(template(i.text))]
    if gap <= SET_OFF * pitch or _same_form(outer, inner) or len(numbers) > 1 or \
            any(sum(ch.isdigit() for ch in number) > FOLIO_DIGITS for number in numbers):
        return []  # one page number of a few digits a line: not a table's row, a date, a code
    return [outer]


MIN_PROSE_STEPS = 3
PROSE_CHARS = 40  # a row this long is a line of running text, not a formula's or a table's


def _prose(row: list[Item]) -> bool:
    return sum(len(i.text) for i in row) >= PROSE_CHARS


def _same_form(one: list[Item], other: list[Item]) -> bool:
    """Two lines of one form: as many pieces, a number at the same end (two entries of a
    contents page, two rows of a table ending in '[28]' and '[31]'; not a last entry and a
    folio)."""
    return len(one) == len(other) and any(_PAGE_NUMBER.match(template(one[k].text)) and
                                          _PAGE_NUMBER.match(template(other[k].text)) for k in (0, -1))


SET_OFF = 1.5  # line pitches between the text and a running head or folio set off from it
LARGER = 1.15  # of the text's size: a line set larger is no running head


STAMP_MARGIN = 0.12  # of the page width: a stamp runs up the outer 12% at either side
STAMP_LINES = 2  # a stamp is a line or two; more turned lines there are a form's or a table's labels
STAMP_GAP = 1.0  # body sizes of whitespace between a stamp and the text beside it


def _side_stamps(rotated: list[Item], rows: list[list[Item]], width: float) -> dict[int, str]:
    """Text turned to run up the side margin, clear of all the page's other text: a download or
    archive stamp ('arXiv:1703.00983v1 [cs.DB] 2 Mar 2017', 'Downloaded from … on …'), never
    the article's. A side with more turned lines than a stamp has holds labels; a page with no
    other text has no margin to tell."""
    turned = {id(item) for item in rotated}
    others = [item for row in rows for item in row if id(item) not in turned]
    if not others:
        return {}
    left, right = min(i.x0 for i in others), max(i.x1 for i in others)
    gap = STAMP_GAP * body_size(others)
    sides = {"left": [i for i in rotated if i.x1 <= min(STAMP_MARGIN * width, left - gap)],
             "right": [i for i in rotated if i.x0 >= max((1 - STAMP_MARGIN) * width, right + gap)]}
    return {id(item): f"side:{template(item.text)}" for items in sides.values()
            if _turned_lines(items) <= STAMP_LINES for item in items}


def _turned_lines(items: list[Item]) -> int:
    """How many lines turned up the page ``items`` make: the pieces of one follow one another
    up the same x, a word space apart; labels down a form's margin stand further apart."""
    ends: list[Item] = []  # the last piece of each line so far
    for item in sorted(items, key=lambda i: i.y0):
        line = next((k for k, end in enumerate(ends) if end.x0 < item.x1 and item.x0 < end.x1
                     and -item.size <= item.y0 - end.y1 <= TURNED_SPACE * item.size), None)
        if line is None:
            ends.append(item)
        else:
            ends[line] = item
        if len(ends) > STAMP_LINES:
            break  # enough to tell: bounded however many pieces a hostile page turns
    return len(ends)


TURNED_SPACE = 1.5  # sizes between the pieces of one turned line


def _slanted(line: dict[str, Any]) -> bool:
    """Is a line set at a slant, neither along nor across the page (a watermark drawn
    corner to corner, a chart's labels turned to fit)?"""
    for run in line["runs"]:
        angle = run.get("angle")
        if type(angle) in (int, float) and SLANT <= angle % 90 <= 90 - SLANT:
            return True
    return False


def _watermarks(slanted: list[Item], rows: list[list[Item]]) -> dict[int, str]:
    """Text set at a slant across the page in type larger than its text's (``WATERMARK_SIZE``):
    a watermark ('SAMPLE', 'DRAFT', a seller's name over every page), never the article's. A
    chart's labels turned to fit are set as small as the text; a page with no other text has
    no body to measure it by. Slanted text as small, found on other pages of the window too, is
    a watermark by repetition (``_Page.oblique``)."""
    turned = {id(item) for item in slanted}
    others = [item for row in rows for item in row if id(item) not in turned]
    if not others:
        return {}
    least = WATERMARK_SIZE * body_size(others)
    return {id(item): f"{_WATERMARK}{template(item.text)}" for item in slanted if item.size >= least}


SLANT = 8  # degrees off the page's axes from which a line is set at a slant (a turned page's are square to it)
WATERMARK_SIZE = 1.5  # of the body size: slanted text this large is a watermark
_WATERMARK = "watermark:"


def _organize(page: _Page, repeated: set[str] | None, opts: OrganizeOptions, previous_body: float,
              headings: tuple[Outline, Levels] | None = None,
              previous_gutter: tuple[float, float] | None = None) -> float:
    """Blocks and furniture of one page; returns the body size for the next page to fall back on.
    ``headings``: the document's outline and its running heading levels; ``previous_gutter``:
    the gutter the page before was read by and its width, for a page too bare to show its own
    columns (one as wide and read as it stands)."""
    outline, levels = headings or (Outline(), Levels())
    evidence = page.record["evidence"]
    width, height = page_size(evidence)
    known = previous_gutter[0] if previous_gutter is not None and not page.turn and \
        abs(previous_gutter[1] - width) <= 1.0 else None
    rows: list[list[Item]] = []
    furniture = _furniture_items(page, repeated)
    if opts.furniture:
        furniture |= page.stamps.keys()
        if repeated:  # slanted text that recurs is a watermark however small
            for ident, key in page.oblique.items():
                if key in repeated:
                    furniture.add(ident)
                    page.stamps[ident] = key
    for row in page.rows:
        body = [i for i in row if id(i) not in furniture]
        for item in row:
            if id(item) in furniture:
                page.furniture.append(_furniture(page.stamps.get(id(item)) or page.margin[id(item)], item,
                                                 page.number))
        if body:
            rows.append(body)
    if opts.tables:
        rows = unruled_tables(headed_tables(find_tables(rows, page.rules), width), width, known)
    items = [item for row in rows for item in row]
    chars = sum(len(i.text) for i in items)
    own = [i for i in items if not i.pictured]
    if len(own) < len(items) and (page.record.get("status") != "text" or sum(len(i.text) for i in own) < BODY_CHARS):
        for item in items:  # a scanned page: OCR's text is the page's own, its sizes rank as any
            item.pictured = False
        own = items
    body_pt = body_size(own, notes=True, known=previous_body) if chars >= BODY_CHARS else previous_body
    if opts.figures and items:
        items += figure_items(evidence.get("images", []), width * height)
    ordered = reading_order(items, width, opts.columns, known)
    gutter = page_gutter(ordered)
    page.gutter = (gutter, width) if gutter is not None and not page.turn else None
    page.blocks = _heads_over_rows(_tables_over_columns(build_blocks(ordered, page.number, body_pt, opts,
                                                                     outline.titles(page.number), levels, height),
                                                        page), page)
    return body_pt


def _heads_over_rows(blocks: list[Block], page: _Page) -> list[Block]:
    """A table of a label and its figures too short, or too broken, to be found from its rows:
    its head in bold under its caption, then paragraphs each of whose lines is one of its rows
    (``_head_and_rows``: a column's end broke the table, its first rows at the foot of one
    column, the rest at the head of the next). The head and those paragraphs are one table
    block, at least two rows under the head; so are the head and the table block right after
    it, as many columns wide and with no head of its own (``headless``: its rows read at the
    head of the next column)."""
    out: list[Block] = []
    k = 0
    while k < len(blocks):
        block = blocks[k]
        out.append(block)
        found = _head_and_rows(blocks, k, page)
        k += 1
        if found is None:
            continue
        rows, taken, heads = found
        under = blocks[k + taken] if k + taken < len(blocks) else None
        if len(rows) == heads and under is not None and under.table is not None and \
                headless(under.table) and same_columns({"rows": rows}, under.table):
            rows, taken = rows + under.table["rows"], taken + 1
        if len(rows) - heads < PAIR_ROWS:
            continue
        _into_table(block, {"rows": rows, "header_rows": heads}, blocks[k:k + taken])
        k += taken
    return out


def _head_and_rows(blocks: list[Block], k: int, page: _Page) -> tuple[list[list[dict[str, Any]]], int, int] | None:
    """A table's head left in bold under its caption (``head_left``) at ``blocks[k]`` (or its
    group heads there, its line of heads the next block), and the rows the paragraphs right
    after it hold, each of whose lines is one (``rows_going_on``): its rows, the heads first, how
    many blocks after ``blocks[k]`` hold them, and how many rows are heads. None when
    ``blocks[k]`` is no such head."""
    block = blocks[k]
    if k == 0 or blocks[k - 1].kind != "caption" or block.kind not in ("heading", "paragraph"):
        return None
    lines = _lines_of(block, page)
    heads, taken = head_left(lines), 0
    if heads is None and len(lines) == 1 and k + 1 < len(blocks) and blocks[k + 1].kind in ("heading", "paragraph"):
        heads, taken = head_left(lines + _lines_of(blocks[k + 1], page)), 1  # group heads over the line of heads
    if heads is None:
        return None
    rows = list(heads)
    while k + 1 + taken < len(blocks) and (part := blocks[k + 1 + taken]).kind == "paragraph" and \
            (more := rows_going_on({"rows": rows}, _lines_of(part, page))) is not None:
        rows += more
        taken += 1
    return rows, taken, len(heads)


def _tables_over_columns(blocks: list[Block], page: _Page) -> list[Block]:
    """A table the end of a column broke (a word processor's, a browser's columns) is one
    table block: read on with nothing between, its next rows stand at the head of the column
    to the right, above where the first part starts, as many columns wide; a head repeated
    over them is dropped (``join_rows``). Rows too few there to read as a table alone, read as
    a paragraph's lines, go on too where they are its rows (``rows_going_on``). A table's
    caption or a line of text between two tables keeps them two. A paragraph right under a
    table (or under its rows so read on), starting where it starts, whose lines are its rows
    too, goes on it as well (a row the table's finding left over: its column's end, a table
    beside it in the other column)."""
    out: list[Block] = []
    for block in blocks:
        tail = out[-1] if out else None
        if tail is not None and tail.table is not None and tail.last is not None and block.first is not None and \
                (block.first.x0 >= tail.last.x1 - SNAP_COLUMN and block.first.y1 > tail.last.y1 or
                 abs(block.first.x0 - tail.last.x0) <= SNAP_COLUMN and
                 0 <= tail.last.y0 - block.first.y1 <= tail.last.size):
            if block.table is None and block.kind == "paragraph" and \
                    (rows := rows_going_on(tail.table, _lines_of(block, page))) is not None:
                block = Block("table", "", block.spans, first=block.first, last=block.last,
                              table={"rows": rows, "header_rows": 0})
            if block.table is not None and same_columns(tail.table, block.table):
                _append_table(tail, block)
                tail.last = block.last
                continue
        out.append(block)
    return out


SNAP_COLUMN = 3.0  # points: a table's part in the next column starts right of the part before, this close


SEPARATION = 1.4  # a running head stands further from the body than body lines from each other
TITLE_OVER_HEAD = 1.5  # times the size of a running line saying the same words: a line set larger is the page's title
SOLID_PITCH = 1.2  # sizes from one baseline to the next in text set with the usual leading


def _furniture_items(page: _Page, repeated: set[str] | None) -> set[int]:
    """Repeated margin items that are furniture: those on the outermost rows of the page,
    set apart from the body by a wider gap than the page's usual line pitch. Lines that merely
    repeat inside the text (a boilerplate sentence on every page) stay body. ``repeated`` is
    None when the document is too short for repetition to tell: then form alone decides."""
    if repeated is None:
        return _lone_furniture(page)
    if not repeated and not page.numbered:
        return set()
    rows = page.rows
    pitch = _row_pitch(rows)
    if len(rows) < MIN_LONE_ROWS:  # a last page of a line or two between its head and folio tells no pitch
        pitch = min(pitch, SOLID_PITCH * page.body)
    found: set[int] = set()
    printed = _printed_lines(page, rows[:MARGIN_LINES + 1]) + rows[MARGIN_LINES + 1:]
    printed = printed[:-MARGIN_LINES - 1] + _printed_lines(page, printed[-MARGIN_LINES - 1:])
    for ordered in (printed, printed[::-1]):
        chosen: list[list[Item]] = []
        for row in ordered:
            hits = [i for i in row if page.margin.get(id(i)) in repeated or page.slots.get(id(i)) in repeated
                    or page.folios.get(id(i)) in repeated or _parts_repeated(page, i, repeated)]
            if not hits or chosen and _own_title(hits, chosen):
                break
            chosen.append(row if _carries_folio(page, row, hits) else hits)
        # The furniture ends where a wide gap sets it apart: take the longest such run. The
        # outermost line alone needs none where it holds the page's folio (a contents page's
        # entries set as far apart as its head from them).
        for k in range(len(chosen), 0, -1):
            if k == len(ordered) or abs(ordered[k - 1][0].y - ordered[k][0].y) >= SEPARATION * pitch or \
                    k == 1 and any(page.folios.get(id(i)) in repeated for i in chosen[0]):
                found.update(id(i) for hits in chosen[:k] for i in hits)
                break
    if page.numbered:
        found |= _own_folios(page, printed, pitch)
    if all(id(i) in found for row in rows for i in row) and not _blank_page(page, rows, repeated):
        return set()  # a header is told apart from a body: with no body there is nothing to tell
    return found


def _own_title(hits: list[Item], chosen: list[list[Item]]) -> bool:
    """Are a row's repeated lines the page's title set large under a running line that repeats
    it (a browser's header carries the page's title): they say what a line of the run above
    them says, in a size ``TITLE_OVER_HEAD`` times that line's or more?"""
    said = {template(item.text): item.size for row in chosen for item in row}
    return all(template(item.text) in said and item.size >= TITLE_OVER_HEAD * said[template(item.text)]
               for item in hits)


def _numbering(key: str) -> bool:
    """Is a margin key a page's number: a folio, or a margin line that is the number alone
    ('- # -', 'Page #')?"""
    return key.startswith(_FOLIO) or key.startswith(("top:", "bottom:")) and \
        _PAGE_NUMBER.match(key.partition(":")[2]) is not None


def _own_folios(page: _Page, printed: list[list[Item]], pitch: float) -> set[int]:
    """A page's number alone at its head or foot, apart from the text, where the document's
    other pages carry theirs elsewhere: a title page or a chapter's first page sets its folio at
    the foot under a style whose running heads carry it at the head."""
    found: set[int] = set()
    height = _height(page)
    for band, ordered in (("top", printed), ("bottom", printed[::-1])):
        if len(ordered) >= 2 and _bare_folio(ordered[0], height) and \
                abs(ordered[0][0].y - ordered[1][0].y) >= SEPARATION * pitch:
            found.update(_in_band(page, ordered[0], band))
    return found


def _blank_page(page: _Page, rows: list[list[Item]], repeated: set[str]) -> bool:
    """Is a page whose every line recurs a page left blank but for its folio, and its running
    head above it: a line or two, one at the head and one at the foot, one holding the page's
    number? (Pages that each carry the same line and nothing else are that line's pages.)"""
    if not 0 < len(rows) <= 2:
        return False
    bands = {page.margin.get(id(row[0]), "").partition(":")[0] for row in rows}
    if len(bands) < len(rows) or "" in bands:
        return False  # two lines at the head: a contents page's last entry under its head
    return any(page.folios.get(id(i)) in repeated or _numbering(page.margin[id(i)])
               for row in rows for i in row if id(i) in page.margin)


def _parts_repeated(page: _Page, item: Item, repeated: set[str]) -> bool:
    """Does every part of a spread margin line recur, each on its own (``_spread_parts``)?"""
    parts = page.parts.get(id(item), [])
    return bool(parts) and all(key in repeated for key in parts)


def _printed_lines(page: _Page, rows: list[list[Item]]) -> list[list[Item]]:
    """Margin rows on one baseline (within half the smaller type's size) taken as the one
    printed line they are, when each recurs on another page of the window: a scan's running
    head and its folio, which its text layer set apart as two lines of different sizes a
    fraction of a point apart (the head too rare to count as repeated where the text layer
    missed it on some pages). A chart's labels beside a number are on one page only."""
    out: list[list[Item]] = []
    for row in rows:
        if out and _same_baseline(out[-1], row) and \
                all(page.margin.get(id(i)) in page.recurring for i in (*out[-1], *row)):
            out[-1] = sorted((*out[-1], *row), key=lambda i: i.x0)
        else:
            out.append(row)
    return out


def _carries_folio(page: _Page, row: list[Item], hits: list[Item]) -> bool:
    """Does the margin line hold the page's number among what repeats, and little else: a
    running head that names its chapter beside the folio ('viii Preface', '12 STRACHEY') is
    furniture whole, though its words change from chapter to chapter."""
    return len(hits) < len(row) and sum(len(i.text) for i in row) <= LONE_HEAD_CHARS and \
        any(_PAGE_NUMBER.match(page.margin[id(i)].partition(":")[2]) and _folio_figure(i.text) for i in hits)


def _folio_figure(text: str) -> bool:
    """A page's number as folios are set: in figures, or in small roman numerals ('viii');
    capitals alone ('XX', 'IV') are a table's mark or a list's number as often. Its brackets
    close ('(4)', '[4]'): '2017).' ends a citation, and so does a year and a full stop
    ('2009.', the last line of a reference beside the other column's note)."""
    if text.count("(") != text.count(")") or text.count("[") != text.count("]") or _YEAR_ENDS.fullmatch(text):
        return False
    return any(char.isdigit() for char in text) or text.strip(" -–—.()[]").islower()


def _row_pitch(rows: list[list[Item]]) -> float:
    """The common distance between baselines, not the gaps between parts of the page."""
    steps = sorted(a[0].y - b[0].y for a, b in zip(rows, rows[1:], strict=False) if a[0].y > b[0].y)
    return steps[len(steps) // 4] if steps else 0.0


LONE_SEPARATION = 2.0  # with no repetition to go by, a running line stands clearly apart
LONE_HEAD_CHARS = 80
LONE_HEAD_SIZE = 0.95  # a running head on its own is set smaller than the body
MIN_LONE_ROWS = 6


def _lone_furniture(page: _Page) -> set[int]:
    """Furniture of a page of a document too short for repetition: the outermost margin rows
    that look it. A page number ('12', 'Page 3 of 9', '- 4 -') or a line of a form only the edge
    of a page carries (``RUNNING_FORM``) anywhere in the margin band; a running head above the
    body, short and smaller than the body text, or as large where a rule across the page sets
    it off (``_ruled_head``) or it stands centred over a page whose number is set aside
    (``_centred_head``). Each stands apart from the body by a wide gap; a page without a body
    has nothing to set them apart from. The outermost line stands apart by less when its form
    tells it: a running line that carries its page number (``_folio_row``), or the page number
    alone (``_bare_folio``)."""
    rows = page.rows
    if len(rows) < 2:
        return set()
    pitch = _row_pitch(rows)
    body = page.body
    height = _height(page)
    found: set[int] = set()
    top = _outer_lines(rows)
    for band, ordered in (("top", top), ("bottom", _outer_lines(rows[::-1]))):
        if len(ordered) < 2:
            continue  # the page's rows are one printed line: no body to set anything apart from
        if len(rows) < MIN_LONE_ROWS:  # a page's last few lines: only a page number far below them tells
            if abs(ordered[0][0].y - ordered[1][0].y) >= LONE_SEPARATION * max(pitch, body) and \
                    _bare_folio(ordered[0], height):
                found.update(_in_band(page, ordered[0], band))
            continue
        folio = {*_in_band(page, _folio_line(page, ordered, (body, pitch, height)), band)}
        found |= folio
        for k, row in enumerate(ordered[:min(MARGIN_LINES, len(ordered) - 1)]):
            if all(id(i) in folio for i in row):
                continue
            gap = abs(row[0].y - ordered[k + 1][0].y)
            # A running head is the outermost line; page numbers may sit beyond it.
            if not (_line_looks_like_furniture(page, row, body, k == 0) or
                    k == 0 and band == "top" and _ruled_head(page, row, ordered[1], body)):
                break
            if gap >= LONE_SEPARATION * max(pitch, body):
                found.update(id(i) for r in ordered[:k + 1] for i in r)
    if len(rows) >= MIN_LONE_ROWS and len(top) >= 2 and not any(id(i) in found for i in top[0]) and \
            any(_numbering(page.margin.get(ident, "")) for ident in found) and \
            _centred_head(page, top[0], body) and abs(top[0][0].y - top[1][0].y) >= LONE_SEPARATION * max(pitch, body):
        found.update(id(i) for i in top[0])  # a running head over a page its number marks as furniture
    return found


def _plain_head(row: list[Item], body: float) -> bool:
    """Could a page's outermost head line be a running head set as large as the body: one
    segment of words (a table's row left over a page's end is cells), short, no larger than the
    body and not bold (a title, a heading is), not a caption?"""
    return len(row) == 1 and len(row[0].text) <= LONE_HEAD_CHARS and row[0].size <= body and \
        not row[0].bold_all and not is_caption(row[0].text)


def _centred_head(page: _Page, row: list[Item], body: float) -> bool:
    """Is a page's outermost head line, in its margin band, a running head by its place: a
    plain head (``_plain_head``) centred on the page (within an em of its middle)?"""
    if not _plain_head(row, body) or not page.margin.get(id(row[0]), "").startswith("top:"):
        return False
    return abs(row[0].x0 + row[0].x1 - page_size(page.record["evidence"])[0]) <= 2 * body


def _ruled_head(page: _Page, row: list[Item], inner: list[Item], body: float) -> bool:
    """Is a page's outermost head line a running head ruled off from the body: a plain head
    (``_plain_head``), a horizontal rule under it and over the line inward (``inner``) that
    spans most of the page (``RULED_HEAD_SPAN``: a note's rule spans a part of its column), no
    frame's side meeting it (a table's top rule, under a line over it)?"""
    if not _plain_head(row, body):
        return False
    width = page_size(page.record["evidence"])[0]
    under, over = min(i.y0 for i in row), max(i.y1 for i in inner)
    horizontal, vertical, _ = page.rules
    return any(over < rule.pos < under and rule.hi - rule.lo >= RULED_HEAD_SPAN * width and
               not any(rule.lo - SNAP <= side.pos <= rule.hi + SNAP and side.lo - SNAP <= rule.pos <= side.hi + SNAP
                       for side in vertical) for rule in horizontal)


RULED_HEAD_SPAN = 0.5  # of the page's width, a running head's rule across the page at the least


def _folio_line(page: _Page, ordered: list[list[Item]], sizes: tuple[float, float, float]) -> list[Item]:
    """The outermost printed line when its form tells a running line with its page number, set
    apart from the line inward: by a gap wider than the page's leading for a folio alone or
    across the measure from its title (``_bare_folio``, ``_folio_row``), by a wide gap for a foot
    set small whose folio stands a word off (``_spread_folio_row``). A folio the text layer drew
    as a line of its own a little off its head's baseline ('292' beside 'C. DWORK ET AL.') is
    taken with the head."""
    body, pitch, height = sizes
    line, rest = ordered[0], ordered[1:]
    if len(rest) > 1 and _same_baseline(line, rest[0]):
        line, rest = sorted((*line, *rest[0]), key=lambda i: i.x0), rest[1:]
    gap = min(abs(i.y - rest[0][0].y) for i in line)
    if gap >= SEPARATION * pitch and (_folio_row(page, line, body, rest[0]) or _bare_folio(line, height)):
        return line
    if gap >= LONE_SEPARATION * max(pitch, body) and _spread_folio_row(page, line, body):
        return line
    return []


SAME_LINE = 0.5  # of the type's size: rows whose baselines stand closer are one printed line


def _outer_lines(rows: list[list[Item]]) -> list[list[Item]]:
    """The rows from one edge inward as printed lines: rows whose baselines stand within half
    their size of each other are one line the evidence broke in two ('… Vol. 35, No. 2, April'
    and '1988, pp. 288-323.'; a folio set a little lower, '… October 2006' and '| 41'). Only
    the few outermost are looked at, so only those are taken together."""
    out: list[list[Item]] = []
    for row in rows:
        if out and _one_line(out[-1], row):
            out[-1] = sorted((*out[-1], *row), key=lambda i: i.x0)
        elif len(out) > MARGIN_LINES:
            break
        else:
            out.append(row)
    return out


def _one_line(one: list[Item], other: list[Item]) -> bool:
    """Two rows that are one printed line: baselines within half the smaller type's size, and
    the one running on from the other a few spaces after it (not the last lines of two columns,
    nor a chart's large labels beside a line of text)."""
    if not _same_baseline(one, other):
        return False
    left, right = (one, other) if one[0].x0 <= other[0].x0 else (other, one)
    return 0 <= right[0].x0 - max(i.x1 for i in left) <= FOLIO_QUADS * min(i.size for i in (*one, *other))


def _same_baseline(one: list[Item], other: list[Item]) -> bool:
    """Two rows whose baselines stand within half the smaller type's size of each other."""
    return abs(one[0].y - other[0].y) <= SAME_LINE * min(i.size for i in (*one, *other))


def _line_looks_like_furniture(page: _Page, row: list[Item], body: float, outermost: bool) -> bool:
    """Whether each piece of a margin line looks furniture, or the line read whole has a form
    only a page's edge carries (a journal's line set in several pieces, a few spaces apart at
    most: a line of one column beside it is the column's)."""
    if all(_looks_like_furniture(page.margin.get(id(i), ""), i, body, outermost) for i in row):
        return True
    text = " ".join(i.text for i in row)
    return all(page.margin.get(id(i)) for i in row) and len(text) <= LONE_LINE_CHARS and \
        all(_one_line([a], [b]) for a, b in zip(row, row[1:], strict=False)) and RUNNING_FORM.search(text) is not None


def _in_band(page: _Page, row: list[Item], band: str) -> list[int]:
    """A folio's line, which may stand further in than the margin band: its items get their
    band's key there."""
    for item in row:
        page.margin.setdefault(id(item), f"{band}:{template(item.text)}")
    return [id(item) for item in row]


FOLIO_GAP = 4.0  # body sizes between a bold running line's page number and its title
FOLIO_QUADS = 2.0  # the line's own sizes between a lighter one's (a folio set a quad or two off)
FOLIO_SHARE = 0.2  # of the page height: a page number alone stands in its outer fifth
FOLIO_DIGITS = 4  # a page number has a few digits: a longer number alone is a code, an identifier


def _bare_folio(row: list[Item], height: float) -> bool:
    """Whether a page's outermost line is its page number alone ('20', '- 4 -'), in the outer
    fifth of the page: where the margins are wide, further in than the margin band."""
    text = row[0].text if len(row) == 1 else ""
    if not _PAGE_NUMBER.match(template(text)) or sum(ch.isdigit() for ch in text) > FOLIO_DIGITS:
        return False
    return row[0].y0 <= FOLIO_SHARE * height or row[0].y1 >= (1 - FOLIO_SHARE) * height


def _folio_row(page: _Page, row: list[Item], body: float, inner: list[Item]) -> bool:
    """Whether a page's outermost line is a running head or foot that carries its page number
    at one end, apart from its short title ('k · p theory for 2D TMDCs      3', '10    R. Coulom'):
    the form alone tells it, whatever its size. A section's number stands a word space from its
    title; a bold or large head's number may stand further ('CHAPTER    3'), so the folio of a
    line set so must stand across the measure (``FOLIO_GAP``). Where the line beside it
    (``inner``) has a number at the same end, the two are entries of a list (a contents page's
    last entry, '6 Conclusions    22')."""
    if not all(page.margin.get(id(i)) for i in row):
        return False
    if sum(len(i.text) for i in row) > LONE_LINE_CHARS:
        return False
    size = max(i.size for i in row)
    wide = FOLIO_QUADS * size
    if all(i.bold_all for i in row) or size > LARGER * body:
        wide = max(wide, FOLIO_GAP * body)
    units = _apart(row, wide)
    if len(units) < 2:
        return False
    listed = _numbered_ends(_apart(inner, wide))
    for number, neighbour, gap, beside in ((units[0], units[1], units[1][0] - units[0][1], listed[0]),
                                           (units[-1], units[-2], units[-1][0] - units[-2][1], listed[1])):
        # A long number is a page number only across the measure (a register's 47705).
        if not beside and _PAGE_NUMBER.match(template(number[2])) and _folio_figure(number[2]) and gap >= wide \
                and (sum(ch.isdigit() for ch in number[2]) <= FOLIO_DIGITS or gap >= FOLIO_GAP * body) \
                and any(ch.isalpha() for ch in neighbour[2]):
            return True
    return False


def _spread_folio_row(page: _Page, row: list[Item], body: float) -> bool:
    """Whether a page's outermost line is a running foot or head set smaller than the body in
    pieces across the measure, with the page's number at one end a word space off ('USENIX
    Association      2013 USENIX Annual Technical Conference 51'), or alone between them
    ('Submitted to ML’08      4      2008/6/16'): a line of the body, a footnote, is one piece.
    A number that reads as a year is not taken for the folio."""
    if not all(page.margin.get(id(i)) for i in row) or sum(len(i.text) for i in row) > LONE_LINE_CHARS:
        return False
    if max(i.size for i in row) > LONE_HEAD_SIZE * body:
        return False
    units = _apart(row, FOLIO_GAP * body)
    if len(units) < 2 or not any(any(ch.isalpha() for ch in unit[2]) for unit in units):
        return False
    return any(_PAGE_NUMBER.match(template(word)) and _folio_figure(word) and
               sum(ch.isdigit() for ch in word) <= FOLIO_DIGITS and not _YEAR.fullmatch(word)
               for word in (units[0][2].split()[0], units[-1][2].split()[-1], *(u[2] for u in units[1:-1])))


_YEAR = lazy(r"(1[89]|20)\d\d")
_YEAR_ENDS = lazy(r"\s*(1[89]|20)\d\d\.\s*")


def _numbered_ends(units: list[tuple[float, float, str]]) -> tuple[bool, bool]:
    """Whether a line starts, and whether it ends, with a number set apart from its words or
    after leader dots ('2.1 Desiderata . . . . 1'): an entry of a list, as a contents page has."""
    last = units[-1][2].split()
    apart = len(units) > 1
    return (apart and _PAGE_NUMBER.match(template(units[0][2])) is not None,
            apart and _PAGE_NUMBER.match(template(units[-1][2])) is not None or
            len(last) > 1 and last[-1].isdigit() and not last[-2].strip("."))


SPACED = 0.1  # of the gap that sets a folio apart (two sizes): a fifth of a size parts two words


def _apart(row: list[Item], wide: float) -> list[tuple[float, float, str]]:
    """A line's pieces (x0, x1, text) left to right, those closer than ``wide`` taken together
    (a word space between them where they stand apart: ``wide`` is two of the line's sizes)."""
    pieces = sorted((p for i in row for p in i.parts), key=lambda p: p[0])
    out = [pieces[0]]
    for x0, x1, text in pieces[1:]:
        if x0 - out[-1][1] < wide:
            space = " " if x0 - out[-1][1] > SPACED * wide else ""
            out[-1] = (out[-1][0], max(x1, out[-1][1]), f"{out[-1][2]}{space}{text}")
        else:
            out.append((x0, x1, text))
    return out


# A journal's issue as its masthead line gives it between bars ('… | October 2006 | 41',
# 'JOURNAL | Vol. 12 | Issue 3 | e1234')
_ISSUE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(1[89]|20)\d\d|vol(\.|ume)\s*\d+|issue\s*\d+"
# When a page was printed or fetched: a date beside a clock time ('14/09/2018 10:37', '16:21 Aug 05,
# 2020'), and a typesetter's file and page ('…_Nephrologie.indb 78')
_CLOCK = r"\d{1,2}:\d\d(:\d\d)?\b"
_STAMPED = rf"\b{DATE_FORM}\W{{1,12}}(at\s+)?{_CLOCK}|\b{_CLOCK}\W{{1,12}}{DATE_FORM}\b|\.ind[db]\s+\d+\b"
# Lines only the edge of a page carries: where and when it was fetched, whose it is, where it
# was printed ('Downloaded from … on …', '© 2010 …; licensee …', 'Vol. 32, No. 2, April 1985',
# 'Page 9 of 11' beside a running title, 'Theoretical Computer Science 321 (2004) 5–12',
# 'ACM OOPS Messenger 4,4 (Oct. 1993), 2-27.', '… Research (2008) 19(2), 185-224', 'Computing
# Surveys, Vol 17 n. 4', 'Volume 2010, Article ID 1', '… Outcomes 2010, 4:1', '0022-0000/$ –
# see front matter', a masthead's issue between bars), and a running head of authors
# ('J. Aligon et al.').
RUNNING_FORM = lazy(r"\bdownloaded (from|by)\b|^\W*(©|copyright\b)|\ball rights reserved\b|\bsee front matter\b|"
                    r"\bvol(\.|ume)?\s*\d+\W+(no\.?|n\.|number|issue|article( id)?)\s*\d+|\bpage \d+ of \d+\b|"
                    r"^\D.*\b\d+,?\s*\((\w+\.?\s+)?(1[89]|20)\d\d\),?\s*(pp?\.\s*)?\d+\s*[-–]\s*\d+\W*$|"
                    r"\((1[89]|20)\d\d\)\s*\d+\s*\(\d+\),?\s*(pp?\.\s*)?\d+\s*[-–]\s*\d+|"
                    r"\b(1[89]|20)\d\d,\s*\d+:\d+\b|"
                    r"^\W*\w[\w.'’ -]{0,60}\bet al\.?\W*$|"
                    rf"\|\s*({_ISSUE})\b|\b({_ISSUE})\s*\||{_STAMPED}", IGNORECASE)
LONE_LINE_CHARS = 160  # a running line is one line of the margin, not a paragraph


def _looks_like_furniture(key: str, item: Item, body: float, outermost: bool) -> bool:
    band, _, shape = key.partition(":")
    if not band:
        return False
    if _PAGE_NUMBER.match(shape):
        return True
    if len(item.text) <= LONE_LINE_CHARS and RUNNING_FORM.search(item.text):
        return True
    if band == "top" and _ADDRESS.fullmatch(item.text.strip()) and item.size <= body:
        return True  # the article's address under its journal's line
    return outermost and band == "top" and len(item.text) <= LONE_HEAD_CHARS and \
        item.size <= LONE_HEAD_SIZE * body and not is_caption(item.text)  # a caption under a figure


_ADDRESS = lazy(r"(https?://|www\.)\S+")


def _furniture(key: str, item: Item, page: int) -> dict[str, Any]:
    band, _, shape = key.partition(":")
    kind = "page_number" if _PAGE_NUMBER.match(shape) else "stamp" if band == "side" else \
        "watermark" if band == "watermark" else "header" if band == "top" else "footer"
    return {"kind": kind, "text": item.text, "spans": [{"page": page, "rect": item.rect}]}


_OPEN_KINDS = ("paragraph", "provision", "list_item")


def _at_break(before: _Page, after: _Page) -> tuple[Block | None, Block | None]:
    """The blocks either side of a page break: the last of ``before`` that is not a float,
    the first of ``after`` that is not a figure or its caption."""
    tail = next((b for b in reversed(before.blocks) if b.kind not in FLOATS), None)
    head = next((b for b in after.blocks if b.kind not in ("figure", "caption")), None)
    return tail, head


def _continue(before: _Page, after: _Page, opts: OrganizeOptions) -> None:
    """Join the paragraph running off the end of ``before`` with the one that opens ``after``
    when the geometry says it runs on: its last line reaches the text edge (on a justified page,
    to within ``SHORT_EMS``), the next page's first line is not indented and is set in the same
    size. A contents entry does not run on, nor does anything into a copyright notice, nor into a
    paragraph of one line parted far apart (``spread``: a table's row, its cells wide apart; a
    line stretched that wide is justified, and a justified line is never its paragraph's last)."""
    tail, head = _at_break(before, after)
    if tail is None or head is None or tail.kind not in _OPEN_KINDS or head.kind != "paragraph":
        return
    last, first = tail.last, head.first
    if last is None or first is None or last.kind != "line" or first.kind != "line":
        return
    if not _over_the_break(last, first, before, after) or is_leader(last.text) or RIGHTS.search(first.text):
        return  # a contents entry ends at its page number, as it does within a page; a notice opens a page
    em = last.size
    broken = broken_word(last.text, first.text)  # 'configura-' over 'tions': one word goes on
    if abs(first.size - last.size) > 0.1 * last.size or first.bold != last.bold and not broken:
        return
    if not broken and (next_word_fits(last, first) or first.x0 > first.left + 0.8 * em):
        return
    if not broken and last.x1 < last.right - SHORT_EMS * em and _justified(before):
        return  # a justified line runs to the edge: one ending short of it ends its paragraph
    if not broken and first.spread and head.last is first:
        return  # a lone line parted far apart (a table's row, a header's parts): no paragraph's last line
    text = join_text(tail.text, head.text, opts.hyphens)
    # Decided: from here on nothing can fail, so a page is never left half joined.
    tail.text = text
    tail.spans.extend(head.spans)
    tail.last = head.last
    after.blocks = [b for b in after.blocks if b is not head]


BREAK_ZONE = 0.35
SHORT_EMS = 2.0  # ems short of its column's edge: a justified page's line ending there ends its paragraph
JUSTIFIED_SHARE = 0.8  # of the lines ending within JUSTIFIED_NEAR ems of their column's edge
JUSTIFIED_NEAR = 3.0
JUSTIFIED_EDGE = 1.5  # points: a line ending this close to its column's edge ends at it
JUSTIFIED_LINES = 8  # the least lines near the edge a page is told justified by


def _justified(page: _Page) -> bool:
    """Is the page's text justified: of its lines ending near their column's edge, nearly all
    end at it (a ragged page's end anywhere in the last few ems before it)?"""
    near = at = 0
    for row in page.rows:
        for item in row:
            if item.kind == "line" and item.right and item.x1 >= item.right - JUSTIFIED_NEAR * item.size:
                near += 1
                at += item.x1 >= item.right - JUSTIFIED_EDGE
    return near >= JUSTIFIED_LINES and at >= JUSTIFIED_SHARE * near


def _over_the_break(last: Item, first: Item, before: _Page, after: _Page) -> bool:
    """A block runs over the break only from the foot of one page (``last``, its last line)
    to the head of the next (``first``)."""
    return last.y0 <= BREAK_ZONE * _height(before) and first.y1 >= (1 - BREAK_ZONE) * _height(after)


def _continue_part(before: _Page, after: _Page) -> None:
    """A table (same columns) or a listing broken by the page end, from the foot of one page to
    the head of the next, no caption set under its part before: its part on the next page stays
    there, where its rows and lines are printed and cited, marked as going on from the part
    before. A table's part that does not print the head again has none of its own. A bold
    head row left alone under its caption at the foot (``head_left``) is the head of the rows
    the next page prints at its head, a table of as many columns or lines too few for one."""
    tail, head = _at_break(before, after)
    if tail is None or head is None or tail.last is None or head.first is None or _captioned_under(tail, before):
        return
    last, first = tail.last, head.first
    if tail.table is None and tail.kind in ("heading", "paragraph") and \
            _over_the_break(last, first, before, after) and (left := _head_left_over(tail, before)):
        start, rows, heads = left
        table = {"rows": rows, "header_rows": heads}
        if head.kind == "paragraph" and _rows_as_lines(table, head, after) or \
                head.table is not None and same_columns(table, head.table):
            end = before.blocks.index(tail)
            tail = before.blocks[start]  # the head: the rows under it go on it
            _into_table(tail, table, before.blocks[start + 1:end + 1])
            before.blocks[start + 1:end + 1] = []
    elif tail.table is not None and head.kind == "paragraph" and _over_the_break(last, first, before, after):
        _rows_as_lines(tail.table, head, after)
    if tail.table is not None and head.table is not None:
        if continues_table(tail.table, head.table, last.y0 / _height(before), first.y1 / _height(after), BREAK_ZONE):
            head.continued = True
            if not repeats_head(tail.table, head.table):
                head.table = dict(head.table, header_rows=0)  # its first row is the body's: the head is before
    elif tail.kind == "code" and head.kind == "code" and _over_the_break(last, first, before, after):
        head.continued = True


def _head_left_over(tail: Block, before: _Page) -> tuple[int, list[list[dict[str, Any]]], int] | None:
    """A table's bold head left under its caption at a page's foot (``_head_and_rows``), ``tail``
    (the page's last block) itself (or its line of heads under its group heads) or the last of
    the paragraphs under it that hold its first rows, too few for a table: the head's index
    among the page's blocks, its rows, the heads first, and how many rows are heads. None when
    the blocks are otherwise."""
    end = before.blocks.index(tail)
    for start in range(end, 0, -1):
        found = _head_and_rows(before.blocks, start, before)
        if found is not None:
            return (start, found[0], found[2]) if start + found[1] == end else None
        if before.blocks[start].kind != "paragraph" and start != end:
            return None
    return None


def _rows_as_lines(table: dict[str, Any], head: Block, after: _Page) -> bool:
    """The last rows of ``table`` printed at the head of the next page as lines, too few alone
    to read as a table (``rows_going_on``): the paragraphs from ``head`` on that hold them
    become one table block, its part on that page. Whether they did."""
    blocks = after.blocks[after.blocks.index(head):]
    lines: list[list[Item]] = []
    rows = None
    taken = 0
    for block in blocks:
        more = _lines_of(block, after) if block.kind == "paragraph" else []
        found = rows_going_on(table, lines + more) if more else None
        if found is None:
            break
        lines, rows, taken = lines + more, found, taken + 1
    if rows is None:
        return False
    # Decided: from here on nothing can fail.
    _into_table(head, {"rows": rows, "header_rows": 0}, blocks[1:taken])
    after.blocks = [b for b in after.blocks if b not in blocks[1:taken]]
    return True


def _into_table(block: Block, table: dict[str, Any], parts: list[Block]) -> None:
    """``block`` becomes the table block ``table``, the blocks ``parts`` after it, which hold the
    rest of its rows, going on it (``_take_spans``)."""
    for part in parts:
        _take_spans(block, part)
    block.kind, block.level, block.table, block.text = "table", None, table, table_text(table["rows"])


def _take_spans(head: Block, block: Block) -> None:
    """``block``'s lines go on ``head``'s: its spans join them, one rect a column, as a block's
    lines have."""
    for span in block.spans:
        last = head.spans[-1]["rect"]
        rect = span["rect"]
        if head.spans[-1]["page"] == span["page"] and rect[0] < last[2] and last[0] < rect[2]:
            head.spans[-1]["rect"] = [min(last[0], rect[0]), min(last[1], rect[1]), max(last[2], rect[2]),
                                      max(last[3], rect[3])]
        else:
            head.spans.append(span)
    head.last = block.last


def _lines_of(block: Block, page: _Page) -> list[list[Item]]:
    """The segments of ``block`` on ``page`` (those lying within its spans), a list a baseline,
    span by span (a block read on into the next column: its lines there after those above).
    A segment that reading order joined to the one before it on its line, as a part of it
    (``_rejoin``: a label and what is set out after it), is that one's."""
    if any(span["page"] != page.number for span in block.spans):
        return []
    out: list[list[Item]] = []
    seen: set[int] = set()
    for span in block.spans:
        x0, y0, x1, y1 = span["rect"]
        for row in page.rows:  # top down, a row a baseline
            inside = [item for item in row if item.kind == "line" and id(item) not in seen and
                      x0 - SNAP <= item.x0 and item.x1 <= x1 + SNAP and y0 - SNAP <= item.y <= y1 + SNAP]
            if len(inside) > 1:
                inside = [item for item in inside if not any(
                    other is not item and other.x0 < item.x0 and all(part in other.parts for part in item.parts)
                    for other in inside)]
            seen.update(id(item) for item in inside)
            if inside:
                out.append(inside)
    return out


SNAP = 1.0  # points: a segment this close to a line's span lies within it


def _captioned_under(tail: Block, before: _Page) -> bool:
    """Is a caption set under ``tail`` (a page's last table or listing)? It ends there."""
    return any(b.kind == "caption" for b in before.blocks[before.blocks.index(tail) + 1:])


def _append_table(tail: Block, head: Block) -> None:
    """``head``'s rows go on ``tail``'s table (``join_rows``), its text and spans with them."""
    assert tail.table is not None and head.table is not None
    rows = join_rows(tail.table, head.table)
    tail.table = dict(tail.table, rows=rows)
    tail.text = table_text(rows)
    tail.spans.extend(head.spans)


def _height(page: _Page) -> float:
    return page_size(page.record["evidence"])[1]


def render_blocks(blocks: list[Block]) -> str:
    """The text view of organized blocks: one block per line, a blank line between blocks;
    the rows of one table stay on consecutive lines."""
    parts: list[str] = []
    for index, block in enumerate(blocks):
        text = "[figure]" if block.kind == "figure" else block.text
        if index:
            table = block.kind == "table_row" and blocks[index - 1].kind == "table_row"
            parts.append("\n" if table else "\n\n")
        parts.append(text)
    return "".join(parts)
