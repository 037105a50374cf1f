"""Headings and their levels on pages built here: which lines head text, and how deep each is."""

from __future__ import annotations

from typing import Any

from test_organize_layout import CHAR, body_lines, headings, line, organize, page, prose, run


def test_a_listing_line_of_a_number_and_symbols_does_not_join_the_outline_title_under_it():
    lines = [line(740, "Install", size=12, bold=True), *body_lines(720, "a", 3),
             line(676, "3 {git, https, {branch}}}", x0=84, size=9), line(665, "4 ]}.", x0=84, size=9),
             line(640, "Manual install", bold=True), *body_lines(620, "b", 3)]
    outline = [{"title": "Install", "page": 1, "level": 1}, {"title": "Manual install", "page": 1, "level": 2}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "Install"), (2, "Manual install")]
    assert any(b["kind"] != "heading" and "4 ]}." in b["text"] for b in out["blocks"])


def test_a_label_set_with_the_first_words_of_an_outline_title_still_opens_it():
    lines = [line(740, "2 Feature", size=12, bold=True), line(726, "Extraction Blocks", size=12, bold=True),
             *body_lines(706, "a", 3)]
    outline = [{"title": "Feature Extraction Blocks", "page": 1, "level": 1}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "2 Feature Extraction Blocks")]


def test_numbered_steps_in_the_face_of_outline_entries_sit_at_their_level_not_above():
    lines = [line(740, "Stay in Touch", size=16, bold=True), *body_lines(720, "a", 3),
             line(670, "Console Logging", size=13, bold=True), *body_lines(650, "b", 3),
             line(600, "Valid Values", bold=True), *body_lines(580, "c", 3),
             line(530, "1. Loaded from a file", x0=90, bold=True), *body_lines(510, "d", 2),
             line(470, "2. Set on the command line", x0=90, bold=True), *body_lines(450, "e", 2)]
    outline = [{"title": "Stay in Touch", "page": 1, "level": 1}, {"title": "Console Logging", "page": 1, "level": 2},
               {"title": "Valid Values", "page": 1, "level": 3}]
    out = organize([page(1, lines)], outline)[0]
    assert headings(out) == [(1, "Stay in Touch"), (2, "Console Logging"), (3, "Valid Values"),
                             (3, "1. Loaded from a file"), (3, "2. Set on the command line")]


def test_numbered_sections_sit_below_a_title_the_outline_holds_alone():
    lines = [line(740, "A Wait-Free Stack", x0=200, size=18, bold=True), *body_lines(700, "a", 3),
             line(640, "1 Introduction", size=12, bold=True), *body_lines(620, "b", 3),
             line(560, "1.1 Background", bold=True), *body_lines(540, "c", 3)]
    second = [line(740, "2 Related Work", size=12, bold=True), *body_lines(720, "d", 3)]
    outline = [{"title": "A Wait-Free Stack", "page": 1, "level": 1}]
    out = organize([page(1, lines), page(2, second)], outline)
    assert headings(out[0]) == [(1, "A Wait-Free Stack"), (2, "1 Introduction"), (3, "1.1 Background")]
    assert headings(out[1]) == [(2, "2 Related Work")]


