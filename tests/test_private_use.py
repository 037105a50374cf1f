"""Glyphs a PDF gives private-use code points: Adobe's expert fonts and Symbol font pieces (by
Adobe's glyph list), and the codes of a symbolic TrueType Symbol font, read as what they draw."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import siftpdf
from siftpdf.fonts import ADOBE_PRIVATE_USE, SYMBOL_FONT, adobe_read, symbol_font
from tests.make_fixtures import _stream, raw_pdf


def _cmap(ranges: list[tuple[int, int, int]]) -> bytes:
    """A ToUnicode CMap mapping each code range [first, last] from the code point ``to`` on."""
    lines = b"".join(b"<%02X> <%02X> <%04X>\n" % r for r in ranges)
    return (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Private def"
            b" /CMapType 2 def 1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"%d beginbfrange\n%sendbfrange endcmap CMapName currentdict /CMap defineresource pop end end"
            % (len(ranges), lines))


# An expert font's text as a producer maps it by glyph name: ASCII as itself, old-style figures
# from 0x80 ('zerooldstyle' U+F730), small capitals from 0x90 ('Asmall' U+F761), 0xAA the
# serif copyright sign (U+F6D9). A Word document's Symbol font maps code c to U+F000 + c; so
# does its Wingdings, whose codes are not Symbol's.
_EXPERT = _cmap([(0x20, 0x7E, 0x20), (0x80, 0x89, 0xF730), (0x90, 0xA9, 0xF761), (0xAA, 0xAA, 0xF6D9)])
_SYMBOLIC = _cmap([(0x20, 0xFE, 0xF020)])


def _page() -> bytes:
    content = (b"BT /F1 12 Tf 72 700 Td (a plane at \x83\x85,\x80\x80\x80 feet, in \x81\x89\x87\x89) Tj ET "
               b"BT /F1 12 Tf 72 680 Td (the \x9f\x90\xa1\x92 team at \x9f\x90\xa1\x92; \xaa Xerox) Tj ET "
               b"BT /F2 12 Tf 72 640 Td (\x61 \x3d \x62 \xb4 \x67) Tj ET "
               b"BT /F1 12 Tf 72 620 Td (where the angles are measured in degrees) Tj ET "
               b"BT /F3 12 Tf 72 600 Td (\xa7) Tj ET BT /F1 12 Tf 90 600 Td (a first point) Tj ET")
    return raw_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >> >> >>",
        _stream(content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Bembo-Expert /ToUnicode 8 0 R >>",
        b"<< /Type /Font /Subtype /TrueType /BaseFont /SymbolMT /ToUnicode 9 0 R >>",
        b"<< /Type /Font /Subtype /TrueType /BaseFont /Wingdings-Regular /ToUnicode 9 0 R >>",
        _stream(_EXPERT),
        _stream(_SYMBOLIC),
    ])


def _texts(data: bytes, **options: Any) -> str:
    return "\n".join(r["text"] for r in siftpdf.extract(data, **options) if "page" in r)


def test_old_style_figures_small_capitals_and_symbol_codes_read_as_what_they_draw(run_cli, tmp_path: Path) -> None:
    data = _page()
    for text in (_texts(data, raw=True), _texts(data)):
        assert "a plane at 35,000 feet, in 1979" in text
        assert "the parc team at parc; © Xerox" in text
    organized = _texts(data)
    assert "α = β × γ" in organized  # the Symbol font's codes, by its name
    assert "\uf0a7" in organized  # Wingdings' code is not Symbol's club
    path = tmp_path / "expert.pdf"
    path.write_bytes(data)
    found = run_cli("grep", "-c", "35,000 feet", str(path))
    assert found.exit_code == 0 and found.stdout.strip().endswith("1")


def test_the_tables_are_adobes_and_one_character_for_one() -> None:
    from pypdf._codecs.adobe_glyphs import adobe_glyphs
    from pypdf._codecs.symbol import _symbol_encoding

    by_name = {name.lstrip("/"): value for name, value in adobe_glyphs.items()}
    assert ADOBE_PRIVATE_USE[ord(by_name["Asmall"])] == "a" and ADOBE_PRIVATE_USE[ord(by_name["Zsmall"])] == "z"
    assert ADOBE_PRIVATE_USE[ord(by_name["Eacutesmall"])] == "é"
    assert ADOBE_PRIVATE_USE[ord(by_name["sevenoldstyle"])] == "7"
    assert ADOBE_PRIVATE_USE[ord(by_name["trademarkserif"])] == "™"
    assert ADOBE_PRIVATE_USE[ord(by_name["bracerightmid"])] == "⎬"
    # The Symbol font's codes as Adobe's table gives them, its pieces through the glyph list;
    # Delta, Omega and the angle brackets as the letters and mathematics' brackets.
    differ = {0x44: "Δ", 0x57: "Ω", 0xE1: "⟨", 0xF1: "⟩"}
    for code in range(0x20, 0xFF):
        adobe = _symbol_encoding[code]
        if code in differ:
            assert SYMBOL_FONT[0xF000 + code] == differ[code]
        elif 0xA0 <= code or code < 0x7F:
            if code in (0x60, 0xF0):  # the radical's extender and Apple's logo: nothing to read
                assert 0xF000 + code not in SYMBOL_FONT
            else:
                assert SYMBOL_FONT[0xF000 + code] == ADOBE_PRIVATE_USE.get(ord(adobe), adobe)
    assert all(len(c) == 1 for c in [*ADOBE_PRIVATE_USE.values(), *SYMBOL_FONT.values()])
    assert adobe_read("plain text 東京") == "plain text 東京"
    assert symbol_font("SymbolMT") and symbol_font("Symbol") and not symbol_font("Wingdings-Regular")
