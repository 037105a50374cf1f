"""The caches one call uses: this machine's (diskcache: :mod:`siftpdf.store.local_store`,
read on the hit path through :class:`siftpdf.store.local_reader.View`) and, with a cache URL, a shared
server's behind it (Redis: :mod:`siftpdf.store.shared_store`). The read path (:mod:`siftpdf.read`)
talks to :class:`Caches` only.

- **Reads** look on this machine first; a document or a fresher URL entry found on the shared
  server only is copied here, whole, and then read here, so one code reads every hit.
- **Writes** go to both: a document's pages as they come (in pipelines of
  :data:`siftpdf.store.shared_store.BATCH` on the server), then its entry, last. A call given a
  password writes nothing of the document to the shared server: the pages of a
  password-protected document never leave the machine.
- **Single-flight and the one-job-per-caller rule** take this machine's lock (an flock, see
  :mod:`siftpdf.workers.pool`) and then the server's (a token with an expiry), so they hold across
  machines. The pool of extraction children stays per machine.
- **A failing server** (down, slow, restarted, out of memory, read-only) never fails a call:
  the call goes on with this machine's cache, one warning goes to stderr per outage, each
  failed call is an event (``cache error``: logged with ``--verbose``, counted by ``serve`` as
  ``siftpdf_cache_backend_errors_total``), and the server is left alone for
  :data:`RETRY_AFTER` seconds before it is tried again, so an outage costs few timeouts and
  sharing resumes by itself when the server is back.

The two backends keep the same things under the same names (``document``, ``touch_document``,
``url``, ``put_url``, ``writer``: a document's pages, then its entry, or ``abort``); the
server's password is never shown (:func:`siftpdf.store.local_store.redacted`).
"""

from __future__ import annotations

import sys
import threading
import time

from ..document import TEXT_STATUSES
from ..errors import CallerBusyError
from ..log import Log
from ..workers.pool import CALLER_BUSY, FileLock, flight_lock, take_caller
from . import shared_reader
from .local_reader import View, known, slim
from .local_store import CacheSettings, Store, failure, open_store, redacted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any, TypeVar

    from ..cancel import Cancel
    from ..options import ReadOptions
    from .shared_store import RedisLock, RedisStore

    T = TypeVar("T")

RETRY_AFTER = 2.0  # seconds a failing shared server is left alone before the next try
BATCH = 64  # pages a document's writer sends to the shared server at once (and a copy reads)


