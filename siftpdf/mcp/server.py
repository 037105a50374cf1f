"""The MCP server of ``siftpdf mcp``: the tools of :mod:`siftpdf.mcp.tools` over stdio, through
the official SDK (``mcp``, the ``siftpdf[mcp]`` extra).

Each call runs in a worker thread of its own (a slow extraction never holds up another call;
the machine-wide pool still allows two children, and its line applies). A call the client
cancels kills its extraction child at once (:class:`siftpdf.cancel.Cancel`). Whatever goes
wrong is a tool error (``isError``) carrying the code, message and hint of an error record
(docs/manual.md, EXIT STATUS), as text and as an ``{"error": {...}}`` record, never a crash of
the server.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from ..cancel import Cancel
from ..errors import SiftError
from .tools import TOOLS, Answer, ToolConfig, call

# Calls served at once, each in a thread; more wait for a thread (holding none). A thread of
# their own, not anyio's default ones: the stdio transport reads its lines in those, and must
# always be free to read a cancellation.
CALLS = 16
INSTRUCTIONS = (
    "siftpdf reads PDFs (paths inside the folders this server was given, or http(s) URLs) "
    "safely, with page citations. Start with map (what is in a document), then read a slice "
    "with pages, find lines with grep, or ask digest a question; cite pages as (p. N). Every "
    "answer is capped; a note at its end says how to go on. A second look at a document is "
    "served from the cache."
)


def tool_list(cap: int) -> list[types.Tool]:
    """The tools as the protocol lists them, their descriptions naming this server's cap."""
    return [types.Tool(name=tool.name, title=tool.title, description=tool.description.replace("{cap}", f"{cap:,}"),
                       input_schema=tool.input_schema, output_schema=tool.output_schema,
                       annotations=types.ToolAnnotations(title=tool.title, read_only_hint=True,
                                                         idempotent_hint=True, open_world_hint=tool.name != "sniff"))
            for tool in TOOLS.values()]


def answered(answer: Answer) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=answer.text)], structured_content=answer.records)


def failed(error: SiftError) -> types.CallToolResult:
    """A typed error as a tool error: the lines the command line writes on stderr, and its record."""
    text = f"siftpdf: {error.message}" + (f"\nhint: {error.hint}" if error.hint else "")
    return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=error.to_record(),
                                is_error=True)


class ToolServer:
    """One server: its tools, the calls in flight (cancelled when it stops)."""

    def __init__(self, config: ToolConfig, version: str) -> None:
        self.config = config
        self.limiter = anyio.CapacityLimiter(CALLS)
        self.running: set[Cancel] = set()
        self.tools = tool_list(config.cap)
        self.server: Server[Any] = Server("siftpdf", version=version, title="siftpdf", instructions=INSTRUCTIONS,
                                          on_list_tools=self.list_tools, on_call_tool=self.call_tool)

    async def list_tools(self, _ctx: ServerRequestContext[Any],
                         _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools)

    async def call_tool(self, _ctx: ServerRequestContext[Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in TOOLS:
            raise MCPError(types.INVALID_PARAMS, f"no such tool: {params.name!r} (tools: {', '.join(TOOLS)})")
        cancel = Cancel()
        self.running.add(cancel)
        try:
            # abandon_on_cancel: a cancelled call returns at once; its thread, whose child the
            # cancel kills, ends on its own a moment later.
            return await anyio.to_thread.run_sync(self._run, params.name, dict(params.arguments or {}), cancel,
                                                  abandon_on_cancel=True, limiter=self.limiter)
        except anyio.get_cancelled_exc_class():
            cancel.set()
            raise
        finally:
            self.running.discard(cancel)

    def _run(self, name: str, arguments: dict[str, Any], cancel: Cancel) -> types.CallToolResult:
        """One call, in its worker thread: never raises."""
        try:
            return answered(call(name, arguments, self.config, cancel))
        except SiftError as error:
            if error.code == "internal":  # a bug: its traceback for the server's log
                print(f"siftpdf mcp: {name}: {error.message}", file=sys.stderr)
                traceback.print_exception(error.__cause__ or error, file=sys.stderr)
            return failed(error)

    def stop(self) -> None:
        """Cancel every call in flight (their children are killed)."""
        for cancel in list(self.running):
            cancel.set()

    async def run_stdio(self) -> None:
        async with stdio_server() as (read_stream, write_stream):
            await self.server.run(read_stream, write_stream, self.server.create_initialization_options())


def serve(config: ToolConfig, version: str) -> None:
    """Serve over stdin and stdout until the client closes stdin."""
    # Many short calls in worker threads beside the transport's: hand the GIL over every
    # millisecond rather than every 5, or one busy thread sets everyone's latency.
    sys.setswitchinterval(0.001)
    server = ToolServer(config, version)
    try:
        anyio.run(server.run_stdio)
    finally:
        server.stop()
