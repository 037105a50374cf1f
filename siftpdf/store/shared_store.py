"""The shared cache on a Redis server (docs/manual.md, SIFTPDF_CACHE_URL), through redis-py: what every siftpdf process
on every machine that names the same server (``--cache-url``) shares.

Keys (the caller class is the prefix of everything a class reads, so a server's ACLs can keep
the ``restricted`` class apart):

``siftpdf:CLASS:doc:SHA256:OPTIONS``
    The document entry as JSON: ``meta``, ``done``, ``page_numbers``, ``text_pages``, ``size``
    (compressed bytes of its pages), ``fetched_at``. Written last, by the script that also
    indexes it, so that a reader finds a whole document or none.
``siftpdf:CLASS:pages:SHA256:OPTIONS``
    A hash: field ``N`` is page N's record, JSON compressed by zlib. Written in pipelines of
    :data:`BATCH` pages while the document is extracted, with an expiry (:data:`PENDING`) that
    the document's entry lifts: the pages of a writer that died go by themselves.
``siftpdf:CLASS:url:URL``
    What the URL served last (content hash, ETag, Last-Modified, final URL, ``fetched_at``),
    as JSON, kept :data:`URL_KEEP` seconds.
``siftpdf:CLASS:digest:NAME:CODE``
    The digest of the options a command names ``NAME`` (its defaults), for this extraction code
    (:func:`siftpdf.store.local_reader.code_identity`), written with each document extracted or copied
    under them: what the console's fast path (:mod:`siftpdf.store.shared_reader`, which reads the server
    without this module) needs to find a document, since it builds no options.
``siftpdf:CLASS:lock:NAME``, ``siftpdf:#caller:NAME``
    Single-flight and one-job-per-caller locks: a random token with an expiry of
    :data:`LOCK_TTL` seconds that the holder renews while it works, so a crashed holder's lock
    frees itself; only the token's holder can renew or release it (a script compares).
``siftpdf:#index``, ``siftpdf:#sizes``, ``siftpdf:#bytes``
    Every document entry by last use, their sizes and the total: the size cap evicts whole
    documents, least recently used first, in the script that writes a document.

Every call has a short socket timeout (:data:`TIMEOUT`); what a failure means (go on with the
local cache) is :mod:`siftpdf.store.tiers`'s business, not this module's.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import zlib
from typing import TYPE_CHECKING, Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .local_reader import code_identity
from .shared_reader import PREFIX, TIMEOUT, URL_FIELDS, entry, page
from .shared_reader import digest_key as _digest_key
from .shared_reader import doc_key as _doc_key
from .shared_reader import pages_key as _pages_key
from .shared_reader import url_key as _url_key

if TYPE_CHECKING:
    from ..cancel import Cancel

INDEX, SIZES, TOTAL = f"{PREFIX}:#index", f"{PREFIX}:#sizes", f"{PREFIX}:#bytes"
LOCK_TTL = 10.0  # seconds a lock outlives a holder that stopped renewing it (crashed)
PENDING = 3600  # seconds the pages of a document being written live without its entry
URL_KEEP = 7 * 24 * 3600  # seconds a URL entry is kept for a conditional GET (it is fresh for max_age)
BATCH = 64  # pages per pipeline, when written and when read
LEVEL = 1  # zlib's: pages are JSON, which the fastest level shrinks about as well as the others

#: What a failing server (down, slow, restarted, out of memory, read-only) or a damaged value
#: raises here.
ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, OSError, zlib.error, ValueError)

# Lua, run atomically by the server. KEYS are declared where a caller knows them; an evicted
# document's keys are made from its entry's key (":doc:" becomes ":pages:", as _pages_key does).
# A document is committed only when the server still holds all its pages (a server restarted
# while they were written has lost them: the document then stays absent).
_COMMIT = """
if redis.call('hlen', KEYS[2]) < tonumber(ARGV[5]) then return -1 end
redis.call('set', KEYS[1], ARGV[1])
redis.call('persist', KEYS[2])
local old = tonumber(redis.call('hget', KEYS[4], KEYS[1]) or '0')
redis.call('hset', KEYS[4], KEYS[1], ARGV[3])
redis.call('zadd', KEYS[3], ARGV[2], KEYS[1])
local total = redis.call('incrby', KEYS[5], tonumber(ARGV[3]) - old)
local evicted = 0
while total > tonumber(ARGV[4]) do
  local oldest = redis.call('zrange', KEYS[3], 0, 1)
  local victim = oldest[1]
  if victim == KEYS[1] then victim = oldest[2] end
  if not victim then break end
  local size = tonumber(redis.call('hget', KEYS[4], victim) or '0')
  redis.call('del', victim, (string.gsub(victim, ':doc:', ':pages:', 1)))
  redis.call('zrem', KEYS[3], victim)
  redis.call('hdel', KEYS[4], victim)
  total = redis.call('incrby', KEYS[5], -size)
  evicted = evicted + 1
