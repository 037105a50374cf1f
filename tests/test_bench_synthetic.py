"""The synthetic tables' descriptions: what the ground truth says must be what the page draws."""

from __future__ import annotations

import random
import re

from bench.bench_synthetic_tables import STYLES, describe, page_html, page_truth, width_of


def _pages(count: int = 300) -> list:
    rng = random.Random(7)
    return [describe(rng, f"t-{k}") for k in range(count)]


def test_every_table_described_is_a_rectangle_once_its_spans_are_counted() -> None:
    for page in _pages():
        widths = width_of(page.rows)
        assert len(set(widths)) == 1, (page.doc_id, widths)


def test_the_page_and_its_ground_truth_hold_the_same_cells_in_the_same_order() -> None:
    for page in _pages(60):
        drawn = re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", page_html(page))
        truth = re.findall(r"<td[^>]*>([^<]*)</td>", page_truth(page))
        assert drawn == truth


def test_the_same_seed_describes_the_same_pages_and_every_style_is_drawn() -> None:
    assert [page_truth(p) for p in _pages(40)] == [page_truth(p) for p in _pages(40)]
    assert {p.style for p in _pages()} == set(STYLES)


def test_a_synthetic_articles_source_and_ground_truth_hold_the_same_text_in_the_same_order() -> None:
    from bench.bench_synthetic_articles import describe as describe_article
    from bench.bench_synthetic_articles import source, truth

    rng = random.Random(7)
    for k in range(40):
        article = describe_article(rng, f"a-{k}")
        text, expected = source(article), truth(article)
        text = re.sub(r"^\.TS\n.*?^\.TE\n", "", text, flags=re.MULTILINE | re.DOTALL)  # tables: below
        written = [line for line in text.splitlines() if not line.startswith(".")]
        said = [re.sub(r"^(#+ (\d+(\.\d+)*\. )?|\d+\. |- )", "", part) for part in expected.strip().split("\n\n")
                if not part.startswith("<table>")]
        assert [re.sub(r"^\\&|\\f[IP]", "", line) for line in written] == said
        numbers = [m for m in re.findall(r"^#+ (\d+(?:\.\d+)*)\. ", expected, re.MULTILINE)]
        tops = [int(n) for n in numbers if "." not in n]
        assert tops == list(range(1, len(tops) + 1))  # the ground truth numbers sections as groff does
        for block in (b for b in article.blocks if b.kind == "table"):  # every cell in the truth's table
            assert all(f"<td>{cell}</td>" in expected for row in block.rows for cell in row)


def test_a_synthetic_articles_latex_source_holds_the_ground_truths_text_in_order() -> None:
    from bench.bench_synthetic_articles import describe as describe_article
    from bench.bench_synthetic_articles import latex_source, tex_escaped, truth

    rng = random.Random(7)
    for k in range(40):
        article = describe_article(rng, f"a-{k}")
        text, expected = latex_source(article), truth(article, "latex")
        said = [re.sub(r"^(#+ (\d+(\.\d+)*(?<!\.) )?|\d+\. |- )", "", part) for part in expected.strip().split("\n\n")
                if not part.startswith("<table>")]
        at = 0
        for part in said:  # each block's text, escaped for TeX, after the one before it
            at = text.index(tex_escaped(part), at)
        assert not re.findall(r"^#+ \d+(?:\.\d+)*\. ", expected, re.MULTILINE)  # LaTeX numbers without a dot
        for block in (b for b in article.blocks if b.kind == "table"):
            assert all(tex_escaped(cell) in text for row in block.rows for cell in row)


def test_a_synthetic_articles_web_page_holds_the_ground_truths_text_in_order() -> None:
    from html.parser import HTMLParser

    from bench.bench_synthetic_articles import describe as describe_article
    from bench.bench_synthetic_articles import html_source, truth

    class Text(HTMLParser):  # the page's text as a browser draws it, block by block
        def __init__(self) -> None:
            super().__init__()
            self.blocks: list[str] = []
            self.style = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.style = tag in ("style", "title")
            if tag in ("h1", "h2", "h3", "p", "li", "td", "caption"):
                self.blocks.append("")

        def handle_data(self, data: str) -> None:
            if not self.style and self.blocks:
                self.blocks[-1] += data

    rng = random.Random(7)
    for k in range(40):
        article = describe_article(rng, f"a-{k}")
        expected = truth(article, "html")
        page = Text()
        page.feed(html_source(article))
        drawn = [b.strip() for b in page.blocks if b.strip()]
        said = [re.sub(r"^(#+ |- |\d+\. (?!\S*\d))", "", part) for part in expected.strip().split("\n\n")
                if not part.startswith("<table>")]
        cells = {cell for b in article.blocks if b.kind == "table" for row in b.rows for cell in row}
        cells |= {b.mark for b in article.blocks if b.kind == "table" and b.mark}
        assert [b for b in drawn if b not in cells] == said
        for block in (b for b in article.blocks if b.kind == "table"):
            assert all(f"<td>{cell}</td>" in expected for row in block.rows for cell in row)


def test_a_synthetic_articles_word_processor_document_holds_the_ground_truths_text_in_order() -> None:
    import xml.etree.ElementTree as ET

    from bench.bench_synthetic_articles import describe as describe_article
    from bench.bench_synthetic_articles import truth, writer_source

    text_ns = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
    table_ns = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
    style_ns = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
    fo_ns = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
    rng = random.Random(7)
    for k in range(40):
        article = describe_article(rng, f"a-{k}")
        root = ET.fromstring(writer_source(article))  # well-formed XML, or this raises
        body = root.find("{urn:oasis:names:tc:opendocument:xmlns:office:1.0}body")
        assert body is not None
        in_tables = {id(p) for table in body.iter(f"{table_ns}table") for p in table.iter()}
        drawn = ["".join(p.itertext()) for p in body.iter() if p.tag in (f"{text_ns}p", f"{text_ns}h")
                 and id(p) not in in_tables]
        numbered = root.find(f".//{text_ns}outline-level-style").get(f"{style_ns}num-format") == "1"
        said = [re.sub(r"^(#+ (\d+(\.\d+)*\. )?|- |\d+\. (?!\S*\d))" if numbered else r"^(#+ |- |\d+\. (?!\S*\d))",
                       "", part) for part in truth(article, "writer").strip().split("\n\n")
                if not part.startswith("<table>")]
        assert drawn == said
        cells = {id(c): c for c in body.iter(f"{table_ns}table-cell")}
        texts = {"".join(c.itertext()) for c in cells.values()}
        for block in (b for b in article.blocks if b.kind == "table"):
            assert all(cell in texts for row in block.rows for cell in row)
        borders = {s.get(f"{style_ns}name"): s.find(f"{style_ns}table-cell-properties")
                   for s in root.iter(f"{style_ns}style") if s.get(f"{style_ns}family") == "table-cell"}
        for table, block in zip(body.iter(f"{table_ns}table"), (b for b in article.blocks if b.kind == "table"),
                                strict=True):
            if block.text in ("allbox", "box", "doublebox"):  # a frame's right side on every row, spans too
                for row in table.iter(f"{table_ns}table-row"):
                    last = row.findall(f"{table_ns}table-cell")[-1]
                    assert borders[last.get(f"{table_ns}style-name")].get(f"{fo_ns}border-right") != "none"
