"""siftpdf fetch against a real HTTP server on loopback, with real extraction children."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from conftest import records, run_siftpdf
from httpserver import Route, Running, pattern

import siftpdf.fetch
from siftpdf.docstream import schema

OK = ("--allow-private",)  # the test server is on loopback: every fetch that should work needs it


@pytest.fixture
def three(fixtures: Path) -> bytes:
    return (fixtures / "three_page.pdf").read_bytes()


def test_application_pdf_and_octet_stream_with_magic_both_extract(upstream: Running, three: bytes,
                                                                  child_log) -> None:
    upstream.server.routes["/doc.pdf"] = Route(three, "application/pdf")
    upstream.server.routes["/download"] = Route(three, "application/octet-stream")
    for path in ("/doc.pdf", "/download"):
        result = run_siftpdf("fetch", *OK, upstream.server.url(path))
        assert result.returncode == 0, result.stderr
        out = records(result.stdout.decode())
        assert [r["page"] for r in out if "page" in r] == [1, 2, 3]
        assert "beta crimson harbor" in out[2]["text"]
        assert out[0]["meta"]["source"] == upstream.server.url(path)
        assert out[0]["meta"]["final_url"] == upstream.server.url(path)
        for record in out:
            jsonschema.validate(record, schema())
    assert len(upstream.server.requests) == 2
    # Same bytes behind two URLs: one extraction, the second URL reads the cached pages.
    assert child_log() == 1


def test_accept_header_names_pdf(upstream: Running, three: bytes) -> None:
    upstream.server.routes["/doc.pdf"] = Route(three)
    assert run_siftpdf("fetch", *OK, upstream.server.url("/doc.pdf")).returncode == 0
    assert "application/pdf;q=0.8" in upstream.server.requests[0].headers["accept"]


def test_html_never_takes_the_pdf_path(upstream: Running, child_log) -> None:
    html = b"<!doctype html><html><head><title>Not a PDF</title></head><body>hello</body></html>"
    upstream.server.routes["/page"] = Route(html, "text/html; charset=utf-8")
    result = run_siftpdf("fetch", *OK, upstream.server.url("/page"))
    assert result.returncode == 4
    assert b"not a PDF (html" in result.stderr
    assert child_log() == 0
    # ... and the reading commands say the same of it.
    result = run_siftpdf("pages", "1", *OK, upstream.server.url("/page"))
    assert result.returncode == 4 and child_log() == 0


def test_final_url_after_redirects_is_in_meta(upstream: Running, three: bytes) -> None:
    upstream.server.routes["/doc.pdf"] = Route(three)
    upstream.server.routes["/short"] = Route(b"", status=302, location="/moved")
    upstream.server.routes["/moved"] = Route(b"", status=301, location=upstream.server.url("/doc.pdf"))
    result = run_siftpdf("fetch", *OK, upstream.server.url("/short"))
    assert result.returncode == 0, result.stderr
    meta = records(result.stdout.decode())[0]["meta"]
    assert meta["source"] == upstream.server.url("/short")
    assert meta["final_url"] == upstream.server.url("/doc.pdf")


def test_cached_document_pages_make_no_get_and_start_no_child(upstream: Running, three: bytes, child_log) -> None:
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three, etag='"v1"')
    assert run_siftpdf("fetch", *OK, url).returncode == 0
    assert (len(upstream.server.requests), child_log()) == (1, 1)
    for _ in range(2):
        result = run_siftpdf("pages", "2-3", *OK, url)
        assert result.returncode == 0, result.stderr
        text = result.stdout.decode()
        assert "--- page 2 ---" in text and "gamma velvet mountain" in text and "alpha" not in text
    result = run_siftpdf("grep", "velvet", *OK, url)
    assert result.stdout.decode().startswith("p. 3")
    assert (len(upstream.server.requests), child_log()) == (1, 1)


def test_after_the_ttl_a_304_starts_no_child(upstream: Running, three: bytes, child_log) -> None:
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three, etag='"v1"', last_modified="Mon, 02 Nov 2026 10:00:00 GMT")
    assert run_siftpdf("fetch", *OK, url).returncode == 0
    result = run_siftpdf("pages", "2", "--max-age", "0", *OK, url)
    assert result.returncode == 0, result.stderr
    assert "beta crimson harbor" in result.stdout.decode()
    second = upstream.server.gets("/doc.pdf")[1]
    assert second.headers.get("if-none-match") == '"v1"'
    assert second.headers.get("if-modified-since") == "Mon, 02 Nov 2026 10:00:00 GMT"
    assert second.status == 304
    assert child_log() == 1
    # The 304 refreshed the entry: within --max-age again, no request at all.
    assert run_siftpdf("pages", "1", "--max-age", "60", *OK, url).returncode == 0
    assert len(upstream.server.requests) == 2


def test_a_200_with_the_same_bytes_re_extracts_nothing_and_new_bytes_do(upstream: Running, three: bytes,
                                                                        fixtures: Path, child_log) -> None:
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three)  # no validators: revalidation is a full GET
    assert run_siftpdf("fetch", *OK, url).returncode == 0
    assert run_siftpdf("pages", "1", "--max-age", "0", *OK, url).returncode == 0
    assert (len(upstream.server.gets("/doc.pdf")), child_log()) == (2, 1)
    upstream.server.routes["/doc.pdf"] = Route((fixtures / "long.pdf").read_bytes())
    result = run_siftpdf("pages", "1", "--max-age", "0", *OK, url)
    assert "Long report page 1." in result.stdout.decode()
    assert child_log() >= 2


def test_two_concurrent_fetches_make_one_get_and_start_one_child(upstream: Running, three: bytes,
                                                                 child_log) -> None:
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three, delay=1.5)  # both are running before it answers
    procs = [subprocess.Popen([sys.executable, "-m", "siftpdf", "fetch", *OK, url],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=180) for p in procs]
    for proc, (stdout, stderr) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, stderr
        assert [r["page"] for r in records(stdout.decode()) if "page" in r] == [1, 2, 3]
    assert len(upstream.server.gets("/doc.pdf")) == 1
    assert child_log() == 1


def test_a_pdf_over_100_mb_is_too_large(upstream: Running, child_log) -> None:
    # No Content-Length: the limit must be enforced on the bytes as they stream.
    upstream.server.routes["/huge.pdf"] = Route(pattern(100_000_001, b"%PDF-1.7\n"), length=False)
    result = run_siftpdf("fetch", *OK, upstream.server.url("/huge.pdf"))
    assert result.returncode == 7, result.stderr
    assert b"too large (>100 MB)" in result.stderr
    assert child_log() == 0


@pytest.mark.check  # make check: 100 MB through the fetch guard, about 9 s
def test_a_pdf_of_exactly_100_mb_is_not_too_large(upstream: Running) -> None:
    upstream.server.routes["/edge.pdf"] = Route(pattern(100_000_000, b"%PDF-1.7\n"), length=False)
    result = run_siftpdf("fetch", *OK, upstream.server.url("/edge.pdf"))
    assert result.returncode == 4, result.stderr  # downloaded whole; then unreadable, not too large
    assert b"too large" not in result.stderr


def test_an_html_page_over_5_mb_is_too_large(upstream: Running) -> None:
    upstream.server.routes["/huge.html"] = Route(pattern(5_000_001, b"<!doctype html><html><body>"),
                                               "text/html", length=False)
    result = run_siftpdf("fetch", *OK, upstream.server.url("/huge.html"))
    assert result.returncode == 7, result.stderr
    assert b"too large (>5 MB)" in result.stderr


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:{port}/doc.pdf",
    "http://localhost:{port}/doc.pdf",
    "http://[::1]:{port}/doc.pdf",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.1.2.3/doc.pdf",
    "http://192.168.0.1/doc.pdf",
    "http://0.0.0.0:{port}/doc.pdf",
])
def test_private_addresses_are_refused_without_allow_private(upstream: Running, three: bytes, url: str) -> None:
    upstream.server.routes["/doc.pdf"] = Route(three)
    result = run_siftpdf("fetch", url.format(port=upstream.server.port))
    assert result.returncode == 8, result.stderr
    assert b"fetch refused" in result.stderr
    assert upstream.server.requests == []


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x.pdf", "gopher://example.org/"])
def test_only_http_and_https(url: str) -> None:
    result = run_siftpdf("fetch", url)
    assert result.returncode == 8
    assert b"only http and https" in result.stderr


@pytest.fixture
def public_looking(monkeypatch: pytest.MonkeyPatch) -> Iterator[Running]:
    """A server on 127.0.0.3 that the address policy is told to treat as public, so that the
    first hop is allowed and only the redirect's target is judged by the real rules."""
    real = siftpdf.fetch.blocked_reason
    monkeypatch.setattr(siftpdf.fetch, "blocked_reason",
                        lambda ip: None if str(ip) == "127.0.0.3" else real(ip))
    running = Running("127.0.0.3")
    yield running
    running.stop()


