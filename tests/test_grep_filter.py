"""grep's page-level shortcut (one multi-line search per page) finds exactly what searching
every line finds, including for patterns that can cross a line break."""

from __future__ import annotations

import pytest

import siftpdf.views.search as search

PAGES = [
    {"page": 1, "status": "text", "text": "alpha beta\nbeta gamma\n\nthe end\nfoo\nbar baz\nzz"},
    {"page": 2, "status": "text", "text": "nothing to see\nThe Theme\n  indented the\n"},
    {"page": 3, "status": "text", "text": "x" * 500 + " needle " + "y" * 500 + "\nneedle again"},
    {"page": 4, "status": "no_text", "text": ""},
    {"page": 5, "status": "text", "text": "1.25 and 3.5\nfoo\nbar\nfoo bar"},
    {"page": 6, "status": "text", "text": "café crème\nnaïve – ça\n😀 emoji bar\nΘέμα the\n"},
]
PATTERNS = ["beta", "^the", "e$", r"a\sb", r"\bthe\b", "The", "^", "$", r"\s+", r"o\s+b", r"beta\s+beta",
            "foo|bar", "[^x]{3}bar", r"\d+\.\d+", "needle", r"\Athe", r"end\z", "zz", r"a\s*\n?\s*b",
            "x*", "é?", "(?i)ÇA", r"\pL+", ".", "😀", r"\B", "ç|", "a|"]


def _shown(groups: list[list[search.Line]]) -> list[list[tuple[int, str, bool, int]]]:
    return [[(line.page, line.text, line.is_match, line.number) for line in group] for group in groups]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("context", [0, 1, 2])
def test_the_page_filter_changes_nothing(pattern: str, context: int, monkeypatch: pytest.MonkeyPatch) -> None:
    regex = search.compile_pattern(pattern)
    fast = _shown(list(search.grep_pages(PAGES, regex, context)))
    monkeypatch.setattr(search, "_page_filter", lambda _regex: None)  # every line searched
    assert fast == _shown(list(search.grep_pages(PAGES, regex, context)))


def test_a_match_across_lines_falls_back_to_line_by_line() -> None:
    regex = search.compile_pattern(r"beta\s+beta")  # matches the page, no single line
    page_filter = search._page_filter(regex)
    text = PAGES[0]["text"]
    assert search._matching_lines_of_text(text, text.split("\n"), page_filter) is None
    assert search._matching_lines(text.encode(), page_filter) is None
    assert list(search.grep_pages(PAGES, regex, 1)) == []


# Patterns that match an empty string: the bytes search leaves them to the search on text.
EMPTY_MATCHES = {"^", "$", "x*", "é?", r"\B", "ç|", "a|"}
# \A and \z mean line start and end per line, not per page: no page filter, line by line.
LINE_ANCHORED = {r"\Athe", r"end\z"}


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_lines_of_a_search_on_bytes_are_those_of_the_search_on_text(pattern: str) -> None:
    page_filter = search._page_filter(search.compile_pattern(pattern))
    assert (page_filter is None) == (pattern in LINE_ANCHORED)
    for page in PAGES if page_filter is not None else []:
        text = page["text"]
        on_bytes = search._matching_lines(text.encode(), page_filter)
        if pattern in EMPTY_MATCHES:
            assert on_bytes is search._EMPTY_MATCH, (pattern, page["page"])
        else:
            assert on_bytes == search._matching_lines_of_text(text, text.split("\n"), page_filter), (
                pattern, page["page"])


@pytest.mark.parametrize("pattern", [*(p for p in PATTERNS if p not in LINE_ANCHORED),
                                     r"zz\s+nothing", r"baz\s+zz", r"3\.5\s*\S", "e\\s*$"])
@pytest.mark.parametrize("context", [0, 2])
def test_the_pages_a_search_of_the_text_blob_leaves_out_match_nothing(pattern: str, context: int) -> None:
    from siftpdf.store.local_reader import TextBlob, encode_text

    regex = search.compile_pattern(pattern)
    page_filter = search.page_filter(regex)
    assert page_filter is not None
    blob = TextBlob.decode(encode_text(PAGES * 3))
    assert blob is not None
    every = list(blob.pages())
    assert every == PAGES * 3
    some = list(blob.pages(page_filter))
    assert _shown(list(search.grep_pages(some, regex, context))) == _shown(list(search.grep_pages(every, regex,
                                                                                                   context)))
    if pattern == "needle":
        assert [page["page"] for page in some] == [3, 3, 3]  # the others are not read
