"""Articles no rule was written for: documents made from a seeded description, typeset by groff,
scored against the description.

    python bench/bench_synthetic_articles.py [--typesetter groff|latex|html|writer] [--count N] [--seed S] [--peers]
                                             [--keep DIR] [--show N]

Every reading rule of siftpdf was written against the pages of ../shared/bench and the corpus.
This benchmark makes documents of its own, the way papers and reports are set by a typesetter
that none of those came from (groff's ms macros, its PDF device): a title, authors and their
institution, numbered or unnumbered sections and subsections, paragraphs indented or set as
blocks, bulleted and numbered lists, quoted paragraphs, tables set by tbl under a centred
caption (a frame round every cell, round the table, doubled, a rule under the heads only, or
none; a group head spanning the figures' columns at times), in one column or two, at 9 to 12
points, justified and hyphenated, over two to six pages, with running heads and feet of the
forms journals use (a journal's name, volume and issue, a short title, page numbers alone or
dashed). Each description gives the groff source and the Markdown ground truth (the running
lines are not in it: they are furniture; tables as DP-Bench writes them, in HTML). Scored by
DP-Bench's scorer (NID over the document's text, TEDS over its tables, MHS over its
headings), split into halves by the same fixed hash as the benchmarks;
``--peers`` adds pdf-inspector and liteparse, ``--show N`` lists the N lowest documents.

``--typesetter latex`` sets the same descriptions by LaTeX's article class instead (pdflatex,
Computer Modern, fancyhdr's running lines, booktabs' rules for the ``rules`` style, tabular's
frames for the others): a title block of the title, the authors side by side and their
institution, all larger than the text and none bold; bold section heads numbered without a
dot; itemize and enumerate; two columns an em apart, their baselines apart after a heading.
Each document's own choices (glyphs mapped to Unicode or named only, a rule under the head)
come from its name, so the descriptions stay those of groff's. Needs
``apt-get install --no-install-recommends texlive-latex-base texlive-latex-recommended``.

``--typesetter html`` sets them as web pages a browser prints (headless Chromium, Skia's PDF):
the title block centred, headings numbered as written, two columns by CSS's columns (justified
or ragged right, so that a narrow justified column stretches its spaces past an em), running
lines in the page's margin boxes or the browser's own header and footer (a date, the page's
title and address, 'n/N'), tables as wide as their column at times, heads in bold over figures
set flush right, rules or shading by the style, the caption above or in the table. The choices
beyond the description come from the document's name (``web_choices``). Needs
``apt-get install --no-install-recommends chromium fonts-liberation``.

``--typesetter writer`` sets them as a word processor's documents (OpenDocument's flat XML,
turned into PDF by LibreOffice Writer): styles for the text, headings (numbered by the outline,
the number and a tab, or typed), the title block, lists, quotations and captions; two columns as
a section's, balanced at its end, so that a table runs on from the foot of one column to the head
of the next; the running lines in the page's header and footer, parted by tab stops, the page
number a field; tables framed, ruled under the head or bare, their head row shaded at times, as
wide as their column or as their columns. The choices beyond the description come from the
document's name (``writer_choices``). Needs ``apt-get install --no-install-recommends
libreoffice-writer-nogui fonts-liberation fonts-dejavu-core``.

Needs groff with its PDF device (Debian's ``groff``; a benchmark's tool, not the package's
dependency). ``apt-get install --no-install-recommends groff``: the ghostscript it recommends
brings a CJK fallback font (fonts-droid-fallback), and with it PDFium reads Chinese set in fonts
a file does not embed that it reads without it as figures only.
"""

from __future__ import annotations

import html
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.bench_synthetic_tables import figure, options, run, score  # noqa: E402

# Pseudo-words from syllables: no word of the text is a rule's keyword by chance of the language.
_ONSETS = ("b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "st", "tr", "pl", "gr", "ch")
_NUCLEI = ("a", "e", "i", "o", "u", "ea", "io", "ou")
_CODAS = ("", "", "n", "r", "s", "t", "l", "nd", "st", "m")
_TITLES = ("Introduction", "Background", "Method", "Methods", "Results", "Discussion", "Evaluation",
           "Related Work", "Design", "Implementation", "Conclusion", "Limitations", "Experiments")
_JOURNALS = ("Journal of Applied Things", "Transactions on Examples", "Review of Synthetic Studies",
             "Letters in Typesetting", "Annals of Made-Up Science")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_NUCLEI) + rng.choice(_CODAS)
                   for _ in range(rng.choice((1, 1, 2, 2, 3))))


def _sentence(rng: random.Random, words: int) -> str:
    text = " ".join(_word(rng) for _ in range(words))
    return text[0].upper() + text[1:] + rng.choice((".", ".", ".", "?"))


def _paragraph(rng: random.Random, low: int, high: int) -> str:
    out, total = [], rng.randint(low, high)
    while total > 0:
        n = min(total, rng.randint(6, 20))
        out.append(_sentence(rng, n))
        total -= n
    return " ".join(out)


@dataclass
class Block:
    kind: str  # heading (level 1-3, numbered or not), para, item (bullet or number), quote, table
    text: str
    level: int = 0
    mark: str = ""
    rows: list[list[str]] = field(default_factory=list)  # a table's, its head first
    spans: list[int] = field(default_factory=list)  # a group head's columns, over the head row, when it has one


RUNNING = {"LH": "", "CH": "- % -", "RH": "", "LF": "", "CF": "", "RF": ""}  # ms's, unless set; % the page's number


@dataclass
class Article:
    doc_id: str
    style: str
    size: int = 10  # points
    width: str = "6i"  # the line's length
    running: dict[str, str] = field(default_factory=lambda: dict(RUNNING))  # heads and feet, left to right
    title: str = ""
    authors: list[str] = field(default_factory=list)
    institution: str = ""
    two_columns: bool = False
    blocks: list[Block] = field(default_factory=list)
    tables: int = 0


