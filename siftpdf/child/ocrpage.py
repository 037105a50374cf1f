"""OCR of a page record in the extraction child (``--ocr``): which pages, and which parts of
them, are read, and how what was read joins the record.

``always`` reads every page; ``auto`` reads the pages with no usable text layer (``no_text``,
``garbled``) and, on a page that has one, the large images no text lies over (a page half set,
half scanned) or only a few words do (a page scanned whole, its footer stamped as text), saying
so in ``ocr.regions`` (the boxes read); of those, the images of text only, not photos
(:func:`siftpdf.child.ocr.text_like`). Text whose glyphs map to no character (its text the
font's codes: '!"#$%&' for a heading) is read too: in its boxes (``ocr.regions``), or the page
whole where most of its text is such. A recognized page has ``"status": "ocr"``, its text
from the lines read, ``ocr: {engine, confidence, dpi}`` and, with evidence, those lines
with their boxes in place of the text layer's, so organization reads them like any page. A
blank scan reads as nothing: ``empty``, never invented text. An engine failure keeps the page
as it was, with ``ocr_error``, and is counted.
"""

from __future__ import annotations

from ..lazyre import lazy
from ..texfonts import tex_encoding

TYPE_CHECKING = False  # not typing's: the child imports no typing (siftpdf.docline)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

AUTO_STATUSES = ("no_text", "garbled")
# In auto mode, an image of a text page is read when it covers this share of the page and no
# text of the layer lies over it: a scanned half page, not a logo or a small figure.
REGION_SHARE = 0.15
# An image over this share of the page is read also when a little text of the layer lies over
# it, text whose boxes cover less than SPARSE_TEXT of the image (about four lines over a page):
# a page scanned whole with a stamped footer or a few words typed on it. A scan with a text
# layer made by OCR (most of its words over the image) is not read again.
SCAN_SHARE = 0.5
SPARSE_TEXT = 0.05
# A recognized line whose box lies this much inside the text layer's boxes is text the layer
# already has (the stamped footer, the few words over a scan): the layer's reading stays.
LAYER_OVERLAP = 0.5
MAX_REGIONS = 4
# Lines the engine is less sure of than this are dropped (and counted in ``ocr.dropped_lines``):
# on generated scans they are noise read from specks, rules and half-cut heads, not text.
MIN_CONFIDENCE = 0.3
# ... but for a line that holds an address (a URL, an email): it is no word the engine's
# dictionary knows, so tesseract is unsure of it however clearly printed (a book's footnoted
# links read whole at confidence 0); specks never read as one.
_ADDRESS = lazy(r"\w://\S|www\.\S|\S@[\w-]+\.\w")
# ... and but for a line that ends a word the line before broke with a hyphen ('deep-' over
# 'freeze⁹, seamless-immutable¹⁰'): the engine is unsure of the marks set small in it.
_BROKEN = lazy(r"[^\W\d_]-$")
_GOES_ON = lazy(r"[^\W\d_A-Z]{3}")

Box = tuple[float, float, float, float]  # [x0, y0, x1, y1], points


def _kept(found: Any) -> tuple[list[Any], dict[str, Any]]:
    """The lines of a reading (:class:`siftpdf.child.ocr.PageText`) OCR was sure enough of (and those
    an address, or a line broken off before them, keeps), and what the page record tells of it."""
    from . import ocr

    kept: list[Any] = []
    for line in found.lines:
        if line.confidence >= MIN_CONFIDENCE or _ADDRESS.search(line.text) or \
                kept and _BROKEN.search(kept[-1].text) and _GOES_ON.match(line.text):
            kept.append(line)
    info: dict[str, Any] = {"engine": f"{found.engine.name} {found.engine.version}",
                            "confidence": ocr.mean_confidence(kept), "dpi": found.dpi}
    if len(kept) < len(found.lines):
        info["dropped_lines"] = len(found.lines) - len(kept)
    if found.capped:
        info["capped"] = True
    if found.turned:
        info["turned"] = found.turned
    return kept, info


