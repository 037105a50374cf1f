"""Regular expressions compiled when first used, not when their module is imported, and
without the ``re`` module where their compiled form is at hand.

The organizer's modules hold a few dozen patterns, many reached only by some documents (CJK
text, legal provisions, dates) behind cheaper guards; compiling them all at import costs a
short command several milliseconds. A :func:`lazy` pattern compiles on its first use and then
keeps the compiled pattern's methods as its own attributes, so later calls cost what a
compiled pattern's do.

Compiling is ``re``'s parser and compiler, in Python; importing ``re`` brings ``enum``,
``functools`` and ``collections``. Together they were a fifth of a one-page command's parent
process. So the compiled form of every lazy pattern of the package (the code of the regular
expression engine ``_sre``, as ``re`` makes it) is kept in :mod:`siftpdf._sre_codes`, written by
``tools/patterns.py`` for the Python that wrote it, and a pattern found there is made by
``_sre.compile`` as ``re.compile`` makes it: the same pattern object (equal to
``re.compile``'s, which the tests check for each), without ``re``. Another Python, or a
pattern changed since the codes were written, is compiled by ``re``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

    # What re.compile hands _sre.compile after the source: the flags, the engine's code, the
    # number of groups less one, the names of the groups by name and by index.
    Form = tuple[int, tuple[int, ...], int, dict[str, int], tuple[str | None, ...]]

# re.IGNORECASE, as the integer its RegexFlag holds (importing re for it would undo the point).
IGNORECASE = 2

# What a pattern is asked for; each is copied from the compiled pattern on first use.
_ATTRIBUTES = ("search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split", "scanner",
               "pattern", "flags", "groups", "groupindex")

#: Every lazy pattern made, in order: tools/patterns.py compiles those the package's modules made.
MADE: list[_Lazy] = []

_codes: dict[tuple[str, int], Form] | None = None


def stored_codes() -> dict[tuple[str, int], Form]:
    """The compiled forms kept for this Python (empty for another one, or where none are kept):
    ``(source, flags)`` -> the arguments of ``_sre.compile`` after the source."""
    global _codes
    if _codes is None:
        _codes = {}
        try:
            import _sre

            from . import _sre_codes

            if (_sre_codes.PYTHON, _sre_codes.MAGIC, _sre_codes.CODESIZE) == \
                    (tuple(sys.version_info[:2]), _sre.MAGIC, _sre.CODESIZE) and sys.implementation.name == "cpython":
                _codes = _sre_codes.PATTERNS
        except Exception:  # noqa: BLE001 - none kept, or a broken file: re compiles every pattern
            pass
    return _codes


def compile_form(source: str, flags: int) -> Form:
    """What ``re.compile(source, flags)`` hands ``_sre.compile`` after the source (imports re:
    tools/patterns.py and the tests ask it)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(source, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # int(): the compiler's opcodes are ints named for the engine (their repr is the name).
    return int(flags | parsed.state.flags), tuple(int(op) for op in code), parsed.state.groups - 1, groupindex, \
        tuple(indexgroup)


def _compile(source: str, flags: int) -> re.Pattern[str]:
    stored = stored_codes().get((source, flags))
    if stored is not None:
        import _sre

        all_flags, code, groups, groupindex, indexgroup = stored
        try:
            return _sre.compile(source, all_flags, list(code), groups, dict(groupindex), indexgroup)
        except (RuntimeError, TypeError, ValueError):  # a code this engine refuses: re compiles it
            pass
    import re  # here, not at the top: the extraction child holds patterns it seldom uses

    return re.compile(source, flags)


class _Lazy:
    def __init__(self, source: str, flags: int, module: str) -> None:
        self._source = source
        self._flags = flags
        self._module = module  # the module that made it

    def __getattr__(self, name: str) -> Any:  # only for names not copied yet
        if name.startswith("__") or name in ("_source", "_flags", "_module"):
            raise AttributeError(name)
        compiled = _compile(self._source, self._flags)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags})"


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done when the pattern is first used (``flags`` an integer:
    this module's :data:`IGNORECASE` and the others)."""
    try:  # the module that called (mypyc's compiled modules have no frame: the import's)
        module = sys._getframe(1).f_globals.get("__name__", "")
    except ValueError:  # no caller's frame at all
        module = ""
    made = _Lazy(source, int(flags), module)
    MADE.append(made)
    return made  # type: ignore[return-value]
