"""Known ``--set key=value`` settings: one registry that the CLI completes and documents.

A feature that reads a setting adds its key here, with one line of help. The values are parsed
by the feature itself; this is only the list of names people and shells can discover.
"""

from __future__ import annotations

KNOWN_SETTINGS: dict[str, str] = {
    "organize": "Organize pages into an article (true) or keep the engine's page text (false).",
    "organize.furniture": "Move running headers, footers and page numbers out of the body.",
    "output.evidence": "Add the engine's evidence (lines, glyph runs, images) to each page record.",
    "extract.image_mode": "How images are reported: rects only, or embedded bytes (embedded).",
}
