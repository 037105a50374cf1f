"""Letter-spaced words read whole: the spaces in PDFium's text of a page that stand between
the letters of one word, told from word spaces by the glyphs' positions.

Monospaced code and text set with character spacing come out of PDFium one letter a word
(``u n s i g n e d c h a r e _ i d e n t``): a producer that places each glyph on its own leaves
gaps that PDFium fills with generated spaces, and one that draws a space glyph after each
letter and steps back over it (troff's code listings) leaves real spaces that take no room.
As for poppler, a word break is a gap, not a character: the gap between the glyphs either
side of a space (their advances, from PDFium's loose boxes) is measured against the stretch's
own letter gap and the font's advance:

- in a monospaced font, whose word space is a whole advance, the narrowest gap (at most half
  an advance) and those within a quarter advance of it are letter spacing, when there are two;
- in a proportional font only letters are joined, and only on a pattern: space glyphs the next
  letter overlaps whole, or the narrow cluster of generated gaps (under ``LETTER_GAP_EM``) in a
  stretch that also holds a word space; each twice in a row at least.

A change of font, a line break and a glyph out of line leave the text as read. CJK sets no
spaces between its characters, so those it has are meant and kept, but for space glyphs the next
character overlaps whole (a producer that writes each character with a space after it and places
the next over that space, as troff does with letters): those part nothing in any script.

Only stretches that look letter-spaced are measured: two one-letter tokens and a third word
(letters, digits or '_'), or three single characters past Latin-1 a space apart, found by one
translation of the page's text to a byte shape and a search, so that a page without them costs
no per-character work. A space found to part nothing becomes :data:`MARK`, which keeps the text's
length and so its alignment with PDFium's character indexes for the evidence
(``evidence.page_evidence``); the page's text drops the marks (``engines``).
Only the extraction child (or ``--in-process``) imports this module: it loads native code.
"""

from __future__ import annotations

import ctypes
import math

from ..fonts import monospaced
from . import pdfium as pdfium_c
from .pdfium import CHAR_TEXT_OBJECT, LOOSE_CHAR_BOX, OBJECT_MATRIX, TEXT_OBJECT_FONT, TEXT_OBJECT_FONT_SIZE

# Not typing's: the child's start (siftpdf.docline).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Stands for a space that parts nothing: whitespace to str.strip and str.split (so the
# evidence's runs trim it as a space); a page whose text holds one already is left as read.
MARK = "\x1f"

# The page's text as a byte shape, one byte a character: ' ' for whitespace, 'a' for a letter,
# digit or '_' of Latin-1, 'x' for anything else (characters past Latin-1 are encoded as '?').
_WORDLIKE = bytes(b for b in range(256) if chr(b).isalnum() or chr(b) == "_")
_SHAPE = bytes(ord(" ") if chr(b).isspace() else ord("a") if b in _WORDLIKE else ord("x") for b in range(256))
_LETTERS = b" a a a"  # two one-letter tokens and a third token starting with a letter
_SINGLES = b" x x x"  # three tokens of one character past Latin-1 (CJK among them), a space apart
MAX_TOKEN = 3  # characters: a stretch goes on over tokens this short ('re' of 'c h a re')
MAX_SPACES = 3  # spaces between two tokens of one stretch
MAX_LONG = 64  # characters of the longer token that ends a stretch looked at (its end glyph counts)
MAX_STRETCHES = 2000  # stretches measured on one page: past them the rest is left as read
BASELINE_SHARE = 0.3  # glyphs whose bottoms differ by more of their height are not on one line
WIDE_SCRIPTS = "\u2e80"  # CJK, Hangul and what follows them: their spaces are left as read
MONO_SAMPLE = 4  # distinct characters of one advance (digits aside: tabular anyway) make a font monospaced
MONO_EQUAL = 0.98  # advances within this ratio are one advance
MONO_SHARE = 0.5  # in a monospaced font, a letter gap is at most this share of the advance
MONO_SLACK = 0.25  # ... and the gaps this share of an advance above the narrowest are letter gaps
LETTER_GAP_EM = 0.2  # proportional letters: a narrowest generated gap this wide may be a word space
CLUSTER_EM = 0.1  # ... the letter gaps lie this close above the narrowest (kerning)
WORD_GAP_EM = 0.2  # ... and a word space is wider than the narrowest by this at least
OVERLAP_SHARE = 0.1  # a space glyph the next glyph overlaps past this share of it takes no room

