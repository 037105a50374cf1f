"""Articles no rule was written for: documents made from a seeded description, typeset by groff,
scored against the description.

    python bench/bench_synthetic_articles.py [--typesetter groff|latex] [--count N] [--seed S] [--peers]
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

Needs groff with its PDF device (Debian's ``groff``; a benchmark's tool, not the package's
dependency). ``apt-get install --no-install-recommends groff``: the ghostscript it recommends
brings a CJK fallback font (fonts-droid-fallback), and with it PDFium reads Chinese set in fonts
a file does not embed that it reads without it as figures only.
"""

from __future__ import annotations

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
    listing = ""
    for block in article.blocks:
        kind = "" if block.kind != "item" else "itemize" if block.mark == "-" else "enumerate"
        if listing and kind != listing:
            lines.append(f"\\end{{{listing}}}")
        if kind and kind != listing:
            lines.append(f"\\begin{{{kind}}}")
        listing = kind
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
    if listing:
        lines.append(f"\\end{{{listing}}}")
    return "\n".join([*lines, "\\end{document}"]) + "\n"


def truth(article: Article, typesetter: str = "groff") -> str:
    """The article's Markdown: its section numbers as ``typesetter`` prints them (groff's with a
    dot after, LaTeX's without)."""
    out = [f"# {article.title}", *article.authors, article.institution]
    for block in article.blocks:
        if block.kind == "heading":
            mark = block.mark if typesetter == "groff" else block.mark.rstrip(".")
            out.append("#" * (block.level + 1) + " " + (f"{mark} " if mark else "") + block.text)
        elif block.kind == "item":
            out.append(f"{block.mark} {block.text}")
        elif block.kind == "table":
            out.append(_table_truth(block))
        else:
            out.append(block.text)
    return "\n\n".join(out) + "\n"


TYPESETTERS = {"groff": "art", "latex": "tex"}  # each one's documents' names begin so


def make(count: int, seed: int, folder: Path, typesetter: str = "groff") -> list[Article]:
    """``count`` articles described from ``seed``, each typeset by ``typesetter`` into
    ``folder/pdfs`` with its source and ground truth beside."""
    tool = "groff" if typesetter == "groff" else "pdflatex"
    if shutil.which(tool) is None:
        raise SystemExit(f"bench_synthetic_articles: needs {tool} (apt-get install --no-install-recommends "
                         + ("groff)" if tool == "groff" else "texlive-latex-base texlive-latex-recommended)"))
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
                        help="groff's ms macros (default) or LaTeX's article class")
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
