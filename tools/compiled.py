"""Build the compiled copy of siftpdf that the tests compare with the Python one: the package
copied to build/compiled/, the modules of siftpdf/compiled.py compiled there with mypyc and
its C extensions built there, as ``pip install .`` builds them (setup.py). The editable install ``make`` makes runs the
Python modules; this copy is made again only when a source of the package (or mypy) changed.

    .venv/bin/python tools/compiled.py            # prints the folder to put first on sys.path
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "compiled"
STAMP = TREE / ".stamp"


def _fingerprint() -> str:
    from importlib.metadata import version

    digest = hashlib.sha256(f"mypy {version('mypy')} python {sys.version}".encode())
    for path in sorted([*(ROOT / "siftpdf").rglob("*.py"), *(ROOT / "siftpdf").rglob("*.c")]):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build(force: bool = False) -> Path:
    """The compiled copy's folder, built first when missing or out of date; RuntimeError (with
    mypyc's words) when it cannot be built."""
    sys.path.insert(0, str(ROOT))
    from siftpdf.compiled import EXTENSION_FLAGS, EXTENSIONS, MODULES, module_name

    fingerprint = _fingerprint()
    if not force and STAMP.exists() and STAMP.read_text() == fingerprint:
        return TREE
    shutil.rmtree(TREE, ignore_errors=True)
    TREE.mkdir(parents=True)
    shutil.copytree(ROOT / "siftpdf", TREE / "siftpdf", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    # In a folder of its own, where mypyc finds no setup.py or pyproject.toml but the one named.
    flags = ["--config-file", str(ROOT / "pyproject.toml"), "--no-warn-unused-ignores"]  # as setup.py
    done = subprocess.run([sys.executable, "-m", "mypyc", *flags, *MODULES], cwd=TREE, capture_output=True, text=True,
                          env={**os.environ, "MYPY_CACHE_DIR": str(TREE / ".mypy_cache")})
    if done.returncode != 0:
        errors = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line.lower()]
        said = "\n".join(errors[:20] or [done.stderr[-2000:]])
        raise RuntimeError(f"mypyc could not compile siftpdf's modules:\n{said}")
    _build_extensions([(module_name(source), source) for source in EXTENSIONS], list(EXTENSION_FLAGS))
    shutil.rmtree(TREE / "build", ignore_errors=True)  # the C sources and objects: the modules are in place
    # Bytecode for the modules left as Python, as pip writes it at install (whatever
    # PYTHONDONTWRITEBYTECODE says): a start-up measured here is a user's.
    import compileall

    compileall.compile_dir(str(TREE / "siftpdf"), quiet=1)
    STAMP.write_text(fingerprint)
    return TREE


def _build_extensions(extensions: list[tuple[str, str]], flags: list[str]) -> None:
    """The C extensions, built into the copy by setuptools' build_ext, as pip builds them."""
    from setuptools import Distribution, Extension

    dist = Distribution({"ext_modules": [Extension(name, [str(TREE / source)], extra_compile_args=flags)
                                         for name, source in extensions]})
    command = dist.get_command_obj("build_ext")
    command.build_lib, command.build_temp = str(TREE), str(TREE / "build" / "temp")  # type: ignore[attr-defined]
    try:
        command.ensure_finalized()
        command.run()
    except Exception as exc:  # noqa: BLE001  (CompileError, a missing compiler)
        raise RuntimeError(f"the C extensions could not be built: {type(exc).__name__}: {exc}") from exc


def main() -> int:
    try:
        print(build(force="--force" in sys.argv[1:]))
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
