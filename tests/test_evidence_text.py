"""The page text's cleaning and readability tests, and the word gaps of a run, give what
their plain definitions give: the shortcuts that make them cheap change nothing."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from siftpdf.child import evidence
from siftpdf.child.engines import clean_text

_ALPHABET = [chr(code) for code in range(0, 200)] + list("—–é你好\u2028\xa0\u3000\ufffe\ud800\U0001f600")


def _strings(seed: int, count: int, longest: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, longest))) for _ in range(count)]


def test_clean_text_is_the_translation_it_replaces() -> None:
    fixes = str.maketrans({"\r": None, "\x00": None, "\x02": "-", "\ufffe": "-"})
    for text in _strings(1, 5000, 30):
        expected = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").translate(fixes).split("\n"))
        assert clean_text(text) == expected.strip("\n")


# The classes looks_unreadable counts, as patterns: its plain definition.
SPACE = r"\s"
UNREADABLE = r"[^\w\s.,;:!?()\[\]'\"\-–—/%&，。、；：！？（）《》「」“”]|_"


def test_the_unreadable_class_is_the_pattern_in_every_code_point() -> None:
    space, unreadable = re.compile(SPACE), re.compile(UNREADABLE)
    for code in range(0x110000):
        char = chr(code)
        assert evidence.unreadable_char(char) == bool(unreadable.match(char)), hex(code)
        assert char.isspace() == bool(space.match(char)), hex(code)


def test_looks_unreadable_counts_as_its_regexes_do() -> None:
    """The byte tables that settle most pages, and the count over distinct characters (no re,
    which the child does not import), class text as the patterns do, and the answer is the
    patterns' own."""
    space, unreadable = re.compile(SPACE), re.compile(UNREADABLE)
    assert evidence._ASCII_SPACE == bytes(b for b in range(128) if space.match(chr(b)))
    assert evidence._ASCII_UNREADABLE == bytes(b for b in range(128) if unreadable.match(chr(b)))
    rng = random.Random(2)
    for text in _strings(3, 20000, 14):
        found = {"unmapped_chars": rng.randint(0, 8)} if rng.random() < 0.3 else None
        visible = len(text) - len(space.findall(text))
        unmapped = found["unmapped_chars"] if found else 0
        expected = bool(visible) and (len(unreadable.findall(text)) > 0.5 * visible
                                      or unmapped > 0.5 * visible)
        assert evidence.looks_unreadable(text, found) == expected, (text, found)


def _gaps_one_by_one(boxes: dict[int, tuple[float, float]], first: int, text: str, size: float,
                     budget: int) -> list[list[float]]:
    """The reference: two glyph boxes measured for every space, two probes counted each; a
    narrower gap counts between two figures, and in a run of a few words."""
    out: list[list[float]] = []
    index = text.find(" ")
    while index > 0 and budget > 0:
        end = index + 1
        while end < len(text) and text[end] == " ":
            end += 1
        if end >= len(text):
            break
        budget -= 2
        before, after = boxes.get(first + index - 1), boxes.get(first + end)
        figures = text[index - 1] in evidence.FIGURE_ENDS and text[end] in evidence.FIGURE_STARTS
        short = text.count(" ") <= evidence.SHORT_RUN_SPACES
        wide = (evidence.FIGURE_GAP_EM if figures else evidence.SHORT_GAP_EM if short else evidence.GAP_EM) * size
        if before and after and after[0] - before[1] >= wide:
            out.append([index, round(before[1], 2), round(after[0], 2)])
        index = text.find(" ", end)
    return out


