"""The compiled organization and the evidence's C loops (siftpdf/compiled.py) against the
Python ones: the copy that tools/compiled.py builds, as ``pip install .`` builds it, runs its
modules compiled, reads the evidence with its C loops, and organizes every page of the
benchmarks and the corpus into the same bytes as the Python modules do. (``make check`` also
runs the organization's own tests on that copy.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from siftpdf import compiled

pytestmark = pytest.mark.check  # make check: the compiled copy's build and its tests

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


# The C loops against the Python ones on answers made up for them: PDFium's entry points are
# replaced by ctypes callbacks (for the C loops) and by Python functions (for the Python ones)
# that give the same answers, on pages of text objects, runs of glyph boxes with some missing,
# and paths with moves, lines, curves and closes; run in the compiled copy.
LOOPS = """
import ctypes, random, sys
from siftpdf.child import evidence

loops = evidence._LOOPS
assert loops is not None, "the C loops are not built"
rng = random.Random(11)
VP, INT, F = ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)
now = {}
def answer(name, *args):
    return now[name](*args)
callbacks = [
    ctypes.CFUNCTYPE(VP, VP, INT)(lambda path, index: answer("segment", index)),
    ctypes.CFUNCTYPE(INT, VP, F, F)(lambda segment, x, y: answer("point", segment, x, y)),
    ctypes.CFUNCTYPE(INT, VP)(lambda segment: answer("type", segment)),
    ctypes.CFUNCTYPE(INT, VP)(lambda segment: answer("close", segment)),
    ctypes.CFUNCTYPE(INT, VP, INT, VP)(lambda tp, index, rect: answer("box", index, rect)),
    ctypes.CFUNCTYPE(VP, VP, INT)(lambda tp, index: answer("object", index)),
]
loops.bind(*(ctypes.cast(c, VP).value for c in callbacks))

def both(run):
    evidence._LOOPS = loops
    built = run()
    evidence._LOOPS = None
    return built, run()

checked = {"spans": 0, "gaps": 0, "paths": 0}
for _ in range(300):  # stretches: lines of objects, generated spaces and CR LF between them
    objects, chars, handle = [], [], 100
    for line in range(rng.randint(1, 10)):
        if line:
            objects += [0, 0]; chars += ["\\r", "\\n"]
        for k in range(rng.randint(1, 6)):
            if k and rng.random() < 0.4:
                objects.append(0); chars.append(" ")
            handle += rng.choice([1, 1, 0]) if k else 1
            length = rng.randint(1, 30)
            objects += [handle] * length; chars += [rng.choice("ab c") for _ in range(length)]
    text = "".join(chars)
    now["object"] = lambda index: objects[index] or None
    evidence.CHAR_TEXT_OBJECT = lambda tp, index: objects[index] or None
    built, python = both(lambda: evidence._spans(VP(1), text, len(objects)))
    assert built == python, (objects, text)
    checked["spans"] += 1
rect = evidence._PROBE.rect
for _ in range(2000):  # gaps: glyph boxes, some missing, the budget now and then short
    words = [rng.choice(["a", "I", "7", "word", "(3", "-"]) for _ in range(rng.randint(1, 12))]
    text = "".join(w + " " * rng.choice([1, 1, 2, 5]) for w in words).rstrip()
    first, x, boxes = rng.randint(0, 50), 0.0, {}
    for offset, char in enumerate(text):
        width = 5.0 if char != " " else rng.choice([2.5, 9.1, 4.7, 8.0, 5.0])  # 8 and 5: just wide
        if rng.random() > 0.05:
            boxes[first + offset] = (x, x + width)
        x += width + rng.choice([0.0, 0.0, 3.3])
    def box(index, address):
        if index not in boxes:
            return 0
        found = ctypes.cast(address, ctypes.POINTER(type(rect))).contents
        found.left, found.right = boxes[index]
        return 1
    now["box"] = box
    evidence.LOOSE_CHAR_BOX = lambda tp, index, ref: box(index, ref.value)
    budget = rng.choice([8000, 8000, 5, 2, 0])
    def gaps():
        evidence._PROBE.gap_probes = budget
        rect.left = rect.right = -1.0
        return evidence._gaps(VP(1), first, text, 10.0), evidence._PROBE.gap_probes, rect.left, rect.right
    built, python = both(gaps)
    assert built == python, (text, boxes, budget)
    checked["gaps"] += 1
