"""What TeX's math fonts draw at each code, for glyphs their PDF gives no Unicode for.

pdfTeX embeds Computer Modern's and Latin Modern's math fonts (CMSY, CMEX, CMMI and their
kin) by their built-in encodings, often without a ToUnicode map. PDFium then reports such a
glyph as its bare code: the prime of ``q′`` reads ``q0``, ``⟨x⟩`` reads ``hxi``, ``∑`` reads
``X`` and ``≠`` (a negation slash over '=') reads ``6=``. A glyph PDFium flags as unmapped,
drawn in one of these fonts, is read here through the font's own encoding (TeX's OMS, OMX and
OML tables), one character for one code. Pure: tables and patterns compiled when first used.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .lazyre import lazy

NEGATION = "\u0338"  # TeX's \not: a slash drawn over the next symbol ('≠' is \not=)

# OMS (math symbols: cmsy, cmbsy, Latin Modern's and the TX/PX fonts' symbol faces). Codes
# 0x41-0x5A are calligraphic capitals: read as the letters they are, so not listed.
_OMS = dict(enumerate(
    "−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘∙≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻"  # 0x00-0x1F
    "←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝"  # 0x20-0x2F
    "′∞∈∋△▽" + NEGATION + "|∀∃¬∅ℜℑ⊤⊥ℵ"))  # 0x30-0x40 (0x37: the bar of ↦)
_OMS.update(enumerate("∪∩⊎∧∨⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠", 0x5B))

# OMX (math extension: cmex): delimiters in their larger sizes, the pieces tall ones are built
# of, and the big operators.
_OMX = dict(enumerate(
    "()[]⌊⌋⌈⌉{}⟨⟩|‖/\\"  # 0x00-0x0F
    "()()[]⌊⌋⌈⌉{}⟨⟩/\\"  # 0x10-0x1F
    "()[]⌊⌋⌈⌉{}⟨⟩/\\/\\"  # 0x20-0x2F
    "⎛⎞⎡⎤⎣⎦⎢⎥⎧⎫⎩⎭⎨⎬⎪⏐"  # 0x30-0x3F
    "⎝⎠⎜⎟⟨⟩⊔⊔∮∮⊙⊙⊕⊕⊗⊗"  # 0x40-0x4F
    "∑∏∫⋃⋂⊎⋀⋁∑∏∫⋃⋂⊎⋀⋁"  # 0x50-0x5F
    "∐∐^^^~~~[]⌊⌋⌈⌉{}"  # 0x60-0x6F
    "√√√√⎷⏐⌐‖↑↓◜◝◟◞⇑⇓"))  # 0x70-0x7F

# OML (math italic: cmmi): Greek below 0x28 and the few symbols among its letters and digits.
_OML = dict(enumerate("ΓΔΘΛΞΠΣΥΦΨΩαβγδϵζηθικλμνξπρστυϕχψωεϑϖϱςφ↼↽⇀⇁⊂⊃▹◃"))
_OML.update({0x3F: "⋆", 0x40: "∂", 0x5B: "♭", 0x5C: "♮", 0x5D: "♯", 0x5E: "⌣", 0x5F: "⌢", 0x60: "ℓ",
             0x7B: "ı", 0x7C: "ȷ", 0x7D: "℘", 0x7E: "→", 0x7F: "⁀"})

_FAMILIES = (
    (lazy(r"cmb?sy\d|lmmathsymbols|lmb?sy\d|[tp]xb?sy", re.IGNORECASE), _OMS),
    (lazy(r"cmex\d|lmmathextension|lmex\d|[tp]xb?ex", re.IGNORECASE), _OMX),
    (lazy(r"cmmib?\d|lmmathitalic|lmmib?\d", re.IGNORECASE), _OML),
)


@lru_cache(maxsize=256)
def tex_encoding(font: str) -> dict[int, str] | None:
    """The table of the TeX math font ``font`` names (its subset tag already taken off), or
    None for any other font."""
    for pattern, table in _FAMILIES:
        if pattern.match(font):
            return table
    return None


_NEGATED = lazy(NEGATION + r" ?(\S)")


def negated(text: str) -> str:
    """``text`` with each negation slash set over the symbol after it: '≠', '∉', '≢' where
    Unicode has the symbol, the symbol with a combining slash where it has not."""
    import unicodedata

    return _NEGATED.sub(lambda m: unicodedata.normalize("NFC", m[1] + NEGATION), text)