def describe(rng: random.Random, doc_id: str) -> Article:
    size = rng.choice((9, 10, 10, 11, 12))
    two = rng.random() < 0.6
    numbered = rng.random() < 0.6
    indented = rng.random() < 0.7
    width = rng.choice(("6i", "6.2i", "6.5i"))
    heads = rng.choice(("plain", "journal", "title", "none"))
    short_title = " ".join(_word(rng).capitalize() for _ in range(3))
    journal = rng.choice(_JOURNALS)
    running = dict(RUNNING)
    if heads == "journal":
        running.update(LH=journal, RH=f"Vol. {rng.randint(1, 60)}, No. {rng.randint(1, 12)}", CH="",
                       CF=rng.choice(("%", "- % -", "Page %")))
    elif heads == "title":
        running.update(CH=short_title, RF=rng.choice(("%", "Page %")))
    elif heads == "none":
        running.update(CH="")
    article = Article(doc_id, f"{'2C' if two else '1C'} {size}pt {heads} {'NH' if numbered else 'SH'}",
                      size, width, running, " ".join(_word(rng).capitalize() for _ in range(rng.randint(3, 8))),
                      [f"{_word(rng).capitalize()} {_word(rng).capitalize()}" for _ in range(rng.randint(1, 3))],
                      f"Institute of {_word(rng).capitalize()} {_word(rng).capitalize()}", two)
    counters = [0, 0, 0]
    titles = list(_TITLES)
    rng.shuffle(titles)
    for section in range(rng.randint(3, 6)):
        article.blocks.append(_heading(rng, 1, titles[section % len(titles)], numbered, counters))
        for _ in range(rng.randint(1, 3)):
            article.blocks.append(Block("para" if indented else "block", _paragraph(rng, 40, 140)))
        for _ in range(rng.choice((0, 0, 1, 2))):
            article.blocks.append(_heading(rng, 2, " ".join(_word(rng).capitalize() for _ in range(rng.randint(1, 4))),
                                           numbered, counters))
            for _ in range(rng.randint(1, 3)):
                article.blocks.append(Block("para" if indented else "block", _paragraph(rng, 30, 120)))
            if rng.random() < 0.3:
                article.blocks += _list(rng)
            if rng.random() < 0.15:
                article.blocks.append(Block("quote", _paragraph(rng, 20, 60)))
        if rng.random() < 0.35:
            article.tables += 1
            article.blocks += _table(rng, article.tables, two)
    return article


def _heading(rng: random.Random, level: int, text: str, numbered: bool, counters: list[int]) -> Block:
    if not numbered:
        return Block("heading", text, level)
    counters[level - 1] += 1
    for deeper in range(level, len(counters)):
        counters[deeper] = 0
    number = ".".join(str(n) for n in counters[:level]) + "."
    return Block("heading", text, level, number)


def _list(rng: random.Random) -> list[Block]:
    kind = rng.choice(("bullet", "number"))
    return [Block("item", _paragraph(rng, 4, 30), mark="-" if kind == "bullet" else f"{n}.")
            for n in range(1, rng.randint(2, 5) + 1)]


BULLET = "\\(bu"  # groff's bullet


TABLE_STYLES = ("allbox", "box", "doublebox", "rules", "bare")
FIGURES = ("int", "dec", "pct", "small")  # the synthetic tables' kinds of figure a table's cells hold


def _table(rng: random.Random, number: int, two_columns: bool) -> list[Block]:
    """A caption and a table of a few columns (fewer in a two-column page): a stub of words,
    figures, a head row, and over it at times a group head spanning the figures' columns."""
    columns = rng.randint(2, 3 if two_columns else 5)
    head = [_word(rng).capitalize()] + [rng.choice((_word(rng).capitalize(), str(rng.randint(1990, 2025))))
                                        for _ in range(columns - 1)]
    rows = [head] + [[_word(rng).capitalize()] + [figure(rng, rng.choice(FIGURES)) for _ in range(columns - 1)]
                     for _ in range(rng.randint(2, 7))]
    spans = [1, columns - 1] if columns >= 3 and rng.random() < 0.4 else []
    caption = f"Table {number}. {_sentence(rng, rng.randint(3, 9))}"
    style = rng.choice(TABLE_STYLES)
    group = " ".join(_word(rng).capitalize() for _ in range(2)) if spans else ""
    return [Block("caption", caption), Block("table", style, mark=group, rows=rows, spans=spans)]


def _tbl(block: Block) -> list[str]:
    """A table in tbl's language: its options, a format line for each kind of row, the rows."""
    style, rows = block.text, block.rows
    columns = len(rows[0])
    options = {"allbox": "center allbox tab(@);", "box": "center box tab(@);", "doublebox": "center doublebox tab(@);",
               "rules": "center tab(@);", "bare": "center tab(@);"}[style]
    formats = []
    if block.spans:
        formats.append(" ".join(["c"] + ["c"] + ["s"] * (block.spans[1] - 1)))
    formats.append(" ".join("cb" for _ in range(columns)))
    formats.append(" ".join(["l"] + ["n"] * (columns - 1)) + ".")
    lines = [".TS", options, *formats]
    if block.spans:
        lines.append("@" + block.mark)
    lines.append("@".join(rows[0]))
    if style == "rules":
        lines.append("_")
    lines += ["@".join(row) for row in rows[1:]]
    return [*lines, ".TE"]


