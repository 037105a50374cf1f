"""Organization is a pure, streaming function over evidence: no PDF, bounded look-ahead."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import records, run_siftpdf

from siftpdf.organize import organize_records, template
from siftpdf.organize.layout import join_text
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


# --- a page whose organization fails falls back to its raw text ---------------------------

def _fault_on_page_3(monkeypatch, step: str, exc: BaseException) -> None:
    """Make one step of organization fail for page 3 only."""
    import siftpdf.organize as organize

    real = getattr(organize, step)
    page_of = {
        "_prepare": lambda record, *_: record["page"],
        "_organize": lambda page, *_: page.number,
        "_continue": lambda before, after, *_: after.number,
        "render_blocks": lambda blocks: blocks[0].spans[0]["page"] if blocks else None,
    }[step]

    def failing(*args: Any) -> Any:
        if page_of(*args) == 3:
            raise exc
        return real(*args)

    monkeypatch.setattr(organize, step, failing)


@pytest.mark.replaces_organize
@pytest.mark.parametrize("step", ["_prepare", "_organize", "_continue", "render_blocks"])
def test_a_failing_page_falls_back_to_its_raw_text(monkeypatch, step):
    _fault_on_page_3(monkeypatch, step, ValueError("bad geometry"))
    out = list(organize_records(_stream(5, []), OrganizeOptions()))
    pages = [r for r in out if "page" in r]
    assert [p["page"] for p in pages] == [1, 2, 3, 4, 5]
    failed = pages[2]
    assert failed["text"] == "raw" and failed["organize_error"] == "ValueError: bad geometry"
    assert not failed.get("blocks") and not failed.get("furniture") and "evidence" not in failed
    for page in pages[:2] + pages[3:]:
        assert "organize_error" not in page and page["blocks"]
        assert "Harbour Review" not in page["text"] and page["text"] != "raw"
    assert out[-1]["done"]["organize_fallbacks"] == 1


@pytest.mark.replaces_organize
def test_fallback_reads_saved_raw_text_and_cuts_a_long_message(monkeypatch):
    _fault_on_page_3(monkeypatch, "_organize", RecursionError("x" * 5000))

    def saved() -> Iterator[dict[str, Any]]:
        for record in _stream(5, []):
            if "page" in record:
                record["evidence"]["raw_text"], record["text"] = f"raw {record['page']}", "organized before"
            yield record

    out = list(organize_records(saved(), OrganizeOptions(evidence=True)))
    failed = next(r for r in out if r.get("page") == 3)
    assert failed["text"] == "raw 3" and failed["evidence"]["raw_text"] == "raw 3"
    assert failed["organize_error"].startswith("RecursionError: xxx") and len(failed["organize_error"]) <= 300


def test_no_fallbacks_is_counted_as_zero():
    out = list(organize_records(_stream(5, []), OrganizeOptions()))
    assert out[-1]["done"]["organize_fallbacks"] == 0


@pytest.mark.replaces_organize
def test_a_failing_page_through_the_cli_and_the_child(monkeypatch, fixtures):
    from click.testing import CliRunner

    from siftpdf.cli import cli

    _fault_on_page_3(monkeypatch, "_organize", ValueError("bad geometry"))
    result = CliRunner().invoke(cli, ["extract", "--max-pages", "6", str(fixtures / "long.pdf")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = records(result.output)
    pages = [r for r in out if "page" in r]
    assert [p["page"] for p in pages] == [1, 2, 3, 4, 5, 6]
    assert pages[2]["organize_error"] == "ValueError: bad geometry"
    assert pages[2]["text"].startswith("Long report page 3.") and "blocks" not in pages[2]
    assert all(p["blocks"] for p in pages if p["page"] != 3)
    assert out[-1]["done"]["organize_fallbacks"] == 1
    validator = _docstream_validator()
    assert all(validator.is_valid(record) for record in out)


def _docstream_validator() -> Any:
    import json
    from pathlib import Path

    import jsonschema

    import siftpdf

    schema = json.loads((Path(siftpdf.__file__).parent / "schema" / "docstream.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)
