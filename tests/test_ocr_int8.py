"""PP-OCR's int8 models (siftpdf/store/ocrmodels.py) and the script a document's pages hand on
to the next (siftpdf.child.ocr.Hint): what makes a Chinese scan read at speed.

These run when both OCR engines are installed: ``pip install 'siftpdf[ocr]'`` and the
tesseract data (``apt-get install tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim``)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import make_scans
import pytest
from conftest import records, run_siftpdf
from test_ocr_engine import needs_both, needs_corpus

from siftpdf.child import ocr
from siftpdf.store import ocrmodels

needs_onnx = pytest.mark.skipif(ocrmodels.state(Path("/nonexistent")).to_make is None,
                                reason=f"the int8 models need onnx: {ocr.INSTALL}")


def _pages(pdf: Path) -> list[dict[str, Any]]:
    done = run_siftpdf("extract", "--ocr", "auto", "--no-cache", str(pdf), timeout=300)
    assert done.returncode == 0, done.stderr
    return [r for r in records(done.stdout.decode()) if "page" in r and "status" in r]


def _wait_for(predicate: Callable[[], bool], seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.mark.check  # make check: the int8 models made, about 11 s
@needs_both
@needs_onnx
@needs_corpus
def test_a_chinese_scan_read_with_floats_has_the_int8_models_made_for_the_next_call(
        tmp_path: Path, own_cache: Path) -> None:
    scan = make_scans.scan(make_scans.CJK[0], dpi=200)
    pdf = tmp_path / "law.pdf"
    pdf.write_bytes(scan.pdf)
    assert ocrmodels.state(own_cache).folder is None

    first = _pages(pdf)
    assert first[0]["ocr"]["engine"] == f"rapidocr {ocr.available('rapidocr').version}"  # type: ignore[union-attr]
    # The first call started the making in a process of its own; it ends with both models,
    # its lock gone.
    assert _wait_for(lambda: ocrmodels.state(own_cache).folder is not None
                     and not list((own_cache / "models").glob("*.lock")), 120), ocrmodels.state(own_cache).note

    second = _pages(pdf)
    assert second[0]["ocr"]["engine"].endswith(" int8")
    assert make_scans.cer(second[0]["text"], scan.reference) < 0.02  # as the float models read it
    status = run_siftpdf("engine", "status")
    assert "CJK pages read with int8 models in " + str(own_cache) in status.stdout.decode()


@needs_both
@needs_onnx
@needs_corpus
def test_an_english_scan_makes_no_int8_models(tmp_path: Path, own_cache: Path) -> None:
    pdf = tmp_path / "e2e.pdf"
    pdf.write_bytes(make_scans.scan(make_scans.ENGLISH[0], dpi=200).pdf)
    assert _pages(pdf)[0]["ocr"]["engine"].startswith("tesseract")
    # The making would have begun before the command's last record: nothing was begun.
    assert not (own_cache / "models").exists()  # only a machine that reads Chinese or Japanese scans needs them


@needs_both
@needs_onnx
def test_models_that_do_not_fit_the_ranges_leave_the_floats_and_say_why(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logging, "disable", lambda *_: None)  # make() quiets the quantizer's advice, not the tests'
    table = json.loads(ocrmodels.RANGES.read_text())
    table["det"]["sha256"] = "0" * 64
    ranges = tmp_path / "ocr_int8.json"
    ranges.write_text(json.dumps(table))
    monkeypatch.setattr(ocrmodels, "RANGES", ranges)
    cache = tmp_path / "cache"
    folder = ocrmodels.state(cache).to_make
    assert folder is not None

    reason = ocrmodels.make(folder)
    assert reason == f"{ocrmodels.FILES['det']} is not the model the ranges were measured on"
    found = ocrmodels.state(cache)
    assert found.folder is None and found.to_make is None  # not tried again
    assert found.note == f"float models (int8 could not be made: {reason}; remove {folder} to try again)"
    assert ocrmodels.ready(cache) is None
    # The build process gives back the lock it was started with, whatever became of it.
    shutil.rmtree(folder)
    lock = folder.with_name(folder.name + ".lock")
    lock.touch()
    assert ocrmodels.main([str(folder)]) == 1
    assert not lock.exists() and (folder / "failed").is_file()


@needs_both
@needs_onnx
def test_ranges_measured_on_another_graph_are_refused(tmp_path: Path) -> None:
    source = ocrmodels.rapidocr_models()
    assert source is not None
    graph = ocrmodels.graph("det", source / ocrmodels.FILES["det"])
    with pytest.raises(ocrmodels.BuildError, match="not the one its ranges were measured on"):
        ocrmodels.quantize("det", graph, {"no.such.tensor": [0.0, 1.0]}, tmp_path / "det.onnx")


@needs_both
def test_a_child_told_of_a_folder_without_both_models_reads_with_the_floats(tmp_path: Path) -> None:
    (tmp_path / "det.onnx").write_bytes(b"")
    try:
        ocr.use_int8(str(tmp_path))
        assert not ocr.available("rapidocr").version.endswith(" int8")  # type: ignore[union-attr]
        (tmp_path / "rec.onnx").write_bytes(b"")
        ocr.use_int8(str(tmp_path))
        assert ocr.available("rapidocr").version.endswith(" int8")  # type: ignore[union-attr]
    finally:
        ocr.use_int8(None)
    assert not ocr.available("rapidocr").version.endswith(" int8")  # type: ignore[union-attr]


@pytest.mark.check  # make check: a long run, about 7 s
@needs_both
@needs_onnx
def test_two_builds_at_once_end_with_one_folder_of_models(tmp_path: Path) -> None:
    folder = ocrmodels.state(tmp_path).to_make
    assert folder is not None
    builds = [subprocess.Popen([sys.executable, "-I", "-m", "siftpdf.store.ocrmodels", str(folder)],
                               stderr=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        for build in builds:
            _, err = build.communicate(timeout=300)
            assert build.returncode == 0, err
    finally:
        for build in builds:
            build.kill()
            build.wait()
    assert ocrmodels.state(tmp_path).folder == folder
    assert sorted(p.name for p in folder.iterdir()) == ["det.onnx", "rec.onnx"]  # no "failed"
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no work folder left


# --- the script handed on from page to page -----------------------------------------------------

@pytest.mark.check  # make check: OCR of a mixed scan, about 15 s
@needs_both
@needs_corpus
def test_each_page_of_a_mixed_scan_goes_to_its_engine_and_detection_runs_where_the_script_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from siftpdf.child.extraction import ExtractOptions, extract_records

    sources = [make_scans.CJK[0], make_scans.CJK[1], make_scans.ENGLISH[0], make_scans.ENGLISH[3], make_scans.CJK[0]]
    data, references = make_scans.mixed_pages(sources)
    detected: list[bool] = []  # whether each detection saw CJK
    detect = ocr.detect

    def counted(gray: Any) -> ocr.Osd:
        found = detect(gray)
        detected.append(found.cjk)
        return found

    monkeypatch.setattr(ocr, "detect", counted)
    pages = [r for r in extract_records(data, ExtractOptions(ocr="auto")) if "status" in r and "page" in r]
    assert [page["ocr"]["engine"].split()[0] for page in pages] == [
        "rapidocr", "rapidocr", "tesseract", "tesseract", "rapidocr"]
    # Page 1 is detected (Chinese); page 2 is read as page 1 was; page 3, read as Chinese
    # first, shows Latin and is detected (Latin); page 4 is read as page 3; page 5, read as
    # Latin first, reads poorly and is detected (Chinese).
    assert detected == [True, False, True]
    for page, reference in zip(pages, references, strict=True):
        assert make_scans.cer(page["text"], reference) < 0.08


@pytest.mark.parametrize("script", ["cjk", "latin"])
def test_a_blank_page_keeps_the_script_handed_on(monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    """A page the hinted engine finds no line on is blank (no engine finds one where its
    detector found none): it comes back empty at once, and the next page keeps the hint, rather
    than being detected and read again (tesseract reading a blank scan's grain, turned)."""
    asked: list[str] = []

    class Blank:
        def read(self, gray: Any, threads: int, cjk: bool) -> list[Any]:
            return []

    monkeypatch.setattr(ocr, "_engine", lambda name: asked.append(name) or Blank())
    hint = ocr.Hint()
    hint.script = script
    found, lines = ocr._read_hinted(None, 1, hint)
    assert lines == [] and hint.script == script
    assert asked == ["rapidocr" if script == "cjk" else "tesseract"]


@needs_both
@needs_onnx
def test_a_build_that_never_ended_is_not_started_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock left by a build that was killed (older than STALE_LOCK): the call gives up on
    the int8 models and says why, rather than starting a build every few minutes."""
    cache = tmp_path / "cache"
    folder = ocrmodels.state(cache).to_make
    assert folder is not None
    folder.parent.mkdir(parents=True)
    lock = folder.with_name(folder.name + ".lock")
    lock.touch()
    os.utime(lock, (time.time() - ocrmodels.STALE_LOCK - 1,) * 2)
    assert ocrmodels.ready(cache) is None
    found = ocrmodels.state(cache)
    assert found.to_make is None and "did not end" in found.note and not folder.with_name(folder.name + ".log").exists()
    # What engine status says to do starts a build again.
    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda argv, **_: started.append(argv))
    shutil.rmtree(folder)
    assert ocrmodels.ready(cache) is None
    assert len(started) == 1 and started[0][-1] == str(folder) and lock.exists()


@needs_both
@needs_onnx
def test_a_slow_build_given_up_on_still_leaves_its_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that outlived STALE_LOCK was marked failed by another call; when it ends, its
    models replace that note."""
    folder = ocrmodels.state(tmp_path / "cache").to_make
    assert folder is not None
    folder.mkdir(parents=True)
    (folder / "failed").write_text("a build began and did not end")
    monkeypatch.setattr(ocrmodels, "quantize", lambda name, graph, ranges, out: out.write_bytes(b"model"))
    monkeypatch.setattr(ocrmodels, "graph", lambda name, path: None)
    assert ocrmodels.make(folder) is None
    assert sorted(os.listdir(folder)) == sorted(f"{name}.onnx" for name in ocrmodels.MODELS)