def test_gaps_are_measured_as_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(4)
    probe = evidence._PROBE
    for _ in range(2000):
        words = [rng.choice(["a", "I", "7", "word", "table", "-"]) for _ in range(rng.randint(1, 12))]
        text = "".join(w + " " * rng.choice([1, 1, 1, 2, 5]) for w in words).rstrip()
        first = rng.randint(0, 50)
        x = 0.0
        boxes: dict[int, tuple[float, float]] = {}
        for offset, char in enumerate(text):  # a glyph box each, some missing (the call fails)
            width = 5.0 if char != " " else rng.choice([2.5, 9.0])
            if rng.random() > 0.05:
                boxes[first + offset] = (x, x + width)
            x += width + rng.choice([0.0, 0.0, 3.0])

        def loose_box(_tp: Any, index: int, _ref: Any, boxes: dict[int, tuple[float, float]] = boxes) -> int:
            if index not in boxes:
                return 0
            probe.rect.left, probe.rect.right = boxes[index]
            return 1

        monkeypatch.setattr(evidence, "LOOSE_CHAR_BOX", loose_box)
        budget = rng.choice([8000, 8000, 5, 2, 0])
        probe.gap_probes = budget
        assert evidence._gaps(None, first, text, 10.0) == _gaps_one_by_one(boxes, first, text, 10.0, budget)  # type: ignore[arg-type]
        spaces = len(re.findall(" +", text))
        assert probe.gap_probes == budget - 2 * min(spaces, max(0, (budget + 1) // 2))


def _page(runs: list[tuple[str, str, int]]) -> dict[str, Any]:
    """A page record whose evidence holds ``runs`` (text, font, unmapped glyphs), one a line."""
    lines = [{"y": 700.0 - 14 * k, "size": 10.0,
              "runs": [{"text": text, "font": font, "size": 10.0, "color": "#000000",
                        "box": [72.0, 698.0 - 14 * k, 72.0 + 5 * len(text), 708.0 - 14 * k],
                        **({"unmapped": unmapped} if unmapped else {})}]}
             for k, (text, font, unmapped) in enumerate(runs)]
    return {"page": 1, "status": "text", "text": "", "evidence": {"lines": lines, "unmapped_chars": 1}}


def test_text_read_again_by_ocr_is_the_codes_not_the_flagged_words() -> None:
    """Of the runs PDFium flags as unmapped, OCR reads again those whose text is codes: a font
    numbered in order of use (found on a page, then known on the pages after it), characters no
    script writes; words a flagged font still spells, and a TeX math font's symbols, stay."""
    from siftpdf.child.ocrpage import _unread_runs

    body = [(f"the body of the page, line {k}, reads as it should", "Times-Roman", 0) for k in range(12)]
    first = _page([('!"#$%&\'', "Arial.Bold091", 7), ("'()*+($,-./-0", "Arial.Bold091", 13), *body])
    later = _page([("K1>/*)$QR", "Arial.Bold091", 9), ("http://example.org/page", "Courier", 23),
                   ("\x01\x03\x05\x04\x07", "T3Font", 5), ("\x03\x03\x03", "CMEX10", 3), *body])
    known: set[str] = set()
    assert _unread_runs(later, set()) == (False, [later["evidence"]["lines"][2]["runs"][0]])
    whole, runs = _unread_runs(first, known)
    assert not whole and [run["text"] for run in runs] == ['!"#$%&\'', "'()*+($,-./-0"]
    assert known == {"Arial.Bold091"}
    assert [run["text"] for run in _unread_runs(later, known)[1]] == ["K1>/*)$QR", "\x01\x03\x05\x04\x07"]
    codes = _page([(f"\x01\x02{k}\x04\x05 \x06\x07", "", 7) for k in range(20)])
    assert _unread_runs(codes, set()) == (True, [])


def _run(text: str, x0: float, y: float, size: float) -> dict[str, Any]:
    return {"text": text, "font": "Helvetica", "size": size, "color": "#000000",
            "box": [x0, y - 0.2 * size, x0 + 0.5 * size * len(text), y + 0.8 * size], "y": y}


def _line_texts(runs: list[dict[str, Any]]) -> list[str]:
    return [" ".join(run["text"] for run in line["runs"]) for line in evidence._lines(runs)]


def test_a_caution_sign_set_large_takes_no_lines_of_text_as_its_scripts() -> None:
    # A tax form's '!' sign, set at 17 points in the margin of a note's lines at 9.5: the
    # lines a baseline above and below it, within its reach, are lines of their own, not its
    # superscript and subscript (which read the two lines as one, word by word in turn).
    # (Two of them are runs drawn across the page's three columns.)
    runs = [_run("!", 233, 714.2, 16.92), _run("additional tax if you received a", 253, 716.7, 9.5),
            {**_run("own if you received Form 1042-S. You is", 42, 722.0, 9.5), "box": [42, 720, 547, 729]},
            {**_run("may owe an additional tax if you teacher", 42, 712.0, 9.5), "box": [42, 710, 568, 719]}]
    texts = _line_texts(runs)
    assert "!" in texts and "additional tax if you received a" in texts


def test_a_large_symbols_limits_and_a_bracket_beside_one_line_are_still_its_scripts() -> None:
    # A sum's limits, a few characters above and below it; a bracket drawn large beside one
    # line of a formula: joined to the symbol's line, as before.
    limits = [_run("∑", 100, 500, 16.0), _run("n", 103, 508, 7.0), _run("k", 103, 496, 7.0)]
    assert _line_texts(limits) == ["∑ n k"]
    bracket = [_run("(", 100, 500, 16.0), _run("the sum of the terms over all", 108, 502, 9.5)]
    assert _line_texts(bracket) == ["( the sum of the terms over all"]