def recognize(doc: Any, record: dict[str, Any], mode: str, reading: dict[str, Any] | None = None,
              models: str | None = None, threads: int = 1) -> dict[str, Any]:
    """The record with what OCR read on its page (``mode`` auto or always). ``reading`` holds
    what OCR learnt of the document so far (its :class:`siftpdf.child.ocr.Hint`, made on the
    first page read: a document none of whose pages needs reading never loads the OCR module;
    the fonts found numbered in order of use, under ``cipher``).
    ``models``: where PP-OCR's int8 models are made (:func:`siftpdf.child.ocr.use_models`);
    ``threads``: the cores a page may be read with (more than one when no other child reads)."""
    status = record["status"]
    regions: list[Box] | None = None
    layer: list[Box] = []
    unread: list[dict[str, Any]] = []
    reading = {} if reading is None else reading
    if status == "text" and mode == "auto":
        regions, layer = _unread_images(doc, record)
        whole, unread = _unread_runs(record, reading.setdefault("cipher", set()))
        if whole:
            regions, layer, unread = None, [], []  # a layer mostly of codes: the page is read whole
        elif not regions and not unread:
            return record
    elif mode == "auto" and status not in AUTO_STATUSES:
        return record  # a blank page (no text, no image): nothing to read
    if not hasattr(doc, "rendered"):  # a salvage engine read the document: nothing renders it
        return _failed(record, "the page was read by a salvage engine, which cannot render it")
    from . import ocr

    try:
        with doc.rendered(record["page"] - 1) as page:
            if regions is not None:
                regions = [*(ocr.text_like(page, regions) if regions else []), *_regions_of(unread)]  # not photos
                if not regions:
                    return record
            hint = reading.get("hint")
            if hint is None:
                ocr.use_models(models)
                hint = reading["hint"] = ocr.Hint()
            found = ocr.recognize_page(page, regions=regions, hint=hint, threads=threads)
    except (ocr.OcrError, MemoryError) as exc:
        return _failed(record, str(exc) or type(exc).__name__)
    kept, info = _kept(found)
    if unread:  # what OCR reads again there that the layer has as text stays the layer's
        layer += _without(record, unread)
    kept = [line for line in kept if not _in_layer(line.box, layer)]
    # A scan read turned upright has lines across the page's space: organization (which reads
    # lines as they lie on the page) gets none of them, and the text keeps the engine's order.
    lines = ocr.evidence_lines(kept) if not found.turned else []
    if unread:
        _in_their_type(lines, unread)
    text = "\n".join(line.text for line in kept if line.text.strip())
    if regions is not None:
        record = _with_regions(record, info, regions, lines, text)
    else:
        record = _whole_page(record, info, lines, text)
    evidence = record.get("evidence")
    if isinstance(evidence, dict) and found.rules and not found.turned:  # ruling drawn in the image
        evidence["rules"] = [*evidence.get("rules", []), *([round(v, 2) for v in rule] for rule in found.rules)]
    return record


def _whole_page(record: dict[str, Any], info: dict[str, Any], lines: list[dict[str, Any]], text: str,
                ) -> dict[str, Any]:
    if not text.strip():
        if record["status"] in AUTO_STATUSES:
            record["status"], record["text"] = "empty", ""  # a blank scan: nothing is made up
        record["ocr"] = info  # read, and nothing found
        return record
    record["text"], record["status"], record["ocr"] = text, "ocr", info
    evidence = record.get("evidence")
    if isinstance(evidence, dict):
        if "turned" in info:
            del record["evidence"]  # organization passes the page through, in reading order
        else:
            evidence["lines"] = lines
    return record


def _with_regions(record: dict[str, Any], info: dict[str, Any], regions: list[Box],
                  lines: list[dict[str, Any]], text: str) -> dict[str, Any]:
    info["regions"] = [[round(v, 2) for v in region] for region in regions]  # what was read, in points
    record["ocr"] = info
    if not text.strip():
        return record
    record["text"] = f"{record['text'].rstrip()}\n{text}"
    evidence = record.get("evidence")
    if isinstance(evidence, dict):  # not with --raw
        evidence["lines"] = sorted([*evidence.get("lines", []), *lines], key=lambda line: -float(line.get("y", 0)))
    return record