# (text page, index): 1 for a character PDFium generated, 0 for one the page drew (-1: an error)
_CHAR_IS_GENERATED = pdfium_c.untyped(pdfium_c.FPDFText_IsGenerated, ctypes.c_int)


def letter_spaced(text: str) -> bool:
    """Whether the text may hold letter-spaced words (:data:`_LETTERS`, :data:`_SINGLES`)."""
    shape = _shape(text)
    return _LETTERS in shape or _SINGLES in shape


def _shape(text: str) -> bytes:
    return b" " + text.encode("latin-1", "replace").translate(_SHAPE)


def respace(textpage: Any, text: str) -> str:
    """``text`` (the text page's, one character for each of its indexes) with each space that
    parts no words replaced by :data:`MARK`; ``text`` itself when there is none."""
    shape = _shape(text)
    found = shape.find(_LETTERS)  # shape[i + 1] is text[i]: the match's first letter is text[found]
    single = shape.find(_SINGLES)
    if found < 0 and single < 0 or MARK in text or pdfium_c.FPDFText_CountChars(textpage) != len(text):
        return text
    probe = _Probe(ctypes.c_void_p(pdfium_c.handle_of(textpage)))
    marks: list[int] = []
    for _ in range(MAX_STRETCHES if found >= 0 else 0):
        tokens = _stretch(text, found)
        marks += _parting_nothing(probe, text, tokens)
        found = shape.find(_LETTERS, tokens[-1][1] + 1)
        if found < 0:
            break
    for _ in range(MAX_STRETCHES if single >= 0 else 0):
        end = _wide_stretch(text, single)
        marks += _overlapped(probe, text, range(single + 1, end, 2))
        single = shape.find(_SINGLES, end + 1)
        if single < 0:
            break
    if not marks:
        return text
    chars = list(text)
    for index in marks:
        chars[index] = MARK
    return "".join(chars)


class _Probe(pdfium_c.GlyphBuffers):
    """The text page, the buffers its answers are read into, and what was asked of it."""

    def __init__(self, textpage: ctypes.c_void_p) -> None:
        super().__init__()
        self.textpage = textpage
        self.fonts: dict[int, int] = {}  # text object: its font
        self.pitches: dict[int, float] = {}  # font: its advance, once it is known monospaced

    def box(self, index: int) -> tuple[float, float, float, float] | None:
        """The glyph's loose box (its advance across, the font's height up), or None."""
        rect = self.rect
        return (rect.left, rect.bottom, rect.right, rect.top) if LOOSE_CHAR_BOX(self.textpage, index, self.rect_ref) \
            else None

    def font(self, index: int) -> int:
        """The font of the text object that drew the glyph (0: none, a generated character)."""
        obj = CHAR_TEXT_OBJECT(self.textpage, index) or 0
        if obj not in self.fonts:
            self.fonts[obj] = (TEXT_OBJECT_FONT(ctypes.c_void_p(obj)) or 0) if obj else 0
        return self.fonts[obj]

    def space_advance(self, start: int, end: int) -> float:
        """The advance of the widest space glyph from ``start`` to ``end`` (0: PDFium generated
        them all; infinite: one has no box)."""
        advance = 0.0
        for index in range(start, end):
            if _CHAR_IS_GENERATED(self.textpage, index) == 0:
                space = self.box(index)
                advance = max(advance, space[2] - space[0]) if space is not None else math.inf
        return advance

    def em(self, index: int) -> float:
        """The size of the font that drew the glyph, in page space (0 when unknown)."""
        obj = CHAR_TEXT_OBJECT(self.textpage, index)
        if not obj or not TEXT_OBJECT_FONT_SIZE(ctypes.c_void_p(obj), self.size_ref):
            return 0.0
        scale = math.hypot(self.matrix.c, self.matrix.d) if OBJECT_MATRIX(ctypes.c_void_p(obj), self.matrix_ref) \
            else 1.0
        return self.size.value * scale

    def pitch(self, font: int, text: str, tokens: list[tuple[int, int]]) -> float:
        """The advance of ``font`` when it is monospaced, else 0: the glyphs of it at the
        stretch's token ends are all of one advance, and its name says so or they are
        ``MONO_SAMPLE`` distinct characters. Once found, it holds for the page."""
        if font in self.pitches:
            return self.pitches[font]
        advances: dict[str, float] = {}
        for start, end in tokens:
            for index in (start, end - 1):
                found = self.box(index)
                if found is not None and text[index] < WIDE_SCRIPTS and self.font(index) == font:
                    advances[text[index]] = found[2] - found[0]
        if not advances or min(advances.values()) < MONO_EQUAL * max(advances.values()):
            return 0.0
        if sum(not char.isdigit() for char in advances) < MONO_SAMPLE and not self.named_mono(font):
            return 0.0
        self.pitches[font] = max(advances.values())
        return self.pitches[font]

    def named_mono(self, font: int) -> bool:
        """Whether the font's name says it is monospaced (a name too long to read says nothing)."""
        return monospaced(self.font_name(font))


