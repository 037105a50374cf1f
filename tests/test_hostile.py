"""Hostile PDFs end within the deadline as a typed result, leave no process behind, and keep the
parent's memory bounded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import make_hostile
import pytest
from conftest import FIXTURES, HERE, making, run_siftpdf

DEADLINE = 20.0
TYPED = {"ok": 0, "unreadable": 4, "timeout": 6, "too_large": 7}
# The flate bomb takes 9-11 s a run (make check: a long run); the others are quick.
HOSTILE = [pytest.param(name, marks=pytest.mark.check) if name == "flate_bomb" else name
           for name in make_hostile.HOSTILE]
PARENT_MIB = 150  # the parent holds the PDF bytes and one page at a time, never the inflated data


@pytest.fixture(scope="session")
def hostile() -> dict[str, Path]:
    with making():
        return make_hostile.write_all(FIXTURES / "hostile")


def probe(path: Path, *args: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, str(HERE / "probe.py"), str(path), "--deadline", str(DEADLINE), *args],
                          capture_output=True, timeout=DEADLINE + 60)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert b"Traceback" not in proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_pdf_ends_typed_without_leftovers(hostile: dict[str, Path], name: str) -> None:
    result = probe(hostile[name])
    assert result["outcome"] in TYPED, result
    assert result["seconds"] < DEADLINE + 10, result
    assert result["left_over"] == [], f"processes outlived the extraction: {result['left_over']}"
    assert result["children"] >= 1
    assert result["parent_peak_mib"] < PARENT_MIB, result
    if result["outcome"] == "ok":
        assert result["done"]["pages_processed"] >= 1


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_pdf_cli_reports_one_line_no_traceback(hostile: dict[str, Path], name: str) -> None:
    proc = run_siftpdf("pages", "1-", "--deadline", str(DEADLINE), str(hostile[name]), timeout=DEADLINE + 60)
    stderr = proc.stderr.decode()
    assert "Traceback" not in stderr
    assert proc.returncode in (0, 4, 5, 6, 7), stderr
    for line in stderr.splitlines():
        assert line.startswith(("siftpdf:", "hint:")), stderr


@pytest.mark.check  # make check: a flate bomb, about 9 s
def test_flate_bomb_salvages_the_readable_page(hostile: dict[str, Path]) -> None:
    proc = run_siftpdf("pages", "1-", "--json", "--deadline", str(DEADLINE), str(hostile["flate_bomb"]),
                       timeout=DEADLINE + 60)
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    pages = {r["page"]: r for r in records if "page" in r}
    assert pages[1]["status"] == "failed"
    assert "hostile fixture page text" in pages[2]["text"]
    done = next(r["done"] for r in records if "done" in r)
    assert done["pages_failed"] == 1 and sum(done["engines"].values()) == 1


def test_billion_page_claim_is_not_believed(hostile: dict[str, Path]) -> None:
    result = probe(hostile["billion_pages"])
    assert result["outcome"] == "ok"
    assert result["pages"] < 1000  # the tree holds one page; its /Count is a lie


def test_page_tree_and_outline_loops_terminate(hostile: dict[str, Path]) -> None:
    proc = run_siftpdf("extract", "--json", "--deadline", str(DEADLINE), str(hostile["page_tree_loop"]),
                       timeout=DEADLINE + 60)
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "hostile fixture page text" in out[1]["text"]
    # The outline item is its own sibling and child: listed once, not 10,000 times.
    assert [item["title"] for item in out[0]["meta"]["outline"]] == ["loop"]


def test_deadline_kills_a_slow_child_and_leaves_nothing(hostile: dict[str, Path]) -> None:
    """With a deadline shorter than the work, the result is a typed timeout, and the child is gone."""
    proc = subprocess.run([sys.executable, str(HERE / "probe.py"), str(hostile["flate_bomb"]), "--deadline", "0.3"],
                          capture_output=True, timeout=60)
    result = json.loads(proc.stdout)
    assert result["outcome"] == "timeout"
    assert result["left_over"] == []