def _unread_images(doc: Any, record: dict[str, Any]) -> tuple[list[Box], list[Box]]:
    """The page's large images that no text of its layer lies over, or (over most of the page)
    that only a little text does, largest first; and the boxes of the text over them. From the
    evidence, or (``--raw``) from the page's objects."""
    evidence = record.get("evidence")
    if isinstance(evidence, dict):
        width, height = float(evidence.get("width") or 0), float(evidence.get("height") or 0)
        images = [tuple(image.get("rect", (0, 0, 0, 0))) for image in evidence.get("images", [])]
        text = [r["box"] for r in _all_runs(record) if len(r.get("box", ())) == 4]
    elif hasattr(doc, "page_shape"):
        width, height, images, text = doc.page_shape(record["page"] - 1)
    else:
        return [], []
    area = width * height
    if area <= 0:
        return [], []
    found: list[Box] = []
    layer: dict[Box, None] = {}  # the text over the images read, each box once
    for x0, y0, x1, y1 in sorted(images, key=lambda r: -_area(r)):
        size = (x1 - x0) * (y1 - y0)
        if size < REGION_SHARE * area or len(found) == MAX_REGIONS:
            break  # the rest are smaller
        over = [box for box in text if x0 <= (box[0] + box[2]) / 2 <= x1 and y0 <= (box[1] + box[3]) / 2 <= y1]
        if over and (size < SCAN_SHARE * area or sum(_area(box) for box in over) >= SPARSE_TEXT * size):
            continue
        found.append((x0, y0, x1, y1))
        layer.update(dict.fromkeys(tuple(box) for box in over))
    return found, list(layer)


# A run whose glyphs are mostly without a Unicode mapping and whose text is no writing reads as
# its font's codes ('!"#$%&' for a heading, control characters for a Type 3 font's words): with
# ``auto``, the lines such runs make are read by OCR in their place. PDFium flags glyphs of many
# fonts whose text it still reads right ('http:', 'Faktura nr 1/2021'): those stay.
UNMAPPED_SHARE = 0.5
UNMAPPED_CHARS = 3  # a bullet or a sign alone in a symbol font is no text to read
PLAIN_SHARE = 0.5  # of a run's characters, printable ASCII or letters and digits of scripts past Latin
MAX_UNMAPPED_REGIONS = 12  # more parts of a page than this: its text's whole box is read once
UNREAD_PAGE = 0.5  # of a page's characters, codes that make it a page read whole, as a scan is
RAW_CODES = 20  # visible characters of a page without evidence at least, to be told codes by its counts
CONTROL_SHARE = 0.02  # of a raw page's characters, control characters that say its glyphs have no map
# A font numbered in order of use: on a page its characters start at '!' (or U+0001-U+0003) and
# run on code after code with few gaps, few of them letters (the first codes, not the letters).
_CIPHER_FIRST = "!\x01\x02\x03"
CIPHER_RUN = 6  # codes one after the other from the first, at least
CIPHER_FILL = 0.8  # of the codes from the first to the last, the share the page uses


def _all_runs(record: dict[str, Any]) -> list[dict[str, Any]]:
    evidence = record.get("evidence")
    return [run for line in evidence.get("lines", []) for run in line.get("runs", [])] \
        if isinstance(evidence, dict) else []


def _visible(runs: list[dict[str, Any]]) -> int:
    return sum(len(str(run.get("text", "")).replace(" ", "")) for run in runs)


def codes_only(text: str, evidence: dict[str, Any] | None, unmapped: int = 0) -> bool:
    """Whether a page's text layer (its ``text``, and its ``evidence`` when it was asked for) is
    mostly its fonts' codes, not characters: the page ``auto`` reads whole, as a scan, and that
    the engine calls ``garbled``. Without evidence, ``unmapped`` counts the page's glyphs that
    map to no character, where the text has few words (``few_words``)."""
    record = {"text": text, "unmapped": unmapped} if evidence is None else {"text": text, "evidence": evidence}
    return _unread_runs(record, set())[0]


