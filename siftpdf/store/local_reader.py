"""Reading the shared cache (:mod:`siftpdf.store.local_store`) on the cache-hit path, light enough for the
console's fast path (:mod:`siftpdf.console.cache_hits`): this module imports only ``os`` and ``time`` at
start, and SQLite's module, json and pickle when it reads.

The cache's keys are made here, for the writer too, so that reader and writer cannot drift.
"""

from __future__ import annotations

import os
import time

# Not typing's TYPE_CHECKING: importing typing would cost a cache hit (see siftpdf/__init__).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

_BATCH = 64
TEXT = "text"  # the last part of the key of a document's text blob (page keys end in a number)
# The files whose code decides what a document extracts and organizes to (and how options are
# keyed): their size and CRC-32 are part of every cache key, so an upgrade or edit changes the keys.
CODE_FILES = ("child/extraction.py", "child/engines.py", "child/main.py", "child/job.py", "child/evidence.py",
              "child/pdfium.py", "child/spacing.py", "child/ocr.py", "child/ocrpage.py", "organize/__init__.py",
              "organize/layout.py", "organize/tables.py", "organize/headings.py", "organize/xycut.py",
              "organize/turned.py", "settings.py", "options.py", "docstream.py", "document.py", "fonts.py",
              "texfonts.py")
_CODE: list[str] = []


def code_identity() -> str:
    """The extraction code's files (size, CRC-32 of their bytes), once per process: cheaper
    than the package version (importlib.metadata) on a cache hit, and the same on every
    machine that runs the same code, so that machines sharing a cache server (``--cache-url``) share
    keys (an install's modification times differ from machine to machine)."""
    if not _CODE:
        from zlib import crc32

        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package
        parts = []
        for name in CODE_FILES:
            with open(os.path.join(here, name), "rb") as source:
                data = source.read()
            parts.append(f"{len(data)}:{crc32(data):08x}")
        _CODE.append(";".join(parts))
    return _CODE[0]


# The shared cache servers siftpdf speaks to (``--cache-url``): Redis's protocol, plain, over TLS or
# over a local socket.
CACHE_URL_SCHEMES = ("redis", "rediss", "unix")


def is_cache_url(url: str) -> bool:
    """Whether ``url`` names a shared cache server siftpdf can use (``siftpdf.store.local_store.check_url``
    says what is wrong with one that does not)."""
    scheme, sep, rest = url.partition("://")
    return bool(sep and rest) and scheme.lower() in CACHE_URL_SCHEMES


def options_name(max_pages: int, ocr: str) -> str:
    """The name the cache remembers the digest of the extraction options under when only
    --max-pages and --ocr are given (or nothing): the fast paths answer such command lines only."""
    return f"cli:{max_pages}" if ocr == "never" else f"cli:{max_pages}:ocr-{ocr}"


# -- keys ----------------------------------------------------------------------------------------

def doc_key(cls: str, sha: str, digest: str) -> str:
    return f"doc|{cls}|{sha}|{digest}"


def url_key(cls: str, url: str) -> str:
    return f"url|{cls}|{url.split('#', 1)[0]}"


def file_key(cls: str, path: str) -> str:
    return f"file|{cls}|{path}"


def digest_key(name: str) -> str:
    return f"digest|{name}|{code_identity()}"


def page_key(cls: str, sha: str, digest: str, page: int) -> str:
    return f"{cls}|{sha}|{digest}|{page}"


def text_key(cls: str, sha: str, digest: str) -> str:
    return f"{cls}|{sha}|{digest}|{TEXT}"


def tag(cls: str, sha: str, digest: str) -> str:
    return f"{cls}|{sha}|{digest}"


# -- what the cache has ever held, told without SQLite ------------------------------------------
# An empty file under KNOWN for every local file's path and every document's content the store
# was given, made before its entry: a path or content without one was never stored, and a first
# read says so without loading SQLite (a fifth of a one-page command's start-up). A mark left
# after its entry is gone (an eviction, a class cleared) costs a look in the store, as before.
KNOWN = "known"