def _table_truth(block: Block) -> str:
    rows = []
    if block.spans:
        rows.append(f'<tr><td></td><td colspan="{block.spans[1]}">{block.mark}</td></tr>')
    rows += ["<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in block.rows]
    return f"<table>{''.join(rows)}</table>"


def _escaped(text: str) -> str:
    """Text as a groff input line: a leading dot or quote would be a request."""
    return "\\&" + text if text[:1] in (".", "'") else text


def source(article: Article) -> str:
    """The article in groff's ms macros."""
    lines = [f".nr PS {article.size}", f".nr VS {article.size + 2}", f".nr LL {article.width}"]
    lines += [f'.ds {key} "{value}' if value else f".ds {key}" for key, value in article.running.items()
              if value != RUNNING[key]]
    lines += [".TL", article.title]
    for author in article.authors:
        lines += [".AU", author]
    lines += [".AI", article.institution]
    if article.two_columns:
        lines.append(".2C")
    for block in article.blocks:
        if block.kind == "heading":
            lines += [f".NH {block.level}" if block.mark else ".SH", block.text]
            if not block.mark and block.level > 1:  # .SH takes no level: a smaller one by hand
                lines[-1] = f"\\fI{block.text}\\fP"
        elif block.kind in ("para", "block"):
            lines += [".PP" if block.kind == "para" else ".LP", _escaped(block.text)]
        elif block.kind == "item":
            mark = BULLET if block.mark == "-" else block.mark
            lines += [f".IP {mark} 3", _escaped(block.text)]
        elif block.kind == "quote":
            lines += [".QP", _escaped(block.text)]
        elif block.kind == "caption":
            lines += [".LP", ".ce", _escaped(block.text)]
        elif block.kind == "table":
            lines += [".sp 0.5", *_tbl(block), ".sp 0.5"]
    return "\n".join(lines) + "\n"


_TEX_SPECIAL = {c: "\\" + c for c in "%&#$_{}"}


def tex_escaped(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(c, c) for c in text)


_TEX_RULES = {  # a table style's column rules, its rules over the head, under it, between rows, at the foot
    "allbox": ("|", "\\hline", "\\hline", "\\hline", "\\hline"),
    "box": ("", "\\hline", "", "", "\\hline"),
    "doublebox": ("", "\\hline\\hline", "", "", "\\hline\\hline"),
    "rules": ("", "\\toprule", "\\midrule", "", "\\bottomrule"),
    "bare": ("", "", "", "", ""),
}


def _tabular(block: Block) -> list[str]:
    """A table as LaTeX's tabular: the stub left, the figures right, the head in bold; a group
    head over the figures' columns at times; rules by the style (booktabs' for ``rules``)."""
    inner, top, under, between, foot = _TEX_RULES[block.text]
    columns = len(block.rows[0])
    edge = "||" if block.text == "doublebox" else "|" if block.text in ("allbox", "box") else ""
    spec = edge + inner.join(["l"] + ["r"] * (columns - 1)) + edge
    lines = [f"\\begin{{tabular}}{{{spec}}}", top]
    if block.spans:
        group = tex_escaped(block.mark)
        lines.append(f"& \\multicolumn{{{block.spans[1]}}}{{{inner}c{edge or inner}}}{{{group}}} \\\\")
        lines.append(f"\\cmidrule(lr){{2-{columns}}}" if block.text == "rules" else between)
    lines.append(" & ".join(f"\\textbf{{{tex_escaped(cell)}}}" for cell in block.rows[0]) + " \\\\")
    lines.append(under or between)
    body = [" & ".join(tex_escaped(cell) for cell in row) + " \\\\" for row in block.rows[1:]]
    for k, row in enumerate(body):
        lines.append(row)
        if k < len(body) - 1:
            lines.append(between)
    lines += [foot, "\\end{tabular}"]
    return [line for line in lines if line]


def _fancy(text: str) -> str:
    return tex_escaped(text).replace("\\%", "\\thepage")


def _in_lists(blocks: list[Block], kinds: tuple[str, str], begin: str, end: str) -> tuple[list[tuple[list[str], Block]],
                                                                                       list[str]]:
    """Each block with the lines that end a list before it and begin one (``begin`` and ``end``
    formatted with the list's kind: ``kinds``, bulleted and numbered), and the lines that end the
    last list."""
    out: list[tuple[list[str], Block]] = []
    listing = ""
    for block in blocks:
        kind = "" if block.kind != "item" else kinds[0] if block.mark == "-" else kinds[1]
        before = [end.format(listing)] if listing and kind != listing else []
        if kind and kind != listing:
            before.append(begin.format(kind))
        listing = kind
        out.append((before, block))
    return out, [end.format(listing)] if listing else []


def latex_source(article: Article) -> str:
    """The article in LaTeX's article class (pdflatex, Computer Modern): the same description
    set by another typesetter, with choices of its own drawn from the document's name (glyphs
    mapped to Unicode or by their names only, a rule under the head or none)."""
    own = random.Random(article.doc_id)
    size = max(article.size, 10)
    margin = (8.5 - float(article.width.rstrip("i"))) / 2
    lines = [f"\\documentclass[{size}pt{',twocolumn' if article.two_columns else ''}]{{article}}",
             f"\\usepackage[letterpaper,hmargin={margin}in,vmargin=1in]{{geometry}}",
             "\\usepackage{booktabs}", "\\usepackage{fancyhdr}",
             "\\renewcommand{\\labelitemi}{$\\bullet$}"]  # the text bullet is a bitmap without cm-super
    if own.random() < 0.5:
        lines += ["\\input{glyphtounicode}", "\\pdfgentounicode=1"]
    running = article.running
    if not any(running.values()):
        lines.append("\\pagestyle{empty}")
    else:
        lines += ["\\pagestyle{fancy}", "\\fancyhf{}"]
        lines += [f"\\fancy{'head' if key[1] == 'H' else 'foot'}[{key[0]}]{{{_fancy(value)}}}"
                  for key, value in running.items() if value]
        if own.random() < 0.6:
            lines.append("\\renewcommand{\\headrulewidth}{0pt}")
    if not any(block.kind == "para" for block in article.blocks):
        lines += ["\\setlength{\\parindent}{0pt}", "\\setlength{\\parskip}{0.6\\baselineskip}"]
    authors = " \\and ".join(tex_escaped(author) for author in article.authors)
    lines += [f"\\title{{{tex_escaped(article.title)}}}", f"\\author{{{authors}}}",
              f"\\date{{\\textit{{{tex_escaped(article.institution)}}}}}", "\\begin{document}", "\\maketitle"]
    if not any(running.values()):
        lines.append("\\thispagestyle{empty}")
    listed, closing = _in_lists(article.blocks, ("itemize", "enumerate"), "\\begin{{{}}}", "\\end{{{}}}")
    for before, block in listed:
        lines += before
        if block.kind == "heading":
            command = "sub" * (block.level - 1) + "section" + ("" if block.mark else "*")
            lines.append(f"\\{command}{{{tex_escaped(block.text)}}}")
        elif block.kind in ("para", "block"):
            lines += ["", tex_escaped(block.text)]
        elif block.kind == "item":
            lines.append(f"\\item {tex_escaped(block.text)}")
        elif block.kind == "quote":
            lines += ["\\begin{quote}", tex_escaped(block.text), "\\end{quote}"]
        elif block.kind == "caption":
            lines += ["\\begin{center}", tex_escaped(block.text), "", "\\smallskip"]
        elif block.kind == "table":
            lines += [*_tabular(block), "\\end{center}"]
    lines += closing
    return "\n".join([*lines, "\\end{document}"]) + "\n"


_WEB_FONTS = ("Liberation Serif", "Liberation Sans", "DejaVu Serif", "DejaVu Sans")
_WEB_BORDERS = {  # a table style's cells' borders, the table's own, and the head row's rule under it
    "allbox": ("1px solid #000", "1px solid #000", ""),
    "box": ("none", "1px solid #000", ""),
    "doublebox": ("none", "3px double #000", ""),
    "rules": ("none", "none", "1px solid #000"),
    "bare": ("none", "none", ""),
}


def web_choices(article: Article) -> dict[str, object]:
    """What a browser's page of ``article`` looks like beyond its description, drawn from its name:
    the face, the paper, the browser's own header and footer (its date, title, address and page
    count) or the running lines in the page's margins, justified or ragged, the headings'
    colour, tables shaded in place of rules, as wide as the column, their caption in the table."""
    own = random.Random(article.doc_id)
    return {"font": own.choice(_WEB_FONTS), "paper": own.choice(("letter", "A4")),
            "browser_lines": own.random() < 0.3, "justify": own.random() < 0.6,
            "colour": own.choice(("#000", "#000", "#1f3a68", "#7a1f1f")), "shaded": own.random() < 0.35,
            "wide": own.random() < 0.4, "caption_in_table": own.random() < 0.5}


def _web_margin(value: str) -> str:
    """A running line as a page margin box's content: its page number ``counter(page)``."""
    parts = [f'"{html.escape(part, quote=False)}"' for part in value.split("%")]
    return " counter(page) ".join(parts).replace('"" ', "").replace(' ""', "")


def _web_table(block: Block, caption: str, choices: dict[str, object]) -> list[str]:
    cells, frame, under = _WEB_BORDERS[block.text]
    shaded = choices["shaded"] and block.text in ("box", "bare")
    style = [f"border: {frame}", "border-collapse: collapse", "margin: 0.6em auto"]
    if choices["wide"]:
        style.append("width: 100%")
    out = [f'<table style="{"; ".join(style)}">']
    if caption:
        out.append(f"<caption>{html.escape(caption)}</caption>")
    cell = f"border: {cells}; padding: 2px 6px"
    if block.spans:
        out.append(f'<tr><td style="{cell}"></td><td colspan="{block.spans[1]}" '
                   f'style="{cell}; text-align: center">{html.escape(block.mark)}</td></tr>')
    head = f"{cell}; font-weight: bold" + (f"; border-bottom: {under}" if under else "")
    if shaded:
        head += "; background: #c9d3e6"
    out.append("<tr>" + "".join(f'<td style="{head}">{html.escape(c)}</td>' for c in block.rows[0]) + "</tr>")
    for k, row in enumerate(block.rows[1:]):
        back = "; background: #eef1f7" if shaded and k % 2 else ""
        out.append("<tr>" + "".join(f'<td style="{cell}{back}; text-align: {"left" if j == 0 else "right"}">'
                                    f"{html.escape(c)}</td>" for j, c in enumerate(row)) + "</tr>")
    return [*out, "</table>"]


def html_source(article: Article) -> str:
    """The article as a web page a browser prints: the same description in HTML and CSS, two
    columns by CSS's columns, the running lines in the page's margin boxes (or the browser's
    own header and footer), with choices of its own (``web_choices``)."""
    choices = web_choices(article)
    margins = {"LH": "top-left", "CH": "top-center", "RH": "top-right",
               "LF": "bottom-left", "CF": "bottom-center", "RF": "bottom-right"}
    boxes = "" if choices["browser_lines"] else " ".join(
        f"@{margins[key]} {{ content: {_web_margin(value)}; font-size: 8pt }}"
        for key, value in article.running.items() if value)
    indented = any(block.kind == "para" for block in article.blocks)
    css = [f"@page {{ size: {choices['paper']}; margin: 0.9in {(8.5 - float(article.width.rstrip('i'))) / 2}in; "
           f"{boxes} }}",
           f"body {{ font-family: '{choices['font']}'; font-size: {article.size}pt; line-height: 1.25; "
           f"text-align: {'justify' if choices['justify'] else 'left'} }}",
           "h1 { text-align: center; font-size: 1.7em; margin: 0 0 0.4em }",
           ".byline { text-align: center; margin: 0.1em 0 }",
           f"h2, h3, h4 {{ color: {choices['colour']}; text-align: left; margin: 0.9em 0 0.3em }}",
           "h2 { font-size: 1.3em } h3 { font-size: 1.1em } h4 { font-size: 1em; font-style: italic }",
           "p { margin: 0; text-indent: 1.5em }" if indented else "p { margin: 0 0 0.6em }",
           "p.caption { text-align: center; text-indent: 0; margin: 0.6em 0 0 }",
           "caption { margin-bottom: 0.3em }",
           "li p { text-indent: 0 }",
           ".columns { column-count: 2; column-gap: 0.3in }"]
    body = [f"<h1>{html.escape(article.title)}</h1>"]
    body += [f'<p class="byline">{html.escape(author)}</p>' for author in article.authors]
    body.append(f'<p class="byline"><i>{html.escape(article.institution)}</i></p>')
    if article.two_columns:
        body.append('<div class="columns">')
    caption = ""
    listed, closing = _in_lists(article.blocks, ("ul", "ol"), "<{}>", "</{}>")
    for before, block in listed:
        body += before
        text = html.escape(block.text)
        if block.kind == "heading":
            tag = f"h{block.level + 1}"
            body.append(f"<{tag}>{html.escape(block.mark + ' ' if block.mark else '')}{text}</{tag}>")
        elif block.kind in ("para", "block"):
            body.append(f"<p>{text}</p>")
        elif block.kind == "item":
            body.append(f"<li>{text}</li>")
        elif block.kind == "quote":
            body.append(f"<blockquote><p>{text}</p></blockquote>")
        elif block.kind == "caption":
            caption = block.text
            if not choices["caption_in_table"]:
                body.append(f'<p class="caption">{text}</p>')
        elif block.kind == "table":
            body += _web_table(block, caption if choices["caption_in_table"] else "", choices)
    body += closing
    if article.two_columns:
        body.append("</div>")
    short = article.running.get("CH") if "%" not in article.running.get("CH", "%") else article.title
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(short or article.title)}</title>\n<style>\n" + "\n".join(css)
            + "\n</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


