"""The XY-cut's reading order over plain boxes: what it reads first and last."""

from __future__ import annotations

from dataclasses import dataclass

from siftpdf.organize.xycut import xy_cut


@dataclass
class Box:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    kind: str = "line"


def _line(text: str, x0: float, x1: float, y: float) -> Box:
    return Box(text, x0, y - 2.0, x1, y + 8.0)


def _columns_with_shared_gaps() -> list[Box]:
    """A head across the page; two columns of prose whose blank lines fall at the same heights
    (a channel of whitespace across both, as between two paragraphs of each); then a heading on
    the left alone and a paragraph across the page."""
    boxes = [_line("Running head across the whole page width", 50.0, 560.0, 760.0)]
    y = 720.0
    for row in range(12):
        if row in (4, 8):  # a blank line in both columns at once
            y -= 12.0
        boxes.append(_line(f"left{row} " + "words of the left column " * 2, 50.0, 290.0, y))
        boxes.append(_line(f"right{row} " + "words of the right column " * 2, 320.0, 560.0, y))
        y -= 12.0
    boxes.append(_line("2 Heading on the left", 50.0, 160.0, y - 20.0))
    boxes += [_line(f"full{k} " + "text across the page " * 4, 50.0, 560.0, y - 40.0 - 12.0 * k) for k in range(3)]
    return boxes


def test_columns_sharing_blank_lines_are_read_column_by_column():
    leaves, _ = xy_cut(_columns_with_shared_gaps(), 10.0, 612.0)
    order = [box.text.split()[0] for leaf, _ in leaves for box in sorted(leaf, key=lambda b: -b.y1)]
    assert order == ["Running", *[f"left{k}" for k in range(12)], *[f"right{k}" for k in range(12)],
                     "2", "full0", "full1", "full2"]


def test_sections_cost_a_few_cuts_a_band(monkeypatch):
    """Under a title across the page, lines of the left column and of the right by turns, each a
    band of its own: any two on end make columns, yet no band has text both sides of the
    channel, so they make no section. The cuts tried stay a few per band, not one per pair of
    bands (a hostile page of many lines costs no more)."""
    from siftpdf.organize import xycut

    tried = []
    vertical = xycut._vertical
    monkeypatch.setattr(xycut, "_vertical", lambda *args: tried.append(len(args[0])) or vertical(*args))
    boxes = [_line("A title across the page " * 3, 50.0, 560.0, 790.0)]
    for k in range(150):
        x0, x1 = (50.0, 290.0) if k % 2 == 0 else (320.0, 560.0)
        boxes.append(_line(f"line{k} " + "words of one column " * 3, x0, x1, 760.0 - 24.0 * k))
    leaves, _ = xy_cut(boxes, 10.0, 612.0)
    assert sorted(box.text for leaf, _ in leaves for box in leaf) == sorted(box.text for box in boxes)
    assert len(tried) <= (xycut.SECTION_TRIES + 2) * len(boxes)
