"""The compiled organization and the evidence's C loops (siftpdf/compiled.py) against the
Python ones: the copy that tools/compiled.py builds, as ``pip install .`` builds it, runs its
modules compiled, reads the evidence with its C loops, and organizes every page of the
benchmarks and the corpus into the same bytes as the Python modules do. (``make test`` also
runs the organization's own tests on that copy.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from siftpdf import compiled

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS_PAGES = 12  # the first pages of each corpus PDF; the benchmarks' PDFs whole

# Extraction with evidence (its C loops in the compiled copy), then organization, each record a
# JSON line; the time a page took is the one thing two runs may not share.
ORGANIZE = """
import json, sys
from siftpdf.child.extraction import ExtractOptions, extract_records
from siftpdf.errors import SiftError
from siftpdf.organize import organize_records
from siftpdf.settings import OrganizeOptions
pages = int(sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for path in sys.stdin.read().splitlines():
        try:
            records = [json.loads(json.dumps(r)) for r in
                       extract_records(open(path, "rb").read(), ExtractOptions(evidence=True, max_pages=pages))]
        except SiftError as exc:
            out.write(f"{path} {type(exc).__name__}\\n")
            continue
        for record in organize_records(records, OrganizeOptions()):
            record.get("done", {}).pop("elapsed_ms", None)
            out.write(path + " " + json.dumps(record, sort_keys=True, ensure_ascii=False) + "\\n")
"""


@pytest.fixture(scope="session")
def compiled_tree() -> Path:
    sys.path.insert(0, str(ROOT / "tools"))
    import compiled as build  # tools/compiled.py

    return build.build()


def _python(tree: Path | None, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tree or ROOT)
    return subprocess.run([sys.executable, "-c", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=1200, cwd=str(tree or ROOT))


def _status(tree: Path | None, *args: str) -> str:
    status = ("import sys; from siftpdf.cli import main; "
              "sys.argv = ['siftpdf', 'engine', 'status', *sys.argv[1:]]; main()")
    done = _python(tree, status, *args)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_engine_status_says_the_compiled_copy_runs_compiled_and_the_editable_tree_python(compiled_tree: Path) -> None:
    built = json.loads(_status(compiled_tree, "--json"))["engine_status"]["organize"]
    assert built["path"] == "compiled" and not built["python"]
    assert sorted(built["compiled"]) == sorted(compiled.module_name(m) for m in compiled.MODULES)
    assert f"organization: compiled (mypyc, {len(compiled.MODULES)} modules)" in _status(compiled_tree)
    assert json.loads(_status(None, "--json"))["engine_status"]["organize"]["path"] == "python"
    assert "organization: Python (installed without compiling it" in _status(None)
    # The evidence's C loops: built in the copy, absent from the editable tree.
    loops = json.loads(_status(compiled_tree, "--json"))["engine_status"]["evidence"]
    assert loops == {"path": "compiled", "compiled": ["siftpdf.child._loops"], "python": []}
    assert "evidence: its busiest loops in C (siftpdf.child._loops)" in _status(compiled_tree)
    assert json.loads(_status(None, "--json"))["engine_status"]["evidence"]["path"] == "python"
    assert "evidence: Python (built without its C loops" in _status(None)


def test_compiled_and_python_organize_the_benchmarks_and_the_corpus_into_the_same_bytes(
        compiled_tree: Path, tmp_path: Path) -> None:
    if not SHARED.is_dir():
        pytest.skip("../shared is absent")
    pdfs = sorted(str(p) for p in (SHARED / "bench").rglob("*.pdf")) + sorted(
        str(p) for p in (SHARED / "corpus").rglob("*.pdf") if "hostile" not in p.parts)
    assert len(pdfs) > 300
    outputs = []
    for name, tree in (("python", None), ("compiled", compiled_tree)):
        out = tmp_path / f"{name}.jsonl"
        done = _python(tree, ORGANIZE, str(CORPUS_PAGES), str(out), stdin="\n".join(pdfs))
        assert done.returncode == 0, done.stderr[-3000:]
        outputs.append(out.read_bytes())
    python, built = outputs
    organized = python.count(b'"blocks"')
    assert organized > 2000  # pages organized, not fallen back
    assert b"organize_error" not in built
    if python != built:
        first = next(i for i, (a, b) in enumerate(zip(python.splitlines(), built.splitlines(), strict=False)) if a != b)
        pytest.fail(f"line {first} differs:\n{python.splitlines()[first][:400]!r}\n{built.splitlines()[first][:400]!r}")
