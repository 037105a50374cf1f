"""The HTTP face (docs/manual.md, SERVICE): sift's ``/v1/fetch`` and Firecrawl-compatible ``/v2/scrape`` over
:mod:`siftpdf.http.service`, with bearer-token callers, Prometheus metrics and ``/healthz``.

Extraction blocks, so every request that may read a document runs in the thread pool, never
on the event loop. Callers map to a caller id (one job in flight each: a second is 429) and a
caller class (the cache partition). The pool answers 503 with ``Retry-After: 10`` when full.
"""

from __future__ import annotations

import json
import os
import sys
import time
import tomllib
import traceback
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..digest.retrieval import index_store
from ..errors import SiftError, UsageError
from ..extras import default_ocr, require_ocr
from ..log import Log, to_stderr
from ..options import ReadOptions
from ..store.local_store import check_class
from . import service

RETRY_AFTER = "10"
LOOPBACK = ("127.0.0.1", "::1", "localhost")


# -- configuration -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Caller:
    caller_id: str | None
    caller_class: str = "default"


@dataclass
class ServerConfig:
    #: How every request reads (:func:`siftpdf.options.build` of the serve command's options):
    #: each request's own are these with its caller, its OCR and its bounds (``options_for``).
    options: ReadOptions = field(default_factory=ReadOptions)
    cap: int = 40_000
    tokens: dict[str, Caller] = field(default_factory=dict)
    no_auth: bool = False
    access_log: bool = False

    @property
    def verbose(self) -> bool:
        return self.options.sharing.verbose


def load_tokens(path: Path) -> dict[str, Caller]:
    """A JSON or TOML file mapping each bearer token to ``{caller_id, class}``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    try:
        table = json.loads(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: neither JSON nor TOML ({exc})") from None
    callers: dict[str, Caller] = {}
    for token, entry in table.items():
        if not isinstance(entry, dict) or not entry.get("caller_id"):
            raise UsageError(f"{path}: each token maps to {{caller_id, class}}")
        callers[str(token)] = Caller(str(entry["caller_id"]), check_class(str(entry.get("class") or "default")))
    return callers


# -- request and response bodies (the OpenAPI document) -------------------------------------------

class FetchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(description="http(s) URL of a PDF (or of a text, JSON or HTML page)", max_length=8192)
    mode: Literal["clean", "digest"] = "clean"
    pages: str | None = Field(None, description='Page range: "a-b", "a", "a-" or a comma list; 1-based',
                              max_length=200)
    grep: str | None = Field(None, description="RE2 pattern, at most 200 bytes; smart case", max_length=1000)
    question: str | None = Field(None, description="The question, for mode digest", max_length=4000)
    format: Literal["text", "markdown"] = Field(
        "text", description="The view of clean mode's content: the page-marked text, or Markdown (CommonMark + GFM)")
    ocr: Literal["never", "auto", "always"] | None = Field(
        None, description="OCR of a PDF's pages: auto reads pages with no usable text layer, always every page; "
                          "by default auto when the server has an OCR engine, never when it has none")


class PdfEnvelope(BaseModel):
    pages: int
    title: str
    outline: list[dict[str, Any]] | None = Field(description="On an overview answer; null on a slice or search")
    returned: list[int] | None
    map: bool
    grep_hits: int | None


class FetchResponse(BaseModel):
    url: str
    final_url: str
    content_type: str
    mode: str
    content: str
    pdf: PdfEnvelope | None
    digest: dict[str, Any] | None = None


class ErrorDetail(BaseModel):
    code: str
    status: int
    message: str
    hint: str | None


class ErrorResponse(BaseModel):
    error: ErrorDetail


class Parser(BaseModel):
    type: str = "pdf"
    maxPages: int | None = Field(None, ge=1, le=100_000)
    mode: Literal["fast", "auto", "ocr"] | None = Field(
        None, description="fast: the text layer; auto: OCR where it has none; ocr: OCR of every page; by default "
                          "auto when the server has an OCR engine, fast when it has none")


# Firecrawl's PDF parser modes as siftpdf's --ocr.
OCR_OF_MODE = {"fast": "never", "auto": "auto", "ocr": "always"}


class ScrapeRequest(BaseModel):
    """Firecrawl's scrape body; fields siftpdf does not use are accepted and ignored."""

    model_config = ConfigDict(extra="allow")
    url: str = Field(max_length=8192)
    formats: list[Any] = Field(default_factory=lambda: ["markdown"])
    parsers: list[Parser | str] | None = None
    pageMarkers: bool = True
    timeout: int | None = Field(None, ge=1, description="milliseconds")
    maxAge: int | None = Field(None, ge=0, description="milliseconds")