_WRITER_FONTS = ("Liberation Serif", "Liberation Sans", "DejaVu Serif", "DejaVu Sans")
_ODF = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
        'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"')
_RULE = "0.5pt solid #000000"


def writer_choices(article: Article) -> dict[str, object]:
    """What a word processor's page of ``article`` looks like beyond its description, drawn from
    its name: the text's face and the headings' (the same or a sans), the paper, justified or
    ragged, headings numbered by the outline (the number, a tab, the title) or typed, their
    colour, the space after a paragraph, tables as wide as their column, heads centred, a shaded
    head row, the running lines set apart by a rule."""
    own = random.Random("writer " + article.doc_id)
    face = own.choice(_WRITER_FONTS)
    return {"font": face, "heads": own.choice((face, "Liberation Sans", "DejaVu Sans")),
            "paper": own.choice(("letter", "A4")), "justify": own.random() < 0.6,
            "outline": own.random() < 0.5, "colour": own.choice(("#000000", "#000000", "#2f5496", "#1f3864")),
            "after": own.choice(("0in", "0.06in", "0.11in")), "wide": own.random() < 0.4,
            "centred_heads": own.random() < 0.5, "shaded": own.random() < 0.35, "rule": own.random() < 0.3}


def _odf_text(text: str) -> str:
    return html.escape(text, quote=False)


