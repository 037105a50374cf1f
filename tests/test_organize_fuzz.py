"""Organization fuzzed over generated evidence: it never fails on a page, never
loses a word, and costs time in proportion to what it is given.

The evidence is made the way ``siftpdf.child.evidence`` makes it (lines top down, runs left to right)
and also the way a hostile or hand-edited saved stream may carry it: degenerate and huge boxes,
overlapping lines, sizes of zero. ``make fuzz`` runs the same properties with many more examples
(``SIFTPDF_FUZZ_EXAMPLES``, read by this file only).
"""

from __future__ import annotations

import copy
import gc
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

import siftpdf
from siftpdf.organize import organize_records
from siftpdf.organize.layout import Item, _overruns, find_gutter, join_lines, join_text, line_segments, reading_order
from siftpdf.settings import OrganizeOptions

FUZZ_EXAMPLES = int(os.environ.get("SIFTPDF_FUZZ_EXAMPLES", "0"))


def _settings(examples: int, fuzz_share: int = 1) -> settings:
    """A quick, repeatable run in the test suite; ``make fuzz`` asks for more, at random."""
    return settings(max_examples=FUZZ_EXAMPLES // fuzz_share or examples, deadline=None, database=None,
                    derandomize=not FUZZ_EXAMPLES, print_blob=bool(FUZZ_EXAMPLES),
                    suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate, Phase.shrink])


# --- evidence -------------------------------------------------------------------------------

LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
CJK = "第一二三十条章节国家广播电视总局负责管理传送业务的节目。、（）０１２３４５６７８９"
MARKS = ".,;:-–—()[]§•*|/ "
FONTS = ["Times-Roman", "Times-Bold", "Helvetica", "CMBX10", "SimHei", "ABCDEF+Arial-BoldMT", ""]
SIZES = [10.0, 10.0, 10.0, 9.0, 8.0, 12.0, 14.0, 18.0, 24.0]
ODD_SIZES = [0.0, 0.01, 1.0, 500.0, 1e6, -10.0, 1e300, 1.7e308]
HUGE = [0.0, -1.0, -1e12, 1e12, 1e300, -1e300, 5e-324, 1.7e308, -1.7e308]
COORD = st.floats(allow_nan=False, allow_infinity=False)

words = st.one_of(
    st.text(LATIN, min_size=1, max_size=10),
    st.text(CJK, min_size=1, max_size=8),
    st.sampled_from(["the", "of", "and", "river", "flood", "第三条", "Article 3", "§ 4", "(a)", "•", "1.",
                     "Figure 2", "Table 1", "I. INTRODUCTION", "2.1", "— 5 —", "Page 3 of 9", "......... 12",
                     "第一章", "第二节", "A. Scope", "（一）", "- item", "Fig. 3", "图 2"]),
    st.text(LATIN + CJK + MARKS, min_size=1, max_size=6),
    st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=4),
)


# The bulk of a page (which word, which gap, which run is clipped) comes from a seeded random
# generator: drawing every glyph run through hypothesis costs more than organizing it. The
# shape of the page (its kind, size, line count, vocabulary) is drawn, and shrinks.
def _run(text: str, x0: float, y: float, size: float, font: str, width: float | None = None,
         clipped: bool = False) -> dict[str, Any]:
    x1 = x0 + (0.5 * size * len(text) if width is None else width)
    run: dict[str, Any] = {"text": text, "font": font, "size": size, "color": "#000000",
                           "box": [x0, y - 0.2 * size, x1, y + 0.8 * size]}
    if clipped:
        run["clipped"] = True
    return run


