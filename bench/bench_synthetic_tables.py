"""Tables no rule was written for: pages made from a seeded description, printed by a browser,
scored against the description.

    python bench/bench_synthetic_tables.py [--count N] [--seed S] [--peers] [--keep DIR] [--show N]

Every table rule of siftpdf was written against the pages of ../shared/bench. This benchmark
makes pages of its own: a heading, a paragraph, a caption, a table and a note, drawn from a
fixed random seed over the ways report tables are set (full grid, rules above and below only,
no rules at all, shaded rows, a shaded head, a box around the table), with one or two header
rows (a group head spanning columns), grouped first cells spanning rows where rules show them,
cells that wrap onto two lines, figures of every form, blank cells and a bold total row. Each
page is written as HTML, printed to PDF by headless Chromium (Skia's PDF: another producer
than the benchmarks'), and its Markdown ground truth is written from the same description.
Scored by DP-Bench's scorer (TEDS over the tables, NID over the page, MHS over the heading),
split into halves by the same fixed hash as the benchmarks; ``--peers`` adds pdf-inspector and
liteparse, ``--show N`` lists the N lowest tables by style.

Needs Debian's ``chromium`` (a benchmark's tool, not the package's dependency).
"""

from __future__ import annotations

import argparse
import html
import random
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.quality_sets import ENGINES, HALVES, PEERS, Engine, halves_of, run_engine  # noqa: E402
from bench.quality_sets import score as quality_score  # noqa: E402

SIFTPDF = [sys.executable, "-m", "siftpdf"]
STYLES = ("grid", "booktabs", "bare", "zebra", "shaded-head", "boxed")
FONTS = ("DejaVu Serif", "DejaVu Sans", "Liberation Serif", "Liberation Sans", "DejaVu Sans Condensed")

LABELS = {
    "region": ["North", "South", "East", "West", "Central", "Coastal areas", "Northern highlands", "Capital region",
               "Rural districts", "Overseas territories", "Metropolitan area", "Border provinces"],
    "item": ["Wages and salaries", "Rent", "Interest paid", "Depreciation", "Raw materials", "Energy",
             "Transport services", "Insurance premiums", "Research and development", "Training", "Legal fees",
             "Maintenance of buildings", "Software licences", "Office supplies"],
    "indicator": ["Gross domestic product", "Unemployment rate", "Consumer prices", "Exports of goods",
                  "Imports of goods", "Current account balance", "Household saving ratio", "Labour productivity",
                  "Public debt", "Housing starts", "Industrial production", "Retail sales"],
    "species": ["Atlantic salmon", "Brown trout", "Common carp", "European eel", "Pike", "Perch", "Rainbow trout",
                "Sea bass", "Turbot", "Zander"],
    "school": ["Primary", "Lower secondary", "Upper secondary", "Vocational", "Short-cycle tertiary",
               "Bachelor's or equivalent", "Master's or equivalent", "Doctoral"],
}
GROUPS = ["Men", "Women", "Total", "Urban", "Rural", "Public", "Private", "Domestic", "Foreign", "Estimate",
          "Actual", "Planned"]
UNITS = ["Number", "Share (%)", "Change (%)", "Value (EUR m)", "Per capita", "Index", "Rate", "Amount"]
WORDS = ("the survey covers households in every region and reports figures for the year as a whole while "
         "estimates for the latest quarter are provisional and may be revised when the annual accounts are "
         "published the table below sets out the main results by category with the totals for each group "
         "values are rounded so that totals may differ from the sum of their parts").split()


@dataclass
class Cell:
    text: str
    colspan: int = 1
    rowspan: int = 1
    head: bool = False


@dataclass
class Page:
    """One page's description: what the HTML draws and the ground truth says."""

    doc_id: str
    style: str
    font: str
    size: float
    title: str
    before: str
    caption: str
    rows: list[list[Cell]] = field(default_factory=list)
    note: str = ""
    after: str = ""
    bold_last: bool = False
    numeric: set[int] = field(default_factory=set)


def _sentence(rng: random.Random, words: int) -> str:
    start = rng.randrange(len(WORDS) - words)
    text = " ".join(WORDS[start:start + words])
    return text[0].upper() + text[1:] + "."


