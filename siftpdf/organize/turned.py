"""Pages read sideways: a landscape table drawn turned on a portrait page, or a page whose
``/Rotate`` turns text drawn up the page into a page that reads across. Most of such a page's
characters run up (90°) or down (270°) the page's user space; organized as they stand, each
of its lines is a turned line of its own and the page reads as a heap of labels.

:func:`upright` gives the page's evidence as a reader holding the page turned sees it: every
box turned a quarter, the runs that now read across regrouped into lines by their baselines,
the ruling and the images turned with them, the width and the height swapped. The page is
organized from that; the rectangles its blocks and furniture cite are turned back into the
page's own space (:func:`page_rect`), so that every page of a document cites in one space.
"""

from __future__ import annotations

from .layout import coordinate, page_size

TYPE_CHECKING = False  # not typing's: a cold command imports no typing (tests/test_quick.py)
if TYPE_CHECKING:
    from typing import Any

TURN_SHARE = 0.6  # of a page's characters, the least share running one way up or down the page
TURNS = (90, 270)
SAME_BASELINE = 0.3  # of the type's size: turned runs whose baselines stand closer are one line
DESCENT = 0.2  # of the type's size: a run's baseline above the foot of its box

Box = list[float]


def turn_of(evidence: dict[str, Any]) -> int:
    """The angle most of the page's text runs at (90: up the page, 270: down it), when one
    holds ``TURN_SHARE`` of its characters; 0 for a page that reads across."""
    counts = {turn: 0 for turn in TURNS}
    total = 0
    for line in evidence.get("lines") or []:
        for run in line.get("runs") or []:
            chars = len(str(run.get("text", "")))
            total += chars
            if run.get("angle") in counts:
                counts[run["angle"]] += chars
    turn = max(TURNS, key=counts.__getitem__)
    return turn if total and counts[turn] >= TURN_SHARE * total else 0


def turned_box(box: Box, turn: int, width: float, height: float) -> Box:
    """A box of the page's space as the page turned upright shows it (``width`` and
    ``height``: the page's own)."""
    x0, y0, x1, y1 = (coordinate(v) for v in box)
    if turn == 90:  # read up the page: across is y, up is -x
        return [y0, width - x1, y1, width - x0]
    return [height - y1, x0, height - y0, x1]  # read down the page: across is -y, up is x


def page_rect(rect: Box, turn: int, width: float, height: float) -> Box:
    """A rectangle of the upright view back in the page's own space (:func:`turned_box`
    undone)."""
    x0, y0, x1, y1 = rect
    if turn == 90:
        out = [width - y1, x0, width - y0, x1]
    else:
        out = [y0, height - x1, y1, height - x0]
    return [round(v, 2) for v in out]


def upright(evidence: dict[str, Any], turn: int) -> dict[str, Any]:
    """A copy of the evidence as the page turned upright shows it: runs read up or down the
    page at ``turn`` become lines that read across; the page's other runs (now turned) stay
    lines of their own, marked turned, as any turned label is."""
    width, height = page_size(evidence)
    across: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    lines = evidence.get("lines") or []
    # Evidence that gives glyphs drawn alone their angle (siftpdf.child.evidence's
    # _glyph_angle) says so by giving a turned one its angle: a glyph alone without one then
    # stands upright on the page (a running head set glyph by glyph), its glyphs one run again.
    measured = any(len(str(run.get("text", ""))) == 1 and "angle" in run for line in lines
                   for run in line.get("runs") or [])
    for line in lines:
        for run in _glyphs_joined(line.get("runs") or []) if measured else line.get("runs") or []:
            box = turned_box(run["box"], turn, width, height)
            moved = {key: value for key, value in run.items() if key not in ("angle", "gaps", "box", "y")}
            moved["box"] = box
            moved["y"] = round(box[1] + DESCENT * float(run.get("size") or 0.0), 2)
            if run.get("angle") == turn or "angle" not in run and _upright_run(run, measured):
                across.append(moved)
            else:
                moved["angle"] = 270 if turn == 90 else 90  # what read across the page now reads down (up) it
                other.append({"y": moved["y"], "size": moved.get("size", 0.0), "runs": [moved], "rotated": True})
    out = dict(evidence)
    out["width"], out["height"], out["rotation"] = height, width, 0
    out["lines"] = sorted(_lines(across) + other, key=lambda line: -line["y"])
    out["rules"] = [_turned_rule(rule, turn, width, height) for rule in evidence.get("rules") or []]
    out["images"] = [{**image, "rect": turned_box(image["rect"], turn, width, height)}
                     for image in evidence.get("images") or []]
    return out


