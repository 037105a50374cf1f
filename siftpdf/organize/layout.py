"""Page layout from evidence: segments, columns, reading order, blocks.

Pure functions over the evidence dicts of ``siftpdf.child.evidence``: no PDF needed, so a saved
evidence stream can be organized again with other settings. Coordinates are PDF points,
y grows upwards; "top" means the larger y.
"""

from __future__ import annotations

import math
import unicodedata
from bisect import bisect_left, bisect_right
from functools import lru_cache

from ..fonts import OCR_FONT, SYMBOL_BULLETS, monospaced
from ..lazyre import IGNORECASE, lazy
from ..settings import OrganizeOptions
from ..texfonts import NEGATION, tex_encoding
from .headings import (
    NUMBERING,
    SIZE_STEP,
    Levels,
    a_name,
    bare_key,
    is_contents,
    normalized,
    numbering_depth,
    outline_matches,
    reads_as_names,
    too_many,
)
from .xycut import GUTTER, columns_of, no_channel, xy_cut

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FIGURE_MIN_SIDE = 24.0  # points: smaller images are bullets, rules and logos, not figures
# A weight in the font's name, spelled out or as type foundries shorten it at the end of the
# name ('HelveticaNeueLTPro-Bd', 'AdvOT3b30f6db.B', '….BI', '-BdCn', '-Blk')
_BOLD = lazy(r"bold|black|heavy|semibold|demi|-medi|\.medi|cmbx|simhei|heiti|黑体|"
             r"[.,-](b|bi|bd|bdit|bdi|bdcn|bdcnit|blk)$", IGNORECASE)
# A slant in the font's name, spelled out or shortened at its end ('MinionPro-It', '-BoldIt',
# 'NimbusRomNo9L-ReguItal'), and TeX's italic and slanted faces (cmti, cmbxti, cmsl).
_ITALIC = lazy(r"italic|oblique|kursiv|[-.,]\w*ital$|cmti|cmbxti|cmsl|[.,-](it|i|bi|bdit|\w*it)$", IGNORECASE)
_WORDY = lazy(r"\w")
_CJK = lazy(r"[\u2e80-\u9fff\u3000-\u303f\uf900-\ufaff\uff00-\uffef]")

_CN_NUM = "一二三四五六七八九十百千零〇两"
PROVISION = lazy(rf"^(第[{_CN_NUM}\d０-９]+条|(Article|ARTICLE|Art\.)\s*\d+|§+\s*\d+|"
                       rf"\((?:[a-z]|[ivx]{{1,4}}|\d{{1,2}})\)\s|（[{_CN_NUM}\d]+）)")
CJK_HEADING = lazy(rf"^第[{_CN_NUM}\d]+([编章节])\s*\S")
LIST_ITEM = lazy(rf"^([•◦▪‣●○■□·*–{SYMBOL_BULLETS}-]\s+|\d{{1,2}}[.)]\s+\S|[a-z][.)]\s+\S)")
CAPTION = lazy(r"^((Fig\.|Figure|FIGURE|FIG\.|Table|TABLE|Tab\.|Chart|CHART|Exhibit|EXHIBIT|Graph|Plate|Scheme|"
                 r"Listing|Abbildung|Abb\.|Tabelle|Tableau|Figura|Tabla|Tabela|Tabella)\s*([0-9]+|[IVX]+)\b|"
                 r"[图表]\s*[0-9０-９]+)")  # English, then German, French, Spanish, Portuguese, Italian
# A contents entry: leaders, then a page (a number, or a label up to 12 characters: 'xviii',
# '18-986', 'Appx-A-989'); or, where a long title leaves room for two or three dots only, those
# dots standing apart and a page number ('… naming practices . . 26')
LEADER = lazy(r"(((\.\s?){4,}|(…\s?){2,}|(·\s?){4,}|_{4,})\s*\S{1,12}|(\s\.){2,3}\s+\d{1,4})$")
_DOTS = lazy(r"\.\s?\.")  # two dots of a leader: what LEADER needs before it is worth a search
LETTERED = lazy(r"^[a-z][.)]\s+\S")  # 'a. ', 'b) ': items of a list, not sections
_MONTH = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
          r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?")
# A date: 'June 2023', '5 June 2023', 'June 5, 2023', '2023-06-05', '14/09/2018'.
DATE_FORM = rf"(?:(?:\d{{1,2}}\s+)?{_MONTH}(?:\s+\d{{1,2}},?)?\s+\d{{4}}|\d{{1,4}}[./-]\d{{1,2}}[./-]\d{{1,4}})"
DATE = lazy(rf"^{DATE_FORM}$", IGNORECASE)  # a line that is only a date


class Item:
    """A piece of a line (a segment), a table row or a figure, in page coordinates. (Not a
    dataclass, as none of organization's classes: siftpdf.record says why.)"""

    __slots__ = ("text", "x0", "y0", "x1", "y1", "y", "size", "bold", "bold_all", "spread", "kind", "column",
                 "section", "left", "right", "cells", "pieces", "table", "lead", "caps", "code", "pictured", "italic",
                 "upright")

    def __init__(self, text: str, x0: float, y0: float, x1: float, y1: float, y: float, size: float,
                 bold: bool = False, bold_all: bool = False, spread: bool = False, kind: str = "line",
                 column: str = "F", section: int = 0, left: float = 0.0, right: float = 0.0,
                 cells: list[str] | None = None, pieces: list[tuple[float, float, str]] | None = None,
                 table: dict[str, Any] | None = None, lead: int = 0) -> None:
        self.text = text
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.y = y  # baseline
        self.size = size
        self.bold = bold
        self.bold_all = bold_all  # every word bold: a bold lead-in that runs on into the text is not
        self.spread = spread  # pieces rejoined across a wide gap: a running head's left and right parts
        self.kind = kind  # line | table_row | table | figure
        self.column = column  # L, R or F (full width)
        self.section = section
        self.left, self.right = left, right  # edges of the text column the item sits in
        self.cells: list[str] = [] if cells is None else cells
        # The runs a segment was made of, (x0, x1, text): a table splits a segment between cells.
        self.pieces: list[tuple[float, float, str]] = [] if pieces is None else pieces
        self.table = table  # a table's rows and header rows (kind "table")
        self.lead = lead  # pieces of a bold lead-in that lighter words follow on the line (0: none)
        self.caps = False  # set in capitals and small capitals, read in lower case ('I. Introduction')
        self.code: float | None = None  # set in a monospaced font: where its code starts across
        self.pictured = False  # read by OCR in a picture's pixels (line_segments), on a page of text
        self.italic = False  # every word in an italic (or oblique, slanted) face
        self.upright = False  # its first word in an upright face (False where not known)

    def __repr__(self) -> str:
        return f"Item({self.kind} {self.text[:40]!r} at {self.rect}, size {self.size})"

    @property
    def rect(self) -> list[float]:
        return [round(self.x0, 2), round(self.y0, 2), round(self.x1, 2), round(self.y1, 2)]

    @property
    def parts(self) -> list[tuple[float, float, str]]:
        """Its runs (x0, x1, text) as the evidence drew them, or itself whole when it keeps none."""
        return self.pieces or [(self.x0, self.x1, self.text)]


class Block:
    __slots__ = ("kind", "text", "spans", "level", "first", "last", "above", "table", "continued")

    def __init__(self, kind: str, text: str, spans: list[dict[str, Any]], level: int | None = None,
                 first: Item | None = None, last: Item | None = None, table: dict[str, Any] | None = None) -> None:
        self.kind, self.text, self.spans, self.level = kind, text, spans, level
        self.first, self.last = first, last  # geometry of the first and last lines: joins across pages
        self.above: Item | None = None  # the line before the last, while the page's blocks are made
        self.table = table  # rows and header_rows of a table block
        self.continued = False  # goes on from the page before's last block (a table's or a listing's part)

    def __repr__(self) -> str:
        return f"Block({self.kind} {self.text[:40]!r})"

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"kind": self.kind, "text": self.text, "spans": self.spans}
        if self.level is not None:
            record["level"] = self.level
        if self.table is not None:
            record.update(self.table)
        if self.continued:
            record["continued"] = True
        return record


def is_leader(text: str) -> bool:
    """Does ``text`` end in leaders and a page number (``LEADER``)? LEADER's search tries every
    position of the line; the few marks a leader is made of are looked for first, so that
    the lines without any (most) cost a scan of the text, not a search."""
    return ("…" in text or "·" in text or "____" in text or _DOTS.search(text) is not None) and \
        LEADER.search(text) is not None


def is_cjk(ch: str) -> bool:
    if type(ch) is str and ch < "\u2e80":
        return False  # below every CJK block: most characters, told without a match
    return bool(ch) and _CJK.match(ch) is not None


_BULLETS = frozenset("•◦▪‣●○■□·*–-" + SYMBOL_BULLETS)  # LIST_ITEM's bullets


def is_list_item(text: str) -> bool:
    """``LIST_ITEM`` matches: tried only when the line starts as an item must."""
    first = text[:1]
    if "a" <= first <= "z":
        if text[1:2] not in (".", ")"):
            return False  # most lines: a word in small letters
    elif first not in _BULLETS and not first.isdecimal():
        return False
    return LIST_ITEM.match(text) is not None


# A word with a hyphen inside it: 'pile-up', 'time-of-arrival' (letters on both sides).
COMPOUND = lazy(r"[^\W\d_]+(?:-[^\W\d_]+)+")
_HYPHENED = lazy(r"[^\W\d_]+(?:-[^\W\d_]+)*")  # a word a line-end hyphen follows or breaks
_WORD = lazy(r"\w+")


def compounds(texts: list[str]) -> frozenset[str]:
    """The hyphenated words a page prints inside its lines and never without their hyphens,
    casefolded: a line-end hyphen that breaks one of them is its own hyphen, kept."""
    found = {word.casefold() for text in texts if "-" in text for word in COMPOUND.findall(text)}
    if not found:
        return frozenset()
    # The joined form as a word of its own: 'astroph' inside 'astrophys' is no joined 'astro-ph'.
    words = set(_WORD.findall(" ".join(texts).casefold()))
    return frozenset(word for word in found if word.replace("-", "") not in words)


def keeps_hyphen(before: str, after: str, kept: frozenset[str] = frozenset()) -> bool:
    """Whether the hyphen ending line ``before`` is the word's own, not a break: the next word
    has a hyphen of its own ('time-' 'of-arrival'), or the page prints the word with its
    hyphen inside a line (``kept``, from :func:`compounds`)."""
    right = _HYPHENED.match(after)
    if right is None:
        return False
    if "-" in right.group():
        return True
    if not kept:
        return False
    left = before[before.rfind(" ") + 1:-1].lstrip("([{\"'‘“")
    return _HYPHENED.fullmatch(left) is not None and f"{left}-{right.group()}".casefold() in kept


def join_text(a: str, b: str, hyphens: bool = True, kept: frozenset[str] = frozenset()) -> str:
    """Join two line texts: no space at a CJK seam, a line-end hyphen rejoined unless it is
    the word's own (:func:`keeps_hyphen`)."""
    if not a:
        return b
    if not b:
        return a
    if hyphens and a.endswith("-") and len(a) > 1 and a[-2].isalpha() and b[0].islower():
        return a + b if keeps_hyphen(a, b, kept) else a[:-1] + b
    if is_cjk(a[-1]) or is_cjk(b[0]):
        return a + b
    return a + " " + b


def join_lines(texts: list[str], hyphens: bool = True, kept: frozenset[str] = frozenset()) -> str:
    """``join_text`` folded over many lines in time linear in their length: the rules look
    only at the last two characters joined so far and, at a line-end hyphen, the last part's
    last word, so those are all that is kept in view."""
    parts: list[str] = []
    tail = ""  # the last two characters of the text joined so far
    for text in texts:
        if not text:
            continue
        if not parts:
            parts.append(text)
        elif hyphens and len(tail) > 1 and tail[-1] == "-" and tail[-2].isalpha() and text[0].islower():
            if not keeps_hyphen(parts[-1], text, kept):
                parts[-1] = parts[-1][:-1]  # the hyphen is the last character of the last part
                tail = tail[0]
            parts.append(text)
        else:
            separator = "" if is_cjk(tail[-1]) or is_cjk(text[0]) else " "
            parts.append(separator + text)
            tail += separator
        tail = (tail + text)[-2:]
    return "".join(parts)


# --- segments -------------------------------------------------------------------------------

FAR = 1e9  # points, far beyond any page: within it every sum, difference and area stays finite


def page_size(evidence: dict[str, Any]) -> tuple[float, float]:
    """Width and height in points of the page's user space, where the evidence's boxes lie
    (US Letter when the evidence does not say). The evidence's width and height are the page
    as shown: where its ``rotation`` turns it a quarter they are swapped back."""
    width, height = coordinate(evidence.get("width") or 612.0), coordinate(evidence.get("height") or 792.0)
    return (height, width) if evidence.get("rotation") in (90, 270) else (width, height)


def coordinate(value: Any) -> float:
    """A number of the evidence as a finite float. A hand-edited or hostile stream may carry
    1e308, and its double is infinity: clamped, no arithmetic on it overflows."""
    return min(FAR, max(-FAR, float(value)))


def line_segments(line: dict[str, Any], keep_clipped: bool, channels: list[float] | None = None,
                  gutters: list[tuple[float, float, float, float]] | None = None,
                  joins: list[tuple[float, float]] | None = None) -> tuple[list[Item], int]:
    """Split an evidence line at gaps wider than its size (the gutter of two columns, the
    space between table cells), and at narrower gaps that one of the page's ``channels``
    (``narrow_gutters``) runs through; a run drawn across one of the page's ``gutters``
    (``run_gutters``) is parted there first (``parted_run``). A run that starts well inside
    the text before it is set over that text (a line of one column run on past the gutter,
    over the next column's line): it goes on the segment it follows, or starts one. Clipped
    runs are dropped unless ``keep_clipped`` (the evidence counts them). No gap inside one of
    ``joins`` parts the line (a justified line's stretched spaces, ``stretched_spans``).
    Returns the segments and the characters of runs drawn again on the same spot (read once,
    ``_drawn_again``)."""
    size = float(line["size"])
    wide, narrow = max(size, 4.0), NARROW_GAP * size  # a gap wider always parts, a narrower never
    parts: list[list[dict[str, Any]]] = []
    again = 0
    current: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    runs = line["runs"]
    if gutters and any("gaps" in run for run in runs):
        stretches = line_stretches(runs, NARROW_GAP * size)
        runs = [part for run in runs for part in parted_run(run, size, float(line["y"]), gutters, stretches)]
    for run in small_capitals(runs, size) if len(runs) > 1 else runs:
        if run.get("clipped") and not keep_clipped:
            continue
        if last is not None and _drawn_again(last, run, size):
            again += len(run["text"])
            continue
        last = run
        if NO_BREAK_HYPHEN in run["text"]:  # a hyphen the line may not break at is a hyphen to a reader
            run = {**run, "text": run["text"].replace(NO_BREAK_HYPHEN, "-")}
        if current:
            left, right = current[-1]["box"][2], run["box"][0]
            gap = right - left
            if gap < -OVERPRINT * size and \
                    (home := _followed(parts[-OVERPRINT_PARTS:], run, size, wide, channels)) is not None:
                current = home
                if not home:
                    parts.append(current)
            elif (gap > wide or (channels and not gap < narrow and _in_channel(channels, left, right))) and \
                    not (joins and any(x0 <= left and right <= x1 for x0, x1 in joins)):
                current = []
                parts.append(current)
        else:
            parts.append(current)
        current.append(run)
    segments = [_segment(part, line) for part in parts]
    for k in range(1, len(segments)):  # a line of code parted at a channel goes on as code
        if segments[k].code is None and segments[k - 1].code is not None and \
                segments[k].x0 - segments[k - 1].x1 <= wide:
            segments[k].code = _code_start(parts[k], segments[k - 1].text)
    for segment, part in zip(segments, parts, strict=True):
        segment.pictured = all(run.get("font") == OCR_FONT for run in part)  # OCR's, from a picture's pixels
    return segments, again


JUSTIFIED_LINES = 3  # lines of prose ending at one edge: the right edge of a justified column
EDGE_SLACK = 1.0  # points: line ends this close are one edge
PROSE_EMS = 10.0  # ems of a line of prose (and three spaces in it) at the least
STRETCH_SLACK = 0.05  # ems two stretched spaces of one line may differ by (glyphs' own side bearings)
STRETCH_MOST = 4.0  # ems: the widest single stretched space read across (a justified line of two words)
INDENT_EMS = 4.0  # ems a paragraph's first line stands in at the most