def figure(rng: random.Random, kind: str) -> str:
    if kind == "int":
        return f"{rng.randint(0, 250_000):,}"
    if kind == "small":
        return str(rng.randint(0, 999))
    if kind == "dec":
        return f"{rng.uniform(-20, 120):.1f}"
    if kind == "pct":
        return f"{rng.uniform(0, 100):.1f}%"
    if kind == "money":
        return f"${rng.uniform(1, 9000):,.2f}"
    if kind == "neg":
        value = rng.randint(1, 9999)
        return f"({value:,})" if rng.random() < 0.4 else f"{value:,}"
    return str(rng.randint(1990, 2025))


def _head_rows(rng: random.Random, columns: int, stub: str) -> list[list[Cell]]:
    """One header row, or two where a group head spans the columns under it."""
    years = rng.random() < 0.5
    first = rng.randint(2000, 2018)
    names = [str(first + i) for i in range(columns - 1)] if years else rng.sample(UNITS, min(columns - 1, len(UNITS)))
    while len(names) < columns - 1:
        names.append(f"Series {len(names) + 1}")
    if columns < 4 or rng.random() < 0.55:
        return [[Cell(stub, head=True), *(Cell(name, head=True) for name in names)]]
    top, bottom = [Cell(stub, rowspan=2, head=True)], []
    left = columns - 1
    groups = rng.sample(GROUPS, len(GROUPS))
    while left:
        span = min(left, rng.choice((2, 2, 3)))
        if span == 1:
            top[-1].colspan += 1
            bottom.append(Cell(names[len(bottom)], head=True))
            left -= 1
            continue
        top.append(Cell(groups.pop(), colspan=span, head=True))
        inner = rng.sample(UNITS, span) if years else [str(first + i) for i in range(span)]
        bottom.extend(Cell(name, head=True) for name in inner)
        left -= span
    return [top, bottom]


def describe(rng: random.Random, doc_id: str) -> Page:
    style = rng.choice(STYLES)
    topic = rng.choice(list(LABELS))
    columns = rng.randint(3, 7)
    rows = rng.randint(3, 12)
    page = Page(doc_id, style, rng.choice(FONTS), rng.choice((9, 9.5, 10, 10.5, 11, 12)),
                f"{rng.randint(1, 9)}.{rng.randint(1, 9)} {topic.capitalize()} statistics",
                _sentence(rng, rng.randint(25, 60)),
                f"Table {rng.randint(1, 40)}: {rng.choice(UNITS)} by {topic}, {rng.randint(2000, 2024)}")
    page.rows = _head_rows(rng, columns, topic.capitalize())
    kinds = [rng.choice(("int", "small", "dec", "pct", "money", "neg", "year")) for _ in range(columns - 1)]
    labels = rng.sample(LABELS[topic], min(rows, len(LABELS[topic])))
    wrap = rng.random() < 0.3
    group_rows = style in ("grid", "boxed") and rng.random() < 0.3 and len(labels) >= 4
    body: list[list[Cell]] = []
    for index, label in enumerate(labels):
        if wrap and rng.random() < 0.5:
            label = f"{label} ({rng.choice(WORDS)} {rng.choice(WORDS)} {rng.choice(WORDS)})"
        cells = [Cell(label)]
        for kind in kinds:
            cells.append(Cell("" if rng.random() < 0.04 else "–" if rng.random() < 0.03 else figure(rng, kind)))
        if group_rows and index % 2 == 0 and index + 1 < len(labels):
            cells.insert(0, Cell(rng.choice(GROUPS), rowspan=2))
        elif group_rows and index % 2 == 0:
            cells.insert(0, Cell(rng.choice(GROUPS)))
        body.append(cells)
    if group_rows:
        for head in page.rows:
            head.insert(0, Cell("Group", head=True, rowspan=len(page.rows)) if head is page.rows[0] else Cell(""))
        if len(page.rows) == 2:
            page.rows[1].pop(0)
    if rng.random() < 0.3:
        total = [Cell("Total"), *(Cell(figure(rng, kind)) for kind in kinds)]
        if group_rows:
            total[0].colspan = 2
        body.append(total)
        page.bold_last = True
    page.rows.extend(body)
    page.numeric = {i + (2 if group_rows else 1) for i in range(columns - 1)}
    if rng.random() < 0.5:
        page.note = rng.choice(("Source: ", "Note: ")) + _sentence(rng, rng.randint(8, 20))
    page.after = _sentence(rng, rng.randint(20, 50))
    return page


