"""Open a SOURCE (PDF path, doc-stream file, ``-``/stdin) as a Document, decided by sniffing."""

from __future__ import annotations

import os
import stat
import sys

from .defaults import MAX_PDF_BYTES
from .docstream import Document, read_records, require_text, with_source
from .errors import TooLargeError, UnreadableError, UsageError
from .options import ReadOptions
from .sniff import SNIFF_BYTES, Sniffed, sniff_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any


def _organized(records: Iterator[dict[str, Any]], options: ReadOptions) -> Iterator[dict[str, Any]]:
    """Organization of a saved doc stream: pages that carry evidence are organized
    again with these options, others pass through."""
    from .organize import organize_records

    return organize_records(records, options.extraction.organize)


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
    the stream reads (:func:`siftpdf.read.local_file`), remembered with its content hash."""
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
    from . import read

    if options.sharing.cache.enabled and not options.extraction.render:
        return read.open_cached(data, name, options, local=local)
    return Document(with_source(require_text(read.extract(data, options)), name))




def open_source(source: str | None, options: ReadOptions | None = None) -> Document:
    """Open a path, ``-`` or None (stdin) as a Document."""
    options = options or ReadOptions()
    if source in (None, "-"):
        return open_stream(sys.stdin.buffer, None, options)
    if not source:
        raise UsageError("an empty source name (give a PDF path, a URL, a doc stream, or - for stdin)")
    if is_url(source):
        from .read import open_url

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
    if options.sharing.cache.enabled and not options.extraction.render:
        from . import read

        try:
            local = read.local_file(handle)
            doc = read.open_known(local, source, options)
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
    from fnmatch import fnmatchcase  # here: it imports re, which a command on one file does without

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
