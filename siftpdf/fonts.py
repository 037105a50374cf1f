"""What a font's name says of its face, shared by the child (letter spacing) and organization
(code), and the bullets of the symbol fonts (organization's lists, the Markdown view): pure, no
imports, so the child's start pays nothing for it."""

from __future__ import annotations

# Parts of the names of monospaced faces: 'Courier', 'SourceCodePro', 'CMTT10', 'LMMono',
# 'Consolas', 'Menlo', 'Inconsolata', 'FixedSys', 'NimbusMonoPS', 'DejaVuSansMono'.
MONO_NAMES = ("courier", "mono", "typewriter", "consol", "code", "cmtt", "lmtt", "menlo", "fixed")


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
