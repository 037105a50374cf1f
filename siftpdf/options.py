"""The options of a read, as three frozen records and one builder.

- :class:`Extraction`: what a document is read into (the child's :class:`Reading` and the
  organization). Every field changes the output: its :meth:`~Extraction.digest` is part of every
  cache key, and its reading is a word of every child's job (:meth:`~Extraction.job`).
- :class:`Sharing`: how a read runs beside others (:class:`Limits` of the child and the pool, the
  password, the cache, the network, the caller); never part of a key.
- :class:`Hints`: what one call asks for and is told (the pages it reads, its search, its
  callbacks).

:class:`ReadOptions` holds one of each; :func:`build` makes them from the values of the command
line's options (:mod:`siftpdf.flags`, by key), for the library, the commands, ``serve`` and
``mcp`` alike. Their defaults are :mod:`siftpdf.defaults`.
"""

from __future__ import annotations

from . import defaults, flags
from .child.job import Job, Reading
from .docline import FORMAT, sorted_dumps
from .record import FrozenRecord, Record, field
from .settings import OrganizeOptions
from .store.local_reader import code_identity
from .store.local_store import CacheSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .cancel import Cancel


class Limits(FrozenRecord):
    """What an extraction may take: the child's deadline, memory and output, the children a
    document is split over (``workers``) and the pages of each job, and the children the pool
    of its cache dir lets run at once (``slots``; ``--workers`` sets both)."""

    deadline: float = defaults.DEADLINE
    max_text: int = defaults.MAX_TEXT
    memory: int = defaults.MEMORY_MIB << 20
    workers: int = defaults.WORKERS
    chunk: int = defaults.CHUNK_PAGES
    slots: int = defaults.SLOTS

    def with_workers(self, workers: int) -> Limits:
        """These limits split a document over ``workers`` children (``--workers``), in a pool
        that lets as many run at once (never fewer slots than the default's)."""
        if not 1 <= workers <= defaults.MAX_WORKERS:
            from .errors import UsageError

            raise UsageError(f"workers must be 1 to {defaults.MAX_WORKERS}, not {workers}")
        return self.replace(workers=workers, slots=max(defaults.SLOTS, workers))


class Extraction(Reading):
    """What a document is read into: the child's reading (:class:`Reading`: pages, renders,
    OCR) and how its pages are organized. Every field is part of the cache key."""

    organize: OrganizeOptions = field(default_factory=OrganizeOptions)

    def digest(self) -> str:
        """A short hash of every field, the doc stream's format and the code that reads: part of
        each cache key."""
        values = {**self.as_dict(), "format": FORMAT, "code": code_identity()}
        text = sorted_dumps(values, _plain)
        from .system import sha256_hex

        return sha256_hex(text.encode("utf-8"))[:16]

    def name(self) -> str | None:
        """The name under which the cache remembers this extraction's digest, so that the
        console's fast path (:mod:`siftpdf.console.cache_hits`) finds a hit without building
        options: it answers the default extraction but for its pages and OCR, so any other has
        none. Made from the fields, never kept beside them (a changed extraction would keep a
        name that is no longer its own)."""
        if self != Extraction(max_pages=self.max_pages, ocr=self.ocr):
            return None
        from .store.local_reader import options_name

        return options_name(self.max_pages, self.ocr)

    def job(self, ocr_models: str | None = None) -> Job:
        """What every child of an extraction of these options does: the reading, and the
        evidence that organization needs; ``ocr_models`` (where PP-OCR's int8 models are made)
        when pages may be read by OCR."""
        return Job(**self.reading(), evidence=self.organize.needs_evidence, image_mode=self.organize.image_mode,
                   ocr_models=ocr_models if self.ocr != "never" else None)


class Sharing(FrozenRecord):
    """How a read runs beside others: never part of a cache key (the password opens a
    document, it does not change it; a cache hit asks for it again)."""

    HIDDEN = frozenset({"password"})

    limits: Limits = field(default_factory=Limits)
    password: str | None = None
    in_process: bool = False
    cache: CacheSettings = field(default_factory=CacheSettings)
    allow_private: bool = False
    verbose: bool = False
    caller_id: str | None = None
    #: Seconds to wait in the extraction pool's line for a worker (the command line's
    #: ``--wait``); None: the service's short line (:data:`siftpdf.workers.pool.MAX_WAIT`, busy beyond).
    wait: float | None = None