def _odf_running(value: str) -> str:
    """A running line's text with its page number a field (``%`` in the description)."""
    return '<text:page-number text:select-page="current">1</text:page-number>'.join(
        _odf_text(part) for part in value.split("%"))


def _odf_cell_style(kind: str, row: int, column: int, rows: int, columns: int, shaded: bool) -> str:
    """A table cell's borders (and shading) by the table's style and the cell's place in it
    (``column``: the last column it spans)."""
    edges = {"top": row == 0, "bottom": row == rows - 1, "left": column == 0, "right": column == columns - 1}
    line = {"allbox": _RULE, "box": _RULE, "doublebox": "1.5pt solid #000000", "rules": _RULE, "bare": ""}[kind]
    sides = {side: "" for side in edges}
    if kind == "allbox":
        sides = {side: line for side in edges}
    elif kind in ("box", "doublebox"):
        sides = {side: line if at else "" for side, at in edges.items()}
    elif kind == "rules":
        sides.update(top=line if row in (0, 1) else "", bottom=line if row == rows - 1 else "")
    props = " ".join(f'fo:border-{side}="{value or "none"}"' for side, value in sides.items())
    if shaded and row == 0:
        props += ' fo:background-color="#d9e2f3"'
    return f'fo:padding="0.03in" {props}'