WORD_SPACE = 0.15  # of the type's size: a gap this wide between two glyphs drawn alone is a space
GLYPH_GAP = 1.0  # of the type's size: glyphs drawn alone this far apart are not one run


def _glyphs_joined(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A line's runs, the glyphs drawn alone without an angle (upright on the page) joined into
    the runs of text they spell when they stand close in one font and size: once the page is
    turned each would be a label of its own."""
    out: list[dict[str, Any]] = []
    joining = False  # the last run out is glyphs joined
    for run in runs:
        if out and _alone_upright(run) and (joining or _alone_upright(out[-1])):
            last = out[-1]
            size = float(run.get("size") or 0.0)
            gap = coordinate(run["box"][0]) - coordinate(last["box"][2])
            if last.get("size") == run.get("size") and last.get("font") == run.get("font") and \
                    -WORD_SPACE * size <= gap <= GLYPH_GAP * size:
                last["text"] = f"{last['text']}{' ' if gap > WORD_SPACE * size else ''}{run['text']}"
                last["box"] = [min(last["box"][0], run["box"][0]), min(last["box"][1], run["box"][1]),
                               max(last["box"][2], run["box"][2]), max(last["box"][3], run["box"][3])]
                joining = True
                continue
        out.append(dict(run))
        joining = False
    return out


def _alone_upright(run: dict[str, Any]) -> bool:
    return len(str(run.get("text", ""))) == 1 and "angle" not in run


def _upright_run(run: dict[str, Any], measured: bool) -> bool:
    """Whether a run the evidence gave no angle belongs with the page's turned text: a run of
    a character or two is given none (nothing tells which way it runs, its box no taller than
    two lines), so one whose box stands taller than wide, or a single character, is read as
    the turned text around it; but where the evidence gives glyphs alone their angle
    (``measured``), a glyph alone without one is upright on the page, no turned text."""
    x0, y0, x1, y1 = (coordinate(v) for v in run["box"])
    if len(str(run.get("text", "")).strip()) <= 1:
        return not measured
    return y1 - y0 > x1 - x0


def _lines(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Runs grouped into lines by their baselines, top down, each line's runs left to right."""
    lines: list[dict[str, Any]] = []
    for run in sorted(runs, key=lambda r: -r["y"]):
        size = float(run.get("size") or 0.0)
        if lines and abs(lines[-1]["y"] - run["y"]) <= SAME_BASELINE * max(size, lines[-1]["size"]):
            lines[-1]["runs"].append(run)
            lines[-1]["size"] = max(lines[-1]["size"], size)
        else:
            lines.append({"y": run["y"], "size": size, "runs": [run]})
    for line in lines:
        line["runs"].sort(key=lambda r: r["box"][0])
    return lines


def _turned_rule(rule: Box, turn: int, width: float, height: float) -> Box:
    """A rule (a segment along an axis, x0 y0 x1 y1) turned with the page."""
    box = turned_box([min(rule[0], rule[2]), min(rule[1], rule[3]), max(rule[0], rule[2]), max(rule[1], rule[3])],
                     turn, width, height)
    return [round(v, 2) for v in box]


def turn_back(blocks: list[Any], furniture: list[dict[str, Any]], page: int, turn: int, width: float,
              height: float) -> None:
    """The rectangles this page's blocks and furniture cite, turned back into the page's own
    space (``width`` and ``height``: the page's own, not the upright view's)."""
    for spans in [block.spans for block in blocks] + [item.get("spans") or [] for item in furniture]:
        for span in spans:
            if span.get("page") == page:
                span["rect"] = page_rect(span["rect"], turn, width, height)
