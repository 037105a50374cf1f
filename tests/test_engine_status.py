"""siftpdf engine status: engines really load, the memory limit is really tested, the cache is measured."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import run_siftpdf

from siftpdf.child import probe as _probe
from siftpdf.status import render_status


def test_status_json_reports_engines_limit_and_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (cache / "sub").mkdir(parents=True)
    (cache / "a.bin").write_bytes(b"x" * 1000)
    (cache / "sub" / "b.bin").write_bytes(b"y" * 234)
    result = run_siftpdf("engine", "status", "--json", env={"SIFTPDF_CACHE_DIR": str(cache)})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 1
    status = json.loads(lines[0])["engine_status"]
    engines = {e["name"]: e for e in status["engines"]}
    assert set(engines) == {"pdfium", "pypdf", "pdfplumber", "ocr"}
    assert all(e["loads"] for e in engines.values())  # the ocr extra is installed here (make test)
    assert engines["ocr"]["version"].startswith("tesseract ")
    assert "PDFium" in engines["pdfium"]["build"] and "pypdfium2" in engines["pdfium"]["version"]
    if sys.platform.startswith("linux"):
        assert status["memory_limit"]["enforced"] is True and status["memory_limit"]["bytes"] == 2 << 30
        assert status["memory_limit"]["mechanism"] == "rlimit"
    assert status["cache"] == {"dir": str(cache), "exists": True, "bytes": 1234, "files": 2}
    assert status["ok"] is True


def test_status_text_and_absent_cache(tmp_path: Path) -> None:
    result = run_siftpdf("engine", "status", "--cache-dir", str(tmp_path / "none"))
    text = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    for name in ("pdfium", "pypdf", "pdfplumber"):
        assert f"  {name} " in text
    assert "memory limit: enforced by RLIMIT_AS (2048 MiB" in text
    assert f"cache: {tmp_path / 'none'} (absent, 0 bytes)" in text
    assert not result.stderr


def test_cache_location_follows_xdg(tmp_path: Path) -> None:
    result = run_siftpdf("engine", "status", "--json", env={"SIFTPDF_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path)})
    status = json.loads(result.stdout)["engine_status"]
    assert status["cache"]["dir"] == str(tmp_path / "siftpdf")


def test_memory_probe_notices_a_limit_that_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    monkeypatch.setattr(resource, "setrlimit", lambda *_: None)  # a platform that ignores RLIMIT_AS
    found = _probe.probe_memory_limit()
    assert found["enforced"] is False and "succeeded" in found["detail"]


def test_probe_pdf_is_read_by_every_engine() -> None:
    engines = _probe.probe_engines()
    assert [e["name"] for e in engines] == ["pdfium", "pypdf", "pdfplumber", "ocr"]
    assert all(e["reads"] for e in engines), engines


def test_status_says_when_the_ocr_engine_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    from siftpdf import extras

    monkeypatch.setattr(extras, "ocr_installed", lambda: False)
    (found,) = [e for e in _probe.probe_engines() if e["name"] == "ocr"]
    assert found["loads"] is False and found["error"].startswith("not installed (optional): pip install")
    text = render_status({"siftpdf": "0", "python": "3", "platform": "linux", "engines": [found],
                          "memory_limit": {"bytes": 0, "mechanism": "rlimit", "enforced": True, "detail": ""},
                          "cache": {"dir": "/c", "exists": False, "bytes": 0, "files": 0}})
    assert "  ocr  absent  not installed (optional): pip install 'siftpdf[ocr]'" in text


def test_status_says_which_ocr_default_is_in_force_and_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from siftpdf import extras
    from siftpdf.status import ocr_default

    monkeypatch.delenv("SIFTPDF_OCR", raising=False)
    assert ocr_default(True) == {"mode": "auto", "why": "an OCR engine is installed"}
    monkeypatch.setenv("SIFTPDF_OCR", "never")
    assert ocr_default(True) == {"mode": "never", "why": "SIFTPDF_OCR"}
    monkeypatch.setenv("SIFTPDF_OCR", "sometimes")  # the commands refuse it: status says so
    assert ocr_default(True)["why"].startswith("SIFTPDF_OCR, which the commands refuse")
    monkeypatch.delenv("SIFTPDF_OCR")
    monkeypatch.setattr(extras, "ocr_installed", lambda: False)
    assert ocr_default(False) == {"mode": "never", "why": f"no OCR engine is installed: {extras.OCR_INSTALL}"}