class Hints(FrozenRecord):
    """What one call asks for and is told: the pages it reads, its search, its callbacks."""

    #: A reader that needs only the pages ``first_page`` to ``last_page`` (a slice): a cache
    #: hit then reads and decodes no other page. An extraction still yields every page.
    first_page: int = 1
    last_page: int | None = None
    #: A reader that uses only each page's ``page``, ``status``, ``text`` and ``error`` (the text
    #: view, grep): a cache hit may then serve the pages from the document's text blob, in one
    #: read and one decode, as records with only those fields.
    text_only: bool = False
    #: A reader that searches every page's text with this compiled pattern and passes over the
    #: pages it does not match (grep's page filter): a cache hit from the text blob may then
    #: leave those pages out, found by one search of the whole blob.
    search: Any = None
    #: Called as ``on_page(done, total)`` after each extracted page (total: pages to extract),
    #: so a caller can show progress; it must not write to stdout.
    on_page: Callable[[int, int], None] | None = None
    #: Told of every fetch, extraction, cache hit and pool wait as ``on_event(what, outcome,
    #: detail)`` (see :class:`siftpdf.log.Log`), so a service can count them.
    on_event: Callable[[str, str, dict[str, Any]], None] | None = None
    #: Where the read's lines for a person go, one line a call: ``verbose`` events and warnings
    #: (a shared cache server that failed). None: nowhere (every event still reaches
    #: ``on_event``). The command line writes them to stderr; the library writes to no stream.
    say: Callable[[str], None] | None = None
    #: Called when the reader stopped before the last page, before the rest is extracted into
    #: the cache (the command line flushes its stdout there, so the reader of its pipe has the
    #: pages it wrote while it waits).
    before_finish: Callable[[], None] | None = None
    #: Set from another thread to stop this read: its extraction children are killed at once
    #: and it raises CancelledError (see :mod:`siftpdf.cancel`).
    cancel: Cancel | None = None
    #: The read runs in a process that ends when it does (the ``siftpdf`` command): a first
    #: read of a short document may leave its cache writes to a copy of the process that
    #: outlives it (:mod:`siftpdf.store.behind`). Never in a process that goes on serving.
    write_behind: bool = False


class ReadOptions(FrozenRecord):
    """How a PDF source becomes a doc stream: what it is read into, how the read is shared, and
    what this call asks (frozen: a reader's own take is made by the ``with_`` methods)."""

    extraction: Extraction = field(default_factory=Extraction)
    sharing: Sharing = field(default_factory=Sharing)
    hints: Hints = field(default_factory=Hints)

    def with_extraction(self, **changes: Any) -> ReadOptions:
        return self.replace(extraction=self.extraction.replace(**changes))

    def with_sharing(self, **changes: Any) -> ReadOptions:
        return self.replace(sharing=self.sharing.replace(**changes))

    def with_hints(self, **changes: Any) -> ReadOptions:
        return self.replace(hints=self.hints.replace(**changes))


#: The command line's options a read is built from: their keys are :func:`build`'s.
OPTIONS = (*flags.EXTRACTION_OPTIONS, *flags.CACHE_OPTIONS)


def build(values: Mapping[str, Any] | None = None, hints: Hints | None = None) -> ReadOptions:
    """The options of a read from the values of the command line's extraction and cache options
    (:data:`OPTIONS`, by key, as click gives them; one left out has the value it has when it is
    not given). A key that names a field of :class:`Reading` or :class:`Sharing` sets it
    (``caller_id`` too, which no option spells); any other key is a TypeError. ``ocr`` None is
    the default in force (auto when an engine is installed). Raises
    :class:`siftpdf.errors.UsageError` for a value click does not check (a caller class, a size,
    a cache URL, an OCR mode without its engine)."""
    from .extras import default_ocr, require_ocr
    from .settings import parse_settings
    from .store.local_store import check_class, check_url, parse_size

    given = {option.key: option.absent for option in OPTIONS}
    unknown = set(values or {}) - set(given) - set(Reading.FIELDS) - (set(Sharing.FIELDS) - _MADE)
    if unknown:  # a misspelt key would be a read made with the default in its place
        raise TypeError(f"build() got values of no option: {', '.join(sorted(unknown))}")
    given.update(values or {})
    ocr = given["ocr"]
    if ocr is None:
        ocr = default_ocr()
    elif ocr != "never":
        require_ocr()
    organize = parse_settings(tuple(given["settings"]) + (("organize=false",) if given["raw"] else ()))
    extraction = Extraction(**{**_fields(Reading, given), "ocr": ocr}, organize=organize)
    limits = Limits(deadline=given["deadline"], memory=given["memory_limit"] << 20).with_workers(given["workers"])
    cache = CacheSettings(directory=given["cache_dir"], enabled=not given["no_cache"],
                          caller_class=check_class(given["caller_class"]), max_age=given["max_age"],
                          size_limit=parse_size(given["cache_size"]), url=check_url(given["cache_url"]))
    sharing = Sharing(**_fields(Sharing, given), limits=limits, cache=cache)
    return ReadOptions(extraction=extraction, sharing=sharing, hints=hints or Hints())


_MADE = frozenset({"limits", "cache"})  # fields build makes itself, from the values


def _fields(record: type[FrozenRecord], given: Mapping[str, Any]) -> dict[str, Any]:
    return {name: given[name] for name in record.FIELDS if name in given and name not in _MADE}


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.as_dict()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)