def few_words(text: str) -> bool:
    """Whether fewer than half of the text's visible characters are in words: two letters or
    more, set apart by spaces or punctuation (not by a control character, a figure or a sign,
    as in codes that read as letters: '3HQČåQt\x03SURVWĜHGN'). In any script:
    '甲方：中国饮料有限公司' is words, though no space parts them."""
    from unicodedata import category

    visible = len(text) - sum(map(text.count, (" ", "\n", "\t")))
    inside = 0
    for word in _WORDS.finditer(text):
        start, end = word.span()
        if (start == 0 or text[start - 1].isspace() or category(text[start - 1])[0] == "P") and \
                (end == len(text) or text[end].isspace() or category(text[end])[0] == "P"):
            inside += end - start
    return inside < WORDY * visible


def _unread_runs(record: dict[str, Any], cipher: set[str]) -> tuple[bool, list[dict[str, Any]]]:
    """Is the page's text layer mostly codes, not characters (most of its characters unmapped
    glyphs, and few of those spell words)? Else, the evidence's runs that read as codes, if any:
    runs mostly of unmapped glyphs in a font numbered in order of use (on this page or, in
    ``cipher``, which gains this page's, on one before it) or of characters no script writes.
    With ``--raw`` (no evidence, no runs), the page's text and its count of unmapped glyphs
    tell: few words, and mostly unmapped glyphs, or mostly characters no text is written in,
    some of them control characters (PDFium's reading of a Type 3 font without a map)."""
    evidence = record.get("evidence")
    if not isinstance(evidence, dict):
        from .evidence import looks_unreadable  # what the engine loads to tell a garbled page

        text = str(record.get("text", ""))
        visible = [char for char in text if not char.isspace()]
        if record.get("unmapped", 0) >= UNREAD_PAGE * len(visible) and len(visible) >= RAW_CODES and few_words(text):
            return True, []
        if not looks_unreadable(text, None):
            return False, []  # most pages, told by a count of bytes
        controls = sum(char < " " for char in visible)  # PDFium's reading of glyphs it has no map for
        return controls >= CONTROL_SHARE * len(visible) and few_words(text), []
    if not evidence.get("unmapped_chars"):
        return False, []  # most pages: every glyph mapped
    runs = _all_runs(record)
    flagged = [run for run in runs if _unmapped(run)]
    if not flagged:
        return False, []
    if _visible(flagged) >= UNREAD_PAGE * _visible(runs) and \
            few_words(" ".join(str(run.get("text", "")) for run in flagged)):
        return True, []
    cipher |= _cipher_fonts(runs, {str(run.get("font")) for run in flagged} - cipher)
    return False, [run for run in flagged if str(run.get("font")) in cipher or not _plain(str(run.get("text", "")))]


_WORDS = lazy(r"[^\W\d_]{2,}")  # a word: two letters or more, of any script
WORDY = 0.5  # of a page's visible characters (or its unmapped glyphs'), those in words: still text


def _unmapped(run: dict[str, Any]) -> bool:
    """Mostly unmapped glyphs, of a font not read through a TeX math encoding."""
    unmapped, visible = run.get("unmapped", 0), len(str(run.get("text", "")).replace(" ", ""))
    return type(unmapped) is int and unmapped >= UNMAPPED_CHARS and unmapped > UNMAPPED_SHARE * visible and \
        tex_encoding(str(run.get("font", ""))) is None and len(run.get("box", ())) == 4


def _plain(text: str) -> bool:
    """Mostly printable ASCII, or letters and digits of scripts past Latin."""
    chars = text.replace(" ", "")
    return sum(" " < char < "\x7f" or char > "\u024f" and char.isalnum() for char in chars) >= PLAIN_SHARE * len(chars)


def _cipher_fonts(runs: list[dict[str, Any]], fonts: set[str]) -> set[str]:
    """Of ``fonts``, those whose characters on the page are codes handed out in order of use."""
    found = set()
    for font in fonts:
        text = "".join(str(run.get("text", "")) for run in runs if run.get("font") == font).replace(" ", "")
        codes = sorted(map(ord, set(text)))
        if len(codes) >= CIPHER_RUN and chr(codes[0]) in _CIPHER_FIRST and \
                codes[CIPHER_RUN - 1] - codes[0] == CIPHER_RUN - 1 and \
                len(codes) >= CIPHER_FILL * (codes[-1] - codes[0] + 1):
            found.add(font)
    return found


