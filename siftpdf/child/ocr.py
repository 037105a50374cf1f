"""Optical character recognition of a rendered page (``--ocr``), with an engine whose models
are on this machine: nothing is downloaded, ever.

Two engines, each for what it reads best (docs/bakeoff.md, "OCR engines", says why), chosen
page by page from the script tesseract's orientation and script detection sees:

- ``tesseract``: libtesseract in this process through tesserocr (its wheel carries the
  library), with the system's trained data (``eng``, and ``chi_sim`` where installed: Debian's
  tesseract-ocr-eng and tesseract-ocr-chi-sim, Homebrew's tesseract). Latin pages: fast, and
  within 1 % of the text on clean scans.
- ``rapidocr``: PP-OCR models run by onnxruntime, the models inside the rapidocr wheel
  (Chinese and English in one model). Chinese and Japanese pages, which it reads at a third of
  tesseract's errors (formulas and tables above all), for about twice the time; every page when
  no tesseract data is found.

Neither starts a program or opens a socket (the child's audit hook allows them both; rapidocr's
import probes IPv6 with a socket, which the hook refuses and urllib3 shrugs off). Importing an
engine happens on the first call, never at ``import siftpdf.child.ocr``.

A page is rendered in grayscale at ``DPI``, its longest side held to ``MAX_SIDE`` pixels (a
larger page is rendered at less, and says so: ``PageText.capped``). Boxes come back in PDF
points in the page's user space, bottom-up, as the evidence's are (the page's rotation and
crop box accounted for by PDFium's own device-to-page mapping).
"""

from __future__ import annotations

import math
import os
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..extras import OCR_INSTALL as INSTALL
from ..extras import tessdata
from ..fonts import OCR_FONT

DPI = 200  # engines read 10-point text well from here up; 300 costs twice the time for little
MAX_SIDE = 5000  # pixels: an A3 page at 300 dpi (4961); 25 MB of grayscale at most

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class EngineInfo:
    name: str
    version: str
    languages: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    """One recognized line. ``box`` is [x0, y0, x1, y1] in points (user space, bottom-up) once
    placed on a page (``recognize_page``); in pixels of the bitmap (top-down) straight from
    ``recognize_pixels``, where ``pixels`` is the same box."""

    text: str
    confidence: float  # 0-1
    box: Box
    pixels: tuple[int, int, int, int]
    baseline: float | None = None  # y of the baseline (points; pixels from recognize_pixels)
    words: tuple[tuple[str, Box], ...] = ()  # when the engine tells them, boxes as ``box``
    # The height of the line's type, ascenders to descenders, as the engine fitted it along the
    # baseline (units as ``box``; None when the engine does not tell): unlike the box, it does
    # not grow with the skew of a scan fed in slightly turned.
    height: float | None = None
    slope: float = 0.0  # of the baseline the engine fitted, down the page per pixel across (0: level or unknown)


@dataclass(frozen=True)
class PageText:
    """What OCR read on a page."""

    lines: list[Line]
    engine: EngineInfo
    confidence: float | None  # mean over the lines, weighted by their length; None: nothing read
    dpi: float  # the resolution the page was read at (less than asked when capped)
    capped: bool  # the render was held to MAX_SIDE pixels
    size: tuple[int, int]  # the render, pixels
    turned: int = 0  # degrees the scan was turned clockwise, when it was read turned upright
    # The ruling drawn on the image (table borders, form fields), [x0, y0, x1, y1] in points as
    # the evidence's rules are: organization finds ruled tables by them as on a text page.
    rules: list[Box] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


class OcrError(RuntimeError):
    """The engine failed on a page (not: read nothing)."""


class OcrUnavailable(OcrError):
    """No OCR engine is installed; the message names the install command."""

    def __init__(self) -> None:
        super().__init__(f"no OCR engine installed: {INSTALL}")


# --- engines ------------------------------------------------------------------------------

Reader = Callable[[Any, int, bool], list[Line]]  # (grayscale ndarray, threads, cjk) -> lines in pixels


@dataclass
class _Engine:
    info: EngineInfo
    read: Reader = field(repr=False)
    # Loads the models a read with this many threads needs (of a CJK page: True), ahead of the
    # first read, so that a thread can load them while the page renders.
    load: Callable[[int, bool], None] = field(repr=False, default=lambda threads, cjk: None)


def _tesseract() -> _Engine | None:
    data = tessdata()
    if data is None:
        return None
    try:
        import tesserocr
    except ImportError:
        return None
    engine = _Tesseract(tesserocr, *data)
    version = f"{tesserocr.tesseract_version().split()[1]} (tesserocr {tesserocr.__version__})"
    return _Engine(EngineInfo("tesseract", version, engine.langs), engine.read, engine.load)


class _Tesseract:
    """tesseract through tesserocr, whose wheel builds libtesseract without OpenMP: a read takes
    one core. With ``threads`` over 1 the page is cut into pieces (``pieces``) read at once, each
    by an API of its own (tesserocr lets go of the GIL while tesseract reads)."""

    def __init__(self, tesserocr: Any, folder: str, langs: Any) -> None:
        self.tesserocr, self.folder, self.langs = tesserocr, folder, langs
        self.apis: dict[tuple[str, int], Any] = {}
        self.making: dict[tuple[str, int], threading.Lock] = {}  # a lock for each API: one thread loads it
        self.guard = threading.Lock()

    def api_for(self, lang: str, slot: int = 0) -> Any:
        with self.guard:
            lock = self.making.setdefault((lang, slot), threading.Lock())
        with lock:  # tesserocr lets go of the GIL while it loads a model
            if (lang, slot) not in self.apis:
                tesserocr = self.tesserocr
                self.apis[lang, slot] = tesserocr.PyTessBaseAPI(path=self.folder + "/", lang=lang,
                                                                psm=tesserocr.PSM.AUTO, oem=tesserocr.OEM.LSTM_ONLY)
        return self.apis[lang, slot]

    def read_one(self, gray: Any, lang: str, slot: int) -> list[Line]:
        from PIL import Image

        api = self.api_for(lang, slot)
        api.SetImage(Image.fromarray(gray))
        if not api.Recognize():  # leptonica's allocations failed (the memory limit), or the image is bad
            raise OcrError("tesseract could not read the page (out of memory?)")
        return _tesseract_lines(api.GetIterator(), self.tesserocr.RIL.TEXTLINE, self.tesserocr.RIL.WORD)

    def language(self, cjk: bool) -> str:
        # One language model a page: reading a Latin page with eng+chi_sim costs a third more
        # time, and a Chinese page reads better with chi_sim alone (docs/bakeoff.md).
        return "chi_sim" if cjk and "chi_sim" in self.langs else "eng"

    def load(self, threads: int, cjk: bool) -> None:
        for slot in range(threads):
            self.api_for(self.language(cjk), slot)

    def read(self, gray: Any, threads: int, cjk: bool) -> list[Line]:
        lang = self.language(cjk)
        cuts = pieces(gray) if threads > 1 else []
        if len(cuts) < 2:
            return self.read_one(gray, lang, 0)
        import queue
        from concurrent.futures import ThreadPoolExecutor

        import numpy as np

        workers = min(threads, len(cuts))
        free: queue.SimpleQueue[int] = queue.SimpleQueue()  # the APIs not reading: one a thread
        for slot in range(workers):
            free.put(slot)

        def read_piece(cut: tuple[int, int, int, int]) -> list[Line]:
            x0, y0, x1, y1 = cut
            slot = free.get()
            try:
                read = self.read_one(np.ascontiguousarray(gray[y0:y1, x0:x1]), lang, slot)
            finally:
                free.put(slot)
            return [_shifted(line, x0, y0) for line in read]

        with ThreadPoolExecutor(workers) as pool:  # the pieces' lines in the pieces' order
            return [line for read in pool.map(read_piece, cuts) for line in read]


