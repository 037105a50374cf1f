"""Regular expressions compiled when first used, not when their module is imported.

The organizer's modules hold a few dozen patterns, many reached only by some documents (CJK
text, legal provisions, dates) behind cheaper guards; compiling them all at import costs a
short command several milliseconds. A :func:`lazy` pattern compiles on its first use and then
keeps the compiled pattern's methods as its own attributes, so later calls cost what a
compiled pattern's do. The compiled pattern is ``re.compile``'s: results are the same.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

# What a pattern is asked for; each is copied from the compiled pattern on first use.
_ATTRIBUTES = ("search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split", "scanner",
               "pattern", "flags", "groups", "groupindex")


class _Lazy:
    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for names not copied yet
        if name.startswith("__") or name in ("_source", "_flags"):
            raise AttributeError(name)
        import re  # here, not at the top: the extraction child holds patterns it seldom uses

        compiled = re.compile(self._source, self._flags)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags})"


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done when the pattern is first used."""
    return _Lazy(source, flags)  # type: ignore[return-value]