for _ in range(1500):  # paths: moves, lines, curves, closes, missing segments and points
    count = rng.randint(1, 24)
    kinds = [rng.choice([0, 0, 0, 1, 2]) for _ in range(count)]
    points = [(rng.choice([10.0, 10.4, 50.0, 200.25]) + rng.random() * rng.choice([0, 0, 1]),
               rng.choice([10.0, 10.3, 80.0, 700.5]) + rng.random() * rng.choice([0, 0, 1])) for _ in range(count)]
    closes = [rng.random() < 0.2 for _ in range(count)]
    missing = {i for i in range(count) if rng.random() < 0.05}
    now["segment"] = lambda index: None if index in missing else index + 1
    def point(segment, x, y):
        x[0], y[0] = points[segment - 1]
        return 1
    now["point"], now["type"], now["close"] = point, lambda s: kinds[s - 1], lambda s: int(closes[s - 1])
    evidence._SEGMENT = lambda handle, index: None if index in missing else index + 1
    def python_point(segment, x_ref, y_ref):
        x, y = points[segment - 1]
        ctypes.c_float.from_address(x_ref.value).value, ctypes.c_float.from_address(y_ref.value).value = x, y
        return 1
    evidence._SEGMENT_POINT = python_point
    evidence._SEGMENT_TYPE, evidence._SEGMENT_CLOSE = (lambda s: kinds[s - 1]), (lambda s: int(closes[s - 1]))
    matrix = rng.choice([evidence._IDENTITY, (1.0, 0.0, 0.0, 1.0, 3.5, -2.25), (0.5, 0.0, 0.0, -1.3, 10.0, 800.0)])
    start = rng.choice([0, 0, 9990])
    def rules():
        ruler = evidence._Ruler()
        ruler.segments = start
        evidence._rule_segments(ruler, 1, count, matrix)
        return list(ruler.rules), ruler.segments
    built, python = both(rules)
    assert built == python, (kinds, points, closes, missing, matrix, start)
    checked["paths"] += 1
# Stretches and runs: each answer a value, a NaN now and then, or a call that fails (the buffer
# keeps what it held); the buffers are set alike before each way, and compared after it.
probe = evidence._PROBE
NAN = float("nan")
def value():
    return rng.choice([0.0, 1.0, 10.5, -3.25, 612.0, NAN, 0.1 + rng.random()])
def write(kind, address, values):
    for k, one in enumerate(values):
        kind.from_address(address + k * ctypes.sizeof(kind)).value = one
def put(answer, kind, *addresses):  # the answer written at the addresses (one value each, or a row at the first)
    if answer is None:
        return 0
    if len(addresses) == 1:
        write(kind, addresses[0], answer)
    else:
        for address, one in zip(addresses, answer):
            write(kind, address, [one])
    return 1
U, FL, D = ctypes.c_uint, ctypes.c_float, ctypes.c_double
def entry_points(a):
    return {
        "size": lambda obj, out: put(a["size"], FL, out),
        "matrix": lambda obj, out: put(a["matrix"], FL, out),
        "drawn": lambda tp, index, out: put(a["drawn"].get(index), FL, out),
        "object fill": lambda obj, r, g, b, al: put(a["object fill"], U, r, g, b, al),
        "bounds": lambda obj, l, b, r, t: put(a["bounds"], FL, l, b, r, t),
        "font": lambda obj: a["font"],
        "clip": lambda obj: a["clip"],
        "box": lambda tp, index, out: put(a["boxes"].get(index), FL, out),
        "origin": lambda tp, index, x, y: put(a["origin"], D, x, y),
        "char fill": lambda tp, index, r, g, b, al: put(a["char fill"], U, r, g, b, al),
    }
answers = {}
def call(name, *args):
    return entry_points(answers)[name](*args)
