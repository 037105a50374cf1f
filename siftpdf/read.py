"""Reading a PDF or URL through the shared cache, the pool and single-flight (README, The
cache, the pool and single-flight).

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

"The cache" is :class:`siftpdf.store.tiers.Caches`: this machine's and, with a cache URL, a shared
server's behind it, whose locks make single-flight and the caller rule hold across machines.
"""

from __future__ import annotations

import time

from .docstream import Document, require_text, with_source
from .errors import BusyError, FetchError, NotPdfError, SiftError
from .log import Log
from .options import ReadOptions
from .store.local_reader import file_stamp, known
from .store.local_store import password_check
from .store.tiers import Caches, DocumentWriter, TieredLock, caches_for, log_for
from .workers.pool import MAX_WAIT, FileLock, Pool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterator
    from typing import Any

    from .store.behind import Behind

# A follower waits for the leader's download (≤120 s), its wait in the pool's line and its
# extraction (the deadline).
FLIGHT_MARGIN = 160.0


_log, _caches = log_for, caches_for


def _flight_wait(options: ReadOptions) -> float:
    sharing = options.sharing
    return sharing.limits.deadline + FLIGHT_MARGIN + (MAX_WAIT if sharing.wait is None else sharing.wait)


def report_pages(records: Iterator[dict[str, Any]],
                 on_page: Callable[[int, int], None]) -> Generator[dict[str, Any], None, None]:
    """Pass records through, calling ``on_page(done, total)`` after each page."""
    total = done = 0
    try:
        for record in records:
            if "meta" in record:
                meta = record["meta"]
                max_pages = int(meta.get("max_pages") or 0)
                total = min(meta["pages"], max_pages) if max_pages > 0 else meta["pages"]
            elif "page" in record:
                done += 1
                on_page(done, total)
            yield record
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