CJK_SCRIPTS = frozenset({"Han", "HanS", "HanT", "Japanese", "Katakana", "Hiragana"})
OSD_SCALE = 0.5  # the script is told as well from a render at half the resolution, in a third of the time
# Characters the detection classifies (it tries up to five times as many before it settles;
# tesseract's default is 50): most of its time goes there. On 143 scanned corpus pages (64
# Chinese) 25 tells Chinese from Latin as often as 50 does (both miss a few Chinese pages
# heavy with Latin), in half the time.
OSD_CHARACTERS = 25


@dataclass(frozen=True)
class Osd:
    """What tesseract's orientation and script detection sees on a page image."""

    script: str | None  # tesseract's name (Latin, Han …); None when it cannot tell
    turn: int = 0  # degrees the image is turned clockwise (0, 90, 180, 270)

    @property
    def cjk(self) -> bool:
        return self.script in CJK_SCRIPTS


_DETECTOR = threading.Lock()  # one thread loads the detection's model


def _detector() -> Callable[[Any], Osd] | None:
    """Tesseract's orientation and script detection of a grayscale page image; None without
    tesseract or its ``osd`` data."""
    with _DETECTOR:
        return _make_detector()


@cache
def _make_detector() -> Callable[[Any], Osd] | None:
    data = tessdata()
    if data is None or not os.path.isfile(os.path.join(data[0], "osd.traineddata")):
        return None
    try:
        import tesserocr
    except ImportError:
        return None
    from PIL import Image

    api = tesserocr.PyTessBaseAPI(path=data[0] + "/", lang="osd", psm=tesserocr.PSM.OSD_ONLY)
    api.SetVariable("min_characters_to_try", str(OSD_CHARACTERS))

    def detect(gray: Any) -> Osd:
        image = Image.fromarray(gray)
        small = image.resize((max(1, round(image.width * OSD_SCALE)), max(1, round(image.height * OSD_SCALE))))
        api.SetImage(small)
        try:
            found = api.DetectOrientationScript()
        except RuntimeError:  # too little text to tell (a blank page)
            return Osd(None)
        if not found:
            return Osd(None)
        return Osd(found.get("script_name"), int(found.get("orient_deg") or 0) % 360)

    return detect


def detect(gray: Any) -> Osd:
    """The script and orientation of a page image, as far as tesseract can tell (nothing
    without its data, or on a blank page)."""
    detector = _detector()
    return detector(gray) if detector is not None else Osd(None)


def _slope(baseline: Any) -> float:
    """The slope of a baseline given as its two ends ((x1, y1), (x2, y2)), pixels."""
    if not baseline or baseline[1][0] == baseline[0][0]:
        return 0.0
    return float(baseline[1][1] - baseline[0][1]) / float(baseline[1][0] - baseline[0][0])


def _tesseract_lines(iterator: Any, line_level: int, word_level: int) -> list[Line]:
    """Tesseract's lines, each with its words, in one walk over the words."""
    lines: list[Line] = []
    words: list[tuple[str, Box]] = []
    head: Line | None = None

    def close() -> None:
        if head is not None and head.text:
            lines.append(Line(head.text, head.confidence, head.box, head.pixels, head.baseline, tuple(words),
                              head.height, head.slope))

    if iterator is None or iterator.Empty(word_level):  # a blank page: no words at all
        return lines
    while True:
        if iterator.IsAtBeginningOf(line_level):
            close()
            words = []
            bounds = iterator.BoundingBox(line_level) or (0, 0, 0, 0)
            baseline = iterator.Baseline(line_level)
            row = iterator.RowAttributes() or {}
            head = Line(tidy(iterator.GetUTF8Text(line_level) or ""),
                        max(0.0, iterator.Confidence(line_level)) / 100, tuple(map(float, bounds)),  # type: ignore[arg-type]
                        tuple(bounds), (baseline[0][1] + baseline[1][1]) / 2 if baseline else None,
                        height=float(row["row_height"]) if row.get("row_height", 0) > 0 else None,
                        slope=_slope(baseline))
        text, bounds = (iterator.GetUTF8Text(word_level) or "").strip(), iterator.BoundingBox(word_level)
        if text and bounds:
            words.append((text, tuple(map(float, bounds))))  # type: ignore[arg-type]
        if not iterator.Next(word_level):
            break
    close()
    return lines


# The detector sees the page at about 68 dpi (an A4 page's long side: 800 pixels): PP-OCR's
# detection costs as many pixels as it is given, and finds 9-point text from there; the lines
# it finds are read from the full render. On the bench's Chinese scans 800 pixels read as well
# as 960 (CER 2.24 % and 2.04 % at 200 and 300 dpi, against 2.15 % and 3.14 %) in 30 % less
# time; at 736 the formulas of a paper lose lines (2.54 %, 2.48 %).
DETECT_SIDE = 800
REC_BATCH = 1  # lines read at once: a batch is padded to its widest line, and its tensors hold more memory


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
MMAP_THRESHOLD = 8 << 20
TRIM_THRESHOLD = 64 << 20


@cache
def _libc() -> Any:
    """glibc, for its allocator's knobs; None elsewhere (musl, macOS)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


def _tune_heap() -> None:
    """Keep onnxruntime's tensors on glibc's heap (under 8 MB; larger ones are mapped apart and
    given back when freed), and keep up to 64 MB of freed heap for the next layer. Each layer's
    tensors are allocated anew: mapped, each would be page-faulted in again (a 1 MB threshold
    cost the recognizer 70 % more time), and glibc left to itself raises its threshold as it
    goes and keeps what it freed (two workers held 1.1 GB). ``_give_back`` returns the heap
    after each page. Elsewhere than glibc, nothing is done."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)


