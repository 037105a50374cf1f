"""What the XY-cut asks of the items it orders, for the type checker: modules import it only
under ``TYPE_CHECKING`` (its own class, so that the compiled modules hold no class defined
inside a block)."""

from __future__ import annotations

from typing import Protocol


class Box(Protocol):
    text: str
    kind: str
    x0: float
    y0: float
    x1: float
    y1: float