def _odf_table(block: Block, number: int, width: float, size: int, choices: dict[str, object],
               styles: dict[str, str]) -> list[str]:
    """A table as a word processor's: columns by width, the head row bold, the figures set flush
    right, a group head spanning the figures' columns at times; borders by the style."""
    rows = ([["", block.mark] + [""] * (len(block.rows[0]) - 2)] if block.spans else []) + block.rows
    columns = len(rows[0])
    # Each column as wide as its longest cell (an em and a half of padding), the whole as wide
    # as the text when the choice is so or when it would be wider.
    fits = [0.2 + max(len(row[k]) for row in block.rows) * 0.62 * size / 72 for k in range(columns)]
    total = width if choices["wide"] else min(width, sum(fits))
    name = f"Tb{number}"
    styles[name] = (f'<style:style style:name="{name}" style:family="table"><style:table-properties '
                    f'style:width="{total:.2f}in" table:align="center" fo:margin-top="0.04in" '
                    f'fo:margin-bottom="0.1in"/></style:style>')
    for k, share in enumerate(fit * total / sum(fits) for fit in fits):
        styles[f"{name}c{k}"] = (f'<style:style style:name="{name}c{k}" style:family="table-column">'
                                 f'<style:table-column-properties style:column-width="{share:.3f}in"/></style:style>')
    out = [f'<table:table table:name="Table{number}" table:style-name="{name}">']
    out += [f'<table:table-column table:style-name="{name}c{k}"/>' for k in range(columns)]
    head = 1 if block.spans else 0
    for r, row in enumerate(rows):
        out.append("<table:table-row>")
        column = 0
        while column < columns:
            span = block.spans[1] if block.spans and r == 0 and column == 1 else 1
            cell = f"{name}r{r}k{column}"
            styles[cell] = (f'<style:style style:name="{cell}" style:family="table-cell"><style:table-cell-properties '
                            + _odf_cell_style(block.text, r, column + span - 1, len(rows), columns,
                                              bool(choices["shaded"]) and r <= head) + "/></style:style>")
            if r <= head:
                para = "TableHeadCentred" if choices["centred_heads"] or r < head else (
                    "TableHead" if column == 0 else "TableHeadRight")
            else:
                para = "TableCell" if column == 0 else "TableFigure"
            spanned = f' table:number-columns-spanned="{span}"' if span > 1 else ""
            out.append(f'<table:table-cell table:style-name="{cell}"{spanned} office:value-type="string">'
                       f'<text:p text:style-name="{para}">{_odf_text(row[column])}</text:p></table:table-cell>')
            out += ["<table:covered-table-cell/>"] * (span - 1)
            column += span
        out.append("</table:table-row>")
    return [*out, "</table:table>"]


def _odf_paragraph_style(name: str, parent: str, paragraph: str = "", text: str = "", extra: str = "",
                         inner: str = "") -> str:
    return (f'<style:style style:name="{name}" style:family="paragraph" style:parent-style-name="{parent}"{extra}>'
            f"<style:paragraph-properties {paragraph}>{inner}</style:paragraph-properties>"
            f"<style:text-properties {text}/></style:style>")


def _odf_labels(indent: str) -> str:
    """A list level's label hung ``indent`` left of its text, a tab after it."""
    return ('<style:list-level-properties text:list-level-position-and-space-mode="label-alignment">'
            '<style:list-level-label-alignment text:label-followed-by="listtab" '
            f'text:list-tab-stop-position="{indent}" fo:text-indent="-{indent}" fo:margin-left="{indent}"/>'
            "</style:list-level-properties>")


def _odf_list_style(name: str, kind: str, attributes: str) -> str:
    return (f'<text:list-style style:name="{name}"><text:list-level-style-{kind} text:level="1" {attributes}>'
            f'{_odf_labels("0.3in")}</text:list-level-style-{kind}></text:list-style>')


