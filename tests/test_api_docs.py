"""The examples of docs/api.md run against the bundled sample and print what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_api_examples_run_as_documented(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("SIFTPDF_CACHE_DIR", raising=False)
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20, "docs/api.md lost its examples"
    assert result.failed == 0, f"{result.failed} example(s) of docs/api.md fail: see the output above"


def test_library_exports_are_typed() -> None:
    import siftpdf

    assert (ROOT / "siftpdf" / "py.typed").exists()
    for name in siftpdf.__all__:
        function = getattr(siftpdf, name)
        assert function.__doc__ and function.__annotations__.get("return"), name
