"""PDF engines: PDFium (pypdfium2) by default; pypdf, a qpdf repair pass and pdfminer to salvage.

Only the extraction child (or ``--in-process``) imports this module: it loads native code.
"""

from __future__ import annotations

import ctypes
import io
import os

from ..errors import EncryptedError, UnreadableError
from ..fonts import adobe_read
from . import pdfium as pdfium_c

# Not typing's, nor contextlib's contextmanager: with what they import (re, collections,
# functools) they cost the child's start more than reading a short page.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    PageShape = tuple[float, float, list[tuple[float, float, float, float]], list[tuple[float, float, float, float]]]

MAX_OUTLINE_ITEMS = 10_000
MAX_OUTLINE_DEPTH = 64

# PDFium writes these for characters it synthesised or could not place: (found, written).
# Each is replaced only when present (a search costs little; str.translate walks a page of
# non-ASCII text character by character in Python objects).
_TEXT_FIXES = (("\r", ""), ("\x00", ""), ("\x02", "-"), ("\ufffe", "-"))


def engine_info() -> dict[str, str]:
    """Which pypdfium2 and PDFium build read the document, from the version files they ship
    (importing ``pypdfium2.version`` would load all of pypdfium2 in the child)."""
    from ..docline import loads

    found: dict[str, dict[str, Any]] = {}
    # pypdfium2_raw's folder is the library's, found when it was loaded.
    for package, folders in (("pypdfium2", pdfium_c.package_folders("pypdfium2")),
                             ("pypdfium2_raw", [os.path.dirname(pdfium_c.LIBRARY)])):
        try:
            with open(f"{folders[0]}/version.json", encoding="utf-8") as file:
                found[package] = loads(file.read())
        except (IndexError, OSError, ValueError):
            found[package] = {}
        if not isinstance(found[package], dict):
            found[package] = {}
    ours, pdfium = found["pypdfium2"], found["pypdfium2_raw"]
    tag = ".".join(str(ours.get(part, "?")) for part in ("major", "minor", "patch"))
    tag += f"b{ours['beta']}" if ours.get("beta") is not None else ""
    return {"name": "pdfium", "version": f"pypdfium2 {tag}, pdfium {pdfium.get('build', '?')}"}


def clean_text(text: str) -> str:
    """Normalise engine text: LF line ends, no NULs, trailing whitespace trimmed per line."""
    text = text.replace("\r\n", "\n")
    for found, written in _TEXT_FIXES:
        if found in text:
            text = text.replace(found, written)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


class PageResult:  # not a dataclass nor a NamedTuple: the child's start (see above)
    __slots__ = ("text", "status", "engine", "evidence", "undecoded")

    def __init__(self, text: str, status: str, engine: str, evidence: dict[str, Any] | None = None,
                 undecoded: bool = False) -> None:
        self.text = text
        self.status = status  # text | no_text | garbled | empty
        self.engine = engine
        self.evidence = evidence
        self.undecoded = undecoded  # text objects the engine read no character of: another may


class _Closing:
    """``with`` gives ``value`` and calls ``close`` at its end, whatever happens."""

    __slots__ = ("value", "close")

    def __init__(self, value: Any, close: Callable[[], object]) -> None:
        self.value, self.close = value, close

    def __enter__(self) -> Any:
        return self.value

    def __exit__(self, *_exc: object) -> None:
        self.close()