@pytest.mark.parametrize("target", ["http://127.0.0.1:{port}/doc.pdf", "http://169.254.169.254/latest/meta-data/"])
def test_a_redirect_to_a_private_address_is_refused(public_looking: Running, upstream: Running, three: bytes,
                                                    run_cli, target: str) -> None:
    upstream.server.routes["/doc.pdf"] = Route(three)
    public_looking.server.routes["/go"] = Route(b"", status=302, location=target.format(port=upstream.server.port))
    public_looking.server.routes["/doc.pdf"] = Route(three)
    # The first hop really is allowed (same policy, a PDF straight from the "public" server works).
    ok = run_cli("fetch", public_looking.server.url("/doc.pdf"))
    assert ok.exit_code == 0, ok.output
    result = run_cli("fetch", public_looking.server.url("/go"))  # no --allow-private
    assert result.exit_code == 8
    assert "fetch refused" in result.output
    assert [r.path for r in public_looking.server.requests] == ["/doc.pdf", "/go"]
    assert upstream.server.requests == []


def test_restricted_pages_are_invisible_to_the_default_class_and_its_logs_carry_outcome_only(
        upstream: Running, three: bytes, child_log) -> None:
    url = upstream.server.url("/doc.pdf")
    upstream.server.routes["/doc.pdf"] = Route(three, etag='"v1"')
    restricted = {"SIFTPDF_CALLER_CLASS": "restricted"}
    result = run_siftpdf("pages", "1-3", "--verbose", *OK, url, env=restricted)
    assert result.returncode == 0, result.stderr
    assert "alpha quantum lighthouse" in result.stdout.decode()
    log = result.stderr.decode()
    assert "outcome=ok" in log
    for secret in ("127.0.0.1", str(upstream.server.port), "doc.pdf", "Three Page Test", "alpha", "quantum",
                   "phrase", "title"):
        assert secret not in log, (secret, log)
    # Its own second read is a cache hit, logged as bare as the first ...
    hit = run_siftpdf("pages", "2", "--verbose", *OK, url, env=restricted)
    assert hit.returncode == 0
    assert hit.stderr.decode().strip() == "siftpdf: pdf outcome=cached"
    assert (len(upstream.server.requests), child_log()) == (1, 1)
    # ... which the default class cannot see: it downloads and extracts for itself.
    result = run_siftpdf("pages", "2", "--verbose", *OK, url)
    assert "beta crimson harbor" in result.stdout.decode()
    assert (len(upstream.server.requests), child_log()) == (2, 2)
    # (and its log does name what it did: the restricted one was kept quiet on purpose)
    assert "127.0.0.1" in result.stderr.decode() and "Three Page Test" in result.stderr.decode()