def _flowing_line(rng: random.Random, vocabulary: list[str], y: float, x0: float, right: float,
                  size: float, wide: float = 0.05) -> dict[str, Any]:
    """A line of text set from ``x0`` to ``right``, a word or a few to a run: now and then a
    short last line, an indented first line, a hyphen at the end, a ``wide`` gap."""
    x = x0 + rng.choice([0.0, 0.0, 0.0, 12.0, 30.0])
    font = FONTS[0] if rng.random() < 0.85 else rng.choice(FONTS)  # a body font, now and then another
    runs: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 14) if rng.random() < 0.25 else 60):
        text = " ".join(rng.choices(vocabulary, k=rng.choice([1, 1, 1, 3])))
        run = _run(text, x, y, size, font, clipped=rng.random() < 0.03)
        if run["box"][2] > right and runs:
            break
        runs.append(run)
        x = run["box"][2] + (2 * size if rng.random() < wide else rng.choice([0.0, 0.3 * size]))
    if rng.random() < 0.3:
        runs[-1]["text"] += "-"
    return {"y": y, "size": size, "runs": runs}


def _coordinate(rng: random.Random, low: float, high: float) -> float:
    return rng.choice(HUGE) if rng.random() < 0.1 else rng.uniform(low, high)


def _wild_line(rng: random.Random, vocabulary: list[str], width: float, height: float) -> dict[str, Any]:
    """Anything a saved stream may carry: boxes of zero or negative width, huge coordinates,
    runs out of order and overlapping, raised runs, sizes of zero."""
    size = rng.choice(SIZES + ODD_SIZES)
    y = _coordinate(rng, -10, height + 10)
    runs = []
    for _ in range(rng.randint(1, 5)):
        width_of = rng.choice([None, None, 0.0, -5.0, rng.uniform(-50, 50), _coordinate(rng, 0, 1e6)])
        run = _run(rng.choice(vocabulary), _coordinate(rng, -10, width + 10), y, size, rng.choice(FONTS),
                   width_of, clipped=rng.random() < 0.1)
        if rng.random() < 0.2:
            run["y"] = y + rng.uniform(-5, 5)
            run["size"] = rng.choice(SIZES + ODD_SIZES)
        runs.append(run)
    if rng.random() < 0.5:
        runs.sort(key=lambda r: r["box"][0])
    return {"y": y, "size": size, "runs": runs}


def _cjk_line(rng: random.Random, y: float, size: float) -> dict[str, Any]:
    """CJK set a glyph to a run, no gaps."""
    text = "".join(rng.choices(CJK, k=rng.randint(1, 40)))
    return {"y": y, "size": size, "runs": [_run(ch, 72 + i * size, y, size, "SimSun") for i, ch in enumerate(text)]}


def _table_line(rng: random.Random, vocabulary: list[str], y: float, size: float, width: float,
                cells: int) -> dict[str, Any]:
    runs = [_run(rng.choice(vocabulary), 72 + c * (width - 144) / cells, y, size, "Helvetica") for c in range(cells)]
    if cells >= 2 and rng.random() < 0.3:  # one text object drawing two cells, a wide space between
        first, second = runs[0], runs.pop(1)
        first["gaps"] = [[len(first["text"]), first["box"][2], second["box"][0]]]
        first["text"] += " " + second["text"]
        first["box"][2] = second["box"][2]
    return {"y": y, "size": size, "runs": runs}


def _column_line(rng: random.Random, vocabulary: list[str], y: float, size: float, width: float) -> dict[str, Any]:
    """Two columns' lines on one baseline, as the evidence groups them; now and then a title
    across both."""
    if rng.random() < 0.15:
        return _flowing_line(rng, vocabulary, y, 72.0, width - 72, size)
    left = _flowing_line(rng, vocabulary, y, 72.0, width / 2 - 12, size, wide=0.0)
    right = _flowing_line(rng, vocabulary, y, width / 2 + 12, width - 72, size, wide=0.0)
    left["runs"] += [r for r in right["runs"] if r["box"][0] > left["runs"][-1]["box"][2]]
    return left


def _mixed_line(rng: random.Random, vocabulary: list[str], y: float, size: float, width: float,
                foot: bool) -> dict[str, Any]:
    """Any kind of line: a caption atop a column, a table row, a footnote at the foot of the
    left column (where a paragraph may go on in the right column, past it)."""
    choice = rng.randrange(5)
    if foot and rng.random() < 0.7:
        return _flowing_line(rng, vocabulary, y, 72.0, width / 2 - 12, 0.7 * size, wide=0.0)
    if choice == 0:
        line = _column_line(rng, vocabulary, y, size, width)
        line["runs"][0]["text"] = "Figure 1 " + line["runs"][0]["text"]
        return line
    if choice == 1:
        return _flowing_line(rng, vocabulary, y, 72.0, width - 72, 0.7 * size)
    if choice == 2:
        return _table_line(rng, vocabulary, y, size, width, 4)
    return _column_line(rng, vocabulary, y, size, width)