class PdfiumDoc:
    """A document opened by PDFium."""

    name = "pdfium"

    def __init__(self, data: bytes, password: str | None) -> None:
        try:
            self.pdf = pdfium_c.Document(data, password)
        except pdfium_c.PdfiumError as exc:
            if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
                if password:
                    raise EncryptedError("encrypted PDF: wrong password") from None
                raise EncryptedError("encrypted PDF (password required)") from None
            raise UnreadableError(f"unreadable PDF ({exc})") from None
        self.data, self.password = data, password
        self.renderer: Any = None  # a pypdfium2 document, for rendering only

    def page_count(self) -> int:
        return len(self.pdf)

    def title(self) -> str:
        try:
            return self.pdf.metadata("Title").strip()
        except pdfium_c.PdfiumError:
            return ""

    def page_labels(self, count: int) -> list[str] | None:
        labels = [self.pdf.page_label(i) for i in range(count)]
        return labels if any(labels) else None

    def outline(self) -> list[dict[str, Any]]:
        return list(_walk_outline(self.pdf))

    def extract_page(self, index: int, evidence: bool = False, image_mode: str = "none") -> PageResult:
        if evidence:
            return self._page_with_evidence(index, image_mode)
        raw, undecoded = self._raw_text(index)
        text = clean_text(raw)
        if text.strip() and not _unreadable(text) and not _maybe_codes(text):
            return PageResult(text, "text", self.name, undecoded=undecoded)
        page = pdfium_c.FPDF_LoadPage(self.pdf, index)
        if not page:
            raise pdfium_c.PdfiumError(f"PDFium cannot load page {index + 1}")
        try:
            if text.strip():
                return PageResult(text, _text_status(page, text, None), self.name, undecoded=undecoded)
            return PageResult("", _blank_status(page), self.name, undecoded=undecoded)
        finally:
            pdfium_c.FPDF_ClosePage(page)

    def _page_with_evidence(self, index: int, image_mode: str) -> PageResult:
        """Text and evidence from the raw C handles: the helper objects cost as much as the
        evidence on a short page."""
        with self._handles(index) as (page, textpage):
            read = _text_of(textpage)
            raw = _respaced(textpage, read)  # the spaces inside letter-spaced words marked
            found = _page_evidence(page, textpage, raw, image_mode, raw is not read)
            undecoded = _undecoded(page, textpage)
        if found is None:  # evidence failed: the page is still read, without it
            return self.extract_page(index)
        text = clean_text(_unmarked(raw) if raw is not read else raw)
        if not text.strip():
            return PageResult("", "no_text" if found["images"] else "empty", self.name, found, undecoded)
        from .evidence import is_garbled, looks_unreadable  # loaded with the evidence

        status = "text"
        if found["unmapped_chars"] or looks_unreadable(text, None):  # glyphs without a map, or junk
            area = float(found["width"]) * float(found["height"])
            status = "garbled" if is_garbled(text, found, area, [i["rect"] for i in found["images"]]) else "text"
        return PageResult(text, status, self.name, found, undecoded)

    def page_shape(self, index: int) -> PageShape:
        """The page's width and height, its images' boxes and its text's ([x0, y0, x1, y1], in
        points), without the per-character evidence
        (``--raw --ocr auto`` looks for the images no text lies over). The text's boxes are
        asked only when there is an image."""
        from .evidence import page_images

        with self._handles(index) as (page, textpage):
            images = [tuple(image["rect"]) for image in page_images(page)]
            text: list[tuple[float, float, float, float]] = []
            if images:
                left, top, right, bottom = (ctypes.c_double() for _ in range(4))
                for i in range(max(0, pdfium_c.FPDFText_CountRects(textpage, 0, -1))):
                    if pdfium_c.FPDFText_GetRect(textpage, i, left, top, right, bottom):
                        text.append((left.value, bottom.value, right.value, top.value))
            return pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page), images, text

    def _raw_text(self, index: int) -> tuple[str, bool]:
        """Page text through PDFium's C API directly (the helper objects cost more than the
        text itself on short pages), and whether it left text objects undecoded (``_undecoded``)."""
        with self._handles(index) as (page, textpage):
            read = _text_of(textpage)
            raw = _respaced(textpage, read)
            return _unmarked(raw) if raw is not read else raw, _undecoded(page, textpage)

    def _handles(self, index: int) -> _Closing:
        """The raw page and text-page handles of one page (``with``), closed whatever happens."""
        page = pdfium_c.FPDF_LoadPage(self.pdf, index)
        if not page:
            raise pdfium_c.PdfiumError(f"PDFium cannot load page {index + 1}")
        textpage = pdfium_c.FPDFText_LoadPage(page)
        if not textpage:
            pdfium_c.FPDF_ClosePage(page)
            raise pdfium_c.PdfiumError(f"PDFium cannot read the text of page {index + 1}")

        def close() -> None:
            try:
                pdfium_c.FPDFText_ClosePage(textpage)
            finally:
                pdfium_c.FPDF_ClosePage(page)

        return _Closing((page, textpage), close)

    def render_png(self, index: int) -> bytes:
        from .evidence import render_png

        with self.rendered(index) as page:
            return render_png(page)

    def rendered(self, index: int) -> _Closing:
        """A pypdfium2 page (``with``), to render: rendering goes through pypdfium2's helpers
        (bitmap formats, forms, annotations), on a second handle to the same bytes, opened the
        first time a page is rendered."""
        import pypdfium2

        if self.renderer is None:
            self.renderer = pypdfium2.PdfDocument(self.data, password=self.password)
        page = self.renderer[index]
        return _Closing(page, page.close)

    def close(self) -> None:
        if self.renderer is not None:
            self.renderer.close()
        self.pdf.close()