def _give_back() -> None:
    """Return the heap the page's tensors freed to the system (glibc's malloc_trim): a worker
    waits for its next page holding its models, not the last page's tensors."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


# The folder of PP-OCR's int8 models, made on this machine by siftpdf.store.ocrmodels (under
# the folder the parent names: ``--ocr-models``); None: the float models inside rapidocr's wheel.
_INT8: str | None = None


def use_models(root: str | None) -> None:
    """Read with the int8 models made under ``root`` (the cache's models folder, the parent's
    ``--ocr-models``) for the installed rapidocr, when they are there; else with the float
    models. Called on the first page read, so a document with nothing to read pays nothing."""
    folder = None
    if root:
        from ..store.ocrmodels import folder_in

        folder = folder_in(root)
    use_int8(str(folder) if folder is not None else None)


def use_int8(folder: str | None) -> None:
    """Read with the int8 models in ``folder`` (``det.onnx``, ``rec.onnx``), when both are
    there; else with the float models."""
    global _INT8
    whole = bool(folder) and all(os.path.isfile(os.path.join(folder or "", f"{m}.onnx")) for m in ("det", "rec"))
    found = folder if whole else None
    if found != _INT8:
        _INT8 = found
        _engine.cache_clear()


def _rapidocr() -> _Engine | None:
    try:
        from importlib.metadata import version

        from rapidocr import RapidOCR
    except ImportError:
        return None
    engines: dict[int, Any] = {}
    int8 = {"Det.model_path": os.path.join(_INT8, "det.onnx"),
            "Rec.model_path": os.path.join(_INT8, "rec.onnx")} if _INT8 else {}

    def engine(threads: int) -> Any:
        if threads not in engines:
            _tune_heap()
            engines[threads] = RapidOCR(params={
                "Global.log_level": "error", "Global.use_cls": False,  # pages come upright from PDFium
                "Global.max_side_len": MAX_SIDE, "Det.limit_type": "max", "Det.limit_side_len": DETECT_SIDE,
                "Rec.rec_batch_num": REC_BATCH,
                "EngineConfig.onnxruntime.intra_op_num_threads": threads,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1, **int8})
        return engines[threads]

    def read(gray: Any, threads: int, cjk: bool) -> list[Line]:
        import numpy as np

        try:
            out = engine(threads)(np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2)))
        finally:
            _give_back()
        if out.boxes is None:
            return []
        lines = []
        for quad, text, score in zip(out.boxes, out.txts, out.scores, strict=True):
            xs, ys = [float(p[0]) for p in quad], [float(p[1]) for p in quad]
            box = (min(xs), min(ys), max(xs), max(ys))
            lines.append(Line(tidy(str(text)), float(score), box, tuple(round(v) for v in box)))  # type: ignore[arg-type]
        return [line for line in lines if line.text]

    return _Engine(EngineInfo("rapidocr", version("rapidocr") + (" int8" if int8 else ""), ("ch", "en")), read)


ENGINES: dict[str, Callable[[], _Engine | None]] = {"tesseract": _tesseract, "rapidocr": _rapidocr}


@cache
def _engine(name: str | None = None) -> _Engine | None:
    for key, load in ENGINES.items():
        if name in (None, key):
            found = load()
            if found is not None:
                return found
    return None


def available(name: str | None = None) -> EngineInfo | None:
    """The engine OCR would use for a Latin page (``name``: only that one), loading it; None
    when none is installed."""
    found = _engine(name)
    return found.info if found else None


def describe() -> str:
    """The installed engines and what each reads, for ``engine status``."""
    engines = [found for found in (_engine(key) for key in ENGINES) if found is not None]
    if not engines:
        return "none"
    if len(engines) == 1:
        return f"{engines[0].info.name} {engines[0].info.version}"
    latin, cjk = engines
    return f"{latin.info.name} {latin.info.version}; CJK pages: {cjk.info.name} {cjk.info.version}"


def _pick(gray: Any, name: str | None) -> tuple[_Engine, Osd]:
    """The engine that reads this page image (``name``: that one), and what tesseract's
    detection sees on it: rapidocr reads Chinese and Japanese when it is installed, tesseract
    the rest."""
    tesseract = _engine("tesseract")
    chosen = _engine(name) if name is not None else tesseract or _engine("rapidocr")
    if chosen is None:
        raise OcrUnavailable()
    osd = detect(gray) if tesseract is not None else Osd(None)
    if name is None and osd.cjk and chosen is tesseract:
        # rapidocr (a second of imports) is loaded for the first page that needs it only
        chosen = _engine("rapidocr") or tesseract
    return chosen, osd


# A page is tried again turned upright when its read looks turned: most of its text in lines
# that run down the page (tesseract reads those, but a page's order is not theirs), or lines
# held with this little confidence (an upside-down scan reads as specks). Tesseract's detection
# says which way; it is not trusted alone (on a render this small it calls some upright pages
# upside down): the turned read is kept only when it reads more, and more surely.
POOR_READ = 0.5


def _read(found: _Engine, gray: Any, threads: int, osd: Osd) -> tuple[list[Line], int]:
    """The engine's lines on a page image (boxes in its pixels, in reading order), and the
    degrees it was turned (clockwise) when it was read turned upright."""
    import numpy as np

    best, turned = found.read(gray, threads, osd.cjk), 0
    height, width = gray.shape[:2]
    for turn in _turns_to_try(best, osd):
        turns = turn // 90  # numpy turns counter-clockwise: this many quarter turns set it upright
        lines = found.read(np.ascontiguousarray(np.rot90(gray, turns)), threads, osd.cjk)
        if _weight(lines) > _weight(best) and not _runs_down(lines):
            best, turned = [_unturned(line, turns, width, height) for line in lines], turn
    return best, turned


def _turns_to_try(lines: list[Line], osd: Osd) -> list[int]:
    if _runs_down(lines):
        return [osd.turn] if osd.turn in (90, 270) else [90, 270]
    if lines and (mean_confidence(lines) or 0.0) < POOR_READ:
        return [osd.turn] if osd.turn else [180]
    return []


def _runs_down(lines: list[Line]) -> bool:
    """Most of the text is in lines taller than they are wide (of three characters or more)."""
    down = sum(len(ln.text) for ln in lines if len(ln.text) >= 3 and ln.box[3] - ln.box[1] > ln.box[2] - ln.box[0])
    return down > 0.5 * sum(len(ln.text) for ln in lines)


def _weight(lines: list[Line]) -> float:
    return sum(len(line.text) * line.confidence for line in lines)


def _unturned(line: Line, turns: int, width: int, height: int) -> Line:
    """A line read from the image turned ``turns`` quarter turns counter-clockwise, with its
    boxes in the unturned image's pixels (no baseline: the line is not horizontal there)."""

    def box(b: Box) -> Box:
        corners = [_unturn_point(x, y, turns, width, height) for x in (b[0], b[2]) for y in (b[1], b[3])]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return (min(xs), min(ys), max(xs), max(ys))

    placed = box(line.box)
    return Line(line.text, line.confidence, placed, tuple(round(v) for v in placed),  # type: ignore[arg-type]
                None, tuple((text, box(b)) for text, b in line.words))


