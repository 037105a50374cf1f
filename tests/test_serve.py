"""siftpdf serve: a real server process on 127.0.0.1 against a real upstream on 127.0.0.1.

The seed's acceptance tests through HTTP, the pool's 503 and the caller's 429, single-flight,
caller classes, the Firecrawl SDK, metrics and a clean SIGTERM.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import make_fixtures
import make_scans
import pytest
from httpserver import Route, Running, pattern

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from soak import children_of  # noqa: E402  (one home: the soak counts what a server leaves too)

from siftpdf.extras import ocr_installed  # noqa: E402

START_TIMEOUT = 60.0


class Serve:
    """``siftpdf serve`` as a child process on a free port; stopped by :meth:`stop`."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.expect_internal = False  # a test that plants a bug says so; any other 500 fails
        self.log_path = tmp / f"serve-{time.monotonic_ns()}.log"
        full_env = dict(os.environ, **(env or {}))
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "serve", "--port", "0", "--allow-private",
                                      *args], stdout=self.log, stderr=subprocess.STDOUT, env=full_env)
        end = time.monotonic() + START_TIMEOUT
        while True:
            text = self.log_path.read_text()
            if "serving on " in text:
                self.base = text.split("serving on ", 1)[1].split()[0]
                break
            if self.proc.poll() is not None or time.monotonic() > end:
                self.stop()
                raise AssertionError(f"server did not start: {text}")
            time.sleep(0.05)

    def post(self, path: str, body: Any, token: str | None = None, timeout: float = 120) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(self.base + path, json=body, headers=headers, timeout=timeout)

    def fetch(self, body: dict[str, Any], token: str | None = None, timeout: float = 120) -> httpx.Response:
        return self.post("/v1/fetch", body, token, timeout)

    def output(self) -> str:
        return self.log_path.read_text()

    def output_with(self, needle: str, count: int = 1, timeout: float = 10.0) -> str:
        """The log once it holds ``needle`` ``count`` times: a line about a request may be
        written after its answer has reached the client (the access line is)."""
        end = time.monotonic() + timeout
        while (text := self.output()).count(needle) < count and time.monotonic() < end:
            time.sleep(0.02)
        return text

    def children(self) -> list[int]:
        return children_of(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    started: list[Serve] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Serve:
        server = Serve(tmp_path, *args, env=env)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
    for server in started:  # the suite fails on any 500: each one logs this line
        assert server.expect_internal or "siftpdf: internal error" not in server.output(), server.output()[-3000:]
        assert "Traceback" not in server.output() or server.expect_internal, server.output()[-3000:]


@pytest.fixture
def three(fixtures: Path) -> bytes:
    return (fixtures / "three_page.pdf").read_bytes()


def _tokens(tmp_path: Path) -> Path:
    path = tmp_path / "tokens.toml"
    path.write_text('[alice]\ncaller_id = "alice"\nclass = "default"\n'
                    '[bob]\ncaller_id = "bob"\nclass = "default"\n'
                    '[rita]\ncaller_id = "rita"\nclass = "restricted"\n')
    return path


def _error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()["error"]
    assert body["code"] == code and body["status"] == status and body["message"]
    return body


# -- 1, 2: kinds and the whole text ---------------------------------------------------------------

def test_pdf_by_type_or_magic_and_html_as_text(upstream: Running, serve: Any, three: bytes, child_log) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three, "application/pdf")
    upstream.server.routes["/download"] = Route(three, "application/octet-stream")
    html = (b"<!doctype html><html><head><title>Harbour news</title><script>var x = 'hidden';</script></head>"
            b"<body><nav>Home | About</nav><h1>Tides</h1><p>The tide <b>turns</b> at noon.</p></body></html>")
    upstream.server.routes["/page"] = Route(html, "text/html; charset=utf-8")
    for path in ("/doc.pdf", "/download"):
        response = server.fetch({"url": upstream.server.url(path)})
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["content_type"] == "application/pdf" and body["pdf"]["pages"] == 3
        assert "beta crimson harbor" in body["content"]
    response = server.fetch({"url": upstream.server.url("/page")})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["pdf"] is None and body["content_type"] == "text/html"
    assert "The tide turns at noon." in body["content"] and "Tides" in body["content"]
    assert "hidden" not in body["content"] and "Home | About" not in body["content"]
    assert child_log() == 1  # one extraction for the two PDF URLs (same bytes), none for HTML