def mark_path(directory: str | os.PathLike[str], kind: str, cls: str, key: str) -> str:
    """Where the mark of ``key`` (of ``kind`` ``file`` or ``doc``, for ``cls``) lies."""
    from ..system import sha256_hex

    name = sha256_hex(f"{kind}|{cls}|{key}".encode("utf-8", "surrogateescape"))[:32]
    return os.path.join(directory, KNOWN, name[:2], name)


def known(directory: str | os.PathLike[str], kind: str, cls: str, key: str) -> bool:
    """Whether the store at ``directory`` may hold the ``file`` at path ``key`` or the ``doc`` of
    content hash ``key`` for caller class ``cls`` (False: it surely does not)."""
    return os.path.exists(mark_path(directory, kind, cls, key))


def mark_known(directory: str | os.PathLike[str], kind: str, cls: str, key: str) -> None:
    """Mark ``key`` as stored (before its entry is written: an error here is the write's)."""
    path = mark_path(directory, kind, cls, key)
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def encode_entry(entry: dict[str, Any]) -> bytes:
    """A document entry as the store keeps it: marshal's bytes (which diskcache stores as they
    are), so that reading it imports neither pickle nor json (with json comes re, and with
    them a cache hit's start-up grows by a quarter). The values are JSON's kinds."""
    import marshal

    return marshal.dumps(entry)


def encode_page(record: dict[str, Any]) -> bytes:
    """A page record as the store keeps it: marshal's bytes, as a document entry (reading a
    page back then imports neither json nor, with it, re and enum: a tenth of a cache hit)."""
    import marshal

    return marshal.dumps(record)


def decode_page(value: Any) -> dict[str, Any] | None:
    """A stored page: marshal's bytes (:func:`encode_page`), or JSON text as earlier caches
    kept it; None for bytes that do not load (another Python's marshal), as a page the store
    lost (its document's entry, marshal's too, reads as no entry first: a miss)."""
    if isinstance(value, bytes):
        import marshal

        try:
            value = marshal.loads(value)
        except (ValueError, EOFError, TypeError):
            return None
    elif isinstance(value, str):
        import json

        value = json.loads(value)
    return value if isinstance(value, dict) else None


def document_entry(value: Any) -> dict[str, Any] | None:
    """A stored document entry: marshal's bytes (:func:`encode_entry`), or a dict as earlier
    caches kept it. Bytes that do not load (another Python's marshal) are no entry."""
    if isinstance(value, bytes):
        import marshal

        try:
            value = marshal.loads(value)
        except (ValueError, EOFError, TypeError):
            return None
    return value if isinstance(value, dict) else None


def file_stamp(st: os.stat_result) -> str:
    """What identifies a local file's content without reading it: device, inode, size, mtime
    and ctime (which no one can set back; it moves on a rewrite in place too). A file rewritten
    within one tick of the file system's clock with the same size looks unchanged: a known
    limit (siftpdf(1), FILES)."""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def slim(record: dict[str, Any], furniture: bool = False) -> dict[str, Any]:
    """The fields of a page record that the text view and grep read (``views.text.page_text``
    and ``render_page``, ``views.search.grep_pages``): what a document's text blob keeps of each
    page; with ``furniture``, the text of its furniture too (grep searches it)."""
    out: dict[str, Any] = {key: record[key] for key in ("page", "status", "text", "error") if key in record}
    if furniture:
        from ..views.text import furniture_lines

        if lines := furniture_lines(record):
            out["furniture"] = [{"text": line} for line in lines]
    return out


def _sqlite() -> Any:
    """SQLite's module: its C core where that is at hand, which a view's SELECTs need and
    nothing more (the ``sqlite3`` package around it imports ``datetime`` for its adapters, a
    tenth of a cache hit's start-up)."""
    try:
        import _sqlite3

        return _sqlite3
    except ImportError:
        import sqlite3

        return sqlite3


