"""Cache-hit siftpdf against pdfgrep on 600+ page PDFs, measured in the same run.

    python bench/bench_cache.py        (or: make bench, which calls run())

For each document: extract it once into a private cache, then time the cache-hit
``siftpdf grep`` and ``siftpdf pages 41-60`` and ``pdfgrep -n`` on the same file (wall clock,
whole processes, median of several runs). Targets: 20x faster than pdfgrep and under 120 ms
per cache-hit command. The documents are the ``long`` corpus files of 600+ pages when
../shared/corpus is present, else a generated 650-page PDF.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "long"
DATA = HERE / ".data"
CORPUS_DOCS = [("n1570.pdf", "undefined behavior"), ("Arm_cortex_a55_trm.pdf", "cache line")]
RUNS = 7
PEER_RUNS = 3


def _documents() -> list[tuple[Path, str]]:
    found = [(CORPUS / name, pattern) for name, pattern in CORPUS_DOCS if (CORPUS / name).exists()]
    if found:
        return found
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / "generated_650.pdf"
    if not path.exists():
        sys.path.insert(0, str(ROOT / "tests"))
        import make_fixtures

        body = {n: [f"Page {n} of the generated report.", make_fixtures.FILLER] for n in range(1, 651)}
        body[321] = ["Page 321 of the generated report.", "The quartz zebra clause lives here."]
        path.write_bytes(make_fixtures.pages_doc(650, "Generated 650", body))
    return [(path, "quartz zebra")]


def _siftpdf() -> list[str]:
    script = Path(sys.executable).with_name("siftpdf")
    return [str(script)] if script.exists() else [sys.executable, "-m", "siftpdf"]


def _time(argv: list[str], env: dict[str, str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) milliseconds of each run. CPU time says what the command
    costs when the machine is busy with other work and wall time is inflated."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        walls.append((time.perf_counter() - started) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
        if result.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed: {result.stderr.decode()[:300]}")
    return walls, cpus


def _pages(path: Path) -> int:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return 0


def run() -> None:
    if not shutil.which("pdfgrep"):
        print("bench_cache: pdfgrep is not installed (apt-get install pdfgrep); skipped")
        return
    # Installed packages carry compiled bytecode; make sure this tree does too, whatever
    # PYTHONDONTWRITEBYTECODE says, so start-up is measured as users get it.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "siftpdf")], check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   stdout=subprocess.DEVNULL)
    sift = _siftpdf()
    print(f"cache-hit siftpdf vs pdfgrep -n: milliseconds per whole command, median of {RUNS} runs "
          f"(pdfgrep {PEER_RUNS}); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'document':<24} {'pages':>5}  {'command':<26} {'wall':>7} {'min':>7} {'cpu':>7}"
          f" {'x pdfgrep wall':>15} {'x cpu':>6}")
    with tempfile.TemporaryDirectory(prefix="siftpdf-bench-") as tmp:
        children = Path(tmp) / "children.log"
        env = dict(os.environ, SIFTPDF_CACHE_DIR=str(Path(tmp) / "cache"))
        # Children are counted by the tests' seam, in untimed runs only (it loads at start-up).
        counted = dict(env, SIFTPDF_TEST_CHILD_LOG=str(children), PYTHONPATH=str(ROOT / "tests" / "seams"))
        for path, pattern in _documents():
            subprocess.run([*sift, "extract", str(path)], env=counted, stdout=subprocess.DEVNULL, check=True)
            before = children.read_text().count("\n") if children.exists() else 0
            commands = [("siftpdf grep (cache hit)", [*sift, "grep", pattern, str(path)]),
                        ("siftpdf pages 41-60 (hit)", [*sift, "pages", "41-60", str(path)])]
            for _, argv in commands:
                subprocess.run(argv, env=counted, stdout=subprocess.DEVNULL, check=False)
            after = children.read_text().count("\n") if children.exists() else 0
            if after != before:
                raise SystemExit("bench_cache: a timed command started an extraction child (not a cache hit)")
            rows = [(name, _time(argv, env, RUNS)) for name, argv in commands]
            rows.append(("pdfgrep -n -i", _time(["pdfgrep", "-n", "-i", pattern, str(path)], env, PEER_RUNS)))
            peer_wall, peer_cpu = (statistics.median(x) for x in rows[-1][1])
            for name, (walls, cpus) in rows:
                wall, cpu = statistics.median(walls), statistics.median(cpus)
                print(f"{path.name[:24]:<24} {_pages(path):>5}  {name:<26} {wall:>7.1f} {min(walls):>7.1f}"
                      f" {cpu:>7.1f} {peer_wall / wall:>14.1f}x {peer_cpu / cpu:>5.1f}x")


if __name__ == "__main__":
    run()