end
return evicted
"""
_REMOVE = """
local size = tonumber(redis.call('hget', KEYS[4], KEYS[1]) or '0')
redis.call('del', KEYS[1], KEYS[2])
redis.call('zrem', KEYS[3], KEYS[1])
redis.call('hdel', KEYS[4], KEYS[1])
redis.call('incrby', KEYS[5], -size)
return size
"""
_ABORT = """
if redis.call('exists', KEYS[1]) == 1 then return redis.call('persist', KEYS[2]) end
return redis.call('del', KEYS[2])
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""


def _name(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class RedisStore:
    """The shared cache on one server; one per process and URL (:func:`shared_store`), used by
    all its threads (redis-py's connection pool is thread-safe)."""

    def __init__(self, url: str, timeout: float = TIMEOUT) -> None:
        # One immediate retry on a broken connection (a server restarted since the last call),
        # none on a timeout: a slow server costs one short wait per call, never several. No
        # CLIENT SETINFO: two round trips and a package-metadata lookup on every connection.
        self.client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                           retry=Retry(NoBackoff(), 1, (redis.ConnectionError,)), driver_info=None)
        self._commit, self._remove, self._abort, self._release, self._renew = (
            self.client.register_script(text) for text in (_COMMIT, _REMOVE, _ABORT, _RELEASE, _RENEW))

    # -- documents -----------------------------------------------------------------------------
    def document(self, cls: str, sha: str, digest: str) -> dict[str, Any] | None:
        return entry(self.client.get(_doc_key(cls, sha, digest)))

    def pages(self, cls: str, sha: str, digest: str, numbers: list[int]) -> dict[int, dict[str, Any]]:
        """Those of the pages that the server holds (a page evicted by the server's own memory
        policy is missing: the caller takes the document for absent)."""
        values = self.client.hmget(_pages_key(_doc_key(cls, sha, digest)), [str(n) for n in numbers])
        found = {n: page(raw, n) for n, raw in zip(numbers, values, strict=True)}
        return {n: record for n, record in found.items() if record is not None}

    def remove(self, cls: str, sha: str, digest: str) -> None:
        """Forget a document (found without all its pages)."""
        key = _doc_key(cls, sha, digest)
        self._remove(keys=[key, _pages_key(key), INDEX, SIZES, TOTAL])

    def touch_document(self, cls: str, sha: str, digest: str) -> None:
        self.client.zadd(INDEX, {_doc_key(cls, sha, digest): time.time()}, xx=True)

    def writer(self, cls: str, sha: str, digest: str, size_limit: int) -> RedisWriter:
        return RedisWriter(self, _doc_key(cls, sha, digest), size_limit)

    def put_digest(self, cls: str, name: str, digest: str) -> None:
        """Name the digest of options (the CLI's defaults) for this code, for a process that
        builds no options (the console's fast path, :mod:`siftpdf.store.shared_reader`)."""
        self.client.set(_digest_key(cls, name, code_identity()), digest, ex=URL_KEEP)

    # -- URLs ----------------------------------------------------------------------------------
    def url(self, cls: str, url: str) -> dict[str, Any] | None:
        return entry(self.client.get(_url_key(cls, url)), URL_FIELDS)

    def put_url(self, cls: str, url: str, entry: dict[str, Any]) -> None:
        self.client.set(_url_key(cls, url), _json(entry), ex=URL_KEEP)

    # -- locks -----------------------------------------------------------------------------------
    def lock(self, cls: str, work: str) -> RedisLock:
        """The single-flight lock of ``work`` (a URL's download, a document's extraction)."""
        return RedisLock(self, f"{PREFIX}:{cls}:lock:{_name(work)}")

    def caller(self, caller_id: str) -> RedisLock:
        """The one-job lock of a caller id (whatever its class, as on one machine)."""
        return RedisLock(self, f"{PREFIX}:#caller:{_name(caller_id)}")

    # -- status ----------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        server = self.client.info("server")
        pipe = self.client.pipeline(transaction=False)
        pipe.zcard(INDEX)
        pipe.get(TOTAL)
        documents, total = pipe.execute()
        return {"server": f"redis {server.get('redis_version', '?')}", "documents": int(documents),
                "bytes": int(total or 0)}


