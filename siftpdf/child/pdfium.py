"""The part of PDFium's C API that extraction calls, bound with ctypes to the library that
pypdfium2 ships (``pypdfium2_raw/libpdfium.so``).

Why not ``import pypdfium2.raw``: it declares all of PDFium's ~500 functions and imports
``platform``, ``logging`` and the helper classes, which costs 35–60 ms on every start of the
extraction child — more than reading a one-page PDF. The ~70 entry points here take about a
millisecond. Their signatures mirror pypdfium2's generated bindings, with every opaque handle
(document, page, text page, object …) an integer (``c_void_p``);
``tests/test_pdfium_bindings.py`` checks each one against pypdfium2's, so a new PDFium build
that changes one fails the tests, not a user's extraction. Rendering (``--render``) still goes
through pypdfium2's helpers, imported only then. The entry points that the letter spacing and
the evidence call for each glyph are also re-typed here, once, for their loops (:func:`untyped`).

Only the extraction child (or ``--in-process``) imports this module: it loads native code.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import POINTER, c_char_p, c_double, c_float, c_int, c_size_t, c_uint, c_ulong, c_ushort, c_void_p

# Not typing's: with what it imports it costs the child's start more than these bindings.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class FS_RECTF(ctypes.Structure):  # noqa: N801 - PDFium's names
    _fields_ = (("left", c_float), ("top", c_float), ("right", c_float), ("bottom", c_float))


class FS_MATRIX(ctypes.Structure):  # noqa: N801
    _fields_ = tuple((name, c_float) for name in "abcdef")


class FPDF_LIBRARY_CONFIG(ctypes.Structure):  # noqa: N801 - version 2 of the config
    _fields_ = (("version", c_int), ("m_pUserFontPaths", POINTER(POINTER(ctypes.c_char))),
                ("m_pIsolate", c_void_p), ("m_v8EmbedderSlot", c_uint))


FPDF_ERR_PASSWORD = 4
FPDF_PAGEOBJ_PATH = 2
FPDF_PAGEOBJ_TEXT = 1
FPDF_PAGEOBJ_IMAGE = 3
FPDF_PAGEOBJ_FORM = 5
FPDF_SEGMENT_LINETO = 0
FPDF_SEGMENT_BEZIERTO = 1
FPDF_SEGMENT_MOVETO = 2
PDFACTION_GOTO = 1

_H = c_void_p  # any opaque handle
_PF, _PU, _PD, _PI = POINTER(c_float), POINTER(c_uint), POINTER(c_double), POINTER(c_int)
_RECT = POINTER(FS_RECTF)

# name: (result, argument types)
_SIGNATURES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "FPDF_InitLibraryWithConfig": (None, (POINTER(FPDF_LIBRARY_CONFIG),)),
    "FPDF_LoadMemDocument64": (_H, (c_void_p, c_size_t, c_char_p)),
    "FPDF_GetLastError": (c_ulong, ()),
    "FPDF_CloseDocument": (None, (_H,)),
    "FPDF_GetPageCount": (c_int, (_H,)),
    "FPDF_GetMetaText": (c_ulong, (_H, c_char_p, c_void_p, c_ulong)),
    "FPDF_GetPageLabel": (c_ulong, (_H, c_int, c_void_p, c_ulong)),
    "FPDF_LoadPage": (_H, (_H, c_int)),
    "FPDF_ClosePage": (None, (_H,)),
    "FPDF_GetPageWidthF": (c_float, (_H,)),
    "FPDF_GetPageHeightF": (c_float, (_H,)),
    "FPDF_GetPageBoundingBox": (c_int, (_H, _RECT)),
    "FPDFPage_GetRotation": (c_int, (_H,)),
    "FPDFPage_CountObjects": (c_int, (_H,)),
    "FPDFPage_GetObject": (_H, (_H, c_int)),
    "FPDFPageObj_GetType": (c_int, (_H,)),
    "FPDFPageObj_GetBounds": (c_int, (_H, _PF, _PF, _PF, _PF)),
    "FPDFPageObj_GetMatrix": (c_int, (_H, POINTER(FS_MATRIX))),
    "FPDFPageObj_GetFillColor": (c_int, (_H, _PU, _PU, _PU, _PU)),
    "FPDFPageObj_GetClipPath": (_H, (_H,)),
    "FPDFFormObj_CountObjects": (c_int, (_H,)),
    "FPDFFormObj_GetObject": (_H, (_H, c_ulong)),
    "FPDFTextObj_GetFont": (_H, (_H,)),
    "FPDFTextObj_GetFontSize": (c_int, (_H, _PF)),
    "FPDFFont_GetBaseFontName": (c_size_t, (_H, POINTER(ctypes.c_char), c_size_t)),
    "FPDFImageObj_GetImagePixelSize": (c_int, (_H, _PU, _PU)),
    "FPDFImageObj_GetImageDataRaw": (c_ulong, (_H, c_void_p, c_ulong)),
    "FPDFImageObj_GetImageFilterCount": (c_int, (_H,)),
    "FPDFImageObj_GetImageFilter": (c_ulong, (_H, c_int, c_void_p, c_ulong)),
    "FPDFPath_CountSegments": (c_int, (_H,)),
    "FPDFPath_GetPathSegment": (_H, (_H, c_int)),
    "FPDFPath_GetDrawMode": (c_int, (_H, _PI, _PI)),
    "FPDFPathSegment_GetPoint": (c_int, (_H, _PF, _PF)),
    "FPDFPathSegment_GetType": (c_int, (_H,)),
    "FPDFPathSegment_GetClose": (c_int, (_H,)),
    "FPDFClipPath_CountPaths": (c_int, (_H,)),
    "FPDFClipPath_CountPathSegments": (c_int, (_H, c_int)),
    "FPDFClipPath_GetPathSegment": (_H, (_H, c_int, c_int)),
    "FPDFText_LoadPage": (_H, (_H,)),
    "FPDFText_ClosePage": (None, (_H,)),
    "FPDFText_CountChars": (c_int, (_H,)),
    "FPDFText_GetUnicode": (c_uint, (_H, c_int)),
    "FPDFText_GetTextObject": (_H, (_H, c_int)),
    "FPDFText_IsGenerated": (c_int, (_H, c_int)),
    "FPDFText_HasUnicodeMapError": (c_int, (_H, c_int)),
    "FPDFText_GetText": (c_int, (_H, c_int, c_int, POINTER(c_ushort))),
    "FPDFText_CountRects": (c_int, (_H, c_int, c_int)),
    "FPDFText_GetRect": (c_int, (_H, c_int, _PD, _PD, _PD, _PD)),
    "FPDFText_GetLooseCharBox": (c_int, (_H, c_int, _RECT)),
    "FPDFText_GetCharOrigin": (c_int, (_H, c_int, _PD, _PD)),
    "FPDFText_GetCharAngle": (c_float, (_H, c_int)),
    "FPDFText_GetCharBox": (c_int, (_H, c_int, _PD, _PD, _PD, _PD)),
    "FPDFText_GetFillColor": (c_int, (_H, c_int, _PU, _PU, _PU, _PU)),
    "FPDFText_GetMatrix": (c_int, (_H, c_int, POINTER(FS_MATRIX))),
    "FPDFBookmark_GetFirstChild": (_H, (_H, _H)),
    "FPDFBookmark_GetNextSibling": (_H, (_H, _H)),
    "FPDFBookmark_GetTitle": (c_ulong, (_H, c_void_p, c_ulong)),
    "FPDFBookmark_GetDest": (_H, (_H, _H)),
    "FPDFBookmark_GetAction": (_H, (_H,)),
    "FPDFAction_GetType": (c_ulong, (_H,)),
    "FPDFAction_GetDest": (_H, (_H, _H)),
    "FPDFDest_GetDestPageIndex": (c_int, (_H, _H)),
}


def package_folders(name: str) -> list[str]:
    """The folders of the top-level package ``name``, found without importing it
    (:func:`siftpdf.extras.module_spec`)."""
    from ..extras import module_spec

    spec = module_spec(name)
    return list(spec.submodule_search_locations or []) if spec is not None else []


def library_path() -> str:
    """pypdfium2's own build of PDFium, found without importing pypdfium2."""
    folders = package_folders("pypdfium2_raw")
    if not folders:
        raise ImportError("pypdfium2 is not installed (pip install pypdfium2)")
    for folder in folders:
        for name in ("libpdfium.so", "libpdfium.dylib", "pdfium.dll"):
            if os.path.exists(os.path.join(folder, name)):
                return os.path.join(folder, name)
    raise ImportError("pypdfium2's PDFium library is missing")


