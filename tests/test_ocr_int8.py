"""PP-OCR's int8 models (siftpdf/store/ocrmodels.py) and the script a document's pages hand on
to the next (siftpdf.child.ocr.Hint): what makes a Chinese scan read at speed.

These run when both OCR engines are installed: ``pip install 'siftpdf[ocr]'`` and the
tesseract data (``apt-get install tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import make_scans
import pytest

from siftpdf.child import ocr
from siftpdf.store import ocrmodels

needs_corpus = pytest.mark.skipif(not make_scans.CORPUS.is_dir(), reason="../shared/corpus is absent")
needs_both = pytest.mark.skipif(ocr.available("tesseract") is None or ocr.available("rapidocr") is None
                                or ocrmodels.state(Path("/nonexistent")).to_make is None,
                                reason=f"needs both OCR engines and onnx: {ocr.INSTALL}")


def _extract(pdf: Path, cache: Path) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "siftpdf", "extract", "--ocr", "auto", "--no-cache", str(pdf)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SIFTPDF_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _pages(records: list[dict]) -> list[dict]:
    return [r for r in records if "page" in r and "status" in r]


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@needs_both
@needs_corpus
def test_a_chinese_scan_read_with_floats_has_the_int8_models_made_for_the_next_call(tmp_path: Path) -> None:
    scan = make_scans.scan(make_scans.CJK[0], dpi=200)
    pdf = tmp_path / "law.pdf"
    pdf.write_bytes(scan.pdf)
    cache = tmp_path / "cache"
    assert ocrmodels.state(cache).folder is None

    first = _pages(_extract(pdf, cache))
    assert first[0]["ocr"]["engine"] == f"rapidocr {ocr.available('rapidocr').version}"  # type: ignore[union-attr]
    # The first call started the making in a process of its own; it ends with both models.
    assert _wait_for(lambda: ocrmodels.state(cache).folder is not None, 120), ocrmodels.state(cache).note
    assert not list((cache / "models").glob("*.lock"))

    second = _pages(_extract(pdf, cache))
    assert second[0]["ocr"]["engine"].endswith(" int8")
    assert make_scans.cer(second[0]["text"], scan.reference) < 0.02  # as the float models read it
    status = subprocess.run([sys.executable, "-m", "siftpdf", "engine", "status"], capture_output=True, text=True,
                            env={**os.environ, "SIFTPDF_CACHE_DIR": str(cache)}, timeout=120)
    assert "CJK pages read with int8 models in " + str(cache) in status.stdout


@needs_both
@needs_corpus
def test_an_english_scan_makes_no_int8_models(tmp_path: Path) -> None:
    pdf = tmp_path / "e2e.pdf"
    pdf.write_bytes(make_scans.scan(make_scans.ENGLISH[0], dpi=200).pdf)
    cache = tmp_path / "cache"
    pages = _pages(_extract(pdf, cache))
    assert pages[0]["ocr"]["engine"].startswith("tesseract")
    time.sleep(1)
    assert not (cache / "models").exists()  # only a machine that reads Chinese or Japanese scans needs them


@needs_both
def test_models_that_do_not_fit_the_ranges_leave_the_floats_and_say_why(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
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
    assert found.note == f"float models (int8 could not be made: {reason})"
    assert ocrmodels.ready(cache) is None and not folder.with_name(folder.name + ".lock").exists()


@needs_both
def test_ranges_measured_on_another_graph_are_refused(tmp_path: Path) -> None:
    source = ocrmodels.rapidocr_models()
    assert source is not None
    graph = ocrmodels.graph("det", source / ocrmodels.FILES["det"])
    with pytest.raises(ocrmodels.BuildError, match="not the one its ranges were measured on"):
        ocrmodels.quantize("det", graph, {"no.such.tensor": [0.0, 1.0]}, tmp_path / "det.onnx")


def test_a_child_told_of_a_folder_without_both_models_reads_with_the_floats(tmp_path: Path) -> None:
    (tmp_path / "det.onnx").write_bytes(b"")
    try:
        ocr.use_int8(str(tmp_path))
        assert ocr._INT8 is None
        (tmp_path / "rec.onnx").write_bytes(b"")
        ocr.use_int8(str(tmp_path))
        assert ocr._INT8 == str(tmp_path)
    finally:
        ocr.use_int8(None)
    assert ocr._INT8 is None


# --- the script handed on from page to page -----------------------------------------------------

def _mixed() -> tuple[bytes, list[str]]:
    """A five-page scan: Chinese, Chinese, English, English, Chinese."""
    sources = [make_scans.CJK[0], make_scans.CJK[1], make_scans.ENGLISH[0], make_scans.ENGLISH[3], make_scans.CJK[0]]
    pages, images, references = [], [], []
    for index, source in enumerate(sources):
        path = make_scans.CORPUS / source.path
        image, _ = make_scans.degrade(make_scans.render_gray(path, source.page, 150), 7 + index)
        width, height = make_scans.page_size(path, source.page)
        images.append(make_scans.Placed(make_scans.jpeg(image), image.width, image.height, (0.0, 0.0, width, height)))
        pages.append(((0.0, 0.0, width, height), [index]))
        references.append(make_scans.reference_text(path, source.page))
    return make_scans.image_pdf(pages, images), references


@needs_both
@needs_corpus
def test_each_page_of_a_mixed_scan_goes_to_its_engine_and_detection_runs_where_the_script_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from siftpdf.child.extraction import ExtractOptions, extract_records

    data, references = _mixed()
    detected: list[str | None] = []
    detect = ocr.detect

    def counted(gray):  # type: ignore[no-untyped-def]
        found = detect(gray)
        detected.append(found.script)
        return found

    monkeypatch.setattr(ocr, "detect", counted)
    pages = [r for r in extract_records(data, ExtractOptions(ocr="auto")) if "status" in r and "page" in r]
    engines = [page["ocr"]["engine"].split()[0] for page in pages]
    assert engines == ["rapidocr", "rapidocr", "tesseract", "tesseract", "rapidocr"]
    # Page 1 is detected; page 2 is read as page 1 was; page 3, read as Chinese first, shows
    # Latin and is detected; page 4 is read as page 3; page 5, read as Latin first, reads
    # poorly and is detected.
    assert len(detected) == 3
    for page, reference in zip(pages, references, strict=True):
        assert make_scans.cer(page["text"], reference) < 0.08


@needs_both
def test_two_builds_at_once_end_with_one_folder_of_models(tmp_path: Path) -> None:
    folder = ocrmodels.state(tmp_path).to_make
    assert folder is not None
    builds = [subprocess.Popen([sys.executable, "-I", "-m", "siftpdf.store.ocrmodels", str(folder)],
                               stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for build in builds:
        _, err = build.communicate(timeout=300)
        assert build.returncode == 0, err
    assert ocrmodels.state(tmp_path).folder == folder
    assert sorted(p.name for p in folder.iterdir()) == ["det.onnx", "rec.onnx"]  # no "failed"
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no work folder left
