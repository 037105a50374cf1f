"""The options of a read, in one place: :class:`Limits` (what the extraction child may take)
and :class:`ReadOptions` (how a source becomes a doc stream: limits, password, cache, pool,
organization, OCR), whose digest is part of every cache key. Their defaults are
:mod:`siftpdf.defaults`."""

from __future__ import annotations

import json

from . import defaults
from .docline import FORMAT
from .record import FrozenRecord, Record, field
from .settings import OrganizeOptions
from .store.local_reader import code_identity
from .store.local_store import CacheSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .cancel import Cancel


class Limits(Record):
    """What an extraction may take: the child's deadline, memory and output, the pages it
    reads, the children a document is split over (``workers``) and the pages of each job, and
    the children the pool of its cache dir lets run at once (``slots``; ``--workers`` sets both)."""

    deadline: float = defaults.DEADLINE
    max_text: int = defaults.MAX_TEXT
    max_pages: int = defaults.MAX_PAGES
    memory: int = defaults.MEMORY_MIB << 20
    workers: int = defaults.WORKERS
    chunk: int = defaults.CHUNK_PAGES
    repair: bool = True
    slots: int = defaults.SLOTS

    def with_workers(self, workers: int) -> Limits:
        """These limits split a document over ``workers`` children (``--workers``), in a pool
        that lets as many run at once (never fewer slots than the default's)."""
        if not 1 <= workers <= defaults.MAX_WORKERS:
            from .errors import UsageError

            raise UsageError(f"workers must be 1 to {defaults.MAX_WORKERS}, not {workers}")
        return self.replace(workers=workers, slots=max(defaults.SLOTS, workers))


class ReadOptions(FrozenRecord):
    """How a PDF source becomes a doc stream (frozen: a reader's own take is :meth:`replace`'s)."""

    HIDDEN = frozenset({"password"})

    limits: Limits = field(default_factory=Limits)
    password: str | None = None
    in_process: bool = False
    # How this call shares work with others (never part of the cache key):
    cache: CacheSettings = field(default_factory=CacheSettings)
    allow_private: bool = False
    verbose: bool = False
    caller_id: str | None = None
    #: Seconds to wait in the extraction pool's line for a worker (the command line's
    #: ``--wait``); None: the service's short line (:data:`siftpdf.workers.pool.MAX_WAIT`, busy beyond).
    wait: float | None = None
    #: Called as ``on_page(done, total)`` after each extracted page (total: pages to extract),
    #: so a caller can show progress; it must not write to stdout.
    on_page: Callable[[int, int], None] | None = None
    organize: OrganizeOptions = field(default_factory=OrganizeOptions)
    render: str | None = None  # pages (a range spec) whose records also carry a PNG render
    #: OCR of pages (``--ocr``): ``never``, ``auto`` (pages with no usable text layer, and
    #: scanned parts of pages that have one) or ``always`` (every page).
    ocr: str = "never"
    #: Told of every fetch, extraction, cache hit and pool wait as ``on_event(what, outcome,
    #: detail)`` (see :class:`siftpdf.log.Log`), so a service can count them.
    on_event: Callable[[str, str, dict[str, Any]], None] | None = None
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
    #: A name under which the cache remembers these options' digest, so that the console's fast
    #: path (:mod:`siftpdf.console.cache_hits`) finds a cache hit without building options (the CLI
    #: names its default options).
    digest_name: str | None = None
    #: Set from another thread to stop this read: its extraction children are killed at once
    #: and it raises CancelledError (see :mod:`siftpdf.cancel`).
    cancel: Cancel | None = None
    #: Where the read's lines for a person go, one line a call: ``verbose`` events and warnings
    #: (a shared cache server that failed). None: nowhere (every event still reaches
    #: ``on_event``). The command line writes them to stderr; the library writes to no stream.
    say: Callable[[str], None] | None = None
    #: Called when the reader stopped before the last page, before the rest is extracted into
    #: the cache (the command line flushes its stdout there, so the reader of its pipe has the
    #: pages it wrote while it waits).
    before_finish: Callable[[], None] | None = None

    def digest(self) -> str:
        """A short hash of every option that changes the extracted output: part of each cache
        key. A field added to this class counts unless it is listed in ``_NOT_OUTPUT``."""
        values = {name: value for name, value in self.as_dict().items() if name not in _NOT_OUTPUT}
        values.update(max_pages=self.limits.max_pages, format=FORMAT, code=code_identity())
        text = json.dumps(values, sort_keys=True, default=_plain)
        import hashlib

        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# Fields of ReadOptions that do not change what a document extracts to (limits: only its
# max_pages does, added explicitly; the password opens a document, it does not change it).
_NOT_OUTPUT = frozenset({"limits", "password", "in_process", "cache", "allow_private", "verbose", "caller_id", "wait",
                         "on_page", "on_event", "first_page",
                         "last_page", "text_only", "search", "digest_name", "cancel", "say", "before_finish"})



def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.as_dict()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)