_CSS = {
    "grid": "table{border-collapse:collapse} td,th{border:0.8px solid #000;padding:3px 6px}",
    "booktabs": ("table{border-collapse:collapse;border-top:1.5px solid #000;border-bottom:1.5px solid #000}"
                 " thead tr:last-child th{border-bottom:0.8px solid #000} td,th{padding:3px 8px}"),
    "bare": "table{border-collapse:collapse} td,th{padding:2px 10px}",
    "zebra": ("table{border-collapse:collapse} td,th{padding:3px 8px} tbody tr:nth-child(odd){background:#e8eef4}"
              " th{background:#c8d4e0}"),
    "shaded-head": ("table{border-collapse:collapse} td,th{padding:3px 8px;border-bottom:0.5px solid #999}"
                    " th{background:#1f3b5a;color:#fff}"),
    "boxed": ("table{border-collapse:collapse;border:1px solid #000} td,th{padding:3px 8px}"
              " thead{border-bottom:1px solid #000}"),
}


def _cell_html(cell: Cell, tag: str, align: str) -> str:
    spans = (f' colspan="{cell.colspan}"' if cell.colspan > 1 else "") + (
        f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else "")
    return f'<{tag}{spans} style="text-align:{align}">{html.escape(cell.text)}</{tag}>'


def page_html(page: Page) -> str:
    heads = [row for row in page.rows if row and row[0].head]
    body = page.rows[len(heads):]
    head = "".join("<tr>" + "".join(_cell_html(c, "th", "center") for c in row) + "</tr>" for row in heads)
    lines = [f"<thead>{head}</thead><tbody>"]
    for index, row in enumerate(body):
        bold = ' style="font-weight:bold"' if page.bold_last and index == len(body) - 1 else ""
        first_numeric = len(row) - len(page.numeric)
        cells = "".join(_cell_html(c, "td", "right" if i >= first_numeric else "left") for i, c in enumerate(row))
        lines.append(f"<tr{bold}>{cells}</tr>")
    lines.append("</tbody>")
    width = "" if page.style in ("bare", "booktabs") else "max-width:100%;"
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>@page{{size:A4;margin:2cm}}"
            f"body{{font-family:'{page.font}';font-size:{page.size}pt;line-height:1.35}}"
            f"h2{{font-size:{page.size * 1.5:.1f}pt}} p.cap{{font-style:italic;margin-bottom:4px}}"
            f"p.note{{font-size:{page.size - 1.5}pt}} table{{{width}margin:6px 0}} {_CSS[page.style]}</style></head>"
            f"<body><h2>{html.escape(page.title)}</h2><p>{html.escape(page.before)}</p>"
            f"<p class='cap'>{html.escape(page.caption)}</p><table>{''.join(lines)}</table>"
            + (f"<p class='note'>{html.escape(page.note)}</p>" if page.note else "")
            + f"<p>{html.escape(page.after)}</p></body></html>")


def page_truth(page: Page) -> str:
    """The ground truth: Markdown with the table as HTML, as DP-Bench's is written."""
    rows = "".join("<tr>" + "".join(_cell_html(c, "td", "left").replace(' style="text-align:left"', "")
                                    for c in row) + "</tr>" for row in page.rows)
    parts = [f"## {page.title}", page.before, page.caption, f"<table>{rows}</table>"]
    parts += [page.note] if page.note else []
    return "\n\n".join([*parts, page.after]) + "\n"


def make(count: int, seed: int, folder: Path) -> list[Page]:
    rng = random.Random(seed)
    pages = [describe(rng, f"syn-{seed}-{index:03d}") for index in range(count)]
    for sub in ("html", "pdfs", "gt"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for page in pages:
        source = folder / "html" / f"{page.doc_id}.html"
        if not source.exists() or source.read_text(encoding="utf-8") != page_html(page):
            source.write_text(page_html(page), encoding="utf-8")
        (folder / "gt" / f"{page.doc_id}.md").write_text(page_truth(page), encoding="utf-8")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("bench_synthetic_tables: needs Debian's chromium (apt-get install chromium)")

    def _print(page: Page) -> None:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                        f"--print-to-pdf={folder / 'pdfs' / (page.doc_id + '.pdf')}",
                        (folder / "html" / f"{page.doc_id}.html").as_uri()],
                       capture_output=True, timeout=120, check=True)

    with ThreadPoolExecutor(2) as pool:  # a kept folder's PDFs of the same description are printed once
        list(pool.map(_print, [p for p in pages if not _printed(folder, p)]))
    return pages