def writer_source(article: Article) -> str:
    """The article as a word processor's document (OpenDocument's flat XML, set by LibreOffice
    Writer): styles for the text, the headings, the title block, lists, quotations, captions
    and tables; two columns as a section's; the running lines in the page's header and footer,
    left, centred and right by tab stops, the page number a field. Choices of its own come
    from the document's name (``writer_choices``)."""
    choices = writer_choices(article)
    size = article.size
    width = float(article.width.rstrip("i"))
    paper = (8.5, 11.0) if choices["paper"] == "letter" else (8.27, 11.69)
    side = (paper[0] - width) / 2
    column = (width - 0.3) / 2 if article.two_columns else width
    align = "justify" if choices["justify"] else "start"
    indented = any(block.kind == "para" for block in article.blocks)
    body = f'fo:text-align="{align}" fo:line-height="115%" ' + (
        'fo:text-indent="0.3in" fo:margin-bottom="0in"' if indented
        else f'fo:text-indent="0in" fo:margin-bottom="{choices["after"] if choices["after"] != "0in" else "0.08in"}"')
    stops = (f'<style:tab-stops><style:tab-stop style:position="{width / 2:.2f}in" style:type="center"/>'
             f'<style:tab-stop style:position="{width:.2f}in" style:type="right"/></style:tab-stops>')
    numbered = bool(choices["outline"]) and any(block.mark for block in article.blocks if block.kind == "heading")
    heads = f'style:font-name="Heads" fo:color="{choices["colour"]}" fo:font-weight="bold"'
    keep = 'fo:keep-with-next="always" fo:margin-top="0.16in" fo:margin-bottom="0.06in"'
    styles = [
        f'<style:default-style style:family="paragraph"><style:paragraph-properties fo:orphans="2" '
        f'fo:widows="2"/><style:text-properties style:font-name="Text" fo:font-size="{size}pt" fo:language="en" '
        'fo:country="US"/></style:default-style>',
        '<style:style style:name="Standard" style:family="paragraph" style:class="text"/>',
        _odf_paragraph_style("Text_20_body", "Standard", body, extra=' style:display-name="Text body"'),
        _odf_paragraph_style("Title", "Standard", 'fo:text-align="center" fo:margin-bottom="0.12in"',
                             f'style:font-name="Heads" fo:font-size="{round(size * 1.8)}pt"'),
        _odf_paragraph_style("Byline", "Standard", 'fo:text-align="center" fo:margin-bottom="0.02in"'),
        _odf_paragraph_style("Institution", "Byline", 'fo:margin-bottom="0.2in"', 'fo:font-style="italic"'),
        _odf_paragraph_style("Quotations", "Text_20_body", 'fo:margin-left="0.4in" fo:margin-right="0.4in" '
                             'fo:text-indent="0in" fo:margin-top="0.06in" fo:margin-bottom="0.06in"'),
        _odf_paragraph_style("List_20_Paragraph", "Text_20_body", 'fo:text-indent="0in" fo:margin-bottom="0.03in"'),
        _odf_paragraph_style("Caption", "Standard", 'fo:text-align="center" fo:margin-top="0.08in" '
                             'fo:margin-bottom="0.04in" fo:keep-with-next="always"', 'fo:font-style="italic"'),
        _odf_paragraph_style("TableCell", "Standard", 'fo:text-align="start"', f'fo:font-size="{size - 1}pt"'),
        _odf_paragraph_style("TableFigure", "TableCell", 'fo:text-align="end"'),
        _odf_paragraph_style("TableHead", "TableCell", "", 'fo:font-weight="bold"'),
        _odf_paragraph_style("TableHeadRight", "TableHead", 'fo:text-align="end"'),
        _odf_paragraph_style("TableHeadCentred", "TableHead", 'fo:text-align="center"'),
        _odf_paragraph_style("Header", "Standard", f'fo:border-bottom="{_RULE if choices["rule"] else "none"}"',
                             'fo:font-size="8pt"', inner=stops),
        _odf_paragraph_style("Footer", "Header", 'fo:border-bottom="none"'),
    ]
    for level, (scale, italic) in enumerate(((1.35, False), (1.15, False), (1.0, True)), start=1):
        styles.append(_odf_paragraph_style(
            f"Heading_20_{level}", "Standard", keep,
            f'{heads} fo:font-size="{round(size * scale)}pt"' + (' fo:font-style="italic"' if italic else ""),
            extra=f' style:display-name="Heading {level}" style:default-outline-level="{level}" '
                  'style:next-style-name="Text_20_body"'))
    outline = "".join(
        f'<text:outline-level-style text:level="{level}" style:num-format="{"1" if numbered else ""}"'
        + (f' text:display-levels="{level}" style:num-suffix="."' if numbered else "")
        + f'>{_odf_labels("0.4in")}</text:outline-level-style>' for level in (1, 2, 3))
    styles.append(f'<text:outline-style style:name="Outline">{outline}</text:outline-style>')
    styles.append(_odf_list_style("Bullets", "bullet", 'text:bullet-char="•"'))
    styles.append(_odf_list_style("Numbers", "number", 'style:num-format="1" style:num-suffix="."'))
    automatic: dict[str, str] = {
        "page": f'<style:page-layout style:name="Page"><style:page-layout-properties fo:page-width="{paper[0]}in" '
                f'fo:page-height="{paper[1]}in" fo:margin-top="0.5in" fo:margin-bottom="0.5in" '
                f'fo:margin-left="{side:.2f}in" fo:margin-right="{side:.2f}in"/>'
                '<style:header-style><style:header-footer-properties fo:min-height="0in" fo:margin-bottom="0.25in"/>'
                '</style:header-style><style:footer-style><style:header-footer-properties fo:min-height="0in" '
                'fo:margin-top="0.25in"/></style:footer-style></style:page-layout>',
        "columns": '<style:style style:name="Columns" style:family="section"><style:section-properties>'
                   '<style:columns fo:column-count="2" fo:column-gap="0.3in"/></style:section-properties>'
                   "</style:style>"}
    running = article.running
    master = ['<style:master-page style:name="Standard" style:page-layout-name="Page">']
    for where, keys in (("header", ("LH", "CH", "RH")), ("footer", ("LF", "CF", "RF"))):
        if any(running.get(key) for key in keys):
            line = "<text:tab/>".join(_odf_running(running.get(key, "")) for key in keys)
            master.append(f'<style:{where}><text:p text:style-name="{where.capitalize()}">{line}</text:p>'
                          f"</style:{where}>")
    master.append("</style:master-page>")
    text = [f'<text:p text:style-name="Title">{_odf_text(article.title)}</text:p>']
    text += [f'<text:p text:style-name="Byline">{_odf_text(author)}</text:p>' for author in article.authors]
    text.append(f'<text:p text:style-name="Institution">{_odf_text(article.institution)}</text:p>')
    if article.two_columns:
        text.append('<text:section text:style-name="Columns" text:name="Body">')
    listed, closing = _in_lists(article.blocks, ("Bullets", "Numbers"), '<text:list text:style-name="{}">',
                                "</text:list>")
    tables = 0
    for before, block in listed:
        text += before
        words = _odf_text(block.text)
        if block.kind == "heading":
            typed = "" if numbered or not block.mark else _odf_text(block.mark) + " "
            text.append(f'<text:h text:style-name="Heading_20_{block.level}" text:outline-level="{block.level}">'
                        f"{typed}{words}</text:h>")
        elif block.kind in ("para", "block"):
            text.append(f'<text:p text:style-name="Text_20_body">{words}</text:p>')
        elif block.kind == "item":
            text.append(f'<text:list-item><text:p text:style-name="List_20_Paragraph">{words}</text:p>'
                        "</text:list-item>")
        elif block.kind == "quote":
            text.append(f'<text:p text:style-name="Quotations">{words}</text:p>')
        elif block.kind == "caption":
            text.append(f'<text:p text:style-name="Caption">{words}</text:p>')
        elif block.kind == "table":
            tables += 1
            text += _odf_table(block, tables, column, article.size, choices, automatic)
    text += closing
    if article.two_columns:
        text.append("</text:section>")
    faces = "".join(f'<style:font-face style:name="{name}" svg:font-family="&apos;{face}&apos;"/>'
                    for name, face in (("Text", choices["font"]), ("Heads", choices["heads"])))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {_ODF} office:version="1.3" '
            'office:mimetype="application/vnd.oasis.opendocument.text">\n'
            f"<office:font-face-decls>{faces}</office:font-face-decls>\n"
            "<office:styles>\n" + "\n".join(styles) + "\n</office:styles>\n"
            "<office:automatic-styles>\n" + "\n".join(automatic.values()) + "\n</office:automatic-styles>\n"
            "<office:master-styles>" + "".join(master) + "</office:master-styles>\n"
            "<office:body><office:text>\n" + "\n".join(text) + "\n</office:text></office:body></office:document>\n")


