"""OCR of a page record in the extraction child (``--ocr``): which pages, and which parts of
them, are read, and how what was read joins the record.

``always`` reads every page; ``auto`` reads the pages with no usable text layer (``no_text``,
``garbled``) and, on a page that has one, the large images no text lies over (a page half set,
half scanned) or only a few words do (a page scanned whole, its footer stamped as text), saying
so in ``ocr.regions`` (the boxes read); of those, the images of text only, not photos
(:func:`siftpdf.child.ocr.text_like`). A recognized page has ``"status": "ocr"``, its text
from the lines read, ``ocr: {engine, confidence, dpi}`` and, with evidence, those lines
with their boxes in place of the text layer's, so organization reads them like any page. A
blank scan reads as nothing: ``empty``, never invented text. An engine failure keeps the page
as it was, with ``ocr_error``, and is counted.
"""

from __future__ import annotations

from ..lazyre import lazy

TYPE_CHECKING = False  # not typing's: the child imports no typing (siftpdf.docline)
if TYPE_CHECKING:
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

Box = tuple[float, float, float, float]  # [x0, y0, x1, y1], points


def recognize(doc: Any, record: dict[str, Any], mode: str, reading: dict[str, Any] | None = None,
              models: str | None = None, threads: int = 1) -> dict[str, Any]:
    """The record with what OCR read on its page (``mode`` auto or always). ``reading`` holds
    what OCR learnt of the document so far (its :class:`siftpdf.child.ocr.Hint`), made on the
    first page read: a document none of whose pages needs reading never loads the OCR module.
    ``models``: where PP-OCR's int8 models are made (:func:`siftpdf.child.ocr.use_models`);
    ``threads``: the cores a page may be read with (more than one when no other child reads)."""
    status = record["status"]
    regions: list[Box] | None = None
    layer: list[Box] = []
    if status == "text" and mode == "auto":
        regions, layer = _unread_images(doc, record)
        if not regions:
            return record
    elif mode == "auto" and status not in AUTO_STATUSES:
        return record  # a blank page (no text, no image): nothing to read
    if not hasattr(doc, "rendered"):  # a salvage engine read the document: nothing renders it
        return _failed(record, "the page was read by a salvage engine, which cannot render it")
    from . import ocr

    reading = {} if reading is None else reading
    try:
        with doc.rendered(record["page"] - 1) as page:
            if regions is not None:
                regions = ocr.text_like(page, regions)  # a photo is no text to read
                if not regions:
                    return record
            hint = reading.get("hint")
            if hint is None:
                ocr.use_models(models)
                hint = reading["hint"] = ocr.Hint()
            found = ocr.recognize_page(page, regions=regions, hint=hint, threads=threads)
    except (ocr.OcrError, MemoryError) as exc:
        return _failed(record, str(exc) or type(exc).__name__)
    kept = [line for line in found.lines if line.confidence >= MIN_CONFIDENCE or _ADDRESS.search(line.text)]
    info: dict[str, Any] = {"engine": f"{found.engine.name} {found.engine.version}",
                            "confidence": ocr.mean_confidence(kept), "dpi": found.dpi}
    if len(kept) < len(found.lines):
        info["dropped_lines"] = len(found.lines) - len(kept)
    kept = [line for line in kept if not _in_layer(line.box, layer)]
    if found.capped:
        info["capped"] = True
    if found.turned:
        info["turned"] = found.turned
    # A scan read turned upright has lines across the page's space: organization (which reads
    # lines as they lie on the page) gets none of them, and the text keeps the engine's order.
    lines = ocr.evidence_lines(kept) if not found.turned else []
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
        text = [r["box"] for line in evidence.get("lines", []) for r in line.get("runs", [])
                if len(r.get("box", ())) == 4]
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


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _in_layer(box: Box, layer: list[Box]) -> bool:
    """Does a recognized line's box lie mostly inside the boxes of the text layer's text?"""
    if not layer:
        return False
    inside = sum(_area((max(box[0], b[0]), max(box[1], b[1]), min(box[2], b[2]), min(box[3], b[3])))
                 for b in layer)
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
