"""Known ``--set key=value`` settings: one registry that the CLI completes and documents, and
the organization settings they build: one frozen value with a stable digest, so
organized pages can be cached per settings.

A feature that reads a setting adds its key to :data:`KNOWN_SETTINGS`, with one line of help.
"""

from __future__ import annotations

from .errors import UsageError
from .record import FrozenRecord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

IMAGE_MODES = ("none", "embedded")

KNOWN_SETTINGS: dict[str, str] = {
    "organize": "Organize pages into an article (true) or keep the engine's page text (false).",
    "organize.furniture": "Move running headers, footers, page numbers and side-margin stamps out of the body.",
    "organize.columns": "Detect columns and read each column in turn.",
    "organize.join": "Join lines into paragraphs by geometry (false: one block per line).",
    "organize.hyphens": "Rejoin words hyphenated at a line end.",
    "organize.blocks": "Tell headings, provisions, list items, captions and footnotes apart.",
    "organize.tables": "Find tables (ruled, ruled above and below, or aligned) and keep each as rows of cells.",
    "organize.figures": "Place figures where they sat.",
    "organize.continuation": "Join a paragraph continued across a page break.",
    "organize.clip": "Drop text drawn outside its clip (counted in done.clipped_chars).",
    "organize.window": "Pages looked at on each side when deciding furniture by repetition (1-16).",
    "output.evidence": "Add the engine's evidence (lines, glyph runs, images) to each page record.",
    "extract.image_mode": "How images are reported: rects only (none), or embedded bytes (embedded).",
}


class OrganizeOptions(FrozenRecord):
    """Every organization step can be switched off on its own; ``enabled=False`` is ``--raw``."""

    enabled: bool = True
    furniture: bool = True  # running headers, footers, page numbers, by repetition
    columns: bool = True  # column detection and reading order
    join: bool = True  # lines into paragraphs by geometry
    hyphens: bool = True  # rejoin words hyphenated at a line end
    blocks: bool = True  # headings, provisions, list items, captions, footnotes
    tables: bool = True  # tables as blocks of rows and cells
    figures: bool = True  # figures placed where they sat
    continuation: bool = True  # paragraphs continued across page breaks
    clip: bool = True  # drop text drawn outside its clip
    window: int = 4  # pages looked at on each side when deciding furniture by repetition
    evidence: bool = False  # output.evidence: page evidence in the doc stream
    image_mode: str = "none"  # extract.image_mode: "embedded" adds image bytes to the evidence

    @property
    def emits_evidence(self) -> bool:
        """Image bytes are asked for to be seen: embedded images bring the evidence with them."""
        return self.evidence or self.image_mode == "embedded"

    @property
    def needs_evidence(self) -> bool:
        return self.enabled or self.emits_evidence

    def digest(self) -> str:
        """sha256 of the settings as sorted JSON: equal settings, equal digest, across runs.
        The defaults' is known (:data:`DEFAULT_DIGEST`): a command without --set then never
        imports hashlib (OpenSSL) just for its done record."""
        if self == _DEFAULTS and all(type(getattr(self, name)) is type(getattr(_DEFAULTS, name)) for name in _NAMES):
            return DEFAULT_DIGEST  # (1 == True: the types count too, as they do in JSON)
        return self.computed_digest()

    def computed_digest(self) -> str:
        import hashlib
        import json

        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))

        return hashlib.sha256(text.encode("utf-8")).hexdigest()


_DEFAULTS = OrganizeOptions()
_NAMES = tuple(_DEFAULTS.as_dict())
# OrganizeOptions().computed_digest(), which a test holds equal: a field added, or a default
# changed, changes it.
DEFAULT_DIGEST = "6e58e486ad30e130a2241f89f0691dfedf00edfcea1b49ebaebc0ec76312048d"


# --set keys and the field each sets.
_KEYS = {"organize": "enabled", "output.evidence": "evidence", "extract.image_mode": "image_mode"}
_KEYS.update({f"organize.{name}": name for name in _NAMES if name not in ("enabled", "evidence", "image_mode")})
assert set(_KEYS) == set(KNOWN_SETTINGS), "every setting is documented, every documented key works"


def setting_keys() -> list[str]:
    return sorted(_KEYS)


def parse_settings(pairs: Iterable[str], base: OrganizeOptions | None = None) -> OrganizeOptions:
    """Apply ``key=value`` strings to ``base``; an unknown key or bad value is a usage error."""
    changes: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in _KEYS:
            raise UsageError(f"--set {pair}: expected KEY=VALUE with KEY one of {', '.join(setting_keys())}")
        changes[_KEYS[key]] = _value(_KEYS[key], value.strip(), pair)
    return (base or OrganizeOptions()).replace(**changes)


def _value(name: str, value: str, pair: str) -> Any:
    if name == "image_mode":
        if value not in IMAGE_MODES:
            raise UsageError(f"--set {pair}: extract.image_mode is one of {', '.join(IMAGE_MODES)}")
        return value
    if name == "window":
        if not value.isdigit() or not 1 <= int(value) <= 16:
            raise UsageError(f"--set {pair}: organize.window is a number of pages, 1 to 16")
        return int(value)
    lowered = value.lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise UsageError(f"--set {pair}: expected true or false")