def _regions_of(runs: list[dict[str, Any]]) -> list[Box]:
    """The boxes (in points) to read for ``runs``: each with a margin of its size round it, those
    on lines one over the next within a line's height of each other joined."""
    boxes = []
    for run in runs:
        (x0, y0, x1, y1), size = run["box"], float(run.get("size") or 0)
        boxes.append([x0 - size / 2, y0 - 0.4 * size, x1 + size / 2, y1 + 0.4 * size])
    joined: list[list[float]] = []
    for box in sorted(boxes, key=lambda b: -b[3]):
        last = joined[-1] if joined else None
        if last is not None and box[3] >= last[1] - (last[3] - last[1]) and box[0] < last[2] and box[2] > last[0]:
            last[:] = [min(last[0], box[0]), min(last[1], box[1]), max(last[2], box[2]), max(last[3], box[3])]
        else:
            joined.append(box)
    if len(joined) > MAX_UNMAPPED_REGIONS:
        joined = [[min(b[0] for b in joined), min(b[1] for b in joined), max(b[2] for b in joined),
                   max(b[3] for b in joined)]]
    return [(b[0], b[1], b[2], b[3]) for b in joined]


def _in_their_type(lines: list[dict[str, Any]], unread: list[dict[str, Any]]) -> None:
    """Recognized runs that lie over a run of codes read again take its font and size: the
    layer knew them (a heading's bold face and its size), only its characters were wrong."""
    for line in lines:
        for run in line.get("runs", []):
            box = run["box"]
            over = max(unread, key=lambda old: _area(_meet(box, old["box"])))
            if _area(_meet(box, over["box"])) > TYPE_OVERLAP * _area(box):
                run["font"], run["size"] = over.get("font", run["font"]), over.get("size", run["size"])
        line["size"] = max((run["size"] for run in line.get("runs", [])), default=line.get("size"))


TYPE_OVERLAP = 0.5  # of a recognized run's box, the share over a run of codes that gives it its type


def _meet(one: Sequence[float], other: Sequence[float]) -> Box:
    return (max(one[0], other[0]), max(one[1], other[1]), min(one[2], other[2]), min(one[3], other[3]))


def _without(record: dict[str, Any], runs: list[dict[str, Any]]) -> list[Box]:
    """The evidence without ``runs`` (OCR read them again; the page's unmapped_chars still counts
    them); returns the boxes of the runs that stay, the text the layer has."""
    evidence = record["evidence"]
    gone = {id(run) for run in runs}
    kept, boxes = [], []
    for line in evidence.get("lines", []):
        stay = [run for run in line.get("runs", []) if id(run) not in gone]
        if stay:
            kept.append({**line, "runs": stay})
            boxes += [tuple(run["box"]) for run in stay if len(run.get("box", ())) == 4]
    evidence["lines"] = kept
    return boxes


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _in_layer(box: Box, layer: list[Box]) -> bool:
    """Does a recognized line's box lie mostly inside the boxes of the text layer's text?"""
    if not layer:
        return False
    inside = sum(_area(_meet(box, b)) for b in layer)
    return inside >= LAYER_OVERLAP * max(_area(box), 1e-9)


def _failed(record: dict[str, Any], why: str) -> dict[str, Any]:
    record["ocr_error"] = why[:300]
    return record


def count_page(tally: dict[str, int], record: dict[str, Any]) -> None:
    """Add a page record to the document's OCR tally (``done.ocr``): pages recognized, image
    regions read on pages with a text layer, pages read that held nothing, renders held to
    the size cap, pages whose recognition failed."""
    info = record.get("ocr")
    if isinstance(info, dict):
        if "regions" in info:
            _add(tally, "regions", len(info["regions"]))
        elif record.get("status") == "ocr":
            _add(tally, "pages")
        else:
            _add(tally, "blank")
        if info.get("capped"):
            _add(tally, "capped")
    if "ocr_error" in record:
        _add(tally, "failed")


def _add(tally: dict[str, int], key: str, by: int = 1) -> None:
    tally[key] = tally.get(key, 0) + by