KINDS = ["flow", "flow", "columns", "table", "cjk", "wild", "mixed", "empty"]


@st.composite
def body_lines(draw: st.DrawFn, width: float, height: float) -> list[dict[str, Any]]:
    kind = draw(st.sampled_from(KINDS))
    size = draw(st.sampled_from(SIZES))
    pitch = size * draw(st.sampled_from([1.2, 1.2, 1.5, 0.5, 3.0]))
    count = 0 if kind == "empty" else draw(st.integers(0, 30))
    vocabulary = draw(st.lists(words, min_size=1, max_size=8))
    rng = random.Random(draw(st.integers(0, 2**32)))
    top = 0.85 * height
    cells = rng.randint(2, 6)
    make = {
        "flow": lambda y: _flowing_line(rng, vocabulary, y, 72.0, width - 72, size),
        "columns": lambda y: _column_line(rng, vocabulary, y, size, width),
        "table": lambda y: _table_line(rng, vocabulary, y, size, width, cells),
        "cjk": lambda y: _cjk_line(rng, y, size),
        "wild": lambda y: _wild_line(rng, vocabulary, width, height),
        "mixed": lambda y: _mixed_line(rng, vocabulary, y, size, width, foot=y < top - (count - 3) * pitch),
    }
    return [make[kind](top - k * pitch) for k in range(count)] if count else []


PAGE_SIZES = st.one_of(st.sampled_from([(612.0, 792.0), (595.0, 842.0), (842.0, 595.0), (0.0, 0.0)]),
                       st.tuples(st.floats(1, 5000), st.floats(1, 5000)), st.tuples(COORD, COORD))
FURNITURE = [None, "The Harbour Review", "— {} —", "Page {} of 99", "{}", "第{}页", "CHAPTER {} REPORT"]


@st.composite
def documents(draw: st.DrawFn, max_pages: int = 6) -> list[dict[str, Any]]:
    """Pages that share a size and perhaps a running head and a folio, each with a body of
    its own kind and perhaps a few images."""
    width, height = draw(PAGE_SIZES)
    rotation = draw(st.sampled_from([0, 90, 180, 270]))
    header, footer = draw(st.sampled_from(FURNITURE)), draw(st.sampled_from(FURNITURE))
    pages = []
    for number in range(1, draw(st.integers(0, max_pages)) + 1):
        w, h = (width or 612.0), (height or 792.0)
        lines = draw(body_lines(w, h))
        if header and draw(st.integers(0, 4)):
            lines.insert(0, {"y": 0.95 * h, "size": 9.0,
                             "runs": [_run(header.format(number), 72, 0.95 * h, 9.0, "Times-Italic")]})
        if footer and draw(st.integers(0, 4)):
            lines.append({"y": 0.04 * h, "size": 9.0,
                          "runs": [_run(footer.format(number), w / 2 - 20, 0.04 * h, 9.0, "Times-Roman")]})
        xs, ys = st.floats(min(0, w), max(0, w)), st.floats(min(0, h), max(0, h))
        images = [{"rect": list(rect), "pixels": [10, 10]} for rect in
                  draw(st.lists(st.tuples(COORD, COORD, COORD, COORD) | st.tuples(xs, ys, xs, ys), max_size=3))]
        evidence = {"width": width, "height": height, "rotation": rotation, "lines": lines, "images": images,
                    "clipped_chars": 0, "unmapped_chars": 0}
        if draw(st.integers(0, 2)):
            evidence["rules"] = _grid(lines, w, draw(st.integers(0, 3))) + \
                draw(st.lists(st.one_of(st.tuples(xs, ys, xs, ys).map(list), RULES), max_size=8))
        pages.append({"page": number, "status": "text", "text": _raw(lines), "evidence": evidence})
    return pages