class View:
    """Read-only access to the stores, for the cache-hit path.

    Opening a ``diskcache.Cache`` writes its settings (about twenty commits) and reopens its
    connection, ~20 ms per store, and importing diskcache costs ~15 ms more: too slow for a hit.
    A view runs only SELECTs on diskcache's ``Cache`` table and decodes the values as
    ``diskcache.Disk.fetch`` does (:func:`fetch_value`; a test holds the two to the same answers).
    A store that does not exist yet is simply empty.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = directory
        self._parts: dict[str, Any] = {}

    def _part(self, name: str) -> Any:
        if self._parts.get(name) is None:
            path = os.path.join(self.directory, name, "cache.db")
            if not os.path.exists(path):
                return None  # not yet: another process may create it while we wait for a lock
            connection = _sqlite().connect(path, timeout=60, isolation_level=None, check_same_thread=False)
            self._parts[name] = (connection, os.path.join(self.directory, name))
        return self._parts[name]

    def close(self) -> None:
        """Close the view's connections (it opens them again when next read)."""
        parts, self._parts = self._parts, {}
        for part in parts.values():
            if part is not None:
                part[0].close()

    def _get(self, name: str, key: str) -> Any:
        part = self._part(name)
        if part is None:
            return None
        connection, folder = part
        try:  # a str key is stored as itself with raw = 1
            row = connection.execute("SELECT expire_time, mode, filename, value FROM Cache WHERE key = ? AND raw = 1",
                                     (key,)).fetchone()
        except _sqlite().OperationalError:  # another process is creating the store right now
            return None
        if row is None or (row[0] is not None and row[0] < time.time()):
            return None
        try:
            return fetch_value(folder, row[1], row[2], row[3])
        except OSError:  # its file was removed by an eviction meanwhile
            return None

    def document(self, cls: str, sha: str, digest: str) -> dict[str, Any] | None:
        return document_entry(self._get("docs", doc_key(cls, sha, digest)))

    def url(self, cls: str, url: str) -> dict[str, Any] | None:
        entry = self._get("docs", url_key(cls, url))
        return entry if isinstance(entry, dict) else None

    def file(self, cls: str, path: str, stamp: str) -> str | None:
        """The content hash of the local file at ``path`` (resolved) when it was hashed with
        this ``stamp`` (:func:`file_stamp`), else None."""
        entry = self._get("docs", file_key(cls, path))
        if not isinstance(entry, str):
            return None
        known, _, sha = entry.rpartition(" ")
        return sha if known == stamp and sha else None

    def digest(self, name: str) -> str | None:
        """The options digest remembered under ``name`` for this code (:func:`siftpdf.read._remember_digest`)."""
        entry = self._get("docs", digest_key(name))
        return entry if isinstance(entry, str) else None

    def text(self, cls: str, sha: str, digest: str) -> TextBlob | None:
        """The document's text blob (:class:`TextBlob`); None for a document cached without
        one (or evicted meanwhile)."""
        raw = self._get("pages", text_key(cls, sha, digest))
        return TextBlob.decode(raw) if raw is not None else None

    def text_records(self, cls: str, sha: str, digest: str, entry: dict[str, Any],
                     search: Any = None) -> Iterator[dict[str, Any]] | None:
        """The cached document as doc-stream records with :func:`slim` pages, from its text blob
        (one read), or None when it has none. With ``search`` (a compiled pattern) only the
        pages it may match (:meth:`TextBlob.pages`)."""
        blob = self.text(cls, sha, digest)
        if blob is None or len(blob.index) != len(entry["page_numbers"]):
            return None
        return _records(entry, blob.pages(search))

    def read(self, cls: str, sha: str, digest: str, entry: dict[str, Any], first_page: int = 1,
             last_page: int | None = None, text_only: bool = False,
             search: Any = None) -> tuple[Iterator[dict[str, Any]], bool]:
        """The records of a cached document for a reader that needs the pages ``first_page`` to
        ``last_page`` (all of them by default) and, with ``text_only``, only their text, and
        whether the reader must check that the document has text (``docstream.require_text``).
        A document with text gives the slice only; the text blob, when asked for and there,
        and of it, when the reader searches every page with ``search`` and skips the pages it
        does not match (grep), only the pages that search may match."""
        if entry.get("text_pages") and (first_page > 1 or last_page):  # has text: the slice only
            return self.records(cls, sha, digest, entry, first_page, last_page), False
        if not text_only:
            return self.records(cls, sha, digest, entry), True
        if search is not None and entry.get("text_pages"):  # has text: the pages that may match
            text = self.text_records(cls, sha, digest, entry, search)
            if text is not None:
                return text, False
        text = self.text_records(cls, sha, digest, entry)
        return (self.records(cls, sha, digest, entry) if text is None else text), True

    def records(self, cls: str, sha: str, digest: str, entry: dict[str, Any],
                start: int = 1, stop: int | None = None) -> Iterator[dict[str, Any]]:
        """The cached document as doc-stream records, its pages ``start`` to ``stop`` (the
        others are neither read nor decoded). A page gone missing (evicted by another process
        meanwhile) ends the stream with an error rather than a silent gap."""
        yield {"meta": dict(entry["meta"])}
        numbers: list[int] = [n for n in entry["page_numbers"] if n >= start and (stop is None or n <= stop)]
        for start in range(0, len(numbers), _BATCH):
            batch = numbers[start:start + _BATCH]
            found = self._pages(cls, sha, digest, batch)
            for number in batch:
                if number not in found:
                    from ..errors import UnreadableError

                    raise UnreadableError(f"cache entry lost page {number} (run the command again)")
                yield found[number]
        yield {"done": dict(entry["done"])}

    def _pages(self, cls: str, sha: str, digest: str, numbers: list[int]) -> dict[int, dict[str, Any]]:
        """Several pages in one query (a 700-page grep is then a dozen queries, not 700)."""
        part = self._part("pages")
        if part is None:
            return {}
        connection, folder = part
        keys = {page_key(cls, sha, digest, number): number for number in numbers}
        marks = ",".join("?" * len(keys))
        try:
            rows = connection.execute(f"SELECT key, expire_time, mode, filename, value FROM Cache "
                                      f"WHERE raw = 1 AND key IN ({marks})", list(keys)).fetchall()
        except _sqlite().OperationalError:
            return {}
        found: dict[int, dict[str, Any]] = {}
        now = time.time()
        for key, expire, mode, filename, value in rows:
            if expire is not None and expire < now:
                continue
            try:
                page = decode_page(fetch_value(folder, mode, filename, value))
            except OSError:
                continue
            if page is not None:
                found[keys[key]] = page
        return found


