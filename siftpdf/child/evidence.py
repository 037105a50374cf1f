"""Page evidence: what PDFium observed on a page, serialised so that organization can run
again later without the PDF (its fields: ``evidence`` in siftpdf/schema/docstream.schema.json).

Coordinates are PDF points in the page's user space: origin bottom-left, y grows upwards;
rectangles are ``[x0, y0, x1, y1]``.

Speed matters (organization may cost at most twice the raw extraction), so the per-character
work is one ctypes call (which text object drew the character) with integer results; font,
size, colour and box are looked up once per run of characters drawn by one text object.
Only the extraction child (or ``--in-process``) imports this module: it loads native code.
"""

from __future__ import annotations

import ctypes
import math
from bisect import bisect_right
from itertools import repeat

from ..docline import has_surrogate, scrub_record
from ..fonts import SYMBOL_FONT, adobe_read, symbol_font
from ..texfonts import tex_encoding
from . import pdfium as pdfium_c
from .pdfium import (
    CHAR_MATRIX,
    CHAR_TEXT_OBJECT,
    LOOSE_CHAR_BOX,
    OBJECT_MATRIX,
    TEXT_OBJECT_FONT,
    TEXT_OBJECT_FONT_SIZE,
    address,
    typed,
    untyped,
)
from .spacing import MARK

# Not typing's, and no re: with enum, which re imports, they cost the child's start (every cold
# command waits for it) more than a short page's evidence (siftpdf.docline).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_VP, _INT = ctypes.c_void_p, ctypes.c_int

# Entry points called per character (siftpdf.child.pdfium's ``untyped``), besides those the
# letter spacing calls too (imported above).
_HAS_MAP_ERROR = untyped(pdfium_c.FPDFText_HasUnicodeMapError, _INT)
# Per-character code points, when the page text does not align with the character indexes
# (characters beyond the BMP): 0 for an unmapped glyph becomes a space like PDFium's NULs.
_UNICODE = untyped(pdfium_c.FPDFText_GetUnicode, ctypes.c_uint)
_ORIGIN = untyped(pdfium_c.FPDFText_GetCharOrigin, _INT)  # (text page, index, double*, double*)
_FILL = untyped(pdfium_c.FPDFText_GetFillColor, _INT)  # (text page, index, unsigned int* ×4)
_CHAR_ANGLE = untyped(pdfium_c.FPDFText_GetCharAngle, ctypes.c_float)  # radians, clockwise; -1: none

# The text object's entry points that ``_merge`` calls for each stretch (the object wrapped
# once as a ``c_void_p``), the same way (with font, font size and matrix, imported above).
_OBJECT_FILL = untyped(pdfium_c.FPDFPageObj_GetFillColor, _INT)  # (object, unsigned int* ×4)
_OBJECT_BOUNDS = untyped(pdfium_c.FPDFPageObj_GetBounds, _INT)  # (object, float* ×4)
_OBJECT_CLIP = untyped(pdfium_c.FPDFPageObj_GetClipPath, _VP)

# Output parameters are passed as addresses (of the probe's buffers, which live as long as
# the process): converting a pointer object costs more than the call itself.
_MATRIX = typed(pdfium_c.FPDFPageObj_GetMatrix, _INT, _VP, _VP)  # FS_MATRIX*
_CLIP_PATHS = typed(pdfium_c.FPDFClipPath_CountPaths, _INT, _VP)
_CLIP_SEGMENTS = typed(pdfium_c.FPDFClipPath_CountPathSegments, _INT, _VP, _INT)
_CLIP_SEGMENT = typed(pdfium_c.FPDFClipPath_GetPathSegment, _VP, _VP, _INT, _INT)
_OBJ_FILL = typed(pdfium_c.FPDFPageObj_GetFillColor, _INT, _VP, _VP, _VP, _VP, _VP)  # unsigned int* ×4
_BOUNDS = typed(pdfium_c.FPDFPageObj_GetBounds, _INT, _VP, _VP, _VP, _VP, _VP)  # float* ×4


class _Probe(pdfium_c.GlyphBuffers):
    """Output buffers reused for every run: allocating them per call cost more than the calls.
    Each ``*_ref`` is the address of its buffer, and ``textpage`` the page's text-page
    handle, as ``c_void_p`` objects (what the per-character entry points take)."""

    def __init__(self) -> None:
        super().__init__()  # the glyph box, the font size, the matrix and the font name
        self.textpage = _VP(0)
        self.page_box: tuple[float, float, float, float] | None = None  # what the page shows
        self.x, self.y = ctypes.c_double(), ctypes.c_double()
        self.x_ref, self.y_ref = address(self.x), address(self.y)
        self.rgba = [ctypes.c_uint() for _ in range(4)]
        self.rgba_refs = [address(c) for c in self.rgba]
        self.bounds = [ctypes.c_float() for _ in range(4)]
        self.bounds_refs = [address(c) for c in self.bounds]
        self.pixels = [ctypes.c_uint(), ctypes.c_uint()]  # an image's width and height
        self.pixels_refs = [address(c) for c in self.pixels]
        self.fx, self.fy = ctypes.c_float(), ctypes.c_float()  # a point of a path
        self.fx_ref, self.fy_ref = address(self.fx), address(self.fy)
        self.gap_probes = 0  # glyph boxes left to measure word gaps with on this page
        self.respelled = False  # a run's text was read again glyph by glyph on this page
        self.tex_chars = 0  # glyphs without Unicode read through a TeX math font's encoding
        self.marked = False  # the page's text marks the spaces inside letter-spaced words


_PROBE = _Probe()  # the extraction child reads one page at a time

GARBLED_IMAGE_SHARE = 0.5  # an image over half the page is a scan (or a page-sized picture)


