"""Layout of single pages from evidence built here: what is read, in what order, what is a
heading and what is set aside."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import siftpdf
from siftpdf.organize import organize_records
from siftpdf.organize.layout import line_segments
from siftpdf.settings import OrganizeOptions
from siftpdf.texfonts import tex_encoding

CHAR = 5.0  # points per character of the test font at size 10


def run(text: str, x0: float, y: float, size: float = 10.0, font: str = "Times-Roman") -> dict[str, Any]:
    width = CHAR * size / 10 * len(text)
    return {"text": text, "font": font, "size": size, "color": "#000000",
            "box": [x0, y - 0.2 * size, x0 + width, y + 0.8 * size]}


def line(y: float, text: str, x0: float = 72.0, size: float = 10.0, bold: bool = False) -> dict[str, Any]:
    return {"y": y, "size": size, "runs": [run(text, x0, y, size, "Times-Bold" if bold else "Times-Roman")]}


def page(n: int, lines: list[dict[str, Any]], width: float = 612.0, height: float = 792.0) -> dict[str, Any]:
    evidence = {"width": width, "height": height, "rotation": 0, "lines": lines, "images": [],
                "clipped_chars": 0, "unmapped_chars": 0}
    return {"page": n, "text": "raw", "status": "text", "evidence": evidence}


def organize(pages: list[dict[str, Any]], outline: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    stream = [{"meta": {"pages": len(pages), "max_pages": 2000, "outline": outline or []}}, *pages,
              {"done": {"pages_processed": len(pages)}}]
    return [r for r in organize_records(stream, OrganizeOptions()) if "page" in r]


def headings(record: dict[str, Any]) -> list[tuple[int, str]]:
    return [(b["level"], b["text"]) for b in record["blocks"] if b["kind"] == "heading"]


def prose(words: int, seed: str) -> list[str]:
    """Lines of about 60 characters of distinct words."""
    text = " ".join(f"{seed}{k}" for k in range(words))
    out, current = [], ""
    for word in text.split():
        if len(current) + len(word) + 1 > 60:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return out + [current]


SEEDS = {n: "page" + "abcdefghijklmnop"[n] * 2 for n in range(16)}  # words that differ from page to page


def body_lines(top: float, seed: str, count: int = 4, x0: float = 72.0) -> list[dict[str, Any]]:
    """A paragraph of ``count`` full lines from ``top`` down, 12 pt apart."""
    texts = prose(12 * count, seed)[:count]
    return [line(top - 12 * k, t, x0=x0) for k, t in enumerate(texts)]


def sections(numbers: list[str], top: float = 660.0) -> list[dict[str, Any]]:
    """Numbered bold headings, each over a paragraph."""
    lines: list[dict[str, Any]] = []
    for number in numbers:
        lines.append(line(top, f"{number} Section {number.replace('.', ' ')}", bold=True))
        lines += body_lines(top - 18, f"s{number.replace('.', '')}w")
        top -= 80
    return lines


def test_numbered_headings_take_their_depth_below_the_title():
    title = line(740, "A Study of Rivers", x0=200, size=20)
    out = organize([page(1, [title, *sections(["1", "1.1", "1.1.1", "2"])])])[0]
    assert headings(out) == [(1, "A Study of Rivers"), (2, "1 Section 1"), (3, "1.1 Section 1 1"),
                             (4, "1.1.1 Section 1 1 1"), (2, "2 Section 2")]


def test_numbered_headings_without_a_title_start_at_one():
    out = organize([page(1, sections(["1", "1.1", "1.1.1"]))])[0]
    assert [level for level, _ in headings(out)] == [1, 2, 3]


def test_unnumbered_headings_ranked_by_size_across_pages():
    first = [line(740, "Big Part Name", size=18), *body_lines(700, "a"), line(640, "Middle Name", size=14),
             *body_lines(610, "b")]
    second = [line(740, "Small Name", size=12), *body_lines(700, "c"), line(640, "Other Middle", size=14),
              *body_lines(610, "d")]
    out = organize([page(1, first), page(2, second)])
    assert headings(out[0]) == [(1, "Big Part Name"), (2, "Middle Name")]
    assert headings(out[1]) == [(3, "Small Name"), (2, "Other Middle")]


def test_outline_titles_become_headings_at_the_outline_depth():
    lines = [line(740, "Overview of the work", bold=True), *body_lines(720, "a"),
             line(660, "Plain title in body type"), *body_lines(640, "b"),
             line(580, "A title set over"), line(568, "two lines"), *body_lines(548, "c")]
    outline = [{"title": "Overview of the Work", "page": 1, "level": 1},
               {"title": "Plain Title in Body Type", "page": 1, "level": 2},
               {"title": "A title set over two lines", "page": 1, "level": 3},
               {"title": "Plain title in body type", "page": 2, "level": 1}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "Overview of the work"), (2, "Plain title in body type"),
                             (3, "A title set over two lines")]


def test_a_paragraphs_last_words_that_are_an_outline_title_stay_in_the_paragraph():
    """A manual's paragraph ends 'the signal numbers of all the defined types of' / 'signals.',
    and 'Signals' is a section the outline lists on the page: the line is the paragraph's last,
    not the section's head; the section's own title still heads it."""
    texts = [" ".join(f"s{k}w{j:02d}" for j in range(12))[:60] for k in range(3)]  # justified, full
    lines = [line(740, "Signals", bold=True), *[line(720 - 12 * k, t) for k, t in enumerate(texts)],
             line(684, "signals."), *body_lines(660, "b")]
    outline = [{"title": "Signals", "page": 1, "level": 2}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(2, "Signals")]
    assert out["blocks"][1]["text"] == f"{' '.join(texts)} signals."


def test_a_page_of_bold_lines_is_not_all_headings():
    lines = [line(740 - 14 * k, f"Bold statement number {k} stands here", bold=True) for k in range(12)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    assert all(b["kind"] == "paragraph" for b in out["blocks"])


def test_a_bold_lead_in_running_into_its_paragraph_is_not_a_heading():
    lead = {"y": 700, "size": 10, "runs": [run("Ablation results.", 72, 700, font="Times-Bold"),
                                            run("We present a study of the merged models.", 162, 700)]}
    out = organize([page(1, [*body_lines(740, "a", 3), lead, *body_lines(688, "b", 3)])])[0]
    assert headings(out) == []


def test_a_paragraph_opening_with_a_long_bold_lead_in_goes_on_in_the_lighter_face():
    # Most of the first line is its bold lead-in; the lines under it, set light, are the same
    # paragraph's (a tax form's 'What's new' entries, a paper's run-in paragraphs).
    first = {"y": 700, "size": 10, "runs": [run("Tax benefits were extended in 2007.", 72, 700, font="Times-Bold"),
                                            run("The following ones were", 252, 700)]}  # to the edge, as the text
    lines = [first, line(688, "extended through the year, each of them for the returns"),
             line(676, "of that year only.")]
    out = organize([page(1, [*body_lines(740, "a", 3), *lines])])[0]
    assert [b["text"] for b in out["blocks"]][-1] == "Tax benefits were extended in 2007. The following ones were " \
        "extended through the year, each of them for the returns of that year only."


def test_a_bold_caption_with_a_light_formula_at_a_lines_end_goes_on_bold():
    # A caption set bold throughout but for a formula in the text face ending its second line:
    # that line goes on with the bold line under it.
    lines = [line(700, "Figure 3: Latency against time. The average lookup", bold=True),
             {"y": 688, "size": 10, "runs": [run("performance of all the nodes converges to the targeted", 72, 688,
                                                 font="Times-Bold"), run("C = 1", 347, 688)]},  # to the edge
             line(676, "hop after two phases.", bold=True)]
    out = organize([page(1, [*body_lines(740, "a", 3), *lines])])[0]
    assert [b["text"] for b in out["blocks"]][-1] == \
        "Figure 3: Latency against time. The average lookup performance of all the nodes converges to the targeted " \
        "C = 1 hop after two phases."


def test_a_manuscript_set_double_spaced_with_indented_paragraphs_reads_its_paragraphs_whole():
    # Under an abstract set single, justified lines each 2.3 sizes under the one above, a
    # paragraph's last line short and the next paragraph's first indented: the step is the
    # leading, the indent tells the break.
    def words(seed: str, start: int, count: int) -> str:  # words of 9 characters: 79 for 8 of them
        return " ".join(f"{seed}{k:03d}" for k in range(start, start + count))

    lines = [line(760 - 12 * k, words("abstra", 8 * k, 8)) for k in range(14)]
    y = 580.0
    for seed in ("firstp", "second"):  # an indented line as wide as the rest, two more, a short one
        for x0, text in ((90.0, words(seed, 0, 7) + " ends."), (72.0, words(seed, 10, 8)),
                         (72.0, words(seed, 20, 8)), (72.0, words(seed, 30, 2))):
            lines.append(line(y, text, x0=x0))
            y -= 23
    out = organize([page(1, lines)])[0]
    assert [b["text"][-19:] for b in out["blocks"]] == ["abstra110 abstra111", "firstp030 firstp031",
                                                        "second030 second031"]


def test_a_paragraph_under_a_label_set_out_to_its_left_reads_whole():
    # 'Qt!' set out in the margin, the paragraph's text flush to the right of it and its lines
    # under that text; a reference's key in brackets the same. A loop's body indented under
    # the text after its keyword is no such paragraph.
    def labelled(y: float, label: str, text: str) -> dict[str, Any]:  # the text 8 pt right of the label
        return {"y": y, "size": 10, "runs": [run(label, 102 - 8 - CHAR * len(label), y), run(text, 102, y)]}

    lines = [labelled(700, "Qt!", "Examples from its history are set in blocks like this one."),
             line(688, "Ask your colleagues for the details of the classes named.", x0=102),
             labelled(664, "[AB89]", "Awerbuch and Peleg. Sparse partitions of the network."),
             line(652, "In Proceedings of the Symposium on Foundations, 1990.", x0=102),
             labelled(628, "for", "each node of the graph in the order of its degree:"),
             line(616, "mark the node and all its neighbours as visited ones", x0=102)]
    out = organize([page(1, [*body_lines(740, "a", 3), *lines])])[0]
    texts = [b["text"] for b in out["blocks"]][1:]
    assert texts[:2] == ["Qt! Examples from its history are set in blocks like this one. Ask your colleagues for "
                         "the details of the classes named.",
                         "[AB89] Awerbuch and Peleg. Sparse partitions of the network. In Proceedings of the "
                         "Symposium on Foundations, 1990."]
    assert len(texts) == 4


def test_a_list_item_whose_bullet_is_set_smaller_goes_on_over_its_lines():
    # The bullet, a symbol font's glyph set at 7 pt, sits on the evidence line's baseline; its
    # words, at 10 pt, on one a little off it: the words set the line's size, and the item goes
    # on over the next lines, flush under its words.
    def item(y: float, words: str) -> dict[str, Any]:
        return {"y": y, "size": 10, "runs": [run("\u2022", 72, y, size=7.0, font="CMSY7"),
                                             {**run(words, 82, y + 0.4), "y": y + 0.4}]}

    lines = [item(700, "The optical layer and its circuits must be provisioned"),
             line(688, "statically, ahead of time, to guarantee the bandwidth.", x0=82),
             item(676, "Bandwidth guarantees must hold for every traffic matrix"),
             line(664, "that the network is asked to carry.", x0=82)]
    out = organize([page(1, [*body_lines(740, "a", 3), *lines])])[0]
    assert [(b["kind"], b["text"]) for b in out["blocks"]][1:] == [
        ("list_item", "\u2022 The optical layer and its circuits must be provisioned statically, ahead of time, to "
                      "guarantee the bandwidth."),
        ("list_item", "\u2022 Bandwidth guarantees must hold for every traffic matrix that the network is asked to "
                      "carry.")]


def test_a_formulas_large_operator_sets_its_lines_size_where_a_bullet_would_not():
    # A bullet's or a stop's glyphs give way to the words beside them; a formula's operator
    # and brackets, drawn large on the baseline, keep the size the formula is set in.
    def segment(mark: str, size: float, font: str) -> float:
        words = 72 + CHAR * size / 10 + 2  # 2 pt after the mark
        evidence = {"y": 700, "size": size, "runs": [run(mark, 72, 700, size=size, font=font),
                                                      {**run("x plus y over n", words, 700.4), "y": 700.4}]}
        items, _ = line_segments(evidence, keep_clipped=True)
        return items[0].size

    assert segment("\u2022", 7.0, "CMSY7") == 10.0
    assert segment("\u2211", 14.0, "CMEX10") == 14.0
    assert segment("(", 14.0, "CMEX10") == 14.0


def test_a_contents_page_stays_one_entry_a_line():
    entries = [f"{k}. Chapter called number {k}" for k in range(1, 9)]
    lines = [line(740, "Contents", size=20, bold=True)]
    lines += [line(700 - 24 * k, text + " " + "." * 40 + f" {3 * k + 1}", bold=True) for k, text in enumerate(entries)]
    lines += [line(500 - 24 * k, f"{k} Unleadered entry number {k}", size=14, bold=True) for k in range(9, 12)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Contents")]
    paragraphs = [b["text"] for b in out["blocks"] if b["kind"] != "heading"]
    assert len(paragraphs) == 11 and paragraphs[0].startswith("1. Chapter called number 1 ....")


def _entry(y: float, number: str, title: str, folio: int, dots: str = ". ") -> dict[str, Any]:
    """A contents entry 90 characters wide: its number and title, leaders, its page."""
    head, tail = f"{number} {title} ", f" {folio}"
    leader = (dots * 90)[:90 - len(head) - len(tail)].rstrip()
    return line(y, head + leader + tail)


def test_a_contents_entry_at_a_pages_foot_does_not_run_on_into_the_next_pages_first():
    # Each entry's leaders reach the text's right edge, so the foot of one page and the head of
    # the next look like a paragraph running on over the break; an entry ends at its page number.
    first = [_entry(740 - 14 * k, f"1.{k + 1}", f"Section about topic {k + 1}", 3 + k) for k in range(46)]
    second = [_entry(740 - 14 * k, f"2.{k + 1}", f"Section about subject {k + 1}", 60 + k) for k in range(20)]
    out = organize([page(1, first), page(2, second)])
    texts = [[b["text"] for b in record["blocks"]] for record in out]
    assert len(texts[0]) == 46 and len(texts[1]) == 20
    assert texts[0][-1].startswith("1.46 Section about topic 46 .") and texts[0][-1].endswith(" 48")
    assert texts[1][0].startswith("2.1 Section about subject 1 .")


def test_a_list_of_tables_whose_pages_are_labels_keeps_one_entry_a_block_over_a_page_break():
    # A manual's list of tables: each entry a table's number and name, leaders and a page label
    # of letters and digits ('Appx-A-989'). Its entries are no captions, and the last entry at
    # a page's foot does not run on into the next page's first.
    def entry(y: float, k: int) -> dict[str, Any]:
        head, tail = f"Table A-{k} Differences between issue {k} and issue {k + 1} ", f" Appx-A-{980 + k}"
        return line(y, head + ("." * 90)[:90 - len(head) - len(tail)] + tail)

    out = organize([page(1, [entry(740 - 14 * k, k) for k in range(1, 47)]),
                    page(2, [entry(740 - 14 * k, k) for k in range(47, 60)])])
    assert [len(record["blocks"]) for record in out] == [46, 13]
    assert {b["kind"] for record in out for b in record["blocks"]} == {"paragraph"}
    assert out[0]["blocks"][-1]["text"].endswith("Appx-A-1026")
    assert out[1]["blocks"][0]["text"].startswith("Table A-47 ")


def test_a_contents_entry_whose_long_title_leaves_two_leader_dots_ends_at_its_page():
    entries = [_entry(700 - 14 * k, f"4.{k + 1}", f"Choose a good name for thing {k + 1}", 20 + k) for k in range(6)]
    long_title = "Do not be a slave of an underlying programming interface's own naming practices"
    entries[2] = line(700 - 28, f"4.3 {long_title} . . 22")  # as wide as the others: 90 characters
    out = organize([page(1, [line(740, "Contents", size=20, bold=True), *entries])])[0]
    texts = [b["text"] for b in out["blocks"] if b["kind"] != "heading"]
    assert len(texts) == 6
    assert texts[2] == f"4.3 {long_title} . . 22" and texts[3].startswith("4.4 Choose a good name for thing 4 .")


def test_a_copyright_notice_set_bold_is_no_heading():
    # A manual's second page sets its notices in bold under its edition, over the legal text; a
    # section titled 'Copyright' is a heading still.
    cover = [line(740, "The Reference Manual", size=24, bold=True),
             line(120, "Report series number 37 of the year, issued in October by the department")]
    notices = [*body_lines(740, "edition", 3),
               line(690, "Copyright © 1990-1996 The Harbour Company, Inc. All rights reserved.", bold=True),
               line(666, "Copyright © 1990-1992 The Other Company. All rights reserved.", bold=True),
               *body_lines(640, "legal", 4), line(580, "Copyright", size=14, bold=True), *body_lines(560, "terms", 3)]
    out = organize([page(1, cover), page(2, notices)])
    assert headings(out[1]) == [(2, "Copyright")]
    assert [b["text"] for b in out[1]["blocks"]][1:3] == \
        ["Copyright © 1990-1996 The Harbour Company, Inc. All rights reserved.",
         "Copyright © 1990-1992 The Other Company. All rights reserved."]


def _set_to(y: float, text: str, right: float) -> dict[str, Any]:
    """A line stretched to end at ``right``, as a justified line is."""
    set_line = line(y, text)
    set_line["runs"][0]["box"][2] = right
    return set_line


@pytest.mark.parametrize("justified", [True, False])
def test_a_justified_pages_last_line_ending_short_of_the_edge_ends_its_paragraph(justified: bool) -> None:
    # Page 1's text runs to its foot, its last paragraph's last line ending ten ems short of the
    # edge; page 2 opens flush left with a word too long to have fitted there. On a justified
    # page a line that went on would have been stretched to the edge: the paragraph ended. On a
    # ragged page the long word may be why the line broke: it runs on, as before.
    texts = prose(12 * 52, "jw")[:52]
    lines = [_set_to(740 - 12 * k, t, 372.0 if justified else 372.0 - 5 * (k % 4)) for k, t in enumerate(texts)]
    lines.append(line(740 - 12 * 52, "which the last line of the paragraph ends"))
    second = [line(740, "implementation-dependent choices follow from this as the next section shows"),
              *body_lines(728, "kw", 3)]
    out = organize([page(1, lines), page(2, second)])
    firsts = [record["blocks"][0]["text"] for record in out]
    if justified:
        assert out[0]["blocks"][-1]["text"].endswith("the paragraph ends")
        assert firsts[1].startswith("implementation-dependent choices")
    else:
        assert "the paragraph ends implementation-dependent choices follow" in out[0]["blocks"][-1]["text"]


@pytest.mark.parametrize("spaced", [True, False])
def test_a_sentences_end_short_of_the_edge_over_a_little_space_ends_its_paragraph(spaced: bool) -> None:
    """Paragraphs set flush, a little space after each (a word processor's): a paragraph's last
    line ends its sentence four ems short of the justified edge, where the next line's first
    word, long, may not have fitted; the next paragraph opens flush a quarter of a line lower
    than the pitch. Two paragraphs. Set at the pitch, nothing tells the short line's end from
    a long word's break: the lines go on as one paragraph, as before."""
    texts = prose(12 * 5, "pw")[:5]
    lines = [_set_to(740 - 12 * k, t, 372.0) for k, t in enumerate(texts)]
    lines.append(_set_to(740 - 12 * 5, "the survey ended here at last.", 372.0 - 40.0))  # four ems short
    top = 740 - 12 * 5 - (15 if spaced else 12)
    after = ["Extraordinarily " + prose(40, "qw")[0], *prose(12 * 3, "rw")[:3]]
    lines += [_set_to(top - 12 * k, t, 372.0) for k, t in enumerate(after)]
    out = organize([page(1, lines)])[0]
    texts_out = [b["text"] for b in out["blocks"] if b["kind"] == "paragraph"]
    if spaced:
        assert len(texts_out) == 2 and texts_out[0].endswith("ended here at last.")
        assert texts_out[1].startswith("Extraordinarily")
    else:
        assert len(texts_out) == 1


def test_no_paragraph_runs_on_over_a_page_break_into_a_lone_line_parted_far_apart():
    """Page 1's justified text runs to its foot, its last line reaching the edge; page 2 opens
    flush left, in the same size, with a line alone whose parts stand twenty ems apart (a
    table's row: a group's label, then the next column's cells), a paragraph of its own under
    it. A line stretched that wide would be justified, and a justified line is never its
    paragraph's last: the row is page 2's own."""
    lines = [_set_to(740 - 12 * k, t, 372.0) for k, t in enumerate(prose(12 * 53, "jw")[:53])]
    row = {"y": 740, "size": 10.0, "runs": [run("Upstream gauges", 72, 740), run("Weir 21.9 968", 300, 740)]}
    out = organize([page(1, lines), page(2, [row, *body_lines(728, "kw", 3)])])
    assert out[0]["blocks"][-1]["text"].endswith(prose(12 * 53, "jw")[52])
    assert out[1]["blocks"][0]["text"] == "Upstream gauges Weir 21.9 968"


def test_no_paragraph_runs_on_over_a_page_break_into_a_copyright_notice():
    # The cover's last line reaches the text edge and the next page opens flush left in the
    # same size: the notice there is the next page's own.
    cover = [line(740, "The Reference Manual", size=24, bold=True),
             *[line(200 - 18 * k, f"Report series {k}, issued by the department of the university", size=14.4)
               for k in range(5)]]
    notices = [line(753, "Copyright (c) 1996 by the department of computer science", size=14.4),
               line(735, "of the university. All rights reserved.", x0=219, size=14.4),
               line(700, "Reproduction of all or part of this work", x0=219, size=14.4),
               line(682, "is permitted for research and teaching", x0=219, size=14.4)]
    out = organize([page(1, cover), page(2, notices)])
    assert out[0]["blocks"][-1]["text"].endswith("department of the university")
    assert out[1]["blocks"][0]["text"].startswith("Copyright (c) 1996 by the department")


def test_a_paragraph_justified_narrower_beside_a_figure_reads_as_one_paragraph():
    # Its lines end together well short of the column's edge, where the figure beside them
    # starts: each is full to its own measure, so none ends the paragraph.
    words = [f"wrap{k:02d}" for k in range(40)]
    wrapped = [" ".join(words[k:k + 6]) + " ." for k in range(0, 30, 6)]  # 6 words a line, all 44 characters
    lines = [*body_lines(740, "a", 4), *[line(692 - 12 * k, t) for k, t in enumerate(wrapped)],
             line(632, " ".join(words[30:33]) + "."), *body_lines(606, "b", 4)]
    out = organize([page(1, lines)])[0]
    texts = [b["text"] for b in out["blocks"]]
    assert len(texts) == 3 and texts[1] == " ".join(wrapped) + " " + " ".join(words[30:33]) + "."


def test_lines_of_one_length_by_chance_are_not_a_narrower_measure():
    # Two short lines that end together (a pair of statements, a verse) stay two paragraphs.
    lines = [*body_lines(740, "a", 4), line(692, "Int with arithmetic and comparison ops"),
             line(680, "Str with arithmetic and comparison ops"), *body_lines(650, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert [b["text"] for b in out["blocks"]][1:3] == ["Int with arithmetic and comparison ops",
                                                        "Str with arithmetic and comparison ops"]


def test_a_drafts_footer_of_five_lines_under_the_text_is_set_aside_whole():
    # Every page of a draft ends with its stamp, date, file and book over the folio, in small
    # type well below the text: five running lines, the two innermost further in than a folio
    # and a running head usually stand.
    pages = []
    for n in range(1, 5):
        footer = [line(81.5, "DRAFT COPY", x0=246, size=8), line(72.5, "March 19, 1997", x0=240, size=8),
                  line(63.5, "File: abi/chap3 (Delta 44.6)", x0=206, size=8),
                  line(54.5, "386:adm.book:sum", x0=238, size=8), line(27.5, f"Page: {n + 40}", x0=258, size=8)]
        pages.append(page(n, [*body_lines(700, f"p{n}w", 20), *footer]))
    for out in organize(pages):
        assert [f["text"] for f in out["furniture"]] == \
            ["DRAFT COPY", "March 19, 1997", "File: abi/chap3 (Delta 44.6)", "386:adm.book:sum",
             f"Page: {out['page'] + 40}"]
        assert [b["kind"] for b in out["blocks"]] == ["paragraph"]


def test_a_plots_tick_labels_low_on_every_page_stay_in_the_body():
    # Each page ends with a plot whose axis labels repeat from page to page, over a footer of
    # two lines and the folio: the labels are the plot's, however often they recur.
    pages = []
    for n in range(1, 5):
        low = [line(90.5, "700", x0=60, size=8), line(81.5, "350", x0=60, size=8),
               line(63.5, "File: chap3", x0=206, size=8), line(54.5, "book:sum", x0=238, size=8),
               line(27.5, f"Page: {n + 40}", x0=258, size=8)]
        pages.append(page(n, [*body_lines(700, f"p{n}w", 20), *low]))
    for out in organize(pages):
        assert "700" in out["text"] and "350" in out["text"]


def test_two_pages_set_aside_their_page_numbers_and_running_head():
    pages = []
    for n in (1, 2):
        lines = [line(760, "The Harbour Review, spring issue", size=8), *body_lines(700, f"p{n}w", 10),
                 line(40, f"- {n + 11} -", x0=300)]
        pages.append(page(n, lines))
    for out in organize(pages):
        kinds = {f["kind"]: f["text"] for f in out["furniture"]}
        assert kinds == {"header": "The Harbour Review, spring issue", "page_number": f"- {out['page'] + 11} -"}
        assert "Harbour" not in out["text"] and "-" not in out["text"]


@pytest.mark.parametrize("foot", [40.0, 110.0])  # in the margin band, or further in (a wide bottom margin)
def test_a_title_pages_folio_at_its_foot_is_set_aside_where_the_others_carry_theirs_at_the_head(foot: float):
    # LaTeX's plain style on the title page, the running heads' '- N -' on the pages after it.
    pages = [page(1, [line(740, "Rivers Of The North", x0=200, size=16), *body_lines(700, "p1w", 30),
                      line(foot, "1", x0=303)])]
    pages += [page(n, [line(760, f"- {n} -", x0=298), *body_lines(720, f"p{n}w", 30)]) for n in (2, 3, 4)]
    out = organize(pages)
    assert [f["text"] for f in out[0]["furniture"]] == ["1"]
    assert not out[0]["text"].rstrip().endswith("1")
    assert [[f["text"] for f in o["furniture"]] for o in out[1:]] == [["- 2 -"], ["- 3 -"], ["- 4 -"]]


def test_a_number_alone_under_the_text_stays_where_no_page_carries_its_number():
    head = "The Harbour Review, spring issue"
    pages = [page(n, [line(760, head, size=8), *body_lines(720, f"p{n}w", 30)]) for n in (1, 2, 3)]
    pages[0]["evidence"]["lines"].append(line(40, "7", x0=303))
    out = organize(pages)
    assert [f["text"] for f in out[0]["furniture"]] == [head] and out[0]["text"].rstrip().endswith("7")


def test_a_lone_page_keeps_margin_lines_that_are_not_furniture():
    # Body-size text in the top band is a title or the body itself; a closing line near the
    # foot that runs on from the paragraph above is body.
    lines = [line(760, "Minutes of the meeting"), *body_lines(700, "a", 10), line(48, "Signed by the chair.")]
    out = organize([page(1, lines)])[0]
    assert out["furniture"] == []
    assert "Minutes of the meeting" in out["text"] and "Signed by the chair." in out["text"]


def test_a_lone_page_sets_aside_a_running_head_ruled_off_from_the_body():
    # LaTeX's headings on a short document: the title's short form at the body's own size over a
    # rule across the text block, the text well below. Bold (a heading ruled under), over a rule
    # a table's width or a frame's top (its sides meet it), or with no rule, it stays the page's.
    frame = [[72.0, 743.0, 72.0, 600.0], [540.0, 743.0, 540.0, 600.0]]
    for bold, rule, sides, furniture in ((False, (72.0, 540.0), [], True), (True, (72.0, 540.0), [], False),
                                         (False, (230.0, 380.0), [], False), (False, None, [], False),
                                         (False, (72.0, 540.0), frame, False)):
        record = page(2, [line(747, "Notes on Sampling", x0=260, bold=bold), *body_lines(709, "a", 12)])
        record["evidence"]["rules"] = ([[rule[0], 743.0, rule[1], 743.0]] if rule else []) + sides
        out = organize([record])[0]
        assert [f["text"] for f in out["furniture"]] == (["Notes on Sampling"] if furniture else []), (bold, rule)
        assert ("Sampling" in out["text"]) != furniture


def test_a_lone_page_sets_aside_a_running_head_centred_over_a_page_whose_number_is_set_aside():
    # groff's ms on a short document: the title's short form centred at the head at the body's
    # own size, 'Page 2' at the foot. With no page number set aside, set off the centre, or
    # in bold (a title), the line stays the page's.
    for x0, bold, foot, furniture in ((262.0, False, "Page 2", True), (262.0, False, "", False),
                                      (72.0, False, "Page 2", False), (262.0, True, "Page 2", False)):
        lines = [line(760, "Notes on Sampling", x0=x0, bold=bold), *body_lines(724, "a", 40)]
        if foot:
            lines.append(line(40, foot, x0=500))
        out = organize([page(2, lines)])[0]
        assert ("Notes on Sampling" in [f["text"] for f in out["furniture"]]) == furniture, (x0, bold, foot)
        assert ("Sampling" in out["text"]) != furniture


def test_a_lone_page_sets_aside_a_running_head_that_carries_its_page_number():
    # Set in the body's own size, the title at the left edge and the folio at the right: the
    # form tells a running head. A section's number a space from its title is a heading.
    head = runs_line(760, [("k · p theory for 2D materials", "Times-Roman"), ("3", "Times-Roman")], gap=310.0)
    out = organize([page(1, [head, *body_lines(730, "a", 10)])])[0]
    assert {f["kind"]: f["text"] for f in out["furniture"]} == {"header": "k · p theory for 2D materials",
                                                               "page_number": "3"}
    assert "theory" not in out["text"] and not out["text"].startswith("3")
    section = runs_line(760, [("3", "Times-Bold"), ("Results and discussion", "Times-Bold")], gap=10.0)
    out = organize([page(1, [section, *body_lines(730, "a", 10)])])[0]
    assert out["furniture"] == [] and "Results and discussion" in out["text"]


def test_a_lone_page_sets_aside_its_page_number_above_a_wide_bottom_margin():
    # The number stands 130 points up the page (outside the outer 12 %), a line and a half under
    # the body; a number of six digits there is no page number.
    for number, kind in (("20", "page_number"), ("123321", None)):
        out = organize([page(1, [*body_lines(700, "a", 40), line(130, number, x0=300)])])[0]
        assert [f["kind"] for f in out["furniture"]] == ([kind] if kind else [])
        assert (number in out["text"].split()) == (kind is None)


def test_a_lone_page_sets_aside_a_running_head_whose_folio_stands_a_quad_or_two_from_its_title():
    # Set as one line with the title a few ems from the page number, at either end; a section's
    # number a word space from its title, or a bold numbered head, is a heading.
    for parts, gap in (([("10", "Times-Roman"), ("R. Coulom", "Times-Roman")], 25.0),
                       ([("Selectivity and Backup Operators", "Times-Roman"), ("7", "Times-Roman")], 25.0)):
        out = organize([page(1, [runs_line(760, parts, gap=gap), *body_lines(730, "a", 10)])])[0]
        assert "header" in {f["kind"] for f in out["furniture"]} <= {"header", "page_number"}, parts
        assert not {word for text, _ in parts for word in text.split()} & set(out["text"].split())
    for parts, gap in (([("1", "Times-Roman"), ("Introduction", "Times-Roman")], 10.0),
                       ([("1", "Times-Bold"), ("Introduction", "Times-Bold")], 25.0)):
        out = organize([page(1, [runs_line(760, parts, gap=gap), *body_lines(730, "a", 10)])])[0]
        assert out["furniture"] == [] and "Introduction" in out["text"], parts


def test_a_large_numbered_head_at_the_top_of_a_lone_page_is_no_running_head():
    # Set larger than the text, its number two and a half of its sizes off: a chapter's head.
    first = run("CHAPTER", 72.0, 760, size=14)
    number = run("3", first["box"][2] + 35.0, 760, size=14)
    out = organize([page(1, [{"y": 760, "size": 14.0, "runs": [first, number]}, *body_lines(720, "a", 10)])])[0]
    assert out["furniture"] == [] and "CHAPTER" in out["text"]


def test_a_lone_page_reads_a_margin_line_the_evidence_broke_in_two_as_one():
    # A journal's line set in two pieces a little apart on one baseline, and a masthead whose
    # folio sits a point lower: each is one printed line, read whole.
    journal = [line(40, "Journal of the Association for Computing Machinery, Vol. 35, No. 2, April", x0=72, size=6),
               line(40, "1988, pp.288-323.", x0=72 + 3.0 * 75 + 4, size=6)]
    masthead = [line(40, "www.rivers.example.org | RiverWorld | October 2006", x0=72, size=8),
                line(38.5, "| 41", x0=72 + 4.0 * 50 + 4, size=8)]
    for foot in (journal, masthead):
        out = organize([page(1, [*body_lines(720, "a", 40), *foot])])[0]
        assert len(out["furniture"]) == 2 and "1988" not in out["text"] and "41" not in out["text"].split()
    for head in ("Jl. of Interactive Learning Research (2008) 19(2), 185-224",
                 "Computing Surveys, Vol 17 n. 4, pp 471-522, December 1985"):
        out = organize([page(1, [line(770, head), *body_lines(720, "a", 20)])])[0]
        assert [f["text"] for f in out["furniture"]] == [head]


def test_a_lone_page_whose_rows_make_one_printed_line_is_read():
    # Words drawn as lines of their own, side by side on one baseline: one printed line, no
    # margin to set apart, and the page is organized, not left to its raw text.
    words = [line(400 + (k % 2) * 0.5, f"word{k}", x0=72 + 40 * k) for k in range(8)]
    for rows in (words, [*words, line(100, "a far line")]):
        out = organize([page(1, rows)])[0]
        assert "organize_error" not in out and out["furniture"] == []
        assert all(f"word{k}" in out["text"] for k in range(8))


def test_the_last_lines_of_two_columns_on_one_baseline_are_not_one_running_line():
    # A note ending '(Merity et al., 2017).' at the foot of the left column, and the right
    # column's last line a point lower: neither is a page number nor a running foot.
    left = [line(400 - 12 * k, t, x0=72) for k, t in enumerate(prose(60, "l")[:26])]
    right = [line(400 - 12 * k, t, x0=320) for k, t in enumerate(prose(60, "r")[:26])]
    lines = [*left, *right, line(60, "2017).", x0=72, size=8), line(58.7, "with varying terms", x0=320)]
    out = organize([page(1, lines)])[0]
    assert out["furniture"] == []
    assert "2017)." in out["text"] and "with varying terms" in out["text"]
    # A stamp at the foot of one column does not take the other column's line beside it.
    foot = runs_line(40, [("Vol. 32, No. 2, April 1985", "Times-Roman"), ("with varying terms", "Times-Roman")],
                     gap=118)
    lines = [*left, *right, foot]
    out = organize([page(1, lines)])[0]
    assert "with varying terms" in out["text"]


def test_a_page_that_goes_on_with_the_contents_reads_its_chapters_lines_as_entries():
    # No contents heading on this page: the chapters' lines, set large in bold over their
    # sections' entries (leaders and a page number), are entries, the first under the running
    # head among them. Where the contents end, a chapter's title over its text is a heading.
    def entry(y: float, number: str, title: str, folio: str) -> dict[str, Any]:
        return line(y, f"{number} {title} " + ". " * 30 + folio, x0=110, size=9)

    lines = [line(760, "Volume I: Unprivileged ISA"), line(730, "Chapter 3 Using the Vectorizing Compiler",
                                                            size=11, bold=True)]
    y = 714.0
    for chapter in (3, 4, 5):
        if chapter > 3:
            lines.append(line(y - 8, f"Chapter {chapter} Compiler Features number {chapter}", size=11, bold=True))
            y -= 24
        for k in range(1, 5):
            lines.append(entry(y, f"{chapter}.{k}", f"Section {chapter} part {k}", f"{chapter}-{60 + k}"))
            y -= 14
    lines += [line(y - 30, "Preface", size=16, bold=True), *body_lines(y - 56, "pref", 4)]
    out = organize([page(9, lines)])[0]
    assert headings(out) == [(1, "Preface")]
    assert sum(b["text"].startswith("Chapter ") for b in out["blocks"]) == 3
    # The head over a page of entries alone, set apart as a title would be: no heading either.
    lines = [line(760, "Volume I: Unprivileged ISA", x0=110, size=9)]
    lines += [entry(730 - 14 * k, f"3.{k}", f"Section 3 part {k}", f"3-{60 + k}") for k in range(1, 6)]
    lines.append(line(650, "Chapter 4 Compiler Features", size=11, bold=True))
    lines += [entry(634 - 14 * k, f"4.{k}", f"Section 4 part {k}", f"4-{60 + k}") for k in range(1, 6)]
    assert headings(organize([page(10, lines)])[0]) == []


def test_a_contents_page_keeps_its_last_entry_set_apart_at_the_foot():
    entries = [runs_line(260 - 14 * k, [(f"{k}.1 Section {k} . . . . . . .", "Times-Roman"), (str(k), "Times-Roman")],
                         gap=60.0) for k in range(1, 12)]
    last = runs_line(80, [("6 Conclusions", "Times-Roman"), ("22", "Times-Roman")], gap=180.0)
    out = organize([page(1, [line(300, "Contents", size=14, bold=True), *entries, last])])[0]
    assert out["furniture"] == [] and "Conclusions" in out["text"]


def test_a_short_last_page_sets_aside_its_page_number_far_below_the_text():
    out = organize([page(1, [*body_lines(700, "a", 3), line(60, "iv", x0=300)])])[0]
    assert [(f["kind"], f["text"]) for f in out["furniture"]] == [("page_number", "iv")]
    assert "iv" not in out["text"].split()
    out = organize([page(1, [*body_lines(700, "a", 3), line(664, "iv", x0=300)])])[0]
    assert out["furniture"] == []  # a line set at the text's leading is the text's


def test_a_lone_page_sets_aside_journal_lines_and_a_running_head_of_authors():
    for head in ("M.A. Bender, M. Farach-Colton / Theoretical Computer Science 321 (2004) 5 – 12",
                 "ACM OOPS Messenger 4,4 (Oct. 1993), 2-27.", "J. Aligon et al."):
        out = organize([page(1, [line(770, head), *body_lines(720, "a", 20)])])[0]
        assert [(f["kind"], f["text"]) for f in out["furniture"]] == [("header", head)]
    # A reference that cites such a volume, in the text at its leading, is the text's.
    body = body_lines(300, "a", 18)
    cite = "[4] M.A. Bender. Theoretical Computer Science 321 (2004) 5-12."
    out = organize([page(1, [*body, line(body[-1]["y"] - 12, cite)])])[0]
    assert out["furniture"] == [] and out["text"].endswith("5-12.")


def test_references_set_with_a_hanging_indent_are_one_block_an_entry():
    entries = [prose(40, f"e{k}") for k in range(3)]
    lines, y = [*body_lines(740, "a", 3)], 690.0
    for words in entries:
        lines.append(line(y, "[Ref" + str(len(lines)) + "] " + words[0]))
        for text in words[1:3]:
            y -= 12
            lines.append(line(y, text, x0=90))
        y -= 12
    two = prose(24, "t")  # an entry of two full lines, then one of three
    lines += [line(y, "[Two] " + two[0]), line(y - 12, two[1], x0=90)]
    lines += [line(y - 24, "[Last] " + entries[0][0]), line(y - 36, entries[0][1], x0=90),
              line(y - 48, "the end.", x0=90)]
    out = organize([page(1, lines)])[0]
    texts = [b["text"] for b in out["blocks"]]
    assert len(texts) == 1 + len(entries) + 2
    for text, words in zip(texts[1:1 + len(entries)], entries, strict=True):
        assert text.startswith("[Ref") and text.endswith(words[2])
    assert texts[-2] == f"[Two] {two[0]} {two[1]}" and texts[-1].endswith(f"{entries[0][1]} the end.")


def test_references_spaced_entry_from_entry_keep_their_short_last_lines():
    # Each entry of two lines, the second set in and ended short, a half line above the next
    # entry; the authors' names in small capitals ('PIKE' as 'P' + 'IKE' set smaller).
    lines, y = [*body_lines(740, "a", 3)], 690.0
    for k in range(3):
        first = prose(14, f"r{k}")[0]
        lines += [line(y, f"[{k + 1}] {first}"), line(y - 12, f"last words of entry {k}.", x0=90)]
        y -= 30
    capital = run("[4] P", 72, y)
    small = run("IKE, DORWARD, GRIESEMER AND QUIN-", capital["box"][2] + 0.2, y, size=7.5)
    small["box"][2] = lines[3]["runs"][0]["box"][2]  # full to the right edge, as the entries' first lines
    lines += [{"y": y, "size": 10.0, "runs": [capital, small]}, line(y - 12, "LAN, S. Sawzall.", x0=90)]
    out = organize([page(1, lines)])[0]
    texts = [b["text"] for b in out["blocks"]]
    for k in range(3):
        assert any(t.startswith(f"[{k + 1}] ") and t.endswith(f"last words of entry {k}.") for t in texts), texts
    assert texts[-1].startswith("[4] Pike") and texts[-1].endswith("LAN, S. Sawzall."), texts


def test_a_paragraph_indented_under_the_full_last_line_of_another_is_no_hanging_entry():
    a, b = prose(36, "a"), prose(36, "b")
    # A paragraph of one full line under a heading, as after a displayed formula.
    lines = [*body_lines(760, "c", 3), line(728, "Results", bold=True), line(716, a[0])]
    lines += [line(704, b[0], x0=90), line(692, b[1]), line(680, "the end.")]
    texts = [blk["text"] for blk in organize([page(1, lines)])[0]["blocks"]]
    assert texts[-2:] == [a[0], f"{b[0]} {b[1]} the end."]


def test_a_bold_term_s_description_of_two_lines_hanging_under_it_is_one_entry():
    """A glossary spaced entry from entry: 'Prose: The literal meaning …' in a bold term and
    roman text, its second line set in under it and full to the edge, then the next entry back
    out: each entry is one paragraph, its last line too."""
    def entry(y: float, term: str, text: str) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [run(term, 72, y, font="Times-Bold"),
                                               run(text, 72 + CHAR * (len(term) + 1), y)]}
    first, rest = "The literal meaning of words is more important, and", "the structure contributes more"
    lines = [*body_lines(760, "a", 3), entry(716, "Prose:", f"{first} {rest}"[:53]),
             line(704, "meaning. Prose is more amenable to analysis than poetry but it", x0=96),
             entry(680, "Programs:", "The meaning of a program is unambiguous and literal"),
             line(668, "and is understood by analysis.", x0=96)]
    texts = [blk["text"] for blk in organize([page(1, lines)])[0]["blocks"]]
    assert texts[-2:] == [
        f"Prose: {f'{first} {rest}'[:53]} meaning. Prose is more amenable to analysis than poetry but it",
        "Programs: The meaning of a program is unambiguous and literal and is understood by analysis."]


def test_panels_of_one_figure_with_nothing_between_them_are_one_figure():
    record = page(1, [*body_lines(740, "a", 3), line(520, "Figure 1: Two panels of the same plot."),
                      *body_lines(490, "b", 3), line(300, "Figure 2: A plot of its own.")])
    record["evidence"]["images"] = [{"rect": [72, 540, 250, 680]}, {"rect": [300, 540, 480, 680]},
                                    {"rect": [72, 320, 250, 440]}]
    out = organize([record])[0]
    figures = [b for b in out["blocks"] if b["kind"] == "figure"]
    assert [b["spans"][0]["rect"] for b in figures] == [[72, 540, 480, 680], [72, 320, 250, 440]]
    assert out["text"].count("[figure]") == 2


def columns_page(count: int, title: bool = True) -> dict[str, Any]:
    """A page of ``count`` columns of prose (each its own paragraph, words tagged by column),
    under a full-width title, with a full-width closing paragraph below."""
    width = (468 - 18 * (count - 1)) / count
    chars = int(width / CHAR)
    lines = [line(740, "Rivers And Their Banks", x0=200, size=18)] if title else []
    for c in range(count):
        x0 = 72 + c * (width + 18)
        words = " ".join(f"c{c}w{k}" for k in range(200))
        texts, current = [], ""
        for word in words.split():
            if len(current) + len(word) + 1 > chars:
                texts.append(current)
                current = word
            else:
                current = f"{current} {word}".strip()
        lines += [line(700 - 12 * k, t, x0=x0) for k, t in enumerate(texts[:20])]
    lines += body_lines(430, "end", 3)
    return page(1, lines)


def order_of_columns(text: str, count: int) -> list[int]:
    """The column of each tagged word, in the order the text gives them, runs collapsed."""
    seen: list[int] = []
    for word in text.split():
        if len(word) > 1 and word[0] == "c" and word[1].isdigit() and "w" in word:
            column = int(word[1:word.index("w")])
            if not seen or seen[-1] != column:
                seen.append(column)
    return seen


def test_a_one_page_two_column_article_reads_column_by_column():
    out = organize([columns_page(2)])[0]
    assert order_of_columns(out["text"], 2) == [0, 1]
    assert out["text"].startswith("Rivers And Their Banks") and out["text"].rstrip().endswith(prose(36, "end")[2])


def test_a_full_width_titles_short_last_line_over_two_columns_stays_with_the_title():
    # The title's last word ends left of the gutter, yet it is set as the title is, at its
    # pitch, with nothing beside it: the title's, not the left column's first line; the columns
    # under it still read in turn.
    two = columns_page(2, title=False)
    title = [line(776, "Complications on the banks of rivers", size=24, bold=True),
             line(750, "and streams: a systematic review of", size=24, bold=True),
             line(724, "literature", size=24, bold=True)]
    two["evidence"]["lines"][:0] = title
    out = organize([two])[0]
    assert headings(out) == [(1, "Complications on the banks of rivers and streams: a systematic review of "
                                 "literature")]
    assert order_of_columns(out["text"], 2) == [0, 1]


def test_a_centred_titles_short_last_line_within_one_column_goes_on_with_the_title():
    # A title centred over two columns, its last line a short word centred under it, broken
    # from the line above by a hyphen: it lies within the left column's span, yet goes on with
    # the title, not as a heading of its own.
    two = columns_page(2, title=False)
    title = [line(760, "Complications On The Banks Of Rivers Cut-", x0=180, size=12, bold=True),
             line(745, "ting", x0=280, size=12, bold=True)]
    two["evidence"]["lines"][:0] = title
    out = organize([two])[0]
    assert headings(out) == [(1, "Complications On The Banks Of Rivers Cutting")]
    assert order_of_columns(out["text"], 2) == [0, 1]


def test_three_columns_read_in_turn():
    out = organize([columns_page(3)])[0]
    assert order_of_columns(out["text"], 3) == [0, 1, 2]


def justified_columns_page(gutter: float, count: int = 2) -> dict[str, Any]:
    """``count`` justified columns ``gutter`` points apart, each baseline one evidence line
    holding every column's runs (as a text object that sets the page line by line does)."""
    width = (468 - gutter * (count - 1)) / count
    lines = [line(740, "Rivers And Their Banks", x0=200, size=18)]
    texts = [[f"c{c}w{k}" for k in range(200)] for c in range(count)]
    per_line = 6 if count == 2 else 4
    for row in range(20):
        runs = []
        for c in range(count):
            x0 = 72 + c * (width + gutter)
            text = " ".join(texts[c][row * per_line:(row + 1) * per_line])
            runs.append({**run(text, x0, 700 - 12 * row), "box": [x0, 698 - 12 * row, x0 + width, 708 - 12 * row]})
        lines.append({"y": 700 - 12 * row, "size": 10.0, "runs": runs})
    return page(1, lines)


def test_two_columns_a_narrow_gutter_apart_read_column_by_column():
    # The gutter is narrower than an em, yet the gaps line up on every baseline.
    out = organize([justified_columns_page(8.0)])[0]
    assert order_of_columns(out["text"], 2) == [0, 1]


def test_three_columns_a_gutter_apart_on_shared_baselines_read_in_turn():
    # A gazette's page: one gutter found between two of the columns must not read the other
    # two as one, a line of each in turn.
    out = organize([justified_columns_page(10.0, count=3)])[0]
    assert order_of_columns(out["text"], 3) == [0, 1, 2]


def test_a_wide_word_space_in_one_line_does_not_split_the_page():
    lines = body_lines(700, "solo", 8)
    spaced = lines[3]["runs"][0]
    left = dict(spaced, text="solo-left", box=[72.0, spaced["box"][1], 117.0, spaced["box"][3]])
    right = dict(spaced, text="solo-right", box=[123.0, spaced["box"][1], spaced["box"][2], spaced["box"][3]])
    lines[3] = {**lines[3], "runs": [left, right]}
    out = organize([page(1, lines)])[0]
    assert "solo-left solo-right" in out["text"]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph"]


def test_a_narrow_sidebar_on_its_own_baselines_reads_apart_from_the_column_beside_it():
    # A margin note of short lines, its leading offset from the main column's, left of it.
    note = [line(603 - 12 * k, f"note{k} aside", x0=72) for k in range(12)]
    main = [line(605 - 12 * k, t, x0=180) for k, t in enumerate(prose(14 * 12, "main")[:14])]
    out = organize([page(1, note + main)])[0]
    text = out["text"]
    notes = [text.index(f"note{k} ") for k in range(12)]
    mains = [text.index(f"main{k} ") for k in range(0, 120, 10)]
    assert max(notes) < min(mains) or max(mains) < min(notes)


def offset_columns_page(heading: dict[str, Any]) -> dict[str, Any]:
    """Two justified columns 10 pt apart (a gutter of an em), the right column's baselines 6 pt
    below the left's, so each line is an evidence line of its own; but on the left column's
    sixth baseline a line of the right column, ``heading``, came as one evidence line with it."""
    def column_line(y: float, text: str, x0: float) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [{**run(text, x0, y), "box": [x0, y - 2, x0 + 228, y + 8]}]}

    left = [column_line(700 - 12 * k, " ".join(f"left{k}w{j}" for j in range(5)), 72) for k in range(16)]
    right = [column_line(694 - 12 * k, " ".join(f"right{k}w{j}" for j in range(5)), 310) for k in range(16)
             if not 626 < 694 - 12 * k < 652]
    shared = left[5]
    left[5] = {**shared, "size": heading["size"], "runs": [*shared["runs"], heading]}
    return page(1, [line(740, "Rivers And Their Banks", x0=200, size=18), *left, *right])


@pytest.mark.parametrize("baseline", [640.0, 637.0])
def test_a_heading_set_larger_on_the_other_columns_baseline_parts_at_the_gutter(baseline: float) -> None:
    # A heading set larger in the right column, a gutter of less than its em from the left
    # column's line it shares an evidence line with, on that line's baseline or a little below.
    heading = {**run("2.1 Second Part", 310, baseline, 12.0, "Times-Bold"), "y": baseline}
    out = organize([offset_columns_page(heading)])[0]
    assert "2.1 Second Part" in [text for _, text in headings(out)]
    text = out["text"]
    lefts = [text.index(f"left{k}w0") for k in range(16)]
    rights = [text.index(f"right{k}w0") for k in (0, 1, 2, 6, 7)]
    assert lefts == sorted(lefts) and max(lefts) < min(rights)  # the left column whole, then the right
    assert text.index("left15w4") < text.index("2.1 Second Part") < text.index("right6w0")


def test_a_footnotes_raised_mark_half_an_em_before_its_text_stays_with_it():
    # The mark is smaller and on a baseline of its own, a space before the note: one line.
    notes = []
    for k in range(3):
        y = 130 - 22 * k
        mark = {**run(str(k + 7), 72, y + 3, 6.0), "y": y + 3}
        text = {**run(f"Note{k} says where the figures of table {k} and of the chart beside it were", 80.5, y, 8.0),
                "y": y}
        notes += [{"y": y, "size": 8.0, "runs": [mark, text]}, line(y - 10, "taken from in the year before.", size=8)]
    out = organize([page(1, [*body_lines(700, "a", 12), *notes])])[0]
    for k in range(3):
        assert f"{k + 7} Note{k} says where the figures of table {k} and of the chart beside it were taken from in " \
               "the year before." in out["text"]


def justified_column(x0: float, top: float, seed: str, stretched: set[int], width: float = 191.0,
                     count: int = 14, size: float = 9.0) -> tuple[list[dict[str, Any]], list[str]]:
    """A column of justified lines ``width`` wide from ``x0``, 11 pt apart from ``top`` down, and
    its words in order. Lines in ``stretched`` have four words and their spaces stretched past
    an em, each word an evidence run of its own (a browser sets a narrow justified column so);
    the others are one run of six words; the last line ends short."""
    def text_run(text: str, x: float, y: float, right: float) -> dict[str, Any]:
        return {"text": text, "font": "Times-Roman", "size": size, "color": "#000000",
                "box": [x, y - 0.2 * size, right, y + 0.8 * size]}

    lines, words = [], []
    for k in range(count):
        y = top - 11 * k
        if k in stretched:
            texts = [f"{seed}{k}x{j}" + "abc"[:1 + (k + j) % 3] for j in range(4)]  # words of any length
            gap = (width - sum(size / 2 * len(t) for t in texts)) / 3
            runs, x = [], x0
            for t in texts:
                runs.append(text_run(t, x, y, x + size / 2 * len(t)))
                x += size / 2 * len(t) + gap
            lines.append({"y": y, "size": size, "runs": runs})
        else:
            texts = [f"{seed}{k}w{j}" for j in range(6 if k < count - 1 else 3)]
            lines.append({"y": y, "size": size, "runs": [text_run(" ".join(texts), x0, y,
                                                                  x0 + (90 if k == count - 1 else width))]})
        words += texts
    return lines, words


@pytest.mark.parametrize("offset", [0.0, 5.0])
def test_a_justified_lines_words_parted_by_stretched_spaces_are_one_line_of_its_column(offset: float) -> None:
    # Two columns set justified by a browser: where a line's spaces stretch past an em each word
    # came as a run of its own, and the words read as a table's cells, or as the next column's.
    left, left_words = justified_column(96, 700, "lef", {2, 3, 4, 6, 7, 10})
    right, right_words = justified_column(309, 700 - offset, "rig", {2, 3, 4, 8}, width=190)
    if not offset:  # on one baseline the columns' lines are one evidence line
        left = [{**one, "runs": one["runs"] + other["runs"]} for one, other in zip(left, right, strict=True)]
        right = []
    out = organize([page(1, [line(740, "Rivers And Their Banks", x0=200, size=18), *left, *right])])[0]
    assert [b["kind"] for b in out["blocks"]] == ["heading", "paragraph", "paragraph"]
    assert [b["text"] for b in out["blocks"][1:]] == [" ".join(left_words), " ".join(right_words)]


def test_labels_and_values_on_shared_baselines_still_read_line_by_line():
    pairs = [line(600 - 14 * k, f"Label{k} name", x0=72) for k in range(8)]
    values = [line(600 - 14 * k, f"value{k} of the field", x0=180) for k in range(8)]
    text = organize([page(1, pairs + values)])[0]["text"]
    order = [text.index(word) for k in range(8) for word in (f"Label{k} ", f"value{k} ")]
    assert order == sorted(order)  # row by row, never one column then the other


def test_text_set_larger_than_many_footnotes_is_prose_not_headings():
    # Five lines of 11 pt text over a long run of 9 pt notes: the notes set the "body" size.
    texts = prose(60, "big")[:5]
    lines = [line(700 - 14 * k, t, size=11.0) for k, t in enumerate(texts)]
    lines += [line(600 - 11 * k, t, size=9.0) for k, t in enumerate(prose(400, "note")[:30])]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    assert out["blocks"][0]["kind"] == "paragraph" and out["blocks"][0]["text"].startswith(texts[0])


def test_a_long_sentence_set_large_is_not_a_heading():
    sentence = "1. This note explains at some length where the material in this section of the report comes from today."
    lines = body_lines(700, "lead", 6) + [line(600, sentence, size=12.0)] + body_lines(580, "tail", 4)
    assert headings(organize([page(1, lines)])[0]) == []


def test_a_heading_over_two_lines_stays_a_heading():
    lines = [line(720, "Restrictions on Land Ownership by", size=20.0),
             line(698, "Foreigners in Selected Jurisdictions", size=20.0)] + body_lines(660, "body", 6)
    assert headings(organize([page(1, lines)])[0]) == \
        [(1, "Restrictions on Land Ownership by Foreigners in Selected Jurisdictions")]


def test_a_header_line_with_parts_at_both_edges_is_not_a_heading():
    head = {"y": 740, "size": 14.0, "runs": [run("COMMUNITY COLLEGE", 72, 740, 14.0),
                                              run("BIO181", 500, 740, 12.0)]}
    lines = [head] + [line(700, "Procedure:", bold=True)] + body_lines(680, "step", 8)
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Procedure:")]
    assert "COMMUNITY COLLEGE BIO181" in out["text"]


def evidence_run(text: str, x0: float, y: float, size: float) -> dict[str, Any]:
    return {**run(text, x0, y, size), "y": y}


def test_a_drop_cap_reads_as_the_first_letter_of_the_line_beside_it():
    from siftpdf.child.evidence import _lines

    # A title left of the cap, the text right of it: neither is a superscript of the cap.
    cap = {**evidence_run("I", 200, 670, 60.0), "box": [200.0, 668.0, 228.0, 716.0]}
    texts = ["ndia suffers from", "regulation", "that is"]
    side = [evidence_run(t, 232, 706 - 12 * k, 10.0) for k, t in enumerate(texts)]
    title = [evidence_run("Executive", 40, 700, 25.0), evidence_run("Summary", 40, 672, 25.0)]
    lines = _lines([cap, *side, *title])
    texts = [" ".join(r["text"] for r in ln["runs"]) for ln in lines]
    assert "I ndia suffers from" in texts and "Executive" in texts and "Summary" in texts
    ordered = organize([page(1, [dict(ln) for ln in lines] + body_lines(600, "rest", 6))])[0]["text"]
    assert "India suffers from" in ordered


def test_a_paragraph_opened_by_a_drop_cap_is_one_paragraph():
    from siftpdf.child.evidence import _lines

    # Three lines set in beside the cap, full to the column's edge, then the lines under it
    # back at the left: one paragraph, not a first line and an indented paragraph.
    words = prose(120, "w")
    cap = {**evidence_run("I", 72, 670, 40.0), "box": [72.0, 676.0, 96.0, 716.0]}
    side = [evidence_run("ndia " + words[0][:40], 96, 706, 10.0),
            *[evidence_run(words[k][:40], 98, 706 - 12 * k, 10.0) for k in (1, 2)]]
    below = [evidence_run(words[k][:46], 72, 706 - 12 * k, 10.0) for k in (3, 4)]
    lines = _lines([cap, *side, *below, evidence_run("the end.", 72, 646, 10.0)])
    blocks = organize([page(1, [dict(ln) for ln in lines], width=330)])[0]["blocks"]
    assert [b["text"] for b in blocks] == [
        " ".join(["India " + words[0][:40], words[1][:40], words[2][:40], words[3][:46], words[4][:46], "the end."])]


def test_a_short_line_set_apart_by_space_is_a_heading_on_a_page_of_one_face():
    lines = [line(720, "Print Versus Digital")] + body_lines(690, "why", 3) + body_lines(600, "more", 4)
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Print Versus Digital")]


def test_a_short_line_at_the_usual_pitch_is_no_heading():
    lines = body_lines(720, "why", 3) + [line(684, "Print Versus Digital")] + body_lines(672, "more", 4)
    assert headings(organize([page(1, lines)])[0]) == []


def test_a_short_line_set_apart_is_no_heading_where_headings_have_their_own_look():
    lines = [line(740, "Survey Results", size=16.0)] + body_lines(710, "why", 3) + \
        [line(650, "Print Versus Digital")] + body_lines(620, "more", 4)
    assert headings(organize([page(1, lines)])[0]) == [(1, "Survey Results")]


def test_a_line_of_text_opening_with_a_figures_name_in_a_sentence_is_no_caption():
    # A paragraph's line breaks before 'Figure 1), black-box …' and 'Table 2, 3 and 4 show …':
    # the sentence names the figure, it does not label it.
    text = ["Monitoring systems come in two kinds (as in the overview of the whole system in",
            "Figure 1), black-box and annotation-based schemes, and each has a cost of its own",
            "which the rest of this section weighs.",
            "Table 2, 3 and 4 show the results on each of the three benchmarks in their turn."]
    lines = [line(700 - 12 * k, t) for k, t in enumerate(text)]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph", "paragraph"]
    assert out["blocks"][0]["text"].startswith("Monitoring") and "Figure 1), black-box" in out["blocks"][0]["text"]


def test_a_bold_caption_over_two_lines_is_one_caption():
    lines = body_lines(720, "intro", 4) + \
        [line(660, "Table 1: Share of seats held by women in the years during the", bold=True),
         line(648, "presidencies of the first two terms", bold=True)] + body_lines(620, "rows", 4)
    out = organize([page(1, lines)])[0]
    captions = [b["text"] for b in out["blocks"] if b["kind"] == "caption"]
    assert captions == ["Table 1: Share of seats held by women in the years during the "
                        "presidencies of the first two terms"]
    assert headings(out) == []


def test_a_date_under_a_title_is_not_a_heading():
    lines = [line(720, "Restrictions on Land Ownership", size=20.0), line(680, "June 2023", size=14.0)] + \
        body_lines(640, "body", 6)
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Restrictions on Land Ownership")]
    assert "June 2023" in out["text"]


def chart_over_columns(gutter: float) -> dict[str, Any]:
    """A figure caption, a chart's small labels scattered across the width, then two justified
    columns ``gutter`` points apart under it, each baseline one evidence line holding both."""
    lines = [line(780, "Figure 1: Rivers measured in each season of the survey years")]
    for k in range(56):
        lines.append(line(765 - 6 * (k // 8), f"{10 * k}", x0=90 + 60 * (k % 8), size=6))
    page_record = justified_columns_page(gutter)
    return page(1, lines + page_record["evidence"]["lines"][1:])


def test_columns_a_gutter_narrower_than_an_em_apart_read_in_turn_under_a_chart():
    # The chart's labels cross the gutter, so no single gutter runs down the page; the
    # whitespace between the columns, under the chart, still parts them.
    out = organize([chart_over_columns(8.0)])[0]
    assert order_of_columns(out["text"], 2) == [0, 1]


def test_small_labels_under_a_full_width_line_above_columns_are_no_footnotes():
    out = organize([chart_over_columns(8.0)])[0]
    text = out["text"]
    assert text.index("Figure 1") < text.index(" 550") < text.index("c0w0 ")
    assert not [b for b in out["blocks"] if b["kind"] == "footnote"]


def test_a_page_number_set_large_below_the_text_is_not_a_heading():
    lines = [line(740, "Replace", bold=True), *body_lines(720, "a", 6), line(640, "Trash", bold=True),
             *body_lines(620, "b", 6), line(40, "Study of rivers and their banks", x0=60, size=9),
             line(39, "76", x0=20, size=14, bold=True)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Replace", "Trash"]
    assert "76" in out["text"]


def test_a_small_line_right_above_a_large_title_is_not_a_heading():
    lines = [line(760, "Product Pack", size=13), line(735, "Three packs that make a real difference", size=22),
             *body_lines(700, "a", 6), line(600, "Second part", size=13), *body_lines(580, "b", 4)]
    out = organize([page(1, lines, width=960, height=540 + 300)])[0]
    assert [text for _, text in headings(out)] == ["Three packs that make a real difference", "Second part"]
    assert out["blocks"][0] == {**out["blocks"][0], "kind": "paragraph", "text": "Product Pack"}


def test_a_chapter_number_set_larger_over_its_title_stays_a_heading():
    lines = [line(600, "2", x0=200, size=30), line(560, "The Lost Homeland", x0=120, size=24, bold=True),
             *body_lines(520, "a", 6)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["2", "The Lost Homeland"]


def test_text_above_notes_that_outweigh_it_is_the_body():
    # A page mostly figure: a few lines of text in 11 pt, then longer notes in 9 pt below.
    text = [line(600 - 13.5 * k, t, size=11) for k, t in enumerate(prose(60, "body")[:5])]
    notes = [line(400 - 11 * k, t, size=9) for k, t in enumerate(prose(200, "note")[:16])]
    lines = [line(690, "Baird", x0=400, size=11), *text, line(530, "Travellers from Arabia", size=11), *notes]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    assert "Baird" in out["text"] and "Travellers from Arabia" in out["text"]


def squeezed_line(y: float, text: str, x0: float, size: float, width: float) -> dict[str, Any]:
    """A line whose glyphs take far less room than its stated size: scaled down, or set sideways."""
    return {"y": y, "size": size, "runs": [{"text": text, "font": "Helvetica-Bold", "size": size, "color": "#000000",
                                            "box": [x0, y - 0.2 * size, x0 + width, y + 0.8 * size]}]}


def test_figure_labels_and_a_margin_stamp_of_a_large_stated_size_are_not_headings():
    lines = [line(740, "Learning a Classifier", x0=200, size=16, bold=True), *body_lines(700, "a", 4),
             squeezed_line(630, "Acc (25Hz)", x0=160, size=24, width=32),
             squeezed_line(600, "Feature extraction", x0=156, size=18, width=41),
             squeezed_line(400, "arXiv:1711.02387v1 [eess.SP] 7 Nov 2017", x0=14, size=20, width=23),
             *body_lines(560, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Learning a Classifier")]
    assert "Acc (25Hz)" in out["text"] and "Feature extraction" in out["text"]


def test_a_bulleted_line_in_bold_is_a_list_entry_not_a_heading():
    lines = [line(740, "Features", size=14, bold=True), *body_lines(720, "a", 3),
             line(676, "• Support for both front ends", x0=80, bold=True),
             line(664, "➢ Typed programming interface", x0=80, bold=True), *body_lines(650, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Features")]
    assert "Support for both front ends" in out["text"]


def test_entries_set_after_a_symbol_fonts_bullet_are_a_list_and_read_as_one_in_markdown():
    # Wingdings' ▪ reads as U+F0A7, Symbol's • as U+F0B7: bullets, not the start of a heading.
    from siftpdf.views.markdown import page_markdown

    lines = [line(740, "Why revise the plan", size=14, bold=True), *body_lines(720, "a", 3),
             line(676, "\uf0a7 The road should have a designated bike path.", x0=80, size=12, bold=True),
             line(662, "\uf0b7 Each neighbourhood needs to be connected to the rest", x0=80),
             line(650, "of the town all year round.", x0=90), *body_lines(630, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Why revise the plan")]
    assert [b["kind"] for b in out["blocks"]].count("list_item") == 2
    markdown = page_markdown(out)
    assert "- The road should have a designated bike path." in markdown
    assert "- Each neighbourhood needs to be connected to the rest of the town all year round." in markdown


def test_the_second_line_of_a_bold_list_entry_goes_on_with_the_entry():
    lines = [line(740, "Usage", size=14, bold=True), *body_lines(720, "a", 3),
             line(676, "* This work is still in progress; the code and data may change as we", bold=True),
             line(664, "learn more, so be careful with versions", bold=True), *body_lines(640, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Usage")]
    assert any(b["kind"] == "list_item" and b["text"].endswith("be careful with versions") for b in out["blocks"])


def test_a_numbered_title_in_body_type_on_a_line_set_apart_is_a_heading():
    lines = [line(740, "II. MATERIALS", x0=150), line(722, "A. Sensors"), *body_lines(707, "a", 4),
             line(642, "B. Data acquisition"), *body_lines(627, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["II. MATERIALS", "A. Sensors", "B. Data acquisition"]


def test_numbered_list_entries_and_a_folio_before_a_running_head_are_not_headings():
    indented = [line(700 - 18 * k, f"{k}. Record the question", x0=90) for k in range(1, 4)]
    at_pitch = [line(600 - 12 * k, f"{k}. Carry the sample home") for k in range(1, 4)]
    lines = [line(760, "16 Face Your World"), *body_lines(740, "a", 3), *indented, *body_lines(630, "b", 2),
             *at_pitch, *body_lines(540, "c", 3)]
    assert headings(organize([page(1, lines)])[0]) == []


def test_the_byline_under_a_bold_title_is_not_a_heading():
    lines = [line(700, "Copysets: Reducing Data Loss", x0=150, size=18, bold=True),
             line(660, "Asaf Cidon, Stephen Rumble and Ryan Stutsman", x0=160, size=12),
             line(646, "Stanford University", x0=230, size=12),
             line(610, "ABSTRACT", size=12, bold=True), *body_lines(590, "a", 4),
             line(530, "1. INTRODUCTION", size=12, bold=True), *body_lines(510, "b", 4)]
    out = organize([page(1, lines), page(2, [line(740, "Sachin Katti", size=12), *body_lines(720, "c", 4)])])
    assert [text for _, text in headings(out[0])] == ["Copysets: Reducing Data Loss", "ABSTRACT", "1. INTRODUCTION"]
    assert "Asaf Cidon" in out[0]["text"] and "Stanford University" in out[0]["text"]
    assert [text for _, text in headings(out[1])] == ["Sachin Katti"]  # past the first page, size speaks


def test_a_short_figure_label_of_a_large_stated_size_is_not_a_heading():
    lines = [*body_lines(740, "a", 4), squeezed_line(680, "90%", x0=335, size=24, width=9),
             *body_lines(660, "b", 4)]
    assert headings(organize([page(1, lines)])[0]) == []


def test_an_unnumbered_heading_in_the_face_of_numbered_ones_takes_their_level():
    lines = [line(760, "A Study of Rivers", x0=200, size=20), line(720, "Part One", size=16),
             *body_lines(700, "a", 3), line(640, "1 Sources", size=12, bold=True), *body_lines(620, "b", 3),
             line(560, "1.1 Springs", bold=True), *body_lines(540, "c", 3)]
    second = [line(740, "References", size=12, bold=True), *body_lines(720, "r", 3)]
    out = organize([page(1, lines), page(2, second)])
    assert headings(out[0]) == [(1, "A Study of Rivers"), (2, "Part One"), (2, "1 Sources"), (3, "1.1 Springs")]
    assert headings(out[1]) == [(2, "References")]  # by size alone it would rank third


def test_outline_entries_sit_below_a_title_the_outline_does_not_hold():
    lines = [line(740, "A Study of Rivers", x0=200, size=20, bold=True), *body_lines(700, "a", 3),
             line(640, "Introduction", size=12, bold=True), *body_lines(620, "b", 3)]
    outline = [{"title": "Introduction", "page": 1, "level": 1}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "A Study of Rivers"), (2, "Introduction")]


def test_a_large_sum_sign_and_an_address_for_mail_are_not_headings():
    lines = [line(740, "Bounds", size=14, bold=True), *body_lines(720, "a", 3),
             line(676, "∑ ∑", x0=150, size=20), *body_lines(650, "b", 3),
             line(600, "heather.miller@epfl.ch", x0=150, size=14), *body_lines(580, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Bounds")]
    assert "heather.miller@epfl.ch" in out["text"]


def test_a_bold_exhibit_or_chart_caption_is_a_caption_not_a_heading():
    lines = [*body_lines(740, "a", 3), line(690, "Exhibit 3: Revenue by region", bold=True),
             *body_lines(670, "b", 3), line(620, "Chart 2. Share of exports", bold=True), *body_lines(600, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    assert [b["text"] for b in out["blocks"] if b["kind"] == "caption"] == \
        ["Exhibit 3: Revenue by region", "Chart 2. Share of exports"]


def test_the_last_entry_of_a_spaced_numbered_list_is_not_a_heading():
    entries = [line(700 - 18 * k, f"{k}. Carry the sample home") for k in range(1, 4)]
    lines = [*body_lines(740, "a", 3), *entries, *body_lines(628, "b", 3)]
    assert headings(organize([page(1, lines)])[0]) == []


def test_a_bold_phrase_that_fills_its_line_and_runs_on_is_not_a_heading():
    texts = prose(24, "lead")
    lead = line(700, texts[0], bold=True)
    rest = {"y": 688, "size": 10, "runs": [run("bold still", 72, 688, font="Times-Bold"),
                                          run(texts[1][:48], 127, 688)]}
    lines = [line(740, "Findings", size=14, bold=True), *body_lines(724, "a", 2), lead, rest,
             *body_lines(676, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Findings")]


def test_a_long_bold_title_that_reaches_the_edge_over_a_new_sentence_stays_a_heading():
    title = line(700, "4.1 Word-Frequency Based Embedding Sizes of the Vocabulary", bold=True)
    lines = [*body_lines(740, "a", 3), title, line(688, "Predefined " + prose(12, "b")[0][:48]),
             *body_lines(676, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["4.1 Word-Frequency Based Embedding Sizes of the Vocabulary"]


def test_a_heading_beside_the_other_column_is_parted_from_it_at_the_gutter():
    # The right column's heading is set larger than the body: the gutter is wider than the
    # body's em but narrower than the heading's, and one evidence line holds both columns.
    record = justified_columns_page(11.0)
    lines = record["evidence"]["lines"]
    row = lines[10]
    right = row["runs"][1]
    heading = {**run("3 Results", right["box"][0], row["y"], size=12.0), "font": "Times-Bold"}
    lines[10] = {**row, "size": 12.0, "runs": [row["runs"][0], heading]}
    text = organize([record])[0]["text"]
    assert order_of_columns(text, 2) == [0, 1]
    assert text.index("c0w119") < text.index("c1w53") < text.index("3 Results") < text.index("c1w60")


def test_an_overfull_line_run_on_over_the_next_column_stays_in_its_own():
    # A left-column line set past the gutter, over the first words of the right column's line
    # beside it; its last word comes after that line's run in the evidence.
    record = justified_columns_page(12.0)
    lines = record["evidence"]["lines"]
    row = lines[10]
    left, right = row["runs"]
    y = row["y"]
    over = {**run("c0w58 overfull", left["box"][2] - 40, y),
            "box": [left["box"][2] - 40, y - 2, right["box"][0] + 20, y + 8]}
    tail = run("c0w59", right["box"][0] + 22, y)
    lines[10] = {**row, "runs": [{**left, "text": left["text"].rsplit(" ", 2)[0],
                                  "box": [left["box"][0], y - 2, left["box"][2] - 42, y + 8]}, over, right, tail]}
    text = organize([record])[0]["text"]
    assert order_of_columns(text, 2) == [0, 1]
    assert "c0w58 overfull c0w59" in text and "c0w59 c0w60" in text.replace("\n\n", " ")


def test_an_accent_set_back_over_its_word_does_not_part_the_line():
    lines = body_lines(700, "acc", 6)
    first = lines[2]["runs"][0]
    accent = {**run("\u00a8", 100.0, lines[2]["y"])}
    rest = run("tail of the line", first["box"][2] + 2.5, lines[2]["y"])
    lines[2] = {**lines[2], "runs": [first, accent, rest]}
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph"]
    assert f"{first['text']}\u00a8 tail of the line acc31" in out["text"]


def test_an_equation_number_at_the_head_of_a_lone_page_is_no_page_number():
    lines = [line(760, "(15.19)"), *body_lines(720, "eq", 10), line(40, "341", x0=300)]
    out = organize([page(1, lines)])[0]
    assert [(f["kind"], f["text"]) for f in out["furniture"]] == [("page_number", "341")]
    assert out["text"].startswith("(15.19)")


def turned(text: str, x0: float, y0: float, size: float = 20.0) -> dict[str, Any]:
    """A line turned to run up the page from ``y0``, its glyphs stacked one above the other."""
    box = [x0, y0, x0 + size, y0 + CHAR * size / 10 * len(text)]
    return {"y": y0, "size": size, "rotated": True,
            "runs": [{"text": text, "font": "Times-Roman", "size": size, "color": "#808080", "box": box,
                      "angle": 90}]}


def test_a_stamp_up_the_side_margin_is_set_aside_on_any_page():
    stamp = "arXiv:1703.00983v1 [cs.DB] 2 Mar 2017"
    lines = [*body_lines(700, "a", 8), turned(stamp, 14.0, 240.0), *body_lines(560, "b", 8)]
    for pages in ([page(1, lines)], [page(n, lines if n == 1 else body_lines(700, f"p{n}", 8)) for n in (1, 2, 3, 4)]):
        out = organize(pages)[0]
        assert [(f["kind"], f["text"]) for f in out["furniture"]] == [("stamp", stamp)]
        assert "arXiv" not in out["text"] and headings(out) == []


def slanted(text: str, x0: float, y0: float, size: float = 48.0, angle: int = 45) -> dict[str, Any]:
    """A line set at a slant from (``x0``, ``y0``), corner to corner as a watermark is."""
    reach = CHAR * size / 10 * len(text) * 0.7
    return {"y": y0, "size": size, "rotated": True,
            "runs": [{"text": text, "font": "SimSun", "size": size, "color": "#c0c0c0",
                      "box": [x0, y0, x0 + reach, y0 + reach], "angle": angle}]}


def test_a_large_watermark_across_the_text_is_set_aside_and_the_paragraph_reads_on():
    """'SAMPLE' set at 45 degrees over the middle of a paragraph, three times its size: set
    aside as the page's watermark (kept in the furniture, where grep finds it), and the
    paragraph it crosses is one paragraph, not two around a heading."""
    texts = prose(12 * 10, "w")[:10]
    lines = [line(700 - 12 * k, t) for k, t in enumerate(texts[:5])]
    lines += [slanted("SAMPLE", 150.0, 630.0, size=30.0)]
    lines += [line(640 - 12 * k, t) for k, t in enumerate(texts[5:])]
    out = organize([page(1, lines)])[0]
    assert [(f["kind"], f["text"]) for f in out["furniture"]] == [("watermark", "SAMPLE")]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph"] and "SAMPLE" not in out["text"]


def test_a_small_slanted_line_on_every_page_is_a_watermark_and_a_chart_label_is_not():
    """A seller's name set small at a slant on every page is a watermark by repetition; a
    chart's label set at a slant on one page, as small, is the page's text."""
    mark = "Sold by the Example Shop"
    pages = [page(n, [*body_lines(700, SEEDS[n], 8), slanted(mark, 200.0, 500.0, size=9.0, angle=80),
                      *body_lines(400, f"{SEEDS[n]}x", 8)]) for n in range(1, 5)]
    pages.append(page(5, [*body_lines(700, SEEDS[5], 8), slanted("throughput", 200.0, 500.0, size=9.0),
                          *body_lines(400, "last", 8)]))
    out = organize(pages)
    for record in out[:4]:
        assert [(f["kind"], f["text"]) for f in record["furniture"]] == [("watermark", mark)], record["page"]
        assert mark not in record["text"]
    assert out[4]["furniture"] == [] and "throughput" in out[4]["text"]


def test_turned_labels_down_a_form_margin_are_not_stamps():
    labels = [turned(f"Part {k} of the form", 14.0, 100.0 + 150 * k, size=8.0) for k in range(4)]
    out = organize([page(1, [*body_lines(700, "a", 20), *labels])])[0]
    assert out["furniture"] == []
    assert all(f"Part {k} of the form" in out["text"] for k in range(4))


def test_a_lone_page_sets_aside_the_lines_only_a_page_edge_carries():
    lines = [line(770, "Journal of Rivers, Vol. 32, No. 2, April 1985, pp. 374-382.", size=10),
             *body_lines(720, "a", 20),
             line(40, "Downloaded from https://rivers.example.org on 5 May 2021", x0=150, size=8)]
    out = organize([page(1, lines)])[0]
    kinds = [(f["kind"], f["text"][:10]) for f in out["furniture"]]
    assert kinds == [("header", "Journal of"), ("footer", "Downloaded")]
    assert "Rivers" not in out["text"] and "Downloaded" not in out["text"]


def test_a_lone_page_sets_aside_a_foot_in_pieces_whose_folio_stands_a_word_from_its_title():
    # A proceedings' foot set smaller than the text: the publisher at one side, the venue with the
    # page's number a word space off at the other; the year in the venue is no folio.
    for parts, number in ((["USENIX Association", "2013 USENIX Annual Technical Conference (ATC ’13) 51"], "51"),
                          (["52 2013 USENIX Annual Technical Conference (ATC ’13)", "USENIX Association"], "52")):
        foot = {"y": 40, "size": 9.0, "runs": [run(parts[0], 72, 40, size=9),
                                               run(parts[1], 540 - 4.5 * len(parts[1]), 40, size=9)]}
        out = organize([page(1, [*body_lines(720, "a", 50), foot])])[0]
        assert sorted(f["text"] for f in out["furniture"]) == sorted(parts)
        assert number not in out["text"].split() and "USENIX" not in out["text"]
    # A footnote in one piece, and a foot whose only number is a year, stay the text's.
    for pieces in ([("1 The runs of section 3 took 52", 72)], [("Annual Report", 72), ("Oslo 2013", 480)]):
        foot = {"y": 40, "size": 9.0, "runs": [run(text, x0, 40, size=9) for text, x0 in pieces]}
        out = organize([page(1, [*body_lines(720, "a", 50), foot])])[0]
        assert out["furniture"] == [] and all(text in out["text"] for text, _ in pieces)


def test_a_lone_page_sets_aside_a_running_head_whose_folio_the_text_layer_set_a_little_off():
    # The folio and the authors drawn as two lines under a point apart: one printed line.
    head = [line(700.6, "292", x0=72, size=11), line(700, "C. DWORK ET AL.", x0=260, size=9)]
    out = organize([page(1, [*head, *body_lines(680, "a", 50)])])[0]
    assert sorted(f["text"] for f in out["furniture"]) == ["292", "C. DWORK ET AL."]
    assert not out["text"].startswith(("292", "C. DWORK"))
    # Two numbers on one baseline over the body are a table's, no running head.
    pair = [line(700.6, "292", x0=72, size=11), line(700, "318", x0=260, size=11)]
    out = organize([page(1, [*pair, *body_lines(680, "a", 50)])])[0]
    assert out["furniture"] == []


def test_a_lone_page_sets_aside_a_small_foot_with_its_folio_between_its_pieces():
    pieces = [("Submitted to ML’08", 72), ("4", 300), ("2008/6/16", 500)]
    foot = {"y": 40, "size": 7.0, "runs": [run(text, x0, 40, size=7) for text, x0 in pieces]}
    out = organize([page(1, [*body_lines(720, "a", 50), foot])])[0]
    assert sorted(f["text"] for f in out["furniture"]) == ["2008/6/16", "4", "Submitted to ML’08"]


def test_a_lone_page_sets_aside_the_articles_address_under_its_journal_line():
    head = [line(760, "Datta et al. Journal of Trauma Management & Outcomes 2010, 4:1", size=8),
            line(750, "http://www.traumamanagement.org/content/4/1/1", size=8)]
    out = organize([page(1, [*head, *body_lines(700, "a", 50)])])[0]
    assert [f["text"][:10] for f in out["furniture"]] == ["Datta et a", "http://www"]
    # An address closing the text stays the text's.
    tail = line(100, "http://www.example.org/data", size=10)
    out = organize([page(1, [*body_lines(700, "a", 50), tail])])[0]
    assert out["furniture"] == [] and "http://www.example.org/data" in out["text"]


def test_a_lone_pages_last_line_across_two_columns_ending_in_a_year_is_the_text():
    # A note's address in the left column, a reference's last word in the right: '2009.' ends a
    # citation, it is no page number across the measure from a running title.
    left = [line(760 - 12 * k, text, x0=72, size=8) for k, text in enumerate(prose(120, "l")[:50])]
    right = [line(760 - 12 * k, text, x0=320, size=8) for k, text in enumerate(prose(120, "r")[:50])]
    last = {"y": 90.0, "size": 8.0, "runs": [run("21 http://github.com/MTG/essentia", 72, 90, size=8),
                                             run("2009.", 320, 90, size=8)]}
    out = organize([page(1, [*left, *right, last])])[0]
    assert out["furniture"] == []
    assert "http://github.com/MTG/essentia" in out["text"] and "2009." in out["text"]


def test_a_caption_heading_a_lone_pages_text_under_a_figure_is_no_running_head():
    # The page opens with a figure; its caption, small and set apart, is the first line of text.
    lines = [line(560, "Fig. 1. Interacting with the system", x0=200, size=9), *body_lines(520, "a", 40)]
    out = organize([page(1, lines)])[0]
    assert out["furniture"] == [] and "Interacting with the system" in out["text"]


def test_a_lone_page_sets_aside_when_and_where_it_was_typeset():
    # A printer's slug at the foot: the typesetter's file and page, the date and the clock time.
    slug = {"y": 12, "size": 6.0, "runs": [run("9782340-025998_Manual.indb 78", 20, 12, size=6),
                                           run("14/09/2018 10:37", 500, 12, size=6)]}
    out = organize([page(1, [*body_lines(720, "a", 50), slug])])[0]
    assert sorted(f["text"] for f in out["furniture"]) == ["14/09/2018 10:37", "9782340-025998_Manual.indb 78"]
    assert "10:37" not in out["text"] and ".indb" not in out["text"]


def test_a_lone_page_sets_aside_its_page_of_pages_in_chinese():
    out = organize([page(1, [*body_lines(720, "a", 50), line(40, "第4页共6页", x0=280, size=9)])])[0]
    assert [(f["kind"], f["text"]) for f in out["furniture"]] == [("page_number", "第4页共6页")]


def test_such_a_form_in_the_last_line_of_the_text_stays_in_the_body():
    # The same words closing the text, at its leading, are the text's.
    body = body_lines(300, "a", 18)
    lines = [*body, line(body[-1]["y"] - 12, "as printed in Vol. 32, No. 2 of the same journal.")]
    out = organize([page(1, lines)])[0]
    assert out["furniture"] == [] and out["text"].endswith("of the same journal.")


def test_columns_of_lines_broken_by_equations_read_in_turn():
    # Half the lines of each column are an equation's narrow pieces, and a full-width line set
    # close under the columns leaves no whitespace to cut the page at.
    lines = []
    for c in range(2):
        x0 = 72 + c * 243
        for row in range(20):
            y = 700 - 12 * row
            if row % 2:
                pieces = [run(f"c{c}e{row}p{k}", x0 + 55 * k, y) for k in range(4)]
                lines.append({"y": y, "size": 10.0, "runs": pieces})
            else:
                text = " ".join(f"c{c}w{row}k{k}" for k in range(5))
                box = [x0, y - 2, x0 + 225, y + 8]
                lines.append({"y": y, "size": 10.0, "runs": [{**run(text, x0, y), "box": box}]})
    lines.append({"y": 466.0, "size": 10.0, "runs": [{**run("A line across the page", 72, 466.0),
                                                       "box": [72.0, 464.0, 540.0, 471.0]}]})
    text = organize([page(1, lines)])[0]["text"]
    assert order_of_columns(text, 2) == [0, 1] and text.rstrip().endswith("A line across the page")


def test_a_page_whose_text_runs_across_is_no_two_columns_however_its_lines_break():
    # One column; most lines run across the middle, the rest break there at a gap between an
    # equation's pieces: the broken lines' halves are wide, yet most text crosses the middle.
    from siftpdf.organize.layout import Item, find_gutter

    items = []
    for row in range(30):
        y = 700.0 - 12 * row
        if row % 3:
            items.append(Item(f"across {row} " * 8, 72, y - 2, 540, y + 8, y, 10.0))
        else:
            items += [Item(f"left {row} " * 5, 72, y - 2, 260, y + 8, y, 10.0),
                      *(Item(sign, x, y - 2, x + 6, y + 8, y, 10.0) for sign, x in (("x", 270), ("+", 280),
                                                                                     ("=", 312), ("y", 322))),
                      Item(f"right {row} " * 5, 340, y - 2, 540, y + 8, y, 10.0)]
    assert find_gutter(items, 612.0) is None
    assert find_gutter(items, 612.0, lenient=True) is None


def test_the_gutter_cuts_no_line_of_a_column_where_a_place_inside_one_scores_alike():
    # A centred byline starts a little left of the gutter, where the left column's longest
    # lines end: a place left of those ends has the byline on its right and scores as well as
    # the gutter, but cuts the column's lines, which then read as lines across the page.
    from siftpdf.organize.layout import Item, find_gutter, reading_order

    def at(text: str, x0: float, x1: float, y: float) -> Item:
        return Item(text, x0, y - 2, x1, y + 8, y, 10.0)

    items = [at("By A. Writer", 283, 330, 740)]
    items += [at(f"left {k} " * 4, 72, 287 if k in (4, 9, 14) else 270, 700 - 12 * k) for k in range(20)]
    items += [at(f"right {k} " * 4, 309, 500, 700 - 12 * k) for k in range(16)]
    assert 287 <= find_gutter(items, 595.0) <= 309
    columns = {i.text for i in reading_order(items, 595.0, columns=True) if i.column == "L"}
    assert columns == {f"left {k} " * 4 for k in range(20)}


def test_short_lines_going_on_under_a_full_width_line_at_its_pitch_stay_in_their_column():
    # A paragraph runs across the page; under its last full line, short lines go on at the same
    # pitch beside a figure (nothing on their right), then the page's two columns. The first
    # short line is not the full-width paragraph's last: more short lines follow it at that pitch.
    from siftpdf.organize.layout import Item, reading_order

    def at(text: str, x0: float, x1: float, y: float) -> Item:
        return Item(text, x0, y - 2, x1, y + 8, y, 10.0)

    items = [at(f"across {k} " * 8, 72, 540, 700 - 12 * k) for k in range(3)]
    items += [at(f"short {k} " * 4, 72, 240, 664 - 12 * k) for k in range(4)]
    for k in range(12):
        items += [at(f"left {k} " * 4, 72, 290, 600 - 12 * k), at(f"right {k} " * 4, 322, 540, 600 - 12 * k)]
    columns = {i.text.split()[0]: i.column for i in reading_order(items, 612.0, columns=True)}
    assert columns == {"across": "F", "short": "L", "left": "L", "right": "R"}


def test_a_stamp_drawn_in_pieces_up_the_margin_is_one_stamp():
    pieces = ["Downloaded from", "https://rivers.example.org", "on 5 May 2021"]
    lines, y0 = [*body_lines(700, "a", 8), *body_lines(560, "b", 8)], 150.0
    for text in pieces:
        lines.append(turned(text, 580.0, y0, size=9.0))
        y0 += CHAR * 0.9 * len(text) + 5
    out = organize([page(1, lines)])[0]
    assert [f["text"] for f in out["furniture"] if f["kind"] == "stamp"] == pieces


def two_column_rows(left: list[list[tuple[float, str]]], right: list[str], top: float = 700.0) -> dict[str, Any]:
    """Two justified columns (72-297 and 315-540), each baseline one evidence line holding both
    columns' runs. ``left``: each baseline's runs in the left column as (x0, text), a whole
    line of prose being [(72, text)] (set to the column's full width); ``right``: each
    baseline's prose in the right column (full width), "" for none, a text ending in "." the
    last line of its paragraph (set short)."""
    lines = []
    for row in range(max(len(left), len(right))):
        y = top - 12 * row
        runs = []
        for x0, text in left[row] if row < len(left) else []:
            box = run(text, x0, y)["box"]
            runs.append({**run(text, x0, y), "box": [x0, box[1], 297.0 if x0 == 72 else box[2], box[3]]})
        text = right[row] if row < len(right) else ""
        if text:
            box = run(text, 315, y)["box"]
            runs.append({**run(text, 315, y), "box": [315.0, box[1], box[2] if text.endswith(".") else 540.0, box[3]]})
        if runs:
            lines.append({"y": y, "size": 10.0, "runs": runs})
    return page(1, lines)


def column_words(column: int, count: int) -> list[str]:
    return [" ".join(f"c{column}w{k * 6 + j}" for j in range(6)) for k in range(count)]


def test_an_equation_beside_the_other_columns_prose_is_no_table():
    """An equation set in three pieces over three baselines of the left column, the right
    column's prose running on beside it on the same baselines: the left column reads whole
    before the right one, the prose is not cut into a table's cells."""
    prose_left = column_words(0, 14)
    equation = [[(110, "n=1"), (170, "f(x) + g(x)"), (280, "(8)")],
                [(110, "sum"), (170, "h(x) - k(x)"), (280, "")],
                [(110, "N"), (170, "p(x) / q(x)"), (280, "(9)")]]
    equation = [[(x, t) for x, t in row if t] for row in equation]
    left = [[(72, t)] for t in prose_left[:6]] + equation + [[(72, t)] for t in prose_left[6:]]
    out = organize([two_column_rows(left, column_words(1, 17))])[0]
    assert [b for b in out["blocks"] if b["kind"] == "table"] == []
    assert order_of_columns(out["text"], 2) == [0, 1]
    assert out["text"].index("p(x) / q(x)") < out["text"].index("c1w0 ")


def test_a_table_in_one_column_keeps_out_the_prose_beside_it():
    """A small table in the left column, the right column's paragraph running on beside it and
    ending on a short last line beside the table: the table holds its own cells only, and the
    right column's text reads whole after the left column."""
    cells = [["Gauge", "Depth", "Flow"], ["North", "1.2", "14.3"], ["East", "2.0", "21.7"], ["West", "0.8", "9.9"]]
    prose_left = column_words(0, 12)
    table = [[(x, t) for x, t in zip((80, 160, 230), row, strict=True)] for row in cells]
    left = [[(72, t)] for t in prose_left[:6]] + table + [[(72, t)] for t in prose_left[6:]]
    right = column_words(1, 8) + ["c1w48 c1w49 last."] + column_words(2, 9)
    out = organize([two_column_rows(left, right)])[0]
    tables = [b for b in out["blocks"] if b["kind"] == "table"]
    assert [[c["text"] for c in row] for row in tables[0]["rows"]] == cells
    assert "c1w" not in tables[0]["text"] and "c2w" not in tables[0]["text"]
    text = out["text"]
    assert text.index("c0w71") < text.index("c1w0 ") < text.index("c1w49 last.") < text.index("c2w0 ")


def test_prose_beside_a_numbered_listing_in_the_other_column_is_no_table():
    """A paragraph in the left column, beside a code listing of numbered lines in the right
    one (line numbers, code indented under them: narrow pieces, no line of prose): the
    paragraph reads whole, not cut into a table with the listing, and before the listing."""
    code = ["val forwarder = {", "val ofp = ObservableFlowPool[T]()", "val sm = new StateMachine {",
            "var next: Option[Int] = None", "def apply(): Unit = {", "val c = channels.get(stream)",
            "case Failure(t) =>", "ofp.failure(t)", "}", "def onDone() =", "channel.put(None)", "})",
            "channels += (stream -> channel)", "case Some(c) =>", "c.asInstanceOf[Channel[Int]]", "}",
            "state = if (res.isEmpty) 2 else 1", "resume()", "}", "}"]
    prose_left = column_words(0, 20)
    lines = []
    for row in range(20):
        y = 700 - 12 * row
        left = run(prose_left[row], 72, y)
        left = {**left, "box": [72.0, left["box"][1], 297.0, left["box"][3]]}
        indent = 10 * (row % 4)
        lines.append({"y": y, "size": 10.0, "runs": [left, run(str(row + 1), 315, y),
                                                     run(code[row], 335 + indent, y)]})
    out = organize([page(1, lines)])[0]
    assert [b for b in out["blocks"] if b["kind"] == "table"] == []
    text = out["text"]
    assert " ".join(prose_left) in text
    assert text.index("c0w119") < text.index("val forwarder = {")


def test_prose_beside_a_proofs_rules_in_the_other_column_is_no_table():
    """A justified paragraph in the left column beside a proof in the right one (formulas and
    rule names set apart at no common edge, on the paragraph's baselines): the paragraph reads
    whole, not cut into a table with the proof's pieces."""
    proof = [[(330, "A B"), (420, "A & B"), (490, "A & B")], [(345, "&-I"), (440, "&-E1"), (505, "&-E2")],
             [(352, "A & B"), (431, "A"), (513, "B")], [(318, "[B & A]"), (398, "[B & A]")],
             [(366, "&-E2"), (452, "&-E1")], [(337, "A"), (421, "B")]]
    prose_left = column_words(0, 12)
    lines = []
    for row in range(12):
        y = 700 - 12 * row
        left = run(prose_left[row], 72, y)
        runs = [{**left, "box": [72.0, left["box"][1], 297.0, left["box"][3]]}]
        runs += [run(text, x, y) for x, text in (proof[row] if row < len(proof) else [])]
        lines.append({"y": y, "size": 10.0, "runs": runs})
    out = organize([page(1, lines)])[0]
    tables = [b for b in out["blocks"] if b["kind"] == "table"]
    assert all("c0w" not in b["text"] for b in tables)
    assert " ".join(prose_left) in out["text"]


def test_three_justified_columns_of_prose_are_no_table():
    """A register's page in three columns of justified prose, each line of a column on the
    baseline of a line of the others: read column after column, no table of three cells a row."""
    edges = [(45.0, 212.0), (222.0, 389.0), (399.0, 566.0)]
    # Lines opening on names and figures, as a regulation's do ('Service Bulletin 737-00-1028,'):
    # nothing in the words themselves says that a line runs on into the one under it.
    words = [[f"Bulletin {row + 1} " + " ".join(f"c{k}w{row * 5 + j}" for j in range(5)) for row in range(18)]
             for k in range(3)]
    lines = []
    for row in range(18):
        y = 700 - 10 * row
        runs = []
        for (x0, x1), column in zip(edges, words, strict=True):
            piece = run(column[row], x0, y, size=8.0)
            runs.append({**piece, "box": [x0, piece["box"][1], x1, piece["box"][3]]})
        lines.append({"y": y, "size": 8.0, "runs": runs})
    out = organize([page(1, lines)])[0]
    assert [b for b in out["blocks"] if b["kind"] == "table"] == []
    assert order_of_columns(out["text"], 3) == [0, 1, 2]


def _pictured_page(sizes: tuple[float, float]) -> dict[str, Any]:
    """A page of its own text in 9 pt under a picture whose text OCR read: a chart's title at
    ``sizes[0]`` and its labels at ``sizes[1]``, in the picture's region."""
    labels = [line(690, "Q11 What factors influence your choice of print", x0=110, size=sizes[0]),
              line(660, "Convenience", x0=120, size=sizes[1]), line(640, "Reading experience", x0=120, size=sizes[1]),
              line(620, "Workflow", x0=120, size=sizes[1])]
    for label in labels:
        for piece in label["runs"]:
            piece.update(font="OCR", ocr=0.95)
    text = [line(560 - 11 * k, words, size=9.0) for k, words in enumerate(prose(120, "own")[:12])]
    record = page(1, [*labels, *text])
    record["ocr"] = {"engine": "tesseract", "confidence": 0.95, "dpi": 200.0, "regions": [[100.0, 600.0, 500.0, 710.0]]}
    return record


def test_text_read_from_a_picture_ranks_nothing_beside_the_pages_own():
    """OCR's text of a picture on a page with a text layer of its own (a chart's title and
    labels) is set at the picture's scale: neither a heading for being larger than the page's
    text nor its body, which stays the page's own size (its lines not footnotes)."""
    for sizes in ((14.0, 12.0), (11.0, 7.0)):
        out = organize([_pictured_page(sizes)])[0]
        assert headings(out) == [], sizes
        kinds = {b["kind"] for b in out["blocks"]}
        assert "footnote" not in kinds and "Q11 What factors influence your choice of print" in out["text"], sizes
    scanned = _pictured_page((14.0, 12.0))
    scanned["status"] = "ocr"  # OCR read the page (what text layer it has is not its text): its sizes rank
    assert headings(organize([scanned])[0]) != []


def test_outline_titles_match_lines_labelled_with_a_letter_or_a_parenthesis():
    lines = [line(740, "II. MATERIALS", x0=150), *body_lines(722, "a", 3),
             line(680, "A. Sensors"), *body_lines(665, "b", 3),
             line(620, "(b) Data acquisition"), *body_lines(605, "c", 3)]
    outline = [{"title": "Materials", "page": 1, "level": 1}, {"title": "Sensors", "page": 1, "level": 2},
               {"title": "Data acquisition", "page": 1, "level": 2}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "II. MATERIALS"), (2, "A. Sensors"), (2, "(b) Data acquisition")]


def runs_line(y: float, parts: list[tuple[str, str]], x0: float = 72.0, gap: float = CHAR) -> dict[str, Any]:
    """A line of several runs, (text, font) each, ``gap`` apart (a word space)."""
    runs = []
    for text, font in parts:
        runs.append(run(text, x0, y, font=font))
        x0 = runs[-1]["box"][2] + gap
    return {"y": y, "size": 10.0, "runs": runs}


def test_a_run_in_outline_title_heads_the_paragraph_it_runs_into():
    rest = prose(80, "m")
    lines = [line(740, "A. Super-Resolution Part"),
             runs_line(722, [("1) Feature Extraction Blocks:", "Times-Italic"), (rest[0][:30], "Times-Roman")]),
             *[line(710 - 12 * k, text) for k, text in enumerate(rest[1:4])],
             runs_line(650, [("Reconstruction of the signal", "Times-Roman"), ("goes on as prose", "Times-Roman")]),
             *body_lines(638, "z", 3)]
    outline = [{"title": "Super-Resolution Part", "page": 1, "level": 1},
               {"title": "Feature Extraction Blocks", "page": 1, "level": 2},
               {"title": "Reconstruction", "page": 1, "level": 2}]
    out = organize([page(1, lines)], outline)[0]
    # The colon that sets the head off its text is no word of the title.
    assert headings(out) == [(1, "A. Super-Resolution Part"), (2, "1) Feature Extraction Blocks")]
    after = [b["text"] for b in out["blocks"]]
    assert after[2].startswith(rest[0][:30]) and after[2].endswith(rest[3])  # the paragraph, whole
    assert any(text.startswith("Reconstruction of the signal") for text in after)  # not at a run's end: prose


def test_a_run_in_outline_title_whose_justified_spaces_part_its_run_heads_its_paragraph():
    """The italic title run in before its text on a justified line, each of its spaces wide
    enough to be kept as a gap (its run parts into a piece a word): it is found all the same."""
    rest = prose(80, "m")
    title = "1) Feature Extraction Blocks:"
    head = runs_line(722, [(title, "Times-Italic"), (rest[0][:30], "Times-Roman")])
    first = head["runs"][0]
    first["gaps"] = [[k, 72 + CHAR * k, 72 + CHAR * (k + 1)] for k, char in enumerate(title) if char == " "]
    lines = [line(740, "A. Super-Resolution Part"), head,
             *[line(710 - 12 * k, text) for k, text in enumerate(rest[1:4])], *body_lines(650, "z", 3)]
    outline = [{"title": "Super-Resolution Part", "page": 1, "level": 1},
               {"title": "Feature Extraction Blocks", "page": 1, "level": 2}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "A. Super-Resolution Part"), (2, "1) Feature Extraction Blocks")]


def test_a_row_of_numbers_or_a_formula_set_large_is_not_a_heading():
    lines = [line(740, "Bounds", size=14, bold=True), *body_lines(720, "a", 3),
             line(676, "1011 1012 1013 1014", x0=150, size=14), line(650, "0.05 <R/R200< 0.15", x0=150, size=14),
             line(630, "∂g", x0=150, size=14), line(616, "x", x0=150, size=14), *body_lines(600, "b", 2),
             line(560, "2", x0=150, size=24), line(530, "The Lost Homeland", x0=150, size=18),
             *body_lines(500, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Bounds", "2", "The Lost Homeland"]
    assert "1011 1012" in out["text"] and "∂g" in out["text"] and "\nx\n" in out["text"]


def test_a_bold_run_in_head_set_a_quad_apart_at_a_paragraph_start_is_a_heading():
    text = prose(60, "q")
    lines = [line(740, "Usage", size=16, bold=True), *body_lines(716, "a", 3),
             runs_line(670, [("StatsD.measure", "Times-Bold"), (text[0][:45], "Times-Roman")], gap=10.0),
             *[line(658 - 12 * k, t) for k, t in enumerate(text[1:3])],
             runs_line(610, [("StatsD.gauge", "Times-Bold"), (text[3][:45], "Times-Roman")], gap=10.0),
             *[line(598 - 12 * k, t) for k, t in enumerate(text[4:6])]]
    out = organize([page(1, lines)])[0]
    assert [t for _, t in headings(out)] == ["Usage", "StatsD.measure", "StatsD.gauge"]
    levels = dict((t, level) for level, t in headings(out))
    assert levels["StatsD.measure"] > levels["Usage"]
    paragraphs = [b["text"] for b in out["blocks"] if b["kind"] == "paragraph"]
    assert any(p.startswith(text[0][:45]) and p.endswith(text[2]) for p in paragraphs)


def test_bold_lead_ins_that_open_a_sentence_or_sit_in_one_are_not_headings():
    text = prose(200, "q")
    lines = [*body_lines(740, "a", 3),
             runs_line(694, [("Evaluation.", "Times-Bold"), (text[0][:45], "Times-Roman")], gap=10.0),
             *[line(682 - 12 * k, t) for k, t in enumerate(text[1:3])],
             runs_line(634, [("Model merging", "Times-Bold"), (text[3][:45], "Times-Roman")]),  # a word space
             *[line(622 - 12 * k, t) for k, t in enumerate(text[4:6])],
             *[line(574 - 12 * k, t) for k, t in enumerate(text[6:8])],  # full lines: the next goes on
             runs_line(550, [("Batch size", "Times-Bold"), (text[8][:45], "Times-Roman")], gap=10.0),
             line(538, text[9]), line(526, "the end."),
             runs_line(500, [("Qt!", "Times-Bold"), (text[10][:55], "Times-Roman")], gap=10.0), line(488, text[11])]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []


def test_a_run_in_head_under_a_heading_is_a_heading_of_its_own():
    text = prose(40, "q")
    lines = [line(740, "4.3.1 Instruction Tuning", bold=True),
             runs_line(726, [("Training data", "Times-Bold"), (text[0][:45], "Times-Roman")], gap=10.0),
             *[line(714 - 12 * k, t) for k, t in enumerate(text[1:3])]]
    out = organize([page(1, lines)])[0]
    assert [t for _, t in headings(out)] == ["4.3.1 Instruction Tuning", "Training data"]


def test_a_heading_in_the_face_of_outline_entries_takes_their_level():
    lines = [line(740, "Methods", size=14, bold=True), *body_lines(720, "a", 3),
             line(670, "Sampling", size=12, bold=True), *body_lines(650, "b", 3),
             line(600, "Analysis", size=12, bold=True), *body_lines(580, "c", 3),
             line(530, "Results", size=14, bold=True), *body_lines(510, "d", 3)]
    outline = [{"title": "Methods", "page": 1, "level": 1}, {"title": "Sampling", "page": 1, "level": 3},
               {"title": "Results", "page": 1, "level": 1}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "Methods"), (3, "Sampling"), (3, "Analysis"), (1, "Results")]


def test_small_capitals_beside_their_capitals_read_as_one_heading():
    from siftpdf.child.evidence import _lines

    # 'III. INTERLEAVER DESIGN' set in small capitals in the right column: the small letters sit
    # a point off the capitals' baseline, on the baseline of a caption line in the left column.
    heading = [evidence_run("III. I", 478.0, 624.4, 10.0), evidence_run("NTERLEAVER", 508.0, 625.3, 8.0),
               evidence_run("D", 559.0, 624.4, 10.0), evidence_run("ESIGN", 564.5, 625.3, 8.0)]
    caption = evidence_run("Fig. 1. Block diagram of the encoder", 72.0, 625.3, 8.0)
    lines = _lines([*heading, caption])
    texts = sorted(" ".join(r["text"] for r in ln["runs"]) for ln in lines)
    assert texts == ["Fig. 1. Block diagram of the encoder", "III. I NTERLEAVER D ESIGN"]
    left = [line(652 - 12 * k, t, x0=72) for k, t in enumerate(prose(60, "l")[:4])]
    right = [line(652 - 12 * k, t, x0=400) for k, t in enumerate(prose(60, "r")[:2])]
    below = [line(608 - 12 * k, t, x0=400) for k, t in enumerate(prose(60, "b")[:4])]
    out = organize([page(1, [*left, *right, *[dict(ln) for ln in lines], *below], width=800)])[0]
    assert [text for _, text in headings(out)] == ["III. INTERLEAVER DESIGN"]


def test_the_abstract_named_run_in_on_the_first_page_heads_it():
    text = prose(80, "w")
    opening = [line(740, "Serially Concatenated Codes", x0=150, size=20),
               runs_line(700, [("Abstract", "Times-BoldItalic"), ("— " + text[0][:40], "Times-Bold")], gap=0.5),
               *[line(688 - 12 * k, t, bold=True) for k, t in enumerate(text[1:3])], *body_lines(650, "a", 3)]
    later = [*body_lines(740, "b", 2),
             runs_line(716, [("Abstract", "Courier"), ("classes " + text[3][:30], "Times-Roman")]),
             *body_lines(704, "c", 2),
             runs_line(670, [("Abstract", "Times-BoldItalic"), ("— " + text[4][:40], "Times-Bold")], gap=0.5),
             *body_lines(658, "d", 2)]
    out = organize([page(1, opening), page(2, later)])
    assert [t for _, t in headings(out[0])] == ["Serially Concatenated Codes", "Abstract"]
    assert any(b["text"].startswith(text[0][:40]) and b["kind"] == "paragraph" for b in out[0]["blocks"])
    assert headings(out[1]) == []  # past the first page, or not followed by a stop or dash: no abstract


def test_an_unnumbered_head_in_capitals_centred_in_its_column_is_a_heading():
    # The column runs from 72 to 372: a line centred in it is centred on 222.
    lines = [*body_lines(740, "a", 4), line(686, "ACKNOWLEDGMENT", x0=194, size=8),
             *body_lines(670, "b", 3), line(620, "NASA AND ESA DATA", x0=72), *body_lines(608, "c", 3),
             line(560, "TABLE VALUES", x0=198, size=8), line(548, "ROW ONE", x0=208, size=8), *body_lines(536, "d", 2),
             line(500, "PM(E) = P(E)", x0=192), *body_lines(484, "e", 2),
             runs_line(450, [("SEE PROFILE", "Times-Roman"), ("SEE PROFILE", "Times-Roman")], x0=122, gap=90.0),
             *body_lines(434, "f", 2)]
    out = organize([page(1, lines)])[0]
    # Centred, set apart, over a paragraph: a heading. Flush left, over more capitals, or a
    # display formula in capitals: not.
    assert [t for _, t in headings(out)] == ["ACKNOWLEDGMENT"]


def test_larger_lines_that_end_in_a_word_broken_at_a_hyphen_are_prose_not_a_heading():
    # The page's body is its many small references; the paragraph above them is set larger.
    refs = [line(540 - 9 * k, f"[{k}] A. Author, Title of a paper number {k}, Journal, 2017.", size=8)
            for k in range(1, 30)]
    lines = [line(740, "IV. CONCLUSION", x0=140, size=8), line(724, "We present a breakthrough in deep learning for"),
             line(712, "super-resolution, leveraging networks and SPP-LinkNet-"),
             line(700, "34. Achieving high performance on the dataset, it excels"),
             line(688, "in binary segmentation with an IoU of 83.65% and a Dice"),
             line(676, "score of 89.80%, effectively handling complex multi-class"), line(664, "segmentation tasks."),
             line(640, "Hyphen- and Dash Rules", size=12), *body_lines(624, "h", 2, x0=72),
             line(580, "5.1 A Clock for Faults without Authentica-", size=10),
             line(570, "tion. Throughout this section we assume that the network delivers each message", size=8),
             *refs]
    out = organize([page(1, lines)])[0]
    # A numbered head may run in, its last word broken: it stays a heading.
    assert [t for _, t in headings(out)][:2] == ["IV. CONCLUSION", "Hyphen- and Dash Rules"]
    assert any(t.startswith("5.1 A Clock for Faults") for _, t in headings(out))


def centred(y: float, text: str, size: float, middle: float = 222.0) -> dict[str, Any]:
    return line(y, text, x0=middle - CHAR * size / 10 * len(text) / 2, size=size)


def test_names_set_centred_one_a_line_are_lines_of_their_own_a_centred_paragraph_stays_one():
    # A byline: each name centred on a line of its own, the next name would have fitted beside
    # it: each ended by choice. A paragraph set centred runs its lines near the column's width.
    wide = "the surveyors walked every bank of the river and its"
    lines = [centred(740, "Rivers Of The North", 16), centred(716, "Ada Lovelace", 10),
             centred(704, "Charles Babbage", 10), centred(692, "University of London", 10),
             centred(660, wide, 10), centred(648, wide.replace("every", "each"), 10), *body_lines(600, "a", 4)]
    out = organize([page(1, lines)])[0]
    texts = [b["text"] for b in out["blocks"]]
    assert texts[1:4] == ["Ada Lovelace", "Charles Babbage", "University of London"]
    assert texts[4] == f"{wide} {wide.replace('every', 'each')}"


def test_the_byline_under_a_title_set_in_a_light_face_is_not_a_heading():
    # LaTeX's title block: the title, the authors and their institution centred one under the
    # other, larger than the text and none of them bold; the sections' heads in bold.
    lines = [centred(700, "Engines Of Difference", 17), centred(660, "Ada Lovelace and Charles Babbage", 12),
             centred(637, "Institute of Analytical Engines", 12),
             line(600, "1 Methods", size=14.4, bold=True), *body_lines(580, "a", 4),
             line(520, "2 Results", size=14.4, bold=True), *body_lines(500, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert [t for _, t in headings(out)] == ["Engines Of Difference", "1 Methods", "2 Results"]
    assert "Ada Lovelace and Charles Babbage" in out["text"] and "Institute of Analytical Engines" in out["text"]


def test_a_centred_heading_over_two_lines_stays_a_heading():
    lines = [centred(700, "Engines Of Difference And", 17), centred(680, "Their Tables Of Numbers", 17),
             *body_lines(650, "a", 4), line(590, "1 Methods", size=14.4, bold=True), *body_lines(570, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert [t for _, t in headings(out)] == ["Engines Of Difference And Their Tables Of Numbers", "1 Methods"]


def test_a_caption_set_centred_over_two_lines_is_one_caption():
    lines = [*body_lines(700, "a", 4), centred(640, "Table 1. Where the rivers of the north rise and", 10),
             centred(628, "how far they run", 10), *body_lines(600, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert "Table 1. Where the rivers of the north rise and how far they run" in out["text"]
    assert [b["kind"] for b in out["blocks"]].count("caption") == 1


def test_a_caption_centred_on_its_float_in_a_column_of_list_entries_is_one_caption():
    """A column of a list's entries, each a number at the column's edge and lines set in under
    it (most of the column's lines start there), then a table's caption from the column's edge,
    its second line centred under its first (on the float's middle, not the column's): one
    caption, not its first line and a paragraph set in."""
    lines = []
    for k, seed in enumerate("abc"):
        texts = prose(12 * 5, seed)[:5]
        for j, text in enumerate(texts):
            set_line = line(740 - 60 * k - 12 * j, f"{k + 1}. {text}" if j == 0 else text, x0=72 if j == 0 else 102)
            set_line["runs"][0]["box"][2] = 372.0
            lines.append(set_line)
    first, second = "Table 1. Where the rivers of the north rise and", "how far they run"
    lines += [line(548, first), line(536, second, x0=72 + 2.5 * (len(first) - len(second)))]
    out = organize([page(1, lines)])[0]
    captions = [b["text"] for b in out["blocks"] if b["kind"] == "caption"]
    assert captions == [f"{first} {second}"]


def test_a_centred_caption_ends_where_a_line_set_apart_under_it_in_a_section_of_its_own_starts(corpus: Path):
    """A medical course's figure: a diagram's labels, its caption centred under it over two
    lines, then, two lines' space lower, a sentence set wider than the caption (a section of
    the page's own). The caption is its two lines, not the sentence too."""
    pdf = corpus / "forms-tables" / "tests_pdfs_issue-71-duplicate-chars-2.pdf"
    page = next(r for r in siftpdf.extract(pdf.read_bytes(), max_pages=5) if r.get("page") == 5)
    captions = [" ".join(b["text"].split()) for b in page["blocks"] if b["kind"] == "caption"]
    assert "Figure 2. Trou anionique urinaire = méthode indirecte pour évaluer la réponse rénale" in captions


def italic_line(y: float, text: str, x0: float = 72.0, size: float = 10.0) -> dict[str, Any]:
    return {"y": y, "size": size, "runs": [run(text, x0, y, size, "Times-Italic")]}


def test_an_unnumbered_subsection_head_in_italic_is_a_heading_under_the_bold_ones():
    # groff's ms and many journals: sections in bold, their subsections in italic, both in the
    # body's size; an author's name in italic centred under the title is no heading.
    lines = [line(740, "Rivers Of The North", x0=200, size=16, bold=True), centred(716, "Ada Lovelace", 10),
             line(690, "Methods", bold=True), *body_lines(672, "a", 4),
             italic_line(612, "Sampling the rivers"), *body_lines(596, "b", 4),
             line(536, "Results", bold=True), *body_lines(518, "c", 4)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Rivers Of The North"), (2, "Methods"), (3, "Sampling the rivers"), (2, "Results")]


def test_an_italic_head_as_wide_as_its_column_over_an_upright_paragraph_is_a_heading():
    # groff's ms: '.SH' then '.LP', the head nearly the column's width, the paragraph under it
    # set flush left: the next word would not have fitted, but the italic ends with the line.
    lines = [line(740, "Rivers Of The North", x0=200, size=16, bold=True), *body_lines(700, "a", 4),
             italic_line(640, "Sampling Northern Rivers Throughout Springtime Floods"), *body_lines(626, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Rivers Of The North"), (2, "Sampling Northern Rivers Throughout Springtime Floods")]


def test_an_italic_head_of_one_word_is_a_heading_a_symbol_or_an_abbreviation_alone_is_none():
    # APA's and groff's lowest level: 'Participants' in italic over its paragraph; a variable
    # ('x') or an acronym ('NASA') set alone in italic heads nothing.
    lines = [line(740, "Rivers Of The North", x0=200, size=16, bold=True), *body_lines(700, "a", 4),
             italic_line(640, "Participants"), *body_lines(626, "b", 4),
             italic_line(566, "x"), *body_lines(552, "c", 4),
             italic_line(492, "NASA"), *body_lines(478, "d", 4)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Rivers Of The North"), (2, "Participants")]


def test_a_paragraphs_short_line_in_italic_at_the_pitch_is_no_heading():
    # A title of a work cited on a line of its own inside a paragraph: no space sets it apart.
    lines = [line(740, "Rivers Of The North", x0=200, size=16, bold=True), *body_lines(700, "a", 4),
             italic_line(652, "The Book Of Rivers"), *body_lines(640, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "Rivers Of The North")]


def test_a_name_over_an_address_for_mail_is_a_byline_not_a_heading():
    lines = [line(700, "ACCELERATED RESISTIVITY TOMOGRAPHY", x0=150, size=14),
             line(660, "Jonghyun Lee", x0=280, bold=True), line(648, "University of Hawaii at Manoa", x0=240),
             line(636, "jonghyun.lee@hawaii.edu", x0=250),
             line(600, "ABSTRACT", x0=280, bold=True), *body_lines(584, "a", 3),
             line(520, "Interested in working", x0=72, bold=True), line(508, "with us on this?", x0=72, bold=True),
             line(496, "Write to rebecca.allen@example.edu", x0=72), *body_lines(470, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert [t for _, t in headings(out)] == ["ACCELERATED RESISTIVITY TOMOGRAPHY", "ABSTRACT",
                                              "Interested in working with us on this?"]
    assert "Jonghyun Lee" in out["text"]


def test_a_sentences_tail_in_a_heading_face_is_no_heading():
    """A caption's last line carried over to the top of the page in its large bold face opens
    in a small letter and ends the sentence: it is no heading. A heading's second line may
    open in a small letter and go on with it."""
    out = organize([page(1, [line(720, "outlets and waterways.", size=14.0, bold=True), *body_lines(690, "a"),
                             line(620, "Terraces and their outlets", size=14.0, bold=True),
                             line(603, "under contour tillage.", size=14.0, bold=True), *body_lines(580, "b")])])[0]
    assert [text for _, text in headings(out)] == ["Terraces and their outlets under contour tillage."]
    assert any(b["kind"] == "paragraph" and b["text"] == "outlets and waterways." for b in out["blocks"])


def test_text_drawn_twice_in_place_reads_once():
    """Axis labels each drawn twice on the same spot (a fill and a stroke, a bold made by
    printing twice) read once, as the text layer gives them; the same figure set beside itself,
    or stacked above and below (a subscript and a superscript), is two figures."""
    again = {"y": 700.0, "size": 10.0, "runs": [run("600", 100, 700), run("600", 100.5, 700), run("600", 300, 700),
                                                  run("600", 300, 700)]}
    assert [i.text for i in line_segments(again, keep_clipped=True)[0]] == ["600", "600"]
    beside = {"y": 700.0, "size": 10.0, "runs": [run("1", 100, 700), run("1", 100 + CHAR, 700)]}
    assert [i.text for i in line_segments(beside, keep_clipped=True)[0]] == ["11"]
    stacked = {"y": 700.0, "size": 10.0, "runs": [run("1", 100, 697, 7), run("1", 100, 704, 7)]}
    assert "".join(i.text for i in line_segments(stacked, keep_clipped=True)[0]).replace(" ", "") == "11"


def test_a_non_breaking_hyphen_reads_as_a_hyphen():
    """pandoc sets '--cache-dir' and 'on-the-fly' with U+2011 (a hyphen no line breaks at): the
    article, and so grep, read them with '-', as typed."""
    (record,) = organize([page(1, [line(700, "Pass \u2011\u2011cache\u2011dir to read on\u2011the\u2011fly.")])])
    assert "Pass --cache-dir to read on-the-fly." in record["text"]


def test_text_drawn_twice_is_counted_in_the_organization_diagnostics():
    """A heading printed twice on one spot reads once, and ``done.organization`` counts the
    characters set aside, so a reader comparing with the raw text knows where they went."""
    twice = {"y": 700.0, "size": 10.0, "runs": [run("Results", 72, 700), run("Results", 72.3, 700)]}
    stream = [{"meta": {"pages": 1, "max_pages": 2000, "outline": []}}, page(1, [twice, line(680, "Body text.")]),
              {"done": {"pages_processed": 1}}]
    out = list(organize_records(stream, OrganizeOptions()))
    assert out[1]["text"].count("Results") == 1
    assert out[-1]["done"]["organization"]["drawn_twice_chars"] == len("Results")


def _read_runs(*parts: tuple[str, float, dict[str, Any]]) -> str:
    """The text of one line whose runs follow each other at the gaps given (ems of size 10)."""
    runs, x = [], 100.0
    for text, gap, extra in parts:
        x += 10.0 * gap
        runs.append({**run(text, x, 700), **extra})
        x = runs[-1]["box"][2]
    items, _ = line_segments({"y": 700.0, "size": 10.0, "runs": runs}, keep_clipped=True)
    return " | ".join(item.text for item in items)


def test_runs_a_tight_word_space_apart_read_as_two_words_as_poppler_reads_them():
    # Justified or tightly set text, and a formula's operators, leave word spaces of about an
    # eighth of an em between the runs of two fonts: a word space all the same.
    assert _read_runs(("the", 0, {}), ("Nights", 0.12, {"font": "Times-Italic"}), ("offered", 0.12, {})) == \
        "the Nights offered"
    assert _read_runs(("P", 0, {}), ("−", 0.12, {}), ("1", 0.12, {})) == "P − 1"
    # Letters of one word drawn by two text objects touch.
    assert _read_runs(("Bio", 0, {}), ("Med", 0.02, {})) == "BioMed"


def test_an_italic_kept_clear_of_punctuation_or_a_superscript_is_no_word_space():
    # The slant's clearance before an upright stop or bracket, and a superscript's offset,
    # are no space: 'Vp.', 'timerp(q)', 'S1'.
    assert _read_runs(("Vp", 0, {"font": "Times-Italic"}), (".", 0.12, {})) == "Vp."
    assert _read_runs(("timerp", 0, {"font": "Times-Italic"}), ("(q)", 0.12, {})) == "timerp(q)"
    assert _read_runs(("S", 0, {}), ("1", 0.12, {"y": 704.0, "size": 7.0})) == "S1"


def code_line(y: float, text: str, x0: float = 90.0, number: str = "") -> dict[str, Any]:
    """A line of code in Courier (an advance of CHAR at size 10), after a listing's line
    number in Times when ``number`` is given."""
    runs = [run(number, 74, y)] if number else []
    if text:
        runs.append(run(text, x0, y, font="Courier"))
    return {"y": y, "size": 10.0, "runs": runs}


def test_lines_in_a_monospaced_face_among_prose_are_one_block_of_code_indented_as_set():
    lines = [*body_lines(740, "a", 3), line(704, "as the function below shows:"),
             code_line(686, "def area(r):"), code_line(674, "return 3.14 * r ** 2", x0=90 + 4 * CHAR),
             code_line(650, "print(area(2))"), *body_lines(626, "b", 3)]
    out = organize([page(1, lines)])[0]
    kinds = [b["kind"] for b in out["blocks"]]
    assert kinds.count("code") == 1 and kinds[-2:] == ["code", "paragraph"]
    assert out["blocks"][-2]["text"] == "def area(r):\n    return 3.14 * r ** 2\n\nprint(area(2))"
    assert "def area(r):\n    return 3.14" in out["text"]


def test_a_listing_keeps_its_line_numbers_and_its_blank_numbered_lines():
    lines = [*body_lines(740, "a", 3), code_line(704, "x = 1", number="1"), code_line(692, "", number="2"),
             code_line(680, "y = x", number="3"), *body_lines(656, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert [b["text"] for b in out["blocks"] if b["kind"] == "code"] == ["1 x = 1\n2\n3 y = x"]


def test_a_listing_broken_by_the_page_end_goes_on_where_its_lines_are_printed():
    # A listing from the foot of one page to the head of the next: each page keeps its lines
    # (grep and pages cite them there), the second part marked as going on from the first.
    first = [*body_lines(740, "a", 3), *[code_line(200 - 12 * k, f"step_{k}(x)") for k in range(12)]]
    second = [*[code_line(740 - 12 * k, f"step_{12 + k}(x)") for k in range(4)], *body_lines(680, "b", 3)]
    out = organize([page(1, first), page(2, second)])
    codes = [[b for b in record["blocks"] if b["kind"] == "code"] for record in out]
    assert [[b["text"] for b in blocks] for blocks in codes] == \
        [["\n".join(f"step_{k}(x)" for k in range(12))], ["\n".join(f"step_{k}(x)" for k in range(12, 16))]]
    assert "continued" not in codes[0][0] and codes[1][0]["continued"] is True
    assert "step_13(x)" in out[1]["text"] and "step_13(x)" not in out[0]["text"]


@pytest.mark.parametrize("face", ["Courier", "NimbusMonL-Regu", "AnonymousPro"])
def test_a_listing_in_a_smaller_monospaced_face_below_the_text_is_code_not_notes(face: str) -> None:
    """A manual's example set a size smaller below a page's last paragraph is code, as the
    same listing between paragraphs is; a note whose address runs on in the code's face
    stays one note."""
    def small(y: float, text: str, x0: float = 90.0, font: str = face) -> dict[str, Any]:
        return {"y": y, "size": 8.5, "runs": [run(text, x0, y, 8.5, font)]}

    lines = [*body_lines(740, "a", 8), line(644, "as the session below shows:"),
             small(628, "(gdb) print var"), small(618, "$1 = {"), small(608, "black = 144,", x0=90 + 4 * 4.25),
             small(598, "}"), small(588, "(gdb) run"), small(578, "Program exited normally.")]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]][-1] == "code"
    assert out["blocks"][-1]["text"].startswith("(gdb) print var\n$1 = {\n")
    assert "footnote" not in [b["kind"] for b in out["blocks"]]
    note = "1 See the chapter on running programs of the debugger's manual, at"
    noted = [*body_lines(740, "a", 8), small(90, note, x0=72, font="Times-Roman"),
             small(80, "https://example.org/manual/debugging.html", x0=72)]
    out = organize([page(1, noted)])[0]
    assert out["blocks"][-1]["kind"] == "footnote"
    assert out["blocks"][-1]["text"] == f"{note} https://example.org/manual/debugging.html"


def _small(y: float, text: str, x0: float = 90.0, font: str = "Courier", size: float = 8.5) -> dict[str, Any]:
    return {"y": y, "size": size, "runs": [run(text, x0, y, size, font)]}


def test_a_small_listing_goes_on_through_lines_that_open_as_notes_do() -> None:
    """objdump's table of sections set small below the text: its rows open with their index
    ('0 .text …'), as a note opens with its number, but each goes on the listing just above it."""
    lines = [*body_lines(740, "a", 8), line(644, "the object file's sections are:"),
             _small(628, "Sections:"), _small(618, "Idx Name Size VMA LMA"),
             _small(608, "0 .text 00000027 00000000 00000000", x0=94), _small(598, "CONTENTS, ALLOC, LOAD", x0=120),
             _small(588, "1 .data 00000000 00000000 00000000", x0=94)]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]][-2:] == ["paragraph", "code"]
    assert out["blocks"][-1]["text"].endswith("1 .data 00000000 00000000 00000000")


def test_a_line_of_code_with_an_operator_set_in_a_math_face_is_code() -> None:
    """Doxygen's manuals set '*' as TeX's \\ast: 'const char ∗ path,' is code as its neighbours are."""
    def declared(y: float, before: str, after: str) -> dict[str, Any]:
        star = 90 + (len(before) + 1) * CHAR
        return {"y": y, "size": 10.0, "runs": [run(before, 90, y, font="Courier"), run("∗", star, y, font="CMSY10"),
                                                run(after, star + 2 * CHAR, y, font="Courier")]}

    lines = [*body_lines(740, "a", 3), line(704, "is declared as follows:"),
             code_line(686, "int dwarf_init_path("), declared(674, "    const char", "dw_path,"),
             declared(662, "    Dwarf_Error", "dw_error);"), *body_lines(638, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert [b["text"] for b in out["blocks"] if b["kind"] == "code"] == \
        ["int dwarf_init_path(\n    const char ∗ dw_path,\n    Dwarf_Error ∗ dw_error);"]


def test_a_listing_below_the_text_under_its_title_is_code_whatever_its_first_line() -> None:
    """A book's listing set small at a page's foot, under a title in its own small bold type,
    and one opening with a comment's end: a title and code, no notes."""
    lines = [*body_lines(740, "a", 8), line(644, "Another way is to keep the objects apart, as below."),
             _small(626, "Separate objects state", x0=72, font="Times-Bold"),
             _small(610, "state = {"), _small(600, "recipes: [", x0=98.5), _small(590, "};")]
    out = organize([page(1, lines)])[0]
    assert [(b["kind"], b["text"]) for b in out["blocks"]][-2:] == \
        [("paragraph", "Separate objects state"), ("code", "state = {\n  recipes: [\n};")]
    lines = [*body_lines(740, "a", 8), line(644, "The example ends its header comment so:"),
             _small(626, "*/"), _small(616, "int example(Dwarf_Debug dbg)"), _small(606, "{")]
    out = organize([page(1, lines)])[0]
    assert [(b["kind"], b["text"]) for b in out["blocks"]][-1] == ("code", "*/\nint example(Dwarf_Debug dbg)\n{")


def test_listings_set_small_choose_no_body_size() -> None:
    """A manual's page of short sentences, each over a listing set a size smaller: the
    sentences are its text, not headings, though the listings and their captions outweigh them."""
    lines = [line(740, "The first example sets a value and prints it:"),
             *[_small(722 - 10 * k, t) for k, t in enumerate(["x = compute(1)", "print(x)", "y = compute(2)",
                                                               "print(y)"])],
             _small(676, "Output of the first example, as the terminal shows it", x0=72, font="Times-Roman"),
             line(660, "The second example reads the value back again:"),
             *[_small(642 - 10 * k, t) for k, t in enumerate(["z = read(x)", "print(z)", "w = read(y)", "print(w)"])],
             _small(596, "Output of the second example, as the terminal shows it", x0=72, font="Times-Roman"),
             *body_lines(580, "b", 2)]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph", "code", "paragraph"] * 2 + ["paragraph"]


def test_a_declaration_displayed_bold_between_two_sentences_is_code_not_a_heading() -> None:
    """A standard's 'The type' / 'fenv_t' / 'represents the environment.': the type's name set
    alone in bold Courier, in from the text's edge, is code; a head set flush in the same face
    is still a head."""
    def bold_code(y: float, text: str, x0: float) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [run(text, x0, y, font="Courier-Bold")]}
    lines = [*body_lines(740, "a", 4), line(692, "4 The type"), bold_code(674, "fenv_t", 110),
             line(656, "represents the entire floating-point environment."), *body_lines(632, "b", 4),
             bold_code(572, "Environment functions", 72), *body_lines(554, "c", 4)]
    out = organize([page(1, lines)])[0]
    assert [b["text"] for b in out["blocks"] if b["kind"] == "code"] == ["fenv_t"]
    assert [text for _, text in headings(out)] == ["Environment functions"]


def test_a_listing_set_bold_throughout_is_code_not_headings() -> None:
    """A standard's examples set in bold Courier: each line bold as the next, so none heads."""
    def bold(y: float, text: str, x0: float = 110.0) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [run(text, x0, y, font="Courier-Bold")]}

    lines = [*body_lines(740, "a", 3), line(704, "EXAMPLE 2 In contrast, in"),
             bold(686, "void f(void)"), bold(674, "{"), bold(662, "int *p;", x0=130), bold(650, "}"),
             *body_lines(626, "b", 3), line(590, "EXAMPLE 3 Two declarations:"),
             bold(572, "float f1, f2;"), bold(560, "double d;"), *body_lines(536, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    assert [b["text"] for b in out["blocks"] if b["kind"] == "code"] == \
        ["void f(void)\n{\n    int *p;\n}", "float f1, f2;\ndouble d;"]


def test_a_page_mostly_of_listings_keeps_its_sentences_text_and_its_indented_session_code() -> None:
    """A manual's page more listing than prose, a session indented well in from the text at its
    foot: the sentences between listings are text, the session code."""
    listing = [f"result_{k} = compute(argument_{k}, option_{k})" for k in range(6)]
    lines = [line(740, "The first example computes the results:"),
             *[_small(722 - 10 * k, t) for k, t in enumerate(listing)],
             line(650, "The second example computes them again:"),
             *[_small(632 - 10 * k, t) for k, t in enumerate(listing)],
             *body_lines(560, "b", 3), line(524, "For example:"),
             *[_small(506 - 10 * k, t, x0=150) for k, t in enumerate(["(gdb) info frame", "Stack level 0",
                                                                      "rip = 0x401136"])]]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    assert [b["kind"] for b in out["blocks"]] == ["paragraph", "code"] * 2 + ["paragraph", "paragraph", "code"]
    assert out["blocks"][-1]["text"] == "(gdb) info frame\nStack level 0\nrip = 0x401136"


def test_an_elision_set_in_another_face_inside_a_listing_is_code() -> None:
    """'/* ... */' with its dots in italic Times, as a standard sets code left out: one block."""
    def elided(y: float) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [run("/*", 90, y, font="Courier"), run("...", 90 + 3 * CHAR, y,
                                                                                     font="Times-Italic"),
                                                run("*/", 90 + 7 * CHAR, y, font="Courier")]}

    lines = [*body_lines(740, "a", 3), line(704, "the declarations are"), code_line(686, "char c1, c2;"),
             elided(674), code_line(662, "c1 = c1 + c2;"), *body_lines(638, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert [b["text"] for b in out["blocks"] if b["kind"] == "code"] == ["char c1, c2;\n/* ... */\nc1 = c1 + c2;"]


def test_a_page_of_listings_with_a_line_of_prose_reads_as_code() -> None:
    """A specification's page of definitions, nine tenths of it in Courier under one line of
    prose: code, not a typescript read as prose."""
    defines = [f"#define SHT_KIND_{k} {k}" for k in range(24)]
    lines = [line(740, "The section types of the file, as the header defines them, are:"),
             *[code_line(722 - 12 * k, text) for k, text in enumerate(defines)]]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph", "code"]
    assert out["blocks"][1]["text"] == "\n".join(defines)


def test_a_structure_closed_left_of_its_indented_members_is_one_block_of_code() -> None:
    """A page of structures whose members, indented, set its text edge: each '};' set left of
    that edge closes its structure's code block, not a paragraph of its own."""
    members = [f"long cs_field_{k};" for k in range(12)]
    lines = [line(740, "The structures of the file system, as the kernel declares them, are:"),
             code_line(722, "struct csum {"),
             *[code_line(710 - 12 * k, text, x0=90 + 4 * CHAR) for k, text in enumerate(members)],
             code_line(566, "};"), code_line(542, "struct fs {"),
             *[code_line(530 - 12 * k, text, x0=90 + 4 * CHAR) for k, text in enumerate(members)], code_line(386, "};")]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph", "code", "code"]
    for block, name in zip(out["blocks"][1:], ("csum", "fs"), strict=True):
        assert block["text"].startswith(f"struct {name} {{\n    long cs_field_0;")
        assert block["text"].endswith("    long cs_field_11;\n};")


def test_a_page_set_wholly_in_a_monospaced_face_whose_lines_end_early_is_code():
    """An appendix's page of source and nothing else: its lines end where each statement does,
    well short of the measure a few long ones reach, as no typescript's do: one block of code,
    not a paragraph a statement."""
    source = ["for j=1:14", "    total(j)=sum(weights(:,j))./12;", "end", "for i=1:26",
              "    for j=1:6", "        predicted(i,features(j))=measured(i,features(j))./(1+rate(features(j)));",
              "    end", "end", "x = zeros(1,14);", "y = zeros(1,14);"]
    lines = [code_line(740 - 12 * k, text.strip(), x0=72 + CHAR * (len(text) - len(text.lstrip())))
             for k, text in enumerate(source)]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["code"]
    assert out["blocks"][0]["text"].startswith("for j=1:14\n    total(j)=sum(weights(:,j))./12;\nend")


def test_a_string_in_another_script_inside_a_line_of_code_keeps_it_code():
    """A Latin monospaced face has no Chinese glyphs: a string or a comment in Chinese inside a
    line of code is set in a Chinese face, and the line is code as its neighbours are; Chinese
    words after a command outside any string or comment are the text's."""
    def mixed(y: float, parts: list[tuple[str, str]]) -> dict[str, Any]:
        runs, x = [], 90.0
        for text, font in parts:
            runs.append(run(text, x, y, font=font))
            x = runs[-1]["box"][2]
        return {"y": y, "size": 10.0, "runs": runs}
    lines = [*body_lines(740, "a", 3), line(704, "the data are read by:"),
             code_line(686, "low=xlsread(data);"),
             mixed(674, [("high=xlsread('", "Courier"), ("高钾风化", "SimSun"), (".xlsx');", "Courier")]),
             mixed(662, [("void cross()//", "Courier"), ("交叉操作", "SimSun")]),
             code_line(650, "low(isnan(low))=0;"), *body_lines(626, "b", 3),
             mixed(578, [("$ make ", "Courier"), ("生成输出文件", "SimSun"), (" construct", "Courier")]),
             *body_lines(566, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [b["text"] for b in out["blocks"] if b["kind"] == "code"] == [
        "low=xlsread(data);\nhigh=xlsread('高钾风化.xlsx');\nvoid cross()//交叉操作\nlow(isnan(low))=0;"]


def test_a_line_of_code_parted_at_a_channel_goes_on_as_code() -> None:
    """A comment's '%' and its Chinese words stand apart where the page's comments leave a
    channel: the words past it are still the line's code; a note's number parted so is not."""
    comment = {"y": 700.0, "size": 10.0, "runs": [run("%", 72, 700, font="Courier"),
                                                   run("计算条件的点", 83, 700, font="FangSong"),
                                                   run("angle_1", 113, 700, font="Courier")]}
    segments, _ = line_segments(comment, keep_clipped=False, channels=[80.0])
    assert [s.text for s in segments] == ["%", "计算条件的点angle_1"]
    assert [s.code for s in segments] == [72, 83]
    note = {"y": 700.0, "size": 10.0, "runs": [run("12", 72, 700, font="Courier"),
                                                run("见第三章", 88, 700, font="FangSong")]}
    segments, _ = line_segments(note, keep_clipped=False, channels=[85.0])
    assert [s.code for s in segments] == [72, None]


def test_a_page_mostly_of_listings_keeps_the_body_of_the_pages_before() -> None:
    """A manual's page of code set small, with a few sentences between its listings in the
    size the pages before set their text in: the sentences are text, not headings, though the
    listings fill most of the page."""
    code = [f"result_{k} = compute(value_{k}, limit={k})" for k in range(40)]
    lines = [line(740, "The parameters are set first, then each value is computed from them:"),
             *[_small(722 - 9 * k, t) for k, t in enumerate(code[:20])],
             line(530, "2.1. Parameters. The family of systems takes three integers chosen together."),
             line(518, "Each of them is read from the command line, and checked before use here."),
             *[_small(500 - 9 * k, t) for k, t in enumerate(code[20:])],
             line(310, "The values computed above are printed in the order they were asked for.")]
    out = organize([page(1, body_lines(740, "a", 30)), page(2, lines)])[1]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph", "code", "paragraph", "code", "paragraph"]


def test_a_page_set_wholly_in_a_monospaced_face_reads_as_prose():
    lines = [code_line(740 - 12 * k, text, x0=72) for k, text in enumerate(prose(48, "t")[:4])]
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph"]


def test_a_paragraph_set_double_spaced_on_a_page_set_single_is_one_paragraph():
    """A paragraph whose lines stand twice the page's pitch apart, each justified to the
    column's edge, is one paragraph, not one a line; one-line paragraphs set as far apart as the
    page sets its paragraphs stay apart, and so does a line full by chance between two gaps."""
    def justified(seed: str, count: int) -> list[str]:  # lines of 60 characters, as a justified column's
        return [" ".join(f"{seed}{k}w{j:02d}" for j in range(10))[:60] for k in range(count)]

    texts = justified("d", 4)
    spaced = [line(560 - 24 * k, t) for k, t in enumerate(texts)] + [line(560 - 24 * 4, "the paragraph ends.")]
    lines = [*[line(740 - 12 * k, t) for k, t in enumerate(justified("a", 4))], line(692, "the paragraph ends here."),
             *spaced, *[line(420 - 12 * k, t) for k, t in enumerate(justified("c", 4))]]
    out = organize([page(1, lines)])[0]
    paragraphs = [b["text"] for b in out["blocks"] if b["kind"] == "paragraph"]
    assert paragraphs[1] == f"{' '.join(texts)} the paragraph ends."
    # Terms one a line, every other one full to the edge, as far apart as the page's paragraphs.
    entries = [line(740 - 24 * k, (f"entry{k} " + " ".join(f"w{k}x{j:02d}" for j in range(12)))[:60 if k % 2 else 40])
               for k in range(6)]
    body = [line(580 - 12 * k, t) for k, t in enumerate(justified("e", 8))]
    out = organize([page(1, [*entries, *body, line(484, "short last line."), line(460, justified("f", 1)[0]),
                             *[line(436 - 12 * k, t) for k, t in enumerate(justified("g", 8))]])])[0]
    texts = [b["text"] for b in out["blocks"] if b["kind"] == "paragraph"]
    assert [t for t in texts if t.startswith("entry")] == [e["runs"][0]["text"] for e in entries]
    assert justified("f", 1)[0] in texts


def test_running_heads_of_a_small_text_block_with_wide_margins_are_set_aside_whole():
    # A4 with a small text block: the heads sit at 86% of the page height, outside the edge
    # band, set off from the text by two line pitches; odd pages carry the title and the
    # folio, even pages the folio and the author (a running head whose words alternate).
    pages = []
    for n in range(1, 7):
        head = [run("Warnings", 100, 726), run(str(n), 480, 726)] if n % 2 else \
            [run(str(n), 100, 726), run("Luc Maranget", 400, 726)]
        lines = [{"y": 726.0, "size": 10.0, "runs": head}, *body_lines(702, f"p{n}w", 30)]
        pages.append(page(n, lines, height=842.0))
    for out in organize(pages):
        assert out["text"].startswith(f"p{out['page']}w0"), out["text"][:40]
        assert "Warnings" not in out["text"] and "Maranget" not in out["text"]
        assert any(f["kind"] == "header" for f in out["furniture"])


def test_a_running_head_of_the_chapter_over_the_section_is_set_aside_on_every_page():
    """A manual's head: the chapter's line over the section's, small and in italic at the top
    right, the section's words changing every page or two. Both lines are furniture, and the
    section's own heading under them is its page's one heading."""
    pages = []
    for n in range(1, 9):
        chapter, section = f"{1 + n // 5} Overview of the Compiler", f"{1 + n // 5}.{n} Section on {SEEDS[n]}"
        lines = [line(770, chapter, x0=420, size=8.0), line(760, section, x0=420, size=8.0),
                 line(724, section, size=12.0, bold=True), *body_lines(700, SEEDS[n], 20)]
        pages.append(page(n, lines))
    for out in organize(pages):
        n = out["page"]
        assert [f["text"] for f in out["furniture"]] == [f"{1 + n // 5} Overview of the Compiler",
                                                         f"{1 + n // 5}.{n} Section on {SEEDS[n]}"], n
        assert [text for _, text in headings(out)] == [f"{1 + n // 5}.{n} Section on {SEEDS[n]}"], n


def test_running_heads_that_alternate_are_set_aside_on_the_first_and_last_pages_too():
    # Even pages carry the folio and the author, odd pages the title and the folio, each drawn
    # as one run: near the ends of the document the window holds only two or three pages of
    # each kind, and a head on every other page there recurs all the same.
    pages = []
    for n in range(1, 13):
        head = f"A Survey of Selectivity {n}" if n % 2 else f"{n} R. Coulom"
        lines = [line(740, head, x0=72 if n % 2 == 0 else 300), *body_lines(712, SEEDS[n], 40)]
        pages.append(page(n, lines))
    for out in organize(pages):
        assert "Coulom" not in out["text"] and "Survey" not in out["text"], out["page"]
        assert [f["kind"] for f in out["furniture"]] == ["header"]



def test_running_lines_that_alternate_after_a_title_page_are_set_aside_from_page_3():
    # A proceedings paper: a title page without running lines, then feet that alternate
    # between the pages, each long (past a folio line's length) and drawn as one run. Page 3's
    # window holds only two more odd pages: its foot is on all of them, the title page aside.
    pages = [page(1, [line(740, "Simple Testing Can Prevent Most Critical Failures"), *body_lines(712, SEEDS[1], 40)])]
    for n in range(2, 13):
        foot = f"{n + 247} 11th USENIX Symposium on Operating Systems Design and Implementation (OSDI 14)" if n % 2 \
            else f"USENIX Association 11th USENIX Symposium on Operating Systems Design and Implementation {n + 247}"
        pages.append(page(n, [*body_lines(740, SEEDS[n], 40), line(60, foot, x0=72)]))
    for out in organize(pages)[1:]:
        assert "USENIX" not in out["text"], out["page"]
        assert [f["kind"] for f in out["furniture"]] == ["footer"], out["page"]


def _spread_head(y: float, left: str, right: str, right_x0: float) -> dict[str, Any]:
    """A running head drawn by one text object: its left part, a wide space, its right part."""
    text = f"{left} {right}"
    head = run(text, 72, y)
    head["box"][2] = right_x0 + CHAR * len(right)
    head["gaps"] = [[len(left) + 1, 72 + CHAR * len(left), right_x0]]
    return {"y": y, "size": 10.0, "runs": [head]}


def test_a_running_heads_parts_read_as_one_line_on_some_pages_are_set_aside_there_too():
    # A journal's head, its name at the left and its volume at the right: drawn as two lines on
    # the middle pages, as one (a wide space inside it) on the first and last pages that carry
    # it, where no column parted it. Its parts recur; the whole line, on two pages only, not.
    name, volume = "Annals of Made-Up Science", "Vol. 39, No. 10"
    pages = [page(1, [line(740, "A Study of Made-Up Things"), *body_lines(712, SEEDS[1], 40)])]
    for n in range(2, 7):
        head = [_spread_head(760, name, volume, 466.0)] if n in (2, 6) else \
            [line(760, name), line(760, volume, x0=466.0)]
        pages.append(page(n, [*head, *body_lines(730, SEEDS[n], 40)]))
    outs = organize(pages)
    assert "A Study of Made-Up Things" in outs[0]["text"]
    for out in outs[1:]:
        assert "Annals" not in out["text"] and "Vol." not in out["text"], out["page"]
        assert {f["kind"] for f in out["furniture"]} == {"header"}, out["page"]


def test_a_title_page_title_is_no_running_head_because_later_pages_print_it_beside_their_folios():
    # The pages after the title page print the title as their head, beside the folio, as one
    # line with a wide space: its part is the title page's title, which stays the page's.
    title = "Graph Isomorphism and Representation Theory"
    pages = [page(1, [line(740, title), *body_lines(712, SEEDS[1], 40)])]
    for n in range(2, 8):
        pages.append(page(n, [_spread_head(760, title, str(n), 530.0), *body_lines(730, SEEDS[n], 40)]))
    outs = organize(pages)
    assert title in outs[0]["text"] and outs[0]["furniture"] == []
    for out in outs[1:]:
        assert title not in out["text"], out["page"]


def test_a_running_head_on_the_pages_after_the_title_page_of_three_is_set_aside():
    # Three pages: the head and a dashed folio on pages 2 and 3 only, the title page without.
    pages = [page(1, [line(740, "A Short Report"), *body_lines(712, SEEDS[1], 40)])]
    for n in (2, 3):
        pages.append(page(n, [line(760, "Letters in Typesetting"), line(760, f"-{n}-", x0=300),
                              *body_lines(730, SEEDS[n], 40)]))
    outs = organize(pages)
    assert "A Short Report" in outs[0]["text"]
    for out in outs[1:]:
        assert "Letters in Typesetting" not in out["text"] and f"-{out['page']}-" not in out["text"], out["page"]


def test_a_last_page_of_one_line_between_its_head_and_folio_sets_its_head_aside():
    # The last page holds one line of text: no pitch to measure the head's distance by but
    # the text's own size.
    pages = [page(n, [line(760, "Review of Synthetic Studies", x0=250), *body_lines(730, SEEDS[n], 40),
                      line(60, str(n), x0=300)]) for n in range(1, 6)]
    pages.append(page(6, [line(760, "Review of Synthetic Studies", x0=250), *body_lines(730, SEEDS[6], 1),
                          line(60, "6", x0=300)]))
    outs = organize(pages)
    assert [f["kind"] for f in outs[-1]["furniture"]] == ["header", "page_number"]
    text = " ".join(out["text"] for out in outs)
    assert "Review" not in text and SEEDS[6] in text  # the line goes on the paragraph over the break


def test_a_page_left_blank_but_for_its_running_head_and_folio_reads_empty():
    pages = [page(n, [line(760, "Review of Synthetic Studies", x0=250), *body_lines(730, SEEDS[n], 40),
                      line(60, str(n), x0=300)]) for n in range(1, 6)]
    pages.insert(3, page(4, [line(760, "Review of Synthetic Studies", x0=250), line(60, "4", x0=300)]))
    for n, record in enumerate(pages, start=1):
        record["page"] = n
    outs = organize(pages)
    assert outs[3]["text"].strip() == "" and [f["kind"] for f in outs[3]["furniture"]] == ["header", "page_number"]
    assert "Review" not in " ".join(out["text"] for out in outs)


def test_pages_that_each_carry_one_line_and_nothing_else_keep_it():
    pages = [page(n, [line(400, "habibi")]) for n in range(1, 5)]
    assert [out["text"] for out in organize(pages)] == ["habibi"] * 4


def test_running_heads_that_name_the_section_are_set_aside_by_their_place_and_type():
    # Each page's head names its section, two pages a section: no words recur on three pages,
    # but the head's place and type do. A table's head in small type opening the text of two
    # pages of the ten, where they have no head, is the text's.
    titles = ["Introduction", "Asynchronous Systems", "Distributed Computations", "Global States",
              "Monitoring", "Consistency"]
    pages = []
    for n in range(1, 11):
        head = line(742, f"{n // 2 + 1} {titles[n // 2]}", x0=300, size=9)
        top = line(724, "Software  num. of failures", size=9) if n in (4, 7) else head
        pages.append(page(n, [top, *body_lines(712, SEEDS[n], 40)]))
    outs = organize(pages)
    assert " ".join(out["text"] for out in outs).count("num. of failures") == 2
    for out in outs:
        n = out["page"]
        if n in (4, 7):
            assert out["furniture"] == [], n
        else:
            assert [f["kind"] for f in out["furniture"]] == ["header"], n
            assert titles[n // 2] not in out["text"], n


def test_running_heads_in_the_text_type_that_name_the_section_are_set_aside_by_their_folio():
    # A book's heads in the text's own type, each drawn as one run with its folio: even pages
    # the folio and the chapter, odd pages the section and the folio, the section changing
    # every other page. No words recur, and no small type tells the place; the folio stands
    # as far from the page's place in the file on every page (the file's first page is the
    # book's 17th). Lines set apart that open with numbers standing at no one distance from
    # the pages' places are the text's.
    sections = ["3.1 Composition", "3.2 Adding new functions", "3.3 Parameters", "3.4 Stack diagrams"]
    pages = []
    for n in range(1, 13):
        head = f"{n + 16} Chapter 3. Functions" if n % 2 == 0 else f"{sections[n // 4]} {n + 16}"
        lines = [line(740, head, x0=72 if n % 2 == 0 else 200), *body_lines(712, SEEDS[n], 40)]
        pages.append(page(n, lines))
    outs = organize(pages)
    for out in outs:
        assert [f["kind"] for f in out["furniture"]] == ["header"], out["page"]
    text = " ".join(out["text"] for out in outs)
    assert "Chapter" not in text and not any(title in text for title in sections)
    assert all(f"{SEEDS[n]}0 " in text for n in range(1, 13))
    # A folio alone on every third page (under a chapter's running head that names nothing).
    pages = [page(n, [line(740, str(n + 16) if n % 3 == 0 else f"{sections[n // 4]} {n + 16}", x0=300),
                      *body_lines(712, SEEDS[n], 40)]) for n in range(1, 13)]
    assert all(len(out["furniture"]) == 1 for out in organize(pages))
    # A short guide whose page N opens with its section N, set large: numbered titles, not folios.
    guide = [page(n, [line(740, f"{n} Section {SEEDS[n]}", size=15, bold=True), *body_lines(712, SEEDS[n], 40)])
             for n in range(1, 6)]
    assert all(out["furniture"] == [] and headings(out) == [(1, f"{out['page']} Section {SEEDS[out['page']]}")]
               for out in organize(guide))
    numbered = [page(n, [line(740, f"{3 * n} {SEEDS[n]} counted"), *body_lines(712, SEEDS[n], 40)])
                for n in range(1, 13)]
    outs = organize(numbered)
    assert all(out["furniture"] == [] for out in outs)
    assert all(f"{3 * n} {SEEDS[n]} counted" in " ".join(out["text"] for out in outs) for n in range(1, 13))


def test_running_heads_over_a_page_of_displayed_formulas_are_set_aside():
    # A4 with wide margins: the heads sit just below the edge band, set off from the text by two
    # of its line pitches. Displayed formulas, each with space above and below, make most steps
    # between rows wide: the text's own lines tell the pitch.
    pages = []
    for n in range(1, 9):
        head = [run(str(n + 20), 72, 730), run("1 Processes", 110, 730)] if n % 2 == 0 else \
            [run(f"1.{n} Introduction", 300, 730), run(str(n + 20), 500, 730)]
        lines, y = [{"y": 730.0, "size": 10.0, "runs": head}], 703.0
        for k in range(9):
            texts = prose(24, f"{SEEDS[n]}k{k}")[:2]
            lines += [line(y, texts[0]), line(y - 13, texts[1]), line(y - 43, f"P = {SEEDS[n]}{k} + R", x0=250)]
            y -= 73
        pages.append(page(n, lines, width=595.0, height=842.0))
    for out in organize(pages):
        assert "Processes" not in out["text"] and "Introduction" not in out["text"], out["page"]
        assert {f["kind"] for f in out["furniture"]} == {"header", "page_number"}, out["page"]


def test_a_running_head_with_its_folio_over_contents_set_wide_is_set_aside():
    # A manual's contents, its entries 24 pt apart and the head only 30 pt over the first: no
    # wider a gap than the entries'. The head holds the page's folio (vii, viii, ...), which keeps
    # its distance from the page's place in the file: the head is furniture all the same.
    pages = []
    for n in range(5, 13):
        folio = ["v", "vi", "vii", "viii", "ix", "x", "xi", "xii"][n - 5]
        head = [run("Volume I: Unprivileged ISA", 72, 744), run(folio, 520, 744)] if n % 2 else \
            [run(folio, 72, 744), run("Volume I: Unprivileged ISA", 300, 744)]
        lines = [{"y": 744.0, "size": 10.0, "runs": head}]
        lines += [line(714 - 24 * k, f"{n}.{k} Section {SEEDS[n]} {k} " + ". " * 25 + f"{3 * k + n}")
                  for k in range(24)]
        pages.append(page(n, lines))
    for out in organize(pages):
        assert "Volume I" not in out["text"], out["page"]
        assert {f["kind"] for f in out["furniture"]} == {"header", "page_number"}, out["page"]


def test_the_last_entry_of_a_contents_page_set_off_keeps_its_page_number():
    # A contents page that ends high on the page: its last entry, set off by a gap, is an
    # entry like the one above it, not a footer with a folio.
    pages = []
    for n in range(1, 5):
        ys = [700.0 - 14 * k for k in range(11)] + [526.0]  # the last entry 2.4 pitches below
        titles = [f"Section {k} of part {n}" for k in range(11)] + ["Appendix"]
        numbers = [str(10 * k + n) for k in range(11)] + [str(90 + n)]
        entries = [{"y": y, "size": 10.0, "runs": [run(title, 72, y), run(number, 500, y)]}
                   for y, title, number in zip(ys, titles, numbers, strict=True)]
        pages.append(page(n, entries))
    for out in organize(pages):
        assert f"Appendix {90 + out['page']}" in out["text"].replace(" | ", " "), out["text"][-60:]


def test_a_row_ending_in_a_capital_roman_mark_above_the_footer_is_no_running_head():
    # 'XX' ends a table's row in the bottom band, over the footer's folio: the row is the
    # page's text; a running head carries its folio in figures or small roman numerals.
    pages = []
    labels = ["Change plan cache size", "Grant usage", "Revoke access", "Drop a table"]
    for n in range(1, 5):
        lines = [*body_lines(700, f"p{n}w", 30),
                 {"y": 84.0, "size": 10.0, "runs": [run(labels[n - 1], 72, 84), run("XX", 400, 84)]},
                 {"y": 40.0, "size": 10.0, "runs": [run("Chapter 2. Roles", 72, 40), run(str(n + 10), 500, 40)]}]
        pages.append(page(n, lines))
    for out in organize(pages):
        assert labels[out["page"] - 1] in out["text"]
        assert any(f["text"].startswith("Chapter 2") for f in out["furniture"])


def test_a_line_end_hyphen_that_is_the_words_own_is_kept():
    """A hyphen at a line's end is a break, taken out ('signifi-' 'cant'), unless it belongs to
    the word: the next word carries a hyphen of its own ('time-' 'of-arrival'), or the page
    prints the word with its hyphen inside a line ('pile-up') and never without ('pileups' is
    another word). grep finds 'pile-up' and 'time-of-arrival' where they were broken."""
    text = _paragraph_text(["We fit every pulse so that the pulse pile-up is resolved, a signifi-",
                            "cant gain over shaping, as the model shows below. Yet some pile-",
                            "up remains at the highest rates we met, and the known time-",
                            "of-arrival of each photon is kept from the fit; the brief dead-",
                            "time of the detector is short, whatever the pileups may be."])
    assert "a significant gain" in text
    assert "Yet some pile-up remains" in text
    assert "the known time-of-arrival of each" in text
    assert "the brief deadtime of the detector" in text  # printed nowhere else with its hyphen: a break


def _paragraph_text(lines: list[str]) -> str:
    """The organized text of a page holding ``lines``, one under the other at the text's pitch."""
    (record,) = organize([page(1, [line(700 - 12 * k, text) for k, text in enumerate(lines)])])
    return str(record["text"])


def test_a_line_end_hyphen_in_a_word_the_page_also_prints_whole_is_a_break():
    """'client-driven' inside a line, but 'clientdriven' as a word of its own elsewhere on the
    page: the page's spelling is not one, and the hyphen ending a line in it is a break."""
    text = _paragraph_text(["We measured the client-driven scheme against the other one, and report",
                            "the results of the clientdriven runs apart from those of the later client-",
                            "driven runs that we made once the cluster had grown, as the table below",
                            "sets them all out; the latency of each run is given at the 99.9th per-",
                            "centile, and the averages over the whole day are given beside it too."])
    assert "apart from those of the later clientdriven runs" in text


def test_tex_negation_slash_is_set_over_the_symbol_it_strikes():
    """TeX draws '≠' as a slash from its symbol font (\\not) over an '=' from the text font:
    two runs, the slash first. The line reads the one symbol, '∉' and '∄' alike; a slash over
    a symbol Unicode has no struck form of keeps a combining slash."""
    runs = [run("if a", 72, 700), run("\u0338", 95, 700, font="CMSY10"), run("= b or x", 95, 700),
            run("\u0338", 140, 700, font="CMSY10"), run("∈ A or", 140, 700),
            run("\u0338", 172, 700, font="CMSY10"), run("⊙ c", 172, 700)]
    (record,) = organize([page(1, [{"y": 700.0, "size": 10.0, "runs": runs}])])
    assert "if a ≠ b or x ∉ A or ⊙\u0338 c" in record["text"]


def test_tex_math_font_tables_read_codes_as_the_glyphs_drawn():
    """The codes of TeX's math fonts, read through their own encodings; other fonts have none."""
    assert tex_encoding("CMSY10")[0x30] == "′" and tex_encoding("cmsy7")[0x68] == "⟨"
    assert tex_encoding("CMEX10")[0x58] == "∑" and tex_encoding("LMMathExtension10-Regular")[0x52] == "∫"
    assert tex_encoding("CMMI10")[0x0B] == "α" and 0x41 not in tex_encoding("CMMI10")  # letters stay
    assert 0x41 not in tex_encoding("CMSY10")  # calligraphic capitals read as the letters they are
    assert tex_encoding("Times-Roman") is None and tex_encoding("CMR10") is None


def _full(text: str, chars: int) -> str:
    """``text`` padded with words to exactly ``chars`` characters (a justified line's width)."""
    words = iter(f"w{k}" for k in range(1000))
    while len(text) < chars:
        text = f"{text} {next(words)}"
    return text[:chars].rstrip() + "x" * (chars - len(text[:chars].rstrip()))


def test_notes_set_with_a_hanging_indent_are_one_note_each():
    """A reference list set small at the foot of the page, each entry hanging: its first line
    full at the left edge, the lines after it set in under the number. Each entry reads as one
    note, however many lines it runs to, the last one too (no line after it shows its form);
    the next number starts the next."""
    size, char = 8.0, CHAR * 8.0 / 10  # the notes' size, and what a character takes at it
    right = 540.0
    entries = [("[1] E. Gatti and P. Rehak, Semiconductor drift chamber", 2),
               ("[2] P. Emma, R. Akre, J. Arthur, R. Bionta, C. Bostedt", 3),
               ("[3] H. Graafsma, Requirements for two dimensional detectors", 2)]
    lines, y = body_lines(700, "body", 6), 200.0
    for number, (opening, count) in enumerate(entries):
        for k in range(count):
            x0 = 72.0 if k == 0 else 84.0
            chars = int((right - x0) / char) if k < count - 1 else 30
            text = _full(opening if k == 0 else f"e{number}l{k}", chars)
            lines.append(line(y, text, x0=x0, size=size))
            y -= 10
    (record,) = organize([page(1, lines)])
    notes = [b["text"] for b in record["blocks"] if b["kind"] == "footnote"]
    assert [note[:4] for note in notes] == ["[1] ", "[2] ", "[3] "]
    assert all(note.count("[") == 1 for note in notes)


def _scan_head(n: int) -> list[dict[str, Any]]:
    """A scan's running head as its text layer sets it: the folio and the authors (on even
    pages; the title on odd ones), each a line of its own a fraction of a point apart, in two
    sizes. The text layer missed the authors on page 6, as OCR does: they stand on three
    pages of nine, too few to count as repeated."""
    if n % 2:
        return [{"y": 673.7, "size": 7.9, "runs": [run("IMPOSSIBILITY OF DISTRIBUTED CONSENSUS", 150, 673.7, 7.9)]},
                {"y": 673.4, "size": 11.8, "runs": [run(str(370 + n), 400, 673.4, 11.8)]}]
    folio = {"y": 673.44, "size": 11.8, "runs": [run(str(370 + n), 63, 673.44, 11.8)]}
    authors = {"y": 673.68, "size": 7.9, "runs": [run("M. J. FISCHER, N. A. LYNCH, AND M. S. PATERSON", 204,
                                                        673.68, 7.9)]}
    return [folio] if n == 6 else [authors, folio]


def test_a_scans_running_head_and_folio_a_fraction_of_a_point_apart_are_set_aside_whole():
    pages = [page(n, [*_scan_head(n), *body_lines(640, f"p{n}w", 30)], width=477.0, height=714.0)
             for n in range(1, 10)]
    for out in organize(pages):
        assert out["text"].startswith(f"p{out['page']}w0"), out["text"][:60]
        assert "FISCHER" not in out["text"]


def test_the_strips_a_scan_is_cut_into_are_no_figures():
    """A scanned page whose image is cut into bands edge to edge down the page, its text layer
    over them: the bands are the page, not figures between its lines, and a paragraph runs on
    over the edge between two bands."""
    lines = body_lines(640, "scanned", 30)
    record = page(1, lines, width=477.0, height=714.0)
    record["evidence"]["images"] = [{"rect": [0.0, 714.24 - 31.2 * (k + 1), 477.12, 714.24 - 31.2 * k],
                                     "pixels": [1988, 130]} for k in range(23)]
    out = organize([record])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph"]
    # One image a little apart from the others is a figure still.
    record = page(1, body_lines(640, "scanned", 30), width=477.0, height=714.0)
    record["evidence"]["images"] = [{"rect": [100.0, 100.0, 300.0, 250.0], "pixels": [800, 600]}]
    assert "figure" in [b["kind"] for b in organize([record])[0]["blocks"]]


def _turned_line(text: str, x: float, y: float, turn: int, width: float = 612.0, height: float = 792.0,
                 size: float = 10.0) -> dict[str, Any]:
    """A line that reads across the page turned upright, at (x, y) there, as the evidence of
    the page as it stands gives it: a run up the page (``turn`` 90) or down it (270), a line
    of its own; a run of one character with no angle (nothing tells which way it runs)."""
    length = CHAR * size / 10 * len(text)
    x0, y0, x1, y1 = x, y - 0.2 * size, x + length, y + 0.8 * size
    box = [width - y1, x0, width - y0, x1] if turn == 90 else [y0, height - x1, y1, height - x0]
    run = {"text": text, "font": "Times-Roman", "size": size, "color": "#000000", "box": box}
    if len(text) > 1:
        run["angle"] = turn
    return {"y": box[1], "size": size, "rotated": len(text) > 1, "runs": [run]}


def test_a_page_set_sideways_reads_as_the_page_turned_upright_shows_it():
    """A landscape page drawn turned on a portrait one (its text runs up the page; or down it,
    as a page turned the other way, or a column of vertical writing): it reads as its reader
    turns it, a heading, then a paragraph, then a table's rows, and what its blocks cite lies
    on the page as it stands."""
    for turn in (90, 270):
        texts = ["Quarterly gauge readings", *prose(36, "turned")[:3]]
        lines = [_turned_line(text, 72, 560 - 14 * k, turn) for k, text in enumerate(texts)]
        lines[0]["size"] = lines[0]["runs"][0]["size"] = 16.0
        for r, cells in enumerate([["Station", "Flow", "Level"], ["North weir", "1.20", "4.85"],
                                   ["Mill bridge", "2.05", "6.61"], ["Old ford", "0.95", "3"]]):
            lines += [_turned_line(cell, x, 480 - 14 * r, turn) for x, cell in zip((72, 300, 500), cells, strict=True)]
        out = organize([page(1, lines)])[0]
        kinds = [b["kind"] for b in out["blocks"]]
        assert kinds == ["heading", "paragraph", "table"], (turn, kinds)
        assert out["blocks"][1]["text"] == " ".join(texts[1:])
        rows = [[c["text"] for c in row] for row in out["blocks"][2]["rows"]]
        assert rows[1] == ["North weir", "1.20", "4.85"] and rows[3] == ["Old ford", "0.95", "3"]
        x0, y0, x1, y1 = out["blocks"][1]["spans"][0]["rect"]
        assert 0 <= x0 < x1 <= 612 and 0 <= y0 < y1 <= 792 and y1 - y0 > 3 * (x1 - x0)  # up or down the page


def test_a_page_turned_by_its_rotation_is_read_across_its_user_space():
    """A ruled landscape table on a page whose ``/Rotate`` shows it portrait: the evidence's width
    and height are the page as shown (612 by 1008), its boxes lie in the user space (1008 by
    612). Every column of the table is read, the ones past the shown width too."""
    cells = [["State", *(f"Col{k}" for k in range(1, 8))],
             *([f"Region{r}", *(f"{r}{k},{k}00" for k in range(1, 8))] for r in range(1, 5))]
    lines = [{"y": 560.0 - 14 * r, "size": 10.0, "runs": [run(text, 72 + 120 * k, 560 - 14 * r)
                                                           for k, text in enumerate(row)]}
             for r, row in enumerate(cells)]
    record = page(1, [line(590, "Firearm checks by state, the month's totals."), *lines], width=612.0, height=1008.0)
    xs, ys = [66 + 120 * k for k in range(9)], [575 - 14 * r for r in range(6)]  # a grid round every cell
    record["evidence"]["rules"] = [[xs[0], y, xs[-1], y] for y in ys] + [[x, ys[-1], x, ys[0]] for x in xs]
    record["evidence"]["rotation"] = 90
    tables = [b for b in organize([record])[0]["blocks"] if b["kind"] == "table"]
    assert len(tables) == 1
    assert [[c["text"] for c in row] for row in tables[0]["rows"]] == cells


def test_a_caption_whose_label_is_set_larger_goes_on_over_its_lines_beside_another_column():
    """The caption's line is grouped with the other column's line, whose baseline lies a point
    higher: both its runs stand off that baseline, its label set a size larger than its words.
    The segment takes its words' size, and the caption's next line goes on with it."""
    def at(text: str, x0: float, x1: float, y: float, size: float, off: bool = False) -> dict[str, Any]:
        placed = {**run(text, x0, y, size), "box": [x0, y - 0.2 * size, x1, y + 0.8 * size]}
        return {**placed, "y": y} if off else placed
    record = justified_columns_page(20.0)
    words, rest = "Input events that led to failures. The % column", "reports the share of the failures."
    record["evidence"]["lines"] += [
        {"y": 451.3, "size": 10.0, "runs": [at("Table 4:", 72.0, 104.0, 450.0, 10.0, off=True),
                                            at(words, 108.0, 296.0, 450.0, 9.0, off=True),
                                            at("c1w900 c1w901 c1w902 c1w903 c1w904", 316.0, 540.0, 451.3, 10.0)]},
        {"y": 439.3, "size": 10.0, "runs": [at(rest, 72.0, 200.0, 439.3, 9.0),
                                            at("c1w905 c1w906 c1w907 c1w908 c1w909", 316.0, 540.0, 439.3, 10.0)]},
    ] + [{"y": y, "size": 10.0, "runs": [at(f"c0w{k}0 c0w{k}1 c0w{k}2 c0w{k}3 c0w{k}4 c0w{k}5", 72.0, 296.0, y, 10.0),
                                         at(f"c1w{k}0 c1w{k}1 c1w{k}2 c1w{k}3 c1w{k}4 c1w{k}5", 316.0, 540.0, y, 10.0)]}
         for k, y in enumerate((415.0, 403.0, 391.0, 379.0), start=50)]
    out = organize([record])[0]
    captions = [b["text"] for b in out["blocks"] if b["kind"] == "caption"]
    assert captions == [f"Table 4: {words} {rest}"]


def test_a_sentence_naming_a_table_is_no_caption():
    """'Table 4 lists ...' opens a paragraph of the text; 'Table 4: ...' and 'Table 4 Events
    ...' (a label and a title, no stop between) are captions."""
    lines = [line(720, "Table 4 lists the events that led to the failures, and the text goes on")] + \
        body_lines(708, "more", 3) + [line(660, "Table 4: Events that led to failures")] + \
        body_lines(640, "next", 3) + [line(590, "Table 5 Events that led to no failure")] + body_lines(570, "last", 3)
    out = organize([page(1, lines)])[0]
    assert [(b["kind"], b["text"][:12]) for b in out["blocks"] if b["text"].startswith("Table")] == \
        [("paragraph", "Table 4 list"), ("caption", "Table 4: Eve"), ("caption", "Table 5 Even")]


def test_a_glyph_without_a_character_does_not_set_its_lines_size():
    """A name set in a font of pictures ('P⁵', its glyphs without characters) starts a line of
    the text, the glyphs a size larger and a little lower: the line's baseline is theirs, and
    the text's run stands off it. The line is the text's size, a line of its paragraph, not a
    heading."""
    glyph = {**run("\x01", 72.0, 592.0, 11.0), "font": "", "unmapped": 1}
    words = "sent to the same broadcast address, so that whether a message"
    text = {**run(words, 80.0, 596.6, 10.0), "y": 596.6}
    lines = body_lines(644.0, "above", 4) + [{"y": 592.0, "size": 11.0, "runs": [glyph, text]}] + \
        body_lines(584.0, "below", 4)
    out = organize([page(1, lines)])[0]
    assert [b["kind"] for b in out["blocks"]] == ["paragraph"]
    assert words in out["blocks"][0]["text"]


def _across_columns(texts: list[str], xs: list[float], y: float) -> dict[str, Any]:
    """One run drawn from the left column to the right, as one text object: its wide spaces
    (``gaps``) where each column's text ends and the next begins."""
    gaps, offset = [], 0
    for k, text in enumerate(texts[:-1]):
        offset += len(text) + 1
        gaps.append([offset, xs[k] + CHAR * len(text), xs[k + 1]])
    runs = [{**run(" ".join(texts), xs[0], y), "gaps": gaps}]
    runs[0]["box"][2] = xs[-1] + CHAR * len(texts[-1])
    return {"y": y, "size": 10.0, "runs": runs}


def test_lines_drawn_across_three_columns_read_column_by_column():
    """A form's instructions in three ragged-right columns, each line one text object from
    the left column to the right: the page reads down the first column, then the second,
    then the third. Names spaced out over the columns, one object too, stay one line."""
    xs = [42.0, 222.0, 402.0]
    columns = [[" ".join(f"{c}{k:02d}w{j}" for j in range(1, 6 if k % 3 else 5)) for k in range(14)]
               for c in "lmr"]  # lines of 115 and 145 points, in columns 180 apart
    lines = [_across_columns(["Yusuke Shinyama", "Satoshi Sekine"], [150.0, 330.0], 740.0)]
    lines += [_across_columns([column[k] for column in columns], xs, 680.0 - 12 * k) for k in range(14)]
    out = organize([page(1, lines)])[0]
    text = " ".join(b["text"] for b in out["blocks"])
    assert text.startswith("Yusuke Shinyama Satoshi Sekine ")
    words = text.split()[4:]
    assert words == [word for column in columns for line in column for word in line.split()]


def test_a_column_line_in_several_faces_and_short_last_lines_part_at_the_gutters():
    """Where a line of the middle column is set in three faces, the last one drawn on into
    the right column, the line is prose as a whole and parts at the gutter; so does the
    page's last line, below the lines of prose either side of the gutter and its left
    column's piece short, where the text after the gap starts where its column does."""
    xs = [42.0, 222.0, 402.0]
    columns = [[" ".join(f"{c}{k:02d}w{j}" for j in range(1, 6)) for k in range(10)] for c in "lmr"]
    columns[0].append("l10w1")
    columns[1].append("m10w1 m10w2 m10w3 m10w4")
    columns[2].append("r10w1 r10w2 r10w3 r10w4 r10w5")
    lines = [_across_columns([column[k] for column in columns], xs, 700.0 - 12 * k) for k in range(10)]
    lines.append(_across_columns([columns[0][10], columns[1][10], columns[2][10]], xs, 520.0))  # the page's foot
    left, (first, second, rest) = columns[0][4], ("m04w1", "m04w2 m04w3", "m04w4 m04w5")
    tail = _across_columns([rest, columns[2][4]], [222.0 + CHAR * 18, 402.0], 652.0)["runs"][0]
    lines[4] = {"y": 652.0, "size": 10.0, "runs": [
        {**_across_columns([left], [42.0], 652.0)["runs"][0]}, run(first, 222.0, 652.0),
        run(second, 222.0 + CHAR * 6, 652.0, font="Times-Italic"), tail]}
    out = organize([page(1, lines)])[0]
    words = " ".join(b["text"] for b in out["blocks"]).split()
    assert words == [word for column in columns for line in column for word in line.split()]


def test_a_forms_value_typed_after_its_label_half_a_point_higher_is_read_after_it():
    """A filled form: each label set in 9-point Arial ending in a colon, the value typed after
    it in 11-point Times, its baseline half a point higher. The value is read after its label,
    on its line, not before it as a heading of its own."""
    def at(text: str, x0: float, y: float, size: float, font: str) -> dict[str, Any]:
        return {"y": y, "size": size, "runs": [run(text, x0, y, size, font)]}
    lines = body_lines(720.0, "intro", 3)
    lines += [at("1 Year 9 Months", 60.0, 658.9, 11.0, "TimesNewRomanPSMT"),
              {"y": 658.4, "size": 9.0, "runs": [run("Age:", 24.0, 658.4, 9.0, "ArialMT"),
                                                 run("Gender: Female", 204.0, 658.4, 9.0, "ArialMT")]},
              at("African American/Black", 110.0, 640.5, 11.0, "TimesNewRomanPSMT"),
              at("Race or Ethnicity:", 24.0, 640.0, 9.0, "ArialMT")]
    lines += body_lines(600.0, "after", 3)
    out = organize([page(1, lines)])[0]
    texts = [b["text"] for b in out["blocks"]]
    assert [b["kind"] for b in out["blocks"]].count("heading") == 0
    assert any(t.startswith("Age: 1 Year 9 Months Gender: Female") for t in texts), texts
    assert any("Race or Ethnicity: African American/Black" in t for t in texts), texts


def test_a_title_set_large_under_a_running_head_that_repeats_it_stays_the_pages_title() -> None:
    # A browser's header carries the page's title on every page, over the title itself on the first.
    title = "Rivers And Their Banks"
    pages = []
    for n in range(1, 5):
        lines = [line(770, "12/5/26, 11:34 PM", x0=24, size=8), line(770, title, x0=250, size=8)]
        if n == 1:
            lines.append(line(700, title, x0=150, size=17, bold=True))
        lines += body_lines(660, SEEDS[n], 20)
        lines.append(line(30, f"{n}/4", x0=560, size=8))
        pages.append(page(n, lines))
    out = organize(pages)
    assert headings(out[0])[:1] == [(1, title)]
    assert [f["text"] for f in out[0]["furniture"]].count(title) == 1  # the running head's, set aside
    assert all(title not in record["text"] for record in out[1:])


def test_a_display_formula_numbered_at_its_end_is_no_table_though_its_relation_reads_as_a_dot() -> None:
    # '≲' drawn by a font with no character for it reads '.': the formula's brackets, limits,
    # powers and fraction over four lines, and its number at the right edge, are no table's cells.
    def parts(y: float, size: float, *texts: tuple[float, str]) -> dict[str, Any]:
        return {"y": y, "size": size, "runs": [run(text, x0, y, size) for x0, text in texts]}

    formula = [parts(131.8, 10.9, (262, "("), (298, ")("), (341, ")("), (393, ")2")),
               parts(127, 10.9, (276, "0.5"), (312, "0.3Z⊙"), (369, "R")),
               parts(125.4, 8.0, (232, "10")),
               parts(119.6, 10.9, (165, "Mgas . 6 × 10"), (245, "M⊙"), (408, ","), (490, "(4)")),
               parts(112.2, 10.9, (270, "fO VII"), (322, "Z"), (355, "500 kpc"))]
    out = organize([page(1, [*body_lines(200, "above", 6), *formula, *body_lines(90, "below", 2)])])[0]
    assert "table" not in [b["kind"] for b in out["blocks"]]
    assert "(4)" in out["text"]


def test_a_running_head_of_two_lines_the_second_set_larger_stays_furniture() -> None:
    pages = []
    for n in range(1, 5):
        lines = [line(770, "HIGHLIGHTS FROM THE SURVEY", x0=72, size=8),
                 line(752, "EXECUTIVE SUMMARY APPENDIX A", x0=72, size=14, bold=True)]
        lines += body_lines(700, SEEDS[n], 20)
        lines.append(line(30, str(n), x0=300, size=9))
        pages.append(page(n, lines))
    for record in organize(pages):
        assert "HIGHLIGHTS" not in record["text"] and "EXECUTIVE" not in record["text"]


def test_a_word_broken_at_a_lines_end_goes_on_under_a_line_set_in() -> None:
    # An item whose mark the font maps to a letter ('e We explain … frame-'): its next line is
    # set in past the mark, as an indented paragraph's first line would be, yet 'frame-' over
    # 'work' is one word; and on a page whose pitch the notes set, a word broken over the
    # text's own wider leading goes on too.
    first, rest = "e We explain precisely what the two models are, in a frame-", "work of their own. So far."
    lines = [*body_lines(760, "a", 4), line(700, first, x0=82), line(688, rest, x0=92), *body_lines(664, "b", 3)]
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert f"{first[:-1]}{rest}" in texts, texts
    notes = [line(400 - 9 * k, t, size=10) for k, t in enumerate(prose(120, "n")[:12])]
    text = prose(20, "w")
    lines = [line(700, text[0] + " ack-", x0=72), line(686, "nowledged here.", x0=72), *notes]
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert f"{text[0]} acknowledged here." in texts, texts


def test_a_list_items_lines_go_on_after_its_bullet_drawn_smaller() -> None:
    # The bullet, a glyph of its own set in a smaller size a little above the text's baseline,
    # does not set the line's size: the item's next lines go on with it.
    lines, y, items = [*body_lines(760, "a", 4)], 700.0, []
    for k in range(2):
        text = prose(20, f"i{k}w")
        lines += [{"y": y + 0.5, "size": 7.0, "runs": [run("•", 82, y + 0.5, size=7.0)]},
                  line(y, text[0], x0=92), line(y - 12, f"{text[1][:30]}.", x0=92)]
        items.append(f"• {text[0]} {text[1][:30]}.")
        y -= 30
    blocks = organize([page(1, lines)])[0]["blocks"]
    assert [b["text"] for b in blocks if b["kind"] == "list_item"] == items, blocks


def test_a_line_with_code_set_smaller_inline_keeps_the_texts_size() -> None:
    # 'setMaximumCostOfTheCache()' in Courier at 9 points, longer than either piece of the
    # text around it at 10: the line is the text's, and its paragraph goes on over it.
    above = body_lines(760, "a", 4)
    edge = max(ln["runs"][0]["box"][2] for ln in above)
    a, c = prose(48, "t")[:2]
    parts, x = [], 72.0
    for text, size, font in (("will inadvertently call", 10.0, "Times-Roman"),
                             ("setMaximumCostOfTheCache()", 9.0, "Courier"), ("instead", 10.0, "Times-Roman")):
        parts.append(run(text, x, 688, size, font))
        x = parts[-1]["box"][2] + 5
    parts[-1]["box"][2] = edge  # full to the column's edge, as the lines around it
    first = line(700, a)
    first["runs"][0]["box"][2] = edge
    lines = [*above, first, {"y": 688, "size": 10.0, "runs": parts}, line(676, f"{c[:40]}.")]
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert texts[-1] == f"{a} will inadvertently call setMaximumCostOfTheCache() instead {c[:40]}.", texts


def test_a_list_item_whose_last_word_a_page_break_parts_goes_on_on_the_next_page() -> None:
    # '• Object-ID: … The object iden-' at the foot, 'tifier is derived …' at the head of the
    # next page under the item's hanging indent: one word, one item.
    item = prose(24, "i")
    foot = [*body_lines(300, "a", 6), line(200, f"• {item[0]}", x0=72), line(188, f"{item[1][:54]} iden-", x0=82)]
    head = [line(740, "tifier is derived from the hash key.", x0=82), *body_lines(716, "b", 6)]
    out = organize([page(1, foot), page(2, head)])
    assert out[0]["blocks"][-1]["text"] == f"• {item[0]} {item[1][:54]} identifier is derived from the hash key."
    assert out[1]["blocks"][0]["text"].startswith("b0 ")


def test_two_columns_short_lines_on_one_baseline_drawn_as_one_object_part_at_the_gutter() -> None:
    """Three columns of instructions, each line one object across them; on one baseline the
    middle and the right column each end a paragraph with a word or two ('property.' and
    'RRB-1042S.'), neither piece a line of prose: between the lines that show the gutter,
    the piece starting where the right column does is the right column's."""
    xs = [42.0, 222.0, 402.0]
    columns = [[" ".join(f"{c}{k:02d}w{j}" for j in range(1, 6)) for k in range(10)] for c in "lmr"]
    columns[1][5], columns[2][5] = "m05w1.", "r05w1."
    lines = [_across_columns([column[k] for column in columns], xs, 700.0 - 12 * k) for k in range(10)]
    out = organize([page(1, lines)])[0]
    words = " ".join(b["text"] for b in out["blocks"]).split()
    assert words == [word for column in columns for line in column for word in line.split()]


def test_entries_whose_labels_stand_out_to_the_left_keep_their_lines_under_the_text() -> None:
    """A reference list whose labels ('[BJ87a]') stand a tab out to the left of their text,
    the entry's later lines under the text, not the label; and a list whose mark a symbol
    font draws as '!', a tab before the item's text: each entry is one paragraph."""
    lines, y, entries = [*body_lines(760, "a", 4)], 700.0, []
    for k, label in enumerate(("[BJ87a]", "[BJ87b]", "!")):
        text = prose(24, f"e{k}w")
        lines += [{"y": y, "size": 10.0, "runs": [run(label, 72, y), run(text[0][:50], 130, y)]},
                  line(y - 12, f"{text[1][:40]}.", x0=130)]
        entries.append(f"{label} {text[0][:50]} {text[1][:40]}.")
        y -= 30
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert texts[-3:] == entries, texts


def test_lines_justified_beside_a_figure_whose_ends_a_hyphen_or_a_stop_pushes_out_keep_their_measure() -> None:
    # Set to a measure narrower than the column's, a line ending in a stop or a hyphen stands
    # out past it by a point or two: the measure is the lines', and no line of it ends the
    # paragraph.
    words = [f"wrap{k:02d}" for k in range(40)]
    wrapped = [" ".join(words[k:k + 6]) + " ." for k in range(0, 30, 6)]  # 6 words a line, all 44 characters
    narrow = [line(692 - 12 * k, t) for k, t in enumerate(wrapped)]
    for k, out in ((0, 1.8), (2, 1.5)):
        narrow[k]["runs"][0]["box"][2] += out
    lines = [*body_lines(740, "a", 4), *narrow, line(632, " ".join(words[30:33]) + "."), *body_lines(606, "b", 4)]
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert len(texts) == 3 and texts[1] == " ".join(wrapped) + " " + " ".join(words[30:33]) + ".", texts


def test_a_bold_lead_in_set_a_quad_before_its_text_is_followed_by_the_lines_under_it() -> None:
    # 'HPC and Grid Schedulers.' in bold, a quad (over a word space) before 'The high
    # performance': the line is mostly bold, yet its next lines in roman are its paragraph's.
    lead = "HPC and Grid Schedulers."
    text = prose(60, "p")
    right = 72 + CHAR * len(text[1])
    first = {"y": 700, "size": 10.0, "runs": [run(lead, 72, 700, font="Times-Bold"),
                                              run("The high performance", 72 + CHAR * len(lead) + 11, 700)]}
    first["runs"][1]["box"][2] = right
    lines = [*body_lines(760, "a", 4), first, line(688, text[1]), line(676, f"{text[2][:30]}."),
             *body_lines(650, "b", 3)]
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert f"{lead} The high performance {text[1]} {text[2][:30]}." in texts, texts


def test_a_bold_numbered_heading_with_a_symbol_in_a_math_face_is_a_heading() -> None:
    # '5 Specializing 𝒰 for exhaustiveness check': the 𝒰 is TeX's symbol face, which has no
    # bold. A line of pseudo-code, bold keywords and names in math italic, is none.
    def heading(y: float, parts: list[tuple[str, str]]) -> dict[str, Any]:
        runs, x = [], 150.0
        for text, font in parts:
            runs.append(run(text, x, y, font=font))
            x = runs[-1]["box"][2] + 3
        return {"y": y, "size": 10.0, "runs": runs}
    lines = [*body_lines(760, "a", 4),
             heading(700, [("5 Specializing", "CMBX10"), ("U", "CMSY10"), ("for exhaustiveness check", "CMBX10")]),
             *body_lines(680, "b", 4),
             heading(620, [("if", "CMBX10"), ("request", "CMMI10"), ("then", "CMBX10"), ("helpDelete", "CMMI10")]),
             *body_lines(600, "c", 4)]
    out = organize([page(1, lines)])[0]
    assert [t for _, t in headings(out)] == ["5 Specializing U for exhaustiveness check"], headings(out)


def test_an_item_whose_mark_the_font_draws_as_a_letter_keeps_its_lines_under_its_second_word() -> None:
    # 'e First, the function …': a bullet the font maps to 'e', in the run of the item's text;
    # the item's next lines stand under 'First', where two of the line's mean advances put it.
    lines, y, items = [*body_lines(760, "a", 4)], 700.0, []
    for k in range(2):
        text = prose(24, f"i{k}w")
        first = f"e First {text[0][:50]}"
        lines += [line(y, first, x0=82), line(y - 12, text[1][:50], x0=82 + 2 * CHAR),
                  line(y - 24, f"{text[2][:20]}.", x0=82 + 2 * CHAR)]
        items.append(f"{first} {text[1][:50]} {text[2][:20]}.")
        y -= 40
    texts = [b["text"] for b in organize([page(1, lines)])[0]["blocks"]]
    assert texts[-2:] == items, texts
    # A paragraph whose second line stands in further is no such item.
    lines = [*body_lines(760, "a", 4), line(700, f"A First {prose(24, 'p')[0][:50]}", x0=82),
             line(688, prose(24, "q")[1][:50], x0=82 + 5 * CHAR)]
    assert len(organize([page(1, lines)])[0]["blocks"]) == 3


def test_a_column_of_references_whose_entries_start_few_lines_at_its_edge_parts_at_a_narrow_gutter() -> None:
    # Two justified columns 10 points apart (under an em), the right one a list of references
    # set with a hanging indent: three lines start at its edge, the rest an indent in. The
    # columns' baselines differ but for one line, where a reference's first line came as one
    # evidence line with the left column's: the gap there is a gutter all the same.
    left_words = prose(90, "lef")
    lefts = [{"y": 700 - 12 * k, "size": 10.0, "runs": [{**run(text, 96, 700 - 12 * k), "box": [
        96, 698 - 12 * k, 300, 708 - 12 * k]}]} for k, text in enumerate(left_words)]
    entries = {0: "[11] C. Shields and B. N. Levine. A Protocol for",
               3: "[12] P. F. Syverson, D. M. Goldschlag, and M.", 8: "[13] M. Waidner and B. Pfitzmann. The Dining"}
    rights, shared = [], 3
    for k in range(11):
        if k == 7:
            continue
        text = entries.get(k) or f"rig{k} Anonymous Connections and Onion {k}"
        x0 = 310 if k in entries else 334
        y = 700 - 12 * k - (0 if k == shared else 2.5)
        piece = {**run(text, x0, y), "box": [x0, y - 2, 540, y + 8]}
        if k == shared:
            lefts[k]["runs"].append(piece)
        else:
            rights.append({"y": y, "size": 10.0, "runs": [piece]})
    out = organize([page(1, sorted([*lefts, *rights], key=lambda one: -one["y"]))])[0]
    text = out["text"]
    order = [*(words.split()[0] for words in left_words), "[11]", "rig1", "rig2", "[12]", "rig4", "rig6", "[13]",
             "rig10"]
    found = [text.find(word) for word in order]
    assert -1 not in found and found == sorted(found)  # the left column whole, then the right


def test_a_display_in_one_column_beside_a_table_in_the_other_is_no_cell_of_the_table() -> None:
    # A grammar set as a table of four columns in the left column; in the right column prose,
    # and a formula displayed between its paragraphs (space above and below it) on the baseline
    # of one of the grammar's rows.
    by_y: dict[float, list[dict[str, Any]]] = {}
    for k in range(6):
        y = 700 - 12 * k
        by_y.setdefault(y, []).extend(run(text, x0, y) for text, x0 in (
            (f"term{k}", 60), ("::=", 110), (f"value{k}", 150), (f"other{k}", 220)))
    right = [f"prose{k} " + "words of the right column set justified here"[:40] for k in range(10)]
    ys = [700, 690, 680, 670, 634, 624, 614, 604, 594, 584]
    for text, y in zip(right, ys, strict=True):
        by_y.setdefault(y, []).append({**run(text, 318, y), "box": [318, y - 2, 558, y + 8]})
    by_y.setdefault(652, []).append(run("compile : decl -> cdecl", 380, 652))
    lines = [{"y": y, "size": 10.0, "runs": sorted(runs, key=lambda r: r["box"][0])}
             for y, runs in sorted(by_y.items(), reverse=True)]
    out = organize([page(1, lines)])[0]
    tables = [b for b in out["blocks"] if b["kind"] == "table"]
    assert tables and not any("compile" in b["text"] for b in tables)
    text = out["text"]
    assert text.index("prose3") < text.index("compile : decl -> cdecl") < text.index("prose4")


def test_a_tip_set_in_the_margin_of_a_paragraphs_line_keeps_the_lines_under_it_in_the_paragraph() -> None:
    # An instruction's box: its text flush at x 253, a bold 'TIP' set in the margin of its
    # second line; the lines after it are the same paragraph's.
    def at(y: float, text: str, x0: float = 253.0, font: str = "Helvetica-Oblique") -> dict[str, Any]:
        return run(text, x0, y, 9.5, font)

    tip = [{"y": 110.0, "size": 9.5, "runs": [at(110, "For details on how your")]},
           {"y": 100.0, "size": 9.5,
            "runs": [at(100, "TIP", 232.0, "Helvetica-Black"), at(100, "dependent can get an")]},
           {"y": 90.0, "size": 9.5, "runs": [at(90, "identifying number, see")]},
           {"y": 80.0, "size": 9.5, "runs": [at(80, "Identifying number on page 8.")]}]
    out = organize([page(1, [*body_lines(700, "a", 12), *tip])])[0]
    assert "For details on how your TIP dependent can get an identifying number, see Identifying number on " \
           "page 8." in [b["text"] for b in out["blocks"]]


def test_a_rule_set_out_with_a_bold_label_does_not_take_the_next_indented_paragraph() -> None:
    # 'DR2: Deliver ...' flush with the text's margin after a line ending in a colon, its label
    # bold; the next paragraph's first line is indented (as the first one's) to where the rule's
    # text starts by chance: it stays a paragraph of its own.
    text = [line(700 - 12 * k, f"first{k} words of a paragraph that runs on to the margin",
                 x0=72 + (26 if k == 0 else 0)) for k in range(3)]
    text.append(line(664, "and the rule for the messages is the following:"))
    rule = {"y": 652.0, "size": 10.0, "runs": [run("DR2:", 72, 652, 10.0, "Times-Bold"),
                                                run("Deliver all received messages that are stable now.", 98, 652)]}
    after = [line(640 - 12 * k, f"next{k} words of the paragraph after the rule set out", x0=98 if k == 0 else 72)
             for k in range(3)]
    out = organize([page(1, [*text, rule, *after])])[0]
    assert any(b["text"].startswith("next0 words") for b in out["blocks"])


def test_a_reference_set_with_a_hanging_indent_goes_on_at_the_top_of_the_next_column() -> None:
    # Two columns of references: each entry's first line at the column's edge, its next lines
    # 12 points in. The left column's last entry goes on at the top of the right column, 12
    # points in from that column's edge: one entry, not a paragraph of its own.
    def entry(x0: float, top: float, label: str, lines: list[str]) -> list[dict[str, Any]]:
        return [line(top - 11 * k, text, x0=x0 + (12 if k else 0), size=9) for k, text in
                enumerate([f"[{label}] " + lines[0], *lines[1:]])]

    words = "of the systems and logs to diagnose the performance problems in networked designs"
    left = [*entry(54, 700, "46", [f"A{k} {words}"[:48] for k in range(3)]),
            *entry(54, 667, "47", [f"B{k} {words}"[:48] for k in range(4)]),
            *entry(54, 623, "48", [f"C{k} {words}"[:48] for k in range(3)])]
    right = [line(700, "C3 goes on in the next column and ends here.", x0=330, size=9),
             *entry(318, 689, "49", [f"D{k} {words}"[:48] for k in range(3)])]
    for one in left:  # the columns' lines fill their measure
        one["runs"][0]["box"][2] = 294.0
    for one in right[:-1]:
        one["runs"][0]["box"][2] = 558.0
    out = organize([page(1, [*left, *right])])[0]
    texts = [b["text"] for b in out["blocks"]]
    assert any(text.startswith("[48] C0") and text.endswith("C3 goes on in the next column and ends here.")
               for text in texts)
    assert any(text.startswith("[49] D0") for text in texts)


def test_a_bold_lead_in_of_more_than_a_line_goes_on_into_the_text_after_it() -> None:
    # 'Line 6—Qualifying widow(er) with / dependent child. You can check ...': the bold
    # run-in head fills its first line and ends on the next, where the text starts.
    def piece(text: str, y: float, x0: float, x1: float, font: str = "Helvetica") -> dict[str, Any]:
        return {**run(text, x0, y, 9.5, font), "box": [x0, y - 2, x1, y + 7]}

    head = {"y": 500.0, "size": 9.5,
            "runs": [piece("Line 6—Qualifying widow(er) with", 500, 72, 298, "Helvetica-Bold")]}
    lead = {"y": 490.0, "size": 9.5, "runs": [piece("dependent child.", 490, 72, 146, "Helvetica-Bold"),
                                               piece("You can check the box on line 6 if all", 490, 150, 299)]}
    after = line(480, "seven of the following apply.", size=9.5)
    before = [{"y": 600.0 - 10 * k, "size": 9.5, "runs": [piece(f"b{k} words of the text before it, set", 600 - 10 * k,
                                                                72, 298)]} for k in range(6)]
    out = organize([page(1, [*before, head, lead, after])])[0]
    assert "Line 6—Qualifying widow(er) with dependent child. You can check the box on line 6 if all seven of the " \
           "following apply." in [b["text"] for b in out["blocks"]]


def test_a_reference_list_set_half_an_em_in_from_the_text_hangs_its_entries() -> None:
    # The text's lines at 72; the references' first lines at 77.5 (just over half an em in),
    # their next lines at 96: each entry one paragraph, as when the list is flush with the text.
    def at(text: str, x0: float, y: float, x1: float) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [{**run(text, x0, y), "box": [x0, y - 2, x1, y + 8]}]}

    text = [at(f"t{k} words of the text above the list of works", 72, 700 - 12 * k, 524) for k in range(4)]
    entries = []
    y = 640.0
    for n in range(1, 5):
        entries += [at(f"[{n}] Author{n} and Other. A title of the work number {n} that runs", 77.5, y, 524),
                    at(f"on{n} to the next line of the entry, 1985.", 96.0, y - 12, 300)]
        y -= 24
    out = organize([page(1, [*text, *entries])])[0]
    texts = [b["text"] for b in out["blocks"]]
    for n in range(1, 5):
        assert f"[{n}] Author{n} and Other. A title of the work number {n} that runs on{n} to the next line of the " \
               "entry, 1985." in texts


def test_a_page_number_in_the_margin_beside_a_hanging_entry_does_not_end_it() -> None:
    # A book's references set with a hanging indent, its page number printed in the outer
    # margin between the lines of an entry: the entry's last line, ended short, still hangs.
    def at(text: str, x0: float, y: float, x1: float) -> dict[str, Any]:
        return {"y": y, "size": 9.0, "runs": [{**run(text, x0, y, 9.0), "box": [x0, y - 2, x1, y + 7]}]}

    lines = [at("Bohle, P. and Tilley, A. (1998), “Early experience of shift work”, Journal", 51, 600, 397),
             at("of Occupational and Organizational Psychology, Vol. 71 No. 1, pp. 61-79.", 73.7, 590, 370),
             at("Bostic, B. (1988), “Family adjustment to rotating shift work: problems, process and", 51, 578, 397),
             at("relationships”, unpublished thesis, The University of Alabama, Tuscaloosa.", 73.7, 568, 366),
             at("175", 470, 557, 493),
             at("Burke, R.J. (1988), “Some antecedents and consequences of work-family conflict”,", 51, 555, 397),
             at("Journal of Social Behavior and Personality, Vol. 3, pp. 287-302.", 73.7, 545, 262)]
    out = organize([page(1, lines)])[0]
    assert "Bostic, B. (1988), “Family adjustment to rotating shift work: problems, process and relationships”, " \
           "unpublished thesis, The University of Alabama, Tuscaloosa." in [b["text"] for b in out["blocks"]]


def test_a_caption_run_over_into_the_next_column_between_its_lines_stays_in_its_own():
    # Two columns; at the foot of the left one a table's caption wider than its column runs past
    # the gutter into the right column, between two of its lines, which go on at their own pitch
    # (they make no room for it). The caption is the left column's: the right column is read
    # after the whole left one, not cut in two around the caption.
    from siftpdf.organize.layout import Item, reading_order

    def at(text: str, x0: float, x1: float, y: float) -> Item:
        return Item(text, x0, y - 2, x1, y + 8, y, 10.0)

    items = []
    for k in range(20):
        items.append(at(f"right {k} " * 4, 322, 540, 700 - 12 * k))
        if k < 12:
            items.append(at(f"left {k} " * 4, 72, 290, 700 - 12 * k))
    items.append(at("Table 1. A caption set wider than its column " * 2, 72, 360, 700 - 12 * 12 - 5))
    items += [at(f"cell {k} " * 2, 90, 250, 700 - 12 * 14 - 12 * k) for k in range(4)]
    ordered = reading_order(items, 612.0, columns=True)
    columns = {i.text.split()[0]: i.column for i in ordered}
    assert columns == {"left": "L", "right": "R", "Table": "L", "cell": "L"}
    words = [i.text.split()[0] for i in ordered]
    assert words.index("cell") < words.index("right")  # the left column whole, then the right


def test_a_quotations_justified_lines_parted_word_by_word_are_lines_of_it():
    # Two columns set justified by a browser; in the left one a quotation set in from both edges:
    # most of its few lines have their spaces stretched past an em, each word a run of its own,
    # the same space between them. Only two of its lines are whole runs ending at its right edge,
    # too few alone to tell the edge; the stretched lines' even spaces tell it too. The
    # quotation's words read in order, no table's cells.
    def words_at(y: float, *words: tuple[float, float, str]) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [{"text": text, "font": "Times-Roman", "size": 10.0, "color": "#000000",
                                                "box": [x0, y - 2, x1, y + 8]} for x0, x1, text in words]}

    before, _ = justified_column(72, 700, "bef", set(), width=220, count=6)
    quote = [words_at(630, (135, 257, "Ownership of the weirs")),
             words_at(618, (118, 257, "passed to the river board")),
             words_at(606, (118, 135, "with"), (147, 160, "all"), (172, 209, "their"), (221, 257, "sluices")),
             words_at(594, (118, 155, "nothing"), (170, 202, "being"), (217, 231, "left"), (246, 257, "out")),
             words_at(582, (118, 156, "whatever"), (178, 200, "their"), (221, 257, "owners")),
             words_at(570, (118, 231, "had said before."))]
    words = " ".join(run["text"] for line in quote for run in line["runs"]).split()
    after, _ = justified_column(72, 550, "aft", set(), width=220, count=6)
    right, _ = justified_column(315, 697, "rig", set(), width=220, count=18)
    out = organize([page(1, [*before, *quote, *after, *right])])[0]
    assert all(b["kind"] != "table" for b in out["blocks"])
    assert " ".join(words) in out["text"].replace("\n\n", " ")


def test_a_tables_cells_of_one_width_evenly_spaced_stay_cells():
    # A table of single-word cells all of one width, its columns evenly spaced, between lines of
    # text: each row is words the same space apart, ending where the others end, as the lines of
    # a justified text whose spaces were stretched are; but a line's words differ in width.
    def words_at(y: float, *words: tuple[float, float, str]) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [{"text": text, "font": "Helvetica", "size": 10.0, "color": "#000000",
                                                "box": [x0, y - 2, x1, y + 8]} for x0, x1, text in words]}

    before, _ = justified_column(72, 700, "bef", set(), width=468, count=6)
    cells = [[f"T{r}-{c}" for c in range(3)] for r in range(4)]
    table = [words_at(610 - 16 * r, *((72 + 170 * c, 140 + 170 * c, text) for c, text in enumerate(row)))
             for r, row in enumerate(cells)]
    after, _ = justified_column(72, 530, "aft", set(), width=468, count=6)
    out = organize([page(1, [*before, *table, *after])])[0]
    tables = [b for b in out["blocks"] if b["kind"] == "table"]
    assert len(tables) == 1 and [[c["text"] for c in row] for row in tables[0]["rows"]] == cells


def _column_prose(seed: str, count: int) -> list[str]:
    """``count`` lines of about 40 characters (200 points) of distinct words."""
    words = iter(f"{seed}{k}" for k in range(10 * count))
    out = []
    for _ in range(count):
        current = ""
        while len(current) < 34:
            current = f"{current} {next(words)}".strip()
        out.append(current)
    return out


def _figure_row(y: float, label: str, figure: str, x0: float, x1: float, bold: bool = False) -> dict[str, Any]:
    """A table's row: its label from ``x0``, its figure set flush right to ``x1``."""
    font = "Times-Bold" if bold else "Times-Roman"
    return {"y": y, "size": 10.0, "runs": [run(label, x0, y, font=font),
                                           run(figure, x1 - CHAR * len(figure), y, font=font)]}


def test_a_last_page_too_bare_to_show_its_columns_is_read_by_the_gutter_of_the_page_before():
    """A word processor's two columns; the last page holds only a table the left column's end
    broke: its caption, heads and first row at the head of the left column, its other rows at
    the head of the right one, on baselines of their own. Too few lines show no columns, so
    the page is read by the gutter the page before was read by: one table of every row under
    the caption, not the two columns' rows read across the page."""
    _one_table_under_its_caption(_bare_table_page(BARE_ROWS), BARE_ROWS)


BARE_ROWS = [("Site", "2024"), ("Weir", "478"), ("Mill", "586"), ("Ford", "984"), ("Dam", "12.5"), ("Pier", "40.1")]


def _bare_table_page(rows: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """A caption, a bold head and a row under it at the head of the left column, the other
    ``rows`` at the head of the right one on baselines of their own."""
    last = [line(720, "Table 1. Flows at the gauges.", x0=100),
            _figure_row(703, *rows[0], 80, 280, bold=True), _figure_row(689, *rows[1], 80, 280)]
    return last + [_figure_row(717 - 15 * k, label, figure, 320, 520) for k, (label, figure) in enumerate(rows[2:])]


def _two_columns() -> list[dict[str, Any]]:
    """A page of two columns of prose, 72 and 320 points from the left."""
    return [line(720 - 12 * k, text, x0=72) for k, text in enumerate(_column_prose("leftword", 50))] + \
        [line(720 - 12 * k, text, x0=320) for k, text in enumerate(_column_prose("rightword", 50))]


def _one_table_under_its_caption(last: list[dict[str, Any]], rows: Sequence[tuple[str, ...]]) -> None:
    """A page of two columns of prose, then ``last``: it reads as a caption and one table of ``rows``."""
    _caption_and_table(organize([page(1, _two_columns()), page(2, last)])[1]["blocks"], rows)


def _caption_and_table(blocks: list[dict[str, Any]], rows: Sequence[tuple[str, ...]]) -> None:
    """``blocks`` are a caption and a table of ``rows``."""
    assert [b["kind"] for b in blocks] == ["caption", "table"]
    assert [[cell["text"] for cell in row] for row in blocks[1]["rows"]] == [list(r) for r in rows]


BROKEN_TABLE = [("Site", "2007", "2018"), ("Weir", "876", "74.7"), ("Mill", "138,707", "119,591"),
                ("Ford", "536", "167,825"), ("Dam", "163,524", "127,467"), ("Pier", "47,581", "176,039")]


def test_a_tables_rows_beside_the_other_columns_caption_on_baselines_of_their_own_go_on_its_table():
    """A word processor's two columns; the last page holds a table the left column's end broke:
    its caption, heads and first row in the left column, its other rows in the right one, the
    first beside the caption, each on a baseline of its own between the left's. The rows beside
    the caption are the right column's, not the caption's line: one table of every row."""

    def cells(y: float, *spans: tuple[float, float, str], bold: bool = False) -> dict[str, Any]:
        font = "DejaVuSerif-Bold" if bold else "DejaVuSerif"
        return {"y": y, "size": 11.0, "runs": [{"text": text, "font": font, "size": 11.0, "color": "#000000",
                                                "box": [x0, y - 2, x1, y + 8]} for x0, x1, text in spans]}

    first = [line(720 - 14 * k, text, x0=82.9, size=11.0) for k, text in enumerate(_column_prose("leftword", 45))]
    first += [line(720 - 14 * k, text, x0=316.9, size=11.0) for k, text in enumerate(_column_prose("rightword", 45))]
    for row in first:  # (words set closer, to fit the column)
        box = row["runs"][0]["box"]
        box[2] = box[0] + 0.8 * (box[2] - box[0])
    caption = {"text": "Table 1. Flows at the gauges.", "font": "DejaVuSerif-Italic", "size": 12.0,
               "color": "#000000", "box": [88.6, 742.7, 288.4, 753.7]}
    last = [cells(744.8, (319.1, 344.7, "Mill"), (422.0, 467.5, "138,707"), (481.7, 527.2, "119,591")),
            cells(726.5, (319.1, 373.7, "Ford"), (446.5, 467.5, "536"), (481.7, 527.2, "167,825")),
            cells(723.7, (85.1, 125.2, "Site"), (202.9, 233.4, "2007"), (262.6, 293.1, "2018"), bold=True),
            cells(709.4, (319.1, 349.4, "Dam"), (422.0, 467.5, "163,524"), (481.7, 527.2, "127,467")),
            cells(706.6, (85.1, 159.5, "Weir"), (212.5, 233.5, "876"), (268.7, 293.2, "74.7")),
            cells(692.3, (319.1, 348.8, "Pier"), (429.0, 467.5, "47,581"), (481.7, 527.2, "176,039"))]
    last[0]["runs"].insert(0, caption)
    out = organize([page(1, first), page(2, last)])
    _caption_and_table(out[1]["blocks"], BROKEN_TABLE)


def test_a_tables_rows_beside_the_other_columns_text_and_on_its_tables_baselines_go_on_its_table():
    """A browser's two columns; the last page holds a paragraph's last lines (read on from the
    page before), then a table's caption, heads and first row in the left column, the table's
    other rows in the right one: the first beside the paragraph, one beside the caption, the
    last two on the baselines of the heads and the first row. The rows beside the column's text
    show the page in two columns: two parts of one table, not one table six cells wide."""

    def cells(y: float, *spans: tuple[float, float, str], bold: bool = False) -> list[dict[str, Any]]:
        font = "Times-Bold" if bold else "Times-Roman"
        return [{"text": text, "font": font, "size": 10.0, "color": "#000000", "box": [x0, y - 2, x1, y + 8]}
                for x0, x1, text in spans]

    first = [line(720 - 14 * k, text, x0=78) for k, text in enumerate(_column_prose("leftword", 45))]
    first += [line(720 - 14 * k, text, x0=313) for k, text in enumerate(_column_prose("rightword", 45))]
    right = [("Mill", "46.7", "118"), ("Ford", "824", "48,538"), ("Dam", "967", "43.0%"), ("Pier", "11.2%", "209,646"),
             ("Quay", "37.1", "38.2")]
    ys = [766.2, 746.7, 728.7, 710.7, 692.7]
    lines = [{"y": y, "size": 10.0, "runs": cells(y, (313, 313 + 5 * len(a), a), (439 - 5 * len(b), 439, b),
                                                 (513 - 5 * len(c), 513, c))}
             for y, (a, b, c) in zip(ys, right, strict=True)]
    lines[0]["runs"][:0] = [run("and the last words of its closing paragraph", 78, 766.2)]
    lines.insert(1, line(751.2, "ending here.", x0=78))
    lines[3]["runs"][:0] = [run("Table 1. Flows at the gauges.", 115, 728.7)]
    lines[4]["runs"][:0] = cells(710.7, (82, 96, "Site"), (164, 187, "Flow"), (218, 274, "Depth"), bold=True)
    lines[5]["runs"][:0] = cells(692.7, (82, 126, "Weir"), (170, 209, "140,860"), (261, 282, "85.3"))
    out = organize([page(1, first), page(2, lines)])
    assert out[0]["blocks"][-1]["text"].endswith("its closing paragraph ending here.")  # (read on over the break)
    blocks = out[1]["blocks"]
    assert [b["kind"] for b in blocks] == ["caption", "table"]
    assert [[cell["text"] for cell in row] for row in blocks[1]["rows"]] == [
        ["Site", "Flow", "Depth"], ["Weir", "140,860", "85.3"], *[list(r) for r in right]]


def test_a_tables_rows_read_on_from_one_column_into_the_next_are_its_rows():
    """A browser's two columns; the last page holds a table the left column's end broke after
    its heads and first row (its rows three cells each), its other rows at the head of the right
    column on baselines between the left's, two cells of each drawn as one text object: the row
    in the left column reads on into the right column's rows, which line up among themselves,
    not with it. One table of every row under the caption."""

    def cells(y: float, *spans: tuple[float, float, str], bold: bool = False) -> dict[str, Any]:
        font = "DejaVuSerif-Bold" if bold else "DejaVuSerif"
        runs = []
        for x0, x1, text in spans:
            drawn = {"text": text, "font": font, "size": 11.91, "color": "#000000", "box": [x0, y - 2.8, x1, y + 11]}
            if " " in text:  # two figures drawn as one object, a wide space between them (set flush right)
                drawn["gaps"] = [[text.index(" "), 451.45, 460.41]]
            runs.append(drawn)
        return {"y": y, "size": 11.91, "runs": runs}

    first = [line(760 - 14 * k, text, x0=88.5, size=11.91) for k, text in enumerate(_column_prose("leftword", 45))]
    first += [line(760 - 14 * k, text, x0=312.7, size=11.91) for k, text in enumerate(_column_prose("rightword", 45))]
    for row in first:  # (words set closer, to fit the column)
        box = row["runs"][0]["box"]
        box[2] = box[0] + 0.84 * (box[2] - box[0])
    last = [cells(766.26, (88.5, 286.6, "Table 1. Flows at the gauges."), (312.7, 340.5, "Mill"),
                  (402.2, 509.6, "138,707 119,591")),
            cells(746.91, (312.7, 371.8, "Ford"), (428.8, 509.6, "536 167,825")),
            cells(742.45, (92.9, 136.4, "Site"), (182.4, 215.5, "2007"), (240.6, 273.7, "2018"), bold=True),
            cells(729.06, (312.7, 345.6, "Dam"), (402.2, 509.6, "163,524 127,467")),
            cells(724.59, (92.9, 173.4, "Weir"), (209.0, 231.7, "876"), (263.3, 289.8, "74.7")),
            cells(711.2, (312.7, 344.8, "Pier"), (409.8, 451.5, "47,581"), (460.4, 509.6, "176,039"))]
    out = organize([page(1, first, width=594.96), page(2, last, width=594.96)])
    _caption_and_table(out[1]["blocks"], BROKEN_TABLE)


def test_a_tables_rows_read_as_paragraphs_under_its_part_in_the_next_column_go_on_it_all():
    """A table the left column's end broke after three rows, its last three rows at the head of
    the right column set further apart: each reads as a paragraph of its own. The first goes on
    the table as its next row, and so do the others under it in that column, not only the first."""
    rows = [("Site", "2024"), ("Weir", "478"), ("Mill", "586"), ("Ford", "984"), ("Dam", "12.5"), ("Pier", "40.1"),
            ("Quay", "7.7")]
    last = [line(720, "Table 1. Flows at the gauges.", x0=100)]
    last += [_figure_row(703 - 14 * k, *rows[k], 80, 280, bold=k == 0) for k in range(3)]
    last += [_figure_row(717 - 17 * k, label, figure, 320, 520) for k, (label, figure) in enumerate(rows[3:])]
    _one_table_under_its_caption(last, rows)


def test_an_italic_head_wrapped_onto_a_second_line_is_one_heading():
    """groff's lowest heads are set in italic in the body's size; one too long for its column
    wraps, hyphenated, onto a short second line over the upright paragraph. One heading of both
    lines; two lines of an italic sentence over the text stay a paragraph."""
    above = body_lines(700, "above", 3)
    below = body_lines(634, "below", 3)

    def italic(y: float, text: str) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [run(text, 72, y, font="Times-Italic")]}

    head = [italic(658, "Sampling the small rivers of the up-"), italic(646, "per valleys")]
    out = organize([page(1, [*body_lines(740, "top", 3), *above, *head, *below])])
    assert headings(out[0]) == [(1, "Sampling the small rivers of the upper valleys")]
    said = [italic(658, "All the rivers were sampled in the spring of that"), italic(646, "year, as before.")]
    out = organize([page(1, [*body_lines(740, "top", 3), *above, *said, *below])])
    assert headings(out[0]) == []


def test_a_bullet_drawn_a_little_below_its_entrys_line_goes_before_it():
    """A list's bullet drawn on a baseline half a point below its entry's words (its own line in
    the evidence: a heading set large in the other column shares the words' baseline): the
    entry starts with its bullet, as the others do, not a paragraph with a bullet at its end."""
    lines = body_lines(720, "intro", 3)
    for k, words in enumerate(["the gauges were read every day", "the mills were counted twice", "the weirs"]):
        y = 670 - 14 * k
        lines += [{"y": y - 0.5, "size": 10.0, "runs": [run("•", 84, y - 0.5)]}, line(y, words, x0=96)]
    lines += body_lines(620, "outro", 3)
    out = organize([page(1, lines)])
    items = [b["text"] for b in out[0]["blocks"] if b["kind"] == "list_item"]
    assert items == ["• the gauges were read every day", "• the mills were counted twice", "• the weirs"]


def test_a_bare_page_of_another_width_keeps_no_gutter_of_the_page_before():
    """The gutter of a page of two columns says nothing of a page of another width after it (a
    table set on a landscape page): that page reads as it reads alone."""
    last = _bare_table_page(BARE_ROWS)
    alone = organize([page(2, last, width=842.0, height=595.0)])[0]["blocks"]
    after = organize([page(1, _two_columns()), page(2, last, width=842.0, height=595.0)])[1]["blocks"]
    assert after == alone
    assert [b["kind"] for b in alone] != ["caption", "table"]  # (read by the first page's gutter it would be)
