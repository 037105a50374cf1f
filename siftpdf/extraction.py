"""Extraction proper: PDF bytes in, doc-stream records out (SPEC §3, §5).

This runs inside the extraction child (``siftpdf._child``) or, for trusted input, in-process.
It loads the engines lazily so the parent never imports native PDF code by accident.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import UnreadableError

FORMAT = 1
DEFAULT_MAX_PAGES = 2000
CHUNK_PAGES = 32


@dataclass(frozen=True)
class ExtractOptions:
    """What to extract. ``shard``/``shards``/``chunk`` split pages across worker processes:
    chunk k (pages k*chunk+1 … (k+1)*chunk) belongs to shard k % shards."""

    max_pages: int = DEFAULT_MAX_PAGES
    password: str | None = None
    shard: int = 0
    shards: int = 1
    chunk: int = CHUNK_PAGES
    first_page: int = 1
    outline: bool = True


def shard_of(page: int, shards: int, chunk: int) -> int:
    return ((page - 1) // chunk) % shards


def extract_records(data: bytes, opts: ExtractOptions = ExtractOptions()) -> Iterator[dict[str, Any]]:
    """Yield ``meta``, then one record per page of this shard, then ``done``.

    Raises EncryptedError / UnreadableError when the document as a whole cannot be opened;
    a page that fails becomes a ``failed`` page record and extraction goes on.
    """
    from .engines import PdfiumDoc, PypdfDoc, engine_info, open_document

    started = time.monotonic()
    doc = open_document(data, opts.password)
    fallback: list[PypdfDoc | None] = []
    try:
        total = doc.page_count()
        if total <= 0:
            raise UnreadableError("unreadable PDF (no pages)")
        limit = min(total, opts.max_pages) if opts.max_pages > 0 else total
        meta: dict[str, Any] = {
            "format": FORMAT,
            "source": None,
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
            "pages": total,
            "title": doc.title(),
            "outline": _safe(doc.outline, []) if opts.outline else [],
            "engine": engine_info() if isinstance(doc, PdfiumDoc) else {"name": "pypdf", "version": _pypdf_version()},
            "max_pages": opts.max_pages,
        }
        if opts.outline:
            labels = _safe(lambda: doc.page_labels(limit), None)
            if labels:
                meta["page_labels"] = labels
        yield {"meta": meta}

        processed = failed = 0
        engines: dict[str, int] = {}
        for page in range(max(1, opts.first_page), limit + 1):
            if shard_of(page, opts.shards, opts.chunk) != opts.shard:
                continue
            record = _extract_page(doc, page, data, opts.password, fallback)
            processed += 1
            if record["status"] == "failed":
                failed += 1
            else:
                engines[record.get("engine", doc.name)] = engines.get(record.get("engine", doc.name), 0) + 1
            yield record
        yield {
            "done": {
                "pages_processed": processed,
                "pages_failed": failed,
                "page_limit_reached": limit < total,
                "clipped_chars": 0,
                "unmapped_chars": 0,
                "elapsed_ms": int((time.monotonic() - started) * 1000),
                "engines": engines,
            }
        }
    finally:
        doc.close()


def _extract_page(doc: Any, page: int, data: bytes, password: str | None,
                  fallback: list[Any]) -> dict[str, Any]:
    try:
        result = doc.extract_page(page - 1)
    except (Exception, MemoryError) as exc:  # noqa: BLE001 - any engine failure is this page's error
        first_error = f"{type(exc).__name__}: {exc}"
        result = None
        if doc.name == "pdfium":
            result = _fallback_page(page, data, password, fallback)
        if result is None:
            return {"page": page, "error": first_error[:500], "status": "failed"}
    record: dict[str, Any] = {"page": page, "text": result.text, "status": result.status}
    if result.engine != doc.name:
        record["engine"] = result.engine
    return record


def _fallback_page(page: int, data: bytes, password: str | None, fallback: list[Any]) -> Any:
    from .engines import PypdfDoc

    if not fallback:
        try:
            fallback.append(PypdfDoc(data, password))
        except Exception:  # noqa: BLE001 - no fallback available is not an error of its own
            fallback.append(None)
    reader = fallback[0]
    if reader is None or page > reader.page_count():
        return None
    try:
        return reader.extract_page(page - 1)
    except (Exception, MemoryError):  # noqa: BLE001
        return None


def _safe(func: Any, default: Any) -> Any:
    """Optional metadata: a broken outline or label tree must not cost the text."""
    try:
        return func()
    except (Exception, RecursionError):  # noqa: BLE001
        return default


def _pypdf_version() -> str:
    import pypdf

    return f"pypdf {pypdf.__version__}"