class ScrapeMetadata(BaseModel):
    model_config = ConfigDict(extra="allow")
    title: str
    sourceURL: str
    url: str
    statusCode: int
    contentType: str
    numPages: int | None = None
    totalPages: int | None = None


class ScrapeData(BaseModel):
    markdown: str
    metadata: ScrapeMetadata


class ScrapeResponse(BaseModel):
    success: bool
    data: ScrapeData


class ScrapeError(BaseModel):
    success: bool
    error: str
    code: str | None = None
    hint: str | None = None


def _errors(model: type[BaseModel]) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model} for status in (400, 401, 413, 422, 429, 500, 502, 503, 504)}


# -- metrics -------------------------------------------------------------------------------------

class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.extract = Counter("siftpdf_pdf_extract", "PDF extractions by outcome", ["outcome"], registry=r)
        self.extract_seconds = Histogram("siftpdf_pdf_extract_seconds", "Seconds of one PDF extraction",
                                         buckets=(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120), registry=r)
        self.pages = Counter("siftpdf_pdf_pages", "Pages extracted", registry=r)
        self.pool_wait = Histogram("siftpdf_pdf_pool_wait_seconds", "Seconds waited for an extraction slot",
                                   buckets=(0.01, 0.1, 0.5, 1, 2.5, 5, 10, 20), registry=r)
        self.cache_hits = Counter("siftpdf_pdf_cache_hits", "Documents served from the cache", registry=r)
        self.cache_errors = Counter("siftpdf_cache_backend_errors", "Calls to the shared cache server (--cache-url) "
                                    "that failed; the request went on with this machine's cache", registry=r)
        self.requests = Counter("siftpdf_http_requests", "HTTP requests by route and status", ["route", "status"],
                                registry=r)
        self.latency = Histogram("siftpdf_http_request_seconds", "HTTP request latency by route and status",
                                 ["route", "status"], registry=r,
                                 buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60))

    def observe(self, what: str, outcome: str, detail: dict[str, Any]) -> None:
        """The library's events (see :class:`siftpdf.log.Log`) as metrics."""
        if what == "pdf":
            if outcome == "cached":
                self.cache_hits.inc()
                return
            self.extract.labels(outcome).inc()
            if outcome == "ok":
                self.pages.inc(int(detail.get("pages") or 0))
                if "ms" in detail:
                    self.extract_seconds.observe(float(detail["ms"]) / 1000)
        elif what == "pool" and "wait_ms" in detail:
            self.pool_wait.observe(float(detail["wait_ms"]) / 1000)
        elif what == "cache" and outcome == "error":
            self.cache_errors.inc()


ROUTES = ("/v1/fetch", "/v2/scrape", "/healthz", "/metrics", "/openapi.json")


