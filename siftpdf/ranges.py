"""Page ranges: ``a-b``, ``a``, ``a-`` and comma lists of them; 1-based and inclusive."""

from __future__ import annotations

from .errors import UsageError


class PageRange:
    """A parsed range: its ``spec`` and ``parts`` as (first, last or None for "to the end").
    A plain class, not a dataclass: the console's fast path (siftpdf.console.cache_hits) does without the
    dataclasses module's import."""

    __slots__ = ("spec", "parts")

    def __init__(self, spec: str, parts: tuple[tuple[int, int | None], ...]) -> None:
        self.spec = spec
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PageRange) and (self.spec, self.parts) == (other.spec, other.parts)

    def __hash__(self) -> int:
        return hash((self.spec, self.parts))

    def __repr__(self) -> str:
        return f"PageRange(spec={self.spec!r}, parts={self.parts!r})"

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

    def bounds(self) -> tuple[int, int | None]:
        """The first page and the last (None when a part runs to the end): the slice a reader
        of these pages needs."""
        ends = [b for _, b in self.parts]
        return self.first(), None if any(b is None for b in ends) else max(b or 0 for b in ends)