def _stretch(text: str, found: int) -> list[tuple[int, int]]:
    """The tokens ((start, end) in ``text``) of the stretch around the one-letter token at
    ``text[found]``: the short tokens (``MAX_TOKEN``) either side of it on its line, parted by
    at most ``MAX_SPACES`` spaces, and at either end the longer token that ends them ('t(BA_OS)'
    of 'f s t a t(BA_OS)')."""
    tokens = [(found, found + 1)]
    while (token := _token_before(text, tokens[-1][0])) is not None:
        tokens.append(token)
        if token[1] - token[0] > MAX_TOKEN:
            break
    tokens.reverse()
    while (token := _token_after(text, tokens[-1][1])) is not None:
        tokens.append(token)
        if token[1] - token[0] > MAX_TOKEN:
            break
    return tokens


def _token_before(text: str, start: int) -> tuple[int, int] | None:
    spaces = start
    while spaces > 0 and text[spaces - 1] == " " and start - spaces < MAX_SPACES:
        spaces -= 1
    if spaces == start or spaces == 0 or text[spaces - 1].isspace():
        return None
    begin = spaces - 1
    while begin > 0 and not text[begin - 1].isspace() and spaces - begin < MAX_LONG:
        begin -= 1
    return begin, spaces


def _token_after(text: str, end: int) -> tuple[int, int] | None:
    spaces, length = end, len(text)
    while spaces < length and text[spaces] == " " and spaces - end < MAX_SPACES:
        spaces += 1
    if spaces == end or spaces == length or text[spaces].isspace():
        return None
    finish = spaces + 1
    while finish < length and not text[finish].isspace() and finish - spaces < MAX_LONG:
        finish += 1
    return spaces, finish


def _wide_stretch(text: str, start: int) -> int:
    """The index of the last character of the stretch of wide-script characters (CJK, Hangul
    …) one space apart that starts at ``text[start]`` (``start`` itself when the next is not)."""
    end, length = start, len(text)
    while end + 2 < length and text[end + 1] == " " and text[end] >= WIDE_SCRIPTS <= text[end + 2]:
        end += 2
    return end


def _overlapped(probe: _Probe, text: str, spaces: range) -> list[int]:
    """Of the spaces between wide-script characters, those the page drew and the next character
    overlaps whole (it is set where the space begins): twice in a row at least."""
    box, font_of = probe.box, probe.font
    taken: list[int] = []
    for index in spaces:
        if _CHAR_IS_GENERATED(probe.textpage, index) != 0 or font_of(index - 1) != font_of(index + 1):
            continue
        left, space, right = box(index - 1), box(index), box(index + 1)
        if left is None or space is None or right is None or right[0] < left[0] or \
                abs(left[1] - right[1]) > BASELINE_SHARE * (left[3] - left[1]):
            continue
        advance = space[2] - space[0]
        if advance > 0 and right[0] - left[2] < OVERLAP_SHARE * advance:
            taken.append(index)
    chosen = set(taken)
    return [index for index in taken if index - 2 in chosen or index + 2 in chosen]