# Rules as the evidence writes them, and as a damaged stream may hold them.
RULES = st.one_of(st.tuples(COORD, COORD, COORD, COORD).map(list),
                  st.lists(st.one_of(st.floats(), st.text(max_size=2), st.none(), st.booleans(), st.just([])),
                           max_size=5),
                  st.sampled_from([None, "x", {}, 1e308, [float("nan")] * 4, [0, 1e308, float("inf"), 5]]))


def _grid(lines: list[dict[str, Any]], width: float, style: int) -> list[list[float]]:
    """Rules around the page's lines as a table draws them: a full grid (style 1), rules
    between rows only (2), a booktabs top, header and bottom rule (3), none (0)."""
    if not style or not lines:
        return []
    ys = sorted({float(line["y"]) for line in lines}, reverse=True)
    size = float(lines[0]["size"])
    cuts = [ys[0] + size] + [(a + b) / 2 for a, b in zip(ys, ys[1:], strict=False)] + [ys[-1] - 0.4 * size]
    if style == 3:
        cuts = [cuts[0], cuts[min(1, len(cuts) - 1)], cuts[-1]]
    rules = [[36.0, y, width - 36.0, y] for y in cuts]
    if style == 1:
        rules += [[x, cuts[-1], x, cuts[0]] for x in (36.0, width / 3, 2 * width / 3, width - 36.0)]
    return rules


def _raw(lines: list[dict[str, Any]]) -> str:
    return "\n".join(" ".join(r["text"] for r in line["runs"]) for line in lines)


def _line(y: float, text: str, x0: float = 72.0, size: float = 10.0) -> dict[str, Any]:
    return {"y": y, "size": size, "runs": [_run(text, x0, y, size, "Times-Roman")]}


def _page_of(lines: list[dict[str, Any]], height: float = 792.0, width: float = 612.0) -> list[dict[str, Any]]:
    """A document of one page with these lines."""
    evidence = {"width": width, "height": height, "rotation": 0, "lines": lines, "images": [],
                "clipped_chars": 0, "unmapped_chars": 0}
    return [{"page": 1, "status": "text", "text": _raw(lines), "evidence": evidence}]


FULL = "the river drops its sand on the inside of each bend and cuts the outside bank"


options = st.builds(OrganizeOptions, furniture=st.booleans(), columns=st.booleans(), join=st.booleans(),
                    hyphens=st.booleans(), blocks=st.booleans(), tables=st.booleans(), figures=st.booleans(),
                    continuation=st.booleans(), clip=st.booleans(), window=st.integers(1, 5))