P = VP
c_points = [
    ctypes.CFUNCTYPE(INT, P, P)(lambda o, out: call("size", o, out)),
    ctypes.CFUNCTYPE(INT, P, P)(lambda o, out: call("matrix", o, out)),
    ctypes.CFUNCTYPE(INT, P, INT, P)(lambda tp, i, out: call("drawn", tp, i, out)),
    ctypes.CFUNCTYPE(INT, P, P, P, P, P)(lambda o, *refs: call("object fill", o, *refs)),
    ctypes.CFUNCTYPE(INT, P, P, P, P, P)(lambda o, *refs: call("bounds", o, *refs)),
    ctypes.CFUNCTYPE(P, P)(lambda o: call("font", o)),
    ctypes.CFUNCTYPE(P, P)(lambda o: call("clip", o)),
    ctypes.CFUNCTYPE(INT, P, INT, P)(lambda tp, i, out: call("box", tp, i, out)),
    ctypes.CFUNCTYPE(INT, P, INT, P, P)(lambda tp, i, x, y: call("origin", tp, i, x, y)),
    ctypes.CFUNCTYPE(INT, P, INT, P, P, P, P)(lambda tp, i, *refs: call("char fill", tp, i, *refs)),
]
loops.bind_probe(tuple(ctypes.cast(c, VP).value for c in c_points),
                 tuple(ref.value for ref in (probe.size_ref, probe.matrix_ref, probe.drawn_ref, probe.rect_ref,
                                             *probe.rgba_refs, *probe.bounds_refs, probe.x_ref, probe.y_ref)))
def value_of(ref):
    return ref.value if isinstance(ref, VP) else ref
def python_point(name):  # the Python path's entry point: handles and buffers as c_void_p objects
    return lambda *args: call(name, *(value_of(a) for a in args))
for name, attribute in (("size", "TEXT_OBJECT_FONT_SIZE"), ("matrix", "OBJECT_MATRIX"), ("drawn", "CHAR_MATRIX"),
                        ("object fill", "_OBJECT_FILL"), ("bounds", "_OBJECT_BOUNDS"), ("font", "TEXT_OBJECT_FONT"),
                        ("clip", "_OBJECT_CLIP"), ("box", "LOOSE_CHAR_BOX"), ("origin", "_ORIGIN"),
                        ("char fill", "_FILL")):
    setattr(evidence, attribute, python_point(name))
def buffers():
    return repr((probe.size.value, tuple(getattr(probe.matrix, f) for f in "abcdef"),
                 tuple(getattr(probe.drawn, f) for f in "abcdef"),
                 tuple(getattr(probe.rect, f) for f in ("left", "bottom", "right", "top")),
                 [c.value for c in probe.rgba], [c.value for c in probe.bounds], probe.x.value, probe.y.value))
def reset():
    probe.size.value = 7.0
    for f in "abcdef":
        setattr(probe.matrix, f, 2.0)
        setattr(probe.drawn, f, 3.0)
    probe.rect.left = probe.rect.bottom = probe.rect.right = probe.rect.top = -1.0
    for c in (*probe.rgba, *probe.bounds):
        c.value = 5
    probe.x.value = probe.y.value = -2.0
def maybe(made):
    return None if rng.random() < 0.15 else made()
checked["stretches"] = checked["runs"] = 0
for _ in range(1500):
    first = rng.randint(0, 40)
    last = first + rng.choice([0, 0, 1, 7])
    answers.update({
        "size": maybe(lambda: [value()]), "matrix": maybe(lambda: [value() for _ in range(6)]),
        "drawn": {first: [value() for _ in range(6)]} if rng.random() < 0.8 else {},
        "object fill": maybe(lambda: [rng.randint(0, 255) for _ in range(4)]),
        "bounds": maybe(lambda: [value() for _ in range(4)]),
        "font": rng.choice([None, 4096, 8192]), "clip": rng.choice([None, 0, 12288]),
        "boxes": {i: [value() for _ in range(4)] for i in (first, last) if rng.random() < 0.9},
        "origin": maybe(lambda: [value(), value()]),
        "char fill": maybe(lambda: [rng.randint(0, 255) for _ in range(4)]),
    })
    def a_stretch():
        reset()
        if evidence._LOOPS is not None:
            has_matrix, drawn, font, clip = loops.stretch(2048, 1, first)
        else:
            has_matrix, drawn, font, clip = evidence._stretch(2048, VP(1), first)
        return repr((bool(has_matrix), bool(drawn), font or None, clip)), buffers()
    built, python = both(a_stretch)
    assert built == python, (answers, built, python)
    checked["stretches"] += 1
    def a_run():
        reset()
        found = loops.run_box(1, first, last) if evidence._LOOPS is not None else evidence._run_box(VP(1), first, last)
        return repr((*found[:4], bool(found[4]))), buffers()
    built, python = both(a_run)
    assert built == python, (answers, built, python)
    checked["runs"] += 1
print(checked)
"""


def test_the_c_loops_decide_as_the_python_ones_on_made_up_answers(compiled_tree: Path) -> None:
    done = _python(compiled_tree, LOOPS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "{'spans': 300, 'gaps': 2000, 'paths': 1500, 'stretches': 1500, 'runs': 1500}"
