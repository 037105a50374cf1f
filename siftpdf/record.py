"""Records: classes of named values with equality, a repr, their values as a dict and a copy
with some of them changed, as dataclasses give them. The options and settings every command
builds are records.

Why not dataclasses: ``dataclasses`` imports ``inspect`` (and with it ast, dis and tokenize),
which cost a cold one-page ``extract`` 12-15 ms of its 100 on the bench machine: more than any
other import of the command, and as much as the interpreter's own start. Each decorated class
costs about a millisecond more (its methods are compiled from source when it is defined).

A record's fields are declared as a dataclass's are: annotated class attributes, in order,
with their defaults (``field(default_factory=...)`` for one made anew for each record). Its
``__init__`` takes them by position or keyword; type checkers read the declarations as a
dataclass's (``dataclass_transform``), so a misspelt or mistyped field is their error.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, Self, TypeVar, dataclass_transform

    T = TypeVar("T")
else:
    def dataclass_transform(**_options):
        return lambda cls: cls


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A field whose default ``default_factory()`` makes for each record, as in dataclasses."""
    return _Factory(default_factory)  # type: ignore[return-value]


class _Fields:
    """What records share: their fields found from the class's annotations, ``__init__``, ``==``,
    ``repr`` (but for the fields named in ``HIDDEN``: a secret is not logged), :meth:`as_dict`
    and :meth:`replace`."""

    HIDDEN: ClassVar[frozenset[str]] = frozenset()
    FIELDS: ClassVar[tuple[str, ...]] = ()
    _DEFAULTS: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        own = [name for name, kind in cls.__dict__.get("__annotations__", {}).items()
               if not str(kind).startswith("ClassVar")]
        cls.FIELDS = cls.FIELDS + tuple(name for name in own if name not in cls.FIELDS)
        cls._DEFAULTS = {name: cls.__dict__[name] for name in own if name in cls.__dict__}
        for base in cls.__mro__[1:]:
            for name, value in base.__dict__.get("_DEFAULTS", {}).items():
                cls._DEFAULTS.setdefault(name, value)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        name = type(self).__name__
        fields = self.FIELDS
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} positional arguments but {len(args)} were given")
        given = dict(zip(fields, args, strict=False))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
            if key in given:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            given[key] = value
        values = {}
        for key in fields:
            if key in given:
                values[key] = given[key]
            elif key in self._DEFAULTS:
                default = self._DEFAULTS[key]
                values[key] = default.make() if isinstance(default, _Factory) else default
            else:
                raise TypeError(f"{name}() missing required argument {key!r}")
        self.__dict__.update(values)

    def _values(self) -> tuple[Any, ...]:
        return tuple(self.__dict__[name] for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self.FIELDS if name not in self.HIDDEN)
        return f"{type(self).__name__}({shown})"

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values (the values themselves, not copies)."""
        return {name: self.__dict__[name] for name in self.FIELDS}

    def replace(self, **changes: Any) -> Self:
        """A new record of this class with these fields changed (a TypeError names one that is
        not a field, as ``dataclasses.replace`` does)."""
        for name in changes:
            if name not in self.FIELDS:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
        return type(self)(**{**self.as_dict(), **changes})


@dataclass_transform(field_specifiers=(field,))
class Record(_Fields):
    """A record (see the module) whose fields may be set again."""

    __hash__ = None  # type: ignore[assignment]  # it changes: a set or a key would lose it


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class FrozenRecord(_Fields):
    """A record whose fields are set once, by ``__init__``; it can be hashed."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def __hash__(self) -> int:
        return hash(self._values())