class RedisWriter:
    """One document onto the server: pages in pipelines as they come, then its entry, last."""

    def __init__(self, store: RedisStore, key: str, size_limit: int) -> None:
        self.store, self.key, self.size_limit = store, key, size_limit
        self.size = 0

    def pages(self, records: list[dict[str, Any]]) -> None:
        pages = _pages_key(self.key)
        mapping = {str(record["page"]): zlib.compress(_json(record), LEVEL) for record in records}
        self.size += sum(len(value) for value in mapping.values())
        pipe = self.store.client.pipeline(transaction=False)
        pipe.hset(pages, mapping=mapping)  # type: ignore[arg-type]
        pipe.expire(pages, PENDING)
        pipe.execute()

    def commit(self, meta: dict[str, Any], done: dict[str, Any], numbers: list[int], text_pages: int) -> bool:
        """Write the entry, unless the server lost pages meanwhile; evict down to the cap."""
        now = time.time()
        entry = {"meta": meta, "done": done, "page_numbers": numbers, "text_pages": text_pages, "size": self.size,
                 "fetched_at": now}
        evicted = self.store._commit(keys=[self.key, _pages_key(self.key), INDEX, SIZES, TOTAL],
                                     args=[_json(entry), now, self.size, self.size_limit, len(numbers)])
        return int(evicted) >= 0

    def abort(self) -> None:
        """Drop the pages written, unless a whole document owns them."""
        self.store._abort(keys=[self.key, _pages_key(self.key)])


class RedisLock:
    """A lock on the server: a random token set only if the key is free, with an expiry that a
    thread of the holder renews while it holds it. Released (or renewed) only while the
    key still holds this token: a holder whose lock expired cannot release its successor's."""

    def __init__(self, store: RedisStore, key: str, ttl: float = LOCK_TTL) -> None:
        self.store, self.key, self.ttl = store, key, ttl
        self.token = os.urandom(16).hex()
        self._stop: threading.Event | None = None

    def try_acquire(self) -> bool:
        if not self.store.client.set(self.key, self.token, nx=True, px=int(self.ttl * 1000)):
            return False
        self._stop = threading.Event()
        threading.Thread(target=self._renew_until_released, args=(self._stop,), daemon=True,
                         name="siftpdf-lock").start()
        return True

    def acquire(self, timeout: float, cancel: Cancel | None = None) -> bool:
        from ..workers.pool import poll

        return poll(self.try_acquire, timeout, cancel)

    def stop(self) -> None:
        """Stop renewing the lock (it expires within its TTL unless released)."""
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def release(self) -> None:
        self.stop()
        self.store._release(keys=[self.key], args=[self.token])

    def _renew_until_released(self, stop: threading.Event) -> None:
        while not stop.wait(self.ttl / 3):
            try:
                if not self.store._renew(keys=[self.key], args=[self.token, int(self.ttl * 1000)]):
                    return  # expired and taken meanwhile (the server was away): not ours any more
            except ERRORS:
                continue  # the server is away: the lock may expire; the work goes on


_STORES: dict[str, RedisStore] = {}
_OPENING = threading.Lock()


def shared_store(url: str) -> RedisStore:
    """The store of ``url``, made once per process (connections are made when first used)."""
    with _OPENING:
        store = _STORES.get(url)
        if store is None:
            store = _STORES[url] = RedisStore(url)
        return store
