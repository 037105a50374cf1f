"""The child's memory limit is real: a PDF that needs more fails as a typed result, and a limit
that cannot be enforced makes the command fail instead of running without it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import records, run_siftpdf

from siftpdf import system
from siftpdf.child import main as _child
from siftpdf.workers import runner

HOG_TEXT = b"hostile fixture page text"


@pytest.mark.check  # make check: a long run, about 7 s
def test_pdf_within_the_default_limit_is_read(memory_hog: Path) -> None:
    proc = run_siftpdf("pages", "1", str(memory_hog))
    assert proc.returncode == 0, proc.stderr
    assert HOG_TEXT in proc.stdout


def test_pdf_over_the_memory_limit_fails_typed(memory_hog: Path) -> None:
    proc = run_siftpdf("pages", "1", "--json", "--memory-limit", "256", str(memory_hog))
    assert proc.returncode == 4
    assert b"Traceback" not in proc.stderr
    assert b"256 MiB" in proc.stderr  # the user learns the limit was the cause
    error = [r for r in records(proc.stdout.decode()) if "error" in r and isinstance(r["error"], dict)]
    assert error and error[0]["error"]["code"] == "unreadable"


def _unenforceable_child() -> list[str]:
    """The real child, on a platform where RLIMIT_AS is not enforced (simulated)."""
    code = ("import sys, siftpdf.child.main as c, siftpdf.system as s; s.rlimit_enforced = lambda: False; "
            "sys.exit(c.main(sys.argv[1:]))")
    return [sys.executable, "-I", "-c", code]


def test_unenforceable_memory_limit_fails_the_command(run_cli, monkeypatch, fixtures: Path) -> None:
    monkeypatch.setattr(runner, "child_argv", _unenforceable_child)
    result = run_cli("pages", "1", "--json", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[-1]["error"]["code"] == "usage"
    assert "cannot be enforced" in out[-1]["error"]["message"]
    assert "alpha quantum lighthouse" not in result.stdout  # nothing was extracted without the limit


def test_no_memory_limit_asked_runs_there(run_cli, monkeypatch, fixtures: Path) -> None:
    monkeypatch.setattr(runner, "child_argv", _unenforceable_child)
    result = run_cli("pages", "1", "--memory-limit", "0", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 0
    assert "alpha quantum lighthouse" in result.stdout


def test_apply_limits_refuses_where_unenforceable(monkeypatch) -> None:
    monkeypatch.setattr(system, "rlimit_enforced", lambda: False)
    with pytest.raises(OSError, match="cannot be enforced"):
        _child.apply_limits(1 << 30, 0)
    _child.apply_limits(0, 0)  # no limit asked: nothing to refuse