class _Fonts:
    """Font names by handle: a page has few fonts and many runs."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def name(self, key: int) -> str:
        """The name of the font whose handle ``TEXT_OBJECT_FONT`` gave (0: none)."""
        if key not in self.names:
            # Subset fonts are named ABCDEF+Times-Bold: the tag says nothing to a reader.
            name = _PROBE.font_name(key)
            self.names[key] = name.split("+", 1)[1] if len(name) > 7 and name[6] == "+" else name
        return self.names[key]


def page_evidence(page: Any, textpage: Any, raw: str, image_mode: str = "none",
                  marked: bool = False) -> dict[str, Any]:
    """The evidence of one page from PDFium's raw page and text-page handles (FPDF_PAGE,
    FPDF_TEXTPAGE). ``raw`` is the text page's text as PDFium returned it; ``marked``: with
    the spaces inside letter-spaced words marked (siftpdf.child.spacing)."""
    width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
    tp = _PROBE.textpage = _VP(pdfium_c.handle_of(textpage))
    _PROBE.page_box = _page_box(page)
    _PROBE.gap_probes = MAX_GAP_PROBES
    _PROBE.respelled = False
    _PROBE.tex_chars = 0
    _PROBE.marked = marked
    count = pdfium_c.FPDFText_CountChars(textpage)
    # PDFium marks a line-end hyphen it kept as U+FFFE or 0x02: one character for one, so
    # character indexes stay aligned.
    chars = raw if len(raw) == count else adobe_read("".join(map(chr, map(_UNICODE, repeat(tp, count), range(count)))))
    runs = _runs(tp, chars.replace("\ufffe", "-").replace("\x02", "-").replace("\x00", " "), count)
    image_objects, paths = _page_objects(page)
    found = {
        "width": round(width, 2),
        "height": round(height, 2),
        "rotation": _ROTATIONS.get(pdfium_c.FPDFPage_GetRotation(page), 0),
        "unmapped_chars": sum(r.get("unmapped", 0) for r in runs),
        "lines": _lines(runs),
        "images": _images(image_objects, image_mode),
        "clipped_chars": sum(len(r["text"]) for r in runs if r.get("clipped")),
    }
    found.update(_ruling(paths, [image["rect"] for image in found["images"]]))
    if _PROBE.tex_chars:
        found["tex_math_chars"] = _PROBE.tex_chars
    # The evidence's strings are made encodable here, so that the page's writer need not walk
    # its thousands of numbers: run texts are cut from ``chars`` (or spelled again glyph by
    # glyph); font names, colours and image data are Latin-1 or ASCII.
    if _PROBE.respelled or has_surrogate(chars):
        scrub_record(found)
    return found


def _runs(tp: ctypes.c_void_p, chars: str, count: int) -> list[dict[str, Any]]:
    """Consecutive characters drawn by one text object become one run. Characters PDFium
    generated (line breaks, spaces between objects) have no object and end a run."""
    if count <= 0:
        return []
    fonts = _Fonts()
    clips: dict[int, tuple[float, float, float, float] | None] = {}
    runs: list[dict[str, Any]] = []
    marked = _PROBE.marked
    for start, end, obj, size, scale, font, clip in _merge(tp, _spans(tp, chars, count), chars, clips):
        text = chars[start:end]
        name = fonts.name(font or 0)
        unmapped = -1  # not counted yet
        if (table := tex_encoding(name)) is not None:
            spelled, unmapped = _tex_spelled(tp, text, start, table)
            _PROBE.tex_chars += sum(a != b for a, b in zip(text, spelled, strict=True))
            text = spelled
        elif symbol_font(name):
            text = text.translate(SYMBOL_FONT)
        if not text.isspace():
            run = _make_runs(obj, start, text, name, size, scale, clip)
            unmapped = unmapped if unmapped >= 0 else _unmapped(tp, start, end)
            if unmapped:  # its text is then the font's codes, not characters: OCR may read it again
                run[0]["unmapped"] = unmapped
            if marked and _joined(chars, start + len(text) - len(text.lstrip())):
                # The run goes on with the word before it (a letter-spaced word's letters in
                # another colour or text object): the organized line joins them without a space.
                run[0]["joined"] = True
            runs.extend(run)
    return runs


# A merged stretch: [start, end, first object, its font size, the vertical scale it is drawn at, font
# handle, clip box]: what the run of it needs of its object, looked up once.
if TYPE_CHECKING:
    _Stretch = list[Any]


def _merge(tp: ctypes.c_void_p, spans: list[tuple[int, int, int]], chars: str,
           clips: dict[int, tuple[float, float, float, float] | None]) -> list[_Stretch]:
    """Join stretches of neighbouring text objects that share font, size, colour, baseline and
    clip, and touch (some producers draw every glyph as its own object): a run's properties
    are then looked up once, not per glyph. A generated space between them is kept inside.
    The clip is part of it because a run is tested against its first object's clip: a table
    cell's text merged into its clipped neighbour's run would be dropped as hidden. A font
    whose size is not its glyphs' (``_em_scale``) is given its glyphs' size."""
    probe = _PROBE
    merged: list[_Stretch] = []
    last_key: tuple[Any, ...] | None = None
    right = 0.0
    drawn = probe.drawn
    matrix, size_value, (red, green, blue, _), (left_value, _, right_value, _) = \
        probe.matrix, probe.size, probe.rgba, probe.bounds
    hypot = math.hypot
    ems: dict[int, float] = {}  # font handle -> the factor its size is taken by
    stretch = _LOOPS.stretch if _LOOPS is not None else None
    textpage = tp.value or 0
    for start, end, obj in spans:
        if not obj:
            if chars[start:end] not in (" ", MARK):
                last_key = None  # a line break or a wide generated gap ends any run
            continue
        has_matrix, drawn_ok, font, clip_path = stretch(obj, textpage, start) if stretch is not None else \
            _stretch(obj, tp, start)
        font = font or None
        # The size drawn: the matrix of a form it is drawn in (a chart placed at a fifth of its
        # size) is the character's, not its object's. The object's own, and its bounds, are
        # in the form's space.
        own = hypot(matrix.c, matrix.d) if has_matrix else 1.0
        scale = hypot(drawn.c, drawn.d) if drawn_ok else own
        size, clip = size_value.value, _clip_box(clip_path, clips)
        em = ems.get(font or 0)
        if em is None:
            em, holds = _em_scale(tp, chars, start, end, size * scale)
            if holds:
                ems[font or 0] = em
        size *= em
        key = (font, size, scale, matrix.a, matrix.b, matrix.c, matrix.d, matrix.f,
               red.value, green.value, blue.value, clip)
        left = left_value.value
        if key == last_key and merged and left - right < size * own:
            merged[-1][1] = end
        else:
            merged.append([start, end, obj, size, scale, font, clip])
        last_key, right = key, right_value.value
    return merged


def _stretch(handle: int, tp: ctypes.c_void_p, start: int) -> tuple[int, int, int | None, int]:
    """What :func:`_merge` asks of the text object ``handle`` whose stretch starts at ``start``:
    its font size, matrix, the matrix the character is drawn with, fill colour and bounds, into
    the probe's buffers (a call that fails leaves them as they were); whether it has a matrix,
    whether PDFium tells the character's, its font and clip path handles (None, 0: none). The
    same calls in one in C where it is built (siftpdf/child/_loops.c: its font is 0 for none)."""
    probe, obj = _PROBE, _VP(handle)
    TEXT_OBJECT_FONT_SIZE(obj, probe.size_ref)
    has_matrix = OBJECT_MATRIX(obj, probe.matrix_ref)  # a text object always has one
    drawn = CHAR_MATRIX(tp, start, probe.drawn_ref)
    _OBJECT_FILL(obj, *probe.rgba_refs)
    _OBJECT_BOUNDS(obj, *probe.bounds_refs)
    return has_matrix, drawn, TEXT_OBJECT_FONT(obj), _OBJECT_CLIP(obj) or 0


SIZE_SLACK = 4.0  # a glyph box this many times the font's size: the size is not the glyphs'
EM_SAMPLE = 24  # glyph boxes measured to tell a font's size from its glyphs
EM_HEIGHTS = ((frozenset("ABCDEFGHIKLMNOPRSTUVWXYZbdhkl"), 0.70), (frozenset("acemnorsuvwxz"), 0.46))
EM_OTHER = 0.6  # of an em, the height of a glyph of no known kind (a code)
EM_STEP = 0.5  # points: a size told from glyphs is rounded to this, so that fonts of one size agree


def _em_scale(tp: ctypes.c_void_p, chars: str, start: int, end: int, size: float) -> tuple[float, bool]:
    """The factor that makes a font's ``size`` its glyphs' em (1.0 but where the glyphs stand
    far taller than it says: a Type 3 font's own matrix, which PDFium leaves out of the size,
    as in a dvips bitmap font set at 0.24 point), and whether it holds for the font. Measured
    from the glyphs' tight boxes: capitals and ascenders stand about 0.7 em tall in Latin type
    (a scale that holds for the font), the x-height about 0.46 em, other glyphs about 0.6 (for
    this stretch alone). A stretch of spaces tells nothing."""
    if not size > 0:  # no size to take (a text matrix with no height, a size of 0: a hostile page)
        return 1.0, False
    first = next((i for i in range(start, end) if not chars[i].isspace()), -1)
    if first < 0:
        return 1.0, False
    rect = _PROBE.rect
    if not LOOSE_CHAR_BOX(tp, first, _PROBE.rect_ref) or abs(rect.top - rect.bottom) <= SIZE_SLACK * size:
        return 1.0, True
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    heights: dict[str, list[float]] = {}
    for index in range(first, min(end, first + EM_SAMPLE)):
        if not chars[index].isspace() and _CHAR_BOX(tp, index, left, right, bottom, top):
            heights.setdefault(chars[index], []).append(top.value - bottom.value)
    for letters, share in (*EM_HEIGHTS, (None, EM_OTHER)):
        told = sorted(h for char, found in heights.items() if letters is None or char in letters for h in found)
        if told:
            em = max(EM_STEP, round(told[len(told) // 2] / share / EM_STEP) * EM_STEP)
            return em / size, share == EM_HEIGHTS[0][1]
    return 1.0, False


_CHAR_BOX = pdfium_c.FPDFText_GetCharBox  # (text page, index, double* left, right, bottom, top)


def _spans(tp: ctypes.c_void_p, chars: str, count: int) -> list[tuple[int, int, int]]:
    """(start, end, object) for each stretch of characters drawn by one text object.

    A text object's characters are contiguous in the text page, so the end of a stretch is
    found by bisection between its start and a character of another object: most objects
    draw the rest of a line, so the character before the next line break is asked first
    (then two calls settle the stretch); otherwise galloping finds such a character, about
    2·log2(n) calls for n characters instead of n. Around a line break (PDFium's generated
    CR LF) the characters are checked one by one.

    PDFium reorders a line holding right-to-left script (Unicode's bidirectional algorithm):
    an object's characters may then be apart, and only galloping from each start is used.
    Without such script, the same in C where it is built (siftpdf/child/_loops.c)."""
    right_to_left = has_right_to_left(chars)
    if _LOOPS is not None and not right_to_left:
        found: list[tuple[int, int, int]] = _LOOPS.spans(tp.value or 0, chars, count)
        return found
    spans: list[tuple[int, int, int]] = []
    if right_to_left:
        start = 0
        while start < count:
            obj = CHAR_TEXT_OBJECT(tp, start) or 0
            other = _gallop(tp, chars, start, obj, count)
            spans.append((start, other, obj))
            start = other
        return spans
    start = 0
    line_end = -1  # the next line break at or after ``start`` (or ``count``)
    known: dict[int, int] = {}  # objects of characters already asked for, on this line
    while start < count:
        obj = known[start] if start in known else (CHAR_TEXT_OBJECT(tp, start) or 0)
        if "\n" in chars[start:start + 2]:
            other = start + 1
            while other < count:
                if other not in known:
                    known[other] = CHAR_TEXT_OBJECT(tp, other) or 0
                if known[other] != obj:
                    break
                other += 1
        else:
            if line_end < start:
                line_end = _next_break(chars, start, count)
                known = {}
            other = _stretch_end(tp, start, obj, line_end, count, known) if obj else -1
            if other < 0:
                other = _gallop(tp, chars, start, obj, count)
        spans.append((start, other, obj))
        start = other
    return spans


def _stretch_end(tp: ctypes.c_void_p, start: int, obj: int, line_end: int, count: int, known: dict[int, int]) -> int:
    """Where the stretch of ``obj`` from ``start`` ends when it ends on this line (up to
    ``line_end``), or -1: bisection between ``start`` and the first character found on the
    way to the line's end that another object drew."""
    if line_end - start <= 1:
        return -1
    last = line_end - 1
    if last not in known:
        known[last] = CHAR_TEXT_OBJECT(tp, last) or 0
    if known[last] == obj:
        if line_end == count:
            return count
        if line_end not in known:
            known[line_end] = CHAR_TEXT_OBJECT(tp, line_end) or 0
        return line_end if known[line_end] != obj else -1
    return _bisect(tp, obj, start, last)


def _bisect(tp: ctypes.c_void_p, obj: int, same: int, other: int) -> int:
    """The first character from ``same`` (drawn by ``obj``) to ``other`` (not, or the end)
    that ``obj`` did not draw, by bisection."""
    while other - same > 1:
        middle = (same + other) // 2
        if (CHAR_TEXT_OBJECT(tp, middle) or 0) == obj:
            same = middle
        else:
            other = middle
    return other


def _gallop(tp: ctypes.c_void_p, chars: str, start: int, obj: int, count: int) -> int:
    """The end of the stretch of ``obj`` from ``start`` by galloping, then bisection. A
    stretch that would swallow a line break is checked character by character instead."""
    same, step = start, 1
    while same + step < count and (CHAR_TEXT_OBJECT(tp, same + step) or 0) == obj:
        same += step
        step *= 2
    other = _bisect(tp, obj, same, min(same + step, count))
    if "\n" in chars[start:other] and other - start > 1:
        other = start + 1
        while other < count and (CHAR_TEXT_OBJECT(tp, other) or 0) == obj:
            other += 1
    return other


# Characters of right-to-left scripts, and the marks that make text right-to-left (a superset
# of the strong right-to-left characters of the Basic Multilingual Plane, and beyond it), as
# ranges of code points, first to last.
RIGHT_TO_LEFT = (("\u0590", "\u08ff"), ("\u200f", "\u200f"), ("\u202b", "\u202b"), ("\u202e", "\u202e"),
                 ("\u2067", "\u2067"), ("\ufb1d", "\ufdff"), ("\ufe70", "\ufeff"),
                 ("\U00010800", "\U00010fff"), ("\U0001e800", "\U0001efff"))


def has_right_to_left(chars: str) -> bool:
    """Whether ``chars`` holds a character of :data:`RIGHT_TO_LEFT`: each distinct character
    past U+058F is looked up (a page has few), the rest of the page at the codec's speed."""
    if chars.isascii():
        return False
    return any(first <= char <= last for char in set(chars) if char >= "\u0590" for first, last in RIGHT_TO_LEFT)


def _joined(chars: str, first: int) -> bool:
    """Whether the character before ``first`` is a marked space (siftpdf.child.spacing): the run
    from ``first`` goes on with the word before it."""
    return first > 0 and chars[first - 1] == MARK


def _next_break(chars: str, start: int, count: int) -> int:
    """The index of the first CR or LF at or after ``start`` (PDFium ends a line with both,
    generated: no object drew them), or ``count``."""
    cr, lf = chars.find("\r", start, count), chars.find("\n", start, count)
    if cr < 0:
        return lf if lf >= 0 else count
    return cr if lf < 0 else min(cr, lf)


def _tex_spelled(tp: ctypes.c_void_p, text: str, start: int, table: dict[int, str]) -> tuple[str, int]:
    """``text``, drawn from ``start`` in a TeX math font, with each glyph PDFium could not map
    read through the font's encoding (siftpdf.texfonts): one character for one. Also how
    many glyphs had no map (every one probed: the run is short, and the count exact)."""
    spelled = list(text)
    unmapped = 0
    for offset in range(len(text)):
        if _HAS_MAP_ERROR(tp, start + offset) == 1:
            unmapped += 1
            spelled[offset] = table.get(_UNICODE(tp, start + offset), text[offset])
    return "".join(spelled), unmapped


def _unmapped(tp: ctypes.c_void_p, start: int, end: int) -> int:
    """Glyphs with no Unicode mapping. A font either has a usable map or not, so probing the
    ends of a run finds a broken one; only then is every glyph counted."""
    if _HAS_MAP_ERROR(tp, start) != 1 and _HAS_MAP_ERROR(tp, end - 1) != 1:
        return 0
    return sum(map(_HAS_MAP_ERROR, repeat(tp, end - start), range(start, end)))


def _make_runs(handle: int, start: int, text: str, font: str, font_size: float, scale: float,
               own: tuple[float, float, float, float] | None) -> list[dict[str, Any]]:
    """One run (or, under a clip, the shown and hidden parts of it) of the characters from
    ``start`` drawn by the object ``handle``, whose font, size, matrix scale and clip box
    ``_merge`` looked up. Written out flat: this runs about a hundred times a page."""
    probe = _PROBE
    tp = probe.textpage
    stripped = text.strip()
    # Leading and trailing spaces have no useful box: measure the visible characters.
    first = start + len(text) - len(text.lstrip())
    last = first + len(stripped) - 1
    x0, y0, x1, y1, filled = _LOOPS.run_box(tp.value or 0, first, last) if _LOOPS is not None else \
        _run_box(tp, first, last)
    color = "#000000"
    if filled:
        red, green, blue, _ = probe.rgba
        rgb = (red.value, green.value, blue.value)
        color = _COLOR_NAMES.get(rgb) or _color_name(rgb)
    size = round(font_size * (scale or 1.0), 2)
    run = {"text": stripped, "font": font, "size": size,
           "color": color, "box": [round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)],
           "y": round(probe.y.value, 2)}
    if last != first and y1 - y0 > 2 * size:  # taller than a line: the glyphs climb or fall
        angle = _angle(tp, first, last)
        if angle:
            run["angle"] = angle  # a watermark or a rotated label: a line of its own
    elif last == first and x1 - x0 > LYING * (y1 - y0):  # one glyph, its box maybe on its side
        angle = _glyph_angle(tp, first)
        if angle:
            run["angle"] = angle  # a turned table's glyph drawn alone: the page turns with the others
    clip = _shown_box(own, probe.page_box)
    if clip is not None and not _inside([x0, y0, x1, y1], clip):
        split = _split_clipped(run, handle, first, last, clip, own is not None)
        if len(split) != 1 or split[0] is not run:
            return split
    if " " in stripped and "angle" not in run:
        gaps = _gaps(tp, first, stripped, size)
        if gaps:
            run["gaps"] = gaps
    if probe.marked and MARK in stripped:
        _unmark(run)
    return [run]


