"""Letter-spaced words read whole (siftpdf.child.spacing): code set glyph by glyph, with extra
room between its letters or with a space after each letter that the next one steps back over,
reads as pdftotext reads it, in ``--raw``, in the organized page and in ``siftpdf grep``; text
spaced as usual keeps every space it had."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import jsonschema
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

import siftpdf
from siftpdf.child import evidence, spacing
from siftpdf.docstream import schema

CODE = "unsigned char e_ident[EI_NIDENT];"
COURIER = 6.0  # points: Courier's advance at 10 points


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _glyph_by_glyph(c: canvas.Canvas, x: float, y: float, text: str, font: str, size: float,
                    tracking: float) -> None:
    """Each glyph placed on its own (one text object each), ``tracking`` points apart beyond
    its advance; no space glyphs: the spaces are room left."""
    for char in text:
        if char != " ":
            c.setFont(font, size)
            c.drawString(x, y, char)
        x += pdfmetrics.stringWidth(char, font, size) + tracking


def _kerned(c: canvas.Canvas, x: float, y: float, text: str, tracking: float) -> None:
    """One TJ array in Courier 10 whose every glyph is moved ``tracking`` points on."""
    t = c.beginText(x, y)
    t.setFont("Courier", 10)
    moves = " ".join(f"({_escaped(char)}) {-tracking * 100:g}" for char in text)
    t._code.append(f"[{moves}] TJ")
    c.drawText(t)


def _stepping_back(c: canvas.Canvas, x: float, y: float, text: str) -> None:
    """troff's listings: each letter drawn with a space after it, the next letter drawn half
    a point before that space begins; a word space moves on by five points more."""
    t = c.beginText(x, y)
    t.setFont("Courier", 10)
    for char in text:
        if char == " ":
            x += 5.0
            continue
        t.setTextOrigin(x, y)
        t.textOut(char + " ")
        x += COURIER - 0.5
    c.drawText(t)


def _pdf(draw: Any) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(612, 792))
    draw(c)
    c.showPage()
    c.save()
    return buf.getvalue()


def _code_listing(c: canvas.Canvas) -> None:
    y = 720.0
    for tracking in (1.0, 2.0, 3.0):
        _glyph_by_glyph(c, 72, y, CODE, "Courier", 10, tracking)
        y -= 24
    for tracking in (1.5, 3.0):
        _kerned(c, 72, y, CODE, tracking)
        y -= 24
    _stepping_back(c, 72, y, CODE)


CODE_LINES = 6


def _texts(data: bytes, **options: Any) -> tuple[str, list[dict[str, Any]]]:
    pages = [record for record in siftpdf.extract(data, **options) if "page" in record]
    return "\n".join(page["text"] for page in pages), pages


def test_letter_spaced_code_reads_as_pdftotext_reads_it_raw_and_organized() -> None:
    data = _pdf(_code_listing)
    raw, _ = _texts(data, raw=True)
    assert raw.split("\n") == [CODE] * CODE_LINES
    organized, _ = _texts(data)
    assert organized.count(CODE) == CODE_LINES
    assert "e _ i" not in organized and "u n s" not in organized


def test_grep_finds_every_letter_spaced_identifier(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "listing.pdf"
    path.write_bytes(_pdf(_code_listing))
    result = run_cli("grep", "-o", "e_ident", str(path))
    assert result.exit_code == 0 and result.stdout.count("e_ident") == CODE_LINES
    assert run_cli("grep", "-o", "-w", "unsigned", str(path)).stdout.count("unsigned") == CODE_LINES


def test_the_evidence_runs_hold_the_words_and_their_wide_gaps_still_fit() -> None:
    """The marks of the spaces that part nothing leave the runs; a wide gap's offset is moved
    back by the marks before it."""
    records = list(siftpdf.extract(_pdf(_code_listing), settings=["output.evidence=true"]))
    runs = [run for record in records if "page" in record for line in record["evidence"]["lines"]
            for run in line["runs"]]
    text = " ".join(run["text"] for run in runs)
    assert spacing.MARK not in text and text.count("e_ident[EI_NIDENT];") == CODE_LINES
    run = {"text": f"a{spacing.MARK}b{spacing.MARK}c d{spacing.MARK}e", "gaps": [[5, 10.0, 30.0]]}
    evidence._unmark(run)
    assert run == {"text": "abc de", "gaps": [[3, 10.0, 30.0]]}


def test_a_word_in_two_colours_reads_whole_in_the_organized_page() -> None:
    """Highlighted code: a letter-spaced word whose brackets are set in another colour is two
    runs of the evidence, the second marked joined; the organized line reads the word whole, as
    ``--raw`` does."""
    def highlighted(c: canvas.Canvas) -> None:
        x = 72.0
        for char in "e_ident[EI_NIDENT];":
            c.setFillColorRGB(0.8 if char in "[];" else 0, 0, 0)
            c.setFont("Courier", 10)
            c.drawString(x, 700, char)
            x += COURIER + 2

    data = _pdf(highlighted)
    raw, _ = _texts(data, raw=True)
    organized, pages = _texts(data, settings=["output.evidence=true"])
    assert raw == organized == "e_ident[EI_NIDENT];"
    runs = [run for line in pages[0]["evidence"]["lines"] for run in line["runs"]]
    assert [run["text"] for run in runs] == ["e_ident", "[", "EI_NIDENT", "];"]
    assert [run.get("joined", False) for run in runs] == [False, True, True, True]
    jsonschema.Draft202012Validator(schema()).validate(pages[0])


def _ordinary(c: canvas.Canvas) -> None:
    c.setFont("Helvetica", 11)
    c.drawString(72, 720, "Let x y z w be the points of a b c d here.")
    c.drawString(72, 700, "a b c d e f")
    c.setFont("Courier", 10)
    c.drawString(72, 680, "a b c d e f")
    c.drawString(72, 660, "int x = a + b ;")
    _glyph_by_glyph(c, 72, 640, "The quick brown fox is a b c d e as set.", "Helvetica", 11, 0.0)
    _glyph_by_glyph(c, 72, 620, "Set in Times a b c d as usual.", "Times-Roman", 11, 0.0)
    for column, digit in enumerate("1234"):  # a table row of one-digit cells
        c.drawString(72 + 60 * column, 600, digit)


ORDINARY = ["Let x y z w be the points of a b c d here.", "a b c d e f", "a b c d e f", "int x = a + b ;",
            "The quick brown fox is a b c d e as set.", "Set in Times a b c d as usual.", "1 2 3 4"]


def test_ordinary_spacing_keeps_every_space() -> None:
    data = _pdf(_ordinary)
    raw, _ = _texts(data, raw=True)
    assert raw.split("\n") == ORDINARY
    organized, _ = _texts(data)
    for line in ORDINARY:
        assert line in organized or line == "1 2 3 4", line
    assert organized.split().count("1") == 1 and organized.split().count("4") == 1


def test_a_letter_spaced_title_in_a_proportional_font_reads_as_words() -> None:
    def title(c: canvas.Canvas) -> None:
        _glyph_by_glyph(c, 72, 720, "THE QUICK BROWN FOX JUMPS", "Helvetica-Bold", 14, 2.5)

    raw, _ = _texts(_pdf(title), raw=True)
    assert raw == "THE QUICK BROWN FOX JUMPS"


def test_a_change_of_font_parts_words() -> None:
    """'in e _ i d e n t': the space between a word of the text and letter-spaced code is
    narrow, but the font changes there."""
    def mixed(c: canvas.Canvas) -> None:
        c.setFont("Times-Roman", 10)
        c.drawString(72, 720, "For identification in")
        start = 72 + pdfmetrics.stringWidth("For identification in", "Times-Roman", 10) + 1.9
        _stepping_back(c, start, 720, "e_ident, the")

    raw, _ = _texts(_pdf(mixed), raw=True)
    assert raw.startswith("For identification in e_ident,")


def test_cjk_text_keeps_its_spaces() -> None:
    """CJK sets no spaces: each one it has is kept, even between glyphs of one advance set
    closer than half of it (in a Latin monospaced font, letter spacing)."""
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))

    def cjk(c: canvas.Canvas) -> None:
        c.setFont("STSong-Light", 12)
        c.drawString(72, 720, "中 文 字 符 的 文 本 a b c")
        c.drawString(72, 700, "第 一 章 总 则")

    raw, _ = _texts(_pdf(cjk), raw=True)
    assert raw.split("\n") == ["中 文 字 符 的 文 本 a b c", "第 一 章 总 则"]


def test_cjk_characters_each_drawn_with_a_space_the_next_one_covers_read_whole(run_cli, tmp_path: Path) -> None:
    """A producer that writes each CJK character with a space after it and sets the next
    character where that space begins: the spaces take no room and part nothing (raw,
    organized and grep), while the real gap of a name padded to its column stays."""
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))

    def each_with_a_space(c: canvas.Canvas) -> None:
        for y, line in ((720, "关于红军作战的原则"), (700, "（一九三七年八月一日）")):
            t = c.beginText(72, y)
            t.setFont("STSong-Light", 12)
            x = 72.0
            for char in line:
                t.setTextOrigin(x, y)
                t.textOut(char + " ")
                x += pdfmetrics.stringWidth(char, "STSong-Light", 12)
            c.drawText(t)
        c.setFont("STSong-Light", 12)
        c.drawString(72, 680, "李 艳 吴玉峰")

    data = _pdf(each_with_a_space)
    raw, _ = _texts(data, raw=True)
    assert raw.split("\n") == ["关于红军作战的原则", "（一九三七年八月一日）", "李 艳 吴玉峰"]
    organized, _ = _texts(data)
    assert "关于红军作战的原则" in organized and "（一九三七年八月一日）" in organized
    path = tmp_path / "cjk.pdf"
    path.write_bytes(data)
    assert run_cli("grep", "-o", "红军", str(path)).stdout.count("红军") == 1


def test_pages_without_one_letter_tokens_cost_one_search() -> None:
    assert not spacing.letter_spaced("An ordinary line of text, with a word or two.\r\nAnd a second one.")
    assert spacing.letter_spaced("u n s i g n e d")
    assert spacing.letter_spaced("Declaration for m a i n, as")
    assert spacing.letter_spaced("the r e t instruction")


def test_a_stretch_runs_over_short_tokens_to_the_long_ones_that_end_it() -> None:
    text = "identification in e _ i d e n t, the f s t a t(BA_OS) call\r\nx y z"
    first = text.index("e _")
    tokens = [text[start:end] for start, end in spacing._stretch(text, first)]
    assert tokens == ["identification", "in", "e", "_", "i", "d", "e", "n", "t,", "the", "f", "s", "t", "a",
                      "t(BA_OS)"]
    last = text.index("x y")
    assert [text[start:end] for start, end in spacing._stretch(text, last)] == ["x", "y", "z"]


def test_monospaced_faces_are_known_by_their_names() -> None:
    from siftpdf.fonts import monospaced

    for name in ("Courier-Bold", "NimbusMonL-Regu", "NimbusMonoPS-Regular", "AnonymousPro", "Iosevka-Term",
                 "Monaco", "SFMono-Regular", "CMTT10", "Inconsolata"):
        assert monospaced(name), name
    for name in ("Times-Roman", "NimbusRomNo9L-Regu", "NimbusSanL-Regu", "LinLibertine", "Helvetica"):
        assert not monospaced(name), name
