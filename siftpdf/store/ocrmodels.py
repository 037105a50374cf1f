"""PP-OCR's models in int8, made once per machine (``--ocr``, Chinese and Japanese pages).

rapidocr's wheel carries PP-OCR's detector and recognizer in 32-bit floats. Their int8
versions (onnxruntime's static QDQ quantization, per channel) read the bench's Chinese scans
as well and cost the detector a quarter of its time and the recognizer two thirds
(docs/bakeoff.md, "OCR engines"). Static quantization needs each activation's range, measured
on sample pages: ``tools/ocr_int8.py`` measures them on corpus pages once and keeps them in
``ocr_int8.json`` beside this module (36 kB; the models themselves would add 9 MB to every
install). This module makes the int8 models from the installed float
models and those ranges, the same bytes every time, into the cache folder's ``models/``:

- **First use.** The first ``--ocr`` call that reads a page with rapidocr's float models (a
  Chinese or Japanese page; any page where tesseract's data is missing) starts, at its last
  record, a process of its own (:func:`main`, isolated, on the extraction child's import path:
  a session of its own, output into ``FOLDER.log``) that makes the int8 models in a few
  seconds, one build at a time (``FOLDER.lock``, which the build gives back), written to a
  temporary folder and renamed into place whole. Later calls read with them. A machine whose
  pages all go to tesseract never makes them.
- **When it cannot be done** (``onnx`` missing, the installed models or onnxruntime's graph
  not those the ranges were measured on, a read-only cache folder, a build killed before it
  ended), calls go on with the float models: slower, never wrong. A failed build leaves
  ``failed`` with its reason, and is not tried again for the same models and ranges until that
  folder is removed. ``siftpdf engine status`` says which models OCR uses, and why.

The child is told the cache's ``models/`` folder (``--ocr-models``); on the first page it
reads it names the int8 folder there (:func:`folder_in`) and checks nothing more than that its
two files are there. It has no cache folder of its own.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..extras import found, install, module_spec, ocr_models_root

RANGES = Path(__file__).with_name("ocr_int8.json")
MODELS = ("det", "rec")  # rapidocr's detector and recognizer; its files in FILES
FILES = {"det": "PP-OCRv6_det_small.onnx", "rec": "PP-OCRv6_rec_small.onnx"}
OPSET = 13  # per-channel QuantizeLinear needs 13; the models come at 11
STALE_LOCK = 600.0  # seconds after which a build's lock file is a dead build's leftover


@dataclass(frozen=True)
class State:
    """Which models ``--ocr`` reads Chinese pages with on this machine."""

    folder: Path | None  # the int8 models' folder, when they are there
    note: str  # what ``engine status`` says
    to_make: Path | None = None  # where they are to be made (on the first --ocr call)


def rapidocr_models() -> Path | None:
    """The folder of the float models inside rapidocr's wheel, found without importing it."""
    spec = module_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "models"
    return folder if all((folder / name).is_file() for name in FILES.values()) else None


@cache
def _key() -> str | None:
    """What the int8 models are made from: the ranges, rapidocr's, onnxruntime's and onnx's
    versions (onnx converts the graph; the float files are checked against the ranges' digests
    when the models are made)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        made = f"{version('rapidocr')}/{version('onnxruntime')}/{version('onnx')}/".encode()
        return hashlib.sha256(made + RANGES.read_bytes()).hexdigest()[:16]
    except (PackageNotFoundError, OSError):
        return None


def folder_in(root: str | Path) -> Path | None:
    """The int8 models' folder for the installed rapidocr under the models folder ``root``."""
    key = _key()
    return Path(root) / f"ppocr-int8-{key}" if key else None


def folder_for(cache_root: Path) -> Path | None:
    return folder_in(ocr_models_root(str(cache_root)))


def state(cache_root: Path) -> State:
    """Where the int8 models are (or why there are none), without making them."""
    if rapidocr_models() is None:
        return State(None, "rapidocr is not installed")
    if not found("onnx"):
        return State(None, f"float models (int8 needs the onnx package: {install('ocr')})")
    folder = folder_for(cache_root)
    if folder is None:
        return State(None, "float models (no int8 ranges for them)")
    if all((folder / f"{name}.onnx").is_file() for name in MODELS):
        return State(folder, f"int8 models in {folder}")
    failed = folder / "failed"
    if failed.is_file():
        reason = failed.read_text(errors="replace").strip()[:200]
        return State(None, f"float models (int8 could not be made: {reason}; remove {folder} to try again)")
    return State(None, "float models (int8 made on the first --ocr call)", folder)


def ready(cache_root: Path) -> Path | None:
    """The int8 models' folder when they are made; otherwise None, having started their
    making in the background unless it failed before or is under way."""
    found = state(cache_root)
    if found.to_make is not None:
        _start(found.to_make)
    return found.folder


def _start(folder: Path) -> None:
    """Start the making of the int8 models in ``folder``, in a process that outlives this one.
    A folder that cannot be written, or a process that cannot start, leaves the float models."""
    import subprocess
    import time

    lock = folder.with_name(folder.name + ".lock")
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            if time.time() - lock.stat().st_mtime >= STALE_LOCK:  # a build that died (killed)
                # The note keeps the next calls from building; the lock goes, so that removing
                # the folder (as engine status says) tries again.
                _failed(folder, f"a build began and did not end (see {folder.name}.log)")
                lock.unlink(missing_ok=True)
            return  # under way, or given up
    except OSError:
        return  # a cache folder that cannot be written
    from ..workers.early_child import child_path

    # Isolated and on the extraction child's import path (siftpdf and its extras wherever
    # this process finds them).
    boot = f"import sys; sys.path.extend({child_path()!r}); from siftpdf.store.ocrmodels import main; sys.exit(main())"
    try:
        with open(folder.with_name(folder.name + ".log"), "ab") as log:
            subprocess.Popen([sys.executable, "-I", "-S", "-c", boot, str(folder)], stdin=subprocess.DEVNULL,
                             stdout=log, stderr=log, start_new_session=True, close_fds=True)
    except OSError:
        lock.unlink(missing_ok=True)


