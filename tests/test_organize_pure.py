"""Organization is a pure, streaming function over evidence: no PDF, bounded look-ahead."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from conftest import records, run_siftpdf

from siftpdf.layout import join_text
from siftpdf.organize import organize_records, template
from siftpdf.settings import OrganizeOptions


def _line(y: float, text: str, x0: float = 72.0, size: float = 10.0) -> dict[str, Any]:
    width = 5.0 * len(text)
    run = {"text": text, "font": "Times-Roman", "size": size, "color": "#000000",
           "box": [x0, y - 2, x0 + width, y + size - 2]}
    return {"y": y, "size": size, "runs": [run]}


def _page(n: int) -> dict[str, Any]:
    body = [_line(700 - 12 * k, f"body line {k} of page {n} with enough words to reach the edge") for k in range(8)]
    lines = [_line(760, "The Harbour Review"), *body, _line(40, f"— {n} —", x0=290)]
    evidence = {"width": 612, "height": 792, "rotation": 0, "lines": lines, "images": [],
                "clipped_chars": 0, "unmapped_chars": 0}
    return {"page": n, "text": "raw", "status": "text", "evidence": evidence}


def _stream(pages: int, consumed: list[int]) -> Iterator[dict[str, Any]]:
    yield {"meta": {"pages": pages, "max_pages": 2000}}
    for n in range(1, pages + 1):
        consumed.append(n)
        yield _page(n)
    yield {"done": {"pages_processed": pages}}


def test_templates_collapse_ascii_and_full_width_digits():
    assert template("— ５６ —") == template("— ５７ —") == template("— 12 —")
    assert template("Page 3 of 11") == template("Page 10 of 11")
    assert template("Chapter one") != template("Chapter two")


def test_furniture_from_evidence_alone():
    consumed: list[int] = []
    out = [r for r in organize_records(_stream(6, consumed), OrganizeOptions()) if "page" in r]
    for page in out:
        assert {f["kind"] for f in page["furniture"]} == {"header", "page_number"}
        assert "Harbour Review" not in page["text"] and "—" not in page["text"]


def test_pages_come_out_before_the_document_ends():
    consumed: list[int] = []
    opts = OrganizeOptions(window=2)
    stream = organize_records(_stream(50, consumed), opts)
    next(stream)  # meta
    first = next(stream)
    assert first["page"] == 1
    assert len(consumed) <= opts.window + 3  # a bounded window, never the whole document


def test_cjk_and_hyphen_joins():
    assert join_text("第三条 国家广播电视总局负责", "全国广播电视节目传送业务的管理。") == \
        "第三条 国家广播电视总局负责全国广播电视节目传送业务的管理。"
    assert join_text("the algorithm is de-", "signed to run") == "the algorithm is designed to run"
    assert join_text("Section 2-", "Background") == "Section 2- Background"  # not a word break
    assert join_text("line one", "line two") == "line one line two"


def test_saved_evidence_reorganized_through_real_pipes(fixtures):
    saved = run_siftpdf("extract", "--set", "output.evidence=true", str(fixtures / "paper_2col.pdf"))
    assert saved.returncode == 0
    again = run_siftpdf("pages", "2", "--set", "organize.furniture=false", input=saved.stdout)
    assert again.returncode == 0
    assert "Journal of Synthetic Results" in again.stdout.decode()
    organized = run_siftpdf("pages", "2", "--json", input=saved.stdout)
    page = [r for r in records(organized.stdout.decode()) if "page" in r][0]
    assert page["furniture"] and "Journal of Synthetic Results" not in page["text"]