def test_numbered_headings_without_an_outline_keep_their_numbering_depth_whatever_their_size():
    # A false heading set large must not push the document's sections down: with no outline the
    # numbering alone places them.
    lines = [line(740, "1. Highlights of the Year", size=18, bold=True), *body_lines(700, "a", 3),
             line(640, "1 Introduction", size=12, bold=True), *body_lines(620, "b", 3),
             line(560, "2 Methods", size=12, bold=True), *body_lines(540, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [level for level, text in headings(out) if text[0] != "1" or "Intro" in text] == [1, 1]


def test_a_line_of_prose_opening_in_a_small_letter_is_no_heading_even_unended():
    """A paragraph's line carried over in a large face, long as prose is and not ended there,
    heads nothing; a short heading that opens in a small letter ('eBay listings') still does."""
    lines = [line(720, "opportunity to rethink and reoptimize all of the details of the design", size=14.0),
             *body_lines(690, "a"), line(620, "eBay listings", size=14.0, bold=True), *body_lines(600, "b")]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["eBay listings"]
    assert any(b["kind"] == "paragraph" and b["text"].startswith("opportunity to rethink") for b in out["blocks"])


def test_a_list_of_names_under_a_title_is_a_byline_not_a_heading():
    """Names set large under a title (here on the article's page after a cover) head nothing;
    a heading that lists things in title case away from the title, or an appendix's title
    with its years, still does."""
    cover = [line(740, "Conference Paper", size=12), *body_lines(700, "c", 2)]
    lines = [line(740, "Patient Experiences of Care Programmes", size=18, bold=True),
             line(712, "Nuala E. Tully, Karen M. Morgan, and Hannah M. McGee", size=13),
             *body_lines(690, "a", 3),
             line(630, "Data Collection, Model Training", size=13, bold=True), *body_lines(610, "b", 3),
             line(560, "Appendix Accidents and Incidents, 1995–2005", size=13, bold=True),
             *body_lines(540, "d", 3)]
    out = organize([page(1, cover), page(2, lines)])[1]
    assert [text for _, text in headings(out)] == ["Patient Experiences of Care Programmes",
                                                   "Data Collection, Model Training",
                                                   "Appendix Accidents and Incidents, 1995–2005"]
    assert any(b["kind"] == "paragraph" and b["text"].startswith("Nuala E. Tully") for b in out["blocks"])


def test_names_read_with_their_marks_and_titles_do_not():
    from siftpdf.organize.headings import reads_as_names

    assert reads_as_names("Dmitry Bogdanov1, Nicolas Wack2, Emilia Gomez´")
    assert reads_as_names("J.H. Saltzer, D.P. Reed and D.D. Clark*")
    # Names without an initial or a mark read as a title-case list: only right under a title.
    ding = "Ding Yuan, Yu Luo, Xin Zhuang, and Michael Stumm, University of Toronto"
    assert reads_as_names(ding, under_title=True) and not reads_as_names(ding)
    assert not reads_as_names("Variable Elimination, Likelihood Weighting, and Gibbs Sampling of Networks")
    assert not reads_as_names("Risks and Rewards, Costs and Benefits", under_title=True)
    assert not reads_as_names("Prime Numbers, An Odyssey", under_title=True)
    assert not reads_as_names("Ada Lovelace", under_title=True)  # one name: a heading may be a person's name


def test_addresses_for_mail_of_several_names_are_not_headings():
    lines = [line(740, "Live Migration of Machines", size=18, bold=True), *body_lines(710, "a", 3),
             line(660, "{jacob,eric}@diku.dk", size=13), *body_lines(640, "b", 3),
             line(590, "Related Work", size=13, bold=True), *body_lines(570, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Live Migration of Machines", "Related Work"]


def test_names_set_one_a_line_under_a_title_are_a_byline():
    """Authors' names one a line, each set as large as a heading, head nothing: three in a row,
    or two when one carries a mark of affiliation. Two unmarked title-case headings one after
    the other stay headings."""
    cover = [line(740, "Conference Paper", size=12), *body_lines(700, "z", 2)]
    first = [line(740, "Parsing Tables with Models", size=18),
             line(708, "Jingfeng Yang", size=13), line(680, "Aditya Gupta†", size=13),
             *body_lines(650, "a", 3),
             line(590, "Data Collection", size=13), line(562, "Model Training", size=13),
             *body_lines(540, "b", 3)]
    second = [line(740, "A Protocol for Anonymity", size=18), line(708, "Rob Sherwood", size=13),
              line(680, "Bobby Bhattacharjee", size=13), line(652, "Aravind Srinivasan", size=13),
              *body_lines(620, "c", 3)]
    out = organize([page(1, cover), page(2, first), page(3, second)])
    assert [text for _, text in headings(out[1])] == ["Parsing Tables with Models", "Data Collection",
                                                      "Model Training"]
    assert [text for _, text in headings(out[2])] == ["A Protocol for Anonymity"]
    assert any(b["kind"] == "paragraph" and b["text"] == "Aditya Gupta†" for b in out[1]["blocks"])
    assert any(b["kind"] == "paragraph" and b["text"] == "Rob Sherwood" for b in out[2]["blocks"])


def test_names_set_apart_by_wide_spaces_under_a_title_and_their_institution_are_a_byline():
    """LaTeX's title block: the authors' names on one line, set apart by wide spaces (no commas),
    then their institution centred in italic, both larger than the text and neither bold: a
    byline, not headings. The section under them, and a centred 'Abstract' in bold, still head."""
    MIDDLE = 231.0  # the middle of the text's column (72-390)

    def centred(y: float, text: str, size: float, font: str = "Times-Roman") -> dict[str, Any]:
        width = CHAR * size / 10 * len(text)
        return {"y": y, "size": size, "runs": [run(text, MIDDLE - width / 2, y, size, font)]}

    names = ("Adelaide Quill", "Bartholomew Varn", "Cydonia Marlowe")  # across most of the column
    width = CHAR * 1.2 * sum(len(n) for n in names) + 2 * 11
    x, runs = MIDDLE - width / 2, []
    for name in names:
        runs.append(run(name, x, 700, 12.0))
        x = runs[-1]["box"][2] + 11  # an em apart, less than a column gap
    lines = [centred(730, "Reading Tables in Passing", 17.0), {"y": 700, "size": 12.0, "runs": runs},
             centred(676, "Institute of Measured Rivers", 12.0, "Times-Italic"),
             centred(650, "Abstract", 10.0, "Times-Bold"), *body_lines(636, "a", 3),
             line(580, "Design", size=14, bold=True), *body_lines(560, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Reading Tables in Passing", "Abstract", "Design"]
    paragraphs = [b["text"] for b in out["blocks"] if b["kind"] == "paragraph"]
    assert any(text.startswith("Adelaide Quill") for text in paragraphs)
    assert "Institute of Measured Rivers" in paragraphs


def test_a_long_numbered_title_over_an_indented_paragraph_is_a_heading():
    """A numbered title in body type that nearly fills its column is ended by choice when the
    line under it opens an indented paragraph; an entry whose next line hangs under its text
    and goes on with its sentence, or a clause ended by a colon, is not a heading."""
    title = "C. Disparity Selection and Confidence Assessment in Time"  # 56 characters: 352 pt
    lines = [*body_lines(740, "a", 3), line(700, title),
             line(684, "Having performed the aggregation, the matches are found", x0=82),
             *body_lines(672, "b", 2)]
    entry = [line(630, "5. Query Data: Read selected replicas using timestamps"),
             line(618, "timestamp of the selected log position for the query", x0=82), *body_lines(606, "c", 2)]
    colon = [line(564, "1. For any constructor symbol, this equivalence holds:"),
             line(552, "Match of the values against the rows of the matrix", x0=82), *body_lines(540, "d", 2)]
    out = organize([page(1, [*lines, *entry, *colon])])[0]
    assert [text for _, text in headings(out)] == [title]


def test_a_numbered_bold_title_set_a_little_smaller_than_the_body_is_a_heading():
    """A subsection's numbered title in a bold sans face a point under the body's size heads its
    text; a bold line as small as a note, or a bold sentence, does not."""
    lines = [*body_lines(740, "a", 4), line(700, "2.1 Bigtable overview", size=9.0, bold=True),
             *body_lines(686, "b", 4),
             line(630, "2.2 Of the same small size but bold as a note", size=8.0, bold=True),
             *body_lines(616, "c", 4),
             line(560, "2.3 The value is read back.", size=9.0, bold=True), *body_lines(546, "d", 4)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["2.1 Bigtable overview"]


def test_a_plots_legend_of_labels_set_far_apart_is_not_a_heading():
    """A legend's labels in a figure scaled down, drawn by one text object: a large stated size,
    yet each label as narrow as small type sets it, the labels far apart across the line. Its
    width from the first label to the last says nothing of its size; the labels' own do."""
    text, x, gaps = "", 150.0, []
    for label in ("Original", "Smoothed", "Oversmooth", "Sampled"):
        if text:
            text += " "
            gaps.append([len(text), x, x + 26.0])  # where the label starts, the gap's two edges
            x += 26.0
        text += label
        x += 2.6 * len(label)  # 0.18 em a character at the stated 14.4 pt
    legend = {"y": 600.0, "size": 14.4, "runs": [{"text": text, "font": "Sans", "size": 14.4, "color": "#000000",
                                                  "box": [150.0, 597.0, x, 611.0], "gaps": gaps}]}
    lines = [line(740, "Results", size=14.4, bold=True), *body_lines(720, "a", 4), legend,
             *body_lines(570, "b", 4)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Results"]
    assert any("Original" in b["text"] and b["kind"] != "heading" for b in out["blocks"])


def test_a_number_set_large_over_no_title_is_not_a_heading():
    """A plot's large tick label or a figure's number, set alone over other labels or text,
    heads nothing; a chapter's number over its title still does."""
    lines = [line(740, "Results", size=14, bold=True), *body_lines(720, "a", 3),
             line(670, "300", x0=100, size=14), line(650, "0 20 40 60 80 100", x0=100),
             *body_lines(630, "b", 3),
             line(560, "3", x0=200, size=30), line(520, "The Lost Homeland", x0=120, size=24, bold=True),
             *body_lines(490, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Results", "3", "The Lost Homeland"]
    assert any(b["kind"] == "paragraph" and b["text"].startswith("300") for b in out["blocks"])


def test_an_appendixs_lettered_sections_are_numbered_headings_a_level_down():
    """'A.1 Urgencies' numbers an appendix's section as '2.1' numbers a section's: set apart in
    body type it is a heading, a level under the appendix. A codec's name is no numbering."""
    lines = [line(770, "Selective Search", x0=200, size=18, bold=True),
             line(740, "1 Introduction", size=12, bold=True), *body_lines(722, "a", 3),
             line(680, "A Random Simulations", size=12, bold=True), *body_lines(662, "b", 3),
             line(620, "A.1 Urgencies"), *body_lines(605, "c", 3),
             line(560, "A.2 Useless Moves"), *body_lines(545, "d", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)][-2:] == ["A.1 Urgencies", "A.2 Useless Moves"]
    assert [level for level, text in headings(out) if text[1:2] in (" ", ".")] == [2, 2, 3, 3]

    from siftpdf.organize.headings import numbering_depth

    assert numbering_depth("B.2.3 Prompts") == 3 and numbering_depth("H.264 Codec") is None


def small_capitals_line(y: float, words: list[str], x0: float = 72.0, size: float = 10.0) -> dict[str, Any]:
    """A line of ``words`` (as typed) set as IEEE sets its section heads: a numeral and each
    word's capital at the text's size, the rest in capitals 0.8 of it on the same baseline
    ('I. I' + 'NTRODUCTION'), a word in small letters wholly so ('AND')."""
    runs, x = [], x0
    for word in words:
        if word.endswith("."):
            parts = [(word, size)]
        elif word[:1].isupper():
            parts = [(word[0], size), (word[1:].upper(), 0.8 * size)]
        else:
            parts = [(word.upper(), 0.8 * size)]
        for text, at in parts:
            runs.append(run(text, x, y, at))
            x = runs[-1]["box"][2]
        x += 0.3 * size
    return {"y": y, "size": size, "runs": runs}


def test_a_head_set_in_small_capitals_reads_as_typed_and_still_heads_its_section():
    lines = [small_capitals_line(740, ["II.", "Concatenated", "Encoder", "and", "Decoder"]),
             *body_lines(720, "a", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "II. Concatenated Encoder and Decoder")]


def test_an_unnumbered_head_in_small_capitals_centred_over_its_column_is_a_heading():
    head = small_capitals_line(700, ["References"], x0=0)
    width = head["runs"][-1]["box"][2]
    centred = small_capitals_line(700, ["References"], x0=72 + (300 - width) / 2)
    lines = [*body_lines(740, "a", 3), centred, *body_lines(680, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == [(1, "References")]


def test_capitals_set_smaller_without_a_capital_word_beside_them_stay_capitals():
    # An acronym or a unit set smaller in running text is no small-capital word: 'NASA' stays.
    words = line(740, "funded by the", size=10)
    acronym = run("NASA", words["runs"][0]["box"][2] + 3, 740, size=8)
    words["runs"].append(acronym)
    out = organize([page(1, [words, *body_lines(728, "a", 3)])])[0]
    assert "funded by the NASA" in out["text"]


def test_labels_set_large_without_a_word_head_nothing_but_short_words_of_other_scripts_do():
    # A diagram's or a formula's labels set large ('ER', 'Cl– Na+', 'U1 U2 Ui') are no heads;
    # a head of two CJK characters ('概述') and a chapter's bare number are.
    for label, heads in (("ER", False), ("Cl– Na+", False), ("U1 U2 Ui", False), ("概述", True), ("Risk", True)):
        lines = [*body_lines(740, "a", 3), line(700, label, size=14, bold=True), *body_lines(680, "b", 3)]
        out = organize([page(1, lines)])[0]
        assert (headings(out) == [(1, label)]) is heads, label


def test_a_title_of_a_short_word_heads_its_section_when_numbered_or_set_over_its_paragraph():
    # '1.1. Ma' in bold at the body's size, its number saying it is a section's; 'Ga' in bold and
    # larger, further from the paragraph above than from the one it heads: both head a section.
    # The same word set large with no paragraph under it (a diagram's label over another), over
    # a formula's line (a sum sign set large), or set as close to the text above as below stays
    # a line.
    def words(top: float) -> list[dict[str, Any]]:
        return [line(top, "The survey counted every gauge along the river and"),
                line(top - 12, "the table gives what was found in each of the years")]

    lines = [*body_lines(740, "a", 3), line(696, "1.1. Ma", bold=True), *body_lines(682, "b", 3),
             line(630, "Ga", size=12, bold=True), *words(614)]
    assert [text for _, text in headings(organize([page(1, lines)])[0])] == ["1.1. Ma", "Ga"]
    label = [*body_lines(740, "a", 3), line(690, "Ga", size=12, bold=True), line(672, "Cl", size=12, bold=True),
             *words(640)]
    formula = [*body_lines(740, "a", 3), line(690, "Pj", size=12, bold=True), line(674, "= =1 ai + (d ) (dj) - (d )"),
               *words(640)]
    close = [*body_lines(740, "a", 3), line(702, "Ga", size=12, bold=True), *words(688)]
    for other in (label, formula, close):
        assert headings(organize([page(1, other)])[0]) == []


def test_a_title_of_two_letters_in_italic_heads_the_paragraph_set_upright_under_it():
    # groff's lowest heading: 'Ba' in italic at the body's size, flush left, further from the
    # paragraph above than from the one it heads, whose first line stands in 2.5 ems. It heads
    # its section as a longer word in italic does; over a formula's line it stays a line.
    def italic(y: float, text: str) -> dict[str, Any]:
        return {"y": y, "size": 10.0, "runs": [run(text, 72.0, y, 10.0, "Times-Italic")]}

    under = [line(614, "The survey counted every gauge along the river and", x0=97),
             line(602, "the table gives what was found in each of the years")]
    lines = [*body_lines(740, "a", 3), italic(634, "Ba"), *under]
    assert [text for _, text in headings(organize([page(1, lines)])[0])] == ["Ba"]
    formula = [*body_lines(740, "a", 3), italic(634, "Ba"), line(618, "= =1 ai + (d ) (dj) - (d )", x0=97),
               *under[1:]]
    assert headings(organize([page(1, formula)])[0]) == []


def test_a_large_line_ending_in_a_word_a_sentence_runs_on_from_is_no_heading():
    # '… top c hubs in the' over 'following simple way.': a sentence set large, not a title;
    # a title whose first line ends so over its second set otherwise stays one.
    lines = [*body_lines(740, "a", 3), line(700, "This procedure filters the top authorities in the", size=14,
                                            bold=True), line(684, "following simple way.", size=10),
             *body_lines(660, "b", 3)]
    out = organize([page(1, lines)])[0]
    assert headings(out) == []
    title = [line(740, "A Program Optimization for", size=18, bold=True),
             line(716, "Automatic Result Caching", size=16, bold=True), *body_lines(690, "c", 3)]
    out = organize([page(1, title)])[0]
    assert [text for _, text in headings(out)][0].startswith("A Program Optimization for")


def test_a_section_mark_set_large_opens_a_heading_and_in_the_text_a_provision():
    # '§1 Introduction' set as a section's title; '§ 2 The seller shall …' in the body's size is
    # a provision, and a figure's '(a) …' set large is no heading.
    lines = [line(740, "§1 Introduction", size=14), *body_lines(716, "a", 4),
             line(660, "§ 2 The seller shall deliver the goods on the day fixed by the contract."),
             *body_lines(648, "b", 3), line(600, "(a) Distinct scan and allocation blocks", size=14),
             *body_lines(576, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["§1 Introduction"]
    assert [b["kind"] for b in out["blocks"] if b["text"].startswith("§ 2")] == ["provision"]


def test_a_head_in_a_font_whose_name_shortens_its_weight_is_bold():
    # 'AdvOT3b30f6db.B' and 'HelveticaNeueLTPro-Bd' are bold faces; a head a little larger than
    # the text and set in one is a heading, as it is in 'Times-Bold'. '-B' inside a name is not.
    for font, heading in (("AdvOT3b30f6db.B", True), ("HelveticaNeueLTPro-Bd", True), ("Times-Bold", True),
                          ("AdvOTa9103878", False), ("Foo-Book", False)):
        head = {"y": 740.0, "size": 10.3, "runs": [{**run("Introduction", 72, 740, size=10.3), "font": font}]}
        lines = [head, *body_lines(720, "a", 4)]
        lines = [{**ln, "runs": [{**r, "size": 9.8} for r in ln["runs"]], "size": 9.8} if ln is not head else ln
                 for ln in lines]
        out = organize([page(1, lines)])[0]
        assert (headings(out) == [(1, "Introduction")]) == heading, font


def test_a_numbered_title_set_a_little_larger_than_its_text_in_italic_is_a_heading():
    """'5.1.1 Nodes Joining and Failing' in italic, a point larger than the text under it and
    too little larger to stand out by size alone, heads its text; the text's own lines, and a
    numbered line over text set larger than it, do not."""
    title = {"y": 700.0, "size": 11.0, "runs": [{**run("5.1.1 Nodes Joining and Failing", 72, 700, size=11.0),
                                                  "font": "Times-Italic"}]}
    lines = [*body_lines(740, "a", 3), title, *body_lines(684, "b", 4),
             line(620, "5.1.2 A numbered line over larger text", size=9.0),
             *[line(604 - 14 * k, text, size=12.0) for k, text in enumerate(prose(30, "c")[:3])]]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["5.1.1 Nodes Joining and Failing"]


def test_a_keyword_set_in_bold_inside_a_listing_is_no_heading():
    """Pseudo-code with its keywords in bold ('end loop', 'struct'), set at the line pitch under
    the line above: no heading; a title's second line in small letters, and a bold identifier
    with space above it, are."""
    lines = [line(740, "Shedding load", size=14, bold=True), *body_lines(720, "a", 3),
             line(676, "while true do", x0=90), line(664, "serve the next request", x0=100),
             line(652, "end loop", x0=90, bold=True), line(640, "struct", x0=90, bold=True),
             line(628, "return x", x0=100), *body_lines(610, "b", 3),
             line(560, "statsd_measure", bold=True), *body_lines(540, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Shedding load", "statsd_measure"]


def test_a_display_formula_set_large_is_no_heading():
    """'H = ∑PiHi' set large by its sum sign heads nothing; 'Case k = 1' is a title."""
    lines = [line(740, "Entropy", size=14, bold=True), *body_lines(720, "a", 3),
             line(670, "H = ∑PiHi", x0=250, size=13), *body_lines(640, "b", 3),
             line(590, "Case k = 1", size=13), *body_lines(570, "c", 3)]
    out = organize([page(1, lines)])[0]
    assert [text for _, text in headings(out)] == ["Entropy", "Case k = 1"]
    assert "H = ∑PiHi" in out["text"]


def test_a_caption_in_german_french_or_spanish_set_bold_is_a_caption_not_a_heading():
    """'Abbildung 1.9: Hilbert-Kurve' under a figure, 'Tableau 2 : …' over a table: captions
    as their languages number them, however set, head no section."""
    for label in ("Abbildung 1.9: Hilbert-Kurve", "Tableau 2 : Désordres simples", "Figura 3. Mapa de la red",
                  "Tabelle 4: Ergebnisse"):
        lines = [line(740, "Results", size=14, bold=True), *body_lines(720, "a", 3),
                 line(660, label, x0=150, bold=True), *body_lines(630, "b", 3)]
        out = organize([page(1, lines)])[0]
        assert [text for _, text in headings(out)] == ["Results"], label
        assert [b["kind"] for b in out["blocks"] if b["text"] == label] == ["caption"], label


def contents_line(y: float, title: str, number: str, x0: float = 72.0, bold: bool = False) -> dict[str, Any]:
    """A contents entry drawn as one run, its page number a wide space off at the right edge
    (as PDFium gives a run whose text object sets the gap)."""
    text = f"{title} {number}"
    end = x0 + CHAR * len(title)
    return {"y": y, "size": 10.0, "runs": [{
        "text": text, "font": "Times-Bold" if bold else "Times-Roman", "size": 10.0, "color": "#000000",
        "box": [x0, y - 2.0, 480.0, y + 8.0], "gaps": [[len(title) + 1, end, 480.0 - CHAR * len(number)]]}]}


def test_a_contents_page_without_leaders_has_no_headings_and_an_entry_a_line():
    """A contents page's second page (no 'Contents' head over it): the chapters set bold, their
    sections under them, each with its page number a wide space off. The chapters head
    nothing, and no entry runs on into the next."""
    lines = []
    y = 700.0
    for chapter, (title, page_number) in enumerate((("Nondeterminism", "81"), ("Communication", "113")), start=3):
        lines.append(contents_line(y, f"{chapter} {title}", page_number, bold=True))
        y -= 14
        for section in range(1, 5):
            lines.append(contents_line(y, f"{chapter}.{section} Section {chapter}.{section}", str(80 + 9 * section),
                                       x0=90.0))
            y -= 13
        y -= 10
    out = organize([page(2, lines)])[0]
    assert headings(out) == []
    assert [b["text"] for b in out["blocks"]][:3] == ["3 Nondeterminism 81", "3.1 Section 3.1 89", "3.2 Section 3.2 98"]
    assert len(out["blocks"]) == 10
