"""The fuzz target: mutated PDFs end as typed results through the parent, and what ``make fuzz``
finds is kept as a regression recipe and replayed here, with the cases kept by hand for the
recovery path they take (tests/fuzz_regressions.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fuzz_child
import mutate
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from siftpdf.errors import SiftError
from siftpdf.options import Limits
from siftpdf.workers.runner import run_child

REGRESSIONS = fuzz_child.load_regressions()
TYPED = {"unreadable", "encrypted", "timeout", "too_large"}


def extract_statuses(data: bytes) -> list[str] | str:
    """What a user gets: the pages' statuses, or a typed error's code. Anything else fails."""
    try:
        out = list(run_child(data, None, Limits(deadline=20.0)))
    except SiftError as error:
        return error.code
    assert "meta" in out[0] and "done" in out[-1]
    return [record["status"] for record in out if "page" in record]


def extract_typed(data: bytes) -> str:
    outcome = extract_statuses(data)
    return "ok" if isinstance(outcome, list) else outcome


def test_the_regressions_are_there_to_replay() -> None:
    assert REGRESSIONS, "tests/fuzz_regressions.json holds no case: the replay below would test nothing"
    for case in REGRESSIONS:
        assert case["seed"] in fuzz_child.SEEDS and case["recipes"], case


@pytest.mark.parametrize("case", REGRESSIONS, ids=[case["detail"][:60] for case in REGRESSIONS])
def test_fuzz_regression_ends_typed(case: dict[str, Any]) -> None:
    seed = fuzz_child.seed_bytes(case["seed"])
    data = mutate.apply_all(seed, case["recipes"])
    assert data != seed  # the recipe still finds what it damages
    outcome = extract_statuses(data)
    expect = case.get("expect")  # what was read when the case was kept; the fuzzer's own keep none
    if isinstance(expect, str):
        assert outcome == expect
    elif expect is not None:  # the same pages; each one read then is read still
        assert isinstance(outcome, list) and len(outcome) == len(expect), outcome
        assert all(got == "text" for got, was in zip(outcome, expect, strict=True) if was == "text"), outcome
    else:
        assert isinstance(outcome, list) or outcome in TYPED


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(sorted(fuzz_child.SEEDS)), recipe=fuzz_child.recipes())
def test_mutants_end_typed_through_the_parent(seed: str, recipe: list[dict[str, Any]]) -> None:
    data = mutate.apply_all(fuzz_child.seed_bytes(seed), recipe)
    assert extract_typed(data) in {"ok", *TYPED}


def test_a_failure_becomes_a_regression_recipe(tmp_path: Path, monkeypatch) -> None:
    """Simulate a child that breaks its contract on truncated input: the fuzzer reports it and
    stores a recipe that rebuilds the input."""
    monkeypatch.setattr(fuzz_child, "REGRESSIONS", tmp_path / "regressions.json")

    def fragile(data: bytes) -> tuple[str, str]:
        return ("crash", "simulated") if not data.rstrip().endswith(b"%%EOF") else ("ok", "")

    monkeypatch.setattr(fuzz_child, "run_child_entry", fragile)
    assert fuzz_child.fuzz(seconds=0.1, examples_per_round=30) == 1
    saved = json.loads((tmp_path / "regressions.json").read_text())
    assert saved and saved[0]["found"] == "crash"
    rebuilt = mutate.apply_all(fuzz_child.seed_bytes(saved[0]["seed"]), saved[0]["recipes"])
    assert fragile(rebuilt)[0] == "crash"