class _Gap:
    """The spaces after the stretch's ``order``-th token: the gap between the glyphs either
    side (``before``, ``after``) and its ``width``."""

    __slots__ = ("order", "before", "after", "width")

    def __init__(self, order: int, before: int, after: int, width: float) -> None:
        self.order, self.before, self.after, self.width = order, before, after, width


def _parting_nothing(probe: _Probe, text: str, tokens: list[tuple[int, int]]) -> list[int]:
    """The indexes of the spaces between the stretch's tokens that part no words."""
    by_font: dict[int, list[_Gap]] = {}  # the gaps between two glyphs of one font
    box, font_of = probe.box, probe.font
    right: tuple[float, float, float, float] | None = None
    after, after_font = -1, 0
    for order in range(len(tokens) - 1):
        before = tokens[order][1] - 1
        # A one-letter token's glyph is the one after the gap before it and before the next.
        if before == after:
            left, font = right, after_font
        else:
            left, font = box(before), font_of(before)
        after = tokens[order + 1][0]
        right, after_font = box(after), font_of(after)
        if not font or font != after_font or text[before] >= WIDE_SCRIPTS or text[after] >= WIDE_SCRIPTS:
            continue  # a change of font parts words; CJK sets no spaces, and each it has is kept
        if left is None or right is None or right[0] < left[0] or \
                abs(left[1] - right[1]) > BASELINE_SHARE * (left[3] - left[1]):
            continue  # not side by side on one line
        by_font.setdefault(font, []).append(_Gap(order, before, after, right[0] - left[2]))
    marks: list[int] = []
    for font, gaps in by_font.items():
        pitch = probe.pitch(font, text, tokens)
        chosen = _mono_gaps(gaps, pitch) if pitch else _letter_gaps(probe, gaps, text)
        marks += [index for gap in chosen for index in range(gap.before + 1, gap.after)]
    return marks


def _mono_gaps(gaps: list[_Gap], pitch: float) -> list[_Gap]:
    """In a monospaced font a word space is a whole advance wider than the letter gap (the
    narrowest, at most half an advance): the gaps within a quarter advance of it part nothing,
    when there are two of them at least (one narrow gap is no pattern)."""
    letter = min(gap.width for gap in gaps)
    if letter > MONO_SHARE * pitch:
        return []
    cluster = [gap for gap in gaps if gap.width < letter + MONO_SLACK * pitch]
    return cluster if len(cluster) >= 2 else []


def _letter_gaps(probe: _Probe, gaps: list[_Gap], text: str) -> list[_Gap]:
    """In a proportional font, only between letters: space glyphs the next letter overlaps
    whole, and the narrow cluster of the gaps PDFium filled when the stretch also holds a word
    space (``WORD_GAP_EM`` wider); each only twice in a row at least (three letters of a word)."""
    em = probe.em(gaps[0].before)
    if em <= 0:
        return []
    letters = [gap for gap in gaps if _letter(text[gap.before]) and _letter(text[gap.after])]
    advances = {gap: probe.space_advance(gap.before + 1, gap.after) for gap in letters}
    overlapped = [gap for gap in letters if 0 < advances[gap] < math.inf and gap.width < OVERLAP_SHARE * advances[gap]]
    chosen = overlapped if _in_a_row(overlapped) else []
    filled = [gap for gap in letters if not advances[gap]]
    if len(filled) < 2:
        return chosen
    letter = min(gap.width for gap in filled)
    if letter >= LETTER_GAP_EM * em or max(gap.width for gap in gaps) < letter + WORD_GAP_EM * em:
        return chosen
    cluster = [gap for gap in filled if gap.width < letter + CLUSTER_EM * em]
    return chosen + cluster if _in_a_row(cluster) else chosen


def _letter(char: str) -> bool:
    return char.isalpha() or char == "_"


def _in_a_row(gaps: list[_Gap]) -> bool:
    """Whether two of the gaps follow one another: three letters of one word at least."""
    orders = {gap.order for gap in gaps}
    return any(order + 1 in orders for order in orders)
