"""Open a SOURCE (PDF path, doc-stream file, ``-``/stdin) as a Document, decided by sniffing."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable, Generator, Iterator
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from fnmatch import fnmatchcase
from typing import IO, TYPE_CHECKING, Any

from .cache import CacheSettings
from .cacheread import code_identity
from .docstream import FORMAT, Document, read_records, require_text, with_source
from .errors import TooLargeError, UnreadableError, UsageError
from .runner import Limits
from .settings import OrganizeOptions
from .sniff import SNIFF_BYTES, Sniffed, sniff_bytes

if TYPE_CHECKING:
    from .cancel import Cancel

MAX_PDF_BYTES = 200 << 20


@dataclass
class ReadOptions:
    """How a PDF source becomes a doc stream."""

    limits: Limits = field(default_factory=Limits)
    password: str | None = None
    in_process: bool = False
    # How this call shares work with others (never part of the cache key):
    cache: CacheSettings = field(default_factory=CacheSettings)
    allow_private: bool = False
    verbose: bool = False
    caller_id: str | None = None
    #: Seconds to wait in the extraction pool's line for a worker (the command line's
    #: ``--wait``); None: the service's short line (:data:`siftpdf.pool.MAX_WAIT`, busy beyond).
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
    #: path (:mod:`siftpdf.quick`) finds a cache hit without building options (the CLI names its
    #: default options).
    digest_name: str | None = None
    #: Set from another thread to stop this read: its extraction children are killed at once
    #: and it raises CancelledError (see :mod:`siftpdf.cancel`).
    cancel: Cancel | None = None

    def digest(self) -> str:
        """A short hash of every option that changes the extracted output: part of each cache
        key. A field added to this class counts unless it is listed in ``_NOT_OUTPUT``."""
        values: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _NOT_OUTPUT}
        values.update(max_pages=self.limits.max_pages, format=FORMAT, code=_code_identity())
        text = json.dumps(values, sort_keys=True, default=_plain)
        import hashlib

        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# Fields of ReadOptions that do not change what a document extracts to (limits: only its
# max_pages does, added explicitly; the password opens a document, it does not change it).
_NOT_OUTPUT = frozenset({"limits", "password", "in_process", "cache", "allow_private", "verbose", "caller_id", "wait",
                         "on_page", "on_event", "first_page",
                         "last_page", "text_only", "search", "digest_name", "cancel"})

# The extraction code's files (size, mtime): an upgrade or edit changes the output, so it
# changes the key.
_code_identity = code_identity


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)


def _organized(records: Iterator[dict[str, Any]], options: ReadOptions) -> Iterator[dict[str, Any]]:
    """Organization of a saved doc stream: pages that carry evidence are organized
    again with these options, others pass through."""
    from .organize import organize_records

    return organize_records(records, options.organize)


def read_head(stream: IO[bytes], size: int = SNIFF_BYTES) -> bytes:
    """Read up to ``size`` bytes for sniffing, but stop as soon as the kind is certain:
    a doc stream on a pipe must not wait for a kilobyte its writer has not produced yet."""
    read = getattr(stream, "read1", stream.read)
    head = b""
    while len(head) < size:
        chunk = read(size - len(head))
        if not chunk:
            break
        head += chunk
        if b"%PDF-" in head or sniff_bytes(head).kind == "docstream":
            break
    return head


def _lines(head: bytes, stream: IO[bytes]) -> Iterator[bytes]:
    """The stream's lines, with the sniffed head put back in front."""
    parts = head.split(b"\n")
    tail = parts.pop()
    for part in parts:
        yield part + b"\n"
    first = tail + stream.readline()
    if first:
        yield first
    yield from stream


def open_stream(stream: IO[bytes], name: str | None, options: ReadOptions,
                on_close: Any = None, local: tuple[str, str] | None = None) -> Document:
    """The Document of a stream, by its kind; ``local`` is the (path, stamp) of the local file
    the stream reads (:func:`siftpdf.shared.local_file`), remembered with its content hash."""
    head = _read(read_head, stream, name, on_close)
    kind = sniff_bytes(head)
    if kind.kind == "docstream":
        return Document(_organized(read_records(_lines(head, stream)), options), on_close=on_close)
    if kind.kind != "pdf":
        if on_close:
            on_close()
        raise UnreadableError(f"not a PDF or doc stream ({name or 'stdin'}: {kind.describe()})")
    data = head + _read(lambda source: source.read(MAX_PDF_BYTES + 1 - len(head)), stream, name, on_close)
    if on_close:
        on_close()
    if len(data) > MAX_PDF_BYTES:
        raise TooLargeError(f"too large (PDF over {MAX_PDF_BYTES >> 20} MiB)")
    return open_pdf_bytes(data, name, options, local)


def _read(read: Callable[[IO[bytes]], bytes], stream: IO[bytes], name: str | None, on_close: Any) -> bytes:
    """A read of the source; one that fails (an I/O error, a special file) names the source."""
    try:
        return read(stream)
    except OSError as exc:
        if on_close:
            on_close()
        raise UsageError(f"{name or 'stdin'}: {exc.strerror or exc}") from None