def _printed(folder: Path, page: Page) -> bool:
    pdf, source = folder / "pdfs" / f"{page.doc_id}.pdf", folder / "html" / f"{page.doc_id}.html"
    return pdf.exists() and pdf.stat().st_mtime >= source.stat().st_mtime


def width_of(rows: list[list[Cell]]) -> list[int]:
    """Each row's columns, counting the cells spanning into it from rows above."""
    taken: dict[tuple[int, int], bool] = {}
    widths = []
    for r, row in enumerate(rows):
        col = 0
        for cell in row:
            while taken.get((r, col)):
                col += 1
            for dr in range(cell.rowspan):
                for dc in range(cell.colspan):
                    taken[(r + dr, col + dc)] = True
            col += cell.colspan
        widths.append(max([c + 1 for (rr, c) in taken if rr == r], default=0))
    return widths


def score(folder: Path, predictions: Path, ids: list[str]) -> dict:
    """DP-Bench's scorer over ``ids`` against the pages' own ground truth: its summary lines and
    its JSON (per page under "documents")."""
    result = quality_score("dpbench", predictions, ids, gt=folder / "gt")
    return {**result, "lines": [line for line in result["lines"] if not line.startswith("worst")]}


def options(doc: str, count: int, what: str, shown: str) -> argparse.ArgumentParser:
    """The command line of a synthetic benchmark: how many ``what`` to make, the seed, the peers,
    a folder to keep, and how many of the lowest to list (``shown``)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=count, help=f"{what} to make (default {count})")
    parser.add_argument("--seed", type=int, default=1, help="the description's seed (default 1)")
    parser.add_argument("--peers", action="store_true", help="pdf-inspector and liteparse too")
    parser.add_argument("--keep", type=Path, help=f"leave the {what}, ground truth and Markdown in this folder")
    parser.add_argument("--show", type=int, default=0, help=f"list the N lowest {shown}")
    return parser


def report(folder: Path, made: list[Any], peers: bool, show: int,
           listing: Callable[[Path, Path, list[Any], int], None]) -> None:
    """Each engine's Markdown of the ``made`` documents (each with its ``doc_id``), scored half by
    half, and ``listing``'s lowest ``show`` of them."""
    halves = halves_of([doc.doc_id for doc in made])
    engines = [ENGINES["siftpdf"]] + ([ENGINES[name] for name in PEERS] if peers else [])
    for engine in engines:
        into = convert(engine, folder, made)
        for half in HALVES:
            result = score(folder, into, [d.doc_id for d in made if halves[d.doc_id] == half])
            print(f"{engine.name} {half}: " + " / ".join(result["lines"]))
        if show:
            listing(folder, into, made, show)


def run(parser: argparse.ArgumentParser, argv: list[str] | None,
        made: Callable[[argparse.Namespace, Path], list[Any]],
        listing: Callable[[Path, Path, list[Any], int], None]) -> int:
    """A synthetic benchmark's command: its documents ``made`` (from the options, into a folder:
    a temporary one or the one kept), each engine's Markdown of them scored (``report``)."""
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        report(folder, made(args, folder), args.peers, args.show, listing)
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(options(__doc__, 80, "pages", "tables (TEDS) with their style"), argv,
               lambda args, folder: make(args.count, args.seed, folder), _show)


def convert(engine: Engine, folder: Path, made: list[Any]) -> Path:
    """Every document's Markdown by ``engine``, two at a time, into ``folder/<engine>``."""
    into = folder / engine.name
    into.mkdir(exist_ok=True)
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda doc: run_engine(engine, folder / "pdfs" / f"{doc.doc_id}.pdf", into), made))
    return into


def _show(folder: Path, into: Path, pages: list[Page], count: int) -> None:
    result = score(folder, into, [p.doc_id for p in pages])
    styles = {p.doc_id: p.style for p in pages}
    teds = sorted((row["teds"], row["id"]) for row in result["json"]["documents"] if row["teds"] is not None)
    by_style: dict[str, list[float]] = defaultdict(list)
    for value, doc_id in teds:
        by_style[styles[doc_id]].append(value)
    print("  by style: " + ", ".join(f"{s} {sum(v) / len(v):.3f} ({len(v)})" for s, v in sorted(by_style.items())))
    for value, doc_id in teds[:count]:
        print(f"  {doc_id} {styles[doc_id]} teds {value:.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
