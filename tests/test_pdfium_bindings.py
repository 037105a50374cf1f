"""siftpdf's own ctypes declarations of PDFium's entry points (siftpdf.child.pdfium, for a fast start
of the extraction child) must match the ones pypdfium2 generates from PDFium's headers for
the library it ships: a mismatch would read garbage, not fail."""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2.raw as reference
import pytest

from siftpdf.child import pdfium as _pdfium


def _kind(t: Any) -> Any:
    """A declared type, with handles and untyped pointers alike (all are pointers)."""
    if t is None:
        return None
    if t is ctypes.c_void_p or t is ctypes.c_char_p:
        return "pointer"
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        target = t._type_
        if isinstance(target, type) and issubclass(target, ctypes.Structure):
            fields = getattr(target, "_fields_", None)
            if not fields:  # an opaque handle
                return "pointer"
            return ("struct", tuple((name, _kind(ft)) for name, ft, *_ in fields))
        if target is ctypes.c_char:
            return "pointer"  # a byte string or buffer
        return ("pointer to", ctypes.sizeof(target), target._type_)
    return (ctypes.sizeof(t), t._type_)


@pytest.mark.parametrize("name", sorted(_pdfium._SIGNATURES))
def test_each_binding_matches_pypdfium2s(name: str) -> None:
    ours, theirs = getattr(_pdfium, name), getattr(reference, name)
    assert len(ours.argtypes) == len(theirs.argtypes)
    assert _kind(ours.restype) == _kind(theirs.restype), (name, ours.restype, theirs.restype)
    if name == "FPDF_InitLibraryWithConfig":
        return  # our config is the first four fields of theirs: version 2 of the structure
    for mine, other in zip(ours.argtypes, theirs.argtypes, strict=True):
        assert _kind(mine) == _kind(other), (name, mine, other)


def test_constants_and_structures_match() -> None:
    for name in ("FPDF_ERR_PASSWORD", "FPDF_PAGEOBJ_PATH", "FPDF_PAGEOBJ_IMAGE", "FPDF_PAGEOBJ_FORM",
                 "FPDF_SEGMENT_LINETO", "FPDF_SEGMENT_BEZIERTO", "FPDF_SEGMENT_MOVETO", "PDFACTION_GOTO"):
        assert getattr(_pdfium, name) == getattr(reference, name), name
    for name in ("FS_RECTF", "FS_MATRIX"):
        assert [(n, t) for n, t in getattr(_pdfium, name)._fields_] == list(getattr(reference, name)._fields_)
    config = [(n, t) for n, t, *_ in reference.FPDF_LIBRARY_CONFIG._fields_][:4]
    assert [n for n, _ in _pdfium.FPDF_LIBRARY_CONFIG._fields_] == [n for n, _ in config]


def test_a_document_opens_counts_and_names_its_failures(fixtures) -> None:
    doc = _pdfium.Document((fixtures / "three_page.pdf").read_bytes())
    assert len(doc) == 3 and doc.metadata("Title") == "Three Page Test"
    doc.close()
    with pytest.raises(_pdfium.PdfiumError) as failed:
        _pdfium.Document(b"%PDF-1.4 not really")
    assert failed.value.err_code == 3  # a data format error


def test_the_engine_version_is_pypdfium2s_own() -> None:
    from pypdfium2.version import PDFIUM_INFO, PYPDFIUM_INFO

    from siftpdf.child.engines import engine_info

    assert engine_info() == {"name": "pdfium", "version": f"pypdfium2 {PYPDFIUM_INFO}, pdfium {PDFIUM_INFO.build}"}