def test_restricted_errors_do_not_name_the_host(upstream: Running) -> None:
    result = run_siftpdf("fetch", "--verbose", upstream.server.url("/doc.pdf"),
                         env={"SIFTPDF_CALLER_CLASS": "restricted"})
    assert result.returncode == 8
    assert b"127.0.0.1" not in result.stderr and b"fetch refused" in result.stderr


def test_http_errors_are_fetch_errors(upstream: Running) -> None:
    result = run_siftpdf("fetch", *OK, upstream.server.url("/missing.pdf"))
    assert result.returncode == 8
    assert b"HTTP 404" in result.stderr


def test_a_redirect_to_another_scheme_is_refused(upstream: Running) -> None:
    upstream.server.routes["/go"] = Route(b"", status=302, location="file:///etc/passwd")
    result = run_siftpdf("fetch", *OK, upstream.server.url("/go"))
    assert result.returncode == 8, result.stderr
    assert b"root:" not in result.stdout + result.stderr


def test_the_body_limit_counts_decoded_bytes(upstream: Running) -> None:
    import gzip

    bomb = gzip.compress(b"<!doctype html><html><body>" + b" " * 6_000_000)
    assert len(bomb) < 100_000
    upstream.server.routes["/bomb.html"] = Route(bomb, "text/html")
    upstream.server.headers = {"Content-Encoding": "gzip"}
    result = run_siftpdf("fetch", *OK, upstream.server.url("/bomb.html"))
    assert result.returncode == 7, result.stderr
    assert b"too large (>5 MB)" in result.stderr