class RequestMiddleware:
    """Every request, as a plain ASGI layer (cheap): a request id (``X-Request-Id``), counted
    and timed by route and status, one access-log line when asked for, and the last word on
    anything unexpected: a bug answers 500 in the route's error shape, with its request id, and
    logs one line with the request id and the traceback; it never reaches the server."""

    def __init__(self, app: Any, metrics: Metrics, access_log: bool = False) -> None:
        self.app, self.metrics, self.access_log = app, metrics, access_log

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = os.urandom(8).hex()
        status = [500]
        started_response = [False]
        error_body = bytearray()

        async def sending(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                started_response[0] = True
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            elif message["type"] == "http.response.body" and status[0] >= 400 and len(error_body) < ERROR_BODY_KEEP:
                error_body.extend(message.get("body", b"")[:ERROR_BODY_KEEP])
            await send(message)

        path = scope.get("path", "")
        try:
            await self.app(scope, receive, sending)
        except Exception:  # noqa: BLE001 - the catch-all: a bug answers in the error shape
            status[0] = 500
            _log_internal(request_id, scope)
            if not started_response[0]:
                await _internal_error(path, request_id)(scope, receive, sending)
        finally:
            seconds = time.perf_counter() - started
            route = path if path in ROUTES else "other"
            labels = (route, str(status[0]))
            self.metrics.requests.labels(*labels).inc()
            self.metrics.latency.labels(*labels).observe(seconds)
            if self.access_log:
                _log_access(scope, status[0], seconds, _error_code(bytes(error_body)), request_id)


ERROR_BODY_KEEP = 4096
JSON_TYPE = b"application/json"
ORIGINAL_TYPE = "siftpdf.content_type"  # the scope key keeping what the client said
BROWSER_REFUSED = "siftpdf.browser_refused"


class JsonBodies:
    """Every body this service takes is JSON, so a POST body is read as JSON whatever its
    Content-Type claims: ``curl -d`` sends a form type, other clients text/plain or nothing.

    The one exception is a request that carries ``Origin``, as a browser's does: a web page may
    send a form or text/plain POST to a loopback server without a CORS preflight (the CSRF that
    FastAPI's strict content type guards against), so such a request must say
    application/json, which a browser sends only after a preflight this server never grants."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] == "http" and scope.get("method") in ("POST", "PUT", "PATCH"):
            headers = scope.get("headers") or []
            said = next((value for name, value in headers if name == b"content-type"), b"")
            if not _is_json_type(said):
                scope = dict(scope)
                scope[ORIGINAL_TYPE] = said.decode("latin-1")
                if any(name == b"origin" for name, _ in headers):
                    scope[BROWSER_REFUSED] = True
                else:
                    scope["headers"] = [(n, v) for n, v in headers if n != b"content-type"] + \
                        [(b"content-type", JSON_TYPE)]
        await self.app(scope, receive, send)


def _is_json_type(value: bytes) -> bool:
    media = value.split(b";", 1)[0].strip().lower()
    return media == JSON_TYPE or (media.startswith(b"application/") and media.endswith(b"+json"))


def _body_problem(request: Request, errors: list[Any]) -> tuple[str, str] | None:
    """When the body as a whole is wrong (not JSON, not an object, absent), a message and a
    hint showing the request that works; None when only some fields are wrong."""
    whole = next((e for e in errors if tuple(e.get("loc", ()))[:1] == ("body",)
                  and (e.get("type") == "json_invalid" or len(e.get("loc", ())) == 1)), None)
    if whole is None:
        return None
    example = '{"url": "https://example.com/paper.pdf"}'
    hint = f"send one JSON object: curl -s {request.base_url}{request.url.path.lstrip('/')} -d '{example}'"
    if request.scope.get(BROWSER_REFUSED):
        said = request.scope.get(ORIGINAL_TYPE) or "none"
        return (f"bad request: a request with an Origin header must send Content-Type: application/json "
                f"(it sent {said})", f"from a web page, send Content-Type: application/json; from a shell, {hint}")
    if whole.get("type") == "json_invalid":
        position = whole["loc"][1] if len(whole["loc"]) > 1 else 0
        detail = str(whole.get("ctx", {}).get("error", "invalid")).removesuffix(" at")
        return f"bad request: the body is not JSON ({detail} at character {position})", hint
    if whole.get("type") == "missing":
        return "bad request: no JSON object in the body", hint  # empty, or null
    return "bad request: the body is not a JSON object", hint


def _internal_error(path: str, request_id: str) -> Response:
    message = f"internal error (request id {request_id})"
    if path.startswith("/v2/"):
        return _error_v2(500, message, "internal")
    return _error_v1(500, "internal", message, "the server logged the request id and what went wrong")


def _log_internal(request_id: str, scope: MutableMapping[str, Any]) -> None:
    trace = traceback.format_exc().strip().replace("\n", "\n    ")
    sys.stderr.write(f"siftpdf: internal error, request id {request_id}, {scope.get('method')} "
                     f"{scope.get('path')}: {trace}\n")
    sys.stderr.flush()


def _error_code(body: bytes) -> str | None:
    """The ``code`` of an error body, in either shape (``{"error": {"code"}}`` or Firecrawl's)."""
    if not body:
        return None
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    error = parsed.get("error")
    code = error.get("code") if isinstance(error, dict) else parsed.get("code")
    return str(code) if code else None


def _log_access(scope: MutableMapping[str, Any], status: int, seconds: float, code: str | None,
                request_id: str) -> None:
    """One line per request on stderr: enough to explain a 4xx without a debugger, and no
    URL it was asked to read (the body is not logged)."""
    client = scope.get("client") or ("-", 0)
    line = (f"access {client[0]} {scope.get('method')} {scope.get('path')} {status} {seconds * 1000:.0f} ms"
            f" code={code or '-'} id={request_id}\n")
    sys.stderr.write(line)
    sys.stderr.flush()


# -- the app -------------------------------------------------------------------------------------

class Unauthorized(Exception):
    pass


class _Routes:
    """What the routes share: the server's configuration, its metrics, and who is calling."""

    def __init__(self, config: ServerConfig, metrics: Metrics) -> None:
        self.config, self.metrics = config, metrics

    def caller_of(self, request: Request) -> Caller:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        known = self.config.tokens.get(token.strip()) if scheme.lower() == "bearer" else None
        if known is not None:
            return known
        if self.config.no_auth:  # any other token (SDKs insist on sending one) is anonymous
            return Caller(None)
        raise Unauthorized("unknown bearer token" if token.strip() else "a bearer token is required")

    def options_for(self, caller: Caller, max_age: float | None = None, deadline: float | None = None,
                    max_pages: int | None = None, ocr: str = "never") -> ReadOptions:
        options = self.config.options
        cache = options.sharing.cache.replace(caller_class=caller.caller_class)
        if max_age is not None:
            cache = cache.replace(max_age=max_age)
        limits = options.sharing.limits
        limits = limits.replace(deadline=min(limits.deadline, deadline or limits.deadline))
        ceiling = options.extraction.max_pages
        return (options.with_sharing(cache=cache, limits=limits, caller_id=caller.caller_id)
                .with_extraction(ocr=ocr, max_pages=min(ceiling, max_pages or ceiling))
                .with_hints(on_event=self.metrics.observe, say=to_stderr))

    def outcome(self, caller: Caller, route: str, outcome_: str, started: float, **detail: Any) -> None:
        Log(self.config.verbose, caller.caller_class == "restricted", say=to_stderr).event(
            "request", outcome_, route=route, ms=int((time.monotonic() - started) * 1000), **detail)

    async def fetch(self, body: FetchRequest, request: Request) -> Response:
        started = time.monotonic()
        try:
            caller = self.caller_of(request)
        except Unauthorized as exc:
            return _error_v1(401, "unauthorized", str(exc))
        options = self.options_for(caller, ocr=body.ocr or default_ocr())
        try:
            if body.ocr not in (None, "never"):
                require_ocr()
            if body.mode == "digest":
                answer = await run_in_threadpool(service.digest, body.url, options, self.config.cap,
                                                 body.question or "", index_store(options.sharing.cache))
            else:
                answer = await run_in_threadpool(service.clean, body.url, options, self.config.cap, body.pages,
                                                 body.grep, body.format == "markdown")
        except SiftError as error:
            self.outcome(caller, "/v1/fetch", error.code, started, url=body.url)
            return _sift_error_v1(error)
        self.outcome(caller, "/v1/fetch", "ok", started, url=body.url)
        return JSONResponse(answer.to_record(body.mode))

    async def scrape(self, body: ScrapeRequest, request: Request) -> Response:
        started = time.monotonic()
        try:
            caller = self.caller_of(request)
        except Unauthorized as exc:
            return _error_v2(401, str(exc), "unauthorized")
        pdf = next((p for p in body.parsers or [] if isinstance(p, Parser) and p.type == "pdf"),
                   Parser(maxPages=None, mode=None))
        ocr = OCR_OF_MODE[pdf.mode] if pdf.mode is not None else default_ocr()
        options = self.options_for(caller, max_age=None if body.maxAge is None else body.maxAge / 1000,
                              deadline=None if body.timeout is None else max(0.1, body.timeout / 1000),
                              max_pages=pdf.maxPages, ocr=ocr)
        try:
            if pdf.mode not in (None, "fast"):
                require_ocr()
            answer = await run_in_threadpool(service.clean, body.url, options, self.config.cap, markdown=True)
        except SiftError as error:
            self.outcome(caller, "/v2/scrape", error.code, started, url=body.url)
            return _error_v2(error.status, error.message, error.code,
                             _http_hint(error, '"parsers": [{"type": "pdf", "mode": "auto"}]'))
        self.outcome(caller, "/v2/scrape", "ok", started, url=body.url)
        markdown = answer.content if body.pageMarkers else service.strip_markers(answer.content)
        metadata: dict[str, Any] = {"title": answer.title, "sourceURL": body.url, "url": answer.final_url,
                                    "statusCode": 200, "contentType": answer.content_type}
        if answer.pdf is not None:
            metadata.update(numPages=answer.extracted, totalPages=answer.pdf["pages"])
        return JSONResponse({"success": True, "data": {"markdown": markdown, "metadata": metadata}})


def create_app(config: ServerConfig) -> FastAPI:
    app = FastAPI(title="siftpdf", version=__version__,
                  description="Read PDFs safely: page-marked text, maps, page slices, grep and digests.")
    metrics = Metrics()
    routes = _Routes(config, metrics)

    @app.get("/healthz", summary="Liveness")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    @app.get("/metrics", summary="Prometheus metrics", response_class=Response)
    async def metrics_route() -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.post("/v1/fetch", summary="Read a URL: text or map, pages, grep, or a digest",
              responses={200: {"model": FetchResponse}, **_errors(ErrorResponse)})
    async def fetch(body: FetchRequest, request: Request) -> Response:
        return await routes.fetch(body, request)

    @app.post("/v2/scrape", summary="Firecrawl-compatible scrape: markdown and metadata",
              responses={200: {"model": ScrapeResponse}, **_errors(ScrapeError)})
    async def scrape(body: ScrapeRequest, request: Request) -> Response:
        return await routes.scrape(body, request)

    _error_handlers(app)
    app.add_middleware(JsonBodies)
    app.add_middleware(RequestMiddleware, metrics=metrics, access_log=config.access_log)
    return app


def _error_handlers(app: FastAPI) -> None:
    """Refusals of a request before a route runs, in the same shapes as every other error."""

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        errors = list(exc.errors())
        problem = _body_problem(request, errors)
        if problem is not None:
            message, hint = problem
        else:
            message = "bad request: " + "; ".join(
                f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}" for e in errors[:5])
            hint = None
        if request.url.path.startswith("/v2/"):
            return _error_v2(400, message, "usage", hint)
        return _error_v1(400, "usage", message, hint)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """The framework's own refusals (a body that does not parse, an unknown route) in the
        same shapes as every other error."""
        code = {400: "usage", 404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http")
        if request.url.path.startswith("/v2/"):
            return _error_v2(exc.status_code, str(exc.detail), code)
        return _error_v1(exc.status_code, code, str(exc.detail))


def _headers(status: int) -> dict[str, str] | None:
    return {"Retry-After": RETRY_AFTER} if status in (429, 503) else None


def _error_v1(status: int, code: str, message: str, hint: str | None = None) -> Response:
    body = {"error": {"code": code, "status": status, "message": message, "hint": hint}}
    return JSONResponse(body, status_code=status, headers=_headers(status))


def _sift_error_v1(error: SiftError) -> Response:
    return _error_v1(error.status, error.code, error.message, _http_hint(error, '"ocr": "auto"'))


def _http_hint(error: SiftError, ocr_field: str) -> str | None:
    """The error's hint in the request's terms: the command line's ``--ocr auto`` is a field
    of the body here."""
    if error.hint and "--ocr auto" in error.hint:
        return error.hint.replace("--ocr auto", ocr_field)
    return error.hint


def _error_v2(status: int, message: str, code: str | None = None, hint: str | None = None) -> Response:
    body: dict[str, Any] = {"success": False, "error": message, "code": code}
    if hint:
        body["hint"] = hint
    return JSONResponse(body, status_code=status, headers=_headers(status))


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")
