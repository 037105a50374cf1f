"""The fuzz target: mutated PDFs end as typed results through the parent, and what ``make fuzz``
finds is kept as a regression recipe and replayed here."""

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
from siftpdf.runner import run_child

REGRESSIONS = fuzz_child.load_regressions()


def extract_typed(data: bytes) -> str:
    """What a user gets: ``ok`` with records, or a typed error's code. Anything else fails."""
    try:
        out = list(run_child(data, None, Limits(deadline=20.0)))
    except SiftError as error:
        return error.code
    assert "meta" in out[0] and "done" in out[-1]
    return "ok"


@pytest.mark.parametrize("case", REGRESSIONS or [pytest.param(None, marks=pytest.mark.skip("no regressions yet"))])
def test_fuzz_regression_ends_typed(case: dict[str, Any] | None) -> None:
    assert case is not None
    data = mutate.apply_all(fuzz_child.seed_bytes(case["seed"]), case["recipes"])
    assert extract_typed(data) in {"ok", "unreadable", "encrypted", "timeout", "too_large"}


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(sorted(fuzz_child.SEEDS)), recipe=fuzz_child.recipes())
def test_mutants_end_typed_through_the_parent(seed: str, recipe: list[dict[str, Any]]) -> None:
    data = mutate.apply_all(fuzz_child.seed_bytes(seed), recipe)
    assert extract_typed(data) in {"ok", "unreadable", "encrypted", "timeout", "too_large"}


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