class _Health:
    """How a shared server has been answering this process, for every call to it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down_until = 0.0
        self.warned = False

    def usable(self) -> bool:
        return time.monotonic() >= self.down_until

    def failed(self) -> bool:
        """Note a failure; True when it is the first of an outage (warn then)."""
        with self._lock:
            self.down_until = time.monotonic() + RETRY_AFTER
            first, self.warned = not self.warned, True
            return first

    def worked(self) -> bool:
        """Note an answer; True when it ends an outage (an answer to a call made before the
        last failure, finishing after it, does not)."""
        if not self.warned or not self.usable():
            return False
        with self._lock:
            back, self.warned = self.warned, False
            return back


_HEALTH: dict[str, _Health] = {}
_HEALTH_LOCK = threading.Lock()


def _health(url: str) -> _Health:
    with _HEALTH_LOCK:
        return _HEALTH.setdefault(url, _Health())


_VIEWS = threading.local()


def _view(directory: Path) -> View:
    """This thread's view of the cache at ``directory``: a process serving many requests keeps
    its read connections open instead of opening two per request."""
    views: dict[Path, View] | None = getattr(_VIEWS, "views", None)
    if views is None:
        views = _VIEWS.views = {}
    view = views.get(directory)
    if view is None:
        view = views[directory] = View(directory)
    return view


def close_views() -> None:
    """Close this thread's views' connections (each opens again when next read)."""
    for view in (getattr(_VIEWS, "views", None) or {}).values():
        view.close()


def stored_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """A document's meta as the cache keeps it: the source is the caller's name for the
    document, not part of it (kept in its place, so that a cache hit's meta reads in the order
    a fresh one does)."""
    return {**meta, "source": None}


class Caches:
    """This machine's cache and, with ``settings.url``, the shared server's, for one call of one
    caller class. Cheap to make: each store is opened when first needed (a local hit opens no
    diskcache store and imports no Redis client)."""

    def __init__(self, settings: CacheSettings, log: Log | None = None) -> None:
        self.settings, self.log = settings, log or Log()
        self.cls = settings.caller_class
        self._local: Store | None = None
        self.copied = False  # a document was copied here from the shared server

    @property
    def view(self) -> View:
        return _view(self.settings.path)

    @property
    def local(self) -> Store:
        if self._local is None:
            self._local = open_store(self.settings)
        return self._local

    # -- the shared server, and what its failures mean ------------------------------------------
    def shared(self, call: Callable[[RedisStore], T], default: T) -> T:
        """``call(server)``, or ``default`` without a server, while it is left alone after a
        failure, or when the call fails (reported: :meth:`_failed`)."""
        url = self.settings.url
        if not url:
            return default
        health = _health(url)
        if url in shared_reader.FAILED:  # the console's fast path found the server failing just now
            self._failed(health, shared_reader.FAILED.pop(url))
        if not health.usable():
            return default
        try:
            from .shared_store import ERRORS, shared_store
        except ImportError:
            from ..extras import install

            self._failed(health, ImportError(f"the Redis client is not installed: {install('redis')}"))
            return default
        try:
            result = call(shared_store(url))
        except ERRORS as exc:
            self._failed(health, exc)
            return default
        if health.worked():
            self.log.event("cache", "back", server=redacted(url))
        return result

    def _failed(self, health: _Health, exc: BaseException) -> None:
        url = self.settings.url or ""
        reason = failure(exc, url)
        self.log.event("cache", "error", server=redacted(url), error=reason)
        if health.failed():
            self.log.warn(f"siftpdf: shared cache {redacted(url)} failed ({reason}); "
                          "going on with this machine's cache")

    # -- documents ------------------------------------------------------------------------------
    def document(self, sha: str, digest: str) -> dict[str, Any] | None:
        """The document's entry in this machine's cache, copied there from the shared server
        when only the server has it."""
        entry = self.view.document(self.cls, sha, digest) if known(self.settings.folder, "doc", self.cls, sha) else None
        if entry is None and self.settings.url and self._copy(sha, digest):
            entry = self.view.document(self.cls, sha, digest)
            self.copied = True
        return entry

    def share_digest(self, name: str, digest: str) -> None:
        """Name the digest of the options a command calls ``name`` on the shared server too
        (see :meth:`siftpdf.store.shared_store.RedisStore.put_digest`): one write, made only when
        a call extracted a document there or copied one from it."""
        cls = self.cls
        self.shared(lambda server: server.put_digest(cls, name, digest), None)

    def _copy(self, sha: str, digest: str) -> bool:
        """Copy a whole document from the shared server into this machine's cache."""
        cls = self.cls
        entry = self.shared(lambda server: server.document(cls, sha, digest), None)
        if entry is None:
            return False
        writer = DocumentWriter(self, sha, digest, password=None, share=False)
        writer.add({"meta": entry["meta"]})
        numbers: list[int] = entry["page_numbers"]
        for start in range(0, len(numbers), BATCH):
            batch = numbers[start:start + BATCH]

            def read(server: RedisStore, batch: list[int] = batch) -> dict[int, dict[str, Any]]:
                return server.pages(cls, sha, digest, batch)

            found = self.shared(read, None)
            if found is None or len(found) < len(batch):
                writer.abort()
                if found is not None:  # the server lost pages (its own memory policy): forget the rest
                    self.shared(lambda server: server.remove(cls, sha, digest), None)
                return False
            writer.add_pages([found[number] for number in batch])
        writer.add({"done": entry["done"]})
        return writer.commit()

    def writer(self, sha: str, digest: str, password: str | None) -> DocumentWriter:
        return DocumentWriter(self, sha, digest, password)

    def touch_document(self, sha: str, digest: str) -> None:
        self.local.touch_document(self.cls, sha, digest)
        self.shared(lambda server: server.touch_document(self.cls, sha, digest), None)

    # -- URLs ------------------------------------------------------------------------------------
    def url(self, url: str) -> dict[str, Any] | None:
        """The freshest entry of the URL: this machine's while it is fresh, else the shared
        server's when that one is fresher (copied here)."""
        entry = self.view.url(self.cls, url)
        if not self.settings.url or (entry is not None and self.fresh(entry)):
            return entry
        found = self.shared(lambda server: server.url(self.cls, url), None)
        if found is not None and _fetched(found) > _fetched(entry):
            self.local.put_url(self.cls, url, found)
            return found
        return entry

    def fresh(self, entry: dict[str, Any]) -> bool:
        return time.time() - _fetched(entry) < self.settings.max_age

    def put_url(self, url: str, entry: dict[str, Any]) -> None:
        self.local.put_url(self.cls, url, entry)
        self.shared(lambda server: server.put_url(self.cls, url, entry), None)

    # -- locks -----------------------------------------------------------------------------------
    def flight(self, work: str) -> TieredLock:
        """The single-flight lock of ``work`` (``url|URL``, ``content|SHA|OPTIONS``) for this
        caller class, on this machine and on the shared server."""
        return TieredLock(self, flight_lock(self.settings.folder, f"{self.cls}|{work}"),
                          lambda server: server.lock(self.cls, work))

    def take_caller(self, caller_id: str) -> TieredLock | None:
        """The caller's one-job lock; None when this thread holds it already (a download and its
        extraction are one job); busy (:class:`CallerBusyError`) when anyone else does, on any
        machine sharing the server."""
        local = take_caller(self.settings.folder, caller_id)
        if local is None:
            return None
        lock = TieredLock(self, local, lambda server: server.caller(caller_id))
        try:
            if not lock.take_shared(0):
                raise CallerBusyError(CALLER_BUSY)
        except BaseException:
            local.release()
            raise
        return lock


