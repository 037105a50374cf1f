"""Page ranges: ``a-b``, ``a``, ``a-`` and comma lists of them; 1-based and inclusive."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UsageError


@dataclass(frozen=True)
class PageRange:
    spec: str
    parts: tuple[tuple[int, int | None], ...]  # (first, last or None for "to the end")

    @classmethod
    def parse(cls, spec: str) -> PageRange:
        parts: list[tuple[int, int | None]] = []
        for raw in spec.split(","):
            item = raw.strip()
            first, dash, last = item.partition("-")
            try:
                a = int(first)
                b: int | None = (int(last) if last.strip() else None) if dash else a
            except ValueError:
                raise UsageError(f"bad page range '{spec}' (use a-b, a, a- or a comma list)") from None
            if b is not None and b < a:
                raise UsageError(f"bad page range '{item}': {a} comes after {b}")
            parts.append((a, b))
        return cls(spec, tuple(parts))

    def check(self, count: int) -> None:
        """Every part must lie in 1…count: pages out of range are a usage error naming 1–N."""
        for a, b in self.parts:
            if a < 1 or a > count or (b is not None and b > count):
                raise UsageError(f"pages out of range (1–{count}): '{self.spec}'")

    def __contains__(self, page: object) -> bool:
        return isinstance(page, int) and any(a <= page and (b is None or page <= b) for a, b in self.parts)

    def first(self) -> int:
        return min(a for a, _ in self.parts)

    def last(self, count: int) -> int:
        return max(count if b is None else b for _, b in self.parts)
