"""Headings and their levels on pages built here: which lines head text, and how deep each is."""

from __future__ import annotations

from test_organize_layout import body_lines, headings, line, organize, page


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