def _undecoded(page: Any, textpage: Any) -> bool:
    """Whether the page has more text objects than PDFium read characters: glyphs in a font it
    cannot decode (a Chinese or Japanese font not embedded, with a CMap or a character
    collection this PDFium lacks: GBK-EUC-H, Adobe-Japan1), which it leaves out of the text
    without a word. One count on most pages (their characters outnumber all their objects);
    the objects' kinds only where they do not."""
    need = max(0, pdfium_c.FPDFText_CountChars(textpage)) + UNDECODED_OBJECTS + 1
    count = min(pdfium_c.FPDFPage_CountObjects(page), OBJECTS_LOOKED_AT)
    if count < need:
        return False
    text_kind, get, kind = pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDFPage_GetObject, pdfium_c.FPDFPageObj_GetType
    for index in range(count):
        need -= kind(get(page, index)) == text_kind
        if need <= 0 or need > count - index - 1:  # told, or past telling
            break
    return need <= 0


UNDECODED_OBJECTS = 20  # text objects beyond the page's characters that say some were not read
OBJECTS_LOOKED_AT = 20000  # a drawing's paths past these are not walked for its text objects


def _text_of(textpage: Any) -> str:
    count = pdfium_c.FPDFText_CountChars(textpage)
    if count <= 0:
        return ""
    buffer = ctypes.create_string_buffer((count + 1) * 2)
    written = pdfium_c.FPDFText_GetText(textpage, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)))
    # Unpaired surrogates are kept here and replaced (and counted) where the record is written.
    return adobe_read(buffer.raw[: max(0, written - 1) * 2].decode("utf-16-le", errors="surrogatepass"))


def _respaced(textpage: Any, text: str) -> str:
    """The text with the spaces inside letter-spaced words marked (siftpdf.child.spacing), or
    ``text`` itself when it has none."""
    from .spacing import respace

    try:
        return respace(textpage, text)
    except Exception:  # noqa: BLE001 - the text as read is still the page's text
        return text


def _unmarked(text: str) -> str:
    from .spacing import MARK

    return text.replace(MARK, "")


def _page_evidence(page: Any, textpage: Any, raw: str, image_mode: str, marked: bool) -> dict[str, Any] | None:
    """The page's evidence; None when collecting it fails, so the page keeps its text and
    passes through organization unchanged rather than being lost."""
    from .evidence import page_evidence

    try:
        return page_evidence(page, textpage, raw, image_mode, marked)
    except (Exception, RecursionError):  # noqa: BLE001 - evidence is optional, the text is not
        return None


def _unreadable(text: str) -> bool:
    from .evidence import looks_unreadable

    return looks_unreadable(text, None)


LETTERS_SHARE = 0.6  # of a page's visible characters, Latin letters below which it may be codes
_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))


LETTERS_APART = 1.6  # characters a word, on average, below which a page may be letters set one by one


def _maybe_codes(text: str) -> bool:
    """Whether the text may be its fonts' codes: few Latin letters among its characters (glyph
    codes read as controls or signs, or another script), or many words of one character (codes
    read as letters, each glyph set apart: 'P T ` Q N a R O b', words of 1.6 characters on
    average where text has about five). The count of its words and of
    its unmapped glyphs tells, on such pages only. Counted at C speed."""
    visible = len(text) - sum(map(text.count, (" ", "\n")))
    if visible <= 0:
        return False
    ascii_only = text.encode("ascii", "ignore")
    if len(ascii_only) - len(ascii_only.translate(None, _LETTERS)) < LETTERS_SHARE * visible:
        return True
    words = text.count(" ") + text.count("\n") + 1  # about: one more than the breaks between them
    return visible < LETTERS_APART * words


def _text_status(page: int, text: str, found: dict[str, Any] | None) -> str:
    """``garbled`` for junk text over a page-sized image, or a text layer of glyph codes; the
    image walk and the count of unmapped glyphs only happen when the text already looks
    unreadable or unmapped, so ordinary pages pay nothing for them."""
    from .evidence import is_garbled, looks_unreadable

    unmapped = 0
    if found is None and _maybe_codes(text):
        from .ocrpage import few_words

        if few_words(text):
            unmapped = _unmapped_glyphs(page)
    if not unmapped and not looks_unreadable(text, found):
        return "text"
    width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
    rects = [img["rect"] for img in (found or {"images": _images(page)})["images"]]
    return "garbled" if is_garbled(text, found, width * height, rects, unmapped) else "text"


