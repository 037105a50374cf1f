"""What the HTTP service answers (docs/manual.md, SERVICE), as plain functions over the library: a URL in,
a JSON-ready dict out. No web framework here; :mod:`siftpdf.http.app` puts these on routes.

``clean`` is the seed's table of what a caller gets back: the whole page-marked text when it
fits the output cap, else the map; ``pages`` gives those pages, ``grep`` the matching lines
(within ``pages`` when both are given). A URL that is not a PDF is answered with its text
(readable text for HTML), never through the PDF path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from ..docstream import Document
from ..errors import NotPdfError, UnreadableError, UsageError
from ..options import ReadOptions
from ..ranges import PageRange
from ..views.map import build_map, render_map
from ..views.markdown import escape
from ..views.renderers import page_renderer
from ..views.search import capped_groups, compile_pattern, format_group
from ..views.slices import MAX_PAGES_PER_CALL, rest_of, take_pages

MAX_MATCHES = 100
NEXT = 'next: use pages="a-b" for a slice, grep="PATTERN" for lines, or mode="digest" with a question'
# The marker line and the blank line after it: the one before it still parts two pages' blocks,
# which would otherwise run together into one Markdown paragraph.
_MARKER = re.compile(r"^--- page \d+ ---\n\n?", re.M)


@dataclass
class Answer:
    """One answer: the text (``content``) and what the envelope says about it."""

    url: str
    final_url: str
    content_type: str
    content: str
    pdf: dict[str, Any] | None = None
    extracted: int = 0  # pages the PDF stream holds (a page cap may cut it short)
    title: str = ""
    digest: dict[str, Any] | None = None

    def to_record(self, mode: str) -> dict[str, Any]:
        record = {"url": self.url, "final_url": self.final_url, "content_type": self.content_type,
                  "mode": mode, "content": self.content, "pdf": self.pdf}
        if self.digest is not None:
            record["digest"] = self.digest
        return record


def parse_query(pages: str | None, grep: str | None) -> tuple[PageRange | None, Any]:
    """Check ``pages`` and ``grep`` before anything is fetched: both are usage errors (400)."""
    wanted = PageRange.parse(pages) if pages else None
    regex = compile_pattern(grep) if grep else None
    return wanted, regex


def clean(url: str, options: ReadOptions, cap: int, pages: str | None = None,
          grep: str | None = None, markdown: bool = False) -> Answer:
    """Clean mode of ``/v1/fetch`` (and the markdown of ``/v2/scrape``): the text view, or
    with ``markdown`` the Markdown view (docs/manual.md, MARKDOWN VIEW). grep's lines are lines either way."""
    wanted, regex = parse_query(pages, grep)
    if wanted is not None:
        first, last = wanted.bounds()
        options = options.with_hints(first_page=first, last_page=last)
    doc = _open(url, options)
    if not isinstance(doc, Document):
        return _other_clean(url, doc, cap, wanted, regex, markdown)
    with doc:
        return _clean_pdf(url, doc, cap, wanted, regex, markdown)


def digest(url: str, options: ReadOptions, cap: int, question: str,
           store: MutableMapping[str, bytes] | None) -> Answer:
    """Digest mode: the answer to ``question`` from the document, citing pages; extractive
    unless an endpoint is configured (SIFTPDF_LLM_URL)."""
    from ..digest.core import digest as run_digest
    from ..digest.models import Endpoint

    if not question.strip():
        raise UsageError("mode digest needs a question")
    doc = _open(url, options)
    if isinstance(doc, Document):
        answer = _envelope_only(url, doc)
    else:
        answer = _other(url, doc)
        doc = _text_document(answer)
    with doc:
        result = run_digest(doc, question, budget=cap, endpoint=Endpoint.from_env(), store=store)
    answer.content = result.answer
    answer.digest = result.to_record()
    return answer


def _open(url: str, options: ReadOptions) -> Document | Any:
    """The PDF's Document, or the fetched body of anything else."""
    from ..read import open_url
    from ..sources import is_url

    if not is_url(url):
        raise UsageError("url must be an http(s) URL")
    try:
        return open_url(url, options)
    except NotPdfError as error:
        return error.fetched


def _envelope(doc: Document, returned: list[int] | None, is_map: bool, hits: int | None,
              outline: bool = True) -> dict[str, Any]:
    """The ``pdf`` envelope. The outline (which may run to a thousand entries) comes with an
    overview answer; a slice or a search has ``outline: null``, as the overview gave it."""
    return {"pages": doc.page_count, "title": doc.meta.get("title") or "",
            "outline": list(doc.meta.get("outline") or []) if outline else None, "returned": returned,
            "map": is_map, "grep_hits": hits}


def _answer(url: str, doc: Document, content: str, pdf: dict[str, Any]) -> Answer:
    return Answer(url, str(doc.meta.get("final_url") or url), "application/pdf", content, pdf,
                  doc.extracted_count, str(doc.meta.get("title") or ""))


def _envelope_only(url: str, doc: Document) -> Answer:
    return _answer(url, doc, "", _envelope(doc, None, False, None))