def test_three_pages_whole_with_markers_and_envelope(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    body = server.fetch({"url": upstream.server.url("/doc.pdf"), "mode": "clean"}).json()
    assert "--- page 2 ---" in body["content"] and "--- page 3 ---" in body["content"]
    assert body["pdf"] == {"pages": 3, "title": "Three Page Test", "outline": [], "returned": [1, 3],
                           "map": False, "grep_hits": None}


# -- 3, 4, 5: the map, pages, grep ----------------------------------------------------------------

def test_over_the_cap_is_the_map(upstream: Running, serve: Any, fixtures: Path) -> None:
    server = serve("--no-auth", "--cap", "3000")
    upstream.server.routes["/long.pdf"] = Route((fixtures / "long.pdf").read_bytes())
    body = server.fetch({"url": upstream.server.url("/long.pdf")}).json()
    assert body["pdf"]["map"] is True and body["pdf"]["pages"] == 40
    assert len(body["content"]) <= 3000
    assert body["content"].startswith("# A Long Report\npages 40")
    assert "- Chapter 2 (p. 11)" in body["content"] and 'pages="a-b"' in body["content"]
    assert body["pdf"]["outline"][2] == {"title": "Chapter 2", "page": 11, "level": 1}


def test_pages_slice_and_bad_ranges(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth")
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three)
    body = server.fetch({"url": url, "pages": "2-3"}).json()
    assert body["content"].startswith("--- page 2 ---") and "--- page 3 ---" in body["content"]
    assert "page 1" not in body["content"] and "alpha quantum" not in body["content"]
    assert body["pdf"]["returned"] == [2, 3] and body["pdf"]["map"] is False
    for bad in ("0-1", "5-4", "999"):
        _error(server.fetch({"url": url, "pages": bad}), 400, "usage")
    assert "out of range (1–3)" in server.fetch({"url": url, "pages": "999"}).json()["error"]["message"]


def test_grep_within_pages_and_bad_patterns(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth")
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three)
    body = server.fetch({"url": url, "grep": "crimson harbor"}).json()
    assert "p. 2: The phrase here is beta crimson harbor." in body["content"]
    assert body["pdf"]["grep_hits"] == 1
    body = server.fetch({"url": url, "grep": "the phrase", "pages": "3"}).json()
    assert body["pdf"]["grep_hits"] == 1 and "p. 3: The phrase here is gamma velvet mountain." in body["content"]
    assert "p. 1" not in body["content"] and "p. 2" not in body["content"]
    _error(server.fetch({"url": url, "grep": "a" * 201}), 400, "usage")
    _error(server.fetch({"url": url, "grep": "(unclosed"}), 400, "usage")
    # A pattern a backtracking engine can take forever on is accepted (RE2); that it ends on a
    # text made to stop such an engine is test_grep_on_a_text_answer_and_a_pathological_pattern below.
    assert server.fetch({"url": url, "grep": "(a+)+$"}).status_code == 200


# -- 6, 7: failures -------------------------------------------------------------------------------

def test_scanned_encrypted_truncated(upstream: Running, serve: Any, fixtures: Path) -> None:
    server = serve("--no-auth")
    for name in ("scanned", "encrypted_user", "truncated"):
        upstream.server.routes[f"/{name}.pdf"] = Route((fixtures / f"{name}.pdf").read_bytes())
    scanned = _error(server.fetch({"url": upstream.server.url("/scanned.pdf"), "ocr": "never"}), 422, "no_text")
    assert scanned["hint"] == 'rerun with "ocr": "auto"'  # the request's terms, not the command line's
    # A slice of a scan is the same error, not pages of placeholders (as `siftpdf pages 1` says).
    _error(server.fetch({"url": upstream.server.url("/scanned.pdf"), "pages": "1", "ocr": "never"}), 422, "no_text")
    _error(server.fetch({"url": upstream.server.url("/encrypted_user.pdf")}), 422, "encrypted")
    # A truncated file is repaired: the page that survived is read, the lost ones are empty.
    response = server.fetch({"url": upstream.server.url("/truncated.pdf")})
    assert response.status_code == 200, response.text
    assert "alpha quantum lighthouse" in response.json()["content"]
    response = server.post("/v2/scrape", {"url": upstream.server.url("/scanned.pdf"), "formats": ["markdown"],
                                          "parsers": [{"type": "pdf", "mode": "fast"}]})
    assert response.status_code == 422
    assert response.json() == {"success": False, "error": "no text layer (scanned PDF?)", "code": "no_text",
                               "hint": 'rerun with "parsers": [{"type": "pdf", "mode": "auto"}]'}


def test_deadline_kills_the_child(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth", "--deadline", "1", env={"SIFTPDF_TEST_CHILD_SLEEP": "30"})
    upstream.server.routes["/doc.pdf"] = Route(three)
    # The child sleeps 30 s: a timeout naming the 1 s deadline can only come from the deadline.
    body = _error(server.fetch({"url": upstream.server.url("/doc.pdf")}), 422, "timeout")
    assert body["message"] == "pdf extraction timed out after 1 s"
    assert server.children() == []


def test_upstream_failure_is_502(upstream: Running, serve: Any) -> None:
    server = serve("--no-auth")
    _error(server.fetch({"url": upstream.server.url("/missing.pdf")}), 502, "fetch")
    _error(server.fetch({"url": "ftp://example.org/x.pdf"}), 400, "usage")


# -- 8: the pool, the caller, single-flight -------------------------------------------------------

def _concurrently(calls: list[Any]) -> list[httpx.Response]:
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
        time.sleep(0.15)  # in order: the last one finds the pool full
    for thread in threads:
        thread.join(120)
    return results


@pytest.mark.check  # make check: seven slow requests, about 19 s
def test_seventh_slow_request_gets_503_with_retry_after(upstream: Running, serve: Any) -> None:
    server = serve("--no-auth", env={"SIFTPDF_TEST_CHILD_DELAY": "6"})
    for i in range(7):  # seven different documents: no single-flight between them
        upstream.server.routes[f"/d{i}.pdf"] = Route(make_fixtures.pages_doc(1, f"Document {i}"))
    calls = [lambda i=i: server.fetch({"url": upstream.server.url(f"/d{i}.pdf")}) for i in range(7)]
    results = _concurrently(calls)
    statuses = [r.status_code for r in results]
    assert statuses.count(503) == 1 and statuses.count(200) == 6, statuses
    busy = results[statuses.index(503)]
    assert busy.headers["retry-after"] == "10"
    assert busy.json()["error"]["code"] == "busy"
    metrics = httpx.get(server.base + "/metrics").text
    assert "siftpdf_pdf_pool_wait_seconds_count 7.0" in metrics  # six waits that ended in a slot, one busy
    assert 'siftpdf_pdf_extract_total{outcome="busy"} 1.0' in metrics
    assert 'siftpdf_http_requests_total{route="/v1/fetch",status="503"} 1.0' in metrics


@pytest.mark.check  # make check: a long run, about 5 s
def test_second_concurrent_request_of_a_caller_gets_429(upstream: Running, serve: Any, tmp_path: Path) -> None:
    server = serve("--tokens", str(_tokens(tmp_path)), env={"SIFTPDF_TEST_CHILD_DELAY": "4"})
    for i in range(3):
        upstream.server.routes[f"/d{i}.pdf"] = Route(make_fixtures.pages_doc(1, f"Document {i}"))
    results = _concurrently([
        lambda: server.fetch({"url": upstream.server.url("/d0.pdf")}, token="alice"),
        lambda: server.fetch({"url": upstream.server.url("/d1.pdf")}, token="alice"),
        lambda: server.fetch({"url": upstream.server.url("/d2.pdf")}, token="bob"),
    ])
    alice = sorted(results[:2], key=lambda r: r.status_code)  # whichever of alice's came second
    assert [r.status_code for r in (*alice, results[2])] == [200, 429, 200], [r.text for r in results]
    assert alice[1].headers["retry-after"] == "10"
    assert alice[1].json()["error"]["code"] == "busy"


def test_two_requests_for_one_url_make_one_get_and_one_child(upstream: Running, serve: Any, three: bytes,
                                                             child_log) -> None:
    server = serve("--no-auth", env={"SIFTPDF_TEST_CHILD_DELAY": "2"})
    upstream.server.routes["/doc.pdf"] = Route(three)
    url = upstream.server.url("/doc.pdf")
    results = _concurrently([lambda: server.fetch({"url": url}), lambda: server.fetch({"url": url, "pages": "2"})])
    assert [r.status_code for r in results] == [200, 200]
    assert len(upstream.server.gets("/doc.pdf")) == 1
    assert child_log() == 1


def test_no_token_is_401_unless_no_auth(upstream: Running, serve: Any, three: bytes, tmp_path: Path) -> None:
    server = serve("--tokens", str(_tokens(tmp_path)))
    upstream.server.routes["/doc.pdf"] = Route(three)
    url = upstream.server.url("/doc.pdf")
    _error(server.fetch({"url": url}), 401, "unauthorized")
    _error(server.fetch({"url": url}, token="nobody"), 401, "unauthorized")
    assert server.post("/v2/scrape", {"url": url}).json()["success"] is False
    assert server.fetch({"url": url}, token="alice").status_code == 200
    assert upstream.server.gets("/doc.pdf") and len(upstream.server.gets("/doc.pdf")) == 1


def test_no_auth_is_refused_off_loopback(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "siftpdf", "serve", "--host", "0.0.0.0", "--no-auth"],
                            capture_output=True, timeout=60)
    assert result.returncode == 2 and b"loopback" in result.stderr


# -- 9, 10: cache and caller classes --------------------------------------------------------------

def test_cached_pages_make_no_get_and_start_no_child(upstream: Running, serve: Any, three: bytes,
                                                     child_log) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three, etag='"v1"')
    url = upstream.server.url("/doc.pdf")
    assert server.fetch({"url": url}).status_code == 200
    for _ in range(2):
        body = server.fetch({"url": url, "pages": "3"}).json()
        assert "gamma velvet mountain" in body["content"]
    assert (len(upstream.server.requests), child_log()) == (1, 1)
    metrics = httpx.get(server.base + "/metrics").text
    assert "siftpdf_pdf_cache_hits_total 2.0" in metrics
    assert 'siftpdf_pdf_extract_total{outcome="ok"} 1.0' in metrics
    assert "siftpdf_pdf_pages_total 3.0" in metrics
    assert "siftpdf_pdf_extract_seconds_count 1.0" in metrics
    assert 'siftpdf_http_requests_total{route="/v1/fetch",status="200"} 3.0' in metrics
    assert 'siftpdf_http_request_seconds_count{route="/v1/fetch",status="200"} 3.0' in metrics


