"""Every command's --json output is valid against the one shipped schema."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from conftest import records

from siftpdf.docstream import schema


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema())
    return jsonschema.Draft202012Validator(schema())


def _json_outputs(fixtures: Path, run_cli) -> dict[str, str]:
    three, outline = str(fixtures / "three_page.pdf"), str(fixtures / "outline.pdf")
    return {
        "extract": run_cli("extract", outline).stdout,
        "extract --json": run_cli("extract", "--json", three).stdout,
        "extract --cap": run_cli("extract", "--cap", "2000", str(fixtures / "long.pdf")).stdout,
        "pages --json": run_cli("pages", "--json", "2-3", three).stdout,
        "grep --json": run_cli("grep", "--json", "phrase", three).stdout,
        "map --json": run_cli("map", "--json", outline).stdout,
        "map --json (long)": run_cli("map", "--json", str(fixtures / "long.pdf")).stdout,
        "sniff --json": run_cli("sniff", "--json", three).stdout,
        "sniff --json (text)": run_cli("sniff", "--json", str(fixtures / "not_a_pdf.txt")).stdout,
        "extract (encrypted)": run_cli("extract", str(fixtures / "encrypted_user.pdf")).stdout,
        "extract (scanned)": run_cli("extract", str(fixtures / "scanned.pdf")).stdout,
        "pages --json (bad range)": run_cli("pages", "--json", "9", three).stdout,
        "digest --json": run_cli("digest", "--json", "-q", "velvet mountain", three).stdout,
        "cache info --json": run_cli("cache", "info", "--json").stdout,
        "engine status --json": run_cli("engine", "status", "--json").stdout,
    }


@pytest.mark.check  # make check: a long run, about 4 s
def test_every_json_output_validates(fixtures: Path, run_cli, validator) -> None:
    for name, output in _json_outputs(fixtures, run_cli).items():
        lines = records(output)
        assert lines, name
        for line in lines:
            errors = list(validator.iter_errors(line))
            assert not errors, f"{name}: {line} -> {errors[0].message}"


def test_schema_rejects_what_breaks_the_contract(validator) -> None:
    assert not validator.is_valid({"page": 1, "status": "text"})  # a text page without text
    assert not validator.is_valid({"page": 0, "text": "", "status": "text"})
    assert not validator.is_valid({"page": 1, "status": "failed", "text": ""})  # failed without error
    assert not validator.is_valid({"meta": {"format": 2}})
    assert not validator.is_valid({"error": {"code": "oops", "status": 500, "message": "", "hint": None}})
    assert not validator.is_valid({"engine_status": {"siftpdf": "1", "engines": []}})  # no memory_limit, cache
    done = {"pages_processed": 1, "pages_failed": 0, "page_limit_reached": False, "clipped_chars": 0,
            "unmapped_chars": 0, "elapsed_ms": 1}
    assert validator.is_valid({"done": {**done, "cut": {"before_page": 2, "cap": 2000}}})
    assert not validator.is_valid({"done": {**done, "cut": {"before_page": 0, "cap": 2000}}})


def test_doc_stream_order(fixtures: Path, run_cli) -> None:
    lines = records(run_cli("extract", str(fixtures / "three_page.pdf")).stdout)
    assert list(lines[0]) == ["meta"] and list(lines[-1]) == ["done"]
    assert [line["page"] for line in lines[1:-1]] == [1, 2, 3]
