"""Builds siftpdf's compiled modules (siftpdf/compiled.py: MODULES, with mypyc) and its C
extensions (EXTENSIONS) when it is installed (``pip install .``) where a C compiler is at hand.
Without one, without mypyc (the C extensions alone then), in an editable install, or with
SIFTPDF_PURE=1, siftpdf installs as Python, with the same output. Everything else about the
package is in pyproject.toml."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# pyproject.toml's mypy settings, but for a `# type: ignore` that the optional packages
# (absent where the wheel is built) leave unused.
MYPY_FLAGS = ("--no-warn-unused-ignores",)
# The commands that build the modules (the metadata pip asks for first needs no compiling).
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def _compiled() -> dict[str, object]:
    found: dict[str, object] = {}
    exec((HERE / "siftpdf" / "compiled.py").read_text(encoding="utf-8"), found)
    return found


def _extensions() -> list[object]:
    if os.environ.get("SIFTPDF_PURE", "").strip() not in ("", "0") or not BUILDS & set(sys.argv):
        return []  # asked not to, or not building (metadata, an editable install)
    compiled = _compiled()
    extensions = [Extension(compiled["module_name"](source), [source],  # type: ignore[operator]
                            extra_compile_args=list(compiled["EXTENSION_FLAGS"]))  # type: ignore[call-overload]
                  for source in compiled["EXTENSIONS"]]  # type: ignore[attr-defined]
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypyc where it is built: the Python modules run
        return extensions
    try:
        return extensions + mypycify([*MYPY_FLAGS, *compiled["MODULES"]],  # type: ignore[misc]
                                     opt_level="3", group_name="siftpdf")
    except (Exception, SystemExit) as exc:  # noqa: BLE001  (mypy or mypyc refused them: the Python runs)
        print(f"siftpdf: modules not compiled ({type(exc).__name__}: {exc}); they run as Python")
        return extensions


class OptionalBuildExt(build_ext):
    """build_ext that installs the Python modules alone when compiling fails (no C compiler,
    no Python headers), and never compiles into the source tree (an editable install), where
    a compiled module would go on running after its source was edited."""

    def run(self) -> None:
        if self.inplace:
            print("siftpdf: an editable install runs its modules as Python (tools/compiled.py builds "
                  "a compiled copy)")
            return
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001  (CompileError, a missing compiler, ...)
            for output in self.get_outputs():  # none half-built: all compiled or none
                Path(output).unlink(missing_ok=True)
            print(f"siftpdf: modules not compiled ({type(exc).__name__}: {exc}); they run as Python")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