def test_scrape_max_age_zero_revalidates_with_a_304(upstream: Running, serve: Any, three: bytes, child_log) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three, etag='"v1"')
    url = upstream.server.url("/doc.pdf")
    assert server.fetch({"url": url}).status_code == 200
    response = server.post("/v2/scrape", {"url": url, "formats": ["markdown"], "maxAge": 0})
    assert response.json()["success"] is True
    assert [r.status for r in upstream.server.gets("/doc.pdf")] == [200, 304]
    assert child_log() == 1


def test_restricted_caller_is_partitioned_and_logs_outcome_only(upstream: Running, serve: Any, three: bytes,
                                                                tmp_path: Path, child_log) -> None:
    server = serve("--tokens", str(_tokens(tmp_path)), "--verbose")
    upstream.server.routes["/doc.pdf"] = Route(three)
    url = upstream.server.url("/doc.pdf")
    assert server.fetch({"url": url}, token="rita").status_code == 200
    assert server.fetch({"url": url, "pages": "2"}, token="rita").status_code == 200
    assert (len(upstream.server.gets("/doc.pdf")), child_log()) == (1, 1)
    server.output_with("outcome=ok")
    log = server.output_with("outcome=cached")
    assert "outcome=ok" in log and "outcome=cached" in log
    for secret in ("127.0.0.1:" + str(upstream.server.port), "doc.pdf", "Three Page Test", "crimson"):
        assert secret not in log
    # Another caller does not see the restricted caller's document: its own GET and extraction.
    assert server.fetch({"url": url}, token="bob").status_code == 200
    assert (len(upstream.server.gets("/doc.pdf")), child_log()) == (2, 2)
    assert "doc.pdf" in server.output_with("doc.pdf")  # a fleet caller's lines do name the URL


