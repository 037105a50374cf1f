"""The shared on-disk cache: per page and per document, partitioned by caller class (README,
The cache, the pool and single-flight).

Layout under the cache dir (``SIFTPDF_CACHE_DIR``, else the platform's user cache folder:
:func:`siftpdf.system.default_cache_dir`), two diskcache stores:

``docs/``
    ``doc|CLASS|SHA256|OPTIONS`` → the document, in marshal's bytes (a hit imports no pickle):
    ``meta``, ``done``, ``size`` (bytes of its pages), ``fetched_at``, and, for a
    password-protected one, a salted verifier of the password (never the password). Written
    only once every page is stored, so a document is whole or absent.
    ``url|CLASS|URL`` → ``sha256``, ``etag``, ``last_modified``, ``final_url``,
    ``fetched_at``: what a URL served last time.
    ``file|CLASS|PATH`` → ``STAMP SHA256``: the content hash of the local file at PATH
    (resolved) when its device, inode, size, mtime and ctime were STAMP, so a cache hit on a
    file it has seen does not read it (:func:`siftpdf.store.local_reader.file_stamp`).
    ``digest|NAME|CODE`` → an options digest the console's fast path looks up instead of
    building the options (:mod:`siftpdf.console.cache_hits`).
``pages/``
    ``CLASS|SHA256|OPTIONS|N`` → page N's record as JSON, tagged with its document;
    ``CLASS|SHA256|OPTIONS|text`` → the document's text blob: every page's ``page``, ``status``,
    ``text`` (and ``error``) in one entry (:func:`siftpdf.store.local_reader.encode_text`), written with
    the document entry, so grep reads a document in one get and one decode. Evicted with the
    document (same tag).

``OPTIONS`` is :meth:`siftpdf.options.ReadOptions.digest`: the options that change the output.
Nothing is shared across classes, so a ``restricted`` caller's pages are invisible to others.
The size cap counts the documents' bytes and evicts whole documents, oldest ``fetched_at``
first. This module imports no PDF engine and no HTTP client: a cache hit stays cheap.
"""

from __future__ import annotations

import os
import threading
import time

