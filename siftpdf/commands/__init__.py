"""The click commands, one module each, loaded when named (siftpdf.cli, commands.group)."""

# The commands by name, and the module of each.
COMMANDS = {
    "sniff": "siftpdf.commands.sniff",
    "extract": "siftpdf.commands.extract",
    "map": "siftpdf.commands.map",
    "pages": "siftpdf.commands.pages",
    "grep": "siftpdf.commands.grep",
    "fetch": "siftpdf.commands.fetch",
    "cache": "siftpdf.commands.cache",
    "digest": "siftpdf.commands.digest",
    "engine": "siftpdf.commands.engine",
    "serve": "siftpdf.commands.serve",
    "mcp": "siftpdf.commands.mcp",
}
