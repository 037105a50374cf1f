"""siftpdf mcp through the MCP SDK's own client, over stdio, against a real `siftpdf mcp`
process: its tools, its answers and typed errors (the same codes as the command line's), the
folders it may read, the fetch guard, concurrent calls, and a cancelled call's child."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest
from conftest import run_siftpdf
from httpserver import Route, Running, pattern
from make_fixtures import pages_doc

from siftpdf.workers.pool import SLOTS, FileLock

pytest.importorskip("mcp", reason="siftpdf[mcp] is not installed")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from mcp_types import CallToolResult  # noqa: E402

TOOLS = {"map", "pages", "grep", "digest", "sniff", "fetch"}
# The command line's exit status of each error code (docs/manual.md, EXIT STATUS).
EXIT_CODES = {2: "usage", 3: "encrypted", 4: "unreadable", 5: "no_text", 6: "timeout", 7: "too_large", 8: "fetch",
              75: "busy"}


@asynccontextmanager
async def mcp_server(root: Path, *args: str, env: dict[str, str] | None = None, mode: str = "legacy") -> Any:
    """A `siftpdf mcp --root ROOT ARGS…` process and the SDK's client session to it: by the
    initialize handshake (``legacy``, what clients speak today), or as the SDK chooses (``auto``)."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "siftpdf", "mcp", "--root", str(root), *args],
                                   env={**os.environ, **(env or {})}, cwd=str(root))
    async with Client(params, mode=mode) as client:
        yield client


def serve(root: Path, session: Callable[[Any], Awaitable[None]], *args: str,
          env: dict[str, str] | None = None, mode: str = "legacy") -> None:
    """Run ``session`` against a fresh server (ended when it returns)."""

    async def main() -> None:
        with anyio.fail_after(120):
            async with mcp_server(root, *args, env=env, mode=mode) as client:
                await session(client)

    anyio.run(main)


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


def error_of(result: CallToolResult) -> dict[str, Any]:
    """The typed error of a failed call: its record, whose lines the text repeats."""
    assert result.is_error, text_of(result)
    error = result.structured_content["error"]
    assert text_of(result).splitlines()[0] == f"siftpdf: {error['message']}"
    if error["hint"]:
        assert text_of(result).splitlines()[1] == f"hint: {error['hint']}"
    return error


@pytest.fixture
def papers(fixtures: Path, tmp_path: Path) -> Path:
    """A folder of the generated fixtures (the server's --root)."""
    root = tmp_path / "papers"
    root.mkdir()
    for name in ("three_page.pdf", "long.pdf", "scanned.pdf", "encrypted_user.pdf", "not_a_pdf.txt", "outline.pdf"):
        shutil.copy(fixtures / name, root / name)
    return root