from ..defaults import CACHE_BYTES, MAX_AGE
from ..errors import UsageError
from ..lazyre import lazy
from ..record import Record
from .local_reader import (  # noqa: F401  (View: the cache's reading side, named here too)
    KNOWN,
    View,
    digest_key,
    doc_key,
    document_entry,
    encode_entry,
    encode_page,
    encode_text,
    file_key,
    is_cache_url,
    mark_known,
    mark_path,
    page_key,
    tag,
    text_key,
    url_key,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pathlib too: a cold command without the cache has no use for it
    from pathlib import Path
    from typing import Any

RESTRICTED = "restricted"
_CLASS = lazy(r"^[A-Za-z0-9_.-]{1,64}$")
_SIZE = lazy(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?[bB])?\s*$")


def parse_size(text: str) -> int:
    """``1G``, ``500M``, ``64k``, ``1048576``: binary multiples."""
    match = _SIZE.match(str(text))
    if not match:
        raise UsageError(f"bad size {text!r} (use bytes or a number with K, M, G)")
    number, unit = float(match.group(1)), match.group(2).upper()
    size = number * (1 << (10 * " KMGT".index(unit or " ")))
    if not size < 1 << 62:  # also false for a number past a float's range (inf)
        raise UsageError(f"bad size {text!r} (at most 4 EiB)")
    return int(size)


def check_class(name: str) -> str:
    if not _CLASS.match(name):
        raise UsageError(f"bad caller class {name!r} (letters, digits, '.', '_', '-')")
    return name


class CacheSettings(Record):
    """Where the cache lives and how it is used by one call."""

    HIDDEN = frozenset({"url"})

    directory: Path | None = None
    enabled: bool = True
    caller_class: str = "default"
    max_age: float = MAX_AGE
    size_limit: int = CACHE_BYTES
    #: A shared cache server (``redis://…``, ``--cache-url``) in front of which this machine's
    #: cache sits; None: this machine's cache alone. Never logged as it is: see :func:`redacted`.
    url: str | None = None

    @property
    def path(self) -> Path:
        from pathlib import Path

        return Path(self.folder)

    @property
    def folder(self) -> str:
        """:attr:`path` as a string (pathlib is not imported for it)."""
        from ..system import default_cache_dir

        return os.fspath(self.directory) if self.directory else default_cache_dir()

    @property
    def restricted(self) -> bool:
        return self.caller_class == RESTRICTED


def check_url(url: str | None) -> str | None:
    """A shared cache server's URL as given, None for none (an empty one too, so that
    ``--cache-url ''`` turns off what the environment says); a usage error for anything else."""
    if not url:
        return None
    if not is_cache_url(url):
        raise UsageError(f"bad cache URL {redacted(url)!r}",
                         hint="use redis://[USER:PASSWORD@]HOST[:PORT][/DB], rediss://… (TLS) or unix://PATH")
    return url


def redacted(url: str) -> str:
    """The URL with its password (and query) left out: what logs, errors and status show."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "…"
    where = rest.split("?", 1)[0]
    userinfo, at, host = where.rpartition("@")
    if at and ":" in userinfo:
        userinfo = userinfo.split(":", 1)[0] + ":***"
    return f"{scheme}://{userinfo}{at}{host}"


def failure(exc: BaseException, url: str) -> str:
    """One line saying why a call to the shared server failed (its kind and message: redis-py
    keeps the server's error code in the kind, such as OutOfMemoryError), without the password."""
    return scrub(" ".join(f"{type(exc).__name__}: {exc}".split()), url)


def scrub(text: str, url: str | None) -> str:
    """``text`` (a server's or a client's error message) with the URL's password taken out."""
    if not url:
        return text
    from urllib.parse import unquote, urlsplit

    try:
        password = urlsplit(url).password
    except ValueError:
        return text.replace(url, redacted(url))
    if password:
        for form in {password, unquote(password)}:
            text = text.replace(form, "***")
    return text


def password_check(password: str, sha: str) -> str:
    """A salted, slow verifier: lets a cache hit demand the right password without keeping it."""
    import hashlib

    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), bytes.fromhex(sha), 20_000).hex()


_doc_key, _url_key, _page_key, _tag, _file_key, _digest_key, _text_key = (
    doc_key, url_key, page_key, tag, file_key, digest_key, text_key)


# diskcache's own eviction works key by key; ours works on whole documents.
_SETTINGS: dict[str, Any] = {"eviction_policy": "none", "size_limit": 1 << 62, "statistics": False}
# Opening a store writes its settings; two processes (or threads) opening one at once can find
# SQLite's lock taken without a wait (a lock upgrade that would deadlock): try again.
OPEN_TRIES = 8
_OPENED: dict[Path, Any] = {}
_OPENING = threading.Lock()


def shared_cache(folder: Path, **settings: Any) -> Any:
    """The ``diskcache.Cache`` of ``folder``, opened once per process and shared by its
    threads (diskcache keeps a connection per thread): a service that opened its stores per
    request raced on their creation. The settings of the first opening hold."""
    key = folder.absolute()
    with _OPENING:
        found = _OPENED.get(key)
        if found is None:
            found = _OPENED[key] = _open_cache(key, **settings)
        return found


def _open_cache(path: Path, **settings: Any) -> Any:
    import sqlite3

    import diskcache

    for attempt in range(OPEN_TRIES):
        try:
            return diskcache.Cache(str(path), **settings)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == OPEN_TRIES - 1:
                raise
            import random

            time.sleep(0.02 * 2 ** attempt + random.random() * 0.02)  # about 5 s in all
    raise AssertionError("unreachable")