LIBRARY = library_path()
_LIB = ctypes.CDLL(LIBRARY)
for _name, (_result, _args) in _SIGNATURES.items():
    _function = getattr(_LIB, _name)
    _function.restype, _function.argtypes = _result, _args
    globals()[_name] = _function
_config = FPDF_LIBRARY_CONFIG(version=2, m_pUserFontPaths=None, m_pIsolate=None, m_v8EmbedderSlot=0)
_LIB.FPDF_InitLibraryWithConfig(ctypes.byref(_config))


def __getattr__(name: str) -> Any:  # the functions are set above, for type checkers too
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- entry points for per-glyph loops ---------------------------------------------------------
# The text of a page and its evidence ask PDFium something for each glyph (or object, or path
# segment): the entry points they share are re-typed here once, and kept as module-level
# names (no attribute lookup per call) by the modules that call them.


def typed(function: Any, result: Any, *arguments: Any) -> Any:
    """``function`` re-typed: integer handles (``c_void_p`` results) instead of pointer objects
    make the loops cheap (no Python object per call) and the handles comparable."""
    return ctypes.cast(function, ctypes.CFUNCTYPE(result, *arguments))


def untyped(function: Any, result: Any) -> Any:
    """``function`` for a call per glyph (or object, or path segment), up to thousands of
    times a page, without declared arguments: they pass as they are (handles and output
    buffers as ``c_void_p`` objects, an index as a Python int, which is a C int), sparing
    ctypes' conversion of each argument, which cost more than the call. A handle passed as a
    Python int would be cut to a C int: only such objects are passed."""
    return ctypes.cast(function, ctypes.CFUNCTYPE(result))


