"""What TeX's math fonts draw at each code, for glyphs their PDF gives no Unicode for.

pdfTeX embeds Computer Modern's and Latin Modern's math fonts (CMSY, CMEX, CMMI and their
kin) by their built-in encodings, often without a ToUnicode map. PDFium then reports such a
glyph as its bare code: the prime of ``q′`` reads ``q0``, ``⟨x⟩`` reads ``hxi``, ``∑`` reads
``X`` and ``≠`` (a negation slash over '=') reads ``6=``. A glyph PDFium flags as unmapped,
drawn in one of these fonts, is read here through the font's own encoding (TeX's OMS, OMX and
OML tables), one character for one code. Pure, with no imports: the child loads it on every start.
"""

from __future__ import annotations

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

# The faces by the start of their names (subset tag off, any case), and whether a design size
# must follow ('cmsy10', 'CMSY7'; not 'cmsyfoo').
_FAMILIES = (
    ("cmsy", _OMS, True), ("cmbsy", _OMS, True), ("lmsy", _OMS, True), ("lmbsy", _OMS, True),
    ("lmmathsymbols", _OMS, False), ("txsy", _OMS, False), ("pxsy", _OMS, False), ("txbsy", _OMS, False),
    ("pxbsy", _OMS, False),
    ("cmex", _OMX, True), ("lmex", _OMX, True), ("lmmathextension", _OMX, False), ("txex", _OMX, False),
    ("pxex", _OMX, False), ("txbex", _OMX, False), ("pxbex", _OMX, False),
    ("cmmi", _OML, True), ("cmmib", _OML, True), ("lmmi", _OML, True), ("lmmib", _OML, True),
    ("lmmathitalic", _OML, False),
)
_SEEN: dict[str, dict[int, str] | None] = {}  # font name: its table, as found (a page has few fonts)


def tex_encoding(font: str) -> dict[int, str] | None:
    """The table of the TeX math font ``font`` names (its subset tag already taken off), or
    None for any other font."""
    if font in _SEEN:
        return _SEEN[font]
    name = font.lower()
    table = next((table for prefix, table, sized in _FAMILIES
                  if name.startswith(prefix) and (not sized or name[len(prefix):len(prefix) + 1].isdigit())), None)
    if len(_SEEN) < 1024:
        _SEEN[font] = table
    return table
