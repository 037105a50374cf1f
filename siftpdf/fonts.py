"""What a font's name says of its face, shared by the child (letter spacing) and organization
(code): pure, no imports, so the child's start pays nothing for it."""

from __future__ import annotations

# Parts of the names of monospaced faces: 'Courier', 'SourceCodePro', 'CMTT10', 'LMMono',
# 'Consolas', 'Menlo', 'Inconsolata', 'FixedSys', 'NimbusMonoPS', 'DejaVuSansMono'.
MONO_NAMES = ("courier", "mono", "typewriter", "consol", "code", "cmtt", "lmtt", "menlo", "fixed")


def monospaced(name: str) -> bool:
    """Whether a font's name says it is monospaced ('Inconsolata' by its 'consol')."""
    lowered = name.lower()
    return any(hint in lowered for hint in MONO_NAMES)