def truth(article: Article, typesetter: str = "groff") -> str:
    """The article's Markdown: its section numbers as ``typesetter`` prints them (groff's with a
    dot after, as the web page's, LaTeX's without)."""
    out = [f"# {article.title}", *article.authors, article.institution]
    for block in article.blocks:
        if block.kind == "heading":
            mark = block.mark if typesetter != "latex" else block.mark.rstrip(".")
            out.append("#" * (block.level + 1) + " " + (f"{mark} " if mark else "") + block.text)
        elif block.kind == "item":
            out.append(f"{block.mark} {block.text}")
        elif block.kind == "table":
            out.append(_table_truth(block))
        else:
            out.append(block.text)
    return "\n\n".join(out) + "\n"


TYPESETTERS = {"groff": "art", "latex": "tex", "html": "web", "writer": "odt"}  # each one's documents' names begin so


def make(count: int, seed: int, folder: Path, typesetter: str = "groff") -> list[Article]:
    """``count`` articles described from ``seed``, each typeset by ``typesetter`` into
    ``folder/pdfs`` with its source and ground truth beside."""
    tool = {"groff": "groff", "latex": "pdflatex", "html": "chromium", "writer": "soffice"}[typesetter]
    if shutil.which(tool) is None:
        raise SystemExit(f"bench_synthetic_articles: needs {tool} (apt-get install --no-install-recommends "
                         + {"groff": "groff", "latex": "texlive-latex-base texlive-latex-recommended",
                            "html": "chromium fonts-liberation",
                            "writer": "libreoffice-writer-nogui fonts-liberation fonts-dejavu-core"}[typesetter] + ")")
    rng = random.Random(seed)
    articles = [describe(rng, f"{TYPESETTERS[typesetter]}-{seed}-{index:03d}") for index in range(count)]
    for sub in ("src", "pdfs", "gt"):
        (folder / sub).mkdir(parents=True, exist_ok=True)

    def _typeset(article: Article) -> None:
        (folder / "gt" / f"{article.doc_id}.md").write_text(truth(article, typesetter), encoding="utf-8")
        pdf = folder / "pdfs" / f"{article.doc_id}.pdf"
        if typesetter == "groff":
            text = source(article)
            (folder / "src" / f"{article.doc_id}.ms").write_text(text, encoding="utf-8")
            done = subprocess.run(["groff", "-t", "-ms", "-Tpdf", "-K", "utf8"], input=text.encode(),
                                  capture_output=True, timeout=120, check=True)
            pdf.write_bytes(done.stdout)
            return
        if typesetter == "html":
            page = folder / "src" / f"{article.doc_id}.html"
            page.write_text(html_source(article), encoding="utf-8")
            own_lines = [] if web_choices(article)["browser_lines"] else ["--no-pdf-header-footer"]
            with tempfile.TemporaryDirectory() as profile:
                subprocess.run([tool, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                                *own_lines, f"--print-to-pdf={pdf}", page.as_uri()],
                               capture_output=True, timeout=120, check=True)
            return
        if typesetter == "writer":
            document = folder / "src" / f"{article.doc_id}.fodt"
            document.write_text(writer_source(article), encoding="utf-8")
            with tempfile.TemporaryDirectory() as work:  # a profile of its own: two run at once
                subprocess.run([tool, f"-env:UserInstallation={Path(work).as_uri()}", "--headless", "--norestore",
                                "--convert-to", "pdf", "--outdir", work, str(document)],
                               capture_output=True, timeout=180, check=True)
                shutil.copyfile(Path(work) / f"{article.doc_id}.pdf", pdf)
            return
        tex = folder / "src" / f"{article.doc_id}.tex"
        tex.write_text(latex_source(article), encoding="utf-8")
        with tempfile.TemporaryDirectory() as work:
            subprocess.run(["pdflatex", "-interaction=batchmode", "-halt-on-error", "-output-directory", work,
                            str(tex)], capture_output=True, timeout=120, check=True)
            shutil.copyfile(Path(work) / f"{article.doc_id}.pdf", pdf)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(_typeset, articles))
    return articles


def main(argv: list[str] | None = None) -> int:
    parser = options(__doc__, 60, "documents", "documents with their style")
    parser.add_argument("--typesetter", choices=sorted(TYPESETTERS), default="groff",
                        help="groff's ms macros (default), LaTeX's article class, a browser's page or a word "
                             "processor's document")
    return run(parser, argv, lambda args, folder: make(args.count, args.seed, folder, args.typesetter), _show)


def _show(folder: Path, into: Path, articles: list[Article], count: int) -> None:
    result = score(folder, into, [a.doc_id for a in articles])
    styles = {a.doc_id: a.style for a in articles}
    rows = sorted((row["overall"], row["nid"], row["mhs"], row["id"]) for row in result["json"]["documents"])
    for overall, nid, mhs, doc_id in rows[:count]:
        heads = "-" if mhs is None else f"{mhs:.3f}"
        print(f"  {doc_id} {styles[doc_id]}: overall {overall:.3f} nid {nid:.3f} mhs {heads}")


if __name__ == "__main__":
    raise SystemExit(main())
