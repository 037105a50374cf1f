"""Reading a PDF or URL through the shared cache, the pool and single-flight (SPEC §8, §9).

The order of every read:

1. **Cache first.** A whole document in the caller's partition (and, for a URL, a record
   younger than ``max_age``) is served from the cache: no lock, no pool, no network, no child.
2. **Single-flight.** Otherwise take the flight lock of the work: ``(class, URL)`` for a
   download, ``(class, content hash, options)`` for an extraction. A process that had to wait
   looks in the cache again and usually finds the result there.
3. **The leader** downloads (conditionally, when it has the document already: a 304 or the same
   bytes re-extract nothing), then extracts under the pool, storing every page as it passes;
   the document entry is written when the last page is stored. When the reader stops early
   (``pages 1-3``, ``| head``), the rest is still extracted into the cache before the locks
   are released, so the next call is a hit.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from .cache import Store, View, open_store, password_check
from .cacheread import file_stamp, slim
from .docstream import Document, require_text
from .document import TEXT_STATUSES
from .errors import BusyError, FetchError, NotPdfError, SiftError
from .log import Log
from .pool import MAX_WAIT, FileLock, Pool, flight_lock, take_caller
from .sources import ReadOptions, _with_source

# A follower waits for the leader's download (≤120 s), its wait in the pool's line and its
# extraction (the deadline).
FLIGHT_MARGIN = 160.0


def _log(options: ReadOptions) -> Log:
    return Log(options.verbose, options.cache.restricted, options.on_event)


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


def _flight_wait(options: ReadOptions) -> float:
    return options.limits.deadline + FLIGHT_MARGIN + (MAX_WAIT if options.wait is None else options.wait)


def extract(data: bytes, options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    """Extract PDF bytes: in the child under the pool, or in this process when trusted; then
    organize the pages (SPEC §7), so the cache stores them organized, per options digest."""
    records = _extract(data, options)
    if options.on_page is not None:
        from .sources import report_pages

        records = report_pages(records, options.on_page)
    if options.organize.needs_evidence:
        records = _organized(records, options)
    return records


def _organized(records: Iterator[dict[str, Any]], options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    """The records organized (SPEC §7). The organizer is imported once the first record (the
    meta) is in, so the child starts without waiting for it (and :func:`_load_organizer` has
    imported it while the child started)."""
    try:
        first = next(records, None)
        from .organize import organize_records

        organized = organize_records(_put_back(first, records), options.organize)
        yield from organized
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


def _load_organizer() -> None:
    """Import the organizer while the extraction child starts up (the parent would be idle)."""
    from . import organize  # noqa: F401


def _put_back(first: dict[str, Any] | None, records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    if first is not None:
        yield first
    yield from records


def _extract(data: bytes, options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    settings = options.organize
    evidence = settings.needs_evidence
    if options.in_process:
        from .extraction import ExtractOptions, extract_records

        yield from extract_records(data, ExtractOptions(max_pages=options.limits.max_pages,
                                                        password=options.password, evidence=evidence,
                                                        image_mode=settings.image_mode, render=options.render,
                                                        ocr=options.ocr))
        return
    from .runner import run_child

    limits = options.limits
    pool = Pool(options.cache.path, wait=options.wait, cancel=options.cancel)
    waited = time.monotonic()
    try:
        with pool.job(options.caller_id) as job:
            _log(options).event("pool", "slot", wait_ms=int((time.monotonic() - waited) * 1000))
            yield from run_child(data, options.password, limits, slots=job, evidence=evidence,
                                 image_mode=settings.image_mode, render=options.render,
                                 meanwhile=_load_organizer if evidence else None, ocr=options.ocr,
                                 cancel=options.cancel)
    except BusyError as error:
        _log(options).event("pool", error.code if error.status == 503 else "caller_busy",
                            wait_ms=int((time.monotonic() - waited) * 1000))
        raise


# -- local bytes -------------------------------------------------------------------------------

def local_file(handle: Any) -> tuple[str, str] | None:
    """The resolved path and stamp (:func:`siftpdf.cacheread.file_stamp`) of the regular file
    open as ``handle``, or None for anything else (a pipe, a device)."""
    import os
    import stat

    try:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        return os.path.realpath(handle.name), file_stamp(st)
    except (OSError, AttributeError, TypeError, ValueError):
        return None


def open_known(local: tuple[str, str] | None, name: str | None, options: ReadOptions) -> Document | None:
    """The cached Document of a local file whose content hash the cache remembers for its
    current stamp, without reading it; None when the cache does not know the file as it is
    now (then it is read and hashed, and remembered: :func:`open_cached`)."""
    if local is None:
        return None
    view = _view(options.cache.path)
    sha = view.file(options.cache.caller_class, *local)
    if sha is None:
        return None
    digest = options.digest()
    doc = _hit(view, sha, digest, options, name, None)
    if doc is not None:
        _remember_digest(view, digest, options)
    return doc


def _remember_digest(view: View, digest: str, options: ReadOptions, store: Store | None = None) -> None:
    """Note the digest of named options (the CLI's defaults) for the console's fast path; a
    cache that cannot be written is no reason to fail a read."""
    name = options.digest_name
    if name is None or options.render or view.digest(name) == digest:
        return
    try:
        (store or open_store(options.cache)).put_digest(name, digest)
    except Exception:  # noqa: BLE001  (sqlite3 or OS errors of a read-only or busy cache)
        pass


def _remember_file(view: View, local: tuple[str, str] | None, sha: str, options: ReadOptions,
                   store: Store | None = None) -> None:
    """Note the content hash of a local file for its stamp (see :func:`open_known`)."""
    if local is None or view.file(options.cache.caller_class, *local) == sha:
        return
    try:
        (store or open_store(options.cache)).put_file(options.cache.caller_class, local[0], local[1], sha)
    except Exception:  # noqa: BLE001  (sqlite3 or OS errors of a read-only or busy cache)
        pass


def open_cached(data: bytes, name: str | None, options: ReadOptions, extra: dict[str, Any] | None = None,
                locks: list[FileLock] | None = None, local: tuple[str, str] | None = None) -> Document:
    """The Document of PDF bytes, from the cache or extracted into it. Takes ownership of
    ``locks`` (released once the work is done, or at once on a hit). ``local`` is the (path,
    stamp) of the local file the bytes are, whose content hash is then remembered."""
    locks = list(locks or [])
    try:
        sha = _sha256(data)
        digest = options.digest()
        view = _view(options.cache.path)
        doc = _hit(view, sha, digest, options, name, extra)
        if doc is not None:
            _release(locks)
            _remember_file(view, local, sha, options)
            _remember_digest(view, digest, options)
            return doc
        lock = flight_lock(options.cache.path, f"content|{options.cache.caller_class}|{sha}|{digest}")
        if not lock.acquire(_flight_wait(options), options.cancel):
            raise BusyError("pdf workers busy (waiting for the same document)")
        locks.append(lock)
        doc = _hit(view, sha, digest, options, name, extra)
        if doc is not None:
            _release(locks)
            return doc
        store = open_store(options.cache)
        _remember_file(view, local, sha, options, store)
        _remember_digest(view, digest, options, store)
    except BaseException:
        _release(locks)
        raise
    records = _extract_into(store, data, sha, digest, options, locks)
    return Document(_with_source(require_text(records), name, extra))


def _sha256(data: bytes) -> str:
    import hashlib  # here: an extraction without the cache never needs it

    return hashlib.sha256(data).hexdigest()


def _release(locks: list[FileLock]) -> None:
    for lock in locks:
        lock.release()


def _hit(view: View, sha: str, digest: str, options: ReadOptions, name: str | None,
         extra: dict[str, Any] | None) -> Document | None:
    cls = options.cache.caller_class
    entry = view.document(cls, sha, digest)
    if entry is None:
        return None
    check = entry.get("password_check")
    if check is not None and (options.password is None or password_check(options.password, sha) != check):
        return None  # cached text of a protected document only for a caller with its password
    _log(options).event("pdf", "cached", source=name, title=entry["meta"].get("title") or None,
                        pages=len(entry.get("page_numbers") or []))
    records, check = view.read(cls, sha, digest, entry, options.first_page, options.last_page, options.text_only,
                               options.search)
    return Document(_with_source(require_text(records) if check else records, name, extra))


class _Writer:
    """Collects one extraction into the cache; the document entry is written last."""

    def __init__(self, store: Store, cls: str, sha: str, digest: str) -> None:
        self.store, self.cls, self.sha, self.digest = store, cls, sha, digest
        self.meta: dict[str, Any] | None = None
        self.done: dict[str, Any] | None = None
        self.numbers: list[int] = []
        self.size = 0
        self.text_pages = 0
        self.text: list[dict[str, Any]] = []  # the text blob, written with the document

    def add(self, record: dict[str, Any]) -> None:
        if "meta" in record:
            # The source is the caller's name for the document, not part of it (kept in its
            # place, so that a cache hit's meta reads in the order a fresh one does).
            self.meta = {**record["meta"], "source": None}
        elif "page" in record:
            self.size += self.store.put_page(self.cls, self.sha, self.digest, record)
            self.numbers.append(int(record["page"]))
            self.text_pages += record.get("status") in TEXT_STATUSES
            self.text.append(slim(record))
        elif "done" in record:
            self.done = dict(record["done"])

    def commit(self, password: str | None) -> bool:
        if self.meta is None or self.done is None:
            return False
        self.size += self.store.put_text(self.cls, self.sha, self.digest, self.text)
        self.store.put_document(self.cls, self.sha, self.digest, self.meta, self.done, self.numbers,
                                self.size, password, self.text_pages)
        return True

    def abort(self) -> None:
        """Drop what a failed extraction stored, unless a whole document owns those pages (a
        wrong password fails on a document another call has cached)."""
        if self.store.document(self.cls, self.sha, self.digest) is None:
            self.store.drop_pages(self.cls, self.sha, self.digest)


def _extract_into(store: Store, data: bytes, sha: str, digest: str, options: ReadOptions,
                  locks: list[FileLock]) -> Iterator[dict[str, Any]]:
    log = _log(options)
    writer = _Writer(store, options.cache.caller_class, sha, digest)
    started = time.monotonic()
    records = extract(data, options)
    try:
        try:
            for record in records:
                writer.add(record)
                yield record
        except GeneratorExit:
            _finish(records, writer, options.password, log, started)
            raise
        writer.commit(options.password)
        log.event("pdf", "ok", pages=len(writer.numbers), bytes=len(data),
                  ms=int((time.monotonic() - started) * 1000),
                  title=(writer.meta or {}).get("title") or None)
    except SiftError as error:
        writer.abort()
        log.event("pdf", error.code)
        raise
    finally:
        records.close()
        _release(locks)


def _finish(records: Iterator[dict[str, Any]], writer: _Writer, password: str | None, log: Log,
            started: float) -> None:
    """The reader stopped early: extract the rest into the cache so the next call is a hit."""
    try:
        sys.stdout.flush()  # what the reader wrote reaches its pipe before the wait
    except (OSError, ValueError):
        pass
    try:
        for record in records:
            writer.add(record)
        writer.commit(password)
        log.event("pdf", "ok", pages=len(writer.numbers), ms=int((time.monotonic() - started) * 1000),
                  title=(writer.meta or {}).get("title") or None)
    except SiftError as error:
        writer.abort()
        log.event("pdf", error.code)


# -- URLs --------------------------------------------------------------------------------------

def open_url(url: str, options: ReadOptions) -> Document:
    """The Document of a URL: from the cache while fresh, else downloaded (conditionally when
    the document is cached) under single-flight, then read as local bytes."""
    settings = options.cache
    if not settings.enabled:
        fetched = _download(url, options, None)
        return Document(_with_source(require_text(extract(_pdf_body(fetched), options)), url,
                                     {"final_url": fetched.final_url}))
    view = _view(settings.path)
    doc = _url_hit(view, url, options)
    if doc is not None:
        return doc
    lock = flight_lock(settings.path, f"url|{settings.caller_class}|{url}")
    if not lock.acquire(_flight_wait(options), options.cancel):
        raise BusyError("pdf workers busy (waiting for the same URL)")
    locks = [lock]
    try:
        doc = _url_hit(view, url, options)
        if doc is not None:
            lock.release()
            return doc
        locks = [lock]
        if options.caller_id:  # the download is part of the caller's one job
            caller = take_caller(settings.path, options.caller_id)
            if caller is not None:
                locks.append(caller)
        return _refresh(open_store(settings), view, url, options, locks)
    except BaseException:
        _release(locks)
        raise


def _url_hit(view: View, url: str, options: ReadOptions) -> Document | None:
    entry = view.url(options.cache.caller_class, url)
    if entry is None or time.time() - float(entry.get("fetched_at") or 0) >= options.cache.max_age:
        return None
    return _hit(view, entry["sha256"], options.digest(), options, url, {"final_url": entry["final_url"]})


def _refresh(store: Store, view: View, url: str, options: ReadOptions, locks: list[FileLock]) -> Document:
    cls, digest = options.cache.caller_class, options.digest()
    known = store.url(cls, url)
    if known is not None and store.document(cls, known["sha256"], digest) is None:
        known = None  # nothing to revalidate for these options: a full GET
    fetched = _download(url, options, known)
    if fetched.status == 304:
        if known is None:
            raise FetchError("fetch failed: HTTP 304 to an unconditional request")
        entry = dict(known, fetched_at=time.time())
        store.put_url(cls, url, entry)
        store.touch_document(cls, known["sha256"], digest)
        doc = _hit(view, known["sha256"], digest, options, url, {"final_url": entry["final_url"]})
        if doc is not None:
            _release(locks)
            return doc
        fetched = _download(url, options, None)  # evicted meanwhile: fetch it whole
    data = _pdf_body(fetched)
    entry = {"sha256": _sha256(data), "etag": fetched.etag,
             "last_modified": fetched.last_modified, "final_url": fetched.final_url, "fetched_at": time.time()}
    store.put_url(cls, url, entry)
    if fetched.final_url != url:
        store.put_url(cls, fetched.final_url, entry)
    if store.document(cls, entry["sha256"], digest) is not None:
        store.touch_document(cls, entry["sha256"], digest)  # same bytes: nothing to re-extract
    return open_cached(data, url, options, {"final_url": fetched.final_url}, locks=locks)


def _download(url: str, options: ReadOptions, known: dict[str, Any] | None) -> Any:
    from .fetch import download

    log = _log(options)
    try:
        fetched = download(url, allow_private=options.allow_private, restricted=options.cache.restricted,
                           etag=(known or {}).get("etag"), last_modified=(known or {}).get("last_modified"))
    except SiftError as error:
        log.event("fetch", error.code, url=url)
        raise
    log.event("fetch", "not_modified" if fetched.status == 304 else "ok", url=url,
              final_url=fetched.final_url if fetched.final_url != url else None, status=fetched.status,
              bytes=len(fetched.data or b""), ms=fetched.elapsed_ms)
    return fetched


def _pdf_body(fetched: Any) -> bytes:
    if fetched.kind is None or fetched.kind.kind != "pdf" or fetched.data is None:
        kind = fetched.kind.describe() if fetched.kind is not None else "no body"
        raise NotPdfError(f"not a PDF ({kind})", fetched,
                          hint="siftpdf reads PDFs; fetch this page with a web reader")
    data: bytes = fetched.data
    return data
