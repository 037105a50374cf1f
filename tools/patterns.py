"""Write siftpdf/_sre_codes.py: the compiled form of every lazy pattern of the package
(siftpdf/lazyre.py), for the Python that runs this, so that a command compiles none of them
with ``re`` (nor imports it).

    python tools/patterns.py            # write it (what `make docs` runs)
    python tools/patterns.py --check    # exit 1 when it is not what this would write

A pattern added or changed without running this is compiled by ``re`` as before (slower to
start, the same results); the tests fail until the file is written again.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "siftpdf" / "_sre_codes.py"

HEAD = '''# ruff: noqa: E501
"""The compiled form of every lazy pattern of the package (siftpdf/lazyre.py): what
``re.compile(source, flags)`` hands ``_sre.compile`` after the source, for the Python named
below. Written by tools/patterns.py (`make docs`); do not edit."""

PYTHON = {python!r}
MAGIC = {magic!r}
CODESIZE = {codesize!r}

PATTERNS = {{
'''


def patterns() -> list[tuple[str, int]]:
    """Every lazy pattern the package's modules make when imported, each once (not those a
    caller made: a test's)."""
    sys.path.insert(0, str(ROOT))
    import siftpdf
    from siftpdf import lazyre

    for info in pkgutil.walk_packages(siftpdf.__path__, "siftpdf."):
        path = ROOT / (info.name.replace(".", "/") + ("/__init__.py" if info.ispkg else ".py"))
        if info.name != "siftpdf.lazyre" and path.exists() and "lazy(" in path.read_text(encoding="utf-8"):
            importlib.import_module(info.name)
    return sorted({(made._source, made._flags) for made in lazyre.MADE if made._module.startswith("siftpdf.")})


def render() -> str:
    import _sre

    from siftpdf.lazyre import compile_form

    found = patterns()
    lines = [HEAD.format(python=tuple(sys.version_info[:2]), magic=_sre.MAGIC, codesize=_sre.CODESIZE)]
    for source, flags in found:
        lines.append(f"    ({source!r}, {flags}):\n        {compile_form(source, flags)!r},\n")
    lines.append("}\n")
    return "".join(lines)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run `make docs` (python tools/patterns.py)", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