def justified_edges(rows: list[list[Item]]) -> list[tuple[float, float]]:
    """The right edges of the page's justified text, each with its column's left edge: where
    ``JUSTIFIED_LINES`` lines of prose or more (a segment ``PROSE_EMS`` wide, three words in it,
    not a table's row of figures; or three words or more, each a segment, the same stretched
    space between them: ``_evenly_spaced``) end within ``EDGE_SLACK`` of each other; the column
    starts where most of them do."""
    ends = sorted([(item.x1, item.x0) for row in rows for item in row
                   if item.x1 - item.x0 >= PROSE_EMS * item.size and item.code is None and item.text.count(" ") >= 2
                   and _words(item.text) >= 3] +
                  [span for row in rows if may_stretch(row) for span in _evenly_spaced(row)])
    edges: list[tuple[float, float]] = []
    start = 0
    for k in range(1, len(ends) + 1):
        if k == len(ends) or ends[k][0] - ends[k - 1][0] > EDGE_SLACK:
            if k - start >= JUSTIFIED_LINES:
                group = ends[start:k]
                edges.append((group[len(group) // 2][0], median([x0 for _, x0 in group])))
            start = k
    return edges


def _evenly_spaced(row: list[Item]) -> list[tuple[float, float]]:
    """The ends and starts of a row's runs of three single words or more, ``PROSE_EMS`` wide,
    one size, the spaces between them equal (``STRETCH_SLACK``), the words not all of a width
    (an em apart at the least): a justified line whose stretched spaces parted each word from
    the next. A table's cells are spaced by their columns: equally only where they are as wide
    ('Cell', 'A1', '500')."""
    out: list[tuple[float, float]] = []
    start = 0
    while start < len(row) - 2:
        first, end = row[start], _even_run(row, start)
        widths = [item.x1 - item.x0 for item in row[start:end + 1]]
        if end - start >= 2 and row[end].x1 - first.x0 >= PROSE_EMS * first.size and \
                max(widths) - min(widths) >= first.size:
            out.append((row[end].x1, first.x0))
        start = max(end, start + 1)
    return out


def _even_run(row: list[Item], start: int) -> int:
    """The last of the segments from ``row[start]`` on that are single words of one size
    (``_stretched_word``), the same space between each and the next (``STRETCH_SLACK``); ``start``
    itself when the next is none such (or ``row[start]`` is no word)."""
    first = row[start]
    if not _stretched_word(first) or start + 1 >= len(row):
        return start
    size, gap = first.size, row[start + 1].x0 - first.x1
    slack = STRETCH_SLACK * size + 0.25
    end = start
    while end + 1 < len(row) and _stretched_word(item := row[end + 1]) and abs(item.size - size) <= 0.1 * size and \
            abs(item.x0 - row[end].x1 - gap) <= slack:
        end += 1
    return end


def _words(text: str) -> int:
    """The words of a line: what its spaces part that holds a letter."""
    return sum(any(c.isalpha() for c in word) for word in text.split())


def stretched_spans(row: list[Item], edges: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Spans of ``row`` that are one line of justified text whose spaces were stretched past an
    em, so that each of its words came as a segment of its own (a narrow column set justified
    by a browser or a word processor): single words, the spaces between them equal, the last
    ending at one of the page's justified ``edges`` and the first at its column's left edge or
    a paragraph's indent in from it; a single space no wider than ``STRETCH_MOST``. A table's
    row has cells of several words or figures, and spaces set by its columns."""
    spans: list[tuple[float, float]] = []
    start = 0
    while start < len(row) - 1:
        first = row[start]
        end = start
        size, gap = first.size, row[start + 1].x0 - first.x1
        for k in range(start + 1, _even_run(row, start) + 1):
            if (k > start + 1 or gap <= STRETCH_MOST * size) and \
                    any(abs(row[k].x1 - right) <= EDGE_SLACK and
                        left - EDGE_SLACK <= first.x0 <= left + INDENT_EMS * size for right, left in edges):
                end = k
        if end > start:
            spans.append((first.x0, row[end].x1))
            start = end + 1
        else:
            start += 1
    return spans


def may_stretch(row: list[Item]) -> bool:
    """Does a row hold two single words side by side (what ``stretched_spans`` looks for)?"""
    return any(_stretched_word(a) and _stretched_word(b) for a, b in zip(row, row[1:], strict=False))


def _stretched_word(item: Item) -> bool:
    """A segment that may be a word of a stretched line: one word, with a letter in it."""
    text = item.text
    return item.kind == "line" and " " not in text and item.code is None and any(c.isalpha() for c in text)


def parted_run(run: dict[str, Any], size: float, y: float, gutters: list[tuple[float, float, float, float]],
               stretches: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """A run drawn over a gutter (one of its ``gaps``, half an em or wider, that one of the
    page's ``gutters``, ``run_gutters``, runs through at the line's baseline ``y``, a line of
    prose on one side of it at least: a stretch of the line's text, ``line_stretches``), as
    the runs either side of it: one text object set across a page's columns (a form's
    instructions in three columns, each line one object) is three columns' lines, as three
    objects would be. Other gaps leave the run whole: names spaced out on an author line (two
    short stretches; over the columns, not between them), a contents entry and its page
    number, a table's cells (``run_pieces`` reads them), a listing's spaces, and a gap that
    does not fit the run (a saved stream may hold anything)."""
    gaps, text, box = run.get("gaps"), run.get("text"), run.get("box")
    if not isinstance(gaps, list) or not isinstance(text, str) or not isinstance(box, list) or len(box) != 4 \
            or _mono_name(str(run.get("font", ""))):
        return [run]  # a listing's spaces are its own layout (a report's columns): read as code
    try:  # in the run's own ems: a line's size may be a heading's beside it
        size = float(run.get("size", size)) or size
    except (TypeError, ValueError):
        return [run]
    narrow, prose = NARROW_GAP * size, GUTTER_PROSE * size
    parts: list[dict[str, Any]] = []
    start, left = 0, box[0]
    kept: list[list[Any]] = []  # the gaps of the part being made
    piece = box[0]  # where the piece before the gap starts
    try:
        for gap in gaps:
            offset, end, begin = gap
            if not (isinstance(offset, int) and start < offset < len(text) and piece <= end <= begin <= box[2]):
                return [run]
            if not begin - end < narrow and (_column_starts(gutters, end, begin, y) or _across(
                    gutters, end, begin, y, GUTTER_REACH * size) and _prose_beside(stretches, end, begin, prose)):
                parts.append(_run_part(run, start, offset, left, end, kept))
                start, left, kept = offset, begin, []
            else:
                kept.append(gap)
            piece = begin
    except (TypeError, ValueError, IndexError, KeyError):
        return [run]
    if not parts:
        return [run]
    parts.append(_run_part(run, start, len(text), left, box[2], kept))
    if run.get("joined"):
        parts[0]["joined"] = True
    return [part for part in parts if part["text"]]


def line_stretches(runs: list[dict[str, Any]], narrow: float) -> list[tuple[float, float]]:
    """The stretches of a line's text, left to right: its runs' pieces (``run_pieces``) joined
    across spaces narrower than ``narrow`` (a word space, a change of face). A column's line
    set in three faces is one stretch; two columns' lines are two."""
    stretches: list[tuple[float, float]] = []
    try:
        pieces = sorted((float(x0), float(x1)) for run in runs for x0, x1, _ in run_pieces(run))
    except (KeyError, TypeError, ValueError, IndexError):
        return []  # a damaged run: no stretch of prose, nothing parted
    for x0, x1 in pieces:
        if stretches and x0 - stretches[-1][1] < narrow:
            stretches[-1] = (stretches[-1][0], max(stretches[-1][1], x1))
        else:
            stretches.append((x0, x1))
    return stretches


def _prose_beside(stretches: list[tuple[float, float]], left: float, right: float, prose: float) -> bool:
    """Is the stretch of text that ends at ``left``, or the one that starts at ``right``, a line
    of prose (``prose`` wide)?"""
    return _prose_ends(stretches, left, prose) or _prose_starts(stretches, right, prose)


def _prose_both(stretches: list[tuple[float, float]], left: float, right: float, prose: float) -> bool:
    """Are the stretch of text that ends at ``left`` and the one that starts at ``right`` both
    lines of prose (``prose`` wide)?"""
    return _prose_ends(stretches, left, prose) and _prose_starts(stretches, right, prose)


def _prose_ends(stretches: list[tuple[float, float]], left: float, prose: float) -> bool:
    return any(x1 == left and x1 - x0 >= prose for x0, x1 in stretches)


def _prose_starts(stretches: list[tuple[float, float]], right: float, prose: float) -> bool:
    return any(x0 == right and x1 - x0 >= prose for x0, x1 in stretches)


def _across(gutters: list[tuple[float, float, float, float]], left: float, right: float, y: float,
            reach: float) -> bool:
    """Does one of the ``gutters`` run through the gap from ``left`` to ``right`` on a line at
    ``y``: within ``reach`` of the lines that show it, or anywhere down the page where the
    text after the gap starts where the gutter's next column does (a column's last line, a
    paragraph's short line, above or below the lines of prose either side)?"""
    return any(left <= x <= right and (low - reach <= y <= high + reach or abs(right - start) <= CHANNEL_SLACK)
               for x, low, high, start in gutters)


def _column_starts(gutters: list[tuple[float, float, float, float]], left: float, right: float, y: float) -> bool:
    """Does the text after the gap from ``left`` to ``right`` start where the next column of
    one of the ``gutters`` does, on a line between the lines that show that gutter? Two
    columns' short lines on one baseline ('property.' and 'RRB-1042S.', each a paragraph's
    last) drawn as one object: lines above and below show the columns, and the second piece
    starts at its column's edge. An author line over the columns lies above them. (Such a
    gap is one ``_across`` finds too, narrowed to the gutter's own lines.)"""
    return any(left <= x <= right and low <= y <= high and abs(right - start) <= CHANNEL_SLACK
               for x, low, high, start in gutters)


def _run_part(run: dict[str, Any], start: int, stop: int, left: float, right: float,
              gaps: list[list[Any]]) -> dict[str, Any]:
    """The part of ``run`` from character ``start`` to ``stop``, from x ``left`` to ``right``,
    with its own ``gaps`` counted from its first character."""
    raw = run["text"][start:stop]
    text = raw.strip()
    shift = start + len(raw) - len(raw.lstrip())
    part = {**run, "text": text, "box": [left, run["box"][1], right, run["box"][3]]}
    part.pop("joined", None)
    inside = [[gap[0] - shift, gap[1], gap[2]] for gap in gaps if 0 < gap[0] - shift < len(text)]
    if inside:
        part["gaps"] = inside
    else:
        part.pop("gaps", None)
    return part


_NEGATED = lazy(NEGATION + r" ?(\S)")


def negated(text: str) -> str:
    """``text`` with each negation slash (TeX's \\not, siftpdf.texfonts) set over the symbol
    after it: '≠', '∉', '≢' where Unicode has the symbol, the symbol with a combining slash
    where it has not."""
    return _NEGATED.sub(lambda m: unicodedata.normalize("NFC", m[1] + NEGATION), text)


NO_BREAK_HYPHEN = "\u2011"  # pandoc and word processors set '--flag' with it: read, and searched for, as '-'
DRAWN_AGAIN = 0.1  # ems the edges of the same text drawn twice may differ by (a bold made by a slight offset)
OVERPRINT = 1.0  # ems a run may start inside the text before it and still follow it (kerning, an accent)
OVERPRINT_RUN = 2.0  # ems: a run set over other text is words, not an accent or a mark
OVERPRINT_PARTS = 8  # segments of a line an overprinted run looks back over
SMALL_RUN = 0.85  # of the line's size: smaller runs are its superscripts, stacked limits, marks


SMALL_CAPS_LEAST, SMALL_CAPS_MOST = 0.65, 0.88  # of the capitals' size: small capitals beside them
# Runs closer than this (ems) make one word, as poppler reads a gap: a word space is wider, even
# in tight justified text or beside a formula's operator ('set of', 'P − 1').
WORD_SEAM = 0.1
# ... and closer than this before punctuation or a bracket, or after an opening one, or beside
# a run off the baseline: an italic's slant kept clear of an upright stop or parenthesis is
# no space ('Vp.', 'timerp(q)'), nor is a superscript's offset ('S1').
PUNCT_SEAM = 0.15
CLOSERS, OPENERS = frozenset(".,;:)]}!?%’”(["), frozenset("([{‘“")


def small_capitals(runs: list[dict[str, Any]], size: float) -> list[dict[str, Any]]:
    """The runs of a line with its small capitals read as the lower case they stand for. A word
    set in small capitals made from capitals (IEEE's and ACM's section heads, a word
    processor's small caps) is a capital of the text's size and then capitals set smaller on
    its baseline in the same font: 'I' + 'NTRODUCTION' reads 'Introduction', as it was typed.
    Once a line holds such a word, its other runs of those small capitals ('AND') are read
    so too; a line without one (an acronym or a unit set smaller) is left as it is."""
    first = runs[0]["size"]
    for run in runs:
        if run["size"] != first:
            break
    else:
        return runs  # most lines: one size throughout
    capitals = [prev for prev, run in zip(runs, runs[1:], strict=False) if _after_capital(prev, run, size)]
    if not capitals:
        return runs
    return [dict(run, text=_lower(run["text"]), small=True)
            if any(_small_capital(capital, run) for capital in capitals) else run for run in runs]


def _after_capital(prev: dict[str, Any], run: dict[str, Any], size: float) -> bool:
    """Does ``run`` go on, as small capitals, the word whose capital ends ``prev``?"""
    text = prev["text"]
    return (text[-1:].isupper() and run["box"][0] - prev["box"][2] < WORD_SEAM * size
            and _small_capital(prev, run))


def _small_capital(capital: dict[str, Any], run: dict[str, Any]) -> bool:
    """Is ``run`` capitals set smaller than ``capital``, on its baseline and in its font?"""
    text = run["text"]
    try:
        ratio = float(run["size"]) / float(capital["size"])
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    return (SMALL_CAPS_LEAST <= ratio <= SMALL_CAPS_MOST and run.get("y") == capital.get("y")
            and run.get("font") == capital.get("font") and text.isupper())


def _lower(text: str) -> str:
    """``text`` in lower case, character for character (the pieces keep their offsets)."""
    return "".join(low if len(low := char.lower()) == 1 else char for char in text)


def _drawn_again(prev: dict[str, Any], run: dict[str, Any], size: float) -> bool:
    """Whether a run is the one before it drawn again in the same place (a fill under a
    stroke, a bold made by printing twice, a label written twice): a reader sees one text, as
    the text layer gives it."""
    if run["text"] != prev["text"]:
        return False
    return all(abs(a - b) <= DRAWN_AGAIN * size for a, b in zip(prev["box"], run["box"], strict=True))


def _followed(parts: list[list[dict[str, Any]]], run: dict[str, Any], size: float,
              wide: float, channels: list[float] | None = None) -> list[dict[str, Any]] | None:
    """Where a run that starts inside the text before it goes: on the segment (of ``parts``)
    that ends just before it (no channel between them), else on a segment of its own (an empty
    list) when it is words set in the line's size; None (it stays where it is) when it is a
    mark or an accent."""
    x = run["box"][0]
    for part in parts[::-1]:  # not reversed(): mypyc cannot compile it over this type
        end = part[-1]["box"][2]
        if -OVERPRINT * size <= x - end <= wide and not (channels and x - end >= NARROW_GAP * size and
                                                        _in_channel(channels, end, x)):
            return part
    if run["box"][2] - x >= OVERPRINT_RUN * size and float(run["size"]) >= SMALL_RUN * size:
        return []
    return None


def _in_channel(channels: list[float], left: float, right: float) -> bool:
    """Does one of the channels run through the gap from ``left`` to ``right``?"""
    index = bisect_left(channels, left)
    return index < len(channels) and channels[index] <= right


NARROW_GAP = 0.5  # ems: wider than a word space in most setting, narrower than a tight gutter
CHANNEL_LINES = 4  # lines whose gaps line up before the gaps are a gutter
CHANNEL_SLACK = 2.0  # points: gaps whose middles lie this close line up
GUTTER_PROSE = 10.0  # ems of text either side of a wide gap: two columns of prose, not table cells


def narrow_gutters(lines: list[dict[str, Any]]) -> list[float]:
    """The x of each gutter a line may not part at by its own size: gaps of half an em or more
    between runs that line up down the page on at least four lines. Two columns set a few points
    apart leave such a channel; a wide word space in justified text falls at a different x on
    each line. Gaps wider than an em between prose either side count too: a line set larger
    (a heading beside the other column's text) parts where its neighbours' gutter runs.
    A gap that runs from where other lines end to where others start, four or more each, is
    such a gutter met once: the columns' lines lie on baselines of their own but for one, where
    a heading set larger beside a line of the other column came as one evidence line with it.
    So is such a gap between two stretches of prose from where four or more lines end, with no
    line beside those lines reaching into it: a column whose lines start at a hanging indent
    (a list of references) starts few of them at its edge.
    Sorted; empty on most pages. O(n log n) in the gaps."""
    gaps: list[tuple[float, float, float]] = []  # (middle, left, right)
    narrows: list[tuple[float, float, bool]] = []  # (left, right, prose either side) of the gaps an em wide or narrower
    starts: list[float] = []
    ends: list[float] = []
    for line in lines:
        try:
            size = float(line["size"])
            narrow, wide = NARROW_GAP * size, max(size, 4.0)
            runs = line["runs"]
            start, end = float(runs[0]["box"][0]), float(runs[-1]["box"][2])
            starts.append(start)
            ends.append(end)
            prose = GUTTER_PROSE * size
            stretches: list[tuple[float, float]] | None = None
            for prev, run in zip(runs, runs[1:], strict=False):
                left, right = float(prev["box"][2]), float(run["box"][0])
                # A wide gap parts its line anyway; between two columns of prose it marks
                # where the gutter runs, for a line set larger that leaves a narrower gap there.
                if narrow <= right - left <= wide:
                    gaps.append(((left + right) / 2, left, right))
                    if stretches is None:
                        stretches = line_stretches(runs, narrow)
                    narrows.append((left, right, _prose_both(stretches, left, right, prose)))
                elif right - left > wide and left - start >= prose and end - right >= prose:
                    gaps.append(((left + right) / 2, left, right))
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # a malformed line is judged by line_segments, not here
    found = _channels(gaps)
    if narrows:
        starts.sort()
        ends.sort()
        found = sorted({*found, *((left + right) / 2 for left, right, prose in narrows
                                  if _edges_at(ends, left) and (_edges_at(starts, right) or
                                                                prose and _clear(lines, left, right)))})
    return found


def _clear(lines: list[dict[str, Any]], left: float, right: float) -> bool:
    """Does no run reach into the gap from ``left`` to ``right`` on the lines from the highest
    to the lowest of those that end at ``left`` (within ``CHANNEL_SLACK``)?"""
    try:
        ys = [float(line["y"]) for line in lines if abs(float(line["runs"][-1]["box"][2]) - left) <= CHANNEL_SLACK]
        low, high = min(ys), max(ys)
        inner_left, inner_right = left + CHANNEL_SLACK, right - CHANNEL_SLACK
        return not any(float(run["box"][0]) < inner_right and float(run["box"][2]) > inner_left
                       for line in lines if low <= float(line["y"]) <= high for run in line["runs"])
    except (KeyError, TypeError, ValueError, IndexError):
        return False  # a malformed line: no gutter found by it


def _edges_at(edges: list[float], x: float) -> bool:
    """Do ``CHANNEL_LINES`` or more of the sorted ``edges`` lie within ``CHANNEL_SLACK`` of x?"""
    return bisect_right(edges, x + CHANNEL_SLACK) - bisect_left(edges, x - CHANNEL_SLACK) >= CHANNEL_LINES


def run_gutters(lines: list[dict[str, Any]]) -> list[tuple[float, float, float, float]]:
    """Each gutter that text objects are drawn across, on a page where some are (runs with
    ``gaps``), as (x, lowest and highest baseline of the lines that show it, where the column
    after it starts): spaces of half an em or more between stretches of prose
    (``line_stretches``, ``GUTTER_PROSE`` ems each), inside a run or between two, whose right
    edges (where the next column starts) line up down the page on at least four lines,
    leaving one x clear. A form's instructions in three columns, some lines one object from
    the left column to the right, leave two; a contents entry and its page number, or a
    table's row drawn as one object, leave none (their pieces are short), nor does a listing
    (a report's columns set in a monospaced face). Sorted; empty on most pages."""
    if not any("gaps" in run for line in lines for run in line.get("runs", ()) if isinstance(run, dict)):
        return []
    gaps: list[tuple[float, float, float, float]] = []  # (right, left, right, baseline)
    for line in lines:
        try:
            size, y = float(line["size"]), float(line["y"])
            narrow, prose = NARROW_GAP * size, GUTTER_PROSE * size
            runs = line["runs"]
            if any(_mono_name(str(run.get("font", ""))) for run in runs):
                continue  # a listing's line: its spaces are its own layout
            stretches = line_stretches(runs, narrow)
            for (x0, left), (right, x1) in zip(stretches, stretches[1:], strict=False):
                if left - x0 >= prose and x1 - right >= prose:
                    gaps.append((float(right), float(left), float(right), y))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            continue  # a malformed line is judged by line_segments, not here
    # Ragged-right columns line up on the right: where the next column starts.
    return sorted(((lo + hi) / 2, min(g[3] for g in group), max(g[3] for g in group), hi)
                  for group, lo, hi in _lined_up(gaps))


GUTTER_REACH = 3.0  # ems above and below the lines that show a gutter where it still parts a run


def _channels(gaps: list[tuple[float, float, float]]) -> list[float]:
    """The x of each channel that ``gaps`` (middle, left, right) on ``CHANNEL_LINES`` lines or
    more leave clear, their middles within ``CHANNEL_SLACK`` of each other. Sorted."""
    return [(lo + hi) / 2 for _, lo, hi in _lined_up(gaps)]


def _lined_up(gaps: list[Any]) -> list[tuple[list[Any], float, float]]:
    """The groups of ``gaps`` (key, left, right, ...) whose keys lie within ``CHANNEL_SLACK`` of
    the first's, ``CHANNEL_LINES`` or more, that leave one x clear: each with the clear span
    (the gaps' rightmost left edge, their leftmost right edge). In the keys' order."""
    gaps.sort()
    found: list[tuple[list[Any], float, float]] = []
    first = 0
    for last in range(len(gaps) + 1):
        if last < len(gaps) and gaps[last][0] - gaps[first][0] <= CHANNEL_SLACK:
            continue
        group = gaps[first:last]
        if len(group) >= CHANNEL_LINES:
            lo, hi = max(g[1] for g in group), min(g[2] for g in group)
            if lo <= hi:  # every gap of the group is clear at one x
                found.append((group, lo, hi))
        first = last
    return found


def _segment(runs: list[dict[str, Any]], line: dict[str, Any]) -> Item:
    if len(runs) == 1:
        item = _one_run(runs[0], line)
        item.code = _code_start(runs)
        item.spread = _spread_apart(item)
        return item
    try:
        item = _runs_at_once(runs, line)
    except Exception:  # noqa: BLE001 - a damaged run: the step by step path fails where it should
        item = _segment_by_steps(runs, line)
    wordy = [run for run in runs if type(run["text"]) is str and _WORDY.search(run["text"])]
    item.italic = bool(wordy) and all(italic_font(run.get("font", "")) for run in wordy)
    item.upright = bool(wordy) and not italic_font(wordy[0].get("font", ""))
    item.spread = _spread_apart(item)
    if any(run.get("small") for run in runs):  # marked by ``small_capitals``
        item.caps = all(run.get("small") or not any(c.islower() for c in run["text"]) for run in runs)
    item.code = _code_start(runs)
    if NEGATION in item.text:  # TeX's \not before the symbol it strikes ('≠' is \not=)
        item.text = negated(item.text)
    return item


def _spread_apart(item: Item) -> bool:
    """Do the pieces of one segment stand a ``SPREAD`` apart somewhere, as a run drawn with a
    wide gap inside it sets them (a contents entry and its page number, a head's left and
    right parts), as much as pieces rejoined across such a gap?"""
    pieces = item.pieces
    if len(pieces) < 2:
        return False  # most segments: a run without wide spaces
    gap = SPREAD * item.size
    return any(right[0] - left[1] > gap for left, right in zip(pieces, pieces[1:], strict=False))


ELISIONS = frozenset(("...", "…", ". . ."))  # code left out of a listing, set in another face ('/* ... */')


def _set_apart(text: str, before: str) -> bool:
    """Is a run inside a line of code set in another face part of the code: operators set in a
    math face ('char ∗∗ name'), an elision ('/* ... */'), or words in a script the code's face
    has no glyphs for, inside a string or a comment the code before it (``before``) opened
    (``'高钾未风化.xlsx'``, ``% 表示无权图``: set in a Chinese face)?"""
    if text in ELISIONS or all(unicodedata.category(char) == "Sm" for char in text):
        return True
    return any(is_cjk(char) for char in text) and all(is_cjk(char) or not char.isalnum() for char in text) and \
        (before.count("'") % 2 == 1 or before.count('"') % 2 == 1 or any(mark in before for mark in COMMENT_MARKS))


COMMENT_MARKS = ("//", "/*", "#", "%", "--")  # what opens a comment in the common languages


def _code_start(runs: list[dict[str, Any]], before: str = "") -> float | None:
    """Where the code of a line set in a monospaced font starts across (after a listing's
    line number, which may be set in another font); None for any other line. ``before``: the
    code of the same line left of these runs, when they are a segment parted from it (a
    comment's words set apart in another face, past a channel)."""
    if runs[0]["text"].isdigit() and len(runs) > 1 and not before:
        if runs[0].get("y") is not None:
            return None  # a note's mark, raised: the note is no code however it is set
        runs = runs[1:]
    for run in runs:
        font, text = run.get("font"), run["text"]
        if type(font) is not str or not _mono_name(font) and \
                (run is runs[0] and not before or not _set_apart(text, before)):
            return None
        before += text
    return coordinate(runs[0]["box"][0])


@lru_cache(maxsize=1024)
def _mono_name(font: str) -> bool:
    return monospaced(font)


def _segment_by_steps(runs: list[dict[str, Any]], line: dict[str, Any]) -> Item:
    """A segment of several runs, measured step by step: what ``_runs_at_once`` computes in
    one pass, and where damaged evidence fails."""
    # A baseline shared by two columns may group two sizes: each segment keeps its own.
    size = float(_line_size(runs))
    text = _joined(runs, [run["box"][0] - prev["box"][2] for prev, run in zip(runs, runs[1:], strict=False)], size)
    chars = sum(len(r["text"]) for r in runs)
    bold_chars = sum(len(r["text"]) for r in runs if bold_font(r.get("font", "")))
    bold_all = all(bold_font(r.get("font", "")) or _math_face(r.get("font", "")) for r in runs
                   if _WORDY.search(r["text"]))
    math_chars = sum(len(r["text"]) for r in runs if _WORDY.search(r["text"]) and
                     not bold_font(r.get("font", "")) and _math_face(r.get("font", "")))
    bold_all = bold_all and math_chars <= MATH_SHARE * bold_chars
    numbers: tuple[float, ...] = (min(r["box"][0] for r in runs), min(r["box"][1] for r in runs),
                                  max(r["box"][2] for r in runs), max(r["box"][3] for r in runs),
                                  float(line["y"]), size)
    if not -FAR <= min(numbers) <= max(numbers) <= FAR:  # clamped once the segment is measured
        numbers = tuple(map(coordinate, numbers))
    x0, y0, x1, y1, y, size = numbers
    pieces = [piece for r in runs for piece in run_pieces(r)]
    return Item(text=text, x0=x0, y0=y0, x1=x1, y1=y1, y=y, size=size, bold=bold_chars * 2 > chars,
                bold_all=bold_all and bold_chars > 0, pieces=pieces, lead=_bold_lead(runs))


def _one_run(run: dict[str, Any], line: dict[str, Any]) -> Item:
    """``_segment`` of a single run (most lines of a page): the same steps, in the same order
    (a damaged run fails where it would there), without the sums and joins over runs."""
    text = run["text"]
    chars = len(text)
    size = float(run["size"])
    # Bold over most characters, and over every word, are one and the same for one run.
    bold = bold_font(run.get("font", "")) and chars > 0
    if type(text) is not str:
        _WORDY.search(text)  # a run whose text is no string fails here, as in ``_segment``
    box = run["box"]
    numbers: tuple[float, ...] = (box[0], box[1], box[2], box[3], float(line["y"]), size)
    if not -FAR <= min(numbers) <= max(numbers) <= FAR:  # clamped once the segment is measured
        numbers = tuple(map(coordinate, numbers))
    x0, y0, x1, y1, y, size = numbers
    # What run_pieces makes of a run without gaps (most of them), without the call.
    pieces = run_pieces(run) if run.get("gaps") else [(box[0], box[2], text)]
    item = Item(text=text, x0=x0, y0=y0, x1=x1, y1=y1, y=y, size=size, bold=bold, bold_all=bold,
                pieces=pieces)
    item.italic = chars > 0 and italic_font(run.get("font", ""))
    item.upright = chars > 0 and not item.italic
    return item


def _line_size(runs: list[dict[str, Any]]) -> Any:
    """The size of a segment of several runs: of the runs ranked first (``_size_rank``), the
    size most of their characters are set in (of equals, the first). Code set inline in a
    monospaced face is often drawn smaller than the text around it, to match its letters'
    height: where another face sets letters on the line, that face's runs alone count
    ('tently invoke setMaximumCost() instead of': the text's size)."""
    size = runs[0]["size"]
    if all(run["size"] == size for run in runs):
        return size  # most segments: one size, whichever run sets it
    other = [run for run in runs if not _mono_name(str(run.get("font", "")))]
    if len(other) < len(runs) and any(any(char.isalpha() for char in run["text"]) for run in other):
        runs = other
    sizes: dict[tuple[int, Any], int] = {}
    for run in runs:
        rank = _size_rank(run)
        key = (rank // RANK_STEP, run["size"])
        sizes[key] = sizes.get(key, 0) + rank % RANK_STEP
    return max(sizes, key=lambda key: (key[0], sizes[key]))[1]


def _size_rank(run: dict[str, Any]) -> int:
    """How a segment's size is chosen among its runs (``_line_size``: the size of the most
    characters among the runs of the highest rank): the runs set on the line's baseline, not
    in small capitals (a line of names in them, 'PIKE, R., AND QUINLAN', is the text's size);
    where none is (a column's segment on a baseline of its own, a line beside it in the other
    column setting the line's), those not in small capitals, then any. Glyphs without
    characters (a name set in a font of pictures, 'P⁵': the font's codes, none printable)
    never set it: their line's baseline may be theirs, every run of the text off it. Nor does
    a run of marks alone (a bullet) where words are beside it."""
    if run.get("unmapped") and not any(char.isprintable() and not char.isspace() for char in run["text"]):
        return 0
    if all(char.isspace() or unicodedata.category(char) in _MARKS for char in run["text"]):
        return len(run["text"])  # a bullet or a mark, set in a size of its own: the words beside it set the line's
    small = bool(run.get("small"))
    return len(run["text"]) + (0 if small else RANK_STEP if run.get("y") is not None else 2 * RANK_STEP)


RANK_STEP = 1 << 40  # longer than any run
# A bullet's or a mark's characters ('•', '■', '*', '!', '–', a symbol font's private codes); not
# a formula's operators, accents and brackets ('∑', '˜', '('), which set its size as its letters do
_MARKS = ("Po", "So", "Pd", "Co")


def _runs_at_once(runs: list[dict[str, Any]], line: dict[str, Any]) -> Item:
    """``_segment_by_steps`` in one pass over the runs for the sums, then the join. It does
    every step that one does, and a few more checks: whenever it returns, that one would
    have returned the same; a run it cannot read it leaves to that one."""
    first = runs[0]
    chars = bold_chars = math_chars = 0
    bold_all = True
    box = first["box"]
    x0, y0, x1, y1 = box[0], box[1], box[2], box[3]
    pieces: list[tuple[float, float, str]] = []
    gaps: list[float] = []  # before each run after the first
    end = None
    for run in runs:
        text = run["text"]
        if type(text) is not str:
            raise TypeError("a run's text is no string")
        chars += len(text)
        if bold_font(run.get("font", "")):
            bold_chars += len(text)
        elif bold_all and _WORDY.search(text):
            if _math_face(run.get("font", "")):
                math_chars += len(text)
            else:
                bold_all = False
        box = run["box"]
        left, bottom, right, top = box[0], box[1], box[2], box[3]
        if end is not None:
            gaps.append(left - end)
        end = right
        # As ``min`` and ``max`` compare: a later number replaces only a smaller (larger) one.
        if left < x0:
            x0 = left
        if bottom < y0:
            y0 = bottom
        if right > x1:
            x1 = right
        if top > y1:
            y1 = top
        if run.get("gaps"):
            pieces += run_pieces(run)
        else:
            pieces.append((left, right, text))  # what run_pieces makes of a run without gaps
    size = float(_line_size(runs))
    joined = _joined(runs, gaps, size)
    bold_all = bold_all and math_chars <= MATH_SHARE * bold_chars
    numbers: tuple[float, ...] = (x0, y0, x1, y1, float(line["y"]), size)
    if not -FAR <= min(numbers) <= max(numbers) <= FAR:
        numbers = tuple(map(coordinate, numbers))
    x0, y0, x1, y1, y, size = numbers
    return Item(text=joined, x0=x0, y0=y0, x1=x1, y1=y1, y=y, size=size, bold=bold_chars * 2 > chars,
                bold_all=bold_all and bold_chars > 0, pieces=pieces,
                lead=_bold_lead(runs) if bold_chars and not bold_all else 0)


def _joined(runs: list[dict[str, Any]], gaps: list[float], size: float) -> str:
    """The runs' texts joined, a space where the gap before a run (``gaps``) is a word space.
    CJK needs no spaces between glyphs: a gap of a quarter em or more there is one set on
    purpose. A run marked joined goes on with the word before it (the letters of a
    letter-spaced word)."""
    joined = runs[0]["text"]
    # Gaps narrower than a space: in Latin, beside punctuation, in CJK.
    close, punct_close, cjk_close = WORD_SEAM * size, PUNCT_SEAM * size, 0.25 * size
    for gap, prev, run in zip(gaps, runs, runs[1:], strict=False):
        text = run["text"]
        if gap < close or (gap < punct_close and (text[:1] in CLOSERS or joined[-1:] in OPENERS or
                                                  run.get("y") is not None or prev.get("y") is not None)) or \
                (gap < cjk_close and is_cjk(joined[-1:]) and is_cjk(text[:1])) or run.get("joined") is True:
            joined += text
        else:
            joined += " " + text
    return joined


def _bold_lead(runs: list[dict[str, Any]]) -> int:
    """How many pieces the segment's opening bold runs (and the marks between them) make, when
    lighter words follow them on the line: a bold lead-in. 0 when it opens lighter or is bold
    throughout."""
    pieces, bold = 0, False
    for run in runs:
        if bold_font(run.get("font", "")):
            bold = True
        elif _WORDY.search(run["text"]):
            return pieces if bold else 0
        pieces += len(run_pieces(run)) if run.get("gaps") else 1
    return 0


@lru_cache(maxsize=4096)
def _bold_name(font: str) -> bool:
    return _BOLD.search(font) is not None


@lru_cache(maxsize=4096)
def _italic_name(font: str) -> bool:
    return _ITALIC.search(font) is not None


def italic_font(font: Any) -> bool:
    """Is the font named an italic (oblique, slanted) face?"""
    return type(font) is str and _italic_name(font)


def _math_face(font: Any) -> bool:
    """Is the font named a face of mathematics (TeX's math italic and symbols, a 'Math' face)?
    A formula's symbol in a bold heading ('5 Specializing 𝒰 for …') is set in one, which has
    no bold: a few such characters leave every word of the line bold (``MATH_SHARE``)."""
    return type(font) is str and _math_name(font)


MATH_SHARE = 0.2  # of the bold characters: a line's symbols in a math face, at the most (not pseudo-code's names)


@lru_cache(maxsize=1024)
def _math_name(font: str) -> bool:
    return tex_encoding(font) is not None or "math" in font.lower()


def bold_font(font: Any) -> bool:
    """Is the font named a bold (or black, heavy, demi…) face? A page names a few fonts over
    and over: each name is searched once."""
    return _bold_name(font) if type(font) is str else _BOLD.search(font) is not None


def run_pieces(run: dict[str, Any]) -> list[tuple[float, float, str]]:
    """A run as (x0, x1, text) pieces, parted at its wide spaces (``gaps``: a table row drawn
    by one text object); a gap that does not fit the run (a saved stream may hold anything)
    leaves the run whole."""
    x0, x1, text = run["box"][0], run["box"][2], run["text"]
    gaps = run.get("gaps")
    if not gaps or not isinstance(gaps, list):
        return [(x0, x1, text)]
    out: list[tuple[float, float, str]] = []
    start, left = 0, x0
    try:
        for offset, end, begin in gaps[:len(text)]:
            if not (isinstance(offset, int) and start < offset < len(text) and left <= end <= begin <= x1):
                return [(x0, x1, text)]
            out.append((left, float(end), text[start:offset].strip()))
            start, left = offset, float(begin)
    except (TypeError, ValueError):
        return [(x0, x1, text)]
    out.append((left, x1, text[start:].strip()))
    return [piece for piece in out if piece[2]] or [(x0, x1, text)]


BODY_CHARS = 200  # characters of text a page needs to tell its body size: of its own text layer for
# OCR's lines to be a picture's (whose sizes are the picture's scale), of prose for its listings
# to choose no body size
LISTED_SHARE = 0.75  # of a page's lines' characters set in a monospaced face, at the most, for that
# (below CODE_SHARE: where listings set no body, they read as code)
NOTES_BELOW = 0.8  # of a size's characters, set below all the text of a larger size: notes
NOTES_WEIGHT = 0.3  # the larger size holds at least this share of the notes' characters


def body_size(items: list[Item], notes: bool = False, known: float | None = None) -> float:
    """The size most text is set in, weighted by characters. With ``notes``: notes set small
    at the foot of a page may outweigh a short page's text above them, so a larger size whose
    text all sits above most of the most common size's, and that holds a fair share of
    characters, is the body. Also with ``notes``: lines set in a monospaced face (listings)
    choose no body where the page has prose enough to, though they weigh against notes; on a
    page mostly of listings, the body of the pages before (``known``) stays the body where the
    page sets prose enough in it (a manual's examples with a few sentences between them)."""
    weights: dict[float, int] = {}
    prose: dict[float, int] = {}  # the weights of lines not set in a monospaced face
    listed = lined = 0  # characters set in a monospaced face; of lines (no table's, no figure's)
    lowest: dict[float, float] = {}  # the bottom of each size's lowest line
    keys: dict[float, float] = {}  # a page has a few sizes: each rounded once
    for item in items:
        size, y0 = item.size, item.y0
        key = keys.get(size)
        if key is None:
            key = keys[size] = round(size * 2) / 2
        weight = weights.get(key)
        if weight is None:
            weights[key], lowest[key] = len(item.text), y0
        else:
            weights[key] = weight + len(item.text)
            if y0 < lowest[key]:  # as min keeps the first of equals
                lowest[key] = y0
        if not notes:
            continue
        if item.kind == "line":
            lined += len(item.text)
        if item.code is not None:
            listed += len(item.text)
        else:
            prose[key] = prose.get(key, 0) + len(item.text)
    if not weights:
        return 10.0
    if not notes:
        return max(weights, key=lambda k: weights[k])
    # Prose enough, and listings that fill no more than LISTED_SHARE of the lines (a page of
    # listings, or one set wholly in a monospaced face, keeps the size most of it is set in)
    listings = listed > LISTED_SHARE * lined
    if listings and known is not None and prose.get(known, 0) >= BODY_CHARS:
        return known  # a page mostly of listings, with prose enough in the body size of the pages before
    chosen = prose if not listings and sum(prose.values()) >= BODY_CHARS else weights
    most = max(chosen, key=lambda k: chosen[k])
    larger = [k for k in weights if k > most and weights[k] >= NOTES_WEIGHT * weights[most]]
    if not larger:
        return most
    second = max(larger, key=lambda k: weights[k])
    below = sum(len(i.text) for i in items if round(i.size * 2) / 2 == most and i.y1 <= lowest[second])
    return second if below >= NOTES_BELOW * weights[most] else most


# --- columns and reading order --------------------------------------------------------------

GUTTER_STEP = 3.0
GUTTER_PROBES = 200


def find_gutter(items: list[Item], width: float, lenient: bool = False) -> float | None:
    """The x of a two-column gutter: where the fewest items cross and most lie either side.
    None when the page reads as one column. ``lenient``: columns whose lines are broken into
    narrow pieces (equations, symbols) count too, when most of their text is in wide lines."""
    if len(items) < 8:
        return None
    x0s = sorted(i.x0 for i in items)
    x1s = sorted(i.x1 for i in items)
    # A gutter needs three items ending left of it and three starting right of it: when the
    # third end lies right of the third start from the right, no x scores (numbers all real).
    if x1s[2] > x0s[-3] and math.isfinite(sum(x0s, 0.0) + sum(x1s, 0.0)):
        return None
    best, best_score, best_cross = None, 0.0, 0
    # Every 3 pt on a paper-sized page; a page of any size gets as many tries, no more.
    step = max(GUTTER_STEP, 0.4 * width / GUTTER_PROBES)
    x = 0.3 * width
    for _ in range(GUTTER_PROBES + 1):
        if x > 0.7 * width:
            break
        left = bisect_right(x1s, x)
        right = len(items) - bisect_left(x0s, x)
        cross = len(items) - left - right
        # Full-width titles and abstracts cross any gutter: they weigh, but do not veto. Of two
        # places that score alike, the one fewer items cross: the column of fewer lines bounds
        # the score, which may stay level while the place still cuts the other's longest lines.
        score = min(left, right) - 0.5 * cross
        if score > best_score or score == best_score and cross < best_cross:
            best, best_score, best_cross = x, score, cross
        x += step
    if best is None or best_score < 3:
        return None
    lefts = [i for i in items if i.x1 <= best]
    rights = [i for i in items if i.x0 >= best]
    column = 0.2 * width
    if median([i.x1 - i.x0 for i in lefts]) >= column and median([i.x1 - i.x0 for i in rights]) >= column:
        return best
    # Narrow pieces either side are table cells or labels, not columns, unless most of the text
    # either side is set in wide lines (an equation's pieces, a chart's labels set in a column)
    # and the page's text does not run across the gutter (lines parted at gaps of their own).
    if not lenient or _text_width(lefts) < column or _text_width(rights) < column:
        return None
    across = sum(len(i.text) for i in items if i.x0 < best < i.x1)
    return best if across < CROSSING_TEXT * sum(len(i.text) for i in items) else None


CROSSING_TEXT = 0.4  # of a page's characters, in lines across a gutter: then it is none


def median(values: list[float]) -> float:
    """The middle value (the upper of the two middles; 0 for none)."""
    return sorted(values)[len(values) // 2] if values else 0.0


def _text_width(items: list[Item]) -> float:
    """The width of the line most of the characters are set in (the median weighted by
    characters): a column's lines, not the pieces of an equation or a chart's labels in it."""
    ordered = sorted(items, key=lambda i: i.x1 - i.x0)
    half, seen = sum(len(i.text) for i in ordered) / 2, 0
    for item in ordered:
        seen += len(item.text)
        if seen >= half:
            return item.x1 - item.x0
    return 0.0


def reading_order(items: list[Item], width: float, columns: bool, known: float | None = None) -> list[Item]:
    """Top to bottom; with a gutter, each stretch between full-width items reads its left
    column, then its right column. ``known``: the gutter of the page before, the page read
    by it when it shows none of its own and nothing on it crosses that one (``kept_gutter``:
    a document's last page, a few lines or a table's rows in each column)."""
    items = _labels_first(sorted(items, key=lambda i: (-round(i.y, 1), i.x0)))
    gutter = find_gutter(items, width) if columns else None
    if gutter is not None and _columns_beside(items, gutter, width):
        gutter = None  # three columns or more: one gutter would read two of them as one
    if gutter is None and columns:
        by_whitespace = _by_whitespace(items, width)
        if by_whitespace is not None:
            return _rejoin(by_whitespace)
        # Neither finds columns of whole lines: columns of lines broken by equations may be there.
        gutter = find_gutter(items, width, lenient=True) or kept_gutter(items, known)
    if gutter is None:
        _edges(items, "F", 0, _text_edges(_lines(items) or items, page_width=width))
        return _rejoin(items)
    # A full-width stretch measures its edges on the lines not placed in a column when it
    # ends: the full-width lines above it and every line below. Placing a line in a column
    # takes it out of that pool, so the pool only shrinks and its quantiles cost a logarithm,
    # not a pass over the page for each stretch.
    lines = [(index, item) for index, item in enumerate(items) if item.kind == "line"]
    lefts = _Shrinking({index: item.x0 for index, item in lines})
    rights = _Shrinking({index: item.x1 for index, item in lines})
    ordered: list[Item] = []
    section: list[Item] = []
    full: list[Item] = []
    number = 0
    overrun = _overruns(items, gutter)
    for index, item in enumerate(items):
        item.column = "L" if item.x1 <= gutter else "R" if item.x0 >= gutter else overrun.get(index, "F")
        if item.column == "L" and full and _ends_full(full, items, index, gutter):
            item.column = "F"
        if item.column == "F":
            if section:
                ordered += _flush(section, number)
                number += 1
                section = []
            full.append(item)
            continue
        if item.kind == "line":
            lefts.remove(index)
            rights.remove(index)
        if full:
            _edges(full, "F", number, _pool_edges(lefts, rights))
            ordered += full
            number += 1
            full = []
        section.append(item)
    if full:
        _edges(full, "F", number, _pool_edges(lefts, rights))
        ordered += full
    ordered += _flush(section, number)
    return _rejoin(ordered)


def kept_gutter(items: list[Item], known: float | None) -> float | None:
    """``known``, the gutter of the page before, where a page that shows no columns of its own
    keeps it: no item across it, items either side, a line's height of each side beside the
    other; None otherwise (or for no gutter known)."""
    if known is None:
        return None
    lefts = [i for i in items if i.x1 <= known]
    rights = [i for i in items if i.x0 >= known]
    if not lefts or not rights or len(lefts) + len(rights) < len(items):
        return None
    top, bottom = min(max(i.y1 for i in side) for side in (lefts, rights)), max(min(i.y0 for i in side)
                                                                               for side in (lefts, rights))
    return known if top > bottom else None


def page_gutter(ordered: list[Item]) -> float | None:
    """The gutter a page was read by: midway between the right edge of its left column and the
    left edge of its right one (None for a page read in one column, or in three)."""
    lefts = [i.x1 for i in ordered if i.column == "L"]
    rights = [i.x0 for i in ordered if i.column == "R"]
    if not lefts or not rights or max(lefts) >= min(rights):
        return None
    return (max(lefts) + min(rights)) / 2


def _ends_full(full: list[Item], items: list[Item], index: int, gutter: float) -> bool:
    """Is ``items[index]``, short of the gutter, the last line of the full-width lines just
    above it (``full``): a title's last word, an abstract's last line? It is set as they are,
    flush with them at the left, at their own line pitch under them; alone on its baseline (a
    column's first line has the other column's beside it), and no short line goes on under it
    at that pitch (a column's next line, or text set beside a figure)."""
    item, last = items[index], full[-1]
    if item.kind != "line" or last.kind != "line" or not _set_alike(item, last) or item.bold != last.bold or \
            item.italic != last.italic:
        return False
    above = full[-2] if len(full) > 1 and full[-2].kind == "line" and _set_alike(full[-2], last) else None
    pitch = above.y - last.y if above is not None else FULL_PITCH * last.size
    if not 0 < last.y - item.y <= PITCH_SLACK * pitch:
        return False
    if index + 1 == len(items):
        return True
    below = items[index + 1]
    if abs(below.y - item.y) < 0.5 * item.size:
        return False
    return not (below.kind == "line" and below.x1 <= gutter and _set_alike(below, item) and
                item.y - below.y <= PITCH_SLACK * pitch)


def _set_alike(one: Item, other: Item) -> bool:
    """Two lines of one size, flush at the left within an em."""
    return abs(one.size - other.size) <= 0.05 * other.size and abs(one.x0 - other.x0) <= other.size


FULL_PITCH = 1.5  # sizes from a lone full-width line to a line that goes on under it, at the most
PITCH_SLACK = 1.2  # of the full-width lines' pitch, the space down to their last line at the most


def _labels_first(items: list[Item]) -> list[Item]:
    """``items`` in reading order (top to bottom, left to right), with each form's value read
    after its label: a line ending in a colon ('Age:', 'Agency:') and the value typed after it
    in another face, starting within ``VALUE_GAP`` ems to its right on a baseline within
    ``ROW_SLACK`` of its size (half a point higher, so sorted first), are one row. So are a
    list's bullet set alone and its entry's line starting within ``VALUE_GAP`` ems to its right,
    the bullet's baseline a little lower (so sorted after): the bullet goes first."""
    out = list(items)
    for k in range(len(out)):
        label = out[k]
        if label.kind != "line" or not (label.text.endswith(":") or label.text in _BULLETS and label.text not in "*-"):
            continue
        for j in range(k - 1, -1, -1):  # a value a little higher sorts before its label
            value = out[j]
            if value.y - label.y > ROW_SLACK * min(value.size, label.size):
                break
            if value.kind == "line" and value.y != label.y and 0 <= value.x0 - label.x1 <= VALUE_GAP * label.size:
                out.insert(k, out.pop(j))  # the label moves up one: the value goes just after it
                break
    return out


ROW_SLACK = 0.1  # of a size: baselines this close are one row
VALUE_GAP = 2.0  # ems from a label's colon to the value typed after it, at the most


def _columns_beside(items: list[Item], gutter: float, width: float) -> bool:
    """Does a side of the gutter part down a gutter of its own into columns of text (the third
    column of a newsletter or a gazette), as the XY-cut parts it? Lines set larger than the
    text (a title over two of the columns) part nothing."""
    body = body_size(_lines(items) or items)
    text = [i for i in items if i.size <= HEADING_RATIO * body]  # a title set large may span two of them
    return any(columns_of(side, body, width) for side in ([i for i in text if i.x1 <= gutter],
                                                          [i for i in text if i.x0 >= gutter]))


def _overruns(items: list[Item], gutter: float) -> dict[int, str]:
    """Lines that cross the gutter only because they run on over the other column's line on
    their baseline (an overfull line set over its neighbour's first words), or between two of
    its lines at that column's own pitch (a caption wider than its column: ``_run_between``):
    the column each belongs to, by index in ``items`` (sorted by baseline). A line that spans
    both columns shares its baseline with no line of either, and the other column makes room
    for it."""
    out: dict[int, str] = {k: side for k, item in enumerate(items)
                           if item.kind == "line" and item.x0 < gutter < item.x1 and
                           (side := _run_between(items, k, gutter)) is not None}
    start = 0
    for end in range(1, len(items) + 1):
        if end < len(items) and round(items[end].y, 1) == round(items[start].y, 1):
            continue
        if end - start > 1:
            row = range(start, end)
            right = min((items[k].x0 for k in row if items[k].x0 >= gutter), default=FAR)
            left = max((items[k].x1 for k in row if items[k].x1 <= gutter), default=-FAR)
            for k in row:
                item = items[k]
                if item.kind == "line" and item.x0 < gutter < item.x1:
                    if right < item.x1:
                        out[k] = "L"
                    elif left > item.x0:
                        out[k] = "R"
        start = end
    return out


def _run_between(items: list[Item], k: int, gutter: float) -> str | None:
    """The column of ``items[k]``, a line across the gutter, when the other column's text runs
    on past it unbroken: that column's nearest line above it and nearest line below it, both
    under its overrun, are one line's pitch apart (``OVERRUN_PITCH``), as their column's lines
    are; the line is the column's where most of it lies. None when the other column makes room."""
    item = items[k]
    side = "L" if gutter - item.x0 >= item.x1 - gutter else "R"

    def other(line: Item) -> bool:
        return line.kind == "line" and (gutter <= line.x0 < item.x1 if side == "L" else item.x0 < line.x1 <= gutter)

    reach = OVERRUN_PITCH * item.size  # (looked for by index: a slice would copy the page for each line)
    above = next((o for o in map(items.__getitem__, range(k - 1, -1, -1)) if other(o) or o.y - item.y > reach), None)
    below = next((o for o in map(items.__getitem__, range(k + 1, len(items))) if other(o) or item.y - o.y > reach),
                 None)
    if above is None or below is None or not (other(above) and other(below)) or above.y <= item.y or \
            below.y >= item.y or above.y - below.y > OVERRUN_PITCH * max(above.size, below.size):
        return None
    return side


OVERRUN_PITCH = 1.6  # sizes between the other column's lines either side of a line run over into it, at the most


def _by_whitespace(items: list[Item], width: float) -> list[Item] | None:
    """The order the XY-cut finds, when it finds columns that the single gutter missed
    (three columns, columns beside a figure, a layout that changes down the page); None when
    the page reads as one column. Each leaf is a section; its lines take the edges of the
    column it sits in."""
    body = body_size(_lines(items) or items)
    if no_channel(items, GUTTER * body):
        return None  # no part of the page can be cut down a channel
    leaves, columns = xy_cut(items, body, width)
    if len(columns) == 1:  # no vertical cut
        return None
    edges = [_text_edges(_lines(c) or c, page_width=width if n == 0 else 0.0) for n, c in enumerate(columns)]
    ordered: list[Item] = []
    for number, (leaf, column) in enumerate(leaves):
        group = sorted(leaf, key=lambda i: (-round(i.y, 1), i.x0))
        x0, x1 = min(i.x0 for i in group), max(i.x1 for i in group)
        label = "F" if column == 0 or x1 - x0 > 0.6 * width else "L" if (x0 + x1) < width else "R"
        _edges(group, label, number, edges[column])
        ordered += group
    return ordered


def _pool_edges(lefts: _Shrinking, rights: _Shrinking) -> tuple[float, float] | None:
    """The edges ``_text_edges`` finds on the pool, None when it is empty."""
    return (lefts.quantile(LEFT_EDGE), rights.quantile(RIGHT_EDGE)) if lefts.count else None


class _Shrinking:
    """A multiset of numbers that only loses members, with its quantiles in O(log n): a
    Fenwick tree counts the members left at each rank of the sorted values."""

    def __init__(self, values: dict[int, float]) -> None:
        keys = sorted(values, key=values.__getitem__)
        self.values = [values[k] for k in keys]
        self.slot = {key: rank + 1 for rank, key in enumerate(keys)}
        self.size = self.count = len(keys)
        self.tree = [position & -position for position in range(self.size + 1)]  # all present

    def remove(self, key: int) -> None:
        position = self.slot[key]
        self.count -= 1
        while position <= self.size:
            self.tree[position] -= 1
            position += position & -position

    def quantile(self, q: float) -> float:
        """The member ``_percentile`` would pick from the members left."""
        wanted = min(self.count - 1, int(q * self.count)) + 1
        position, step = 0, 1 << self.size.bit_length()
        while step:
            if position + step <= self.size and self.tree[position + step] < wanted:
                position += step
                wanted -= self.tree[position]
            step >>= 1
        return self.values[position]


def _lines(items: list[Item]) -> list[Item]:
    return [i for i in items if i.kind == "line"]


def _rejoin(items: list[Item]) -> list[Item]:
    """Pieces of one line in one column (a contents entry and its page number, text and an
    equation number) become one line again once columns no longer depend on them."""
    out: list[Item] = []
    pieces: list[str] = []  # of out[-1], joined once it is complete: a line of many pieces stays linear
    length = 0
    sizes: dict[float, int] = {}  # of out[-1]: its letters and digits by size
    for item in items:
        prev = out[-1] if out else None
        # The baseline test first: most neighbours are two lines.
        if prev and abs(prev.y - item.y) <= 0.25 * (item.size if item.size > prev.size else prev.size) and \
                prev.kind == item.kind == "line" and prev.section == item.section and prev.column == item.column \
                and item.x0 >= prev.x1:
            if len(item.text) > length:
                prev.bold = item.bold  # the style of the line is the style of most of it
            # and so is its size: the size of most of its letters and digits (a bullet or a
            # run-in label in small capitals drawn smaller than the text after it sets none)
            if len(pieces) == 1:  # the first join: the line's own letters counted only now
                sizes = {prev.size: _alnums(prev.text)}
            sizes[item.size] = sizes.get(item.size, 0) + _alnums(item.text)
            prev.size = max(sizes, key=sizes.__getitem__)
            if len(pieces) == 1 and prev.bold_all and not item.bold and not prev.lead and \
                    any(char.isalpha() for char in prev.text):
                prev.lead = len(prev.parts)  # a bold lead-in set a quad before the text: its pieces
            prev.bold_all = prev.bold_all and item.bold_all
            prev.spread = prev.spread or item.x0 - prev.x1 > SPREAD * max(prev.size, item.size)
            if item.code is None:
                prev.code = None
            elif prev.code is None and len(pieces) == 1 and prev.text.isdigit():
                prev.code = item.code  # a listing's line number, then its line of code
            if prev.caps or item.caps:  # 'I.' and 'Introduction', set in (small) capitals
                prev.caps = (prev.caps or not _has_lower(" ".join(pieces))) and (item.caps or not _has_lower(item.text))
            pieces.append(item.text)
            length += 1 + len(item.text)
            if len(pieces) == 2 and _label(pieces[0]):  # a label set out before its text: where that starts
                prev.pieces = [*prev.parts, (item.x0, item.x1, item.text)]
            prev.x1, prev.y0, prev.y1 = item.x1, min(prev.y0, item.y0), max(prev.y1, item.y1)
            continue
        if prev and len(pieces) > 1:
            prev.text = " ".join(pieces)
        out.append(item)
        pieces, length = [item.text], len(item.text)
    if out and len(pieces) > 1:
        out[-1].text = " ".join(pieces)
    return out


def _alnums(text: str) -> int:
    return sum(map(str.isalnum, text))


SPREAD = 8.0  # ems of gap inside one line: its parts sit at the far edges, as a header's do


def _flush(section: list[Item], number: int) -> list[Item]:
    left = [i for i in section if i.column == "L"]
    right = [i for i in section if i.column == "R"]
    for item in section:
        item.section = number
    _edges(left, "L", number)
    _edges(right, "R", number)
    return left + right


def _edges(group: list[Item], column: str, section: int, edges: tuple[float, float] | None = None) -> None:
    """Place ``group`` in a column of a section, with the text edges given or its own."""
    edges = edges or _text_edges(_lines(group) or group)
    if edges is None:
        return
    for item in group:
        item.column, item.section, (item.left, item.right) = column, section, edges


LEFT_EDGE, RIGHT_EDGE = 0.2, 0.8  # quantiles: most lines start after the one, end before the other


def _text_edges(pool: list[Item], page_width: float = 0.0) -> tuple[float, float] | None:
    """The left and right text edges of a column: where most of its lines start and end. A
    single-column page with few lines says little about its right edge: margins are taken to
    be symmetric there, so a short line is not mistaken for a full one."""
    if not pool:
        return None
    left = _percentile([i.x0 for i in pool], LEFT_EDGE)
    right = _percentile([i.x1 for i in pool], RIGHT_EDGE)
    if page_width and len(pool) <= 3:
        right = max(right, page_width - left)
    return left, right


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# --- blocks ---------------------------------------------------------------------------------

def start_kind(item: Item, body: float, floor: dict[str, float], opts: OrganizeOptions) -> tuple[str, int | None]:
    """What block a line would start, judged on the line alone."""
    if item.kind in ("table_row", "table", "figure"):
        return item.kind, None
    text = item.text
    if not opts.blocks or item.pictured:
        return "paragraph", None  # a picture's text is set at the picture's scale: it heads nothing
    # Each pattern is tried only on a line that starts (or ends) as a match must: most lines
    # are prose, and a pattern tried costs more than a character looked at.
    first, last = text[:1], text[-1:]
    if first == "第" and CJK_HEADING.match(text) and len(text) <= 40:
        return "heading", None
    ratio = item.size / body if body else 1.0
    if first in _PROVISION_STARTS and PROVISION.match(text) and \
            not (first not in "(（" and ratio >= HEADING_RATIO and len(text) <= SECTION_MARK_CHARS):
        return "provision", None  # set large, '§1 Introduction' and 'Article 3' head a section
    if first in _CAPTION_STARTS and is_caption(text):
        return "caption", None
    if ratio <= 0.9 and item.y1 < floor.get(item.column, floor.get("F", 0.0)):
        return "footnote", None
    lettered = "a" <= first <= "z" and LETTERED.match(text) is not None
    if lettered or is_leader(text):
        return ("list_item" if lettered else "paragraph"), None  # a contents entry, a lettered item
    if (last.isdecimal() or last == "\n") and DATE.match(text):  # DATE ends in a digit, at the end or a newline
        return "paragraph", None  # a date under a title is set large, yet heads nothing
    if text.isdigit() and item.y1 < min(floor.values(), default=0.0):
        return "paragraph", None  # a number below all the body text is a page number, however set
    stands_out = ratio >= HEADING_RATIO or (item.bold_all and ratio >= 0.95) or _caps_heading(text, item.caps) or \
        (item.bold_all and ratio >= NUMBERED_BOLD and _numbered_title(text))
    if len(text) <= 160 and not item.spread and stands_out and not _bulleted(text) and not squeezed(item) and \
            _says_something(text) and not RIGHTS.search(text):
        return "heading", None
    if is_list_item(text):
        return "list_item", None
    return "paragraph", None


# Whose the work is ('Copyright © 1990−1996 The Santa Cruz Operation, Inc.', '… All rights
# reserved.'): a notice, however set, heads nothing; a section called 'Copyright' stays a heading
RIGHTS = lazy(r"^\W*(©|\(c\)\s|copyright\b).*\b(1[89]|20)\d\d\b|\ball rights reserved\b", IGNORECASE)
HEADING_RATIO = 1.15  # a line this much larger than the body stands out by size
SECTION_MARK_CHARS = 80  # a line opening with a section's mark, set large, is its title up to this length
NUMBERED_BOLD = 0.85  # a numbered title in bold stands out down to this share of the body size
SQUEEZED = 0.25  # ems of width a character takes at the least in a line set at its stated size
SQUEEZED_CHARS = 2  # characters a line needs before its width says anything of its size
_PROVISION_STARTS = frozenset("第A§(（")  # the first characters PROVISION can match
_CAPTION_STARTS = frozenset("FTCEGPSLA图表")  # and CAPTION
_NUMBERED_STARTS = frozenset("IVXABCDEFGH")  # and NUMBERING, besides a digit


def is_caption(text: str) -> bool:
    """Does a line open as a caption does: its label and number ("Table 4:", "Figure 2.",
    "Table 5 Events …"), not a sentence of the text that names one ("Table 4 lists …",
    "Figure 1), black-box …")?"""
    match = CAPTION.match(text)
    if match is None:
        return False
    after = text[match.end():].lstrip()[:1]
    # ('Figure 1), black-box …' goes on; an entry of a list of tables ends in leaders and its page)
    return not after.islower() and after not in _SENTENCE_GOES_ON and not is_leader(text)


_SENTENCE_GOES_ON = frozenset(",;)]")  # after a figure's or a table's number: a sentence naming it, not its label


def squeezed(item: Item) -> bool:
    """Is the line far narrower than its stated size would set it? Then the size is not what
    the reader sees: text in a figure scaled down, a stamp set up the margin sideways."""
    chars = len(item.text)
    if chars < SQUEEZED_CHARS:
        return False
    if item.x1 - item.x0 < SQUEEZED * item.size * chars:
        return True
    # Labels set far apart on one line (a plot's legend) span it wide: their own widths tell.
    inked = sum(len(text) for _, _, text in item.pieces)
    return len(item.pieces) > 1 and inked >= SQUEEZED_CHARS and \
        sum((x1 - x0 for x0, x1, _ in item.pieces), 0.0) < SQUEEZED * item.size * inked


_EMAIL = lazy(r"[\w.+}-]+@[\w-]+\.[\w.-]+")  # name@host, or {name,name}@host for several
_TWO_LETTERS = lazy(r"[^\W\d_]{2}")  # two letters in a row: a word, in any script
# A chapter's number set alone, large: '2', 'IV.' (not a plot's 'x', in small letters).
_BARE_NUMBER = lazy(r"(?:\d{1,4}|[IVX]{1,5})\.?")
WORDS_SHARE = 1 / 3  # of a heading's characters (spaces aside) at the least letters


def _says_something(text: str) -> bool:
    """Could the line head text? Words, or a chapter's bare number: not a formula's symbols
    ('∂g', a large sum sign), not a row of numbers (a plot's axis labels, set large), not an
    address for mail. All these are set large or bold without heading anything."""
    if _BARE_NUMBER.fullmatch(text):
        return True
    if _TWO_LETTERS.search(text) is None or _letters(text) < WORDS_SHARE:
        return False
    return "@" not in text or _EMAIL.search(text) is None


WORD_LETTERS = 3  # Latin letters in a row that make a word a heading may be: not 'ER', 'Na+', 'U1 U2'


_RELATIONS = frozenset("=<>≤≥≠≈∑∫∏∂")
_LONG_WORD = lazy(r"[^\W\d_]{4,}")


def _formula(text: str) -> bool:
    """A display formula set large by its operators ('H = ∑PiHi', 'log(1 + y) < y'): a relation
    or an operator and no word of four letters set apart ('Case k = 1' is a title)."""
    if _RELATIONS.isdisjoint(text):
        return False
    return not any(_LONG_WORD.fullmatch(token.strip(".,:;()")) for token in text.split())


def a_word(text: str) -> bool:
    """Whether the text holds a word: ``WORD_LETTERS`` Latin letters in a row, or two of
    another script (CJK, Greek, Cyrillic: '摘要'). A diagram's or a formula's labels set large
    ('Cl– Na+', 'U1 U2 Ui', 'ER') have none."""
    run = 0
    for char in text:
        if not char.isalpha():
            run = 0
            continue
        run += 1
        if run >= WORD_LETTERS or (run >= 2 and char > "\u024f"):
            return True
    return False


def _letters(text: str) -> float:
    """The share of letters among the line's characters, spaces aside."""
    return sum(c.isalpha() for c in text) / max(1, len(text) - text.count(" "))


def _bulleted(text: str) -> bool:
    """'• Item', '➢ Item': a line after a bullet is a list's entry, however it is set."""
    first = text[:1]
    return text[1:2].isspace() and (first in _BULLETS or unicodedata.category(first) == "So")


def _caps_heading(text: str, caps: bool = False) -> bool:
    """'I. INTRODUCTION', '2 RELATED WORK': a numbered line in capitals (or small capitals:
    ``caps``)."""
    first = text[:1]
    match = NUMBERING.match(text) if first.isdecimal() or first in _NUMBERED_STARTS else None
    return match is not None and len(text) <= 80 and (caps or _in_capitals(text[match.end():]))


def _has_lower(text: str) -> bool:
    return any(char.islower() for char in text)


def _capitals(item: Item) -> bool:
    """Is the line set in capitals (or small capitals)?"""
    return item.caps or _in_capitals(item.text)


def _in_capitals(text: str) -> bool:
    """Set in capitals: four letters or more, none of them small."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def continues(block: Block, prev: Item, item: Item, kind: str, pitch: float,
              spaced: frozenset[int] = frozenset(), measured: frozenset[int] = frozenset()) -> bool:
    """Does ``item`` continue ``block`` (whose last line is ``prev``)? Geometry decides, not
    punctuation: a new structural start, a change of style, a wide gap (but the paragraph's
    own leading: ``spaced``, from ``own_leading``), a previous line that stops short of the
    text edge, or an indented first line each end the block; but a word broken at ``prev``'s
    end goes on whatever its next line's indent or face (``broken_word``)."""
    if block.kind == "code" or kind == "code":
        return block.kind == kind and code_goes_on(prev, item)
    if block.kind == "caption" and kind == "heading" and abs(item.size - prev.size) <= 0.05 * prev.size and \
            item.bold == prev.bold:
        kind = "paragraph"  # a caption's next line in the caption's own (bold) face goes on with it
    if kind != "paragraph" and kind != block.kind:
        return False
    if kind in ("provision", "list_item", "caption", "table_row", "table", "figure") and kind == block.kind:
        return False  # each numbered start opens its own block
    if block.kind in ("table_row", "table", "figure") or is_leader(prev.text) or prev.spread:
        return False  # a contents entry and its page, a row of a table or a formula and its number
    same_column = item.section == prev.section and item.column == prev.column
    # 'gradu-' over 'ate school': a word broken at a line's end goes on, under the line at a
    # leading of its own too (a page whose pitch other type sets: its references, its notes),
    # and in the text's face after a line mostly bold ('Detecting predicate events. The imple-')
    broken = same_column and block.kind != "heading" and broken_word(prev.text, item.text) and \
        prev.y - item.y <= MAX_LEADING * item.size
    # A line opening with a bold lead-in goes on in the text's lighter face, however much of it is bold;
    # a lead-in of more than a line goes on in bold into the line where the lighter text starts
    same_face = item.bold == prev.bold or broken or \
        not item.bold and (prev.lead > 0 and not prev.bold_all or prev.bold_all and item.lead > 0)
    if abs(item.size - prev.size) > 0.05 * prev.size or (not same_face and block.kind != "heading"):
        return False
    if block.kind == "heading":  # a title set over two lines: same style, close together
        numbered = numbering_depth(item.text) is not None
        # (its short last line centred under it may fall within one column of the page's two)
        centred = abs(item.x0 + item.x1 - prev.x0 - prev.x1) < 2 * item.size and item.x1 - item.x0 < prev.x1 - prev.x0
        return kind == "heading" and not numbered and (same_column or centred) and prev.y - item.y <= 1.8 * item.size
    if same_column and _paragraph_gap(prev, item, pitch) and id(item) not in spaced and not broken:
        return False
    if block.kind == "caption" and item.section != prev.section and _paragraph_gap(prev, item, pitch):
        return False  # a line set apart under a caption, in a section of its own (set wider): no line of it
    if broken:
        return True
    em = item.size
    if block.kind == "caption" and same_column and (_centred(item) or prev.x0 < item.x0 and item.x1 < prev.x1) and \
            abs((item.x0 + item.x1) - (prev.x0 + prev.x1)) < 2 * em:
        return True  # a caption set centred, line under line on the column's middle (or its float's)
    if not _centred(prev) and next_word_fits(prev, item) and id(prev) not in measured:
        return False  # the line was ended by choice, not by the text edge (its own measure's: ``measured``)
    if _centred(prev) and _centred(item) and _set_apart_centred(prev, item):
        return False  # lines set centred one under the other, each ended by choice: a byline's names
    if same_column and _spaced_after_short(prev, item, pitch) and id(prev) not in measured and id(item) not in spaced:
        return False  # a sentence's end short of the edge, a little space under it: the paragraph's last line
    if same_column and _drop_cap(prev, item):
        return True  # set in beside the paragraph's drop cap
    # set in: further than the line above it, or (at the top of another column) than its own column's edge
    # unless as far as the line it goes on from stands in from its own
    if block.kind not in ("provision", "list_item") and item.x0 > item.left + 0.8 * em and \
            (item.x0 > prev.x0 + 0.8 * em if same_column else not _indented_alike(block, prev, item)) and \
            not _hangs_from_label(block, prev, item) and not _hangs_from_mark(block, prev, item):
        return False
    return True


def _set_apart_centred(prev: Item, item: Item) -> bool:
    """Of two lines set centred one under the other, does the upper end by choice: the lower's
    first word would have fitted beside it, in its column's room either side, the lower opens
    in a capital, each is words (``CENTRED_LETTERS``) and the upper ends no clause going on
    ('Ada Lovelace' over 'University of London'; not a sentence, a list of names ending in a
    comma, a formula's terms, a label of one word a narrow cell wraps), and they start apart
    (the lines of a block set in from both edges, an abstract's, start together)?"""
    return item.text[:1].isupper() and len(prev.text.split()) >= 2 and prev.text.rstrip()[-1:] not in ",-–" and \
        abs(prev.x0 - item.x0) > EDGE_SLACK and _letters(prev.text) >= CENTRED_LETTERS and \
        _letters(item.text) >= CENTRED_LETTERS and next_word_fits(prev, item, centred=True)


CENTRED_LETTERS = 0.6  # of a centred line's characters (spaces aside), letters at the least


def _spaced_after_short(prev: Item, item: Item, pitch: float) -> bool:
    """Is ``prev`` a paragraph's last line over the next paragraph set flush (no indent) with a
    little space between them (a word processor's spacing after a paragraph, less than a gap
    that parts paragraphs alone): it ends a sentence short of the column's edge (``SHORT_EMS``,
    room a short word may not have fitted: ``next_word_fits`` leaves it slack), the next line
    opens in a capital, and the step down to it is wider than the page's pitch (``SPACED``)?"""
    return prev.right - prev.x1 >= SHORT_EMS * item.size and prev.text.rstrip()[-1:] in ".?!" and \
        item.text[:1].isupper() and prev.y - item.y >= SPACED * pitch


SHORT_EMS = 2.0  # ems a paragraph's last line ends short of its column's edge, at the least
SPACED = 1.15  # of the page's pitch: a step down this wide, and a short line above, parts two paragraphs


def _indented_alike(block: Block, prev: Item, item: Item) -> bool:
    """Does ``item``, the first line of another column, stand in from that column's edge as far
    as ``prev``, a line of ``block`` after its first, stands in from its own: the lines of an
    item set with a hanging indent (or of a quotation) going on in the next column?"""
    return block.first is not prev and abs((item.x0 - item.left) - (prev.x0 - prev.left)) <= EDGE_SLACK


def _hangs_from_mark(block: Block, prev: Item, item: Item) -> bool:
    """Is ``item`` the second line of an item whose first (``prev``) opens with a mark of one
    character and a space, in the run of its text ('e First, the function …': a bullet its font
    draws as the letter 'e'), set in under the item's second word? Where that word starts is
    not drawn apart: the line's mean advance tells it, to within ``MARK_SLACK`` ems."""
    text = prev.text
    if block.first is not prev or len(text) < MARK_CHARS or text[1:2] != " " or text[:1].isspace() or \
            not text[2:3].isupper():
        return False
    advance = (prev.x1 - prev.x0) / len(text)
    return abs(item.x0 - (prev.x0 + 2 * advance)) <= MARK_SLACK * item.size


MARK_CHARS = 20  # characters of a line whose mean advance measures it, at the least
MARK_SLACK = 0.5  # ems the item's second line may stand from where its second word is reckoned


def broken_word(text: str, after: str) -> bool:
    """Does ``text`` end in a word broken by a hyphen that ``after`` finishes in lowercase
    ('gradu-' over 'ate school', 'point-' over 'to-point')? A typesetter breaks a word only
    where the line runs on: no paragraph ends so."""
    text = text.rstrip()
    return len(text) >= 3 and text[-1] == "-" and text[-2].isalpha() and text[-3].isalpha() and \
        after[:2].isalpha() and after[:2].islower()


def _hangs_from_label(block: Block, prev: Item, item: Item) -> bool:
    """Is ``item`` flush under the text after a label that ``prev`` opens with, set out to the
    left of its text: the second line of a paragraph whose first opens so ('Qt!  Examples from
    …'), or the next line of a paragraph one of whose lines has a label (or a bold word) set in
    its margin, its text flush with the line above it (an instruction's 'TIP': a word or two,
    bold or ending in a stop, not a bullet, ending half an em short of where the text starts)?"""
    pieces = prev.pieces
    if pieces is None or len(pieces) < 2 or abs(pieces[1][0] - item.x0) > EDGE_SLACK:
        return False
    if block.first is prev:
        return _label(pieces[0][2])
    label, above = pieces[0][2].strip(), block.above
    return above is not None and abs(above.x0 - item.x0) <= EDGE_SLACK and \
        pieces[0][1] <= item.x0 - NARROW_GAP * item.size and \
        len(label.split()) <= LABEL_WORDS and any(char.isalpha() for char in label) and \
        (prev.lead == 1 or label[-1:] in LABEL_ENDS)


def _label(text: str) -> bool:
    """Is ``text`` a label set out before its text: a few words ending in a stop or a bracket,
    a mark or a number ('Qt!', '[ABLP89]', '•', '12')?"""
    label = text.strip()
    return len(label.split()) <= LABEL_WORDS and (label[-1:] in LABEL_ENDS or len(label) <= 2 or
                                                  not any(ch.isalpha() for ch in label))


LABEL_WORDS = 3  # words of a label set out to the left of its paragraph, at the most
LABEL_ENDS = frozenset(".:!?)]")  # how such a label ends, when it is not a mark or a number ('Qt!', '[ABLP89]')


def narrow_measures(items: list[Item]) -> frozenset[int]:
    """Lines justified to a measure narrower than their column's (text set beside a figure or
    a box): ``MEASURE_LINES`` lines of prose or more on end, flush at the left, ending together
    short of the column's edge. Each ends where its measure does, as a full line ends at the
    column's edge: a line there does not end its paragraph. Lines ending together by chance
    (two lines of code or verse of one length) are fewer."""
    runs: list[list[Item]] = [[]]
    for item in items:
        # A line of prose (three words, not code, a fair share of its column wide) ending short
        # of its column's edge; most lines run to the edge and are told by that alone.
        if item.kind != "line" or item.x1 >= item.right - FULL_EMS * item.size or item.code is not None or \
                item.x1 - item.x0 < MEASURE_SHARE * (item.right - item.left) or _words(item.text) < 3:
            runs.append([])
            continue
        run = runs[-1]
        if run and not (_same_type(run[-1], item) and abs(item.x1 - run[0].x1) <= MEASURE_SLACK and
                        abs(item.x0 - run[0].x0) <= 0.5 * item.size):
            runs.append([item])
        else:
            run.append(item)
    return frozenset(id(line) for run in runs if len(run) >= MEASURE_LINES for line in run)


MEASURE_LINES = 3  # lines on end ending together short of their column's edge: a narrower measure
MEASURE_SLACK = 2.0  # points their ends differ by at the most
MEASURE_SHARE = 0.4  # of its column's width such a line spans at the least


def own_leading(items: list[Item], pitch: float) -> frozenset[int]:
    """Lines set below the line above at a wider step than the page's pitch, where that step is
    the paragraph's own leading: three lines or more of one size in one column, each the same
    step below the one above, the line above each running to the column's edge (a justified
    paragraph set double-spaced on a page set single). A step the page also leaves below a line
    that ends short (a paragraph's last) is the page's gap between paragraphs, not a leading:
    paragraphs of one line each (a list of terms, a line full by chance among them) stand that
    far apart. Where the next paragraph's first line is indented, the indent tells the break
    and the step is the leading (a manuscript set double-spaced throughout)."""
    def full(line: Item) -> bool:  # a line of text to the column's edge (a chart's ticks are figures)
        return line.x1 >= line.right - FULL_EMS * line.size and len(line.text) >= LINE_CHARS

    gaps = sorted(upper.y - lower.y for upper, lower in zip(items, items[1:], strict=False)
                  if _same_type(upper, lower) and _paragraph_gap(upper, lower, pitch) and next_word_fits(upper, lower)
                  and lower.x0 <= lower.left + INDENTED * lower.size)

    def apart(step: float, slack: float) -> bool:  # no paragraph's gap within ``slack`` of ``step``
        k = bisect_left(gaps, step - slack)
        return k == len(gaps) or gaps[k] > step + slack
    out: set[int] = set()
    for upper, item, lower in zip(items, items[1:], items[2:], strict=False):
        if not (_same_type(upper, item) and _same_type(item, lower)) or not full(upper):
            continue
        size = item.size
        step, next_step = upper.y - item.y, item.y - lower.y
        if _paragraph_gap(upper, item, pitch) and step <= MAX_LEADING * size and \
                abs(step - next_step) <= LEADING_SLACK * size and \
                apart(step, LEADING_SLACK * size):
            out.update((id(item), id(lower)) if full(item) else (id(item),))
    return frozenset(out)


MAX_LEADING = 2.6  # sizes from one baseline to the next of a paragraph set with the widest leading (double)
INDENTED = 0.8  # ems in from its column's edge a paragraph's first line starts: indented
LEADING_SLACK = 0.1  # sizes two steps of one paragraph's leading may differ by
FULL_EMS = 0.25  # ems short of its column's edge a justified line ends at the most
LINE_CHARS = 20  # characters of such a line at the least


def _paragraph_gap(upper: Item, lower: Item, pitch: float) -> bool:
    """Does a wider gap than the page's pitch part ``lower`` from the line above it (a new
    paragraph), rather than the next line of the same one?"""
    return upper.y - lower.y > max(1.35 * pitch, 1.3 * lower.size) + 0.5


HANG_EMS = 4.0  # ems the lines of a hanging entry stand in from its first line at the most


def hanging_entries(items: list[Item], pitch: float) -> dict[int, bool]:
    """The second lines of hanging entries (a reference list, a glossary set with a hanging
    indent), by id: the line under a line full to its column's left and right edges, set in
    from it by an em to ``HANG_EMS``, when the line after shows the form: set in the same way
    while this one runs full (the entry goes on), back out under a line ended short (the next
    entry), or back out under a full line to start a full line that the next hangs from in the
    same way (the next entry of two lines or more). A paragraph indented under the full last
    line of another comes back out under a full line to end short, or to go on. A contents
    page's entries (leaders to their page numbers) hang from nothing. Each maps to True; a
    line set in that way and ended short with no line after it in its column maps to False:
    the last entry's last line, or a paragraph's one indented line, which only a note's
    form tells apart (``_hang``); under a first line that opens with a bold term (a glossary's)
    it maps to True, the term's description going on under it."""
    out: dict[int, bool] = {}
    for k in range(len(items) - 1):
        first, second = items[k], items[k + 1]
        if not _hangs(first, second, pitch):
            continue
        after = [item for item in items[k + 2:k + 5] if not _in_margin(item, second)]  # not a folio beside them
        third = after[0] if after else None
        if third is None or not _next_line(second, third, pitch):
            if first.lead and not second.lead:
                out[id(second)] = True  # a term's description, hanging under its bold term
            elif second.x1 < first.x1 - ENTRY_SHORT_EMS * second.size and second.text[:1] not in NOTE_MARKS:
                out[id(second)] = False
            continue
        em = second.size
        if abs(third.x0 - second.x0) < 0.5 * em:
            hangs = not next_word_fits(second, third)
        elif abs(third.x0 - first.x0) >= 0.5 * em:
            hangs = False
        elif next_word_fits(second, third):
            hangs = True
        else:  # an entry of two full lines, or a paragraph's first two: the next line tells
            fourth = after[1] if len(after) > 1 else None
            hangs = fourth is not None and _hangs(third, fourth, pitch) and \
                abs((fourth.x0 - third.x0) - (second.x0 - first.x0)) < 0.5 * em
        if hangs:
            out[id(second)] = True
    return out


def _in_margin(item: Item, line: Item) -> bool:
    """Does ``item`` lie wholly outside the column ``line`` is set in (a page number or a note
    in the margin beside it)?"""
    return item.x0 >= line.right or item.x1 <= line.left


ENTRY_SHORT_EMS = 2.0  # a line that ends this many ems short of the one above it ends its entry
# How a note may open: its number, a bracketed one, a symbol. A line set in that opens so may
# be the next note, not the last line of this one.
NOTE_MARKS = frozenset("0123456789[*†‡§¶¹²³⁴⁵⁶⁷⁸⁹⁰")


# An entry's label in brackets ('[19] ', '[Lam78] '): a reference list's entry, spaced from the
# next one, ends with the short line set in under it.
_LABEL = lazy(r"\[[\w.+-]{1,12}\]\s")


def _hang(block: Block | None, item: Item, kind: str, seconds: dict[int, bool], hanging: set[int]) -> bool | None:
    """Whether ``item`` goes on with the hanging entry ``block`` (True: its second line, the
    block then is one of ``hanging``), starts the next one (False: back out at the left), or
    neither (None). A note's line set in under its first and ended short goes on it, the
    last in its column too (a note starts at the left, with its mark), and so does an entry's
    under a first line that opens with a label in brackets (a reference list spaced entry from
    entry)."""
    if block is None or block.last is None:
        return None
    second = seconds.get(id(item))
    if second is not None and (kind == "paragraph" and block.kind in ("paragraph", "list_item") and
                               (second or _LABEL.match(block.last.text) is not None) or
                               kind == block.kind == "footnote") and block.first is block.last:
        hanging.add(id(block))
        return True
    if id(block) in hanging and item.x0 < block.last.x0 - 0.8 * item.size:
        return False
    return None


def _hangs(first: Item, second: Item, pitch: float) -> bool:
    """Does ``second`` stand in from the full line ``first`` at its column's left edge, the
    line under it in the same type?"""
    em = first.size
    return first.kind == second.kind == "line" and abs(first.x0 - first.left) <= 0.8 * em and \
        0.8 * em < second.x0 - first.x0 <= HANG_EMS * em and _next_line(first, second, pitch) and \
        not next_word_fits(first, second) and not is_leader(first.text) and not is_leader(second.text) and \
        not _drop_cap(first, second)


def _drop_cap(first: Item, second: Item) -> bool:
    """Does ``first`` open with a drop cap, the letter the lines under it stand beside? A
    capital that touches the small letters of the rest of its word ('I' + 'ndia'), the next
    line starting under them."""
    if len(first.pieces) < 2:
        return False
    (_, x1, text), (start, _, rest) = first.pieces[0], first.pieces[1]
    return len(text) == 1 and text.isupper() and len(rest) >= 2 and rest[:2].isalpha() and rest[:2].islower() and \
        abs(float(start) - float(x1)) < DROP_CAP_TOUCH and abs(second.x0 - float(start)) < first.size


DROP_CAP_TOUCH = 0.5  # points between a drop cap and the rest of its word at the most


def _same_type(upper: Item, lower: Item) -> bool:
    """Are two items lines of one column set in the same type (size and weight)?"""
    return upper.kind == lower.kind == "line" and upper.section == lower.section and \
        upper.column == lower.column and abs(upper.size - lower.size) <= 0.05 * upper.size and \
        upper.bold == lower.bold


def _next_line(upper: Item, lower: Item, pitch: float) -> bool:
    """Is ``lower`` the line under ``upper`` in its column, in the same type, at the pitch?"""
    return _same_type(upper, lower) and upper.y > lower.y and not _paragraph_gap(upper, lower, pitch)


FLOATS = ("footnote", "figure", "caption")


def next_word_fits(prev: Item, item: Item, centred: bool = False) -> bool:
    """Would the first word of ``item`` have fitted at the end of ``prev``? A typesetter
    (justified or ragged) only breaks a line when the next word does not fit, so when it
    would have fitted, ``prev`` ended its paragraph. A ``centred`` line has its column's
    room either side of it."""
    room = prev.right - prev.x1  # the edge of the column the line sits in
    if centred:
        room += prev.x0 - prev.left
    # A ragged right edge is only estimated from the longest lines: leave it some slack.
    return first_word_width(item) < room - 2.5 * item.size


def first_word_width(item: Item) -> float:
    """About how wide a line's first word is with the space before it, at the line's own
    width a character (a CJK line's first character)."""
    text = item.text
    space = text.find(" ")
    word = text[:1] if is_cjk(text[:1]) else text if space < 0 else text[:space]
    return (len(word) + 1) * (item.x1 - item.x0) / max(1, len(text))


def build_blocks(items: list[Item], page: int, body: float, opts: OrganizeOptions,
                 titles: dict[str, int] | None = None, levels: Levels | None = None,
                 height: float = 0.0) -> list[Block]:
    """Blocks in reading order from the ordered items of one page. ``titles``: the outline's
    titles on this page (normalized) and their depths; ``levels``: the document's running
    heading levels (a fresh one when the page stands alone)."""
    pitch = _pitch(items, body)
    items, kinds, heads = _classified(items, page, body, opts, titles or {}, levels, pitch)
    seconds = hanging_entries(items, pitch) if opts.join else {}
    spaced = own_leading(items, pitch) if opts.join else frozenset()
    measured = narrow_measures(items) if opts.join else frozenset()
    hanging: set[int] = set()  # ids of the blocks that are hanging entries
    blocks: list[Block] = []
    lines: dict[int, list[str]] = {}  # id(block) -> its line texts, joined once at the end
    anchor = -1  # index of the last block that is not a float
    deferred: list[Block] = []  # floats set inside a paragraph that resumed after them
    for item, (kind, level) in zip(items, kinds, strict=True):
        block = blocks[-1] if blocks else None
        if block and block.kind in FLOATS and kind == "paragraph" and opts.join:
            # A footnote, figure or caption set between two columns' worth of one paragraph
            # does not end it: the paragraph resumes, the floats follow it.
            before = blocks[anchor] if anchor >= 0 else None
            if before and before.last and before.last.column != item.column and \
                    continues(before, before.last, item, kind, pitch, spaced, measured):
                deferred += blocks[anchor + 1:]
                del blocks[anchor + 1:]
                block = before
        if block and kind == "figure" and block.kind == "figure":
            _add_span(block, page, item)  # the panels of one figure, nothing between them
            block.last = item
            continue
        # An outline title or a run-in head starts a heading of its own; an outline title's
        # further lines (level 0) go on with it.
        if (hang := _hang(block, item, kind, seconds, hanging)) is False:
            block = None  # a line back out at the left starts the next entry
        if block and block.last and opts.join and (level == 0 or hang or (level is None and id(item) not in heads and
                                                                         continues(block, block.last, item, kind,
                                                                                   pitch, spaced, measured))):
            lines[id(block)].append(item.text if kind != "code" else code_line(block.first or item, block.last, item))
            _add_span(block, page, item)
            block.above, block.last = block.last, item
            continue
        blocks += deferred  # floats only: the anchor stays where it is
        deferred = []
        blocks.append(Block(kind, item.text if item.kind != "figure" else "", [], level or None, item, item,
                            item.table))
        lines[id(blocks[-1])] = [blocks[-1].text]
        anchor = len(blocks) - 1 if kind not in FLOATS else anchor
        _add_span(blocks[-1], page, item)
    blocks += deferred
    _join_texts(blocks, lines, items, opts)
    _bare_numbers(blocks)
    _levels(blocks, page, levels or Levels(), height or max((i.y1 for i in items), default=0.0))
    return blocks


def _classified(items: list[Item], page: int, body: float, opts: OrganizeOptions, titles: dict[str, int],
                levels: Levels | None, pitch: float) -> tuple[list[Item], list[tuple[str, int | None]], set[int]]:
    """The page's items, each run-in head cut from the paragraph it runs into (their ids in the
    set returned), and what block each item starts, with its heading level."""
    heads: set[int] = set()  # ids of run-in heads: each a heading of its own
    if opts.blocks:
        first = levels is None or levels.first_page in (None, page)
        items = _run_ins(items, titles, pitch, heads, first)
    kinds = _kinds(items, body, opts, titles, pitch)
    for k, item in enumerate(items):
        if id(item) in heads and kinds[k][0] != "heading":
            kinds[k] = ("heading", None)  # a run-in head heads its paragraph, however it is set
    return items, kinds, heads


def _join_texts(blocks: list[Block], lines: dict[int, list[str]], items: list[Item], opts: OrganizeOptions) -> None:
    """Each block's text from its lines: joined into a paragraph's (words hyphenated at a line's
    end rejoined), a code block's kept line by line."""
    # The page's hyphenated words, read only when some line ends in a hyphen.
    broken = opts.hyphens and any(item.text.endswith("-") for item in items)
    kept = compounds([item.text for item in items]) if broken else frozenset()
    for block in blocks:
        block.text = (join_lines(lines[id(block)], opts.hyphens, kept) if block.kind != "code"
                      else "\n".join(lines[id(block)]))


def _bare_numbers(blocks: list[Block]) -> None:
    """A number set alone and large heads a title: a chapter's '2' over 'The Lost Homeland'.
    Over no title (over a plot's tick labels, a paragraph, nothing) it heads nothing: it is a
    figure's label or a folio."""
    for k, block in enumerate(blocks):
        if block.kind == "heading" and block.level is None and _BARE_NUMBER.fullmatch(block.text) and \
                (k + 1 == len(blocks) or blocks[k + 1].kind != "heading"):
            block.kind = "paragraph"


RUN_IN_RUNS = 8  # pieces a run-in title is looked for in, at a line's start (a run parts at its wide spaces)
RUN_IN_GAP = 0.8  # ems between a bold run-in head and its text at the least: a quad, not a word space
RUN_IN_MARKS = " \u2014\u2013:.\uff1a"  # what ends a run-in head before its text: dash, colon, stop


def _run_ins(items: list[Item], titles: dict[str, int], pitch: float, heads: set[int], first: bool) -> list[Item]:
    """A run-in head and the paragraph it runs into, on one line, are two: the head a line of
    its own, which then is a heading. A head is either an outline title set in runs of its own
    ('1) Feature Extraction: Our model …', in italic) or a bold lead-in set a quad apart from
    the lighter text after it, at the start of a paragraph (a LaTeX or pandoc \\paragraph);
    a bold phrase in a sentence is followed by a word space, and a lead-in ended by punctuation
    ('Evaluation. In the …', 'Qt! Examples …') is the paragraph's first words. On the
    document's first page (``first``) the abstract's name opening a paragraph in a face of its
    own ('Abstract—We address …') heads it too. The heads' ids go to ``heads``."""
    out: list[Item] = []
    before: dict[tuple[int, str], Item] = {}  # the last line of each column so far
    for item in items:
        cut = None
        if item.kind == "line" and len(item.pieces) >= 2:
            cut = _run_in_cut(item, titles) if titles else None
            if cut is None and item.lead:
                cut = _bold_run_in(item, before.get((item.section, item.column)), pitch)
            if cut is None and first and item.text[:1] in _ABSTRACT_STARTS:
                cut = _abstract_run_in(item, before.get((item.section, item.column)), pitch)
        if item.kind == "line":
            before[(item.section, item.column)] = item
        if cut is None:
            out.append(item)
            continue
        count, offset = cut
        bold = count == item.lead
        head = item.text[:offset].rstrip()
        # The stop, colon or dash that sets a run-in head off its text is no word of its title.
        out.append(_part(item, head.rstrip(RUN_IN_MARKS) or head, item.pieces[:count], bold or item.bold))
        heads.add(id(out[-1]))
        out.append(_part(item, item.text[offset:].lstrip(), item.pieces[count:], not bold and item.bold))
    return out


def _run_in_cut(item: Item, titles: dict[str, int]) -> tuple[int, int] | None:
    """How many of the line's pieces set an outline title, with text after them, and where
    in the line's text the title ends; or None."""
    text, offset = item.text, 0
    for count, (_, _, piece) in enumerate(item.pieces[:RUN_IN_RUNS][:-1], 1):
        offset = _after_piece(text, piece, offset)
        if offset < 0:
            return None
        head = text[:offset]
        if normalized(head) in titles or bare_key(head) in titles:
            return (count, offset) if normalized(text[offset:]) else None
    return None


def _bold_run_in(item: Item, before: Item | None, pitch: float) -> tuple[int, int] | None:
    """The pieces of the line's bold lead-in and where its text ends, when it is a run-in head:
    a few words set a quad apart from the text after them, at the start of a paragraph (at the
    top of its column, after a wider gap than the pitch or after a line ended short), the text
    going on to the column's edge or ending a sentence; or None."""
    count, em = item.lead, item.size
    if count >= len(item.pieces) or item.pieces[count][0] - item.pieces[count - 1][1] < RUN_IN_GAP * em or \
            item.x0 > item.left + 2 * em:
        return None
    offset = 0
    for _, _, piece in item.pieces[:count]:
        offset = _after_piece(item.text, piece, offset)
        if offset < 0:
            return None
    head, rest = item.text[:offset].strip(), item.text[offset:].strip()
    if len(head) > ALONE_CHARS or len(head.split()) > ALONE_WORDS or head[-1:] in ".:;,!?" or \
            not _says_something(head) or not (rest[-1:] in ".!?:" or item.x1 >= item.right - 2 * em):
        return None  # a lead-in ended by punctuation opens the paragraph's sentence
    return (count, offset) if _opens_paragraph(item, before, pitch) else None


# The abstract's name, set run-in: its first piece, then a dash, stop or colon and the text.
_ABSTRACT = lazy(r"(?:abstract|résumé|resumen|riassunto|zusammenfassung|摘要)\s*[—–.:：]", IGNORECASE)
_ABSTRACT_STARTS = frozenset("AaRrZz摘")  # the first characters _ABSTRACT can match


def _abstract_run_in(item: Item, before: Item | None, pitch: float) -> tuple[int, int] | None:
    """The abstract's name (and its dash, stop or colon) when it opens a paragraph set in a run
    of its own, and where in the line's text it ends; or None."""
    name = _ABSTRACT.match(item.text)
    if name is None or normalized(item.pieces[0][2]) != normalized(name.group(0)) or \
            not normalized(item.text[name.end():]) or not _opens_paragraph(item, before, pitch):
        return None
    return 1, name.end()


def _opens_paragraph(item: Item, before: Item | None, pitch: float) -> bool:
    """Does the line open a paragraph: at the top of its column, after a wider gap than the
    pitch, or after a line ended short? Else it goes on with the paragraph above."""
    return before is None or _paragraph_gap(before, item, pitch) or \
        next_word_fits(before, item)


def _after_piece(text: str, piece: str, start: int) -> int:
    """Where ``piece`` of the line ends in its ``text``, looked for from ``start``; -1 if not."""
    found = text.find(piece, start)
    return found + len(piece) if found >= 0 else -1


def _part(item: Item, text: str, pieces: list[tuple[float, float, str]], bold: bool) -> Item:
    """The part of ``item`` its ``pieces`` span, with ``text``, set bold (throughout) or not."""
    return Item(text, pieces[0][0], item.y0, pieces[-1][1], item.y1, item.y, item.size, bold, bold,
                item.spread, item.kind, item.column, item.section, item.left, item.right, pieces=pieces)


def _kinds(items: list[Item], body: float, opts: OrganizeOptions, titles: dict[str, int],
           pitch: float) -> list[tuple[str, int | None]]:
    """What block each line starts. The page has its say over the lines' own looks: a page
    mostly of headings has none by weight alone, and outline titles are headings at the
    outline's depth (level 0 marks a line that goes on with the outline title above it)."""
    floor = _floors(items, body)
    kinds = [start_kind(item, body, floor, opts) for item in items]
    lines = [index for index, item in enumerate(items) if item.kind == "line"]
    weight = [kinds[k][0] == "heading" and items[k].size < HEADING_RATIO * body
              and not _caps_heading(items[k].text, items[k].caps) for k in lines]
    entries = _contents(items, kinds, lines)
    _items_go_on(items, kinds, lines)
    _lead_ins(items, kinds, lines, body)
    _prose_not_headings(items, kinds, lines)
    if not entries:  # a page with headings by their looks, though they were contents entries
        _standalone_headings(items, kinds, lines, body, pitch)
    _numbered_headings(items, kinds, lines, body, pitch)
    _italic_heads(items, kinds, lines, body, pitch)
    _centred_capitals(items, kinds, lines, pitch)
    _names_over_addresses(items, kinds, lines)
    _centred_bylines(items, kinds, lines)
    _kickers(items, kinds, lines)
    _sentence_tails(items, kinds, lines)
    _set_in_the_text(items, kinds, lines, body, pitch)
    if too_many(["heading" if k in entries else kinds[k][0] for k in lines], weight):
        for k, alone in zip(lines, weight, strict=True):
            if alone:
                kinds[k] = ("list_item" if is_list_item(items[k].text) else "paragraph", None)
    for n, k in enumerate(lines):  # once the page is judged by its looks: labels and formulas set large head nothing
        text = items[k].text
        if kinds[k][0] == "heading" and (not a_word(text) and not _BARE_NUMBER.fullmatch(text) and
                                         not _short_title(items, lines, n, pitch) or _formula(text)):
            kinds[k] = ("paragraph", None)
    if opts.blocks:
        _code_lines(items, kinds, lines)
    if opts.blocks and titles:
        found = outline_matches([items[k].text for k in lines], titles)
        for start, (span, depth) in found.items():
            if start and _runs_into(items[lines[start - 1]], items[lines[start]], pitch):
                continue  # a paragraph's last words that happen to be a title ('signals.')
            kinds[lines[start]] = ("heading", depth)
            for k in lines[start + 1:start + span]:
                kinds[k] = ("heading", 0)
    return kinds


def _short_title(items: list[Item], lines: list[int], n: int, pitch: float) -> bool:
    """Does line ``n``, a heading by its looks with no word of ``WORD_LETTERS`` letters, head a
    section all the same: a section's number with a dot and a title of short capitalized words
    ('1.1. Ma', '3. AI'), or one such word alone, larger than the first line of a paragraph of
    its column under it or in italic over its upright words (words of letters: no formula's
    line), set further from the line above than from it (a label set large in a figure has no
    paragraph under it)?"""
    item = items[lines[n]]
    number = NUMBERING.match(item.text) if item.text[:1].isdecimal() else None
    title = item.text[number.end():].split() if number is not None else item.text.split()
    if not title or not title[0][:1].isupper() or not all(word.isalpha() for word in title):
        return False
    if number is not None:
        return "." in number.group(0) and len(title) <= ALONE_WORDS
    if len(title) != 1 or not 0 < n < len(lines) - 1:
        return False
    above, below = items[lines[n - 1]], items[lines[n + 1]]
    words = sum(word.isalpha() for word in below.text.split())
    return below.kind == above.kind == "line" and words >= PROSE_LINE_WORDS and \
        (below.size * HEADING_OVER <= item.size or item.italic and not below.italic) and \
        0 < item.y - below.y <= TITLE_PITCH * max(pitch, below.size) and \
        abs(below.x0 - item.x0) <= TITLE_INDENT_EMS * below.size and below.x1 > item.x1 and \
        above.y0 - item.y1 > item.y0 - below.y1


PROSE_LINE_WORDS = 4  # words of letters on the line under a short title, at the least: a paragraph's, not a formula's
HEADING_OVER = 1.05  # times the size of the text under it a short title is set at the least (in bold, larger)
TITLE_INDENT_EMS = 3.0  # ems a paragraph's first line may stand in from its heading (groff indents it 2.5)
TITLE_PITCH = 2.0  # of the page's pitch from a short title's baseline down to its paragraph's, at the most


def _runs_into(prev: Item, item: Item, pitch: float) -> bool:
    """Does a paragraph's line run on into ``item``: the line above it in its column and type
    (``_next_line``), across the column and full to its edge (the first word of ``item`` would
    not have fitted on it), ``item`` flush under it?"""
    return _next_line(prev, item, pitch) and \
        prev.x1 - prev.x0 >= ACROSS * (prev.right - prev.left) and abs(prev.x0 - item.x0) <= 0.5 * item.size and \
        not next_word_fits(prev, item)


ACROSS = 0.6  # of its column's width a paragraph's full line spans at the least


CODE_SHARE = 0.95  # of a page's characters in lines set in a monospaced font, at the most, for code


def _code_lines(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """Lines set in a monospaced font on a page set in another are code, line for line
    (``code_goes_on``); a page set mostly in one (a typescript, a plain-text document) is
    read as text. A line of code a paragraph runs on into (a long identifier that took a line
    of its own) stays in the paragraph."""
    code = [k for k in lines if items[k].code is not None]
    if not code or sum(len(items[k].text) for k in code) > CODE_SHARE * sum(len(items[k].text) for k in lines) \
            and not _broken_early(items, code):
        return
    for n, k in enumerate(lines):
        if _is_code(items, kinds, lines, n):
            kinds[k] = ("code", None)
            above = lines[n - 1] if n else None
            if above is not None and kinds[above][0] == "footnote" and items[above].text[:1] not in NOTE_MARKS and \
                    code_goes_on(items[above], items[k]):
                kinds[above] = ("paragraph", None)  # a listing's title, set as small as the listing


def _broken_early(items: list[Item], code: list[int]) -> bool:
    """Do most lines of a page set in a monospaced face end well short of the measure its
    longer lines run to? A typescript's lines run to the measure and break where the next word
    does not fit, but at a paragraph's end; a listing's end where each statement does: a page
    of them is code, however little else it holds. The measure is what the longer lines reach
    (``MEASURE_RANK``), not the longest alone: one long statement sets no measure."""
    if len(code) < LISTING_LINES:
        return False
    ends = sorted(items[k].x1 for k in code)
    measure = ends[int(MEASURE_RANK * (len(ends) - 1))]
    short = sum(items[k].x1 < measure - SHORT_CHARS * (items[k].x1 - items[k].x0) / max(1, len(items[k].text))
                for k in code)
    return short >= BROKEN_SHARE * len(code)


LISTING_LINES = 5  # lines in a monospaced face from which a page's line ends tell a listing
MEASURE_RANK = 0.9  # of a page's lines, ranked by where they end: the rank whose end is the measure
SHORT_CHARS = 10  # characters short of the measure a line ends at: broken early (a word is shorter)
BROKEN_SHARE = 0.5  # of a page's lines: broken early, as a listing's are


CODE_INDENT = 6.0  # sizes right of its column's text edge a block of code starts at the most


def _is_code(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], n: int) -> bool:
    """Is the ``n``-th line code: a line in a monospaced face that goes on the code above it
    (a brace alone, a listing's number alone on its blank line), or starts a block of it with
    words, near its column's text edge (not a diagram's labels set about it), not a line a
    paragraph runs on into (a long identifier that took a line of its own)? Not a caption, a
    provision, a head set larger in the code's face, a note set in it ('1 http://…'); a line
    taken for a note that goes on the code just above it is the listing's next line, whatever
    it opens with (an index: '0 .text 00000027')."""
    k = lines[n]
    item, kind = items[k], kinds[k][0]
    before = items[lines[n - 1]] if n else None
    goes_on = before is not None and kinds[lines[n - 1]][0] == "code" and code_goes_on(before, item)
    if kind not in ("paragraph", "list_item", "footnote", "heading") or \
            (kind == "heading" and not _code_beside(items, lines, n)) or \
            (kind == "footnote" and not (goes_on and item.code is not None) and
             not _listing_number(items, lines, n) and not _listing_below(items, kinds, lines, n)):
        return False
    if item.code is None:
        return goes_on and item.text.isdigit() and n + 1 < len(lines) and items[lines[n + 1]].code is not None
    if goes_on:
        return True
    if kind != "footnote" and (not any(char.isalpha() for char in item.text) or
                               item.x0 > item.left + CODE_INDENT * item.size):
        return False
    # A listing taken for a note lies below the text's last line: no paragraph runs on into it.
    return kind == "footnote" or before is None or before.code is not None or kinds[lines[n - 1]][0] != "paragraph" or \
        (before.section, before.column) != (item.section, item.column) or next_word_fits(before, item) or \
        _paragraph_gap(before, item, before.size * 1.2)


def _code_beside(items: list[Item], lines: list[int], n: int) -> bool:
    """Is the line between lines of code of its own size (a keyword set bold, not a head), or
    next to one set as it is (a listing set bold throughout), or set in from its column's edge
    as no head is, neither centred nor in capitals nor numbered (a declaration displayed
    between two sentences: 'The type' / 'fenv_t' / 'represents …')?"""
    item = items[lines[n]]

    def alike(m: int) -> bool:
        return 0 <= m < len(lines) and items[lines[m]].code is not None and \
            abs(items[lines[m]].size - item.size) <= 0.05 * item.size

    return alike(n - 1) and alike(n + 1) or item.bold_all and \
        any(alike(m) and items[lines[m]].bold_all for m in (n - 1, n + 1)) or _displayed(item)


def _displayed(item: Item) -> bool:
    """Is a line set in from its column's edge as no head is: neither centred, nor in capitals,
    nor numbered?"""
    em = item.size
    return item.x0 >= item.left + DISPLAY_EMS * em and \
        abs((item.x0 + item.x1) / 2 - (item.left + item.right) / 2) > 2 * em and \
        not _capitals(item) and numbering_depth(item.text) is None


DISPLAY_EMS = 1.5  # ems from its column's left edge a line of code displayed between sentences stands in, at the least


def _listing_below(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], n: int) -> bool:
    """Is a line taken for a note, set small below the text, a listing's instead: set in a
    monospaced face, opening with no note's mark, and not going on a note above it (a note's
    address set in the code's face; lines above it taken for a note that none opens with a
    mark are a listing's title or the text's last line)?"""
    item = items[lines[n]]
    if item.code is None or item.text[:1] in LISTING_NOTE_MARKS:
        return False
    if n and kinds[lines[n - 1]][0] == "footnote" and (n + 1 == len(lines) or items[lines[n + 1]].code is None):
        return False  # one line in the code's face under a note: the note's address
    for m in range(n - 1, -1, -1):  # the lines taken for a note above it: one opens with a note's mark?
        if kinds[lines[m]][0] != "footnote":
            return True
        if items[lines[m]].text[:1] in NOTE_MARKS:
            return False
    return True


LISTING_NOTE_MARKS = NOTE_MARKS - frozenset("*[")  # a line of code opens with either as often


def _listing_number(items: list[Item], lines: list[int], n: int) -> bool:
    """Does the line open with a listing's line number, one on from the line above's or one
    short of the line below's (a note's mark is set on its text: '1http://…')?"""
    def number(m: int) -> int | None:
        if not 0 <= m < len(lines):
            return None
        first = items[lines[m]].text.split(" ", 1)[0]
        return int(first) if first.isdigit() and len(first) <= 5 else None

    own = number(n)
    return own is not None and (number(n - 1) == own - 1 or number(n + 1) == own + 1)


CODE_GAP = 2.6  # sizes from one line of code down to the next in the same block, a blank line between at most
BLANK_LINE = 1.8  # sizes down from the line above: a blank line between them
CODE_STEP = 12.0  # sizes across one line of code may start from the line above's start (a label far off is none)


def code_goes_on(prev: Item, item: Item) -> bool:
    """Does a line of code go on the block of code whose last line is ``prev``: the same column,
    close below it (a blank line between at most), not left of the text's edge but to close
    a bracket (a structure's '};' left of its indented members, which set that edge)."""
    return item.section == prev.section and item.column == prev.column and \
        0 < prev.y - item.y <= CODE_GAP * max(prev.size, item.size) and \
        (item.x0 >= prev.left - item.size or item.text[:1] in CLOSING_BRACKETS) and \
        abs(item.x0 - prev.x0) <= CODE_STEP * item.size


CLOSING_BRACKETS = frozenset("})]")


def code_line(first: Item, prev: Item, item: Item) -> str:
    """A line of a block of code as it is set: indented by the advances it starts right of the
    block's first line, after a blank line when one parts it from the line above."""
    start = item.code if item.code is not None else item.x0
    base = first.code if first.code is not None else first.x0
    number = item.text.split(" ", 1)[0] if start > item.x0 + 0.5 * item.size else ""
    code = item.text[len(number):].lstrip() if number else item.text
    advance = (item.x1 - start) / max(1, len(code))
    indent = " " * max(0, round((start - base) / advance)) if advance > 0 else ""
    blank = "\n" if prev.y - item.y > BLANK_LINE * max(prev.size, item.size) else ""
    return f"{blank}{number}{' ' if number else ''}{indent}{code}"


ALONE_GAP = 1.6  # pitches of space below (and above) a line that stands alone as a heading
ALONE_WORDS = 8
ALONE_CHARS = 60


def _standalone_headings(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int],
                         body: float, pitch: float) -> None:
    """On a page with no heading by its looks (everything set in one face), a short line that
    stands alone, with a wider gap than the line pitch below it and above it (or at the top
    of its column), over a paragraph, is a heading: the space sets it apart, as size would."""
    if any(kinds[k][0] == "heading" for k in lines):
        return
    for n, k in enumerate(lines):
        item = items[k]
        if kinds[k][0] != "paragraph" or not _title_like(item.text) or item.size < 0.95 * body:
            continue
        after = items[lines[n + 1]] if n + 1 < len(lines) else None
        before = items[lines[n - 1]] if n > 0 else None
        if after is None or (after.section, after.column) != (item.section, item.column) or \
                kinds[lines[n + 1]][0] not in ("paragraph", "list_item") or len(after.text) <= len(item.text):
            continue
        step = ALONE_GAP * min(pitch, 1.5 * item.size)  # few lines tell the pitch poorly: leading caps it
        if item.y - after.y < step or abs(after.size - item.size) > 0.05 * item.size:
            continue
        if before is not None and (before.section, before.column) == (item.section, item.column) and \
                before.y - item.y < step:
            continue
        kinds[k] = ("heading", None)


NUMBERED_GAP = 1.3  # pitches of space above a numbered line that stands as a heading in body type


def _numbered_headings(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int],
                       body: float, pitch: float) -> None:
    """A numbered title in the body's own type ('A. Sensors', '2.3 Results', set in italic or
    roman) on a line of its own: flush with the column's left edge, with more space above it
    than the line pitch (or at the top of its column), ended by choice over a paragraph that
    is not numbered. A list's entries are indented, or follow each other at the pitch."""
    for n, k in enumerate(lines):
        item = items[k]
        if kinds[k][0] not in ("paragraph", "list_item") or not _numbered_title(item.text) or \
                item.size < 0.95 * body:
            continue
        after = items[lines[n + 1]] if n + 1 < len(lines) else None
        before = items[lines[n - 1]] if n > 0 else None
        if after is None or (after.section, after.column) != (item.section, item.column) or \
                kinds[lines[n + 1]][0] != "paragraph" or numbering_depth(after.text) is not None or \
                not -0.05 * item.size <= item.size - after.size <= (HEADING_RATIO - 1) * after.size or \
                item.y <= after.y:
            continue  # the text under it in its own type, or a little smaller
        em = item.size
        # Ended by choice: the next word would have fitted, or the next line opens a sentence
        # indented as a paragraph's first line is, under a long title near the column's width
        # (an entry's lines hang under its text and go on with its sentence; a clause ended by
        # a colon leads into what follows).
        ended = next_word_fits(item, after) or \
            (after.x0 > item.x0 + 0.8 * em and after.text[:1].isupper() and item.text[-1:] != ":")
        if item.x0 > item.left + 0.5 * em or not ended or after.x1 < after.right - 3 * em:
            continue  # indented, or run short of its paragraph's full line
        if not _spaced_over(item, before, after, pitch):
            continue
        if _after_an_entry(items, kinds, lines, n):
            continue  # the last entry of a numbered list, spaced as its paragraphs are
        kinds[k] = ("heading", None)


def _italic_heads(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int],
                  body: float, pitch: float) -> None:
    """A few words in italic on a line of their own, capitalized and not ended by a stop (or one
    capitalized word: 'Participants'), in the body's size, flush left, with more space above
    them than the line pitch (or at the top of their column), ended by choice (or where the
    italic ends: the next line opens upright) over a paragraph in upright type: an unnumbered
    subsection's head ('Sampling the rivers'), set as many styles set their lowest level. A
    word of two letters ('Ba') heads one over a line of words (``PROSE_LINE_WORDS``), not a
    formula's. A head too long for its column wraps onto a second line in italic, shorter,
    the two a title (``_wrapped_head``)."""
    for n, k in enumerate(lines):
        item = items[k]
        if kinds[k][0] != "paragraph" or not item.italic or item.bold:
            continue
        wrapped = _wrapped_head(items, lines, n)
        if not (_title_like(item.text) or _capitalized_word(item.text, 2) or wrapped) or \
                item.size < 0.95 * body or item.x0 > item.left + 0.5 * item.size or ":" in item.text:
            continue  # flush left (a centred line in italic is a byline or a motto), no label ('Source: …')
        last = items[lines[n + 1]] if wrapped else item  # the head's last line
        m = n + 1 + wrapped
        after = items[lines[m]] if m < len(lines) else None
        before = items[lines[n - 1]] if n > 0 else None
        if after is None or (after.section, after.column) != (item.section, item.column) or after.italic or \
                kinds[lines[m]][0] not in ("paragraph", "list_item") or last.y <= after.y or \
                abs(after.size - item.size) > 0.05 * item.size or \
                not next_word_fits(last, after) and not after.upright or \
                len(item.text) < 3 and sum(word.isalpha() for word in after.text.split()) < PROSE_LINE_WORDS:
            continue
        if _spaced_over(item, before, last if wrapped else after, pitch) and _spaced_over(last, None, after, pitch):
            kinds[k] = ("heading", None)
            if wrapped:
                kinds[lines[n + 1]] = ("heading", None)


def _wrapped_head(items: list[Item], lines: list[int], n: int) -> int:
    """1 when the line ``lines[n]`` and the next, both in italic (not bold), in one size and
    column, flush left, the second shorter and over a line in upright type, read as a title
    together (a head wrapped at its column's end: 'Sampling the rivers of the upper-' over
    'most valley'); 0 otherwise."""
    if n + 2 >= len(lines):
        return 0
    item, second, after = (items[lines[k]] for k in (n, n + 1, n + 2))
    together = (item.section, item.column) == (second.section, second.column) and item.italic and second.italic and \
        not item.bold and not second.bold and abs(second.size - item.size) <= 0.05 * item.size and \
        abs(second.x0 - item.x0) <= 0.5 * item.size and second.x1 < item.x1 and not after.italic
    return int(together and _title_like(join_text(item.text, second.text)))


def _spaced_over(item: Item, before: Item | None, after: Item, pitch: float) -> bool:
    """Does a line stand apart from the line ``before`` it in its column (more space than
    ``NUMBERED_GAP`` pitches, or at the column's top) and close over the text ``after`` it, as a
    heading sits over its text?"""
    step = NUMBERED_GAP * min(pitch, 1.5 * item.size)
    if item.y - after.y > 2 * step:
        return False
    return before is None or (before.section, before.column) != (item.section, item.column) or \
        before.y - item.y >= step


CAPS_LETTERS = 0.9  # of a centred head's characters (spaces aside) letters at the least


def _centred_capitals(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], pitch: float) -> None:
    """A few words in capitals on a line of their own, centred in their column, with more space
    above them than the line pitch (or at the top of the column), over a paragraph: a section
    head set as the numbered ones are, without a number ('ACKNOWLEDGMENT', 'APPENDIX'). Not
    pieces set far apart on one baseline (labels of a cover's boxes: 'SEE PROFILE SEE PROFILE')."""
    for n, k in enumerate(lines):
        item = items[k]
        if kinds[k][0] != "paragraph" or item.spread or len(item.text) > ALONE_CHARS or \
                not _capitals(item) or _letters(item.text) < CAPS_LETTERS or \
                len(item.text.split()) > ALONE_WORDS:
            continue  # words set together, not a display formula in capitals ('PM(E) = P(E)')
        if not _centred(item):
            continue
        after = items[lines[n + 1]] if n + 1 < len(lines) else None
        before = items[lines[n - 1]] if n > 0 else None
        if after is None or (after.section, after.column) != (item.section, item.column) or \
                kinds[lines[n + 1]][0] != "paragraph" or item.y <= after.y or _capitals(after):
            continue
        step = NUMBERED_GAP * min(pitch, 1.5 * max(item.size, after.size))
        if before is not None and (before.section, before.column) == (item.section, item.column) and \
                before.y - item.y < step:
            continue
        kinds[k] = ("heading", None)


ADDRESS_LINES = 4  # lines under an author's name its address (institution, city, mail) takes at most


def _names_over_addresses(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """A heading of one short line over an address that ends in one for mail (an author's name
    over their institution, city and 'name@host'), the lines set close under it, heads nothing:
    it is a byline, however it is set (bold, larger). A heading set over two lines is not."""
    for n, k in enumerate(lines):
        item = items[k]
        if kinds[k][0] != "heading" or len(item.text.split()) > ALONE_WORDS or numbering_depth(item.text) is not None:
            continue
        if (n > 0 and kinds[lines[n - 1]][0] == "heading" and _heading_goes_on(items[lines[n - 1]], item)) or \
                (n + 1 < len(lines) and kinds[lines[n + 1]][0] == "heading" and
                 _heading_goes_on(item, items[lines[n + 1]])):
            continue
        prev = item
        for k2 in lines[n + 1:n + 1 + ADDRESS_LINES]:
            other = items[k2]
            if kinds[k2][0] == "heading" or (other.section, other.column) != (item.section, item.column) or \
                    not 0 < prev.y - other.y <= 1.8 * max(prev.size, other.size):
                break
            if "@" in other.text and _EMAIL.search(other.text):
                kinds[k] = ("paragraph", None)
                break
            prev = other


def _centred_bylines(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """Two lines centred one under the other at one size and weight, each a heading by its
    looks and the first with nothing under it but the second, further apart than one heading's
    lines: the names of a title's authors over their institution, set larger than the text. A
    block of lines, not headings. A heading wrapped over two lines goes on and stays."""
    for n in range(len(lines) - 1):
        k, after = lines[n], lines[n + 1]
        upper, lower = items[k], items[after]
        if kinds[k] != ("heading", None) or kinds[after] != ("heading", None) or after != k + 1 or \
                (upper.section, upper.column) != (lower.section, lower.column) or upper.bold != lower.bold or \
                abs(upper.size - lower.size) > 0.05 * upper.size or not (_centred(upper) and _centred(lower)) or \
                numbering_depth(upper.text) is not None or numbering_depth(lower.text) is not None or \
                _heading_goes_on(upper, lower):
            continue
        kinds[k] = kinds[after] = ("paragraph", None)


def _centred(item: Item) -> bool:
    """Is the line centred in its column, short of its edges?"""
    em = item.size
    return abs((item.x0 + item.x1) / 2 - (item.left + item.right) / 2) <= em and item.x0 >= item.left + 2 * em


ENTRY_LINES = 4  # lines an entry of a list is looked for above a numbered line


def _after_an_entry(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], n: int) -> bool:
    """Does a numbered entry of a list start a few lines above line ``n``, in its column?"""
    item = items[lines[n]]
    for k in reversed(lines[max(0, n - ENTRY_LINES):n]):
        other = items[k]
        if (other.section, other.column) != (item.section, item.column) or kinds[k][0] == "heading":
            return False
        if kinds[k][0] == "list_item" or numbering_depth(other.text) is not None:
            return True
    return False


def _numbered_title(text: str) -> bool:
    """A numbered heading's text: after its number (with a dot: '16 Face Your World' is a page
    number before a running head, not a section), a few words not ended as a sentence or a
    clause is."""
    if len(text) > ALONE_CHARS or text[-1:] in ".,;" or numbering_depth(text) is None:
        return False
    number = NUMBERING.match(text)
    return (number is None or "." in number.group(0)) and _few_words(text, 2, ALONE_WORDS + 1, 0.5)


def _title_like(text: str) -> bool:
    """A few words, capitalized, not ended by punctuation: a title, not a sentence or a label."""
    if len(text) > ALONE_CHARS or not text[:1].isupper() or not text[-1:].isalnum():
        return False  # the cheap tests first: most lines are long
    return _few_words(text, 2, ALONE_WORDS, 0.6)


def _capitalized_word(text: str, least: int = 3) -> bool:
    """One capitalized word of letters, ``least`` at the least ('Participants', 'Datasets'), not
    a symbol or an abbreviation set alone."""
    return len(text) >= least and text.isalpha() and text[0].isupper() and not text.isupper()


def _few_words(text: str, least: int, most: int, letters: float) -> bool:
    """From ``least`` to ``most`` words (a number counts as one), letters for at least
    ``letters`` of the characters."""
    return least <= len(text.split()) <= most and sum(c.isalpha() for c in text) >= letters * len(text)


KICKER = 1.25  # a heading right above one this much larger heads nothing: it is a kicker


def _kickers(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """A heading with nothing under it before a heading set much larger (a series name over
    a slide's title, a running head over a chapter title, a tag line over a masthead) heads
    no text: it is a line of its own, not a heading."""
    for n in range(len(lines) - 1):
        k, after = lines[n], lines[n + 1]
        if kinds[k] != ("heading", None) or kinds[after][0] != "heading" or after != k + 1 or \
                items[after].size < KICKER * items[k].size:
            continue
        start = n  # the kicker may be set over more than one line
        while start > 0 and kinds[lines[start - 1]] == ("heading", None) and \
                _heading_goes_on(items[lines[start - 1]], items[lines[start]]):
            start -= 1
        for j in lines[start:n + 1]:
            kinds[j] = ("paragraph", None)


_SENTENCE_END = lazy(r"[.!?][\"')\]\u201d\u2019]*$")


def _sentence_tails(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """A "heading" that opens in a small letter and ends a sentence, or runs on for more words
    than a title takes, is the tail of one: a caption or a paragraph carried over from the page
    or the column before, in its own face. A heading opens in a capital or a number; only a line
    that goes on with the heading above it may open in a small letter."""
    for n, k in enumerate(lines):
        text = items[k].text
        if kinds[k][0] != "heading" or not text[:1].islower() or \
                (_SENTENCE_END.search(text) is None and len(text.split()) <= ALONE_WORDS):
            continue
        if n and kinds[lines[n - 1]][0] == "heading" and _heading_goes_on(items[lines[n - 1]], items[k]):
            continue
        kinds[k] = ("paragraph", None)


def _set_in_the_text(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], body: float,
                     pitch: float) -> None:
    """A "heading" by weight alone (bold in the text's size) that opens in a small letter and
    stands at the line pitch under the line above it, with no space between, is a word set in
    bold inside the text: a listing's keyword ('end loop', 'struct'), a label ('precondition:').
    A heading has space above it; one that opens in a small letter (an identifier) too."""
    for n, k in enumerate(lines[1:], start=1):
        item, before = items[k], items[lines[n - 1]]
        if kinds[k][0] != "heading" or not item.text[:1].islower() or item.size >= HEADING_RATIO * body or \
                kinds[lines[n - 1]][0] == "heading":
            continue  # the rest of a title over two lines opens in a small letter as well
        if (before.section, before.column) == (item.section, item.column) and \
                0 < before.y - item.y <= SET_IN_PITCH * max(pitch, item.size):
            kinds[k] = ("paragraph", None)


SET_IN_PITCH = 1.2  # of the line pitch: a line this close under another has no space above it
PROSE_LINES = 4  # a "heading" set over this many lines is a paragraph set large
# Words a heading does not end with: a line ending in one runs on into the next ('… top c hubs
# in the', 'to erroneous stabilizer movement and'), a sentence's, not a title's.
RUN_ON_WORDS = frozenset("a an and the of to in for with by on at from or nor that which".split())
PROSE_WORDS = 16  # a sentence this long, ended by a full stop, is prose, not a heading


def _prose_not_headings(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """Lines that stand out by size but read as prose (on a page whose body size is taken
    from its many footnotes, the text above them is larger than the "body"): a run of heading
    lines as one heading block would join them that goes on for four lines or more, that is a
    long sentence ending with a full stop, that ends in a word broken at a hyphen that the
    next line of its column goes on with for a full line (a heading ends with its last word
    whole, or with the rest of it on a short line; a numbered one may run in), or that ends in
    a word a sentence runs on from ('and', 'the': ``RUN_ON_WORDS``) into a line that is no
    heading (a title's first line may end so, over its second set otherwise), is a paragraph."""
    start = 0
    while start < len(lines):
        end = start + 1
        if kinds[lines[start]][0] == "heading":
            while end < len(lines) and kinds[lines[end]][0] == "heading" and \
                    _heading_goes_on(items[lines[end - 1]], items[lines[end]]):
                end += 1
            group = [items[k] for k in lines[start:end]]
            text = " ".join(i.text for i in group)
            after = items[lines[end]] if end < len(lines) else None
            broken = text.endswith("-") and after is not None and numbering_depth(text) is None and \
                (after.section, after.column) == (group[-1].section, group[-1].column) and \
                after.x1 >= after.right - 2 * after.size
            last_word = (text.rsplit(None, 1) or [""])[-1]
            runs_on = last_word in RUN_ON_WORDS and not _heading_below(items, kinds, lines, end)
            if len(group) >= PROSE_LINES or (len(text.split()) > PROSE_WORDS and text.rstrip()[-1:] in ".!?") or \
                    broken or runs_on:
                for k in lines[start:end]:
                    kinds[k] = ("list_item" if is_list_item(items[k].text) else "paragraph", None)
        start = end


def _heading_below(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], end: int) -> bool:
    """Is the line set under the ``end - 1``-th (the next of its column, whatever the reading
    order says) a heading: the rest of a title set over two lines in two styles?"""
    last = items[lines[end - 1]]
    for k in lines[end:end + BELOW_LINES]:
        item = items[k]
        if item.x0 < last.x1 and last.x0 < item.x1 and 0 < last.y - item.y <= 2 * max(last.size, item.size):
            return kinds[k][0] == "heading"
    return False


BELOW_LINES = 4  # lines after a heading's last the line under it is looked for among


def _heading_goes_on(prev: Item, item: Item) -> bool:
    """Would ``item`` continue the heading whose last line is ``prev`` (as ``continues`` has it)?"""
    return numbering_depth(item.text) is None and (item.section, item.column) == (prev.section, prev.column) \
        and abs(item.size - prev.size) <= 0.05 * prev.size and 0 <= prev.y - item.y <= 1.8 * item.size


def _items_go_on(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> None:
    """A bold list entry set over two lines: its second line, in the entry's face right under
    it, goes on with the entry, not as a heading of its own."""
    entry = False  # the line before is an entry's, or goes on with one
    for n in range(1, len(lines)):
        k, before = lines[n], items[lines[n - 1]]
        entry = entry or kinds[lines[n - 1]][0] == "list_item"
        if entry and kinds[k][0] == "heading" and before.bold == items[k].bold and \
                _heading_goes_on(before, items[k]):
            kinds[k] = ("paragraph", None)
        else:
            entry = False


def _lead_ins(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int], body: float) -> None:
    """A bold line of body size that runs to the column's edge and goes on into a lighter line
    below (the next word would not have fitted; the sentence goes on, in small letters or after
    a hyphen) is a bold phrase opening a paragraph, however long: a heading ends by choice."""
    for n in range(len(lines) - 1):
        k, after = lines[n], items[lines[n + 1]]
        item = items[k]
        if kinds[k] != ("heading", None) or item.size >= HEADING_RATIO * body or \
                _caps_heading(item.text, item.caps) or kinds[lines[n + 1]][0] != "paragraph" or after.bold_all or \
                not _heading_goes_on(item, after) or next_word_fits(item, after) or \
                not (after.text[:1].islower() or item.text.endswith("-")):
            continue  # a title may reach the edge too: the line below must go on with its sentence
        kinds[k] = ("paragraph", None)


def _contents(items: list[Item], kinds: list[tuple[str, int | None]], lines: list[int]) -> set[int]:
    """Below a contents heading, lines that look like headings are its entries: one a line. So
    is such a line among the entries of a page of contents, one with leaders and a page number
    under it and over it (a chapter's line over its sections', on a page that goes on with the
    contents), and one over an entry alone (the page's first chapter) set as such a line is. Returns
    the lines taken for entries: a page judged mostly headings still counts them as it sees them."""
    taken: set[int] = set()
    start = next((n for n, k in enumerate(lines) if kinds[k][0] == "heading" and is_contents(items[k].text)), None)
    if start is not None:
        size = items[lines[start]].size
        for k in lines[start + 1:]:
            if kinds[k][0] == "heading" and items[k].size <= size:
                kinds[k] = ("paragraph", None)
                taken.add(k)
    entries = [is_leader(items[k].text) for k in lines]
    if sum(entries) < CONTENTS_ENTRIES:
        return taken
    over = {k for n, k in enumerate(lines[:-1]) if kinds[k][0] == "heading" and entries[n + 1]}
    among = {k for n, k in enumerate(lines[1:-1], 1) if k in over and entries[n - 1]}
    looks = {(items[k].size, items[k].bold) for k in among}
    among |= {k for k in over if (items[k].size, items[k].bold) in looks and not is_contents(items[k].text)}
    for k in among:
        kinds[k] = ("paragraph", None)
    return taken | among


CONTENTS_ENTRIES = 4  # lines with leaders and a page number that make a page (a part of one) contents


def _levels(blocks: list[Block], page: int, levels: Levels, height: float) -> None:
    """Levels of the page's headings, those the outline placed (at its depth) and the others
    alike, by the document's running ``levels``."""
    if levels.first_page is None:
        _bylines(blocks)
    _names_under_titles(blocks)
    placed = [b for b in blocks if b.kind == "heading" and b.first is not None]
    # A head in italic ranks under the upright and bold ones of its size: a style's lowest level.
    heads = [(b.text, b.first.size - (SIZE_STEP if b.first.italic and not b.first.bold else 0.0), b.first.y1,
              b.first.bold, b.level) for b in placed if b.first is not None]
    for block, level in zip(placed, levels.page(page, heads, height), strict=True):
        block.level = level


def _bylines(blocks: list[Block]) -> None:
    """Under a title set in bold on the document's first page, the lines set large in a lighter
    face (the authors, their institutions) head nothing: they are the byline, not headings."""
    heads = [b for b in blocks if b.kind == "heading" and b.level is None and b.first is not None]
    if not heads:
        return
    largest = max(b.first.size for b in heads if b.first is not None)
    candidates = {id(b) for b in heads if b.first is not None and b.first.size == largest}
    start = next(k for k, b in enumerate(blocks) if id(b) in candidates)
    title = blocks[start].first
    if title is None or not title.bold:
        return
    for block in blocks[start + 1:]:
        line = block.first
        if block.kind != "heading" or block.level is not None or line is None or line.bold or line.size > title.size:
            break
        block.kind = "paragraph"


NAME_RUN = 3  # one name a line this many times in a row is a byline, marked or not


def _names_under_titles(blocks: list[Block]) -> None:
    """A "heading" that reads as a list of people's names ('Nuala E. Tully, Karen M. Morgan,
    and Hannah M. McGee'), set smaller than a heading above it on its page, is the byline
    under a title, however it is set (an article's first page may come after a cover, and a
    volume holds many): it heads nothing. So are names set one a line, as headings one after
    another with nothing between them: three or more, or two when one carries an initial or
    a mark of affiliation ('Aditya Gupta†'). Names set apart by wide spaces on one line (LaTeX's
    ``\\and``) are read a part a name; the line of their institution under them is the byline's
    too (``_under_byline``)."""
    above = 0.0  # the largest heading size so far on the page
    before: Block | None = None  # the block before
    run: list[Block] = []  # headings of one name each, one after another
    marked = False  # one of them carries an initial or a mark
    byline: Item | None = None  # the names' line just made a byline, while lines under it may be its
    for block in [*blocks, None]:
        alone, mark = (False, False)
        if byline is not None and block is not None and _under_byline(block, byline):
            block.kind = "paragraph"
            before = block
            continue
        byline = None
        if block is not None and block.kind == "heading" and block.first is not None:
            size = block.first.size
            under = before is not None and before.kind == "heading" and before.first is not None and \
                before.first.size > size
            if block.level is None and size < above and numbering_depth(block.text) is None:
                if reads_as_names(block.text, under) or _names_spaced(block, under):
                    block.kind = "paragraph"
                    byline = block.first
                else:
                    alone, mark = a_name(block.text)
            above = max(above, size)
        if alone and block is not None:
            run.append(block)
            marked = marked or mark
        else:
            if len(run) >= NAME_RUN or (len(run) >= 2 and marked):
                for name in run:
                    name.kind = "paragraph"
            run, marked = [], False
        before = block


def _names_spaced(block: Block, under: bool) -> bool:
    """Is a line of parts set apart by wide spaces, no commas between them, a list of names, a
    part a name (LaTeX's ``\\and``)? Parts in capitals alone are a title's words, not names."""
    line = block.first
    parts = [text for _, _, text in line.parts] if line is not None and line.text == block.text else []
    words = [part for part in parts if any(c.isalpha() for c in part)]  # (marks of affiliation drawn apart: none)
    return len(parts) >= 2 and all(any(c.islower() for c in part) for part in words) and \
        reads_as_names(", ".join(parts), under)


def _under_byline(block: Block, names: Item) -> bool:
    """Is a "heading" right under a byline's names its next line (their institution): centred,
    in no larger a size, in a lighter face than bold, unnumbered, two words or more
    (an 'Abstract' centred under them heads its text), within ``BYLINE_STEP`` under the names?"""
    line = block.first
    return block.kind == "heading" and block.level is None and line is not None and not line.bold and \
        line.size <= names.size + 0.1 and _centred(line) and \
        numbering_depth(block.text) is None and len(block.text.split()) >= 2 and \
        (line.section, line.column) == (names.section, names.column) and \
        0 < names.y - line.y <= BYLINE_STEP * names.size


BYLINE_STEP = 3.0  # ems from a byline's names down to the line of their institution, at the most


def _floors(items: list[Item], body: float) -> dict[str, float]:
    """The lowest body-size line of each column: smaller text below it is a footnote."""
    floor: dict[str, float] = {}
    for item in items:
        if item.kind == "line" and abs(item.size - body) < 0.05 * body:
            floor[item.column] = min(floor.get(item.column, item.y0), item.y0)
    if floor:  # full-width text is a footnote only below every column's body
        floor["F"] = min(floor.values())
    return floor


def _pitch(items: list[Item], body: float) -> float:
    """The usual distance between baselines of body lines in one column."""
    steps: dict[float, int] = {}
    most = 3 * body
    for a, b in zip(items, items[1:], strict=False):
        step = a.y - b.y
        if 0 < step < most and abs(a.size - body) < 0.5 and a.section == b.section and a.column == b.column:
            key = round(step, 0)
            steps[key] = steps.get(key, 0) + 1
    return max(steps, key=lambda k: steps[k]) if steps else 1.2 * body


def _add_span(block: Block, page: int, item: Item) -> None:
    last = block.spans[-1] if block.spans else None
    if last and last["page"] == page and block.last is not None and \
            block.last.section == item.section and block.last.column == item.column:
        # The rect's numbers are rounded already, and rounding keeps order: only a number
        # that moves an edge outwards needs rounding.
        rect = last["rect"]
        if item.x0 < rect[0]:
            rect[0] = round(item.x0, 2)
        if item.y0 < rect[1]:
            rect[1] = round(item.y0, 2)
        if item.x1 > rect[2]:
            rect[2] = round(item.x1, 2)
        if item.y1 > rect[3]:
            rect[3] = round(item.y1, 2)
    else:
        block.spans.append({"page": page, "rect": item.rect})


PAGE_IMAGE = 0.8  # of the page's area: an image (or strips of one) covering more is a scan or a background
STRIP_JOIN = 1.5  # points: strips of one image meet edge to edge, this close


def figure_items(images: list[dict[str, Any]], page_area: float) -> list[Item]:
    """Images big enough to be figures and smaller than the page (a page-sized image is a
    scan or a background, not a figure; so are the strips a scan is cut into, set edge to
    edge down the page)."""
    items = []
    rects = [tuple(coordinate(v) for v in image["rect"]) for image in images]
    strips = _page_strips(rects, page_area)
    for index, (x0, y0, x1, y1) in enumerate(rects):
        if min(x1 - x0, y1 - y0) < FIGURE_MIN_SIDE or (x1 - x0) * (y1 - y0) > PAGE_IMAGE * page_area \
                or index in strips:
            continue
        # A figure is ordered by its top edge: that is where a reader meets it.
        items.append(Item(text="[figure]", x0=x0, y0=y0, x1=x1, y1=y1, y=y1, size=0.0, kind="figure"))
    return items


def _page_strips(rects: list[tuple[float, ...]], page_area: float) -> set[int]:
    """The images that are strips of one page image: as wide as each other at the same place,
    stacked edge to edge (or as tall, side by side), together covering most of the page (a
    scanner's or an encoder's bands). Their indexes."""
    found: set[int] = set()
    for across, along in ((0, 1), (1, 0)):  # strips stacked down the page, then side by side
        bands: dict[tuple[int, int], list[int]] = {}
        for index, rect in enumerate(rects):
            bands.setdefault((round(rect[across]), round(rect[across + 2])), []).append(index)
        for (lo, hi), members in bands.items():
            if len(members) < 2:
                continue
            members.sort(key=lambda k: rects[k][along])
            run = [members[0]]
            for k in members[1:] + [-1]:
                if k >= 0 and abs(rects[k][along] - rects[run[-1]][along + 2]) <= STRIP_JOIN:
                    run.append(k)
                    continue
                if len(run) >= 2 and (hi - lo) * sum((rects[m][along + 2] - rects[m][along] for m in run), 0.0) \
                        > PAGE_IMAGE * page_area:
                    found.update(run)
                run = [k]
    return found