def address(buffer: Any) -> c_void_p:
    """The address of an output buffer, as the untyped entry points take it: converting a
    pointer object costs more than the call itself."""
    return c_void_p(ctypes.addressof(buffer))


def handle_of(obj: Any) -> int:
    """The handle a pypdfium2 object (its ``raw``), a pointer or an integer stands for (0: none)."""
    return ctypes.cast(obj.raw if hasattr(obj, "raw") else obj, c_void_p).value or 0


# (text page, index): the text object that drew the character, 0 for one PDFium generated
CHAR_TEXT_OBJECT = untyped(_LIB.FPDFText_GetTextObject, c_void_p)
LOOSE_CHAR_BOX = untyped(_LIB.FPDFText_GetLooseCharBox, c_int)  # (text page, index, FS_RECTF*)
TEXT_OBJECT_FONT = untyped(_LIB.FPDFTextObj_GetFont, c_void_p)  # (text object): its font
TEXT_OBJECT_FONT_SIZE = untyped(_LIB.FPDFTextObj_GetFontSize, c_int)  # (text object, float*)
OBJECT_MATRIX = untyped(_LIB.FPDFPageObj_GetMatrix, c_int)  # (page object, FS_MATRIX*)
# (text page, index, FS_MATRIX*): the matrix a character is drawn with, the forms' it is drawn
# in included (an object's own matrix leaves them out)
CHAR_MATRIX = untyped(_LIB.FPDFText_GetMatrix, c_int)
FONT_BASE_NAME = typed(_LIB.FPDFFont_GetBaseFontName, c_size_t, c_void_p, c_char_p, c_size_t)
FONT_NAME_BYTES = 256  # a longer font name is not read (PDFium copies none of it)


class GlyphBuffers:
    """The output buffers of the per-glyph entry points, made once and reused: allocating
    them per call cost more than the calls. Each ``*_ref`` is its buffer's :func:`address`."""

    def __init__(self) -> None:
        self.rect = FS_RECTF()  # a glyph's box
        self.rect_ref = address(self.rect)
        self.size = c_float()  # a text object's font size
        self.size_ref = address(self.size)
        self.matrix = FS_MATRIX()  # an object's matrix
        self.matrix_ref = address(self.matrix)
        self.drawn = FS_MATRIX()  # a character's matrix, as drawn on the page
        self.drawn_ref = address(self.drawn)
        self.font_name_buffer = ctypes.create_string_buffer(FONT_NAME_BYTES)

    def font_name(self, font: int) -> str:
        """The base name of ``font`` (a handle) as the PDF gives it, subset tag and all; empty
        for no font, and for a name over ``FONT_NAME_BYTES`` (PDFium copies none of it, and
        returns the length it needs)."""
        size = FONT_BASE_NAME(font, self.font_name_buffer, FONT_NAME_BYTES) if font else 0
        return self.font_name_buffer.value.decode("latin-1") if 0 < size <= FONT_NAME_BYTES else ""


class PdfiumError(Exception):
    def __init__(self, message: str, err_code: int = 0) -> None:
        super().__init__(message)
        self.err_code = err_code


_ERRORS = {1: "unknown error", 2: "file access error", 3: "data format error", 4: "incorrect password",
           5: "unsupported security scheme", 6: "page not found"}


class Document:
    """A PDF opened from memory; PDFium reads from ``data`` for as long as it is open."""

    def __init__(self, data: bytes, password: str | None = None) -> None:
        self._data = data  # held: PDFium does not copy it
        secret = (password + "\x00").encode("utf-8", "surrogateescape") if password is not None else None
        self.raw = _LIB.FPDF_LoadMemDocument64(data, len(data), secret) or 0
        if _LIB.FPDF_GetPageCount(self.raw) < 1:
            code = int(_LIB.FPDF_GetLastError())
            self.close()
            raise PdfiumError(f"Failed to load document (PDFium: {_ERRORS.get(code, code)}).", err_code=code)

    @property
    def _as_parameter_(self) -> int:  # passed where PDFium wants the FPDF_DOCUMENT
        return self.raw

    def __len__(self) -> int:
        return int(_LIB.FPDF_GetPageCount(self.raw))

    def metadata(self, key: str) -> str:
        return utf16_text(lambda buffer, size: _LIB.FPDF_GetMetaText(self.raw, key.encode("ascii"), buffer, size))

    def page_label(self, index: int) -> str:
        return utf16_text(lambda buffer, size: _LIB.FPDF_GetPageLabel(self.raw, index, buffer, size))

    def close(self) -> None:
        if self.raw:
            _LIB.FPDF_CloseDocument(self.raw)
            self.raw = 0


def utf16_text(call: Any) -> str:
    """A string PDFium writes as UTF-16LE with a terminating NUL, asked for its size first."""
    size = int(call(None, 0))
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    call(buffer, size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")