def close_all() -> None:
    """Close this thread's connections to every store the process opened (diskcache connects
    again on the next use)."""
    for cache in _OPENED.values():
        cache.close()


class Store:
    """The two diskcache stores of one cache dir, with the size cap of this call. Safe to use
    from many processes, and from many threads of one process, at once."""

    def __init__(self, directory: Path, size_limit: int = CACHE_BYTES) -> None:
        self.directory = directory
        self.size_limit = size_limit
        self.docs = shared_cache(directory / "docs", **_SETTINGS)
        self.pages = shared_cache(directory / "pages", tag_index=True, **_SETTINGS)

    def close(self) -> None:
        """Close this thread's connections; the stores stay open for the process (diskcache
        connects again on the next use)."""
        self.docs.close()
        self.pages.close()

    # -- documents ---------------------------------------------------------------------------
    def document(self, cls: str, sha: str, digest: str) -> dict[str, Any] | None:
        return document_entry(self.docs.get(_doc_key(cls, sha, digest)))

    def put_page(self, cls: str, sha: str, digest: str, record: dict[str, Any]) -> int:
        raw = encode_page(record)
        self.pages.set(_page_key(cls, sha, digest, int(record["page"])), raw, tag=_tag(cls, sha, digest))
        return len(raw)

    def put_text(self, cls: str, sha: str, digest: str, pages: list[dict[str, Any]]) -> int:
        """The document's text blob (pages as :func:`siftpdf.store.local_reader.slim` records)."""
        raw = encode_text(pages)
        self.pages.set(_text_key(cls, sha, digest), raw, tag=_tag(cls, sha, digest))
        return len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))

    def put_file(self, cls: str, path: str, stamp: str, sha: str) -> None:
        """Remember the content hash of the local file at ``path`` with this stamp."""
        mark_known(self.directory, "file", cls, path)
        self.docs.set(_file_key(cls, path), f"{stamp} {sha}")

    def put_digest(self, name: str, digest: str) -> None:
        self.docs.set(_digest_key(name), digest)

    def put_document(self, cls: str, sha: str, digest: str, meta: dict[str, Any], done: dict[str, Any],
                     page_numbers: list[int], size: int, password: str | None,
                     text_pages: int | None = None) -> None:
        entry: dict[str, Any] = {
            "meta": meta, "done": done, "page_numbers": page_numbers, "size": size,
            "fetched_at": time.time(), "class": cls, "sha256": sha, "options": digest,
        }
        if text_pages is not None:  # lets a reader of a slice skip the earlier pages
            entry["text_pages"] = text_pages
        if password is not None:
            entry["password_check"] = password_check(password, sha)
        mark_known(self.directory, "doc", cls, sha)
        self.docs.set(_doc_key(cls, sha, digest), encode_entry(entry))
        self.evict(keep=_doc_key(cls, sha, digest))

    def touch_document(self, cls: str, sha: str, digest: str) -> None:
        key = _doc_key(cls, sha, digest)
        with self.docs.transact():
            entry = document_entry(self.docs.get(key))
            if entry is not None:
                entry["fetched_at"] = time.time()
                self.docs.set(key, encode_entry(entry))

    def drop_pages(self, cls: str, sha: str, digest: str) -> None:
        self.pages.evict(_tag(cls, sha, digest))

    def writer(self, cls: str, sha: str, digest: str) -> LocalWriter:
        return LocalWriter(self, cls, sha, digest)

    # -- URLs --------------------------------------------------------------------------------
    def url(self, cls: str, url: str) -> dict[str, Any] | None:
        entry = self.docs.get(_url_key(cls, url))
        return entry if isinstance(entry, dict) else None

    def put_url(self, cls: str, url: str, entry: dict[str, Any]) -> None:
        self.docs.set(_url_key(cls, url), entry)

    # -- size cap ------------------------------------------------------------------------------
    def entries(self) -> list[tuple[str, dict[str, Any]]]:
        """Every document entry (not URLs), oldest ``fetched_at`` first."""
        found = []
        for key in list(self.docs.iterkeys()):
            if isinstance(key, str) and key.startswith("doc|"):
                entry = document_entry(self.docs.get(key))
                if entry is not None:
                    found.append((key, entry))
        found.sort(key=lambda item: float(item[1].get("fetched_at") or 0))
        return found

    def evict(self, keep: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """Remove whole documents, oldest first, until the cap holds. ``keep`` (the document
        just written, which its command is still reading) is never evicted."""
        limit = self.size_limit if limit is None else limit
        entries = self.entries()
        total = sum(int(entry.get("size") or 0) for _, entry in entries)
        removed = []
        for key, entry in entries:
            if total <= limit:
                break
            if key == keep:
                continue
            self.remove(key, entry)
            total -= int(entry.get("size") or 0)
            removed.append(entry)
        return removed

    def remove(self, key: str, entry: dict[str, Any]) -> None:
        self.docs.delete(key)
        self.pages.evict(_tag(entry["class"], entry["sha256"], entry["options"]))

    # -- cache info | clear | prune ------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        classes: dict[str, dict[str, int]] = {}
        for _, entry in self.entries():
            row = classes.setdefault(entry["class"], {"documents": 0, "bytes": 0, "pages": 0})
            row["documents"] += 1
            row["bytes"] += int(entry.get("size") or 0)
            row["pages"] += len(entry.get("page_numbers") or [])
        urls = sum(1 for key in self.docs.iterkeys() if isinstance(key, str) and key.startswith("url|"))
        return {
            "directory": str(self.directory), "size_limit": self.size_limit,
            "bytes": sum(row["bytes"] for row in classes.values()),
            "disk_bytes": self.docs.volume() + self.pages.volume(),
            "documents": sum(row["documents"] for row in classes.values()), "urls": urls,
            "classes": classes,
        }

    def clear(self, cls: str | None = None) -> int:
        """Remove everything (or one class's documents and URLs); returns documents removed."""
        if cls is None:
            count = len(self.entries())
            self.docs.clear()
            self.pages.clear()
            import shutil

            shutil.rmtree(self.directory / KNOWN, ignore_errors=True)
            return count
        count = 0
        for key in list(self.docs.iterkeys()):
            if not isinstance(key, str):
                continue
            if key.startswith(f"doc|{cls}|"):
                entry = document_entry(self.docs.get(key))
                if entry is not None:
                    self.remove(key, entry)
                    count += 1
                else:  # an entry no longer readable (another Python's marshal): gone all the same
                    self.docs.delete(key)
                    self.pages.evict(key.split("|", 1)[1])
            elif key.startswith((f"url|{cls}|", f"file|{cls}|")):
                self.docs.delete(key)
        return count

    def prune(self) -> dict[str, int]:
        """Drop pages left by interrupted extractions (no whole document owns them), URL and file
        entries whose document is gone, document entries no longer readable, and whole
        documents over the cap."""
        for key in list(self.docs.iterkeys()):
            if isinstance(key, str) and key.startswith("doc|") and document_entry(self.docs.get(key)) is None:
                self.docs.delete(key)  # its pages are orphans now
        entries = self.entries()
        owned = {_tag(e["class"], e["sha256"], e["options"]) for _, e in entries}
        orphans = 0
        for key in list(self.pages.iterkeys()):
            if isinstance(key, str) and key.rsplit("|", 1)[0] not in owned:
                if self.pages.delete(key):
                    orphans += 1
        live = {(e["class"], e["sha256"]) for _, e in entries}
        stale_urls = stale_files = 0
        files: list[tuple[str, str]] = []  # the (class, path) of the file entries kept
        for key in list(self.docs.iterkeys()):
            if isinstance(key, str) and key.startswith("url|"):
                entry = self.docs.get(key)
                cls = key.split("|", 2)[1]
                if not isinstance(entry, dict) or (cls, entry.get("sha256")) not in live:
                    self.docs.delete(key)
                    stale_urls += 1
            elif isinstance(key, str) and key.startswith("file|"):
                entry = self.docs.get(key)
                _, cls, path = key.split("|", 2)
                if not isinstance(entry, str) or (cls, entry.rpartition(" ")[2]) not in live:
                    self.docs.delete(key)
                    stale_files += 1
                else:
                    files.append((cls, path))
        from collections import Counter

        evicted = self.evict()
        held = Counter((e["class"], e["sha256"]) for _, e in entries)
        held.subtract((e["class"], e["sha256"]) for e in evicted)
        marks = {mark_path(self.directory, "doc", cls, sha) for (cls, sha), count in held.items() if count > 0}
        marks.update(mark_path(self.directory, "file", cls, path) for cls, path in files)
        return {"orphan_pages": orphans, "stale_urls": stale_urls, "stale_files": stale_files,
                "evicted_documents": len(evicted), "stale_marks": self._tidy_marks(marks),
                "idle_locks": _tidy_locks(os.path.join(self.directory, "pool"))}

    def _tidy_marks(self, live: set[str]) -> int:
        """Remove the marks (:func:`siftpdf.store.local_reader.known`) not in ``live`` (those of
        the files and documents the store still holds); how many."""
        removed = 0
        root = os.path.join(self.directory, KNOWN)
        for folder in _listed(root):
            for name in _listed(os.path.join(root, folder)):
                path = os.path.join(root, folder, name)
                if path not in live:
                    try:
                        os.unlink(path)
                        removed += 1
                    except OSError:
                        pass
        return removed


def _listed(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _tidy_locks(pool: str) -> int:
    """Remove the lock files of single-flight and of first reads' copies (``flight/``,
    ``behind/`` in the pool's folder) that nobody holds: one is made for every document read,
    and none is needed once its work is done. Each is removed while held here, so a process
    that opened it before waits and takes a lock on a file no other will open (the same work
    done twice at worst, never wrongly). How many."""
    from ..workers.pool import FileLock

    removed = 0
    for kind in ("flight", "behind"):
        folder = os.path.join(pool, kind)
        for name in _listed(folder):
            lock = FileLock(os.path.join(folder, name))
            try:
                if lock.try_acquire():
                    os.unlink(lock.path)
                    removed += 1
            except OSError:  # gone meanwhile, or not ours to remove
                pass
            finally:
                lock.release()
    return removed


class LocalWriter:
    """One document into the store: its pages as they come, then (:meth:`commit`) its text blob
    and its entry, last, so that a document is whole or absent."""

    def __init__(self, store: Store, cls: str, sha: str, digest: str) -> None:
        self.store, self.cls, self.sha, self.digest = store, cls, sha, digest
        self.size = 0

    def pages(self, records: list[dict[str, Any]]) -> None:
        with self.store.pages.transact():  # one SQLite transaction for the lot
            for record in records:
                self.size += self.store.put_page(self.cls, self.sha, self.digest, record)

    def commit(self, meta: dict[str, Any], done: dict[str, Any], numbers: list[int], text: list[dict[str, Any]],
               text_pages: int, password: str | None) -> None:
        self.size += self.store.put_text(self.cls, self.sha, self.digest, text)
        self.store.put_document(self.cls, self.sha, self.digest, meta, done, numbers, self.size, password, text_pages)

    def abort(self) -> None:
        """Drop what a failed extraction stored, unless a whole document owns those pages (a
        wrong password fails on a document another call has cached)."""
        if self.store.document(self.cls, self.sha, self.digest) is None:
            self.store.drop_pages(self.cls, self.sha, self.digest)


def open_store(settings: CacheSettings) -> Store:
    return Store(settings.path, settings.size_limit)