# -- 11: body limits ------------------------------------------------------------------------------

def test_body_limits_are_413(upstream: Running, serve: Any) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/big.pdf"] = Route(pattern(100_000_001, b"%PDF-1.7\n"), length=False)
    upstream.server.routes["/big.html"] = Route(pattern(5_000_001, b"<!doctype html><html>"), "text/html",
                                                length=False)
    _error(server.fetch({"url": upstream.server.url("/big.pdf")}), 413, "too_large")
    _error(server.fetch({"url": upstream.server.url("/big.html")}), 413, "too_large")


# -- 12, 13: /v2/scrape and digest ----------------------------------------------------------------

def test_scrape_with_the_hermes_body(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    url = upstream.server.url("/doc.pdf")
    response = server.post("/v2/scrape", {"url": url, "formats": ["markdown"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True
    assert "--- page 2 ---" in body["data"]["markdown"] and "beta crimson harbor" in body["data"]["markdown"]
    assert body["data"]["metadata"] == {"title": "Three Page Test", "sourceURL": url, "url": url, "statusCode": 200,
                                        "contentType": "application/pdf", "numPages": 3, "totalPages": 3}
    body = server.post("/v2/scrape", {"url": url, "formats": ["markdown"], "pageMarkers": False,
                                      "parsers": [{"type": "pdf", "maxPages": 2}]}).json()
    assert "--- page" not in body["data"]["markdown"] and "gamma velvet" not in body["data"]["markdown"]
    assert "beta crimson harbor" in body["data"]["markdown"]
    assert (body["data"]["metadata"]["numPages"], body["data"]["metadata"]["totalPages"]) == (2, 3)


def test_fetch_format_markdown_and_scrape_answer_markdown(upstream: Running, serve: Any, fixtures: Path) -> None:
    from markdown_words import missing_and_extra

    server = serve("--no-auth")
    upstream.server.routes["/paper.pdf"] = Route((fixtures / "paper_2col.pdf").read_bytes())
    url = upstream.server.url("/paper.pdf")
    text = server.fetch({"url": url}).json()["content"]
    answer = server.fetch({"url": url, "format": "markdown"}).json()
    md = answer["content"]
    assert answer["pdf"]["map"] is False and md.startswith("--- page 1 ---\n\n# Measuring Rivers")
    assert "\n## 1 Introduction\n" in md and "\n| Station | Depth (m) | Velocity (m/s) | Discharge |\n|---|" in md
    assert "# 1 Introduction" not in text
    assert missing_and_extra(text, md) == ({}, {})
    sliced = server.fetch({"url": url, "format": "markdown", "pages": "3"}).json()["content"]
    assert sliced.startswith("--- page 3 ---\n\n| Station |")
    scrape = server.post("/v2/scrape", {"url": url, "formats": ["markdown"]}).json()
    assert scrape["success"] is True and scrape["data"]["markdown"] == md
    unmarked = server.post("/v2/scrape", {"url": url, "pageMarkers": False}).json()["data"]["markdown"]
    assert unmarked.startswith("# Measuring Rivers") and "--- page" not in unmarked
    # The pages' blocks stay apart: the table is still the table, not the end of a paragraph.
    assert unmarked == "".join(part.split("---\n\n", 1)[1] for part in md.split("--- page ")[1:])
    bad = server.fetch({"url": url, "format": "html"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "usage"


def test_firecrawl_sdk_scrape(upstream: Running, serve: Any, three: bytes) -> None:
    firecrawl = pytest.importorskip("firecrawl")
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    client = firecrawl.Firecrawl(api_key="fc-anything", api_url=server.base)
    doc = client.scrape(upstream.server.url("/doc.pdf"), formats=["markdown"])
    assert "--- page 3 ---" in doc.markdown and "gamma velvet mountain" in doc.markdown
    assert doc.metadata.num_pages == 3 and doc.metadata.content_type == "application/pdf"
    assert doc.metadata.title == "Three Page Test"
    assert doc.metadata.source_url == upstream.server.url("/doc.pdf")


def test_digest_cites_pages(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth", env={"SIFTPDF_LLM_URL": ""})
    upstream.server.routes["/doc.pdf"] = Route(three)
    body = server.fetch({"url": upstream.server.url("/doc.pdf"), "mode": "digest",
                         "question": "where is the velvet mountain?"}).json()
    assert "(p. 3)" in body["content"] and "velvet mountain" in body["content"]
    assert body["digest"]["model"] == "extractive" and 3 in body["digest"]["citations"]
    assert body["pdf"]["pages"] == 3
    _error(server.fetch({"url": upstream.server.url("/doc.pdf"), "mode": "digest"}), 400, "usage")


# -- the service itself ---------------------------------------------------------------------------

def test_healthz_openapi_and_bad_bodies(serve: Any) -> None:
    server = serve("--no-auth")
    assert httpx.get(server.base + "/healthz").json()["status"] == "ok"
    spec = httpx.get(server.base + "/openapi.json").json()
    assert {"/v1/fetch", "/v2/scrape", "/healthz"} <= set(spec["paths"])
    _error(server.fetch({"mode": "clean"}), 400, "usage")
    _error(server.fetch({"url": "http://x", "mode": "fancy"}), 400, "usage")
    response = httpx.post(server.base + "/v1/fetch", content=b"{not json", headers={"content-type": "application/json"})
    _error(response, 400, "usage")


def _raw_post(base: str, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """A POST with exactly these headers (http.client adds no Content-Type of its own)."""
    parts = httpx.URL(base)
    connection = http.client.HTTPConnection(parts.host, parts.port, timeout=120)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", None, "text/plain; charset=utf-8"])
def test_a_json_body_is_read_whatever_its_content_type(upstream: Running, serve: Any, three: bytes,
                                                         content_type: str | None) -> None:
    """What `curl -s localhost:8765/v1/fetch -d '{...}'` sends (a form type), a client that
    sends none, and text/plain: the body is JSON, and both JSON routes read it."""
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    headers = {"Content-Type": content_type} if content_type else {}
    body = json.dumps({"url": upstream.server.url("/doc.pdf"), "pages": "2"}).encode()
    status, answer = _raw_post(server.base, "/v1/fetch", body, headers)
    assert status == 200, answer
    assert answer["pdf"]["returned"] == [2, 2] and "--- page 2 ---" in answer["content"]
    status, answer = _raw_post(server.base, "/v2/scrape", body, headers)
    assert status == 200 and answer["success"] is True, answer
    assert answer["data"]["metadata"]["totalPages"] == 3


@pytest.mark.parametrize(("body", "message"), [
    (b'{"url": "http://x/doc.pdf"', "the body is not JSON (Expecting ',' delimiter at character 26)"),
    (b"url=http://x/doc.pdf", "the body is not JSON (Expecting value at character 0)"),
    (b'["http://x/doc.pdf"]', "the body is not a JSON object"),
    (b"", "no JSON object in the body"),
    (b"null", "the body is not a JSON object"),
])
def test_a_body_that_is_not_a_json_object_says_how_to_send_one(serve: Any, body: bytes, message: str) -> None:
    server = serve("--no-auth")
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, answer = _raw_post(server.base, "/v1/fetch", body, form)
    error = answer["error"]
    assert status == 400 and error["code"] == "usage" and error["message"] == f"bad request: {message}"
    assert error["hint"] == (f"send one JSON object: curl -s {server.base}/v1/fetch "
                             """-d '{"url": "https://example.com/paper.pdf"}'""")
    status, answer = _raw_post(server.base, "/v2/scrape", body, form)
    assert status == 400 and answer["success"] is False and answer["code"] == "usage"
    assert answer["error"] == f"bad request: {message}" and f"curl -s {server.base}/v2/scrape -d" in answer["hint"]


def test_a_web_page_cannot_post_without_saying_json(upstream: Running, serve: Any, three: bytes) -> None:
    """A browser sends a text/plain or form POST cross-site without a preflight; with its
    Origin header such a request is refused before anything is fetched."""
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    body = json.dumps({"url": upstream.server.url("/doc.pdf")}).encode()
    status, answer = _raw_post(server.base, "/v1/fetch", body,
                               {"Content-Type": "text/plain", "Origin": "https://example.com"})
    assert status == 400
    assert "must send Content-Type: application/json (it sent text/plain)" in answer["error"]["message"]
    assert upstream.server.gets("/doc.pdf") == []
    status, answer = _raw_post(server.base, "/v1/fetch", body,
                               {"Content-Type": "application/json", "Origin": "https://example.com"})
    assert status == 200, answer  # a browser sends this only after a CORS preflight, never granted here


def test_sigterm_during_a_slow_extraction_finishes_it_and_leaves_no_child(upstream: Running, serve: Any,
                                                                          three: bytes) -> None:
    server = serve("--no-auth", env={"SIFTPDF_TEST_CHILD_SLEEP": "3"})
    upstream.server.routes["/doc.pdf"] = Route(three)
    result: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: result.append(server.fetch({"url": upstream.server.url("/doc.pdf")})))
    thread.start()
    end = time.monotonic() + 30
    while not server.children() and time.monotonic() < end:
        time.sleep(0.05)
    children = server.children()
    assert children, "no extraction child started"
    server.proc.send_signal(signal.SIGTERM)
    thread.join(60)
    assert result and result[0].status_code == 200  # the request in flight was answered
    # uvicorn re-raises the signal once the graceful shutdown is done: killed by SIGTERM, late.
    assert server.proc.wait(30) in (0, -signal.SIGTERM)
    assert "Traceback" not in server.output()
    for pid in children:
        assert not os.path.exists(f"/proc/{pid}") or _zombie_or_gone(pid)


def _zombie_or_gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_tokens_file_json_and_toml(tmp_path: Path) -> None:
    from siftpdf.http.app import Caller, load_tokens

    (tmp_path / "t.json").write_text(json.dumps({"tok": {"caller_id": "c1", "class": "restricted"}}))
    assert load_tokens(tmp_path / "t.json") == {"tok": Caller("c1", "restricted")}
    assert load_tokens(_tokens(tmp_path))["bob"] == Caller("bob", "default")
    (tmp_path / "bad.toml").write_text('[x]\nclass = "default"\n')
    from siftpdf.errors import UsageError

    with pytest.raises(UsageError):
        load_tokens(tmp_path / "bad.toml")


@pytest.mark.check  # make check: a long run, about 5 s
def test_schemathesis_finds_no_server_error_and_no_schema_break(upstream: Running, serve: Any, three: bytes,
                                                                 tmp_path: Path) -> None:
    """Bounded: a few examples per operation, one worker, a fixed seed."""
    # Its console script's entry point, run by this Python (the dev extra has it; no skip).
    cli = [sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"]
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    upstream.server.routes["/page.html"] = Route(b"<html><title>t</title><body><p>hello</p></body></html>",
                                                 "text/html")
    env = dict(os.environ, SIFTPDF_TEST_UPSTREAM=upstream.server.url(""), SCHEMATHESIS_HOOKS="schemathesis_hooks",
               PYTHONPATH=str(Path(__file__).parent))
    result = subprocess.run([*cli, "run", server.base + "/openapi.json", "--checks",
                             "not_a_server_error,response_schema_conformance,status_code_conformance",
                             "--max-examples", "20", "--phases", "examples,coverage,fuzzing", "--workers", "1",
                             "--seed", "1", "--request-timeout", "60"],
                            capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)  # its cache there
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
    assert len(upstream.server.gets("/doc.pdf")) >= 1  # generated requests did reach the PDF path


def test_html_scrape_and_digest_never_take_the_pdf_path(upstream: Running, serve: Any, child_log) -> None:
    server = serve("--no-auth")
    html = (b"<html><head><title>Tide tables</title></head><body><header>Site menu</header><main>"
            b"<h1>Tides</h1><p>High water at Harwich is at 11:40.</p><p>Low water follows at 17:55.</p>"
            b"</main></body></html>")
    upstream.server.routes["/tides"] = Route(html, "text/html")
    upstream.server.routes["/data.json"] = Route(b'{"tide": "high"}', "application/json")
    url = upstream.server.url("/tides")
    body = server.post("/v2/scrape", {"url": url, "formats": ["markdown"]}).json()
    assert body["success"] is True
    assert body["data"]["markdown"].startswith("Tides\n\nHigh water at Harwich is at 11:40.")
    assert "Site menu" not in body["data"]["markdown"]
    assert body["data"]["metadata"]["contentType"] == "text/html" and body["data"]["metadata"]["title"] == "Tide tables"
    assert "numPages" not in body["data"]["metadata"]
    body = server.fetch({"url": url, "mode": "digest", "question": "when is low water?"}).json()
    assert "17:55" in body["content"] and body["pdf"] is None
    body = server.fetch({"url": upstream.server.url("/data.json")}).json()
    assert body["content"] == '{"tide": "high"}' and body["content_type"] == "application/json"
    assert child_log() == 0


def test_grep_on_a_text_answer_and_a_pathological_pattern(upstream: Running, serve: Any) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/a.txt"] = Route(b"a" * 1_000_000 + b"\nthe needle line\n", "text/plain")
    url = upstream.server.url("/a.txt")
    # RE2: linear time. A backtracking engine can take exponential time on (a+)+$ over a million
    # a's: a hang is the failure, caught by the request's generous timeout (no timing here).
    body = server.fetch({"url": url, "grep": "(a+)+$"}, timeout=60).json()
    assert body["content"].startswith("p. 1: aaa") and "the needle line" in body["content"]
    body = server.fetch({"url": url, "grep": "needle"}).json()
    assert body["content"].startswith("p. 1- ") and "p. 1: the needle line" in body["content"]
    body = server.fetch({"url": url}).json()
    assert len(body["content"]) < 41_000 and "[cut at 40000 characters; use grep=PATTERN]" in body["content"]
    _error(server.fetch({"url": url, "pages": "1"}), 400, "usage")


# -- a bug, and the access log ----------------------------------------------------------------------

def test_a_bug_answers_500_in_the_error_shape_and_logs_its_request_id(upstream: Running, serve: Any,
                                                                       three: bytes) -> None:
    server = serve("--no-auth", "--access-log", env={"SIFTPDF_TEST_SERVICE_BUG": "boom"})
    server.expect_internal = True
    upstream.server.routes["/boom.pdf"] = Route(three)
    upstream.server.routes["/doc.pdf"] = Route(three)
    response = server.fetch({"url": upstream.server.url("/boom.pdf")})
    request_id = response.headers["x-request-id"]
    body = _error(response, 500, "internal")
    assert request_id in body["message"]
    scrape = server.post("/v2/scrape", {"url": upstream.server.url("/boom.pdf")})
    assert scrape.status_code == 500
    assert scrape.json()["success"] is False and scrape.json()["code"] == "internal"
    # The server goes on serving.
    assert server.fetch({"url": upstream.server.url("/doc.pdf"), "pages": "2"}).status_code == 200
    bad = server.fetch({"url": upstream.server.url("/doc.pdf"), "pages": "9"})
    _error(bad, 400, "usage")
    log = server.output_with("\naccess ", count=4)
    assert f"siftpdf: internal error, request id {request_id}, POST /v1/fetch: Traceback" in log
    assert "RuntimeError: a bug planted by the test seam" in log
    access = [line for line in log.splitlines() if line.startswith("access ")]
    assert [line.split()[2:5] for line in access] == [["POST", "/v1/fetch", "500"], ["POST", "/v2/scrape", "500"],
                                                      ["POST", "/v1/fetch", "200"], ["POST", "/v1/fetch", "400"]]
    assert access[0].endswith(f"code=internal id={request_id}")
    assert " code=usage " in access[3] and " code=- " in access[2]
    assert "boom" not in "\n".join(access)  # the URL asked for is not logged


def test_no_access_log_unless_asked(upstream: Running, serve: Any, three: bytes) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/doc.pdf"] = Route(three)
    response = server.fetch({"url": upstream.server.url("/doc.pdf"), "pages": "1"})
    assert response.status_code == 200 and response.headers["x-request-id"]
    assert "access " not in server.output()


@pytest.mark.skipif(not make_scans.CORPUS.is_dir() or not ocr_installed(), reason="needs the corpus and an OCR engine")
def test_ocr_through_fetch_and_scrape(upstream: Running, serve: Any) -> None:
    server = serve("--no-auth")
    upstream.server.routes["/scan.pdf"] = Route(make_scans.many_pages(2, dpi=150))
    url = upstream.server.url("/scan.pdf")
    assert _error(server.fetch({"url": url, "ocr": "never"}), 422, "no_text")["hint"] == 'rerun with "ocr": "auto"'
    for asked in ({"ocr": "auto"}, {}):  # auto is the default where the server has an OCR engine
        answer = server.fetch({"url": url, **asked})
        assert answer.status_code == 200, answer.text
        assert "transaction" in answer.json()["content"]
    by_default = server.post("/v2/scrape", {"url": url}).json()  # as Firecrawl's, the pdf parser's mode is auto
    assert by_default["success"] is True and "transaction" in by_default["data"]["markdown"]
    body = server.post("/v2/scrape", {"url": url, "formats": ["markdown"],
                                      "parsers": [{"type": "pdf", "mode": "auto"}]}).json()
    assert body["success"] is True and "transaction" in body["data"]["markdown"]
    fast = server.post("/v2/scrape", {"url": url, "parsers": [{"type": "pdf", "mode": "fast"}]}).json()
    assert fast == {"success": False, "error": "no text layer (scanned PDF?)", "code": "no_text",
                    "hint": 'rerun with "parsers": [{"type": "pdf", "mode": "auto"}]'}
    assert server.fetch({"url": url, "ocr": "sometimes"}).status_code == 400