def log_for(options: ReadOptions) -> Log:
    """The log of one read: ``--verbose`` lines to its ``say``, every event to its ``on_event``
    (a restricted caller's with the outcome only)."""
    sharing, hints = options.sharing, options.hints
    return Log(sharing.verbose, sharing.cache.restricted, hints.on_event, hints.say)


def caches_for(options: ReadOptions) -> Caches:
    """The caches of one read, telling its events to the read's log."""
    return Caches(options.sharing.cache, log_for(options))


def _fetched(entry: dict[str, Any] | None) -> float:
    return float((entry or {}).get("fetched_at") or 0)


class TieredLock:
    """This machine's lock and then, with a shared server, the server's: held by one process on
    all the machines sharing the server. A server that fails leaves this machine's lock alone
    in charge (work may then be done twice, on two machines, never wrongly)."""

    def __init__(self, caches: Caches, local: FileLock, make: Callable[[RedisStore], RedisLock]) -> None:
        self.caches, self.local, self.make = caches, local, make
        self.remote: RedisLock | None = None

    def acquire(self, timeout: float, cancel: Cancel | None = None) -> bool:
        """Both locks, waiting up to ``timeout`` seconds; a ``cancel`` set meanwhile ends the
        wait in CancelledError."""
        end = time.monotonic() + timeout
        if not self.local.acquire(timeout, cancel):
            return False
        try:
            taken = self.take_shared(max(0.0, end - time.monotonic()), cancel)
        except BaseException:
            self.local.release()
            raise
        if not taken:
            self.local.release()
        return taken

    def take_shared(self, timeout: float, cancel: Cancel | None = None) -> bool:
        """The server's lock (waiting up to ``timeout`` seconds); True without a usable server."""
        lock = self.caches.shared(self.make, None)
        if lock is None:
            return True
        taken = self.caches.shared(lambda _server: lock.acquire(timeout, cancel), None)
        if taken is None:  # failed while waiting: this machine's lock alone
            lock.stop()
            return True
        if taken:
            self.remote = lock
        return taken

    def release(self) -> None:
        lock, self.remote = self.remote, None
        if lock is not None:
            lock.stop()  # whatever the server does now, this process stops renewing it
            self.caches.shared(lambda _server: lock.release(), None)
        self.local.release()