def _unturn_point(x: float, y: float, turns: int, width: int, height: int) -> tuple[float, float]:
    """A point of the image turned ``turns`` quarter turns counter-clockwise, in the unturned
    image (``width`` x ``height``): a quarter turn took (x, y) of a w-wide image to (y, w - x)."""
    for step in range(turns, 0, -1):
        w = width if (step - 1) % 2 == 0 else height  # the width before this quarter turn
        x, y = w - y, x
    return x, y


def recognize_pixels(gray: Any, threads: int = 1, engine: str | None = None) -> list[Line]:
    """Lines read from an 8-bit grayscale image (a 2-D numpy array), boxes in its pixels."""
    found, osd = _pick(gray, engine)
    return _read(found, gray, threads, osd)[0]


_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_CJK_SPACE = re.compile(f"(?<=[{_CJK}]) (?=[{_CJK}])")


def tidy(text: str) -> str:
    """A line's text without the spaces tesseract puts between Chinese, Japanese or Korean
    characters (their scripts have none)."""
    return _CJK_SPACE.sub("", text.strip())


# --- pages --------------------------------------------------------------------------------


def render_scale(width: float, height: float, dpi: float = DPI, max_side: int = MAX_SIDE) -> tuple[float, bool]:
    """Pixels per point for a page of ``width`` x ``height`` points at ``dpi``, and whether
    the longest side had to be held to ``max_side`` pixels."""
    scale = dpi / 72
    longest = max(width, height, 1.0) * scale
    if longest <= max_side:
        return scale, False
    return scale * max_side / longest, True


@dataclass
class Hint:
    """What a document's last page told of its script, for the next page: it goes to the
    engine that read the last one, without tesseract's script detection (a sixth of a Chinese
    page's time, a tenth of a Latin page's). That read is kept when it looks right (upright
    lines, read with confidence, and mostly CJK characters from PP-OCR); otherwise the page is
    read again the usual way, its script detected: a mixed document pays one read more at each
    change of script."""

    script: str | None = None  # "cjk" (read by rapidocr), "latin" (by tesseract), None: detect


CJK_SHARE = 0.3  # of a read's letters, the least share of CJK characters that keeps a Hint's cjk


def recognize_page(page: Any, dpi: float = DPI, regions: Sequence[Box] | None = None, threads: int = 1,
                   engine: str | None = None, hint: Hint | None = None) -> PageText:
    """Render a pypdfium2 page and read it. ``regions`` (boxes in points, user space) limits
    reading to those parts of the page, each read apart (``auto`` passes the page's images
    that no text layer covers); lines are in the engine's reading order, region by region from
    the top. ``hint``: the document's
    (:class:`Hint`), read and updated."""
    import numpy as np

    first = _engine(engine)
    if first is None:
        raise OcrUnavailable()
    _load_ahead(engine, threads, hint)
    scale, capped = render_scale(page.get_width(), page.get_height(), dpi)
    gray = _render_gray(page, scale)
    height, width = gray.shape
    rule, thick = round(RULE_INCHES * scale * 72), max(1, round(RULE_THICK * scale))
    to_page = _device_to_page(page, width, height)
    # Regions are read from the top of the page down; within one, lines stay in the engine's
    # reading order (a column of a two-column scan before the next, as tesseract's layout reads).
    crops = [(0, 0, width, height)] if regions is None else sorted(
        (_pixel_rect(to_page, region, width, height) for region in regions), key=lambda c: (c[1], c[0]))
    lines: list[Line] = []
    rules: list[Box] = []
    read_by: dict[EngineInfo, int] = {}  # characters each engine read (a region at a time)
    turned = 0
    for x0, y0, x1, y1 in crops:
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        crop = np.ascontiguousarray(gray[y0:y1, x0:x1])
        ruling = find_rules(crop, rule, thick)

        def as_read(found: _Engine, image: Any, ruling: list[PixelBox] = ruling) -> Any:
            """The crop as ``found`` reads it: tesseract's on white paper, its ruling erased
            (PP-OCR's detector keeps rules out of its lines, and reads formulas worse without
            their bars; it finds text on tints as it is)."""
            return erased(flattened(image), ruling) if found.info.name == "tesseract" else image

        hinted = _read_hinted(crop, threads, hint, as_read) if hint is not None and engine is None else None
        if hinted is not None:
            found, read, turn = *hinted, 0
        else:
            found, osd = _pick(crop, engine)
            read, turn = _read(found, as_read(found, crop), threads, osd)
            if hint is not None and engine is None:
                hint.script = _script(found, read, osd) if not turn else None
        read_by[found.info] = read_by.get(found.info, 0) + sum(len(line.text) for line in read)
        if not turn:
            middle, skew = ((x1 - x0) / 2, (y1 - y0) / 2), skew_of(read)
            rules.extend(_to_points(to_page, box, x0, y0) for box in rule_lines(ruling, skew, *middle))
            read = level(read, *middle, skew)
        lines.extend(_placed(line, to_page, x0, y0) for line in read)
        turned = turned or turn
    used = max(read_by, key=read_by.__getitem__) if read_by else first.info
    return PageText(lines, used, mean_confidence(lines), round(scale * 72, 2), capped, (width, height), turned,
                    rules)


def _load_ahead(engine: str | None, threads: int, hint: Hint | None) -> None:
    """On a page whose script is still to be detected (a document's first), load tesseract's
    detection and its Latin model, one for each thread, on a thread of their own while the
    page renders: a fifth of a second off a two-second read. Nothing when the engine is a
    named one, or the document's last page told the script: its engine is loaded already."""
    if engine is not None or hint is not None and hint.script is not None:
        return
    found = _engine("tesseract")
    if found is None:
        return

    def load() -> None:
        try:
            _detector()
            found.load(threads, False)
        except (RuntimeError, MemoryError):  # the read itself loads again, and says what failed
            pass

    threading.Thread(target=load, name="siftpdf-ocr-load", daemon=True).start()