def encode_text(pages: list[dict[str, Any]]) -> bytes | str:
    """A text blob (:class:`TextBlob`) of the pages (:func:`slim` records)."""
    import json
    import marshal

    index: list[list[Any]] = []
    texts: list[bytes] = []
    offset = 0
    for page in pages:
        text = page.get("text", "")
        if not isinstance(text, str):
            return json.dumps(pages, ensure_ascii=False, separators=(",", ":"))  # as it is, then
        data = text.encode("utf-8", "surrogatepass")  # whatever the text holds comes back as it was
        others: dict[str, Any] = {key: page[key] for key in ("status", "error") if key in page}
        if page.get("furniture"):  # its lines after the body's, where one search of the blob finds them
            others["body"] = len(data)
            data += b"\n" + "\n".join(f["text"] for f in page["furniture"]).encode("utf-8", "surrogatepass")
        index.append([page["page"], offset, offset + len(data), "text" in page, others])
        texts.append(data)
        offset += len(data) + 1
    head = marshal.dumps(index)
    return _MAGIC + len(head).to_bytes(8, "little") + head + b"\n" + b"\n".join(texts)


_MAGIC = b"siftpdf text 1\n"


class TextBlob:
    """A document's text blob: a magic line, the length of the index and the index (marshal's
    bytes: per page its number, where its text lies, whether it has one, status and error, and
    where its body ends when its furniture's lines follow it), then the texts in UTF-8 after a
    line break, a line break between two. Reading it is one read
    and slices (a JSON list of the texts would be scanned for escapes character by character,
    20 ms on a 2,000-page document), and one search of the whole of it tells which pages a
    pattern may match (:meth:`pages`). A JSON list of the pages themselves (text) reads too."""

    def __init__(self, index: list[list[Any]], raw: bytes, base: int = 0,
                 pages: list[dict[str, Any]] | None = None) -> None:
        self.index = index
        self.raw = raw  # the texts start at raw[base] (not copied out of it: 8 MB on 2,000 pages)
        self.base = base
        self._pages = pages

    @classmethod
    def decode(cls, raw: Any) -> TextBlob | None:
        try:
            if isinstance(raw, str):
                import json

                pages = json.loads(raw)
                return cls([[0]] * len(pages), b"", 0, pages) if isinstance(pages, list) else None
            if isinstance(raw, bytes) and raw.startswith(_MAGIC):
                import marshal

                start = len(_MAGIC) + 8
                end = start + int.from_bytes(raw[len(_MAGIC):start], "little")
                index = marshal.loads(raw[start:end])
                return cls(index, raw, end + 1) if isinstance(index, list) and raw[end:end + 1] == b"\n" else None
        except (ValueError, EOFError, TypeError):
            pass
        return None

    def pages(self, search: Any = None) -> Iterator[dict[str, Any]]:
        """The pages as :func:`slim` records, in order; with ``search`` (a compiled re2 pattern,
        grep's page filter) only those whose text that search may match: a page it matches is
        a page some match of one search of the whole blob overlaps (its texts between line
        breaks, as a page's text is for ^, $ and \\b), so no other page can match."""
        if self._pages is not None:
            yield from self._pages
            return
        wanted = self._candidates(search) if search is not None else None
        raw, base = self.raw, self.base
        for position, (number, start, end, has_text, others) in enumerate(self.index):
            if wanted is not None and position not in wanted:
                continue
            page: dict[str, Any] = {"page": number}
            if "status" in others:
                page["status"] = others["status"]
            if has_text:
                body = start + others["body"] if "body" in others else end
                page["text"] = raw[base + start:base + body].decode("utf-8", "surrogatepass")
                if body < end:
                    lines = raw[base + body + 1:base + end].decode("utf-8", "surrogatepass").split("\n")
                    page["furniture"] = [{"text": line} for line in lines]
            if "error" in others:
                page["error"] = others["error"]
            yield page

    def _candidates(self, search: Any) -> set[int]:
        """The positions in the index of the pages a match overlaps (their text and the line
        break after it). One search from the start of the page after a match's last: at most
        one search per page, however many matches a page holds."""
        from bisect import bisect_right

        starts = [self.base + entry[1] for entry in self.index]
        found: set[int] = set()
        position = self.base
        while position <= len(self.raw):
            match = search.search(self.raw, position)
            if match is None:
                break
            start, end = match.span()
            first = max(0, bisect_right(starts, start) - 1)
            last = max(first, bisect_right(starts, end) - 1)
            found.update(range(first, last + 1))
            if last + 1 >= len(starts):
                break
            position = starts[last + 1]
        return found


def _records(entry: dict[str, Any], pages: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    yield {"meta": dict(entry["meta"])}
    yield from pages
    yield {"done": dict(entry["done"])}


def fetch_value(folder: str, mode: int, filename: str | None, value: Any) -> Any:
    """A value as ``diskcache.Disk.fetch(mode, filename, value, read=False)`` returns it
    (diskcache 5: modes 1 raw, 2 binary file, 3 text file, 4 pickle inline or in a file)."""
    if mode == 1:
        return bytes(value) if isinstance(value, memoryview) else value
    if mode == 2:
        with open(os.path.join(folder, str(filename)), "rb") as reader:
            return reader.read()
    if mode == 3:
        with open(os.path.join(folder, str(filename)), encoding="UTF-8") as reader:
            return reader.read()
    if mode == 4:
        import pickle

        if value is None:
            with open(os.path.join(folder, str(filename)), "rb") as reader:
                return pickle.load(reader)
        return pickle.loads(value)
    raise OSError(f"unknown diskcache value mode {mode}")
