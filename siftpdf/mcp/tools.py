"""What the tools of ``siftpdf mcp`` answer, as plain functions over the library: a tool's
name and arguments in, an :class:`Answer` out (the text view for the model, the records for a
program), or a typed error (docs/manual.md, EXIT STATUS). No MCP SDK here; :mod:`siftpdf.mcp.server` puts these
on the protocol, as :mod:`siftpdf.http.service` is put on HTTP routes.

Each tool reads as the command of its name does: one reading path (cache first, the pool,
the child), the same cap, the same checks and so the same error codes. A ``source`` is a
path inside one of the server's folders (``--root``; links resolved, so neither a link nor
``..`` leads out) or an http(s) URL, which the fetch guard checks (no private address unless
the server was started with ``--allow-private``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..cancel import Cancel
from ..docstream import Document
from ..errors import SiftError, UsageError, typed_error
from ..options import ReadOptions
from ..ranges import PageRange
from ..sources import is_url, open_source
from ..views.renderers import page_renderer
from ..views.slices import MAX_PAGES_PER_CALL, rest_of, take_pages

MAX_MATCHES = 100  # grep's -m default: lines a call returns at most
NEXT = ('next: the pages tool for a slice (range "a-b"), grep for lines (pattern), '
        "digest for an answer (question)")


@dataclass
class Answer:
    """What a tool call gives back: ``text``, the text view the model reads (page-marked,
    capped as the command caps it), and ``records``, the same answer as data."""

    text: str
    records: dict[str, Any]


class Roots:
    """The folders whose files the tools may read. A relative path is looked for in each
    folder in turn (the first where it exists); whatever it names, once its links are resolved
    it must lie in one of them."""

    def __init__(self, folders: Sequence[str | os.PathLike[str]]) -> None:
        self.folders = [os.path.realpath(folder) for folder in folders or ["."]]
        for folder in self.folders:
            if not os.path.isdir(folder):
                raise UsageError(f"--root {folder}: not a folder")

    def resolve(self, source: str) -> str:
        """The real path of a local ``source``; a usage error when it lies outside the folders."""
        if source in ("", "-"):
            raise UsageError("an empty source (give a PDF path or an http(s) URL)" if not source else
                             "stdin is not a source here (it carries the protocol): give a path or a URL")
        candidates = [source] if os.path.isabs(source) else [os.path.join(f, source) for f in self.folders]
        found = next((path for path in candidates if os.path.lexists(path)), candidates[0])
        real = os.path.realpath(found)
        if not any(real == folder or real.startswith(folder.rstrip("/") + "/") for folder in self.folders):
            raise UsageError(f"{source}: outside the folders this server reads ({', '.join(self.folders)})",
                             hint="give a path inside one of them, or start the server with --root FOLDER")
        return real


@dataclass
class ToolConfig:
    """What every call of one server shares: how PDFs are read (the command line's extraction
    options), the output cap and the folders."""

    options: ReadOptions
    cap: int
    roots: Roots

    def read_options(self, cancel: Cancel | None) -> ReadOptions:
        """This call's own copy of the options (a reader sets its slice on them); a server goes
        on after each call, so it writes what it reads into the cache itself."""
        return self.options.with_hints(cancel=cancel, on_page=None, write_behind=False)


@dataclass
class Call:
    """One call of a tool: the server's config and this call's cancel switch."""

    config: ToolConfig
    cancel: Cancel | None = None

    @property
    def cap(self) -> int:
        return self.config.cap

    def options(self) -> ReadOptions:
        return self.config.read_options(self.cancel)

    def open(self, source: str, options: ReadOptions) -> Document:
        """The source as a Document: a URL as given, a path once it is found inside the roots."""
        return open_source(source if is_url(source) else self.config.roots.resolve(source), options)


# --- the tools ------------------------------------------------------------------------------

def map_tool(call: Call, args: dict[str, Any]) -> Answer:
    from ..views.map import build_map, render_map

    source, view = args["source"], args.get("format", "text")
    with call.open(source, call.options()) as doc:
        doc_map = build_map(doc, call.cap, page_renderer(view))
        text = render_map(doc_map, source, call.cap, next_line=NEXT, markdown=view == "markdown")
        return Answer(_ended(text), {"document": _document(doc), "map": {
            "title": doc_map.title, "pages": doc_map.pages, "extracted": doc_map.extracted,
            "tokens": doc_map.tokens, "outline": doc_map.outline, "whole": doc_map.whole,
            "returned": list(doc_map.returned) if doc_map.returned else None}})


def pages_tool(call: Call, args: dict[str, Any]) -> Answer:
    source, view = args["source"], args.get("format", "text")
    wanted = PageRange.parse(args["range"])
    first, last = wanted.bounds()
    # A cache hit then reads only the pages from the first to the last wanted (and, for the
    # text view, only their text).
    options = call.options().with_hints(first_page=first, last_page=last, text_only=view == "text")
    with call.open(source, options) as doc:
        wanted.check(doc.extracted_count)
        text, records = _slice(doc, wanted, call.cap, view, MAX_PAGES_PER_CALL)
        return Answer(text, {"document": _document(doc), **records})


def fetch_tool(call: Call, args: dict[str, Any]) -> Answer:
    from ..sources import require_url

    url, view = args["url"], args.get("format", "text")
    require_url(url, local="the map or pages tool")
    options = call.options().with_hints(text_only=view == "text")
    with call.open(url, options) as doc:
        text, records = _slice(doc, PageRange.parse("1-"), call.cap, view, None)
        done = doc.drain()  # the whole document's diagnostics (it is extracted into the cache anyway)
        return Answer(text, {"document": _document(doc), **records, "done": done})


def grep_tool(call: Call, args: dict[str, Any]) -> Answer:
    from ..views.grep import GrepSpec, GrepState, split_patterns, write_source
    from ..views.search import compile_patterns, page_filter

    source, pattern, pages = args["source"], args["pattern"], args.get("pages")
    context = args.get("context", 1)
    regex = compile_patterns(split_patterns([pattern]), args.get("ignore_case"))
    wanted = PageRange.parse(pages) if pages else None
    options = call.options().with_hints(text_only=True, search=page_filter(regex))  # as the command reads
    spec = GrepSpec("lines", context, context, max_count=MAX_MATCHES, cap=call.cap)
    state = GrepState(matches=[])
    parts: list[str] = []
    with call.open(source, options) as doc:
        write_source(doc, regex, wanted, spec, source, state, parts.append)
        document = _document(doc)
    matches = state.matches or []
    text = "".join(parts)
    if not matches:
        text = f"no line matches {pattern!r}" + (f" on pages {pages}" if pages else "") + "\n"
    elif len(matches) >= MAX_MATCHES and not state.stop:
        text += (f"[stopped at {MAX_MATCHES} matching lines: narrow the search with pages (a range) "
                 "or a closer pattern]\n")
    return Answer(text, {"document": document, "matches": matches, "count": len(matches),
                         "truncated": state.stop or len(matches) >= MAX_MATCHES})


def digest_tool(call: Call, args: dict[str, Any]) -> Answer:
    from ..digest.core import digest
    from ..digest.models import Endpoint
    from ..digest.retrieval import index_store

    options = call.options()
    with call.open(args["source"], options) as doc:
        result = digest(doc, args["question"], budget=call.cap, endpoint=Endpoint.from_env(),
                        store=index_store(options.sharing.cache))
    text = _ended(result.answer.rstrip("\n"))
    if result.invalid_citations:
        pages = ", ".join(str(p) for p in result.invalid_citations)
        text += f"[the answer cites page(s) {pages}, which were not in the prompt]\n"
    return Answer(text, result.to_record())


def sniff_tool(call: Call, args: dict[str, Any]) -> Answer:
    from ..sources import sniff_source

    source = args["source"]
    if is_url(source):
        raise UsageError(f"{source}: sniff reads a local file", hint="the fetch tool reads a URL")
    found = sniff_source(call.config.roots.resolve(source))
    return Answer(found.describe() + "\n", {"source": source, "kind": found.kind, "detail": found.detail})


# --- shared by the tools --------------------------------------------------------------------

def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _document(doc: Document) -> dict[str, Any]:
    """The document's meta record without its outline (a thousand entries, at times: the map
    tool gives it)."""
    return {key: value for key, value in doc.meta.items() if key != "outline"}


def _keeping(records: Iterable[dict[str, Any]], kept: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for record in records:
        kept.append(record)
        yield record


def _slice(doc: Document, wanted: PageRange, cap: int, view: str, most: int | None) -> tuple[str, dict[str, Any]]:
    """``wanted`` of ``doc`` as `siftpdf pages` cuts it (at most ``most`` pages or ``cap``
    characters), with a note that says how to go on; and the page records returned."""
    from ..store.local_reader import slim

    seen: list[dict[str, Any]] = []
    taken = take_pages(doc, wanted, cap, page_renderer(view), most, _keeping(doc.pages(), seen))
    said = _escaper(view)
    pages = [slim(record) for record in seen if record["page"] in taken.pages]
    records: dict[str, Any] = {"pages": pages, "returned": [taken.pages[0], taken.pages[-1]] if taken.pages else None,
                               "next": None, "cut_inside": taken.cut_inside}
    if taken.cut_inside is not None:  # one page alone over the cap: what fits of it
        pages[0]["text"] = str(pages[0].get("text") or "")[:cap]
        note = said(f"\n[cut inside page {taken.cut_inside} at {cap} characters; search it with the grep tool, "
                    f'pages "{taken.cut_inside}"]\n')
        return taken.parts[0][:cap] + "\n" + note, records
    text = "".join(taken.parts)
    if taken.cut_before is not None:
        rest = rest_of(wanted, taken.cut_before, doc.extracted_count)
        limits = f"at most {most} pages or {cap} characters per call" if most else f"{cap} characters per call"
        text += said(f'\n[cut before page {taken.cut_before}: {limits}; go on with the pages tool, range "{rest}"]\n')
        records["next"] = rest
    elif not taken.with_text:
        doc.drain()  # a document with no text layer at all is an error, not blank pages
    return text, records


def _escaper(view: str) -> Callable[[str], str]:
    if view != "markdown":
        return str
    from ..views.markdown import escape

    return escape


# --- the table of tools ---------------------------------------------------------------------

SOURCE = {"type": "string", "description": (
    "A PDF (or a saved doc stream) by its path, relative to the server's folders or absolute "
    "inside them, or an http(s) URL (downloaded once, then served from the cache).")}
FORMAT = {"type": "string", "enum": ["text", "markdown"], "default": "text", "description": (
    "text: page-marked text; markdown: page-marked CommonMark (headings, lists, GFM tables).")}
RANGE_HELP = "a-b, a, a- (to the end) or a comma list of them; 1-based, inclusive; e.g. \"41-60\" or \"3,7,12-\""
OBJECT = {"type": "object"}
DOCUMENT = {"type": "object", "description": "The document's meta record (the doc stream's first) without its outline."}
PAGE_RECORDS = {"type": "array", "items": {"type": "object", "properties": {
    "page": {"type": "integer"}, "status": {"type": "string"}, "text": {"type": "string"},
    "error": {"type": "string"}}, "required": ["page", "status"]}}
NULLABLE_RANGE = {"type": ["array", "null"], "items": {"type": "integer"}}
SLICE = {"pages": PAGE_RECORDS, "returned": NULLABLE_RANGE, "next": {"type": ["string", "null"]},
         "cut_inside": {"type": ["integer", "null"]}}


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _output(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str  # "{cap}" stands for the server's cap
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    run: Callable[[Call, dict[str, Any]], Answer]


TOOLS: dict[str, Tool] = {tool.name: tool for tool in (
    Tool("map", "What is in a PDF", (
        "The map of a PDF: its title, page count and size in tokens, its outline with page "
        "numbers, and as many leading pages as fit a quarter of the cap (a document that fits "
        "the cap, {cap} characters, comes whole, page-marked). Start here with a "
        "document you have not read; then read pages with the pages tool (\"pages 41-60\"), "
        "find lines with grep, or ask digest a question. Structured content: the document's "
        "meta and the map (outline in full)."),
        _schema({"source": SOURCE, "format": FORMAT}, ["source"]),
        _output({"document": DOCUMENT, "map": OBJECT}), map_tool),
    Tool("pages", "Read pages of a PDF", (
        "The pages in range of a PDF as page-marked text: each page after a line '--- page N "
        "---', so you can cite (p. N). At most 100 pages or {cap} characters per call; when "
        "cut, a last note names the range to ask next (e.g. pages "
        "\"41-60\"). A range outside the document is an error naming its pages (1–N). "
        "Structured content: the document's meta, the page records returned (page, status, "
        "text), returned (first and last page) and next (the range left, or null)."),
        _schema({"source": SOURCE, "range": {"type": "string", "description": RANGE_HELP}, "format": FORMAT},
                ["source", "range"]),
        _output({"document": DOCUMENT, **SLICE}), pages_tool),
    Tool("grep", "Find lines in a PDF", (
        "The lines of a PDF that match an RE2 pattern (linear time, no backreferences; at most "
        "200 bytes), as 'p. N: line' with context lines 'p. N- line' and groups between '--'. "
        "Smart case: case-insensitive unless the pattern has upper case (ignore_case forces "
        "either). At most 100 matching lines or {cap} characters per call; narrow with pages (a range) "
        "when there are more. Then read around a hit with the pages tool. Structured content: "
        "the document's meta and each match (page, line, text, before, after)."),
        _schema({"source": SOURCE, "pattern": {"type": "string", "description": "RE2 pattern, e.g. "
                                               "\"learning rate|warm-?up\"."},
                 "context": {"type": "integer", "minimum": 0, "default": 1,
                             "description": "Lines of context each side of a match."},
                 "pages": {"type": "string", "description": "Search only these pages: " + RANGE_HELP},
                 "ignore_case": {"type": ["boolean", "null"], "default": None,
                                 "description": "true: ignore case; false: match case; null: smart case."}},
                ["source", "pattern"]),
        _output({"document": DOCUMENT, "matches": {"type": "array", "items": OBJECT}, "count": {"type": "integer"},
                 "truncated": {"type": "boolean"}}), grep_tool),
    Tool("digest", "Answer a question from a PDF", (
        "An answer to a question from a PDF, citing pages as (p. N): BM25 picks the passages "
        "relevant to the question. Without a model configured on the server (SIFTPDF_LLM_URL) "
        "the answer is extractive: the best passages, each with its page. Check a citation "
        "with the pages tool. Structured content: answer, citations, passages (page, text, "
        "score), model, prompt_pages."),
        _schema({"source": SOURCE, "question": {"type": "string", "description": "The question to answer."}},
                ["source", "question"]),
        _output({"answer": {"type": "string"}, "citations": {"type": "array", "items": {"type": "integer"}},
                 "passages": {"type": "array", "items": OBJECT}}), digest_tool),
    Tool("sniff", "What kind of file", (
        "Whether a local file is a PDF, by its first 1024 bytes: 'pdf (magic at byte 0)', or "
        "html, json, docstream (a saved siftpdf doc stream), text or binary. Reads nothing "
        "else. Structured content: kind and detail."),
        _schema({"source": {"type": "string", "description": "A file's path inside the server's folders."}},
                ["source"]),
        _output({"source": {"type": "string"}, "kind": {"type": "string"}, "detail": {"type": "string"}}),
        sniff_tool),
    Tool("fetch", "Download and read a PDF", (
        "Download a PDF from an http(s) URL (checked: no private or loopback address unless "
        "the server allows them; at most 100 MB, 120 s; every redirect re-checked), extract "
        "it into the cache and return its page-marked text from page 1, as much as fits the "
        "cap ({cap} characters); when cut, a last note names the range to read "
        "next with the pages tool. The other tools take the same URL as source and read it "
        "from the cache. Structured content: the document's meta (with final_url), the page "
        "records returned, next, and done (the extraction's diagnostics)."),
        _schema({"url": {"type": "string", "description": "An http(s) URL of a PDF."}, "format": FORMAT},
                ["url"]),
        _output({"document": DOCUMENT, **SLICE, "done": {"type": ["object", "null"]}}), fetch_tool),
)}


def call(name: str, arguments: dict[str, Any], config: ToolConfig, cancel: Cancel | None = None) -> Answer:
    """Run the tool ``name``: its answer, or a typed error (SiftError) whatever went wrong."""
    tool = TOOLS[name]
    try:
        check_arguments(tool, arguments)
        return tool.run(Call(config, cancel), arguments)
    except SiftError:
        raise
    except Exception as exc:  # noqa: BLE001  (the boundary: every failure becomes a typed error)
        raise typed_error(exc, config.options.sharing.cache.directory) from exc


def check_arguments(tool: Tool, arguments: dict[str, Any]) -> None:
    """The arguments against the tool's input schema: a usage error names the first wrong one."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(tool.name).iter_errors(arguments))
    if error is None:
        return
    properties = tool.input_schema["properties"]
    required = tool.input_schema["required"]
    usage = f"{tool.name}(" + ", ".join(name if name in required else f"{name}?" for name in properties) + ")"
    if error.validator == "required":
        detail = f"missing argument {error.message.split(' ', 1)[0].strip(chr(39))}"
    elif error.validator == "additionalProperties":
        detail = "no such argument: " + ", ".join(sorted(set(arguments) - set(properties)))
    else:
        where = ".".join(str(part) for part in error.absolute_path)
        detail = f"{where}: {error.message}" if where else error.message
    raise UsageError(f"{tool.name}: {detail}", hint=f"the tool takes {usage}")


@functools.cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(TOOLS[name].input_schema)