def _read_hinted(gray: Any, threads: int, hint: Hint,
                 as_read: Callable[[_Engine, Any], Any] = lambda _, image: image,
                 ) -> tuple[_Engine, list[Line]] | None:
    """The page read by the engine of the document's last page (:class:`Hint`), when that
    read looks right or finds nothing; None when it must be read the usual way. ``as_read``:
    the image as the engine reads it (``recognize_page``)."""
    if hint.script is None:
        return None
    found = _engine("rapidocr" if hint.script == "cjk" else "tesseract")
    if found is None:
        return None
    lines = found.read(as_read(found, gray), threads, hint.script == "cjk")
    if not lines:  # a blank page: no engine finds a line where this one found none; the hint stands
        return found, lines
    if _script(found, lines, Osd("Han" if hint.script == "cjk" else "Latin")) != hint.script:
        hint.script = None
        return None
    return found, lines


def _script(found: _Engine, lines: list[Line], osd: Osd) -> str | None:
    """What a page's read tells the next page (:class:`Hint`): ``cjk`` for upright lines of
    mostly CJK characters read by rapidocr, ``latin`` for upright lines tesseract read of a
    page not detected as CJK, read with confidence; None otherwise (a blank page too)."""
    if not lines or _runs_down(lines) or (mean_confidence(lines) or 0.0) < POOR_READ:
        return None
    if found.info.name == "rapidocr":
        return "cjk" if osd.cjk and _cjk_share(lines) >= CJK_SHARE else None
    return "latin" if not osd.cjk else None


def _cjk_share(lines: Iterable[Line]) -> float:
    """The share of CJK characters among the letters of the lines read."""
    letters = [ch for line in lines for ch in line.text if ch.isalpha()]
    return sum(1 for ch in letters if _CJK_CHAR.match(ch)) / len(letters) if letters else 0.0


def mean_confidence(lines: Iterable[Line]) -> float | None:
    """The lines' mean confidence, weighted by their length; None when there are none."""
    weights = [(len(line.text), line.confidence) for line in lines]
    total = sum(n for n, _ in weights)
    return round(sum(n * c for n, c in weights) / total, 3) if total else None


Affine = tuple[float, float, float, float, float, float]  # x' = a*x + b*y + c, y' = d*x + e*y + f


RULE_INCHES = 1 / 3  # a dark stroke at least this long, straight along a row or a column, is a rule
RULE_THICK = 2.0  # points: a rule is thinner than this (a band of solid colour is not one)
INK = 160  # grey levels below this are ink (a rule's anti-aliased edge included)


# A page read by two threads is cut into pieces no line crosses (``pieces``): at a gutter that
# runs down the whole page (two columns), else at a blank band across it that no column runs
# through, between parts of about equal ink.
GUTTER_SHARE = 0.01  # of the width: the least gutter between two columns
GUTTER_SPAN = (0.25, 0.75)  # of the width: where a gutter between two columns lies
CUT_NOISE = 0.002  # of a row's (a column's) pixels: specks of ink a blank band may hold
CUT_BALANCE = (0.2, 0.8)  # of the ink: where a cut across the page may fall
CUT_REACH = 0.04  # of the height: how far above and below a cut columns are looked for
MIN_CUT_ROWS = 3  # pixels: the least blank band a cut across the page is made in


def pieces(gray: Any) -> list[tuple[int, int, int, int]]:
    """The page image cut into pieces that can be read apart, in reading order (x0, y0, x1, y1
    in pixels): two columns at their gutter; a title over two columns, then each column; a
    page of one column at a blank band near the middle of its ink. One piece (the whole
    image) when no cut is safe: a cut through a line, or across columns, would misread it."""
    ink = gray < INK
    height, width = ink.shape
    whole = (0, 0, width, height)
    gutter = _gutter(ink)
    if gutter is not None:
        return [(0, 0, gutter, height), (gutter, 0, width, height)]
    rows = ink.sum(axis=1)
    total = float(rows.sum())
    if total <= 0:
        return [whole]
    above = rows.cumsum() / total
    bands = _blank_bands(rows, width * CUT_NOISE, MIN_CUT_ROWS)
    reach = max(8, round(height * CUT_REACH))
    safe = [y for y in bands if not _columns_across(ink, y, reach)]
    for y in safe:  # a title (or a head) over two columns: the title, then each column
        below = _gutter(ink[y:])
        if below is not None and above[y] < CUT_BALANCE[0]:
            return [(0, 0, width, y), (0, y, below, height), (below, y, width, height)]
    balanced = [y for y in safe if CUT_BALANCE[0] <= above[y] <= CUT_BALANCE[1]]
    if balanced:
        y = min(balanced, key=lambda row: abs(above[row] - 0.5))
        return [(0, 0, width, y), (0, y, width, height)]
    return [whole]