def test_the_tools_are_listed_for_a_model(papers: Path) -> None:
    async def session(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == TOOLS
        for tool in listed.values():
            assert tool.description and tool.output_schema and tool.annotations.read_only_hint
        assert listed["pages"].input_schema["required"] == ["source", "range"]
        assert listed["fetch"].input_schema["required"] == ["url"]
        assert "pages \"41-60\"" in listed["pages"].description  # how to go on
        assert "40,000 characters" in listed["map"].description  # the cap
        assert "{cap}" not in " ".join(tool.description for tool in listed.values())

    serve(papers, session)


def test_every_tool_answers_with_its_text_view_and_records(papers: Path, upstream: Running, child_log) -> None:
    upstream.server.routes["/report.pdf"] = Route((papers / "long.pdf").read_bytes())
    url = upstream.server.url("/report.pdf")

    async def session(client: Client) -> None:
        doc_map = await client.call_tool("map", {"source": "outline.pdf"})
        assert not doc_map.is_error
        assert doc_map.structured_content["map"]["outline"]
        assert doc_map.structured_content["document"]["pages"] == doc_map.structured_content["map"]["pages"]

        pages = await client.call_tool("pages", {"source": "three_page.pdf", "range": "2-3"})
        assert text_of(pages).startswith("--- page 2 ---\n\nPage 2 of the three page test")
        assert "--- page 3 ---" in text_of(pages) and "--- page 1 ---" not in text_of(pages)
        assert [p["page"] for p in pages.structured_content["pages"]] == [2, 3]
        assert pages.structured_content["returned"] == [2, 3] and pages.structured_content["next"] is None

        markdown = await client.call_tool("pages", {"source": "long.pdf", "range": "1", "format": "markdown"})
        assert text_of(markdown).startswith("--- page 1 ---") and "Long report page 1" in text_of(markdown)

        grep = await client.call_tool("grep", {"source": "three_page.pdf", "pattern": "crimson", "context": 0})
        assert text_of(grep) == "p. 2: The phrase here is beta crimson harbor.\n"
        assert [(m["page"], m["text"]) for m in grep.structured_content["matches"]] == [
            (2, "The phrase here is beta crimson harbor.")]
        none = await client.call_tool("grep", {"source": "three_page.pdf", "pattern": "zebra"})
        assert not none.is_error and none.structured_content["count"] == 0 and "no line matches" in text_of(none)

        digest = await client.call_tool("digest", {"source": "three_page.pdf", "question": "which harbor?"})
        assert "(p. 2)" in text_of(digest) and 2 in digest.structured_content["citations"]

        sniff = await client.call_tool("sniff", {"source": "three_page.pdf"})
        assert text_of(sniff) == "pdf (magic at byte 0)\n"
        other = await client.call_tool("sniff", {"source": "not_a_pdf.txt"})
        assert not other.is_error and other.structured_content["kind"] == "text"

        fetched = await client.call_tool("fetch", {"url": url})
        assert text_of(fetched).startswith("--- page 1 ---\n\nLong report page 1.")
        assert fetched.structured_content["returned"][0] == 1
        assert fetched.structured_content["document"]["final_url"] == url
        assert fetched.structured_content["done"]["pages_processed"] == 40
        again = await client.call_tool("pages", {"source": url, "range": "40"})  # the same URL, from the cache
        assert "Long report page 40" in text_of(again)

    serve(papers, session, "--allow-private")
    assert len(upstream.server.gets("/report.pdf")) == 1
    # Children started: one each for outline.pdf and three_page.pdf, two for long.pdf (40
    # pages: both cores); the URL's bytes are long.pdf's, and a second look is a cache hit.
    assert child_log() == 4


def test_the_server_reads_the_cache_the_commands_fill(papers: Path, child_log) -> None:
    assert run_siftpdf("pages", "1", str(papers / "three_page.pdf")).returncode == 0
    assert child_log() == 1

    async def session(client: Client) -> None:
        result = await client.call_tool("pages", {"source": "three_page.pdf", "range": "3"})
        assert "gamma velvet mountain" in text_of(result)

    serve(papers, session)
    assert child_log() == 1  # a cache hit: no child


def test_a_slice_over_the_cap_says_where_to_go_on(papers: Path) -> None:
    async def session(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "At most 100 pages or 2,500 characters per call" in listed["pages"].description
        result = await client.call_tool("pages", {"source": "long.pdf", "range": "3-"})
        text, records = text_of(result), result.structured_content
        assert len(text) < 3000
        first, last = records["returned"]
        assert first == 3 and last < 40
        assert records["next"] == f"{last + 1}-"
        assert text.rstrip().endswith(f'go on with the pages tool, range "{last + 1}-"]')
        rest = await client.call_tool("pages", {"source": "long.pdf", "range": records["next"]})
        assert text_of(rest).startswith(f"--- page {last + 1} ---")

    serve(papers, session, "--cap", "2500")


@pytest.mark.parametrize(("arguments", "code", "message"), [
    ({"source": "encrypted_user.pdf", "range": "1"}, "encrypted", "encrypted PDF"),
    ({"source": "scanned.pdf", "range": "1"}, "no_text", "no text"),
    ({"source": "not_a_pdf.txt", "range": "1"}, "unreadable", "not a PDF or doc stream"),
    ({"source": "three_page.pdf", "range": "9"}, "usage", "pages out of range (1–3): '9'"),
    ({"source": "three_page.pdf", "range": "5-2"}, "usage", "bad page range '5-2'"),
    ({"source": "three_page.pdf", "range": 2}, "usage", "pages: range: 2 is not of type 'string'"),
    ({"source": "three_page.pdf"}, "usage", "pages: missing argument range"),
    ({"source": "absent.pdf", "range": "1"}, "usage", "no such file"),
])
def test_a_failure_is_a_tool_error_with_its_code_and_the_server_goes_on(
        papers: Path, arguments: dict[str, Any], code: str, message: str) -> None:
    async def session(client: Client) -> None:
        error = error_of(await client.call_tool("pages", arguments))
        assert error["code"] == code and message in error["message"]
        after = await client.call_tool("pages", {"source": "three_page.pdf", "range": "1"})
        assert not after.is_error

    serve(papers, session)


def test_an_unknown_tool_is_a_protocol_error(papers: Path) -> None:
    async def session(client: Client) -> None:
        with pytest.raises(MCPError, match="no such tool"):
            await client.call_tool("extract", {"source": "three_page.pdf"})

    serve(papers, session)


def test_paths_outside_the_roots_are_refused(papers: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.pdf"
    shutil.copy(papers / "three_page.pdf", outside)
    (papers / "link.pdf").symlink_to(outside)
    (papers / "inner").mkdir()
    (papers / "inner" / "ok.pdf").symlink_to(papers / "three_page.pdf")  # a link that stays inside

    async def session(client: Client) -> None:
        for source in ("../secret.pdf", str(outside), "link.pdf", "inner/../../secret.pdf", "/etc/passwd"):
            for tool, arguments in (("pages", {"range": "1"}), ("sniff", {})):
                error = error_of(await client.call_tool(tool, {"source": source, **arguments}))
                assert error["code"] == "usage", source
                assert error["message"] == f"{source}: outside the folders this server reads ({papers.resolve()})"
        inside = await client.call_tool("pages", {"source": "inner/ok.pdf", "range": "1"})
        assert "alpha quantum lighthouse" in text_of(inside)
        absolute = await client.call_tool("pages", {"source": str(papers / "three_page.pdf"), "range": "1"})
        assert not absolute.is_error

    serve(papers, session)


def test_a_second_root_is_searched_for_a_relative_path(papers: Path, tmp_path: Path) -> None:
    other = tmp_path / "reports"
    other.mkdir()
    (other / "annual.pdf").write_bytes(pages_doc(2, "Annual", {1: ["an annual zebra count"]}))

    async def session(client: Client) -> None:
        result = await client.call_tool("grep", {"source": "annual.pdf", "pattern": "zebra"})
        assert text_of(result).startswith("p. 1: an annual zebra count")

    serve(papers, session, "--root", str(other))


def test_a_loopback_url_is_refused_unless_the_server_allows_private_addresses(papers: Path, upstream: Running) -> None:
    upstream.server.routes["/doc.pdf"] = Route((papers / "three_page.pdf").read_bytes())
    url = upstream.server.url("/doc.pdf")

    async def refused(client: Client) -> None:
        for tool, arguments in (("pages", {"source": url, "range": "1"}), ("fetch", {"url": url})):
            error = error_of(await client.call_tool(tool, arguments))
            assert error["code"] == "fetch" and "loopback" in error["message"]
            assert "--allow-private" in error["hint"]

    async def allowed(client: Client) -> None:
        result = await client.call_tool("pages", {"source": url, "range": "2"})
        assert "beta crimson harbor" in text_of(result)

    serve(papers, refused)
    assert upstream.server.requests == []  # refused before any connection
    serve(papers, allowed, "--allow-private")
    assert len(upstream.server.gets("/doc.pdf")) == 1


def test_ten_concurrent_calls_on_ten_new_documents_all_answer(papers: Path, child_log) -> None:
    for n in range(10):
        (papers / f"doc{n}.pdf").write_bytes(pages_doc(3, f"Doc {n}", {2: [f"the word of doc {n} is w{n}x"]}))
    answers: dict[int, CallToolResult] = {}

    async def session(client: Client) -> None:
        async def one(n: int) -> None:
            answers[n] = await client.call_tool("pages", {"source": f"doc{n}.pdf", "range": "2"})

        async with anyio.create_task_group() as group:
            for n in range(10):
                group.start_soon(one, n)

    serve(papers, session)
    for n in range(10):
        assert f"the word of doc {n} is w{n}x" in text_of(answers[n])
    assert child_log() == 10


def _extraction_children(server: psutil.Process) -> list[psutil.Process]:
    """The extraction children under the server (the real child, or the tests' hooked one)."""
    found = []
    for process in server.children(recursive=True):
        try:
            cmdline = " ".join(process.cmdline())
        except psutil.Error:  # gone meanwhile
            continue
        if "siftpdf.child.main" in cmdline or "hooked_child.py" in cmdline:
            found.append(process)
    return found


def _server_process(root: Path) -> psutil.Process:
    for process in psutil.Process().children(recursive=True):
        try:
            cmdline = process.cmdline()
        except psutil.Error:
            continue
        if "mcp" in cmdline and str(root) in cmdline:
            return process
    raise AssertionError("no siftpdf mcp process")


async def _until(check: Callable[[], bool], seconds: float = 30) -> None:
    with anyio.fail_after(seconds):
        while not check():
            await anyio.sleep(0.05)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_cancelled_call_kills_its_child_and_a_slow_one_blocks_no_other(papers: Path, mode: str) -> None:
    """Every child of this server sleeps a minute before extracting (a hostile PDF, a slow
    disk); three_page.pdf was read by the command line before, so it is a cache hit."""
    (papers / "slow.pdf").write_bytes(pages_doc(2, "Slow"))
    assert run_siftpdf("pages", "1", str(papers / "three_page.pdf")).returncode == 0
    order: list[str] = []

    async def session(client: Client) -> None:
        server = _server_process(papers)

        async def slow(scope: anyio.CancelScope) -> None:
            with scope:
                await client.call_tool("pages", {"source": "slow.pdf", "range": "1"})
                order.append("slow answered")

        scope = anyio.CancelScope()
        async with anyio.create_task_group() as group:
            group.start_soon(slow, scope)
            await _until(lambda: bool(_extraction_children(server)))
            quick = await client.call_tool("pages", {"source": "three_page.pdf", "range": "2"})
            assert "beta crimson harbor" in text_of(quick)
            order.append("quick answered")
            assert _extraction_children(server)  # the slow call's child is still at work
            scope.cancel()  # the client sends notifications/cancelled
        await _until(lambda: not _extraction_children(server), seconds=10)
        order.append("no child left")
        after = await client.call_tool("pages", {"source": "three_page.pdf", "range": "3"})
        assert "gamma velvet mountain" in text_of(after)

    serve(papers, session, env={"SIFTPDF_TEST_CHILD_SLEEP": "60"}, mode=mode)
    assert order == ["quick answered", "no child left"]


# --- the same code as the command line, for every kind of error ------------------------------

def _cli_code(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """The error code `siftpdf ARGS…` run in ``cwd`` ends with (by its exit status: docs/manual.md, EXIT STATUS)."""
    result = subprocess.run([sys.executable, "-m", "siftpdf", *args], capture_output=True, timeout=120, cwd=cwd,
                            env={**os.environ, **(env or {})})
    assert result.returncode in EXIT_CODES, (args, result.returncode, result.stderr)
    return EXIT_CODES[result.returncode]


def _same_codes(root: Path, cases: list[tuple[str, dict[str, Any], list[str]]], server_args: tuple[str, ...] = (),
                env: dict[str, str] | None = None) -> set[str]:
    """Each case's code from the tool (of a server started with ``server_args``) and from its
    command line: equal, or the assertion names the case. Returns the codes seen."""
    codes: list[str] = []

    async def session(client: Client) -> None:
        for tool, arguments, _ in cases:
            codes.append(error_of(await client.call_tool(tool, arguments))["code"])

    serve(root, session, *server_args, env=env)
    for (tool, arguments, cli), code in zip(cases, codes, strict=True):
        assert code == _cli_code(cli, root, env), (tool, arguments, cli)
    return set(codes)


@pytest.mark.check  # make check: a long run, about 6 s
def test_every_error_has_the_command_lines_code(papers: Path, upstream: Running) -> None:
    upstream.server.routes["/doc.pdf"] = Route((papers / "three_page.pdf").read_bytes())
    upstream.server.routes["/huge.pdf"] = Route(pattern(100_000_001, b"%PDF-1.7\n"), length=False)
    upstream.server.routes["/page.html"] = Route(b"<!doctype html><html><body>hi</body></html>", "text/html")
    doc, huge, missing, html = (upstream.server.url(p) for p in ("/doc.pdf", "/huge.pdf", "/missing.pdf", "/page.html"))
    refused = [
        ("pages", {"source": doc, "range": "1"}, ["pages", "1", doc]),
        ("fetch", {"url": doc}, ["fetch", doc]),
    ]
    assert _same_codes(papers, refused) == {"fetch"}
    private = "--allow-private"
    cases = [
        ("pages", {"source": "encrypted_user.pdf", "range": "1"}, ["pages", "1", "encrypted_user.pdf"]),
        ("map", {"source": "scanned.pdf"}, ["map", "scanned.pdf"]),
        ("grep", {"source": "scanned.pdf", "pattern": "x"}, ["grep", "x", "scanned.pdf"]),
        ("digest", {"source": "not_a_pdf.txt", "question": "why?"}, ["digest", "-q", "why?", "not_a_pdf.txt"]),
        ("pages", {"source": "three_page.pdf", "range": "4-"}, ["pages", "4-", "three_page.pdf"]),
        ("grep", {"source": "three_page.pdf", "pattern": "("}, ["grep", "(", "three_page.pdf"]),
        ("grep", {"source": "three_page.pdf", "pattern": "a", "pages": "x"},
         ["grep", "--pages", "x", "a", "three_page.pdf"]),
        ("map", {"source": "absent.pdf"}, ["map", "absent.pdf"]),
        ("sniff", {"source": "absent.pdf"}, ["sniff", "absent.pdf"]),
        ("fetch", {"url": "three_page.pdf"}, ["fetch", "three_page.pdf"]),
        ("fetch", {"url": "ftp://example.org/x.pdf"}, ["fetch", "ftp://example.org/x.pdf"]),
        ("fetch", {"url": missing}, ["fetch", private, missing]),
        ("fetch", {"url": huge}, ["fetch", private, huge]),
        ("map", {"source": html}, ["map", private, html]),
    ]
    assert _same_codes(papers, cases, (private,)) == {"encrypted", "no_text", "unreadable", "usage", "fetch",
                                                      "too_large"}


def test_a_timeout_and_a_full_pool_have_the_command_lines_codes(papers: Path, own_cache: Path) -> None:
    arguments = {"source": "three_page.pdf", "range": "1"}
    slow = [("pages", arguments, ["pages", "1", "--deadline", "0.5", "three_page.pdf"])]
    assert _same_codes(papers, slow, ("--deadline", "0.5"), env={"SIFTPDF_TEST_CHILD_SLEEP": "30"}) == {"timeout"}
    slots = [FileLock(own_cache / "pool" / f"slot.{i}") for i in range(SLOTS)]
    assert all(slot.try_acquire() for slot in slots)  # the machine's two children are someone else's
    try:
        busy = [("pages", arguments, ["pages", "1", "--wait", "0", "three_page.pdf"])]
        assert _same_codes(papers, busy, ("--wait", "0")) == {"busy"}
    finally:
        for slot in slots:
            slot.release()


def test_without_the_sdk_the_command_says_what_to_install(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] in ("mcp", "mcp_types")]:
        monkeypatch.setitem(sys.modules, name, None)  # what an import finds when it is not installed
    monkeypatch.delitem(sys.modules, "siftpdf.mcp.server", raising=False)
    result = run_cli("mcp")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["siftpdf: mcp: the MCP SDK is not installed",
                                          "hint: pip install 'siftpdf[mcp]'"]


def test_in_process_parsing_is_refused(run_cli) -> None:
    result = run_cli("mcp", "--in-process")
    assert result.exit_code == 2 and "--in-process is not for a server" in result.stderr

