"""What a font's name says of its face, shared by the child (letter spacing) and organization
(code), and the bullets of the symbol fonts (organization's lists, the Markdown view): pure, no
imports, so the child's start pays nothing for it."""

from __future__ import annotations

# Parts of the names of monospaced faces: 'Courier', 'SourceCodePro', 'CMTT10', 'LMMono',
# 'Consolas', 'Menlo', 'Inconsolata', 'FixedSys', 'NimbusMonoPS', 'NimbusMonL' (Nimbus Mono L),
# 'DejaVuSansMono', 'AnonymousPro', 'Iosevka', 'Monaco'.
MONO_NAMES = ("courier", "mono", "typewriter", "consol", "code", "cmtt", "lmtt", "menlo", "fixed", "nimbusmon",
              "anonymous", "iosevka", "monaco")


# The font name of a run OCR recognized in a picture's pixels (no font is known). A run read
# again over a text layer's glyph codes takes that layer's font and size instead.
OCR_FONT = "OCR"


def monospaced(name: str) -> bool:
    """Whether a font's name says it is monospaced ('Inconsolata' by its 'consol')."""
    lowered = name.lower()
    return any(hint in lowered for hint in MONO_NAMES)


# Bullets of the Symbol and Wingdings fonts, which have no Unicode of their own: they read as the
# private-use characters of those fonts' codes (Symbol's •, Wingdings' ▪ ➢ ✓ ❖ ➔ ◻). A list
# item opens with one as with '•'.
SYMBOL_BULLETS = "\uf0b7\uf0a7\uf0d8\uf0fc\uf076\uf0e8\uf0a8"


# Adobe's glyph list gives the glyphs of its expert fonts, and the pieces of its Symbol font,
# code points of its own in the private-use area ('Asmall' U+F761, 'threeoldstyle' U+F733,
# 'copyrightserif' U+F6D9, 'parenleftex' U+F8EC), which PDFium reports for fonts named by
# glyph. Each reads here as what it draws: a small capital as its lower-case letter (small
# capitals set lower-case text), an old-style figure as its digit, a bracket's piece as
# Unicode's piece. Superior and inferior letters and the bare accents keep their codes.
ADOBE_PRIVATE_USE: dict[int, str] = {
    **dict(zip(range(0xF761, 0xF77B), "abcdefghijklmnopqrstuvwxyz", strict=True)),
    **{code: chr(code - 0xF700) for code in range(0xF7E0, 0xF7FF) if code != 0xF7F7},  # 'Agravesmall' à…þ
    **dict(zip(range(0xF730, 0xF73A), "0123456789", strict=True)),
    0xF7FF: "ÿ", 0xF6FA: "œ", 0xF6F9: "ł", 0xF6FD: "š", 0xF6FF: "ž",
    0xF721: "!", 0xF724: "$", 0xF726: "&", 0xF73F: "?", 0xF7A1: "¡", 0xF7A2: "¢", 0xF7BF: "¿",
    0xF6BE: "ȷ", 0xF6DC: "1",
    0xF6D9: "©", 0xF6DA: "®", 0xF6DB: "™", 0xF8E9: "©", 0xF8E8: "®", 0xF8EA: "™",
    0xF8E6: "⏐", 0xF8E7: "⎯",  # the extenders of Symbol's arrows
    **dict(zip(range(0xF8EB, 0xF8FF), "⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪⎮⎞⎟⎠⎤⎥⎦⎫⎬⎭", strict=True)),
}


def adobe_read(text: str) -> str:
    """``text`` with Adobe's private-use characters read as what they draw (above): one
    character for one, so indexes into it still hold."""
    if text.isascii() or max(text) < "\uf6be":
        return text
    return text.translate(ADOBE_PRIVATE_USE)


# A symbolic TrueType font reports each code c as U+F000 + c. Those of the Symbol font ('Symbol',
# 'SymbolMT', as Word's equation editors set their operators and Greek) read as Adobe's Symbol
# encoding gives them, from code 0x20 to 0xFE (its Delta and Omega as the Greek letters, its
# angle brackets as mathematics' ⟨ ⟩); codes 0x7F-0x9F draw nothing, and 0xF0 is Apple's logo.
_SYMBOL_ENCODING = (
    " !∀#∃%&∋()∗+,−./0123456789:;<=>?≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_\uf8e5αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼"  # 0x20-0x7E
    + "\x7f" * 33  # 0x7F-0x9F
    + "€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓"  # 0xA0-0xDF
    + "◊⟨®©™∑⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪\uf8ff⟩∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭")  # 0xE0-0xFE
SYMBOL_FONT: dict[int, str] = {0xF020 + i: c for i, c in enumerate(_SYMBOL_ENCODING) if c not in "\x7f\uf8e5\uf8ff"}


def symbol_font(name: str) -> bool:
    """Whether a font's name (subset tag off) is the Symbol font's: 'Symbol', 'SymbolMT'."""
    return name[:6].lower() == "symbol"