def _blank_bands(counts: Any, noise: float, least: int) -> list[int]:
    """The middles of the runs of at least ``least`` entries of ``counts`` at most ``noise``,
    inner ones only (not the margins at either end)."""
    import numpy as np

    blank = np.concatenate(([False], counts <= noise, [False]))
    edges = np.flatnonzero(np.diff(blank.astype(np.int8)))
    starts, ends = edges[0::2], edges[1::2]
    return [int((a + b) // 2) for a, b in zip(starts, ends, strict=True)
            if b - a >= least and a > 0 and b < len(counts)]


def _gutter(ink: Any) -> int | None:
    """The x of a gutter that runs down the whole of ``ink`` between two columns of text, each
    holding a good share of it; None when there is none."""
    height, width = ink.shape
    if height < 8 or width < 8:
        return None
    cols = ink.sum(axis=0)
    total = float(cols.sum())
    if total <= 0:
        return None
    lo, hi = round(width * GUTTER_SPAN[0]), round(width * GUTTER_SPAN[1])
    bands = _blank_bands(cols[lo:hi], height * CUT_NOISE, max(4, round(width * GUTTER_SHARE)))
    left = cols.cumsum() / total
    found = [lo + x for x in bands if CUT_BALANCE[0] <= left[lo + x] <= CUT_BALANCE[1]]
    return min(found, key=lambda x: abs(x - width / 2)) if found else None


def _columns_across(ink: Any, y: int, reach: int) -> bool:
    """Whether columns run on across the row ``y``: the stretches above and below it both
    have a gutter at the same place (a blank row between two lines of both columns)."""
    above, below = _gutter(ink[max(0, y - reach):y]), _gutter(ink[y:y + reach])
    if above is None or below is None:
        return False
    return abs(above - below) <= max(8, ink.shape[1] * GUTTER_SHARE * 2)


PixelBox = tuple[int, int, int, int]


def find_rules(gray: Any, length: int, thick: int) -> list[PixelBox]:
    """The ruling of a page image as the runs that draw it, a pixel box a row (or a column)
    each: straight dark strokes at least ``length`` pixels along a row or a column and at most
    about ``thick`` pixels across (a table's borders, a form's fields, underlines). A band of
    solid colour (white text on a dark head) is none: it is not thin."""
    import numpy as np

    dark = gray < INK
    found: list[PixelBox] = []
    for axis in (0, 1):
        lines = dark if axis == 0 else np.ascontiguousarray(dark.T)
        # A scan fed in slightly turned draws a rule as steps a pixel apart: widened by a
        # pixel either side, its steps join into one run along the row.
        wide = lines.copy()
        wide[1:] |= lines[:-1]
        wide[:-1] |= lines[1:]
        for row, start, end in zip(*_long_runs(wide, length), strict=True):
            if _thin(lines, row, start, end, thick):
                found.append((start, row, end, row + 1) if axis == 0 else (row, start, row + 1, end))
    return found


def rule_lines(runs: list[PixelBox], skew: float | None, cx: float, cy: float) -> list[Box]:
    """The rules the runs of :func:`find_rules` draw, one a stroke, as lines a pixel across
    through its middle, turned level about (cx, cy) by the page's skew as its text is
    (:func:`level`): a rule of a scan fed in turned is a staircase of runs on neighbouring rows."""
    out: list[Box] = []
    for along in (True, False):  # rules along rows, then along columns
        spans = [(y0, x0, x1) if along else (x0, y0, y1) for x0, y0, x1, y1 in runs if (x1 - x0 >= y1 - y0) == along]
        for first, last, start, end in _strokes(spans):
            middle = (first + last + 1) / 2
            x, y = ((start + end) / 2, middle) if along else (middle, (start + end) / 2)
            if skew is not None:
                x, y = _turned_by(skew, cx, cy, x, y)
            half = (end - start) / 2
            out.append((x - half, y - 0.5, x + half, y + 0.5) if along else (x - 0.5, y - half, x + 0.5, y + half))
    return out


def _strokes(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Runs (row, start, end) as strokes (first row, last row, start, end): a run on a row next
    to a stroke's last run, overlapping that run, goes on that stroke (the rows a rule's
    thickness takes, or the steps of a turned one, each a little further along). Rules set a
    few rows apart do not run together: a step overlaps the step before it, not the rule below."""
    open_: list[list[int]] = []  # [first row, last row, start, end, last run's start, last run's end]
    done: list[tuple[int, int, int, int]] = []
    for row, start, end in sorted(runs):
        for stroke in open_:
            if 0 < row - stroke[1] <= 2 and start <= stroke[5] + 2 and end >= stroke[4] - 2:
                stroke[1:] = [row, min(start, stroke[2]), max(end, stroke[3]), start, end]
                break
        else:
            open_.append([row, row, start, end, start, end])
        done += [(a, b, c, d) for a, b, c, d, _, _ in open_ if row - b > 2]
        open_ = [stroke for stroke in open_ if row - stroke[1] <= 2]
    return done + [(a, b, c, d) for a, b, c, d, _, _ in open_]


FLAT_REDUCE = 4  # the paper's tone is taken on a render this many times smaller
FLAT_WINDOW = 7  # pixels of that render across (28 of the page's at 200 dpi: wider than a stroke)


def flattened(gray: Any) -> Any:
    """The page image on white paper: each pixel divided by the paper's tone around it (the
    brightest within a few text heights, as a closing finds it, smoothed). Figures printed on a
    tinted cell, a grey band or a yellowed page then stand dark on white: tesseract takes one
    threshold over the page and otherwise loses what lies on the darker tints (the figures of
    a shaded table). On white paper it clears the scan's grain to white, and figures in small
    type read better. Text set light on dark keeps its contrast: there the brightest around is
    the text itself."""
    import numpy as np
    from PIL import Image

    image = Image.fromarray(gray)
    small = np.asarray(image.reduce(FLAT_REDUCE))
    paper = _spread(_spread(small, np.maximum), np.minimum)  # a closing: the paper around each pixel
    tone = np.asarray(Image.fromarray(paper).resize(image.size, Image.Resampling.BILINEAR), dtype=np.uint16)
    out = gray.astype(np.uint16) * 255
    out //= np.maximum(tone, 1)
    return np.minimum(out, 255).astype(np.uint8)


def _spread(image: Any, pick: Any) -> Any:
    """``pick`` (numpy's maximum or minimum) over a ``FLAT_WINDOW`` square around each pixel,
    a row and then a column at a time; the edges repeat outward."""
    import numpy as np

    half = FLAT_WINDOW // 2
    for axis in (0, 1):
        padded = np.pad(image, [(half, half) if k == axis else (0, 0) for k in (0, 1)], mode="edge")
        length = image.shape[axis]
        out = padded.take(range(0, length), axis=axis)
        for shift in range(1, FLAT_WINDOW):
            out = pick(out, padded.take(range(shift, shift + length), axis=axis))
        image = out
    return image


def erased(gray: Any, rules: list[PixelBox]) -> Any:
    """The image with ``rules`` (:func:`find_rules`) painted white, a pixel beyond them either
    side. Read, ruling comes out as '|', '[' and '_' glued to the cells' words, and the cells
    run together; erased, each cell reads as words with white around it."""
    if not rules:
        return gray
    out = gray.copy()
    for x0, y0, x1, y1 in rules:
        if x1 - x0 >= y1 - y0:  # along a row
            out[max(0, y0 - 1):y1 + 1, x0:x1] = 255
        else:
            out[y0:y1, max(0, x0 - 1):x1 + 1] = 255
    return out


def _long_runs(dark: Any, length: int) -> tuple[list[int], list[int], list[int]]:
    """(rows, starts, ends) of the runs of dark pixels along each row at least ``length`` long."""
    import numpy as np

    height, width = dark.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = dark
    edges = np.diff(padded, axis=1)  # 1 where a run starts, -1 just after it ends
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    keep = ends - starts >= length
    return rows[keep].tolist(), starts[keep].tolist(), ends[keep].tolist()


def _thin(dark: Any, row: int, start: int, end: int, thick: int) -> bool:
    """Whether the run is a rule's: ``thick`` rows away on both sides, most of it is light."""
    height = dark.shape[0]
    above = dark[row - thick, start:end].mean() if row - thick >= 0 else 0.0
    below = dark[row + thick, start:end].mean() if row + thick < height else 0.0
    return bool(above < 0.5 and below < 0.5)


def _device_to_page(page: Any, width: int, height: int) -> Affine:
    """The affine map from the render's pixels to the page's user space, from PDFium's own
    mapping (rotation, crop box) of three corners."""
    import ctypes

    import pypdfium2.raw as pdfium_c

    def point(x: int, y: int) -> tuple[float, float]:
        px, py = ctypes.c_double(), ctypes.c_double()
        pdfium_c.FPDF_DeviceToPage(page.raw, 0, 0, width, height, 0, x, y, ctypes.byref(px), ctypes.byref(py))
        return px.value, py.value

    (ox, oy), (rx, ry), (dx, dy) = point(0, 0), point(width, 0), point(0, height)
    return ((rx - ox) / width, (dx - ox) / height, ox, (ry - oy) / width, (dy - oy) / height, oy)


def _apply(m: Affine, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]


def _to_points(m: Affine, box: Box, dx: int, dy: int) -> Box:
    corners = [_apply(m, x + dx, y + dy) for x in (box[0], box[2]) for y in (box[1], box[3])]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2))


