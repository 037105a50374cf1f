"""Layout of single pages from evidence built here: what is read, in what order, what is a
heading and what is set aside."""

from __future__ import annotations

from typing import Any

from siftpdf.markdown import page_markdown
from siftpdf.organize import organize_records
from siftpdf.settings import OrganizeOptions

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


def test_text_beside_the_page_is_not_read():
    # A page cut from a spread: the facing page's text lies beyond the right edge.
    lines = [line(700 - 12 * k, t, x0=40) for k, t in enumerate(prose(60, "here"))]
    lines += [line(700 - 12 * k, t, x0=340) for k, t in enumerate(prose(60, "beyond"))]
    out = organize([page(1, lines, width=320)])[0]
    assert "here0" in out["text"] and "beyond" not in out["text"]


def test_text_of_an_offset_crop_box_is_all_read():
    # Text that fits the page once shifted is measured from a crop box not at the origin.
    lines = [line(900 - 12 * k, t, x0=400) for k, t in enumerate(prose(60, "shown"))]
    out = organize([page(1, lines, width=400, height=600)])[0]
    assert "shown59" in out["text"]