def _run_box(tp: ctypes.c_void_p, first: int, last: int) -> tuple[float, float, float, float, int]:
    """The box of a run's glyphs from ``first`` to ``last`` (the union of theirs), and whether
    the first has a fill colour; its origin and colour are left in the probe's buffers. The
    same calls in one in C where it is built (siftpdf/child/_loops.c)."""
    probe = _PROBE
    rect, rect_ref = probe.rect, probe.rect_ref
    LOOSE_CHAR_BOX(tp, first, rect_ref)
    x0, y0, x1, y1 = rect.left, rect.bottom, rect.right, rect.top
    if last != first:
        LOOSE_CHAR_BOX(tp, last, rect_ref)
        left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
        # min() and max() of two, written out (a NaN keeps the first, as they do)
        x0, y0 = (left if left < x0 else x0), (bottom if bottom < y0 else y0)
        x1, y1 = (right if right > x1 else x1), (top if top > y1 else y1)
    _ORIGIN(tp, first, probe.x_ref, probe.y_ref)
    return x0, y0, x1, y1, _FILL(tp, first, *probe.rgba_refs)


def _unmark(run: dict[str, Any]) -> None:
    """Drop the marks of spaces that part no words (siftpdf.child.spacing) from a run's text;
    its wide gaps' offsets move back by the marks before them."""
    text = run["text"]
    for gap in run.get("gaps", ()):
        gap[0] -= text.count(MARK, 0, gap[0])
    run["text"] = text.replace(MARK, "")