def _unmapped_glyphs(page: int) -> int:
    """The page's glyphs that map to no character (PDFium's flag)."""
    textpage = pdfium_c.FPDFText_LoadPage(page)
    if not textpage:
        return 0
    try:
        return sum(pdfium_c.FPDFText_HasUnicodeMapError(textpage, i) > 0
                   for i in range(pdfium_c.FPDFText_CountChars(textpage)))
    finally:
        pdfium_c.FPDFText_ClosePage(textpage)


def _blank_status(page: int) -> str:
    return "no_text" if _images(page) else "empty"


def _images(page: int) -> list[dict[str, Any]]:
    """The page's images (also inside forms), as the evidence lists them."""
    from .evidence import page_images

    return page_images(page)


def _walk_outline(pdf: pdfium_c.Document) -> Iterator[dict[str, Any]]:
    """Depth-first, loop-safe walk of /Outlines with at most MAX_OUTLINE_ITEMS items.

    PDFium resolves /Dest arrays, named destinations and /GoTo actions to a page index;
    an item whose destination does not resolve is skipped, its children are still walked.
    """
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(pdfium_c.FPDFBookmark_GetFirstChild(pdf, None), 1)]
    emitted = 0
    while stack and emitted < MAX_OUTLINE_ITEMS:
        node, level = stack.pop()
        if not node:
            continue
        if node in seen or len(seen) > 4 * MAX_OUTLINE_ITEMS:
            continue
        seen.add(node)
        # Sibling after the subtree: push it first so children come out first.
        stack.append((pdfium_c.FPDFBookmark_GetNextSibling(pdf, node), level))
        if level < MAX_OUTLINE_DEPTH:
            stack.append((pdfium_c.FPDFBookmark_GetFirstChild(pdf, node), level + 1))
        page = _bookmark_page(pdf, node)
        if page is None:
            continue
        yield {"title": _bookmark_title(node), "page": page, "level": level}
        emitted += 1


def _bookmark_title(node: Any) -> str:
    return pdfium_c.utf16_text(lambda buffer, size: pdfium_c.FPDFBookmark_GetTitle(node, buffer, size)).strip()


def _bookmark_page(pdf: pdfium_c.Document, node: Any) -> int | None:
    dest = pdfium_c.FPDFBookmark_GetDest(pdf, node)
    if not dest:
        action = pdfium_c.FPDFBookmark_GetAction(node)
        if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_GOTO:
            return None
        dest = pdfium_c.FPDFAction_GetDest(pdf, action)
        if not dest:
            return None
    index = pdfium_c.FPDFDest_GetDestPageIndex(pdf, dest)
    return index + 1 if index >= 0 else None


class _TextOnlyDoc:
    """A salvage engine: page text only (no geometry, so no evidence), no outline or labels."""

    name = ""
    pages: Any

    def page_count(self) -> int:
        return len(self.pages)

    def title(self) -> str:
        return ""

    def page_labels(self, count: int) -> list[str] | None:
        return None

    def outline(self) -> list[dict[str, Any]]:
        return []

    def extract_page(self, index: int, evidence: bool = False, image_mode: str = "none") -> PageResult:
        page = self.pages[index]
        text = clean_text(page.extract_text() or "")
        if text.strip():
            return PageResult(text, "text", self.name)
        return PageResult("", "no_text" if self._has_images(page) else "empty", self.name)

    def _has_images(self, page: Any) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        pass


class PypdfDoc(_TextOnlyDoc):
    """A document opened by pypdf's lenient reader: the fallback when PDFium cannot."""

    name = "pypdf"

    def __init__(self, data: bytes, password: str | None) -> None:
        import logging

        from pypdf import PdfReader
        from pypdf.errors import PdfReadError

        logging.getLogger("pypdf").setLevel(logging.CRITICAL)
        try:
            self.reader = PdfReader(io.BytesIO(data), strict=False)
            if self.reader.is_encrypted and not self.reader.decrypt(password or ""):
                raise EncryptedError("encrypted PDF (password required)")
            self.pages = self.reader.pages
            len(self.pages)  # walks the page tree now, where a broken one raises a typed error
        except EncryptedError:
            raise
        except (PdfReadError, ValueError, KeyError, TypeError, AttributeError,
                IndexError, RecursionError, NotImplementedError) as exc:
            raise UnreadableError(f"unreadable PDF ({type(exc).__name__}: {exc})") from None

    def title(self) -> str:
        try:
            info = self.reader.metadata
            return str(info.title or "").strip() if info else ""
        except Exception:  # noqa: BLE001 - metadata is optional, a broken /Info is not fatal
            return ""

    def _has_images(self, page: Any) -> bool:
        resources = page.get("/Resources") or {}
        return bool(resources.get("/XObject") if hasattr(resources, "get") else None)