# An image of text (a scan, a screenshot, a pasted table) is mostly one tone, its paper, with
# ink on it; a photo spreads its tones. Told from a render at TONE_DPI: the share of a region's
# pixels within TONE_BAND grey levels of its commonest one. On DP-Bench's development pages the
# images that read as text hold 0.70-0.97 of their pixels there, photos 0.18-0.52.
TONE_DPI = 50
TONE_BAND = 30
TEXT_TONE = 0.6


def _render_gray(page: Any, scale: float) -> Any:
    """A pypdfium2 page rendered in grey at ``scale`` (pixels a point), as a 2-D numpy array."""
    import numpy as np

    bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=False)
    try:
        return np.array(bitmap.to_numpy()).reshape(bitmap.height, bitmap.width)
    finally:
        bitmap.close()


def text_like(page: Any, regions: Sequence[Box]) -> list[Box]:
    """The regions (boxes in points) of a pypdfium2 page whose picture is an image of text,
    not a photo (``auto`` reads those of a text page), told from a small render in
    milliseconds, before any engine loads."""
    import numpy as np

    gray = _render_gray(page, TONE_DPI / 72)
    height, width = gray.shape
    to_page = _device_to_page(page, width, height)
    kept = []
    for region in regions:
        x0, y0, x1, y1 = _pixel_rect(to_page, region, width, height)
        crop = gray[y0:y1, x0:x1]
        if not crop.size:
            continue
        counts = np.bincount(crop.ravel(), minlength=256)
        common = int(counts.argmax())
        if counts[max(0, common - TONE_BAND):common + TONE_BAND + 1].sum() >= TEXT_TONE * crop.size:
            kept.append(region)
    return kept


def _pixel_rect(m: Affine, region: Box, width: int, height: int) -> tuple[int, int, int, int]:
    """A box in points as the pixel rectangle that holds it, within the render."""
    det = m[0] * m[4] - m[1] * m[3]
    inverse = (m[4] / det, -m[1] / det, (m[1] * m[5] - m[4] * m[2]) / det,
               -m[3] / det, m[0] / det, (m[3] * m[2] - m[0] * m[5]) / det)
    corners = [_apply(inverse, x, y) for x in (region[0], region[2]) for y in (region[1], region[3])]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (max(0, int(min(xs))), max(0, int(min(ys))), min(width, int(max(xs)) + 1), min(height, int(max(ys)) + 1))


SKEW_WORDS = 3  # words of a line whose baseline's slope tells the page's skew
MIN_SKEW, MAX_SKEW = 0.002, 0.1  # slopes: a page turned less is level (0.1 degree), more is no skew (6 degrees)


def skew_of(lines: list[Line]) -> float | None:
    """The page's skew: the slope most of its text's baselines share (the median over the lines
    of several words, longer lines counting more); None when the page is level, or turned more
    than a scanner turns a page."""
    skew = _weighted_median([(line.slope, line.box[2] - line.box[0]) for line in lines
                             if len(line.words) >= SKEW_WORDS and line.baseline is not None])
    return skew if skew is not None and MIN_SKEW <= abs(skew) <= MAX_SKEW else None


def _turned_by(skew: float, cx: float, cy: float, x: float, y: float) -> tuple[float, float]:
    """(x, y) turned about (cx, cy) so that a line of slope ``skew`` lies level."""
    cos, sin = 1 / math.hypot(1, skew), skew / math.hypot(1, skew)
    return cx + (x - cx) * cos + (y - cy) * sin, cy - (x - cx) * sin + (y - cy) * cos


def level(lines: list[Line], cx: float, cy: float, skew: float | None) -> list[Line]:
    """Lines read from a scan fed in slightly turned, their boxes turned back about (cx, cy) by
    the page's ``skew`` (:func:`skew_of`; None: level). Level, the cells of a table's row share
    a baseline and a column's lines their left edge, as on a text page; the text is unchanged."""
    if skew is None:
        return lines

    def turn(x: float, y: float) -> tuple[float, float]:
        return _turned_by(skew, cx, cy, x, y)

    def box(b: Box) -> Box:
        (x, y), half_w = turn((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), (b[2] - b[0]) / 2
        half_h = max((b[3] - b[1]) - abs(skew) * (b[2] - b[0]), 1.0) / 2  # the height the skew added, taken off
        return (x - half_w, y - half_h, x + half_w, y + half_h)

    out = []
    for line in lines:
        baseline = line.baseline
        placed = box(line.box)
        if baseline is not None:
            baseline = turn((line.box[0] + line.box[2]) / 2, baseline)[1]
            placed = (placed[0], min(placed[1], baseline - 1), placed[2], max(placed[3], baseline + 1))  # holds it
        out.append(Line(line.text, line.confidence, placed, tuple(round(v) for v in placed),  # type: ignore[arg-type]
                        baseline, tuple((text, box(b)) for text, b in line.words), line.height, 0.0))
    return out


def _shifted(line: Line, dx: int, dy: int) -> Line:
    """A line read from a piece at (dx, dy) of an image, in the image's pixels."""
    def box(b: Box) -> Box:
        return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)

    pixels = (line.pixels[0] + dx, line.pixels[1] + dy, line.pixels[2] + dx, line.pixels[3] + dy)
    baseline = line.baseline + dy if line.baseline is not None else None
    return Line(line.text, line.confidence, box(line.box), pixels, baseline,
                tuple((text, box(wbox)) for text, wbox in line.words), line.height, line.slope)


def _placed(line: Line, m: Affine, dx: int, dy: int) -> Line:
    """A line read from a crop at (dx, dy) of the render, in the page's points."""
    box = _to_points(m, line.box, dx, dy)
    baseline = None
    if line.baseline is not None and abs(m[1]) < 1e-9 and abs(m[3]) < 1e-9:  # upright: a baseline is a y
        baseline = round(_apply(m, 0, line.baseline + dy)[1], 2)
    pixels = (line.pixels[0] + dx, line.pixels[1] + dy, line.pixels[2] + dx, line.pixels[3] + dy)
    words = tuple((text, _to_points(m, wbox, dx, dy)) for text, wbox in line.words)
    height = None
    if line.height is not None and line.box[3] > line.box[1]:  # pixels to points, as the box went
        height = round(line.height * (box[3] - box[1]) / (line.box[3] - line.box[1]), 2)
    return Line(line.text, line.confidence, box, pixels, baseline, words, height)