def _failed(folder: Path, reason: str) -> None:
    """Keep why the int8 models were not made: the float models go on, and no build is tried
    again (``engine status`` says so, and how to try again)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "failed").write_text(reason[:500] + "\n")
    except OSError:
        pass


# -- the making (in its own process) -------------------------------------------------------------

class BuildError(RuntimeError):
    """The int8 models cannot be made here (the reason is kept in ``failed``)."""


def graph(name: str, source: Path) -> Any:
    """The float model as it is quantized: at opset 13 with its shapes inferred, and the
    recognizer as onnxruntime's optimizer leaves it (its normalizations and activations fused
    first, so that they stay in floats between int8 convolutions and products; the detector's
    quantized after that optimization lost lines of a page, and it gains nothing from it)."""
    import tempfile

    import onnx
    from onnx import shape_inference, version_converter

    model = shape_inference.infer_shapes(version_converter.convert_version(onnx.load(str(source)), OPSET))
    if name != "rec":
        return model
    from onnxruntime.quantization.shape_inference import quant_pre_process

    with tempfile.TemporaryDirectory(prefix="siftpdf-ocr-") as tmp:
        plain, optimized = Path(tmp, "in.onnx"), Path(tmp, "out.onnx")
        onnx.save(model, str(plain))
        quant_pre_process(str(plain), str(optimized), skip_symbolic_shape=True)
        return onnx.load(str(optimized))


def quantize(name: str, graph: Any, ranges: dict[str, list[float]], out: Path) -> None:
    """Write ``graph`` in int8 to ``out``, its activations quantized over ``ranges`` (tensor ->
    [lowest, highest]); the model's metadata (the recognizer's alphabet) kept."""
    import tempfile

    import numpy as np
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.calibrate import TensorsData, save_tensors_data

    names = {value for node in graph.graph.node for value in node.output} | {i.name for i in graph.graph.input}
    missing = sorted(set(ranges) - names)
    if missing:
        raise BuildError(f"the {name} model's graph is not the one its ranges were measured on "
                         f"({len(missing)} tensors unknown, e.g. {missing[0]})")
    with tempfile.TemporaryDirectory(prefix="siftpdf-ocr-") as tmp:
        source, table = Path(tmp, "in.onnx"), Path(tmp, "ranges.json")
        onnx.save(graph, str(source))
        data = {key: (np.array([low], np.float32), np.array([high], np.float32)) for key, (low, high) in ranges.items()}
        save_tensors_data(TensorsData(CalibrationMethod.MinMax, data), table)
        quantize_static(str(source), str(out), None, quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax, calibration_cache_path=str(table))
    made = onnx.load(str(out))
    if not made.metadata_props:
        made.metadata_props.extend(graph.metadata_props)
        onnx.save(made, str(out))


def build(folder: Path) -> None:
    """Make the int8 models into ``folder`` (through a temporary folder beside it, renamed)."""
    import shutil
    import tempfile

    source = rapidocr_models()
    if source is None:
        raise BuildError("rapidocr's models are not installed")
    try:
        import onnx  # noqa: F401
    except ImportError as exc:
        raise BuildError(f"the onnx package is not installed ({install('ocr')})") from exc
    table = json.loads(RANGES.read_text())
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        for name in MODELS:
            path = source / FILES[name]
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest != table[name]["sha256"]:
                raise BuildError(f"{path.name} is not the model the ranges were measured on")
            quantize(name, graph(name, path), table[name]["ranges"], work / f"{name}.onnx")
        if set(_listing(folder)) == {"failed"}:
            shutil.rmtree(folder, ignore_errors=True)  # given up on while this build ran (slowly): it stands
        try:
            os.replace(work, folder)
        except OSError:
            if not all((folder / f"{name}.onnx").is_file() for name in MODELS):
                raise  # not another build's models, made meanwhile

    finally:
        shutil.rmtree(work, ignore_errors=True)


def _listing(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def make(folder: Path) -> str | None:
    """Make the int8 models in ``folder`` now; the reason when they cannot be, also written to
    ``FOLDER/failed`` (the float models go on being used, and it is not tried again)."""
    import logging

    logging.disable(logging.WARNING)  # onnxruntime's quantizer advises on pre-processing at each model
    try:
        build(folder)
        return None
    except Exception as exc:  # noqa: BLE001 - any failure leaves the float models, with its reason
        reason = str(exc) if isinstance(exc, BuildError) else f"{type(exc).__name__}: {exc}"
        _failed(folder, reason)
        return reason


def make_here(cache_root: Path) -> State:
    """Make the int8 models for ``cache_root`` in this process unless they are there (or
    cannot be made), and say where they are."""
    found = state(cache_root)
    if found.to_make is not None:
        make(found.to_make)
        found = state(cache_root)
    return found


def main(argv: list[str] | None = None) -> int:
    """The build :func:`_start` starts (``python -I -S -c BOOT FOLDER``):
    :func:`make`, in a process of its own, which then gives back the lock it was started with."""
    folder = Path((sys.argv[1:] if argv is None else argv)[0])
    try:
        reason = make(folder)
    finally:
        folder.with_name(folder.name + ".lock").unlink(missing_ok=True)
    if reason is not None:
        print(f"siftpdf: the int8 OCR models were not made: {reason}", file=sys.stderr)
    return 0 if reason is None else 1


if __name__ == "__main__":
    sys.exit(main())