class RepairedDoc(PdfiumDoc):
    """PDFium over a copy that qpdf (through pikepdf) rebuilt: the salvage step after pypdf
    (pdfminer comes last), for files whose cross-reference table or object structure neither
    PDFium nor pypdf can recover. A job's ``repair=False`` (the child's ``--no-repair``) leaves it out."""

    name = "repaired"

    def __init__(self, data: bytes, password: str | None) -> None:
        super().__init__(repair(data, password), password)


def repair(data: bytes, password: str | None) -> bytes:
    """Rebuild ``data`` with qpdf: a fresh cross-reference table, every reachable object rewritten."""
    try:
        import pikepdf
    except ImportError:
        raise UnreadableError("unreadable PDF (repair unavailable: pikepdf not installed)") from None
    out = io.BytesIO()
    try:
        with pikepdf.open(io.BytesIO(data), password=password or "", attempt_recovery=True,
                          suppress_warnings=True) as pdf:
            pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    except pikepdf.PasswordError:
        raise EncryptedError("encrypted PDF (password required)") from None
    except (pikepdf.PdfError, RuntimeError, ValueError, OverflowError, RecursionError) as exc:
        raise UnreadableError(f"unreadable PDF (repair failed: {exc})") from None
    return out.getvalue()


class PlumberDoc(_TextOnlyDoc):
    """pdfminer.six (through pdfplumber): the last salvage step. Slow, but its parser tolerates
    some damage that the others do not."""

    name = "pdfplumber"
    # pdfminer scans a damaged file in pure Python (about 1 s per MB): past this size the
    # deadline would end it anyway, so do not start.
    MAX_BYTES = 16 << 20

    def __init__(self, data: bytes, password: str | None) -> None:
        import logging

        if len(data) > self.MAX_BYTES or b"obj" not in data:
            raise UnreadableError("unreadable PDF (no pdfminer salvage: too large or no objects)")

        import pdfplumber
        from pdfminer.pdfdocument import PDFPasswordIncorrect

        logging.getLogger("pdfminer").setLevel(logging.CRITICAL)
        try:
            self.pdf = pdfplumber.open(io.BytesIO(data), password=password or "")
            self.pages = self.pdf.pages
        except PDFPasswordIncorrect:
            raise EncryptedError("encrypted PDF (password required)") from None
        except Exception as exc:  # noqa: BLE001 - pdfminer raises many unrelated types on damage
            raise UnreadableError(f"unreadable PDF ({type(exc).__name__}: {exc})") from None

    def _has_images(self, page: Any) -> bool:
        return bool(page.images)

    def close(self) -> None:
        self.pdf.close()


AnyDoc = PdfiumDoc | PypdfDoc | PlumberDoc
SALVAGE_ORDER = ("pypdf", "repaired", "pdfplumber")


def open_engine(name: str, data: bytes, password: str | None) -> AnyDoc:
    classes: dict[str, type[AnyDoc]] = {"pdfium": PdfiumDoc, "pypdf": PypdfDoc, "repaired": RepairedDoc,
                                        "pdfplumber": PlumberDoc}
    return classes[name](data, password)


def open_document(data: bytes, password: str | None, allow_repair: bool = True) -> AnyDoc:
    """Open with PDFium; when PDFium cannot, salvage with pypdf, then PDFium over a qpdf-repaired
    copy, then pdfminer. Encryption is final."""
    try:
        return PdfiumDoc(data, password)
    except EncryptedError:
        raise
    except UnreadableError as first:
        for name in SALVAGE_ORDER:
            if name == "repaired" and not allow_repair:
                continue
            try:
                doc = open_engine(name, data, password)
            except UnreadableError:
                continue
            if doc.page_count() > 0:
                return doc
            doc.close()
        raise first from None