def _stream(pages: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    yield {"meta": {"pages": len(pages), "max_pages": 2000}}
    yield from pages
    yield {"done": {"pages_processed": len(pages)}}


def _organize(pages: list[dict[str, Any]], opts: OrganizeOptions) -> list[dict[str, Any]]:
    return list(organize_records(_stream(copy.deepcopy(pages)), opts))


# --- properties -----------------------------------------------------------------------------

def _letters(text: str) -> Counter[str]:
    return Counter(ch for ch in text if ch.isalnum())


def _given(page: dict[str, Any], opts: OrganizeOptions) -> Counter[str]:
    """Every letter and digit of the page's runs, less the clipped ones organization drops and
    a run that is the one before it drawn again on the same spot (one text to a reader)."""
    given: Counter[str] = Counter()
    for line in page["evidence"]["lines"]:
        last = None
        for run in line["runs"]:
            if opts.clip and run.get("clipped"):
                continue
            if last is None or not _same_spot(last, run, float(line["size"])):
                given.update(_letters(run["text"]))
                last = run
    return given


def _same_spot(a: dict[str, Any], b: dict[str, Any], size: float) -> bool:
    return a["text"] == b["text"] and all(abs(p - q) <= 0.1 * size for p, q in zip(a["box"], b["box"], strict=True))


def _kept(page: dict[str, Any]) -> Counter[str]:
    """Letters and digits of the organized body and the furniture set beside it."""
    figures = sum(b["kind"] == "figure" for b in page.get("blocks", []))
    kept = _letters(page["text"])
    kept.subtract(_letters("figure" * figures))
    for item in page.get("furniture", []):
        kept.update(_letters(item["text"]))
    return kept


# Found by this file: a font size of 1.7e308 doubled is infinity, which no size rounds to.
@example(pages=_page_of([_line(700.0, FULL * 3, size=1.7e308)]), opts=OrganizeOptions())
@_settings(120)
@given(pages=documents(), opts=options)
def test_organization_never_fails_a_page(pages, opts):
    out = _organize(pages, opts)
    assert [r["page"] for r in out if "page" in r] == [p["page"] for p in pages]
    errors = [r["organize_error"] for r in out if "organize_error" in r]
    assert not errors, errors
    assert out[-1]["done"]["organize_fallbacks"] == 0


@_settings(120)
@given(pages=documents(), opts=options)
def test_no_word_is_lost_on_any_page(pages, opts):
    # A paragraph continued over a break moves words to the page before.
    opts = opts.replace(continuation=False)
    out = [r for r in _organize(pages, opts) if "page" in r]
    for page, given_page in zip(out, pages, strict=True):
        assert _kept(page) == _given(given_page, opts), page["page"]


@_settings(60)
@given(pages=documents(), opts=options)
def test_no_word_is_lost_in_the_document(pages, opts):
    out = [r for r in _organize(pages, opts) if "page" in r]
    assert sum(map(_kept, out), Counter()) == sum((_given(p, opts) for p in pages), Counter())


JUNK = [None, "x", "", [], {}, [1, 2], {"text": 1}, -1, 0, 1e308, True, "\ud800"]


def _damaged(pages: list[dict[str, Any]], seed: int, count: int) -> list[dict[str, Any]]:
    """The pages with ``count`` values somewhere in their evidence replaced by junk of another
    type, or their keys removed: a saved stream edited by hand, or by someone hostile."""
    pages = copy.deepcopy(pages)
    rng = random.Random(seed)
    for _ in range(count):
        node: Any = rng.choice(pages)["evidence"]
        while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            if not isinstance(node[key], (dict, list)) or not node[key] or rng.random() < 0.3:
                break
            node = node[key]
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
            if rng.random() < 0.3:
                del node[key]
            else:
                node[key] = rng.choice(JUNK)
        elif isinstance(node, list) and node:
            node[rng.randrange(len(node))] = rng.choice(JUNK)
    return pages


@_settings(150)
@given(pages=documents(max_pages=4).filter(bool), seed=st.integers(0, 2**32), count=st.integers(1, 4), opts=options)
def test_damaged_evidence_fails_only_its_page(pages, seed, count, opts):
    """Whatever the evidence holds, every page comes out in order, organized or with its raw
    text and the reason, and the document goes on."""
    damaged = _damaged(pages, seed, count)
    out = list(organize_records(_stream(copy.deepcopy(damaged)), opts))
    pages_out = [r for r in out if "page" in r]
    assert [r["page"] for r in pages_out] == [p["page"] for p in pages]
    fallbacks = [r for r in pages_out if "organize_error" in r]
    assert out[-1]["done"]["organize_fallbacks"] == len(fallbacks)
    for page in fallbacks:
        assert isinstance(page["text"], str) and "blocks" not in page and page["organize_error"]


def _items(page: dict[str, Any]) -> list[Item]:
    return [item for line in page["evidence"]["lines"] for item in line_segments(line, keep_clipped=True)[0]]


def _full_width_edges_measured_stretch_by_stretch(items: list[Item], gutter: float) -> list[tuple[float, float]]:
    """The edges of each full-width stretch as a pass over the page per stretch finds them: on
    the lines not yet placed in a column when the stretch ends (those still counted full width).
    A line across the gutter that only runs over into the other column (``_overruns``) is its
    column's."""
    def quantile(values: list[float], q: float) -> float:
        return sorted(values)[min(len(values) - 1, int(q * len(values)))]

    overrun = {id(items[k]) for k in _overruns(items, gutter)}
    placed: set[int] = set()
    edges: list[tuple[float, float]] = []
    in_stretch = False
    for item in items + [None]:  # type: ignore[list-item]
        if item is not None and item.x0 < gutter < item.x1 and id(item) not in overrun:
            in_stretch = True
            continue
        if item is not None:
            placed.add(id(item))
        if in_stretch:
            pool = [i for i in items if id(i) not in placed]
            edges.append((quantile([i.x0 for i in pool], 0.2), quantile([i.x1 for i in pool], 0.8)))
            in_stretch = False
    return edges


@_settings(150)
@given(pages=documents(max_pages=2))
def test_full_width_edges_are_those_a_pass_per_stretch_finds(pages):
    """Reading order measures every full-width stretch in a logarithm of the page, not a pass
    over it: the edges found are the same."""
    for page in pages:
        items = sorted(_items(page), key=lambda i: (-round(i.y, 1), i.x0))
        width = float(page["evidence"]["width"] or 612.0)
        gutter = find_gutter(items, width)
        if gutter is None:
            continue
        expected = _full_width_edges_measured_stretch_by_stretch(items, gutter)  # before rejoining moves edges
        stretches = {i.section: (i.left, i.right) for i in reading_order(items, width, columns=True)
                     if i.column == "F"}
        assert list(stretches.values()) == expected


@_settings(300)
@given(texts=st.lists(st.text("aZ-字 1", max_size=4), max_size=8), hyphens=st.booleans())
def test_a_block_joins_its_lines_as_they_join_two_by_two(texts, hyphens):
    """Blocks join all their lines at once (linear time) by the rules of ``join_text``."""
    expected = ""
    for text in texts:
        expected = join_text(expected, text, hyphens)
    assert join_lines(texts, hyphens) == expected


# --- cost in proportion to the input --------------------------------------------------------
#
# Cost is counted, not timed: the lines of siftpdf's code run (each pass of a loop is one), a
# figure that no other load on the machine can change. Eight times the input may cost at most
# about eight times as much; a loop over the page inside a loop over its lines costs 64 times.

GROWTH = 8
SLACK = 1.5
_PACKAGE = str(Path(siftpdf.__file__).parent)


class OverBudget(BaseException):
    """Raised into organization once it has run too many steps; a BaseException, so that the
    guard that lets one page fail without ending the document does not catch it."""


def _steps(work: Callable[[], object], budget: float = float("inf")) -> int:
    count = 0

    def line(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        count += 1
        if count > budget:
            raise OverBudget(f"over {budget} steps")
        return line

    def call(frame: Any, event: str, arg: Any) -> Any:
        return line(frame, event, arg) if frame.f_code.co_filename.startswith(_PACKAGE) else None

    previous = sys.gettrace()
    sys.settrace(call)
    try:
        work()
    finally:
        sys.settrace(previous)
    return count


def _cost(pages: list[dict[str, Any]], budget: float = float("inf")) -> int:
    stream = list(_stream(copy.deepcopy(pages)))
    return _steps(lambda: list(organize_records(stream, OrganizeOptions())), budget)


def _growth(small: list[dict[str, Any]], large: list[dict[str, Any]]) -> float:
    """How much more ``large`` costs than ``small``; given up on past twice the bound."""
    base = max(1, _cost(small))
    return _cost(large, budget=2 * SLACK * GROWTH * base) / base


def _stacked(page: dict[str, Any], copies: int) -> dict[str, Any]:
    """One page holding ``copies`` copies of ``page``'s lines, one under another."""
    evidence = page["evidence"]
    height = float(evidence["height"] or 792.0)
    lines = []
    for k in range(copies):
        shift = (copies - 1 - k) * height
        for line in evidence["lines"]:
            runs = [{**r, "box": [r["box"][0], r["box"][1] + shift, r["box"][2], r["box"][3] + shift]}
                    for r in line["runs"]]
            for run in runs:
                if "y" in run:
                    run["y"] += shift
            lines.append({**line, "y": line["y"] + shift, "runs": runs})
    stacked = {**evidence, "height": height * copies, "lines": lines}
    return {**page, "evidence": stacked}


def _renumbered(pages: list[dict[str, Any]], copies: int) -> list[dict[str, Any]]:
    return [{**p, "page": k * len(pages) + p["page"]} for k in range(copies) for p in pages]


def _lines_of(pages: list[dict[str, Any]]) -> int:
    return sum(len(p["evidence"]["lines"]) for p in pages)


@pytest.mark.check  # make check: a timing fuzz, about 13 s
@_settings(10, fuzz_share=10)
@given(pages=documents(max_pages=3).filter(lambda pages: _lines_of(pages) >= 5))
def test_cost_grows_in_proportion_to_pages_and_to_lines(pages):
    by_pages = _growth(_renumbered(pages, 4), _renumbered(pages, 4 * GROWTH))
    assert by_pages < SLACK * GROWTH
    page = max(pages, key=lambda p: len(p["evidence"]["lines"]))
    by_lines = _growth([_stacked(page, 2)], [_stacked(page, 2 * GROWTH)])
    assert by_lines < SLACK * GROWTH


def _paragraph(n: int) -> list[dict[str, Any]]:
    return _page_of([_line(12.0 * (n - k), FULL) for k in range(n)], 12.0 * n + 100)


def _captions_between_lines(n: int) -> list[dict[str, Any]]:
    return _page_of([_line(12.0 * (n - k), "Figure 3 the bend" if k % 2 else FULL) for k in range(n)], 12.0 * n + 100)


def _two_columns_with_titles(n: int) -> list[dict[str, Any]]:
    lines = []
    for k in range(n):
        y = 12.0 * (n - k)
        line = _line(y, FULL + " " + FULL)
        if k % 3:
            line = _line(y, FULL[:45])
            line["runs"].append(_run(FULL[:45], 340, y, 10.0, "Times-Roman"))
        lines.append(line)
    return _page_of(lines, 12.0 * n + 100)


def _table(n: int) -> list[dict[str, Any]]:
    return _page_of([{"y": 12.0 * (n - k), "size": 10.0,
                      "runs": [_run(f"c{c}", 72 + 100 * c, 12.0 * (n - k), 10.0, "Helvetica") for c in range(5)]}
                     for k in range(n)], 12.0 * n + 100)


@pytest.mark.parametrize("shape", [_paragraph, _captions_between_lines, _two_columns_with_titles, _table])
def test_cost_of_a_long_page_grows_in_proportion_to_its_lines(shape):
    growth = _growth(shape(60), shape(60 * GROWTH))
    assert growth < SLACK * GROWTH


def test_a_page_of_any_width_costs_the_same():
    """Found by this file: the gutter was sought every 3 pt across the middle of the page, so a
    page 1e12 pt wide never finished."""
    lines = [_line(700.0 - 12 * k, FULL) for k in range(10)]
    letter = _cost(_page_of(lines))
    assert _cost(_page_of(lines, width=1e12), budget=2 * letter) <= 2 * letter


def test_a_long_paragraph_is_joined_in_time_in_proportion_to_its_length():
    """Joining is copying, which no line count sees: here only time tells, with the least of a
    few runs, and a bound a quadratic join passes only far beyond the size it is tried at."""
    def cpu(pages: list[dict[str, Any]]) -> float:
        stream = list(_stream(pages))
        best = float("inf")
        for _ in range(3):
            records = copy.deepcopy(stream)
            gc.collect()
            gc.disable()
            try:
                start = time.process_time()
                list(organize_records(records, OrganizeOptions()))
                best = min(best, time.process_time() - start)
            finally:
                gc.enable()
        return best

    long_line = " ".join([FULL] * 12)
    small, large = (_page_of([_line(12.0 * (n - k), long_line) for k in range(n)], 12.0 * n + 100)
                    for n in (250, 250 * GROWTH))
    growth = cpu(large) / max(cpu(small), 1e-3)
    assert growth < 2.5 * GROWTH