def extract(data: bytes, options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    """Extract PDF bytes: in the child under the pool, or in this process when trusted; then
    organize the pages, so the cache stores them organized, per options digest."""
    records = _extract(data, options)
    if options.hints.on_page is not None:
        records = report_pages(records, options.hints.on_page)
    if options.extraction.organize.needs_evidence:
        records = _organized(records, options)
    return records


def _organized(records: Iterator[dict[str, Any]], options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    """The records organized. The organizer is imported once the first record (the
    meta) is in, so the child starts without waiting for it (and :func:`_load_organizer` has
    imported it while the child started)."""
    try:
        first = next(records, None)
        from .organize import organize_records

        organized = organize_records(_put_back(first, records), options.extraction.organize)
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


def _ocr_models(options: ReadOptions) -> str | None:
    """Where PP-OCR's int8 models are made in the cache folder (:mod:`siftpdf.store.ocrmodels`):
    the child looks there on the first page it reads, so a text page costs no look."""
    if options.extraction.ocr == "never":
        return None
    from .extras import ocr_models_root

    return ocr_models_root(options.sharing.cache.folder)


def _watch_ocr(records: Iterator[dict[str, Any]], options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    """``records``; at the last one (``done``), when PP-OCR read a page with its float models,
    the making of the int8 ones is started for the next call (only a machine that reads
    Chinese or Japanese scans needs them)."""
    floats = False
    try:
        for record in records:
            engine = record["ocr"].get("engine") if isinstance(record.get("ocr"), dict) else None
            floats = floats or (isinstance(engine, str) and engine.startswith("rapidocr")
                                and not engine.endswith("int8"))
            if floats and "done" in record:  # the last record: a reader may stop at it
                from .store import ocrmodels

                ocrmodels.ready(options.sharing.cache.path)
            yield record
    finally:
        close = getattr(records, "close", None)
        if close is not None:
            close()  # the children stop when a reader stops early


def _extract(data: bytes, options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    records = _extract_records(data, options)
    return _watch_ocr(records, options) if options.extraction.ocr != "never" else records


def _extract_records(data: bytes, options: ReadOptions) -> Generator[dict[str, Any], None, None]:
    sharing, hints = options.sharing, options.hints
    job = options.extraction.job(_ocr_models(options))
    if sharing.in_process:
        from .child.extraction import extract_records

        yield from extract_records(data, job.extract_options(sharing.password))
        return
    from .workers.runner import run_child

    limits = sharing.limits
    pool = Pool(sharing.cache.folder, slots=limits.slots, wait=sharing.wait, cancel=hints.cancel)
    waited = time.monotonic()
    caller = None
    try:
        caller = _caches(options).take_caller(sharing.caller_id) if sharing.caller_id else None
        with pool.job() as slots:
            _log(options).event("pool", "slot", wait_ms=int((time.monotonic() - waited) * 1000))
            yield from run_child(data, sharing.password, limits, job, slots=slots,
                                 meanwhile=_load_organizer if job.evidence else None, cancel=hints.cancel)
    except BusyError as error:
        _log(options).event("pool", error.code if error.status == 503 else "caller_busy",
                            wait_ms=int((time.monotonic() - waited) * 1000))
        raise
    finally:
        if caller is not None:
            caller.release()


# -- local bytes -------------------------------------------------------------------------------

def local_file(handle: Any) -> tuple[str, str] | None:
    """The resolved path and stamp (:func:`siftpdf.store.local_reader.file_stamp`) of the regular file
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
    caches = _caches(options)
    cls = options.sharing.cache.caller_class
    if not known(caches.settings.folder, "file", cls, local[0]):
        return None  # never stored: said without opening the store
    sha = caches.view.file(cls, *local)
    if sha is None:
        return None
    digest = options.extraction.digest()
    doc = _hit(caches, sha, digest, options, name, None)
    if doc is not None:
        _remember_digest(caches, digest, options, caches.copied)
    return doc


def _remember_digest(caches: Caches, digest: str, options: ReadOptions, shared: bool = False) -> None:
    """Note the digest of named options (the CLI's defaults) for the console's fast path, and,
    when this call ``shared`` the document with the shared server (extracted it there or
    copied it from there), on that server for the fast path of other machines; a cache that
    cannot be written is no reason to fail a read."""
    name = options.extraction.name()
    if name is None:
        return
    if shared:
        caches.share_digest(name, digest)
    if caches.view.digest(name) == digest:
        return
    try:
        caches.local.put_digest(name, digest)
    except Exception:  # noqa: BLE001  (sqlite3 or OS errors of a read-only or busy cache)
        pass


def _remember_file(caches: Caches, local: tuple[str, str] | None, sha: str, options: ReadOptions) -> None:
    """Note the content hash of a local file for its stamp (see :func:`open_known`): on this
    machine only (a path means nothing on another)."""
    cls = options.sharing.cache.caller_class
    if local is None or caches.view.file(cls, *local) == sha:
        return
    try:
        caches.local.put_file(cls, local[0], local[1], sha)
    except Exception:  # noqa: BLE001  (sqlite3 or OS errors of a read-only or busy cache)
        pass


def open_cached(data: bytes, name: str | None, options: ReadOptions, extra: dict[str, Any] | None = None,
                locks: list[Lock] | None = None, local: tuple[str, str] | None = None) -> Document:
    """The Document of PDF bytes, from the cache or extracted into it. Takes ownership of
    ``locks`` (released once the work is done, or at once on a hit). ``local`` is the (path,
    stamp) of the local file the bytes are, whose content hash is then remembered."""
    locks = list(locks or [])
    try:
        sha = _sha256(data)
        digest = options.extraction.digest()
        caches = _caches(options)
        doc = _hit(caches, sha, digest, options, name, extra)
        if doc is not None:
            _release(locks)
            _remember_file(caches, local, sha, options)
            _remember_digest(caches, digest, options, caches.copied)
            return doc
        lock = caches.flight(f"content|{sha}|{digest}")
        if not lock.acquire(0.0, options.hints.cancel):
            # Another process reads these bytes: wait for it holding no slot of the pool (its
            # child may need the slot this command's warm child took), then read the cache.
            from .workers.early_child import discard

            discard()
            if not lock.acquire(_flight_wait(options), options.hints.cancel):
                raise BusyError("pdf workers busy (waiting for the same document)")
        locks.append(lock)
        doc = _hit(caches, sha, digest, options, name, extra)
        if doc is not None:
            _release(locks)
            return doc
        password = options.sharing.password
        if options.hints.write_behind and extra is None and len(locks) == 1 and not caches.settings.url:
            writer: DocumentWriter | Behind = _behind(caches, lock, sha, digest, options, local)
        else:
            _remember_file(caches, local, sha, options)
            _remember_digest(caches, digest, options, shared=password is None)
            writer = caches.writer(sha, digest, password)
    except BaseException:
        _release(locks)
        raise
    records = _extract_into(writer, data, options, locks)
    return Document(with_source(require_text(records), name, extra))


def _behind(caches: Caches, lock: TieredLock, sha: str, digest: str, options: ReadOptions,
            local: tuple[str, str] | None) -> Behind:
    """The writer of a first read whose cache writes a copy of the command may make once the
    read is done (:mod:`siftpdf.store.behind`): it notes what :func:`_remember_file` and
    :func:`_remember_digest` note, in the store it is given (without looking first: the look
    would open the store here)."""
    from .store.behind import Behind

    cls, password, name = options.sharing.cache.caller_class, options.sharing.password, options.extraction.name()

    def remember(store: Any) -> None:
        try:
            if local is not None:
                store.put_file(cls, local[0], local[1], sha)
            if name is not None:
                store.put_digest(name, digest)
        except Exception:  # noqa: BLE001  (sqlite3 or OS errors of a read-only or busy cache)
            pass

    return Behind(caches, lock.local, local, lambda: caches.writer(sha, digest, password), remember)


def _sha256(data: bytes) -> str:
    from .system import sha256_hex  # here: an extraction without the cache never needs it

    return sha256_hex(data)


Lock = FileLock | TieredLock


def _release(locks: list[Lock]) -> None:
    for lock in locks:
        lock.release()


def _hit(caches: Caches, sha: str, digest: str, options: ReadOptions, name: str | None,
         extra: dict[str, Any] | None) -> Document | None:
    cls, password, hints = options.sharing.cache.caller_class, options.sharing.password, options.hints
    entry = caches.document(sha, digest)
    if entry is None:
        return None
    check = entry.get("password_check")
    if check is not None and (password is None or password_check(password, sha) != check):
        return None  # cached text of a protected document only for a caller with its password
    _log(options).event("pdf", "cached", source=name, title=entry["meta"].get("title") or None,
                        pages=len(entry.get("page_numbers") or []))
    records, check = caches.view.read(cls, sha, digest, entry, hints.first_page, hints.last_page,
                                      hints.text_only, hints.search)
    return Document(with_source(require_text(records) if check else records, name, extra))


def _extract_into(writer: DocumentWriter | Behind, data: bytes, options: ReadOptions,
                  locks: list[Lock]) -> Iterator[dict[str, Any]]:
    log = _log(options)
    started = time.monotonic()
    records = extract(data, options)
    try:
        try:
            for record in records:
                writer.add(record)
                yield record
        except GeneratorExit:
            if options.hints.before_finish is not None:
                options.hints.before_finish()
            _finish(records, writer, log, started)
            raise
        writer.commit()
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


def _finish(records: Iterator[dict[str, Any]], writer: DocumentWriter | Behind, log: Log, started: float) -> None:
    """The reader stopped early: extract the rest into the cache so the next call is a hit."""
    try:
        for record in records:
            writer.add(record)
        writer.commit()
        log.event("pdf", "ok", pages=len(writer.numbers), ms=int((time.monotonic() - started) * 1000),
                  title=(writer.meta or {}).get("title") or None)
    except SiftError as error:
        writer.abort()
        log.event("pdf", error.code)


# -- URLs --------------------------------------------------------------------------------------

def open_url(url: str, options: ReadOptions) -> Document:
    """The Document of a URL: from the cache while fresh, else downloaded (conditionally when
    the document is cached) under single-flight, then read as local bytes."""
    if not options.sharing.cache.enabled:
        fetched = _download(url, options, None)
        return Document(with_source(require_text(extract(_pdf_body(fetched), options)), url,
                                     {"final_url": fetched.final_url}))
    caches = _caches(options)
    doc = _url_hit(caches, url, options)
    if doc is not None:
        return doc
    lock = caches.flight(f"url|{url}")
    if not lock.acquire(_flight_wait(options), options.hints.cancel):
        raise BusyError("pdf workers busy (waiting for the same URL)")
    locks: list[Lock] = [lock]
    try:
        doc = _url_hit(caches, url, options)
        if doc is not None:
            lock.release()
            return doc
        if options.sharing.caller_id:  # the download is part of the caller's one job
            caller = caches.take_caller(options.sharing.caller_id)
            if caller is not None:
                locks.append(caller)
        return _refresh(caches, url, options, locks)
    except BaseException:
        _release(locks)
        raise


def _url_hit(caches: Caches, url: str, options: ReadOptions) -> Document | None:
    entry = caches.url(url)
    if entry is None or not caches.fresh(entry):
        return None
    return _hit(caches, entry["sha256"], options.extraction.digest(), options, url, {"final_url": entry["final_url"]})


def _refresh(caches: Caches, url: str, options: ReadOptions, locks: list[Lock]) -> Document:
    digest = options.extraction.digest()
    known = caches.url(url)
    if known is not None and caches.document(known["sha256"], digest) is None:
        known = None  # nothing to revalidate for these options: a full GET
    fetched = _download(url, options, known)
    if fetched.status == 304:
        if known is None:
            raise FetchError("fetch failed: HTTP 304 to an unconditional request")
        entry = dict(known, fetched_at=time.time())
        caches.put_url(url, entry)
        caches.touch_document(known["sha256"], digest)
        doc = _hit(caches, known["sha256"], digest, options, url, {"final_url": entry["final_url"]})
        if doc is not None:
            _release(locks)
            return doc
        fetched = _download(url, options, None)  # evicted meanwhile: fetch it whole
    data = _pdf_body(fetched)
    entry = {"sha256": _sha256(data), "etag": fetched.etag,
             "last_modified": fetched.last_modified, "final_url": fetched.final_url, "fetched_at": time.time()}
    caches.put_url(url, entry)
    if fetched.final_url != url:
        caches.put_url(fetched.final_url, entry)
    if caches.document(entry["sha256"], digest) is not None:
        caches.touch_document(entry["sha256"], digest)  # same bytes: nothing to re-extract
    return open_cached(data, url, options, {"final_url": fetched.final_url}, locks=locks)


def _download(url: str, options: ReadOptions, known: dict[str, Any] | None) -> Any:
    from .fetch import download

    log = _log(options)
    try:
        fetched = download(url, allow_private=options.sharing.allow_private,
                           restricted=options.sharing.cache.restricted,
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
