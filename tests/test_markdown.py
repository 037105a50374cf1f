"""The Markdown view (docs/manual.md, MARKDOWN VIEW): organized blocks as CommonMark + GFM, with the words of the
text view. Every Markdown here is read back by a real parser (tests/markdown_words.py)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import records
from httpserver import Route, Running
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_words import PARSER, html_tokens, markdown_words, missing_and_extra, rendered_text, words

from siftpdf.errors import SiftError
from siftpdf.views import markdown
from siftpdf.views import text as textview


def block(kind: str, text: str = "", page: int = 1, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "text": text, "spans": [{"page": page, "rect": [0, 0, 1, 1]}], **extra}


def page(number: int, blocks: list[dict[str, Any]] | None = None, text: str = "", **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"page": number, "status": "text", "text": text, **extra}
    if blocks is not None:
        record["blocks"] = blocks
    return record


def body(blocks: list[dict[str, Any]]) -> str:
    return markdown.render_blocks(blocks, 1)


def types(text: str) -> list[str]:
    return [t.type for t in PARSER.parse(text) if t.type.endswith("_open")]


# -- each kind of block -------------------------------------------------------------------------

def test_headings_by_level_clamped_to_one_to_six() -> None:
    out = body([block("heading", "Title", level=1), block("heading", "1.2 Methods", level=2),
                block("heading", "Deep", level=9), block("heading", "Flat", level=0),
                block("heading", "None"), block("heading", "  ", level=2)])
    assert out.split("\n\n") == ["# Title", "## 1.2 Methods", "###### Deep", "# Flat", "# None"]
    assert types(out).count("heading_open") == 5


def test_heading_keeps_a_trailing_hash_and_a_leading_number() -> None:
    out = body([block("heading", "Using C#", level=2), block("heading", "3. Results", level=1)])
    assert out == "## Using C\\#\n\n# 3. Results"
    assert rendered_text(out).split() == ["Using", "C#", "3.", "Results"]


def test_list_items_keep_their_enumerator_and_bullets_become_dashes() -> None:
    out = body([block("list_item", "• first point"), block("list_item", "– second point"),
                block("paragraph", "Between."),
                block("list_item", "1. one"), block("list_item", "2. two"), block("list_item", "2) again"),
                block("list_item", "a) letter")])
    assert out.split("\n\n") == ["- first point\n- second point", "Between.", "1. one\n2. two", "2) again",
                                 "a) letter"]
    assert types(out).count("bullet_list_open") == 1 and types(out).count("ordered_list_open") == 2
    assert [t.hidden for t in PARSER.parse(out) if t.type == "paragraph_open"][:2] == [True, True]  # tight


def test_an_ordered_item_markdown_would_renumber_stays_text() -> None:
    # A Markdown list shows 3, 4, 5 for '3.', '5.', '6.': the 5 would be lost.
    out = body([block("list_item", "3. three"), block("list_item", "5. five"), block("list_item", "6. six"),
                block("list_item", "07. zero-padded")])
    assert out.split("\n\n") == ["3. three", "5\\. five", "6. six", "07\\. zero-padded"]
    assert rendered_text(out).split() == ["3.", "three", "5.", "five", "6.", "six", "07.", "zero-padded"]


def test_provisions_captions_paragraphs_and_footnotes_at_the_end() -> None:
    out = body([block("provision", "第三条　市人民政府应当加强领导。"), block("footnote", "1 A note."),
                block("provision", "(a) the first case;"), block("caption", "Table 2: Stations."),
                block("paragraph", "Body text."), block("footnote", "2 Another.")])
    assert out.split("\n\n") == ["第三条　市人民政府应当加强领导。", "(a) the first case;", "Table 2: Stations.",
                                 "Body text.", "1 A note.", "2 Another."]
    assert types(out) == ["paragraph_open"] * 6


def test_figure_is_an_image_placeholder_naming_its_page() -> None:
    out = body([block("figure", "", page=3), block("caption", "Figure 1: A river.")])
    assert out.split("\n\n")[0] == "![figure (p. 3)]()"
    image = PARSER.parse(out)[1].children[0]
    assert image.type == "image" and image.attrGet("src") == "" and image.content == "figure (p. 3)"


def test_code_is_fenced_with_its_lines_and_indentation_as_set_and_nothing_escaped() -> None:
    code = "1 def area(r):\n2     return 3.14 * r ** 2  # `pi` r_squared\n3\n4 x = [a | b]"
    out = body([block("paragraph", "Before."), block("code", code), block("paragraph", "After.")])
    assert out.split("\n\n")[1] == "```\n" + code + "\n```"
    fences = [t for t in PARSER.parse(out) if t.type == "fence"]
    assert len(fences) == 1 and fences[0].content == code + "\n"
    assert markdown_words(out) == words(f"Before. {code} After.")


def test_code_holding_a_fence_gets_a_longer_one() -> None:
    code = "echo '```'\necho '````'"
    out = body([block("code", code)])
    assert out.startswith("`````\n") and out.endswith("\n`````")
    assert [t.content for t in PARSER.parse(out) if t.type == "fence"] == [code + "\n"]


def test_table_rows_make_one_pipe_table_padded_to_the_widest_row() -> None:
    out = body([block("paragraph", "Before."), block("table_row", "Station | Depth | Flow"),
                block("table_row", "Weir | 1.20"), block("table_row", "Mill | 2.05 | 21.7"),
                block("paragraph", "After.")])
    assert out.split("\n\n")[1] == ("| Station | Depth | Flow |\n|---|---|---|\n| Weir | 1.20 |  |\n"
                                    "| Mill | 2.05 | 21.7 |")
    parsed = [t.type for t in PARSER.parse(out)]
    assert parsed.count("table_open") == 1 and parsed.count("th_open") == 3 and parsed.count("td_open") == 6


def test_cells_given_as_cells_escape_their_pipes() -> None:
    out = body([block("table_row", "a|b | c", cells=["a|b", "c"]), block("table_row", "d | e", cells=["d", "e"])])
    assert out.startswith("| a\\|b | c |\n|---|---|")
    cells = [t.content for t in PARSER.parse(out) if t.type == "inline"]
    assert cells == ["a|b", "c", "d", "e"]


def test_rows_without_cells_are_plain_lines() -> None:
    out = body([block("table_row", "Total 42"), block("table_row", "- 7 carried")])
    assert out == "Total 42\\\n\\- 7 carried"
    assert [t.type for t in PARSER.parse(out)[1].children] == ["text", "hardbreak", "text"]


def test_a_table_block_with_spans_is_html_else_a_pipe_table() -> None:
    spanned = {"kind": "table", "text": "", "spans": [], "header_rows": 1, "rows": [
        [{"text": "Site", "rowspan": 2}, {"text": "Flow <m3/s>", "colspan": 2}],
        [{"text": "min"}, {"text": "max & mean"}]]}
    out = body([spanned])
    assert out == ('<table>\n<tr><th rowspan="2">Site</th><th colspan="2">Flow &lt;m3/s&gt;</th></tr>\n'
                   "<tr><td>min</td><td>max &amp; mean</td></tr>\n</table>")
    assert markdown_words(out) == ["Site", "Flow", "<m3/s>", "min", "max", "mean"] and html_tokens(out) == []
    plain = {"kind": "table", "text": "", "spans": [], "rows": [[{"text": "a"}, {"text": "b"}], [{"text": "1"}]]}
    assert body([plain]) == "| a | b |\n|---|---|\n| 1 |  |"



def test_a_tables_part_going_on_from_the_page_before_without_a_head_gets_an_empty_head_row() -> None:
    rows = [[{"text": "North"}, {"text": "12"}], [{"text": "East"}, {"text": "7"}]]
    going_on = {"kind": "table", "text": "", "spans": [], "rows": rows, "header_rows": 0, "continued": True}
    assert body([going_on]) == "|  |  |\n|---|---|\n| North | 12 |\n| East | 7 |"
    headed = dict(going_on, header_rows=1)  # its head printed again over its rows
    assert body([headed]) == "| North | 12 |\n|---|---|\n| East | 7 |"
    assert body([dict(going_on, continued=False)]) == body([headed])

# -- escaping -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("2 * 3 and *emphasis*", "2 \\* 3 and \\*emphasis\\*"),
    ("_init_ and snake_case_name", "\\_init\\_ and snake_case_name"),
    ("run `make` now", "run \\`make\\` now"),
    ("# not a heading", "\\# not a heading"),
    ("#5 is fine", "\\#5 is fine"),
    ("> not a quote", "\\> not a quote"),
    ("- not a bullet", "\\- not a bullet"),
    ("+ not a bullet", "\\+ not a bullet"),
    ("-5 degrees", "-5 degrees"),
    ("1. not a list", "1\\. not a list"),
    ("1999) was a year", "1999\\) was a year"),
    ("3.14 is pi", "3.14 is pi"),
    ("---", "\\---"),
    ("===", "\\==="),
    ("a | b", "a | b"),
    ("| a | b |\n| --- | --- |", "| a | b |\n| \\--- | --- |"),
    ("[1] and [a](b) and [x]: y", "[1] and [a\\](b) and [x\\]: y"),
    ("<div> and a < b and <http://x>", "\\<div> and a < b and \\<http://x>"),
    ("&amp; &#42; AT&T", "\\&amp; \\&#42; AT&T"),
    ("~200 m", "~200 m"),
    ("~~struck~~", "\\~\\~struck\\~\\~"),
    ("C:\\dir\\*.txt ends\\", "C:\\dir\\\\\\*.txt ends\\\\"),
    ("    indented code", "indented code"),
])
def test_escaping(text: str, expected: str) -> None:
    assert markdown.escape(text) == expected
    assert types(expected) == ["paragraph_open"]
    assert rendered_text(expected).split() == text.split()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab1 _*`~|[]()<>&#;!-+=.:\\\t\n/é中", max_size=40))
def test_escaped_text_reads_back_word_for_word(text: str) -> None:
    assert rendered_text(markdown.escape(text)).split() == text.split()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["paragraph", "heading", "list_item", "provision", "caption",
                                           "footnote", "table_row"]),
                          st.text(alphabet="ab1 _*`~|[]<>&#.)-•\\", max_size=20)), max_size=8))
def test_any_blocks_keep_the_words_of_the_text_view(blocks: list[tuple[str, str]]) -> None:
    made = [block(kind, text, level=2 if kind == "heading" else None) for kind, text in blocks]
    for item in made:
        if item["level"] is None:
            del item["level"]
    plain = "\n".join(b["text"] for b in made)
    assert missing_and_extra(plain, body(made)) == ({}, {})


# -- pages and their markers --------------------------------------------------------------------

def test_pages_are_framed_as_the_text_view_frames_them() -> None:
    pages = [page(1, [block("paragraph", "Closing words")]), page(2, [block("table_row", "---"),
                                                                       block("paragraph", "More")]),
             page(3, [], status="empty")]
    text = "".join(textview.render_page(p, i == 0) for i, p in enumerate(pages))
    md = "".join(markdown.render_page(p, i == 0) for i, p in enumerate(pages))
    assert md == ("--- page 1 ---\n\nClosing words\n\n--- page 2 ---\n\n\\---\n\nMore\n\n--- page 3 ---\n\n"
                  "[empty page]\n")
    assert md.count("\n\n--- page ") == text.count("\n\n--- page ") == 2
    # Each marker is a paragraph of its own: no setext heading, no rule, citations intact.
    paragraphs = [t.content for t in PARSER.parse(md) if t.type == "inline"]
    assert [p for p in paragraphs if p.startswith("--- page")] == ["--- page 1 ---", "--- page 2 ---",
                                                                  "--- page 3 ---"]
    assert "hr" not in [t.type for t in PARSER.parse(md)]


def test_a_page_without_blocks_is_its_text_escaped() -> None:
    raw = page(4, None, text="* Bullet from the engine\n    1. indented\nplain | piped\n===")
    assert markdown.page_markdown(raw) == "\\* Bullet from the engine\n1\\. indented\nplain | piped\n\\==="
    assert markdown.page_markdown({"page": 5, "status": "no_text", "text": ""}).startswith("[no text layer")
    failed = {"page": 6, "status": "failed", "error": "boom"}
    assert markdown.page_markdown(failed) == "[page 6 could not be extracted: boom]"


def test_hostile_blocks_do_not_fail_the_page() -> None:
    junk: list[Any] = [None, "text", {"kind": "heading", "text": 5, "level": "x"}, {"kind": "table_row"},
                       {"kind": "figure", "spans": "nowhere"}, {"kind": "list_item", "text": None},
                       {"kind": "table", "rows": [[None, {"text": 1}], "x"]}]
    out = markdown.render_page(page(2, junk), first=True)
    assert out.startswith("--- page 2 ---\n\n") and "![figure (p. 2)]()" in out


# -- through the command line -------------------------------------------------------------------

def _both(run_cli, *args: str) -> tuple[str, str]:
    text = run_cli(*args, "--text")
    md = run_cli(*args, "--markdown")
    assert text.exit_code == 0 and md.exit_code == 0, (text.output, md.output)
    return text.output, md.output


def test_extract_markdown_of_a_two_column_paper(run_cli, fixtures: Path) -> None:
    text, md = _both(run_cli, "extract", str(fixtures / "paper_2col.pdf"))
    assert missing_and_extra(text, md) == ({}, {})
    assert "\n## 1 Introduction\n" in md and "\n## 2 Methods\n" in md  # below the title
    assert "\n| Station | Depth (m) | Velocity (m/s) | Discharge |\n|---|---|---|---|\n| Upper weir |" in md
    assert "\n![figure (p. 1)]()\n" in md
    first = md.split("--- page 2 ---")[0]
    assert first.rstrip().endswith("1 Supported by the imaginary foundation for tidy documents.")
    assert [t.type for t in PARSER.parse(md)].count("table_open") == 1


def test_pages_markdown_of_a_chinese_regulation(run_cli, fixtures: Path) -> None:
    text, md = _both(run_cli, "pages", "1-2", str(fixtures / "regulation_cn.pdf"))
    assert missing_and_extra(text, md) == ({}, {})
    assert md.startswith("--- page 1 ---\n\n# 第一章　总则\n\n第一条　为了规范公共数据")


def test_map_markdown(run_cli, fixtures: Path) -> None:
    result = run_cli("map", "--markdown", "--cap", "400", str(fixtures / "outline.pdf"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Outline Tëst\npages 4 · ~")
    assert "\n- Chapter 1 (p. 1)\n  - Section 1.1 — by action (p. 2)\n" in result.output
    whole = run_cli("map", "--markdown", str(fixtures / "three_page.pdf"))
    assert whole.output.startswith("--- page 1 ---\n\n")


def test_map_lines_are_escaped_and_nest_one_level_at_a_time() -> None:
    from siftpdf.views.map import DocMap, render_map

    outline = [{"title": "*Deep* start", "page": 1, "level": 3}, {"title": "1. Top", "page": 2, "level": 1},
               {"title": "# Sub_", "page": 3, "level": 4}]
    doc_map = DocMap(title="A_ #title#", pages=9, extracted=9, chars=4000, outline=outline)
    md = render_map(doc_map, "my_doc.pdf", 2000, markdown=True)
    lines = md.splitlines()
    assert lines[0] == "# A\\_ \\#title\\#"
    assert lines[3:6] == ["- \\*Deep\\* start (p. 1)", "- 1\\. Top (p. 2)", "  - \\# Sub\\_ (p. 3)"]
    assert render_map(doc_map, "my_doc.pdf", 2000).splitlines()[5] == "      - # Sub_ (p. 3)"
    assert words(rendered_text(md)) == words(render_map(doc_map, "my_doc.pdf", 2000).removeprefix("# "))


def test_raw_pages_are_escaped_text(run_cli, fixtures: Path) -> None:
    text, md = _both(run_cli, "extract", "--raw", str(fixtures / "paper_2col.pdf"))
    assert missing_and_extra(text, md) == ({}, {})
    assert "\n# " not in md


def test_markdown_and_json_exclude_each_other_and_the_environment_picks_the_view(run_cli, fixtures: Path) -> None:
    path = str(fixtures / "three_page.pdf")
    both = run_cli("pages", "1", "--markdown", "--json", path)
    assert both.exit_code == 2 and "--markdown and --json exclude each other" in both.output
    assert run_cli("extract", "--text", "--markdown", path).exit_code == 2
    env = {"SIFTPDF_FORMAT": "markdown"}
    plain = run_cli("pages", "1", path).output
    assert run_cli("pages", "1", path, env=env).output == run_cli("pages", "1", "--markdown", path).output
    assert run_cli("pages", "1", "--text", path, env=env).output == plain
    assert records(run_cli("extract", "--json", path, env=env).output)[0]["meta"]["pages"] == 3
    assert run_cli("extract", path, env=env).output.startswith("--- page 1 ---")
    bad = run_cli("pages", "1", path, env={"SIFTPDF_FORMAT": "html"})
    assert bad.exit_code == 2 and "SIFTPDF_FORMAT" in bad.output


def test_fetch_markdown(fixtures: Path) -> None:
    from conftest import run_siftpdf

    upstream = Running("127.0.0.1")
    try:
        upstream.server.routes["/paper.pdf"] = Route((fixtures / "paper_2col.pdf").read_bytes())
        url = upstream.server.url("/paper.pdf")
        done = run_siftpdf("fetch", "--allow-private", "--markdown", url)
        text = run_siftpdf("fetch", "--allow-private", "--text", url)
    finally:
        upstream.stop()
    assert done.returncode == 0, done.stderr
    md = done.stdout.decode()
    assert md.startswith("--- page 1 ---\n\n# Measuring Rivers") and "\n|---|---|---|---|\n" in md
    assert missing_and_extra(text.stdout.decode(), md) == ({}, {})


# -- the corpus ---------------------------------------------------------------------------------

def _views(path: Path) -> tuple[Path, str, str] | None:
    import siftpdf

    try:
        with siftpdf.open_doc(path, siftpdf.read_options(max_pages=30, cache=False, deadline=30)) as doc:
            pages = list(doc.pages())
    except SiftError:
        return None
    text = "".join(textview.render_page(p, i == 0) for i, p in enumerate(pages))
    md = "".join(markdown.render_page(p, i == 0) for i, p in enumerate(pages))
    return path, text, md


def _corpus_views(corpus: Path) -> Iterator[tuple[Path, str, str]]:
    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
    assert len(files) > 100
    with ThreadPoolExecutor(max_workers=2) as pool:
        for result in pool.map(_views, files):
            if result is not None:
                yield result


@pytest.mark.check  # make check: a walk of the whole corpus
def test_every_corpus_pdf_in_markdown_has_the_words_of_the_text_view(corpus: Path) -> None:
    """The first 30 pages of each corpus PDF, read once, written in both views."""
    checked, lost = 0, []
    for path, text, md in _corpus_views(corpus):
        checked += 1
        missing, extra = missing_and_extra(text, md)
        if missing or extra or html_tokens(md):
            lost.append((path.name, dict(list(missing.items())[:5]), dict(list(extra.items())[:5])))
    assert checked > 200
    assert not lost, lost[:10]


def test_the_word_reader_takes_markup_away_and_notices_lost_words() -> None:
    assert words("a | b • c --- d") == ["a", "b", "c", "d"]
    assert markdown_words("0. z\n\n# a\n\n- b\n\n3. c\n\n| d |\n|---|\n| e |\n\n*f* `g` ![x]()") == \
        ["0.", "z", "a", "b", "3.", "c", "d", "e", "f", "g", "[figure]"]
    assert markdown_words("[x]: /url\n\n<div>\nhidden\n</div>\n\n&amp; <b>h</b>") == ["h"]
    table = '<table>\n<tr><th colspan="2">Flow &amp; depth</th></tr>\n<tr><td>1.2</td><td>a&lt;b</td></tr>\n</table>'
    assert markdown_words(table) == ["Flow", "depth", "1.2", "a<b"] and html_tokens(table) == []