def test_a_pdf_that_arrives_too_slowly_times_out(upstream: Running, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(siftpdf.fetch, "PDF_TIMEOUT", 1.0)  # 120 s in real life

    def dribble():
        yield b"%PDF-1.7\n" + b"0" * 2048
        for _ in range(30):
            time.sleep(0.2)
            yield b"0" * 100

    upstream.server.routes["/slow.pdf"] = Route(dribble, length=False)
    result = run_cli("fetch", *OK, upstream.server.url("/slow.pdf"))
    assert result.exit_code == 6
    assert "fetch timed out" in result.output


@pytest.mark.check  # make check: a slow download, about 8 s
def test_a_download_is_part_of_the_callers_one_job(upstream: Running, three: bytes, fixtures: Path,
                                                   tmp_path: Path) -> None:
    import os
    import time

    upstream.server.routes["/slow.pdf"] = Route(three, delay=8.0)
    env = dict(os.environ, SIFTPDF_CALLER_ID="agent-3")
    fetching = subprocess.Popen([sys.executable, "-m", "siftpdf", "fetch", *OK, upstream.server.url("/slow.pdf")],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 60
        while not upstream.server.gets("/slow.pdf") and time.monotonic() < end:
            time.sleep(0.05)
        assert upstream.server.gets("/slow.pdf"), "the download never started"
        other = run_siftpdf("extract", str(fixtures / "long.pdf"), env={"SIFTPDF_CALLER_ID": "agent-3"})
        assert other.returncode == 75
        assert b"already has a PDF job in flight" in other.stderr
        # The same caller asking for the same URL waits for the download instead.
        same = run_siftpdf("pages", "2", *OK, upstream.server.url("/slow.pdf"), env={"SIFTPDF_CALLER_ID": "agent-3"})
        assert same.returncode == 0, same.stderr
        assert "beta crimson harbor" in same.stdout.decode()
        assert fetching.wait(timeout=120) == 0
    finally:
        if fetching.poll() is None:
            fetching.kill()
        fetching.communicate()
    assert len(upstream.server.gets("/slow.pdf")) == 1


def test_no_cache_downloads_and_extracts_every_time(upstream: Running, three: bytes, child_log) -> None:
    upstream.server.routes["/doc.pdf"] = Route(three, etag='"v1"')
    for _ in range(2):
        result = run_siftpdf("pages", "3", "--no-cache", *OK, upstream.server.url("/doc.pdf"))
        assert "gamma velvet mountain" in result.stdout.decode()
    assert (len(upstream.server.gets("/doc.pdf")), child_log()) == (2, 2)
    assert all("if-none-match" not in r.headers for r in upstream.server.requests)


def test_fetch_takes_the_output_options_of_extract(upstream: Running, fixtures: Path) -> None:
    """--json (the default), --text and --cap as extract has them (one body writes both)."""
    long_pdf = fixtures / "long.pdf"
    upstream.server.routes["/long.pdf"] = Route(long_pdf.read_bytes())
    url = upstream.server.url("/long.pdf")
    fetched = run_siftpdf("fetch", *OK, "--json", url)
    assert fetched.returncode == 0, fetched.stderr
    assert [r["page"] for r in records(fetched.stdout.decode()) if "page" in r] == list(range(1, 41))
    for args in (["--text", "--cap", "3000"], ["--cap", "3000"]):
        fetched = run_siftpdf("fetch", *OK, *args, url)
        local = run_siftpdf("extract", *args, str(long_pdf))
        assert fetched.returncode == local.returncode == 0, fetched.stderr
        if "--text" in args:
            assert fetched.stdout.decode() == local.stdout.decode().replace(str(long_pdf), url)
            assert "[cut before page" in fetched.stdout.decode()
        else:
            got, want = records(fetched.stdout.decode()), records(local.stdout.decode())
            assert got[-1]["done"]["cut"] == want[-1]["done"]["cut"]
            assert [r for r in got if "page" in r] == [r for r in want if "page" in r]