def open_pdf_bytes(data: bytes, name: str | None, options: ReadOptions,
                   local: tuple[str, str] | None = None) -> Document:
    """The Document of PDF bytes: from the shared cache, or extracted (in the child unless
    trusted) under the pool and stored. Pages are organized unless the options say
    not to; a render request is never served from the cache (renders are not stored)."""
    from . import shared

    if options.cache.enabled and not options.render:
        return shared.open_cached(data, name, options, local=local)
    return Document(_with_source(require_text(shared.extract(data, options)), name))


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


_with_source = with_source


def open_source(source: str | None, options: ReadOptions | None = None) -> Document:
    """Open a path, ``-`` or None (stdin) as a Document."""
    options = options or ReadOptions()
    if source in (None, "-"):
        return open_stream(sys.stdin.buffer, None, options)
    if not source:
        raise UsageError("an empty source name (give a PDF path, a URL, a doc stream, or - for stdin)")
    if is_url(source):
        from .shared import open_url

        return open_url(source, options)
    try:
        handle = open(source, "rb")
    except FileNotFoundError:
        raise UsageError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{source}: is a directory") from None
    except OSError as exc:
        raise UsageError(f"{source}: {exc.strerror}") from None
    local = None
    if options.cache.enabled and not options.render:
        from . import shared

        try:
            local = shared.local_file(handle)
            doc = shared.open_known(local, source, options)
        except BaseException:
            handle.close()
            raise
        if doc is not None:  # a cache hit on a file seen before: not read
            handle.close()
            return doc
    return open_stream(handle, source, options, on_close=handle.close, local=local)


def is_url(source: str) -> bool:
    return "://" in source and source.split("://", 1)[0].lower() in ("http", "https")


def require_url(url: str, local: str) -> None:
    """What ``fetch`` takes: an http(s) URL. Another scheme is refused as the fetch guard
    refuses one (``fetch``); anything else is a usage error, whose message ends with
    ``local``, what reads a local file instead."""
    if "://" in url and not is_url(url):
        from .errors import FetchError

        raise FetchError(f"fetch refused: only http and https URLs ({url.split('://', 1)[0]}:)")
    if not is_url(url):
        raise UsageError(f"{url}: not an http(s) URL (local files: {local})")


def sniff_source(source: str | None) -> Sniffed:
    if source in (None, "-"):
        return sniff_bytes(read_head(sys.stdin.buffer))
    try:
        with open(source, "rb") as handle:
            return sniff_bytes(read_head(handle))
    except OSError as exc:
        raise UsageError(f"{source}: {exc.strerror}") from None


def find_documents(folder: str, follow_links: bool = False, include: tuple[str, ...] = (),
                   exclude: tuple[str, ...] = (), exclude_dir: tuple[str, ...] = (),
                   on_error: Callable[[str, str], None] | None = None) -> Iterator[str]:
    """The PDFs and doc streams in ``folder`` and its folders, by name order, each found by
    sniffing its first bytes, never by its name (grep -r). Links met on the way are followed
    with ``follow_links`` (grep -R) and passed over without; other files (text, images, a
    pipe) are passed over. ``include`` and ``exclude`` are globs of a file's name (exclude
    wins), ``exclude_dir`` of a folder's. ``on_error(path, reason)`` hears of what could not
    be listed or read."""
    seen: set[tuple[int, int]] = set()

    def walk(path: str) -> Iterator[str]:
        try:
            info = os.stat(path)
            if (info.st_dev, info.st_ino) in seen:  # a link back up the tree (-R)
                return
            seen.add((info.st_dev, info.st_ino))
            entries = sorted(os.scandir(path), key=lambda entry: entry.name)
        except OSError as exc:
            if on_error:
                on_error(path, exc.strerror or str(exc))
            return
        for entry in entries:
            try:
                if entry.is_symlink() and not follow_links:
                    continue
                if entry.is_dir():
                    if not any(fnmatchcase(entry.name, glob) for glob in exclude_dir):
                        yield from walk(entry.path)
                    continue
                if not stat.S_ISREG(entry.stat().st_mode):
                    continue
            except OSError as exc:
                if on_error:
                    on_error(entry.path, exc.strerror or str(exc))
                continue
            if include and not any(fnmatchcase(entry.name, glob) for glob in include):
                continue
            if any(fnmatchcase(entry.name, glob) for glob in exclude):
                continue
            if _is_document(entry.path, on_error):
                yield entry.path

    yield from walk(folder)


def _is_document(path: str, on_error: Callable[[str, str], None] | None) -> bool:
    """Whether a file's first bytes are a PDF's or a doc stream's."""
    try:
        with open(path, "rb") as handle:
            return sniff_bytes(read_head(handle)).kind in ("pdf", "docstream")
    except OSError as exc:
        if on_error:
            on_error(path, exc.strerror or str(exc))
        return False
