"""The MCP server (``siftpdf mcp``, the ``mcp`` extra) and its tools."""