# --- evidence -------------------------------------------------------------------------------

FONT = OCR_FONT  # the font name of a recognized run: no font is known
GAP_EM = 1.0  # a space this many sizes wide (or wider) is marked as a gap, as the evidence does


def evidence_lines(lines: Iterable[Line]) -> list[dict[str, Any]]:
    """Placed lines (``recognize_page``) as evidence lines: ``{y, size, runs}``, a run a line
    read and the lines on one baseline one evidence line (``_on_baselines``), shaped like
    siftpdf.child.evidence's (text, font, size, colour, box, and ``gaps`` for wide spaces
    between words), so that organization reads them like a text layer's."""
    lines = list(lines)
    sizes = _sizes(lines)
    out: list[tuple[float, float, dict[str, Any]]] = []
    for line, size in zip(lines, sizes, strict=True):
        x0, y0 = line.box[0], line.box[1]
        baseline = line.baseline if line.baseline is not None else round(y0 + 0.2 * size, 2)
        out.append((baseline, x0, {"y": baseline, "size": size, "runs": _runs(line, size)}))
    out.sort(key=lambda item: (-item[0], item[1]))
    return _on_baselines([line for _, _, line in out])


def _runs(line: Line, size: float) -> list[dict[str, Any]]:
    """A recognized line's runs: one for each stretch of words set less than ``CELL_EM`` sizes
    apart (the cells of a table's row, a label and its field), as a text layer draws them, so
    that organization parts the line where it would part a text layer's; the wide spaces inside
    a run are its ``gaps``."""
    x0, y0, x1, y1 = line.box
    placed = _word_offsets(line)
    wide = _word_gaps(line, size, placed)
    if len(placed) < 2 or len(placed) < len(line.words):  # a word not found where it should be: one run
        return [_run(line, line.text, [x0, y0, x1, y1], size, wide)]
    runs: list[dict[str, Any]] = []
    first = 0
    for k in range(1, len(placed) + 1):
        if k < len(placed) and placed[k][2][0] - placed[k - 1][2][2] < CELL_EM * size:
            continue
        # The first run starts where the line does, the last ends where it does: nothing is lost.
        start, end = (placed[first][0] if first else 0), (placed[k - 1][1] if k < len(placed) else len(line.text))
        left, right = placed[first][2][0], placed[k - 1][2][2]
        gaps = [[offset - start, a, b] for offset, a, b in wide if start < offset < end]
        runs.append(_run(line, line.text[start:end], [left, y0, right, y1], size, gaps))
        first = k
    return runs


def _run(line: Line, text: str, box: list[float], size: float, gaps: list[list[float]]) -> dict[str, Any]:
    run: dict[str, Any] = {"text": text, "font": FONT, "size": size, "color": "#000000", "box": box,
                           "ocr": round(line.confidence, 3)}
    if gaps:
        run["gaps"] = gaps
    return run


CELL_EM = 1.5  # sizes of space between words that part a recognized line into runs (cells)


def _word_offsets(line: Line) -> list[tuple[int, int, Box]]:
    """(start, end, box) of each word the engine told, in the line's text, up to the first word
    not found where it should be."""
    out: list[tuple[int, int, Box]] = []
    offset = 0
    for word, box in line.words:
        found = line.text.find(word, offset)
        if found < 0:
            break
        offset = found + len(word)
        out.append((found, offset, box))
    return out


SAME_BASELINE = 0.25  # ems: lines read apart whose baselines lie this close stand on one (a table's row)


def _on_baselines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lines (top down) the engine read apart on one baseline (the cells of a table's row, a
    form's label and field) as one evidence line of several runs, left to right, as a text
    layer gives a baseline: organization then finds the row's cells by the gaps between them."""
    out: list[dict[str, Any]] = []
    for line in lines:
        last = out[-1] if out else None
        if last is not None and abs(last["y"] - line["y"]) <= SAME_BASELINE * min(last["size"], line["size"]) and \
                not any(a["box"][0] < b["box"][2] and b["box"][0] < a["box"][2]
                        for a in last["runs"] for b in line["runs"]):
            last["runs"] = sorted([*last["runs"], *line["runs"]], key=lambda run: run["box"][0])
            last["size"] = max(last["size"], line["size"])
            continue
        out.append(line)
    return out


BODY_SPREAD = 0.15  # share either side of the body's size within which a read line's size is the body's


def _sizes(lines: list[Line]) -> list[float]:
    """The font size of each line. The type's height, ascenders to descenders, as the engine
    fitted it, is about the size; a line's box runs further (accents, brackets, and the skew of a
    scan), about 1.2 of it. Fitted heights scatter from line to line of one paragraph (a line of
    small letters, a line of capitals), so those within ``BODY_SPREAD`` of the page's body size
    (the size of most of its characters) are given that size: organization then reads the
    lines of a paragraph as one type, and a heading or a footnote set apart stays apart."""
    sizes = [round(max(line.height if line.height is not None else (line.box[3] - line.box[1]) / 1.2, 1.0), 2)
             for line in lines]
    body = _weighted_median([(size, len(line.text)) for size, line in zip(sizes, lines, strict=True)])
    if body is None:
        return sizes
    return [body if abs(size - body) <= BODY_SPREAD * body else size for size in sizes]


def _weighted_median(pairs: list[tuple[float, float]]) -> float | None:
    """The value at the middle of (value, weight) pairs' total weight; None for none."""
    ordered = sorted(pairs)
    half, seen = sum(weight for _, weight in ordered) / 2, 0.0
    for value, weight in ordered:
        seen += weight
        if seen >= half:
            return value
    return ordered[-1][0] if ordered else None


def _word_gaps(line: Line, size: float, placed: list[tuple[int, int, Box]]) -> list[list[float]]:
    """``[offset, x1, x0]`` for each wide space: its offset in the text, where the word before
    it ends and the next begins (the evidence's ``gaps``); ``placed``: the line's words where
    ``_word_offsets`` found them."""
    words = [box for _, box in line.words]
    return [[end, round(box[2], 2), round(words[k + 1][0], 2)] for k, (_, end, box) in enumerate(placed)
            if k + 1 < len(words) and end < len(line.text) and line.text[end] == " "
            and words[k + 1][0] - box[2] >= GAP_EM * size]
