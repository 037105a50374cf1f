"""Open a SOURCE (PDF path, doc-stream file, ``-``/stdin) as a Document, decided by sniffing."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .docstream import Document, read_records, require_text
from .errors import TooLargeError, UnreadableError, UsageError
from .runner import Limits
from .settings import OrganizeOptions
from .sniff import SNIFF_BYTES, Sniffed, sniff_bytes

MAX_PDF_BYTES = 200 << 20


@dataclass
class ReadOptions:
    """How a PDF source becomes a doc stream."""

    limits: Limits = field(default_factory=Limits)
    password: str | None = None
    in_process: bool = False
    #: Called as ``on_page(done, total)`` after each extracted page (total: pages to extract),
    #: so a caller can show progress; it must not write to stdout.
    on_page: Callable[[int, int], None] | None = None
    organize: OrganizeOptions = field(default_factory=OrganizeOptions)
    render: str | None = None  # pages (a range spec) whose records also carry a PNG render


# Evidence makes page records several times longer than their text: the child's output
# budget grows with it so a long document is not refused for its evidence.
EVIDENCE_TEXT_FACTOR = 8


def _organized(records: Iterator[dict[str, Any]], options: ReadOptions) -> Iterator[dict[str, Any]]:
    """Apply organization (SPEC §7) to records whose pages carry evidence."""
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
        if b"%PDF-" in head or head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b'{"meta"'):
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
                on_close: Any = None) -> Document:
    head = read_head(stream)
    kind = sniff_bytes(head)
    if kind.kind == "docstream":
        return Document(_organized(read_records(_lines(head, stream)), options), on_close=on_close)
    if kind.kind != "pdf":
        if on_close:
            on_close()
        raise UnreadableError(f"not a PDF or doc stream ({name or 'stdin'}: {kind.describe()})")
    data = head + stream.read(MAX_PDF_BYTES + 1 - len(head))
    if on_close:
        on_close()
    if len(data) > MAX_PDF_BYTES:
        raise TooLargeError(f"too large (PDF over {MAX_PDF_BYTES >> 20} MiB)")
    return open_pdf_bytes(data, name, options)


def open_pdf_bytes(data: bytes, name: str | None, options: ReadOptions) -> Document:
    """Extract PDF bytes (in the child unless trusted) and return the resulting Document."""
    settings = options.organize
    evidence = settings.needs_evidence
    if options.in_process:
        from .extraction import ExtractOptions, extract_records

        records = extract_records(data, ExtractOptions(max_pages=options.limits.max_pages,
                                                       password=options.password, evidence=evidence,
                                                       image_mode=settings.image_mode, render=options.render))
    else:
        from .runner import run_child

        limits = options.limits
        if evidence:
            limits = dataclasses.replace(limits, max_text=limits.max_text * EVIDENCE_TEXT_FACTOR)
        records = run_child(data, options.password, limits, evidence=evidence, image_mode=settings.image_mode,
                            render=options.render)
    if options.on_page is not None:
        records = _report_pages(records, options.on_page)
    if evidence:
        records = _organized(records, options)
    return Document(_with_source(require_text(records), name))


def _report_pages(records: Iterator[dict[str, Any]],
                  on_page: Callable[[int, int], None]) -> Iterator[dict[str, Any]]:
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


def _with_source(records: Iterator[dict[str, Any]], name: str | None) -> Iterator[dict[str, Any]]:
    try:
        for record in records:
            if "meta" in record:
                record["meta"]["source"] = name
            yield record
    finally:
        close = getattr(records, "close", None)
        if close:
            close()


def open_source(source: str | None, options: ReadOptions | None = None) -> Document:
    """Open a path, ``-`` or None (stdin) as a Document."""
    options = options or ReadOptions()
    if source in (None, "-"):
        return open_stream(sys.stdin.buffer, None, options)
    if "://" in source and source.split("://", 1)[0].lower() in ("http", "https"):
        raise UsageError("URLs are read by 'siftpdf fetch URL' (not available in this build)")
    try:
        handle = open(source, "rb")
    except FileNotFoundError:
        raise UsageError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{source}: is a directory") from None
    except OSError as exc:
        raise UsageError(f"{source}: {exc.strerror}") from None
    return open_stream(handle, source, options, on_close=handle.close)


def sniff_source(source: str | None) -> Sniffed:
    if source in (None, "-"):
        return sniff_bytes(read_head(sys.stdin.buffer))
    try:
        with open(source, "rb") as handle:
            return sniff_bytes(read_head(handle))
    except OSError as exc:
        raise UsageError(f"{source}: {exc.strerror}") from None