_COLOR_NAMES: dict[tuple[int, int, int], str] = {}


def _color_name(rgb: tuple[int, int, int]) -> str:
    """``#rrggbb``, remembered: a page has few colours and many runs (at most 4096 are kept)."""
    if len(_COLOR_NAMES) >= 4096:
        _COLOR_NAMES.clear()
    name = _COLOR_NAMES[rgb] = "#{:02x}{:02x}{:02x}".format(*rgb)
    return name


def _inside(box: list[float], clip: tuple[float, float, float, float]) -> bool:
    return box[0] >= clip[0] - 1 and box[2] <= clip[2] + 1 and box[1] >= clip[1] - 1 and box[3] <= clip[3] + 1


def _page_box(page: Any) -> tuple[float, float, float, float] | None:
    """The part of user space the page shows (its crop box within its media box): text drawn
    outside it (the facing page of a spread, a layer left beside the sheet) is never seen."""
    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDF_GetPageBoundingBox(page, rect):
        return None
    return (min(rect.left, rect.right), min(rect.bottom, rect.top), max(rect.left, rect.right),
            max(rect.bottom, rect.top))


def _shown_box(clip: tuple[float, float, float, float] | None,
               page: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
    """The object's clip box cut to the page box: a glyph outside either is hidden."""
    if clip is None or page is None:
        return clip or page
    return (max(clip[0], page[0]), max(clip[1], page[1]), min(clip[2], page[2]), min(clip[3], page[3]))

GAP_EM = 0.8  # ems between two glyphs either side of a space: wider may part two table cells
SHORT_GAP_EM = 0.7  # ... in a run of a few words (``SHORT_RUN_SPACES``): two heads drawn as one, padded apart
SHORT_RUN_SPACES = 2  # spaces of such a run, at most (a justified line's spaces are many, and all wide)
FIGURE_GAP_EM = 0.5  # ... between two figures (a table's columns of numbers, set close)
FIGURE_ENDS = frozenset("0123456789)%")  # how a figure ends: '1,144', '(32.6–42.6)', '12%'
FIGURE_STARTS = frozenset("0123456789($−-–.")  # how one starts: '(32.6', '$9,600', '−0.6', '.25'
MAX_GAP_PROBES = 8000  # glyph boxes measured per page for gaps; past them runs are kept whole
_FIGURE_ENDS, _FIGURE_STARTS = "".join(sorted(FIGURE_ENDS)), "".join(sorted(FIGURE_STARTS))  # as the C loop takes them


def _gaps(tp: ctypes.c_void_p, first: int, text: str, size: float) -> list[list[float]]:
    """Wide spaces inside a run: ``[offset, x1, x0]`` for a space at ``offset`` of the text
    with the glyph before it ending at ``x1`` and the one after it starting at ``x0``. One text
    object may draw a whole table row, its cells parted by positioned spaces; a justified
    line's spaces are wide too, so the run is not split here (that is the reader's choice).
    Wide is ``GAP_EM`` (``SHORT_GAP_EM`` in a run of a few words: a browser's heads of two
    cells padded by half an em each, drawn as one run), or ``FIGURE_GAP_EM`` between two figures
    (columns of numbers set close).
    Two glyph boxes a space (one when the word before it is one glyph long: its box is still
    in the buffer), at most ``MAX_GAP_PROBES`` a page. The same loop in C where it is built
    (siftpdf/child/_loops.c), else in Python."""
    probe = _PROBE
    wide = (SHORT_GAP_EM if text.count(" ") <= SHORT_RUN_SPACES else GAP_EM) * size
    if _LOOPS is not None:
        found, probe.gap_probes = _LOOPS.gaps(tp.value or 0, first, text, wide, FIGURE_GAP_EM * size,
                                              probe.gap_probes, _FIGURE_ENDS, _FIGURE_STARTS, probe.rect_ref.value)
        return [[index, round(right, 2), round(left, 2)] for index, right, left in found]
    budget = probe.gap_probes
    rect, ref = probe.rect, probe.rect_ref
    narrow = FIGURE_GAP_EM * size
    length = len(text)
    out: list[list[float]] = []
    held, held_ok = -1, 0  # the glyph whose box the buffer holds, and whether it was measured
    index = text.find(" ")
    while index > 0:
        end = index + 1  # past the spaces from ``index``
        while end < length and text[end] == " ":
            end += 1
        if end >= length or budget <= 0:
            break
        budget -= 2
        ok = held_ok if index - 1 == held else LOOSE_CHAR_BOX(tp, first + index - 1, ref)
        held = -1
        if ok:
            right = rect.right
            held, held_ok = end, LOOSE_CHAR_BOX(tp, first + end, ref)
            if held_ok and ((gap := rect.left - right) >= wide or gap >= narrow and
                            text[index - 1] in FIGURE_ENDS and text[end] in FIGURE_STARTS):
                out.append([index, round(right, 2), round(rect.left, 2)])
        index = text.find(" ", end)
    probe.gap_probes = budget
    return out



def _in_page_space(handle: int, first: int, size: float) -> bool:
    """Whether the object's own coordinates are the page's. Inside a form XObject (a figure
    placed with a scale or a shift) the clip path is in the form's space while the glyph boxes
    are in the page's: they cannot be compared, and the text is kept rather than guessed
    hidden. The object's bounds are in its own space: they hold its first glyph only there."""
    probe = _PROBE
    if not _BOUNDS(handle, *probe.bounds_refs):
        return False
    left, bottom, right, top = (b.value for b in probe.bounds)
    box = _loose_box(probe.textpage, first)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    pad = max(2.0, size)
    return left - pad <= cx <= right + pad and bottom - pad <= cy <= top + pad


def _angle(tp: ctypes.c_void_p, first: int, last: int) -> int:
    """Degrees from the first character's origin to the last's (0 for horizontal text)."""
    probe = _PROBE
    _ORIGIN(tp, first, probe.x_ref, probe.y_ref)
    x, y = probe.x.value, probe.y.value
    _ORIGIN(tp, last, probe.x_ref, probe.y_ref)
    dx, dy = probe.x.value - x, probe.y.value - y
    return round(math.degrees(math.atan2(dy, dx))) % 360 if abs(dy) > 1.0 else 0


# A glyph's box wider than this share of its height may lie on its side (turned, a glyph's box
# is as wide as its type is high, and as tall as its advance); a narrower one stands upright.
LYING = 0.6


def _glyph_angle(tp: ctypes.c_void_p, index: int) -> int:
    """Degrees a glyph drawn alone is turned, counterclockwise as :func:`_angle` measures a
    run (90: it reads up the page), when it stands nearer upright than flat (0 otherwise):
    one glyph has no second origin to measure its run by."""
    radians = _CHAR_ANGLE(tp, index)
    if radians < 0:
        return 0
    angle = round(-math.degrees(radians)) % 360
    return angle if 45 < angle % 180 < 135 else 0


def _loose_box(tp: ctypes.c_void_p, index: int) -> list[float]:
    LOOSE_CHAR_BOX(tp, index, _PROBE.rect_ref)
    rect = _PROBE.rect
    return [rect.left, rect.bottom, rect.right, rect.top]


def _union(a: list[float], b: list[float]) -> list[float]:
    return [round(min(a[0], b[0]), 2), round(min(a[1], b[1]), 2), round(max(a[2], b[2]), 2),
            round(max(a[3], b[3]), 2)]


def _clip_box(key: int, cache: dict[int, Any]) -> tuple[float, float, float, float] | None:
    """The bounding box of an object's clip path (``key``, its handle: 0 for none), or None when
    it has none worth testing."""
    if not key:
        return None
    if key in cache:
        return cache[key]
    xs: list[float] = []
    ys: list[float] = []
    probe = _PROBE
    fx, fy, fx_ref, fy_ref = probe.fx, probe.fy, probe.fx_ref, probe.fy_ref
    for path in range(max(0, _CLIP_PATHS(key))):
        for index in range(max(0, _CLIP_SEGMENTS(key, path))):
            segment = _CLIP_SEGMENT(key, path, index)
            if segment and _POINT(segment, fx_ref, fy_ref):
                xs.append(fx.value)
                ys.append(fy.value)
    cache[key] = (min(xs), min(ys), max(xs), max(ys)) if xs else None
    return cache[key]


def _split_clipped(run: dict[str, Any], handle: int, first: int, last: int,
                   clip: tuple[float, float, float, float], own_clip: bool = True) -> list[dict[str, Any]]:
    """Split a run into what its clip shows and what it hides (a glyph of which less than a
    quarter lies inside the clip box is hidden: a running head half cut by the page's edge is
    still read). Rare, so per-character boxes are affordable here."""
    x0, y0, x1, y1 = clip
    box = run["box"]
    if box[0] >= x0 - 1 and box[2] <= x1 + 1 and box[1] >= y0 - 1 and box[3] <= y1 + 1:
        return [run]
    # The page box is in page space, as glyph boxes are; an object's own clip may not be.
    if own_clip and not _in_page_space(handle, first, run["size"]):
        return [run]
    pieces: list[dict[str, Any]] = []
    _PROBE.respelled = True
    for index in range(first, last + 1):
        cbox = list(_loose_box(_PROBE.textpage, index))
        hidden = _shown_share(cbox, clip) < SHOWN_SHARE
        ch = run["text"][index - first]  # as read above (a TeX or Symbol font's code spelled)
        ch = " " if ch == MARK else ch
        if pieces and bool(pieces[-1].get("clipped")) == hidden:
            pieces[-1]["text"] += ch
            pieces[-1]["box"] = _union(pieces[-1]["box"], cbox)
        else:
            piece = dict(run, text=ch, box=_union(cbox, cbox))
            if hidden:
                piece["clipped"] = True
            pieces.append(piece)
    for piece in pieces:
        piece["text"] = piece["text"].strip()
    return [p for p in pieces if p["text"]]


SHOWN_SHARE = 0.25


def _shown_share(box: list[float], clip: tuple[float, float, float, float]) -> float:
    """The share of a glyph's box inside the clip box (by its centre for a box of no area)."""
    width, height = box[2] - box[0], box[3] - box[1]
    if width <= 0 or height <= 0:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return 1.0 if clip[0] <= cx <= clip[2] and clip[1] <= cy <= clip[3] else 0.0
    across = max(0.0, min(box[2], clip[2]) - max(box[0], clip[0])) / width
    up = max(0.0, min(box[3], clip[3]) - max(box[1], clip[1])) / height
    return across * up


def _lines(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Group runs into lines by baseline and size (not by glyph boxes: a tall math glyph must
    not swallow its neighbours). Smaller runs just off a baseline (superscripts, footnote
    marks) join the line they sit on. Lines come top to bottom, runs left to right."""
    lines: list[dict[str, Any]] = []
    for run in sorted(runs, key=lambda r: -r["y"]):
        home = None
        y, size = run["y"], run["size"]
        # Rotated text is a line of its own; a glyph drawn alone keeps its baseline's line
        # (its angle tells a turned page, :func:`siftpdf.organize.turned.turn_of`).
        turned = "angle" in run and len(run["text"]) > 1
        if not turned:
            for line in reversed(lines[-8:]):  # sorted by baseline: only recent lines can match
                line_size = line["size"]
                if abs(line["y"] - y) <= 0.25 * line_size and abs(line_size - size) <= 0.15 * line_size and \
                        not line.get("rotated"):
                    home = line
                    break
        if home is None:
            lines.append({"y": run["y"], "size": run["size"], "runs": [run]})
            if turned:  # rotated text crosses the baselines of the lines around it
                lines[-1]["rotated"] = True
        else:
            home["runs"].append(run)
    lines = _join_drop_caps(_attach_small(lines))
    for line in lines:
        line["runs"].sort(key=lambda r: r["box"][0])
        for run in line["runs"]:
            if abs(run["y"] - line["y"]) < 0.01:
                del run["y"]  # the line's baseline says it; keep the offset of raised runs only
    lines.sort(key=lambda ln: (-ln["y"], ln["runs"][0]["box"][0]))
    return lines


def _attach_small(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A line of smaller text raised or lowered by less than its neighbour's size, and lying
    within that neighbour's horizontal extent, is a superscript or subscript of it. When only
    some of its runs lie there (small capitals beside their capitals, on a baseline shared with
    a note or caption in the next column), those runs join the neighbour, and the rest stay."""
    kept: list[dict[str, Any]] = []
    icons = _icons(lines)
    for index, line in enumerate(lines):
        host, part = None, None
        size = line["size"]
        for other in lines[max(0, index - 3):index + 4] if not line.get("rotated") else ():
            if other is line or size >= 0.85 * other["size"] or other.get("absorbed") or \
                    other.get("rotated") or _drop_cap(other, line) or id(other) in icons and _long(line):
                continue
            offset = line["y"] - other["y"]
            if not -0.35 * other["size"] <= offset <= 0.6 * other["size"]:
                continue
            touches = _Reach(other)
            touching = [r for r in line["runs"] if touches(r)]
            if len(touching) == len(line["runs"]):
                host = other
                break
            if part is None and touching:
                part = other, touching
        if host is not None:
            host["runs"].extend(line["runs"])
            line["absorbed"] = True
            continue
        if part is not None:
            other, touching = part
            other["runs"].extend(touching)
            moved = {id(r) for r in touching}
            line["runs"] = [r for r in line["runs"] if id(r) not in moved]
        kept.append(line)
    return kept


DROP_CAP = 2.5  # a drop cap is set this many times the size of the lines beside it, or more


def _join_drop_caps(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A drop cap (one letter set several lines tall) is the first letter of the top line it
    stands beside: it becomes that line's first run, set in the line's size, so the word reads
    whole ('I' + 'ndia' is 'India') and the letter is no line of its own."""
    kept: list[dict[str, Any]] = []
    for index, line in enumerate(lines):
        runs = line["runs"]
        if len(runs) != 1 or len(runs[0]["text"].strip()) != 1 or not runs[0]["text"].strip().isalpha() or \
                line.get("rotated"):
            kept.append(line)
            continue
        cap = runs[0]
        x1, bottom, top = cap["box"][2], cap["box"][1], cap["box"][3]
        reach = x1 + 0.5 * line["size"]  # the line starts just right of the cap
        beside = [other for other in lines[max(0, index - 8):index + 9]
                  if other is not line and not other.get("rotated") and DROP_CAP * other["size"] <= line["size"]
                  and bottom <= other["y"] <= top and x1 - 1 <= min(r["box"][0] for r in other["runs"]) <= reach]
        if not beside:
            kept.append(line)
            continue
        host = max(beside, key=lambda other: other["y"])
        first = min(host["runs"], key=lambda r: r["box"][0])
        box = [cap["box"][0], first["box"][1], first["box"][0], first["box"][3]]
        host["runs"].append(dict(cap, size=host["size"], y=host["y"], box=box))
    return kept


def _drop_cap(host: dict[str, Any], small: dict[str, Any]) -> bool:
    """A letter set several lines tall (a drop cap) does not take the lines beside it as its
    superscripts: they are under half its size and longer than it."""
    chars = sum(len(r["text"]) for r in host["runs"])
    return small["size"] < 0.5 * host["size"] and sum(len(r["text"]) for r in small["runs"]) > chars


ICON_TEXT = 12  # characters of a line beside a symbol set large that are text, not the symbol's scripts


def _long(line: dict[str, Any]) -> bool:
    return sum(len(r["text"].strip()) for r in line["runs"]) >= ICON_TEXT


def _icons(lines: list[dict[str, Any]]) -> set[int]:
    """The lines (by id) that are a symbol set large in the margin of text (a caution sign's
    '!': a character or two, no letter or digit) with two lines of text (``ICON_TEXT``
    characters or more) on baselines a line apart within reach, as its scripts would be: they
    are lines of their own, not its scripts. (A bracket drawn large beside one line of a
    formula, or a sum's limits, a few characters above and below, are its scripts.)"""
    found: set[int] = set()
    for index, host in enumerate(lines):
        if len(host["runs"]) > 2:
            continue  # a line of words, not a sign
        text = "".join(r["text"] for r in host["runs"]).strip()
        if len(text) > 2 or any(char.isalnum() for char in text) or host.get("rotated"):
            continue
        big = host["size"]
        touches = _Reach(host)
        beside = [other for other in lines[max(0, index - 3):index + 4]
                  if other is not host and other["size"] < 0.85 * big and not other.get("rotated") and _long(other)
                  and -0.35 * big <= other["y"] - host["y"] <= 0.6 * big and any(map(touches, other["runs"]))]
        ys = [other["y"] for other in beside]
        if ys and max(ys) - min(ys) >= 0.8 * min(other["size"] for other in beside):
            found.add(id(host))
    return found


class _Reach:
    """Does a run touch (within the line's size) some run of ``line``? Asked of many runs, in
    log time each: the line's runs sorted by their left edges, with the furthest right edge
    reached by each prefix of them."""

    def __init__(self, line: dict[str, Any]) -> None:
        pad = line["size"]
        spans = sorted((r["box"][0] - pad, r["box"][2] + pad) for r in line["runs"])
        self.lefts = [left for left, _ in spans]
        self.reach: list[float] = []
        furthest = -math.inf
        for _, right in spans:
            furthest = right if right > furthest else furthest
            self.reach.append(furthest)

    def __call__(self, run: dict[str, Any]) -> bool:
        count = bisect_right(self.lefts, run["box"][2])  # the runs that start left of its end
        return count > 0 and self.reach[count - 1] >= run["box"][0]


_ROTATIONS = {0: 0, 1: 90, 2: 180, 3: 270}


def page_images(page: int) -> list[dict[str, Any]]:
    """The images of a page (also inside forms), without their bytes."""
    return _images(_page_objects(page)[0], "none")


def _images(objects: list[tuple[int, _Matrix | None]], image_mode: str) -> list[dict[str, Any]]:
    """Each image object's box (in page space: PDFium gives an image inside a form in the
    form's own space) and size in pixels (zeros where PDFium cannot tell)."""
    probe = _PROBE
    bounds, bounds_refs, (width, height), (width_ref, height_ref) = \
        probe.bounds, probe.bounds_refs, probe.pixels, probe.pixels_refs
    images = []
    for obj, form in objects:
        rect = [0.0, 0.0, 0.0, 0.0]
        if _BOUNDS(obj, *bounds_refs):
            box = tuple(b.value for b in bounds)
            rect = [round(v, 2) for v in (box if form is None else _box_in(form, box))]
        pixels = [width.value, height.value] if _PIXEL_SIZE(obj, width_ref, height_ref) else [0, 0]
        image: dict[str, Any] = {"rect": rect, "pixels": pixels}
        if image_mode == "embedded":
            image.update(_image_bytes(obj))
        images.append(image)
    return images


_PIXEL_SIZE = typed(pdfium_c.FPDFImageObj_GetImagePixelSize, _INT, _VP, _VP, _VP)  # unsigned int* ×2


_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
MAX_PATHS = 5000  # path objects on one page: more is a chart, a map or a pattern, not ruling
FORM_DEPTH = 64  # form XObjects opened per page


def _page_objects(page: Any) -> tuple[list[tuple[int, _Matrix | None]], list[tuple[int, _Matrix] | None]]:
    """Image objects and path objects, also inside form XObjects, walked once with raw
    handles (the object wrappers cost more than the rest of the page's evidence on a
    text-heavy page). A path comes with the matrix of the forms around it, page space being
    the identity, and an image with that matrix or None on the page itself; past
    ``MAX_PATHS`` the path list ends in None: ruling is skipped."""
    images: list[tuple[int, _Matrix | None]] = []
    paths: list[tuple[int, _Matrix] | None] = []
    stack: list[tuple[Any, _Matrix | None]] = [(page, None)]
    forms_left = FORM_DEPTH
    probe = _PROBE
    path_kind, image_kind = pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE
    while stack and forms_left:
        parent, form = stack.pop()
        forms_left -= 1
        count, get = (_FORM_COUNT(parent), _FORM_OBJECT) if form else (_PAGE_COUNT(parent), _PAGE_OBJECT)
        for index in range(count):
            obj = get(parent, index) or 0
            kind = _OBJECT_TYPE(obj)
            if kind == path_kind:
                if len(paths) < MAX_PATHS:
                    paths.append((obj, form or _IDENTITY))
                elif paths[-1] is not None:
                    paths.append(None)
            elif kind == image_kind:
                images.append((obj, form))
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM:
                inner = _IDENTITY
                if _MATRIX(obj, probe.matrix_ref):
                    m = probe.matrix
                    inner = (m.a, m.b, m.c, m.d, m.e, m.f)
                stack.append((obj, _compose(inner, form or _IDENTITY)))
    return images, paths


# The object walk's entry points (handles as integers; the page as PDFium's pointer object).
_PAGE_COUNT = typed(pdfium_c.FPDFPage_CountObjects, _INT, _VP)
_PAGE_OBJECT = typed(pdfium_c.FPDFPage_GetObject, _VP, _VP, _INT)
_FORM_COUNT = typed(pdfium_c.FPDFFormObj_CountObjects, _INT, _VP)
_FORM_OBJECT = typed(pdfium_c.FPDFFormObj_GetObject, _VP, _VP, ctypes.c_ulong)
_OBJECT_TYPE = typed(pdfium_c.FPDFPageObj_GetType, _INT, _VP)


def _box_in(matrix: _Matrix, box: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The page-space box round ``box`` ([left, bottom, right, top]) drawn through ``matrix``."""
    a, b, c, d, e, f = matrix
    xs, ys = [], []
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            xs.append(a * x + c * y + e)
            ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def _compose(inner: _Matrix, outer: _Matrix) -> _Matrix:
    """The matrix that applies ``inner`` first, then ``outer`` (PDF row-vector convention)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


# --- ruling -----------------------------------------------------------------------------------

MAX_SEGMENTS = 10000  # path segments read on one page before the ruling is given up
RULE_THIN = 2.5  # points: a filled or stroked shape this thin is a rule
RULE_MIN = 3.0  # points: a shorter stroke is a tick, a bullet or a glyph part
AXIS_SLACK = 0.6  # points a rule may lean over its length and still be straight
_DRAW_MODE = typed(pdfium_c.FPDFPath_GetDrawMode, _INT, _VP, _VP, _VP)  # int* ×2
_COUNT_SEGMENTS = typed(pdfium_c.FPDFPath_CountSegments, _INT, _VP)
_POINT = typed(pdfium_c.FPDFPathSegment_GetPoint, _INT, _VP, _VP, _VP)  # float* ×2


class _SegmentHandle(ctypes.c_void_p):
    """A path segment as ctypes returns it, an object (a ``c_void_p`` subclass is not turned
    into an integer): it goes as it is to the segment's three per-segment entry points."""


_SEGMENT = typed(pdfium_c.FPDFPath_GetPathSegment, _SegmentHandle, _VP, _INT)
_SEGMENT_POINT = untyped(pdfium_c.FPDFPathSegment_GetPoint, _INT)  # (segment, float*, float*)
_SEGMENT_TYPE = untyped(pdfium_c.FPDFPathSegment_GetType, _INT)
_SEGMENT_CLOSE = untyped(pdfium_c.FPDFPathSegment_GetClose, _INT)
_MOVETO, _LINETO, _BEZIERTO = pdfium_c.FPDF_SEGMENT_MOVETO, pdfium_c.FPDF_SEGMENT_LINETO, pdfium_c.FPDF_SEGMENT_BEZIERTO
CURVED_PATH = 16  # segments: a path longer than this that curves is a drawing, not ruling


class _Ruler:
    """Buffers for the path calls, and the rules found so far (deduplicated: a cell border is
    often drawn by both neighbours)."""

    def __init__(self) -> None:
        self.fill, self.stroke = _INT(), _INT()
        self.fill_ref, self.stroke_ref = address(self.fill), address(self.stroke)
        self.fx, self.fy = ctypes.c_float(), ctypes.c_float()
        self.fx_ref, self.fy_ref = address(self.fx), address(self.fy)
        self.rules: dict[tuple[float, float, float, float], None] = {}
        self.segments = 0

    def add(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """A straight stroke from (x0, y0) to (x1, y1) in page space, kept when it runs along
        an axis and is long enough to rule something (a NaN fails every test; an infinite
        end is checked for only then)."""
        if abs(y1 - y0) <= AXIS_SLACK and abs(x1 - x0) >= RULE_MIN:
            if not all(map(math.isfinite, (x0, y0, x1, y1))):
                return
            y = round((y0 + y1) / 2, 2)
            self.rules[(round(min(x0, x1), 2), y, round(max(x0, x1), 2), y)] = None
        elif abs(x1 - x0) <= AXIS_SLACK and abs(y1 - y0) >= RULE_MIN:
            if not all(map(math.isfinite, (x0, y0, x1, y1))):
                return
            x = round((x0 + x1) / 2, 2)
            self.rules[(x, round(min(y0, y1), 2), x, round(max(y0, y1), 2))] = None

    def bar(self, left: float, bottom: float, right: float, top: float) -> bool:
        """A shape no thicker than a rule, by its bounds: the rule along its middle (True); a
        thicker one is no rule (False)."""
        if min(right - left, top - bottom) > RULE_THIN:
            return False
        if right - left >= top - bottom:
            self.add(left, (bottom + top) / 2, right, (bottom + top) / 2)
        else:
            self.add((left + right) / 2, bottom, (left + right) / 2, top)
        return True


def _ruling(paths: list[tuple[int, _Matrix] | None], images: list[list[float]]) -> dict[str, Any]:
    """Horizontal and vertical rules drawn by path objects (the evidence's ``rules``): thin filled
    or stroked shapes by their bounds (one call), other paths by their straight segments; and
    by images stretched into a bar (one pixel stretched, as some TeX drivers and word
    processors draw a table's borders). A page over ``MAX_PATHS`` objects or ``MAX_SEGMENTS``
    segments is a drawing: its ruling is skipped and said so, and the page costs no more."""
    if paths and paths[-1] is None:
        return {"rules": [], "rules_skipped": True}
    ruler = _Ruler()
    try:
        for handle, form in paths:  # type: ignore[misc]
            _rule_path(ruler, handle, form)
            if ruler.segments > MAX_SEGMENTS:
                return {"rules": [], "rules_skipped": True}
    except (ValueError, OverflowError, ctypes.ArgumentError):
        pass  # a malformed path ends the walk; the rules found so far stand
    for rect in images:
        ruler.bar(*rect)
    return {"rules": [list(r) for r in ruler.rules]}


def _rule_path(ruler: _Ruler, handle: int, form: _Matrix) -> None:
    if not _DRAW_MODE(handle, ruler.fill_ref, ruler.stroke_ref):
        return
    if not ruler.fill.value and not ruler.stroke.value:
        return  # a clip or an invisible path
    if ruler.fill.value and not ruler.stroke.value and _invisible_fill(handle):
        return
    probe = _PROBE
    if not _BOUNDS(handle, *probe.bounds_refs):
        return
    left, bottom, right, top = (b.value for b in probe.bounds)
    if form is not _IDENTITY:
        left, bottom, right, top = _box_through(form, left, bottom, right, top)
    if ruler.bar(left, bottom, right, top):  # a line, or a rule drawn as a thin box
        ruler.segments += 1
        return
    count = _COUNT_SEGMENTS(handle)
    if count <= 0 or ruler.segments + min(count, CURVED_PATH) > MAX_SEGMENTS:
        ruler.segments += max(0, count)
        return
    matrix = _IDENTITY
    if _MATRIX(handle, probe.matrix_ref):
        m = probe.matrix
        matrix = _compose((m.a, m.b, m.c, m.d, m.e, m.f), form)
    _rule_segments(ruler, handle, count, matrix)


def _rule_segments(ruler: _Ruler, handle: int, count: int, matrix: _Matrix) -> None:
    """The straight pieces of a path (rectangles, polylines), its curves skipped. A long path
    with curves is a drawing (a map, glyph outlines): read no further than its first curve.
    The same loop in C where it is built (siftpdf/child/_loops.c), else in Python."""
    if _LOOPS is not None:
        strokes, ruler.segments = _LOOPS.straight(handle, count, matrix, ruler.segments, MAX_SEGMENTS,
                                                  CURVED_PATH, AXIS_SLACK, RULE_MIN)
        for stroke in strokes:
            ruler.add(*stroke)
        return
    a, b, c, d, e, f = matrix
    start = last = None
    fx, fy, fx_ref, fy_ref = ruler.fx, ruler.fy, ruler.fx_ref, ruler.fy_ref
    for index in range(count):
        ruler.segments += 1
        if ruler.segments > MAX_SEGMENTS:
            return
        segment = _SEGMENT(handle, index)
        if not segment or not _SEGMENT_POINT(segment, fx_ref, fy_ref):
            continue
        x, y = fx.value, fy.value
        point = (a * x + c * y + e, b * x + d * y + f)
        kind = _SEGMENT_TYPE(segment)
        if kind == _BEZIERTO and count > CURVED_PATH:
            return
        if kind == _LINETO and last is not None:
            ruler.add(last[0], last[1], point[0], point[1])
        if kind == _MOVETO or start is None:
            start = point
        last = point
        if _SEGMENT_CLOSE(segment) and start is not None:
            ruler.add(point[0], point[1], start[0], start[1])
            last = start


def _bound_loops() -> Any:
    """The C loops of :func:`_rule_segments`, :func:`_gaps` and :func:`_spans`, and the calls
    :func:`_merge` and :func:`_make_runs` make of each stretch and run, with PDFium's entry
    points and the probe's buffers bound, or None where they are not built (the Python loops
    and calls, the same results)."""
    try:
        from . import _loops  # type: ignore[attr-defined]
    except ImportError:
        return None
    _loops.bind(*(ctypes.cast(function, _VP).value or 0 for function in (
        pdfium_c.FPDFPath_GetPathSegment, pdfium_c.FPDFPathSegment_GetPoint, pdfium_c.FPDFPathSegment_GetType,
        pdfium_c.FPDFPathSegment_GetClose, LOOSE_CHAR_BOX, CHAR_TEXT_OBJECT)))
    probe = _PROBE
    _loops.bind_probe(
        tuple(ctypes.cast(function, _VP).value or 0 for function in (
            TEXT_OBJECT_FONT_SIZE, OBJECT_MATRIX, CHAR_MATRIX, _OBJECT_FILL, _OBJECT_BOUNDS, TEXT_OBJECT_FONT,
            _OBJECT_CLIP, LOOSE_CHAR_BOX, _ORIGIN, _FILL)),
        tuple(ref.value or 0 for ref in (probe.size_ref, probe.matrix_ref, probe.drawn_ref, probe.rect_ref,
                                         *probe.rgba_refs, *probe.bounds_refs, probe.x_ref, probe.y_ref)))
    return _loops


_LOOPS = _bound_loops()


def _box_through(m: _Matrix, left: float, bottom: float, right: float, top: float) -> tuple[float, ...]:
    a, b, c, d, e, f = m
    xs = [a * x + c * y + e for x in (left, right) for y in (bottom, top)]
    ys = [b * x + d * y + f for x in (left, right) for y in (bottom, top)]
    return min(xs), min(ys), max(xs), max(ys)


def _invisible_fill(handle: int) -> bool:
    """A fill that shows nothing on paper: white or fully transparent (a knock-out box)."""
    rgba = _PROBE.rgba
    if not _OBJ_FILL(handle, *_PROBE.rgba_refs):
        return False
    return rgba[3].value == 0 or (rgba[0].value >= 250 and rgba[1].value >= 250 and rgba[2].value >= 250)


def _image_bytes(obj: Any) -> dict[str, Any]:
    """The image stream as stored (JPEG stays JPEG), base64, with its filters."""
    import base64

    size = pdfium_c.FPDFImageObj_GetImageDataRaw(obj, None, 0)
    if size <= 0:
        return {"data_error": "no image data"}
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFImageObj_GetImageDataRaw(obj, buffer, size)
    filters = []
    for index in range(max(0, pdfium_c.FPDFImageObj_GetImageFilterCount(obj))):
        length = pdfium_c.FPDFImageObj_GetImageFilter(obj, index, None, 0)
        name = ctypes.create_string_buffer(max(1, length))
        pdfium_c.FPDFImageObj_GetImageFilter(obj, index, name, length)
        filters.append(name.value.decode("latin-1"))
    return {"filters": filters, "data": base64.b64encode(buffer.raw).decode("ascii")}


def looks_unreadable(text: str, evidence: dict[str, Any] | None) -> bool:
    """Mostly characters that are neither letters, digits nor ordinary punctuation, or mostly
    glyphs the fonts could not map to Unicode."""
    unmapped = evidence.get("unmapped_chars", 0) if evidence else 0
    if _surely_readable(text, unmapped):
        return False
    visible = unreadable = 0
    for char in set(text):  # a page has few distinct characters: each counted at the codec's speed
        if not char.isspace():
            count = text.count(char)
            visible += count
            unreadable += count if unreadable_char(char) else 0
    if not visible:
        return False
    return unreadable > 0.5 * visible or unmapped > 0.5 * visible


PUNCTUATION = frozenset(".,;:!?()[]'\"-–—/%&，。、；：！？（）《》「」“”")  # ordinary, in any script


def unreadable_char(char: str) -> bool:
    """Not a letter or digit of any script, not space, not ordinary punctuation (or '_')."""
    return char == "_" or not (char.isalnum() or char.isspace() or char in PUNCTUATION)


# The same two classes over ASCII, as bytes for bytes.translate; and every byte past ASCII.
_ASCII_SPACE = bytes(b for b in range(128) if chr(b).isspace())
_ASCII_UNREADABLE = bytes(b for b in range(128) if unreadable_char(chr(b)))
_HIGH_BYTES = bytes(range(128, 256))


def _surely_readable(text: str, unmapped: int) -> bool:
    """A bound that settles most pages without a pass over each distinct character: ASCII
    characters are classed exactly by byte counts, and each other character is taken as
    unreadable and as not visible. False means only that the bound cannot tell."""
    data = text.encode("utf-8", "surrogatepass")
    ascii_part = data.translate(None, _HIGH_BYTES)  # UTF-8 keeps each ASCII character one byte
    others = len(text) - len(ascii_part)
    spaces = len(ascii_part) - len(ascii_part.translate(None, _ASCII_SPACE))
    unreadable = len(ascii_part) - len(ascii_part.translate(None, _ASCII_UNREADABLE)) + others
    visible = len(text) - spaces - others
    return visible > 0 and unreadable <= 0.5 * visible and unmapped <= 0.5 * visible


def is_garbled(text: str, evidence: dict[str, Any] | None, page_area: float,
               image_rects: list[list[float]], unmapped: int = 0) -> bool:
    """A text layer that decodes to nothing readable: over a page-sized image (a scan whose
    invisible text is junk) or, wherever it lies, one that is mostly its fonts' codes, not
    characters (glyphs that map to no character, as a Type 3 font of bitmaps draws them): the
    page ``--ocr auto`` reads whole (:func:`siftpdf.child.ocrpage.codes_only`; without
    ``evidence``, ``unmapped`` counts those glyphs)."""
    if page_area <= 0:
        return False
    # junk characters over a scan (a layer whose glyphs are flagged unmapped but read as words,
    # as an OCR program's invisible layer may be, stays the page's text)
    if looks_unreadable(text, None) and \
            any((r[2] - r[0]) * (r[3] - r[1]) >= GARBLED_IMAGE_SHARE * page_area for r in image_rects):
        return True
    from .ocrpage import codes_only

    return codes_only(text, evidence, unmapped)


RENDER_DPI = 150


def render_png(page: Any, dpi: int = RENDER_DPI) -> bytes:
    """The whole page (a pypdfium2 page) at ``dpi`` as a PNG, for ``extract --render``: a
    caller who wants to OCR a page itself (siftpdf's own OCR renders its pages apart, in
    grey). The bitmap's channels are written as they come: RGB on the white background
    pypdfium2 fills by default (RGBA or grey for such a bitmap). PNG is written with zlib
    directly so rendering needs no imaging library."""
    import struct
    import zlib

    bitmap = page.render(scale=dpi / 72, rev_byteorder=True)
    try:
        width, height, stride, channels = bitmap.width, bitmap.height, bitmap.stride, bitmap.n_channels
        data = memoryview(bitmap.buffer).cast("B")
        row = width * channels
        raw = b"".join(b"\x00" + bytes(data[y * stride:y * stride + row]) for y in range(height))
    finally:
        bitmap.close()
    colour = {3: 2, 4: 6, 1: 0}[channels]
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    chunks = _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 6)) + _chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def _chunk(kind: bytes, body: bytes) -> bytes:
    import struct
    import zlib

    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
