"""Extraction proper: PDF bytes in, doc-stream records out (docs/manual.md, DOC STREAM).

This runs inside the extraction child (``siftpdf.child.main``) or, for trusted input, in-process.
It loads the engines lazily so the parent never imports native PDF code by accident.
"""

from __future__ import annotations

import os
import time

from ..docline import FORMAT, scrub, scrub_record
from ..errors import UnreadableError
from .job import Job

# Not typing's: typing, with the re it imports, costs the child's start (siftpdf.docline).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from ..ranges import PageRange



class ExtractOptions(Job):
    """What to extract: a child's job (:class:`siftpdf.child.job.Job`: ``shard``/``shards``/``chunk``
    split pages across worker processes, chunk k (pages k*chunk+1 … (k+1)*chunk) belonging to
    shard k % shards) and the password that opens the document. (A record: a dataclass would
    bring inspect into the child's start, a NamedTuple typing and re.)"""

    HIDDEN = frozenset({"password"})

    password: str | None = None


def shard_of(page: int, shards: int, chunk: int) -> int:
    return ((page - 1) // chunk) % shards


def extract_records(data: bytes, opts: ExtractOptions | None = None) -> Iterator[dict[str, Any]]:
    """Yield ``meta``, then one record per page of this shard, then ``done``.

    Raises EncryptedError / UnreadableError when the document as a whole cannot be opened;
    a page that fails becomes a ``failed`` page record and extraction goes on.
    """
    from .engines import open_document

    started = time.monotonic()
    opts = opts if opts is not None else ExtractOptions()
    doc = open_document(data, opts.password, allow_repair=opts.repair)
    fallback = _Fallback(doc.name, data, opts.password, opts.repair)
    try:
        total = doc.page_count()
        if total <= 0:
            raise UnreadableError("unreadable PDF (no pages)")
        limit = min(total, opts.max_pages) if opts.max_pages > 0 else total
        meta = _meta(doc, data, opts, total, limit)
        yield {"meta": meta}
        done = tally(meta, limit < total)
        for record in _pages(doc, opts, fallback, limit):
            count_page(done, record, doc.name)
            yield record
        done["elapsed_ms"] = int((time.monotonic() - started) * 1000)
        yield {"done": done}
    finally:
        fallback.close()
        doc.close()


def _meta(doc: Any, data: bytes, opts: ExtractOptions, total: int, limit: int) -> dict[str, Any]:
    from ..system import sha256_hex

    meta: dict[str, Any] = {
        "format": FORMAT,
        "source": None,
        "sha256": sha256_hex(data),
        "bytes": len(data),
        "pages": total,
        "title": doc.title(),
        "outline": _safe(doc.outline, []) if opts.outline else [],
        "engine": _engine_meta(doc.name),
        "max_pages": opts.max_pages,
    }
    if opts.outline:
        labels = _safe(lambda: doc.page_labels(limit), None)
        if labels:
            meta["page_labels"] = labels
    if count := scrub_record(meta):
        meta["replaced_chars"] = count
    return meta


def _pages(doc: Any, opts: ExtractOptions, fallback: _Fallback, limit: int) -> Iterator[dict[str, Any]]:
    """The records of this shard's pages: read (or salvaged, or recognized), scrubbed, and
    rendered when asked."""
    from .engines import PdfiumDoc

    render = _range(opts.render)
    salvage = _range(opts.salvage)
    reading: dict[str, Any] = {}  # what OCR learnt of the document (siftpdf.child.ocrpage.recognize)
    threads = _ocr_threads(opts, limit)  # once: os.cpu_count reads the system's files
    for page in range(max(1, opts.first_page), limit + 1):
        if shard_of(page, opts.shards, opts.chunk) != opts.shard:
            continue
        if salvage is not None and page in salvage:
            record = _salvage_page(page, fallback)
        else:
            record = _extract_page(doc, page, opts, fallback)
        if opts.ocr != "never" and record["status"] != "failed":
            from .ocrpage import recognize

            record = recognize(doc, record, opts.ocr, reading, opts.ocr_models, threads)
        count = _scrub_page(record)
        if count:
            record["replaced_chars"] = count
        if render is not None and page in render and isinstance(doc, PdfiumDoc):
            record["render_png"] = _safe(lambda index=page - 1: _png64(doc, index), None)
        yield record


OCR_THREADS = 2  # threads a page is read with when this child reads alone (ocr.pieces: at most 3)


def _ocr_threads(opts: ExtractOptions, limit: int) -> int:
    """The threads OCR may read a page with: more than one when no other child has pages of
    this document (a short scan read by one child, a page alone), so a page uses both cores."""
    alone = opts.shards <= 1 or (opts.shard == 0 and limit <= opts.chunk)
    return min(OCR_THREADS, os.cpu_count() or 1) if alone else 1


def tally(meta: dict[str, Any], limit_reached: bool) -> dict[str, Any]:
    """A document's ``done`` record before its first page (:func:`count_page` adds each): the
    children's, and the parent's that merges theirs (siftpdf.workers.runner)."""
    return {"pages_processed": 0, "pages_failed": 0, "page_limit_reached": limit_reached, "clipped_chars": 0,
            "unmapped_chars": 0, "replaced_chars": int(meta.get("replaced_chars", 0)), "pages_retried": 0,
            "engines": {}}


def count_page(done: dict[str, Any], record: dict[str, Any], default_engine: str) -> None:
    """Add a page record to the document's ``done`` counts (:func:`tally`)."""
    done["pages_processed"] += 1
    done["replaced_chars"] += record.get("replaced_chars", 0)
    done["pages_retried"] += "retried_after" in record
    evidence = record.get("evidence") or {}
    done["clipped_chars"] += evidence.get("clipped_chars", 0)
    done["unmapped_chars"] += evidence.get("unmapped_chars", 0)
    if record["status"] == "failed":
        done["pages_failed"] += 1
    else:
        engine = record.get("engine", default_engine)
        done["engines"][engine] = done["engines"].get(engine, 0) + 1
    if "ocr" in record or "ocr_error" in record:
        from .ocrpage import count_page as count_ocr

        count_ocr(done.setdefault("ocr", {}), record)


def _range(spec: str | None) -> PageRange | None:
    """The PageRange of ``spec``, or None; imported only when asked for (the child's start-up)."""
    if not spec:
        return None
    from ..ranges import PageRange

    return PageRange.parse(spec)


def _extract_page(doc: Any, page: int, opts: ExtractOptions, fallback: _Fallback) -> dict[str, Any]:
    try:
        result = (doc.extract_page(page - 1, evidence=True, image_mode=opts.image_mode) if opts.evidence
                  else doc.extract_page(page - 1))
    except (Exception, MemoryError) as exc:  # noqa: BLE001 - any engine failure is this page's error
        result = fallback.page(page)
        if result is None:
            return {"page": page, "error": f"{type(exc).__name__}: {exc}"[:500], "status": "failed"}
    if result.undecoded:
        result = _read_whole(result, page, fallback)
    record: dict[str, Any] = {"page": page, "text": result.text, "status": result.status}
    if result.engine != doc.name:
        record["engine"] = result.engine
    if result.evidence is not None:
        record["evidence"] = result.evidence
    return record


DECODES = "pdfplumber"  # the engine that reads the fonts PDFium leaves undecoded (pdfminer's CMaps)
NEW_CHARS = 0.5  # of its visible characters, those the first reading has none of, to prefer it


def _read_whole(result: Any, page: int, fallback: _Fallback) -> Any:
    """The page as pdfminer reads it where PDFium left text objects undecoded and pdfminer reads
    them: most of its characters are ones PDFium's text has none of (Chinese where PDFium read
    only the figures among it), not the same again (a layer drawn twice). Else PDFium's: its
    reading has the page's evidence."""
    other = fallback.read_with(DECODES, page)
    if other is None:
        return result
    have = set(result.text)
    found = [char for char in other.text if not char.isspace()]
    if len(found) < UNDECODED_CHARS or sum(char not in have for char in found) < NEW_CHARS * len(found):
        return result
    return other


UNDECODED_CHARS = 20  # characters another engine must find at least, to be the page's reading


def _scrub_page(record: dict[str, Any]) -> int:
    """Make the page record encodable; returns the characters of its text that were replaced.
    Its evidence holds the same characters again, replaced the same way (and not counted
    twice) where it was made (``evidence.page_evidence``): walking it again here cost more
    than writing the page."""
    text = record.get("text")
    count = 0
    if isinstance(text, str):
        record["text"], count = scrub(text)
    rest = {key: value for key, value in record.items() if key != "evidence"}
    scrub_record(rest)
    record.update(rest)
    return count


def _salvage_page(page: int, fallback: _Fallback) -> dict[str, Any]:
    result = fallback.page(page)
    if result is None:
        tried = ", ".join(fallback.names) or "none left"
        return {"page": page, "error": f"no salvage engine could read the page (tried: {tried})",
                "status": "failed"}
    return {"page": page, "text": result.text, "status": result.status, "engine": result.engine}


class _Fallback:
    """The salvage chain for one page: the engines after the document's own, in SALVAGE_ORDER.
    Each fallback document is opened once, on first need."""

    def __init__(self, primary: str, data: bytes, password: str | None, repair: bool) -> None:
        from .engines import SALVAGE_ORDER

        self.data, self.password = data, password
        order = SALVAGE_ORDER
        names = order[order.index(primary) + 1:] if primary in order else order
        self.names = [name for name in names if repair or name != "repaired"]
        self.docs: dict[str, Any] = {}

    def _open(self, name: str) -> Any:
        from .engines import open_engine

        if name not in self.docs:
            try:
                self.docs[name] = open_engine(name, self.data, self.password)
            except (Exception, MemoryError):  # noqa: BLE001 - no fallback available is not an error of its own
                self.docs[name] = None
        return self.docs[name]

    def read_with(self, name: str, page: int) -> Any:
        """The page as the engine ``name`` of the chain reads it, or None (no such engine, or it
        failed)."""
        doc = self._open(name) if name in self.names else None
        if doc is None or page > doc.page_count():
            return None
        try:
            return doc.extract_page(page - 1)
        except (Exception, MemoryError):  # noqa: BLE001 - the first reading stands
            return None

    def page(self, page: int) -> Any:
        """The page as the first engine of the chain that reads it reads it, or None."""
        return next((found for name in self.names if (found := self.read_with(name, page)) is not None), None)

    def close(self) -> None:
        for doc in self.docs.values():
            if doc is not None:
                doc.close()


def _png64(doc: Any, index: int) -> str:
    import base64

    return base64.b64encode(doc.render_png(index)).decode("ascii")


def _safe(func: Any, default: Any) -> Any:
    """Optional metadata: a broken outline or label tree must not cost the text."""
    try:
        return func()
    except (Exception, RecursionError):  # noqa: BLE001
        return default


def _engine_meta(name: str) -> dict[str, str]:
    from .engines import engine_info

    if name == "pypdf":
        import pypdf

        return {"name": "pypdf", "version": f"pypdf {pypdf.__version__}"}
    if name == "pdfplumber":
        import pdfminer
        import pdfplumber

        return {"name": "pdfplumber",
                "version": f"pdfplumber {pdfplumber.__version__}, pdfminer.six {pdfminer.__version__}"}
    info = engine_info()
    if name == "repaired":
        import pikepdf

        info = {"name": "repaired",
                "version": f"pikepdf {pikepdf.__version__}, qpdf {pikepdf.__libqpdf_version__}; {info['version']}"}
    return info
