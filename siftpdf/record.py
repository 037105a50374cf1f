"""Records: classes of named values with equality, a repr, their values as a dict and a copy
with some of them changed, as dataclasses give them. The options and settings every command
builds are records.

Why not dataclasses: ``dataclasses`` imports ``inspect`` (and with it ast, dis and tokenize),
which cost a cold one-page ``extract`` 12-15 ms of its 100 on the bench machine: more than any
other import of the command, and as much as the interpreter's own start. Each decorated class
costs about a millisecond more (its methods are compiled from source when it is defined).

A record's ``__init__`` takes each of its fields as a keyword and sets it, under the same name,
as an attribute: the instance's attributes are its fields, in the order they were set.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Self


class Record:
    """A record (see the module): ``==`` compares the fields, ``repr`` shows them (but those
    named in ``HIDDEN``: a secret is not logged)."""

    HIDDEN: frozenset[str] = frozenset()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # it changes: a set or a key would lose it

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in vars(self).items() if name not in self.HIDDEN)
        return f"{type(self).__name__}({shown})"

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values (the values themselves, not copies)."""
        return dict(vars(self))

    def replace(self, **changes: Any) -> Self:
        """A new record of this class with these fields changed (a TypeError names one that is
        not a field, as ``dataclasses.replace`` does)."""
        values = vars(self)
        for name in changes:
            if name not in values:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
        return type(self)(**{**values, **changes})


class FrozenRecord(Record):
    """A record whose fields are set once, by ``__init__`` with :meth:`_set`; it can be hashed."""

    def _set(self, **values: Any) -> None:
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(vars(self).values()))