def _clean_pdf(url: str, doc: Document, cap: int, wanted: PageRange | None, regex: Any, markdown: bool) -> Answer:
    count = doc.extracted_count
    if wanted is not None:
        wanted.check(count)
    if regex is not None:
        content, hits = _grep(doc, regex, wanted, cap)
        returned = [wanted.first(), wanted.last(count)] if wanted else None
        return _answer(url, doc, content, _envelope(doc, returned, False, hits, outline=False))
    if wanted is not None:
        content, span = _slice(doc, wanted, cap, markdown)
        return _answer(url, doc, content, _envelope(doc, span, False, None, outline=False))
    doc_map = build_map(doc, cap, page_renderer("markdown" if markdown else "text"))
    content = render_map(doc_map, url, cap, next_line=NEXT, markdown=markdown)
    span = list(doc_map.returned) if doc_map.returned else None
    return _answer(url, doc, content, _envelope(doc, span, not doc_map.whole, None))


def _slice(doc: Document, wanted: PageRange, cap: int, markdown: bool) -> tuple[str, list[int] | None]:
    """Those pages with markers: at most 100 pages or ``cap`` characters, with a note when cut."""
    taken = take_pages(doc, wanted, cap, page_renderer("markdown" if markdown else "text"))
    said = escape if markdown else str
    if taken.cut_inside is not None:  # one page alone over the cap: what fits of it
        note = said(f"\n[cut inside page {taken.cut_inside} at {cap} characters; use grep=PATTERN]\n")
        return taken.parts[0][:max(0, cap - len(note))] + note, [taken.cut_inside, taken.cut_inside]
    text = "".join(taken.parts)
    if taken.cut_before is not None:
        rest = rest_of(wanted, taken.cut_before, doc.extracted_count)
        text += said(f"\n[cut before page {taken.cut_before}: at most {MAX_PAGES_PER_CALL} pages or {cap} "
                     f'characters per call; go on with pages="{rest}"]\n')
    elif not taken.with_text:
        doc.drain()  # a document with no text layer at all is an error (422 no_text), as for pages
    return text, [taken.pages[0], taken.pages[-1]] if taken.pages else None


def _grep(doc: Document, regex: Any, wanted: PageRange | None, cap: int) -> tuple[str, int]:
    """Up to 100 matches as ``p. N: line`` with one line of context each side."""
    pages: Iterator[dict[str, Any]] = (r for r in doc.pages() if wanted is None or r["page"] in wanted)
    parts: list[str] = []
    size = hits = 0
    for group in capped_groups(pages, regex, MAX_MATCHES):
        hits += sum(1 for line in group if line.is_match)
        text = ("--\n" if parts else "") + format_group(group)
        if size + len(text) > cap:
            parts.append(f"[output cut at {cap} characters]\n")
            break
        parts.append(text)
        size += len(text)
    return "".join(parts), hits


# -- other kinds of body -------------------------------------------------------------------------

def _other_clean(url: str, fetched: Any, cap: int, wanted: PageRange | None, regex: Any,
                 markdown: bool) -> Answer:
    """Clean mode of a text answer: its text cut at ``cap`` (escaped, as Markdown), or its
    matching lines (as ``p. 1: line``: the whole text is one page). A page range means nothing
    here."""
    if wanted is not None:
        raise UsageError("pages: the URL is not a PDF (its text has no pages)")
    answer = _other(url, fetched)
    if regex is not None:
        with _text_document(answer) as doc:
            answer.content, _hits = _grep(doc, regex, None, cap)
        return answer
    if len(answer.content) > cap:
        answer.content = answer.content[:cap] + f"\n[cut at {cap} characters; use grep=PATTERN]\n"
    if markdown:
        answer.content = escape(answer.content)
    return answer


def _other(url: str, fetched: Any) -> Answer:
    """Text, JSON or HTML (as readable text): the body's whole text."""
    kind = fetched.kind.kind if fetched.kind is not None else "text"
    if kind not in ("html", "json", "text"):
        raise UnreadableError(f"not a PDF or text ({fetched.kind.describe()})")
    raw = _decode(fetched.data or b"", fetched.content_type)
    title = ""
    if kind == "html":
        from .webtext import html_text

        title, raw = html_text(raw)
    mime = fetched.content_type.split(";")[0].strip().lower() or {"html": "text/html", "json": "application/json"}.get(
        kind, "text/plain")
    return Answer(url, fetched.final_url, mime, raw, None, 0, title)


def _decode(data: bytes, content_type: str) -> str:
    match = re.search(r"charset=([\w.:-]+)", content_type, re.I)
    try:
        return data.decode(match.group(1) if match else "utf-8", errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")


def _text_document(answer: Answer) -> Document:
    """A text answer as a one-page doc stream, so digest can read it as it reads a PDF."""
    records: Iterator[dict[str, Any]] = iter([{"meta": {"pages": 1, "title": answer.title, "source": answer.url}},
                    {"page": 1, "status": "text", "text": answer.content},
                    {"done": {}}])
    return Document(records)


def strip_markers(text: str) -> str:
    """The text without its ``--- page N ---`` lines (``pageMarkers: false``)."""
    return _MARKER.sub("", text)

