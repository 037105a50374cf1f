"""Measure the activation ranges of PP-OCR's int8 models (siftpdf/store/ocr_int8.json).

    .venv/bin/python tools/ocr_int8.py        # needs ../shared/corpus and the ocr extra

Corpus pages that are not the bench's (tests/make_scans.py: ENGLISH, CJK) are scanned as the
tests scan them (200 and 300 dpi, turned, grain and specks) and read by the rapidocr engine
as siftpdf sets it (siftpdf.child.ocr): every input its detector and recognizer get is kept,
and onnxruntime's MinMax calibration measures each activation's range over them, on the
graphs siftpdf.store.ocrmodels quantizes. The table keeps each float model's digest: the
ranges fit those files only. Run it again when rapidocr's models or the engine's settings
(DETECT_SIDE, the recognizer's input) change.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import make_scans  # noqa: E402

from siftpdf.store import ocrmodels  # noqa: E402

# Chinese papers, laws and a manual, and two English pages (rapidocr reads every page where
# tesseract's data is missing), none of them a page the bench scores.
PAGES = (
    ("cjk/2016A系泊系统的设计_2016A.pdf", 5),
    ("cjk/2022C古代玻璃制品成分分析_2022C古代玻璃论文.pdf", 4),
    ("cjk/law_中华人民共和国公司法_中华人民共和国公司法.pdf", 6),
    ("cjk/law_中华人民共和国宪法_中华人民共和国宪法.pdf", 3),
    ("cjk/2017D巡检路径规划_2017国赛国家一等奖D题优秀论文2.pdf", 7), ("cjk/GNU链接脚本翻译.pdf", 3),
    ("paper/distributed_systems_end-to-end-arguments-in-system-design.pdf", 5), ("long/thinkpython2.pdf", 60),
)
REC_SAMPLES = 120  # recognizer inputs kept (of about a thousand lines), drawn evenly


def inputs() -> dict[str, list[Any]]:
    """Every tensor the engine gives its detector, and a sample of its recognizer's."""
    import numpy as np
    import onnxruntime as ort

    from siftpdf.child import ocr

    seen: dict[str, list[Any]] = {"det": [], "rec": []}
    run = ort.InferenceSession.run

    def keep(self: Any, names: Any, feed: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        tensor = next(iter(feed.values()))
        seen["rec" if tensor.shape[2] == 48 else "det"].append(tensor.copy())
        return run(self, names, feed, *args, **kwargs)

    ort.InferenceSession.run = keep  # type: ignore[method-assign]
    try:
        engine = ocr.ENGINES["rapidocr"]()
        assert engine is not None, "rapidocr is not installed"
        for path, page in PAGES:
            for dpi in (200, 300):
                gray = make_scans.render_gray(make_scans.CORPUS / path, page, dpi)
                image, _ = make_scans.degrade(gray, 11 + page + dpi)
                engine.read(np.asarray(image), 1, True)
    finally:
        ort.InferenceSession.run = run  # type: ignore[method-assign]
    rng = np.random.default_rng(0)
    rec = seen["rec"]
    seen["rec"] = [rec[i] for i in sorted(rng.choice(len(rec), size=min(REC_SAMPLES, len(rec)), replace=False))]
    return seen


def ranges(name: str, graph: Any, samples: list[Any]) -> dict[str, list[float]]:
    """Each activation's [lowest, highest] over ``samples``, measured by onnxruntime."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(samples)

        def get_next(self) -> dict[str, Any] | None:
            tensor = next(self.left, None)
            return None if tensor is None else {"x": tensor}

    with tempfile.TemporaryDirectory() as tmp:
        source, table = Path(tmp, "in.onnx"), Path(tmp, "ranges.json")
        onnx.save(graph, str(source))
        quantize_static(str(source), str(Path(tmp, "out.onnx")), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax, calibration_cache_path=str(table))
        data = json.loads(table.read_text())["data"]
    return {key: [float(value["lowest"]["data"][0]), float(value["highest"]["data"][0])]
            for key, value in sorted(data.items())}


def main() -> int:
    import logging

    logging.disable(logging.WARNING)
    source = ocrmodels.rapidocr_models()
    if source is None:
        print("rapidocr is not installed", file=sys.stderr)
        return 2
    samples = inputs()
    table: dict[str, Any] = {}
    for name in ocrmodels.MODELS:
        path = source / ocrmodels.FILES[name]
        table[name] = {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                       "samples": len(samples[name]),
                       "ranges": ranges(name, ocrmodels.graph(name, path), samples[name])}
    ocrmodels.RANGES.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    print(f"{ocrmodels.RANGES}: " + ", ".join(f"{name} {len(table[name]['ranges'])} tensors over "
                                               f"{table[name]['samples']} inputs" for name in ocrmodels.MODELS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