class DocumentWriter:
    """One extraction into the caches: every page into this machine's store as it comes (and,
    unless the call has a password, in batches onto the shared server), then :meth:`commit`
    writes the document's entry, last, in each: a document is whole or absent in both."""

    def __init__(self, caches: Caches, sha: str, digest: str, password: str | None, share: bool = True) -> None:
        self.caches, self.sha, self.digest, self.password = caches, sha, digest, password
        cls = caches.cls
        self.local = caches.local.writer(cls, sha, digest)
        self.remote: Any = None
        if share and password is None and caches.settings.url:  # a protected document stays here
            self.remote = caches.shared(lambda server: server.writer(cls, sha, digest, caches.settings.size_limit),
                                        None)
        self.meta: dict[str, Any] | None = None
        self.done: dict[str, Any] | None = None
        self.numbers: list[int] = []
        self.text_pages = 0
        self.text: list[dict[str, Any]] = []  # the text blob, written with the document
        self._batch: list[dict[str, Any]] = []

    def add(self, record: dict[str, Any]) -> None:
        if "meta" in record:
            self.meta = stored_meta(record["meta"])
        elif "page" in record:
            self.add_pages([record])
        elif "done" in record:
            self.done = dict(record["done"])

    def add_pages(self, records: list[dict[str, Any]]) -> None:
        self.local.pages(records)
        for record in records:
            self.numbers.append(int(record["page"]))
            self.text_pages += record.get("status") in TEXT_STATUSES
            self.text.append(slim(record, furniture=True))
        if self.remote is not None:
            self._batch += records
            if len(self._batch) >= BATCH:
                self._send()

    def _send(self) -> None:
        batch, self._batch = self._batch, []
        remote = self.remote
        if remote is not None and batch and not self.caches.shared(lambda _server: remote.pages(batch) or True, False):
            self.remote = None  # the server failed: this document stays on this machine

    def commit(self) -> bool:
        if self.meta is None or self.done is None:
            return False
        self.local.commit(self.meta, self.done, self.numbers, self.text, self.text_pages, self.password)
        self._send()
        remote, meta, done = self.remote, self.meta, self.done
        if remote is not None:
            self.caches.shared(lambda _server: remote.commit(meta, done, self.numbers, self.text_pages), None)
        return True

    def abort(self) -> None:
        self.local.abort()
        remote = self.remote
        if remote is not None:
            self.caches.shared(lambda _server: remote.abort(), None)


def copy_main(argv: list[str]) -> int:
    """The process that copies a hit the console's fast path read on the shared server into
    this machine's cache (:func:`siftpdf.store.shared_reader.copy_here`), as a command copies one; then
    the file's content hash and the options' name remembered here, as a command remembers
    them. ``argv``: the cache folder, the PDF's path and stamp, its content hash, the options'
    digest and name; the server's URL is in the environment."""
    import os
    from pathlib import Path

    directory, path, stamp, sha, digest, name = argv
    cls = os.environ.get("SIFTPDF_CALLER_CLASS") or "default"
    lock = flight_lock(directory, f"{cls}|copy|{sha}|{digest}")
    if not lock.try_acquire():
        return 0  # another process is copying it (the fast path answered twice meanwhile)
    try:
        caches = Caches(CacheSettings(directory=Path(directory), caller_class=cls,
                                      url=os.environ["SIFTPDF_CACHE_URL"]))
        if caches.document(sha, digest) is None:
            return 1
        caches.local.put_file(cls, path, stamp, sha)
        caches.local.put_digest(name, digest)
        return 0
    finally:
        lock.release()


if __name__ == "__main__":
    sys.exit(copy_main(sys.argv[1:]))
