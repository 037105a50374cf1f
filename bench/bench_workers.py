"""How wall time falls with ``--workers``: the dense 2,100-page report organized to Markdown
(``extract --no-cache --markdown``) split over 1 to 4 extraction children on this machine,
with the parent's CPU (reading the children's pages, organizing, writing) and the children's
measured apart, and what the same work would take on 8 and 16 cores.

The projection: the parent reads and organizes the pages in order while the children extract
them, so a run takes at least the parent's CPU (the part no worker shares) and at least the
whole tree's CPU spread over the cores; the larger of the two is the best a machine with that
many cores can do. The children's CPU is taken from the run with the most workers measured
(each child's start and its PDF's parse are paid once per child).

    .venv/bin/python bench/run.py workers
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench.common import compiled_env, fixture, run_tree, table

WORKERS = (1, 2, 3, 4)
PROJECTED = (8, 16)
REPEAT = 3
# The command run in-process with its own and its children's CPU written out at its exit
# (siftpdf ends with os._exit, which skips atexit: the call is wrapped); with -P, so that the
# current folder (a source tree) does not come before the build measured.
WRAPPER = """
import os, resource, sys
from siftpdf.cli import main
exit_now = os._exit
def report(code):
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.environ["BENCH_RUSAGE"], "w") as out:
        out.write(f"{own.ru_utime + own.ru_stime} {kids.ru_utime + kids.ru_stime}")
    exit_now(code)
os._exit = report
sys.argv[0] = "siftpdf"
main()
"""


def _build_env() -> tuple[str, dict[str, str]]:
    """The build measured: the compiled copy (as ``pip install .`` builds it) when it can be
    built here, else the Python modules."""
    try:
        return "compiled", compiled_env()
    except RuntimeError as exc:
        return f"Python ({exc})", {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _run(path: Path, workers: int, env: dict[str, str], rusage: Path) -> tuple[float, float, float]:
    """Wall seconds, the parent's CPU and the children's CPU of one run."""
    cmd = [sys.executable, "-P", "-c", WRAPPER, "extract", "--no-cache", "--markdown", "--max-pages", "5000",
           "--workers", str(workers), str(path)]
    wall, _cpu, _peak, code = run_tree(cmd, env={**env, "BENCH_RUSAGE": str(rusage)}, sample=False)
    if code != 0:
        raise RuntimeError(f"{' '.join(cmd[3:])} exited {code}")
    own, kids = (float(word) for word in rusage.read_text().split())
    return wall, own, kids


def run() -> None:
    build, env = _build_env()
    path = fixture("dense")
    cores = os.cpu_count() or 1
    print(f"load average {os.getloadavg()[0]:.1f} on {cores} CPUs; siftpdf {build}")
    runs: dict[int, list[tuple[float, float, float]]] = {workers: [] for workers in WORKERS}
    with tempfile.TemporaryDirectory() as tmp:
        rusage = Path(tmp) / "rusage"
        for _ in range(REPEAT):
            for workers in WORKERS:  # by turns, so the machine's moods fall on all
                runs[workers].append(_run(path, workers, env, rusage))
    medians = {workers: tuple(statistics.median(values) for values in zip(*measured, strict=True))
               for workers, measured in runs.items()}
    alone = medians[1][0]
    rows = [[str(workers), f"{wall:.2f} s", f"{alone / wall:.2f}x", f"{parent:.2f} s", f"{children:.2f} s"]
            for workers, (wall, parent, children) in medians.items()]
    table(f"The dense report, 2,100 pages, extract --no-cache --markdown --workers N on {cores} cores "
          f"(median of {REPEAT}, by turns)", ["workers", "wall", "speed-up", "parent CPU", "children CPU"], rows)
    _, parent, children = medians[max(WORKERS)]
    rows = [[str(n), f"{max(parent, (parent + children) / n):.2f} s",
             f"{alone / max(parent, (parent + children) / n):.2f}x",
             "the parent" if parent >= (parent + children) / n else "the children"] for n in PROJECTED]
    table("Projected: --workers N on N cores, at best max(parent CPU, tree CPU / N)",
          ["cores", "wall at best", "speed-up on 1 worker here", "bound by"], rows)
