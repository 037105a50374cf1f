"""Patterns compiled on first use, from the compiled forms kept in siftpdf/_sre_codes.py: the
same pattern objects as ``re.compile``'s, and a cold command that organizes its pages without
importing ``re`` (nor ``json`` or ``enum``, which came with it)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import siftpdf
from siftpdf import lazyre

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import patterns as tools_patterns  # noqa: E402


def test_the_kept_codes_are_what_the_tool_writes_for_every_lazy_pattern() -> None:
    """A pattern added or changed without `make docs` would be compiled by re at every command;
    a pattern a caller makes (this test's) is not the package's and is not kept."""
    lazyre.lazy(r"made by a test (\d+)")
    assert tools_patterns.TARGET.read_text(encoding="utf-8") == tools_patterns.render(), \
        "siftpdf/_sre_codes.py is stale: run `make docs`"


def test_every_kept_pattern_is_the_pattern_re_compiles() -> None:
    import _sre

    stored = lazyre.stored_codes()
    made = {(pattern._source, pattern._flags) for pattern in lazyre.MADE if pattern._module.startswith("siftpdf.")}
    assert made and made <= set(stored)  # every pattern of the imported modules is kept
    for (source, flags), (all_flags, code, groups, groupindex, indexgroup) in stored.items():
        built = _sre.compile(source, all_flags, list(code), groups, dict(groupindex), indexgroup)
        assert built == re.compile(source, flags), source  # equal: same source, flags and code
        assert (built.groups, dict(built.groupindex)) == (re.compile(source, flags).groups,
                                                          dict(re.compile(source, flags).groupindex))


def test_a_lazy_pattern_matches_as_re_does_whether_or_not_its_code_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    source = r"^(?P<word>chapter|part)\s+(\d+)\b"
    samples = ["Chapter 12 begins", "part 3", "prelude 4", "PART 7b"]
    want = [m and (m.group("word"), m.group(2), m.span()) for m in map(re.compile(source, re.I).match, samples)]
    kept = {(source, lazyre.IGNORECASE): lazyre.compile_form(source, lazyre.IGNORECASE)}
    for codes in (kept, {}):  # made from the kept code; compiled by re
        monkeypatch.setattr(lazyre, "_codes", codes)
        pattern = lazyre.lazy(source, lazyre.IGNORECASE)
        got = [m and (m.group("word"), m.group(2), m.span()) for m in map(pattern.match, samples)]
        assert got == want
        assert pattern.sub(lambda m: m.group(2), "Chapter 12 begins") == "12 begins"
        assert pattern.flags == re.compile(source, re.I).flags


def test_codes_for_another_python_or_a_broken_file_leave_the_patterns_to_re(monkeypatch: pytest.MonkeyPatch) -> None:
    import _sre

    other = types.ModuleType("siftpdf._sre_codes")
    other.PYTHON, other.MAGIC, other.CODESIZE = (3, 11), _sre.MAGIC + 1, _sre.CODESIZE  # type: ignore[attr-defined]
    other.PATTERNS = {("x", 0): (32, (0,), 0, {}, (None,))}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "siftpdf._sre_codes", other)
    monkeypatch.setattr(siftpdf, "_sre_codes", other, raising=False)
    monkeypatch.setattr(lazyre, "_codes", None)
    assert lazyre.stored_codes() == {}
    broken = types.ModuleType("siftpdf._sre_codes")  # no names: as a file cut short
    monkeypatch.setitem(sys.modules, "siftpdf._sre_codes", broken)
    monkeypatch.setattr(siftpdf, "_sre_codes", broken, raising=False)
    monkeypatch.setattr(lazyre, "_codes", None)
    assert lazyre.stored_codes() == {}
    assert lazyre.lazy(r"a+b").search("xaab").group() == "aab"
    # A kept code the engine refuses is compiled by re.
    monkeypatch.setattr(lazyre, "_codes", {("a+b", 0): (32, (99999,), 0, {}, (None,))})
    assert lazyre.lazy(r"a+b").search("xaab").group() == "aab"


@pytest.mark.parametrize("name", ["paper_2col.pdf", "regulation_cn.pdf", "two_page_header.pdf"])
def test_a_cold_organized_read_imports_neither_re_json_nor_enum(fixtures: Path, name: str, tmp_path: Path) -> None:
    """The parent of a one-file command: re (with enum, functools' and collections' share) and
    json were a fifth of its start, and the patterns' compiling most of its first page."""
    # As a user runs it: without the test seams on PYTHONPATH (their sitecustomize imports re),
    # the cache in the platform's folder (a folder named by SIFTPDF_CACHE_DIR brings pathlib).
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "SIFTPDF_CACHE_DIR")}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    command = [sys.executable, "-m", "siftpdf", "extract", "--markdown", "--no-cache", str(fixtures / name)]
    plain = subprocess.run(command, capture_output=True, env=env, timeout=120)
    timed = subprocess.run(command, capture_output=True, env={**env, "PYTHONPROFILEIMPORTTIME": "1"}, timeout=120)
    assert plain.returncode == timed.returncode == 0 and plain.stdout == timed.stdout and plain.stdout.strip()
    loaded = {line.split("|")[-1].strip() for line in timed.stderr.decode().splitlines()
              if line.startswith("import time:")}
    assert {"siftpdf.organize", "siftpdf.views.markdown", "siftpdf._sre_codes"} <= loaded
    assert not loaded & {"re", "json", "enum", "click"}, sorted(loaded & {"re", "json", "enum", "click"})
