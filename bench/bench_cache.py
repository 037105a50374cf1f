"""Cache-hit siftpdf against ``python -c pass`` and pdfgrep, and ``siftpdf --help``, in one run.

    python bench/bench_cache.py        (or: make bench, which calls run())

For each document: extract it once into a private cache, then time the cache-hit
``siftpdf pages 3``, ``pages 41-60`` (where the document has them) and ``grep``, and
``pdfgrep -n -i`` on the same file (wall clock and CPU, whole processes, median of several
runs, the commands interleaved so that a change of load hits them alike). Every time is also
given as a multiple of ``python -c pass`` measured in the same rounds. The documents: a 23-page
corpus paper (../shared/corpus), the 2,100-page dense fixture (bench/.data/dense_2100.pdf, made
on first use) and the ``long`` corpus books when present.

Targets: a cache-hit ``pages N`` and ``grep`` on the 23-page paper within 2x ``python -c pass``
(2.5x until the hits were made lighter, 2026-12-05); a cache-hit ``grep`` on the 2,100 pages
at least 50x faster than pdfgrep; ``siftpdf --help`` within 2x ``python -c pass``.
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

from bench.common import CORPUS, ROOT, fixture

PAPER = ("paper/languages-paradigms_functional_programming_why-functional-programming-matters.pdf", "lazy evaluation")
BOOKS = [("long/n1570.pdf", "undefined behavior"), ("long/Arm_cortex_a55_trm.pdf", "cache line")]
DENSE_NEEDLE = "thirty seven zebra"  # tests/make_fixtures.NEEDLE, on page 1337
RUNS = 9
PEER_RUNS = 3
TARGET_PAPER = 2.0  # x python -c pass
TARGET_DENSE = 50.0  # x faster than pdfgrep
TARGET_HELP = 2.0  # x python -c pass


def _documents() -> list[tuple[str, Path, str]]:
    found = []
    if (CORPUS / PAPER[0]).exists():
        found.append(("paper", CORPUS / PAPER[0], PAPER[1]))
    found.append(("dense", fixture("dense"), DENSE_NEEDLE))
    found += [("book", CORPUS / name, pattern) for name, pattern in BOOKS if (CORPUS / name).exists()]
    return found


def _siftpdf() -> list[str]:
    script = Path(sys.executable).with_name("siftpdf")
    return [str(script)] if script.exists() else [sys.executable, "-m", "siftpdf"]


def _once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one run. CPU time says what the command
    costs when the machine is busy with other work and wall time is inflated."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed: {result.stderr.decode()[:300]}")
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


Times = tuple[list[float], list[float]]  # wall and CPU milliseconds of each run


def _rounds(commands: dict[str, list[str]], env: dict[str, str], runs: int) -> dict[str, Times]:
    """Each command ``runs`` times, interleaved."""
    times: dict[str, Times] = {name: ([], []) for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            wall, cpu = _once(argv, env)
            times[name][0].append(wall)
            times[name][1].append(cpu)
    return times


def _pages(path: Path) -> int:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return 0


def _row(document: str, pages: str, name: str, times: Times, base: float,
         peer: float | None) -> str:
    walls, cpus = times
    wall = statistics.median(walls)
    vs_peer = f"{peer / wall:11.1f}x" if peer else f"{'':>12}"
    return (f"{document[:24]:<24} {pages:>5}  {name:<28} {wall:7.1f} {min(walls):7.1f} {statistics.median(cpus):7.1f}"
            f" {wall / base:8.2f}x {vs_peer}")


def run() -> None:
    if not shutil.which("pdfgrep"):
        print("bench_cache: pdfgrep is not installed (apt-get install pdfgrep); skipped")
        return
    from bench.common import compiled

    compiled()
    sift = _siftpdf()
    base_argv = [sys.executable, "-c", "pass"]
    print(f"cache-hit siftpdf vs python -c pass and pdfgrep -n -i: milliseconds per whole command, median of "
          f"{RUNS} interleaved runs (pdfgrep {PEER_RUNS}); load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs")
    print(f"{'document':<24} {'pages':>5}  {'command':<28} {'wall':>7} {'min':>7} {'cpu':>7} {'x pass':>9}"
          f" {'x pdfgrep':>12}")
    verdicts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="siftpdf-bench-") as tmp:
        children = Path(tmp) / "children.log"
        env = dict(os.environ, SIFTPDF_CACHE_DIR=str(Path(tmp) / "cache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # Children are counted by the tests' seam, in untimed runs only (it loads at start-up).
        counted = dict(env, SIFTPDF_TEST_CHILD_LOG=str(children), PYTHONPATH=str(ROOT / "tests" / "seams"))
        helped = _rounds({"python -c pass": base_argv, "siftpdf --help": [*sift, "--help"]}, env, RUNS)
        base = statistics.median(helped["python -c pass"][0])
        print(_row("-", "", "python -c pass", helped["python -c pass"], base, None))
        print(_row("-", "", "siftpdf --help", helped["siftpdf --help"], base, None))
        ratio = statistics.median(helped["siftpdf --help"][0]) / base
        verdicts.append(f"--help {ratio:.2f}x python -c pass (target <= {TARGET_HELP}x): "
                        f"{'met' if ratio <= TARGET_HELP else 'NOT met'}")
        for kind, path, pattern in _documents():
            count = _pages(path)
            subprocess.run([*sift, "extract", "--max-pages", "5000", str(path)], env=counted,
                           stdout=subprocess.DEVNULL, check=True)
            commands = {"siftpdf pages 3 (hit)": [*sift, "pages", "--max-pages", "5000", "3", str(path)]}
            if count >= 60:
                commands["siftpdf pages 41-60 (hit)"] = [*sift, "pages", "--max-pages", "5000", "41-60", str(path)]
            commands["siftpdf grep (hit)"] = [*sift, "grep", "--max-pages", "5000", pattern, str(path)]
            if kind == "paper":  # the default options: what most calls are
                commands = {name: [word for word in argv if word not in ("--max-pages", "5000")]
                            for name, argv in commands.items()}
                subprocess.run([*sift, "extract", str(path)], env=counted, stdout=subprocess.DEVNULL, check=True)
            before = children.read_text().count("\n") if children.exists() else 0
            for argv in commands.values():
                subprocess.run(argv, env=counted, stdout=subprocess.DEVNULL, check=False)
            after = children.read_text().count("\n") if children.exists() else 0
            if after != before:
                raise SystemExit("bench_cache: a timed command started an extraction child (not a cache hit)")
            times = _rounds({"python -c pass": base_argv, **commands}, env, RUNS)
            peer_times = _rounds({"pdfgrep -n -i": ["pdfgrep", "-n", "-i", pattern, str(path)]}, env, PEER_RUNS)
            floor = times.pop("python -c pass")
            base = statistics.median(floor[0])
            peer = statistics.median(peer_times["pdfgrep -n -i"][0])
            print(_row(path.name, str(count), "python -c pass (beside it)", floor, base, None))
            for name, measured in [*times.items(), *peer_times.items()]:
                print(_row(path.name, str(count), name, measured, base, peer))
            grep = statistics.median(times["siftpdf grep (hit)"][0])
            if kind == "paper":
                worst = max(statistics.median(times[name][0]) for name in times) / base
                verdicts.append(f"paper ({count} pages) cache hits at most {worst:.2f}x python -c pass "
                                f"(target <= {TARGET_PAPER}x): {'met' if worst <= TARGET_PAPER else 'NOT met'}")
            elif kind == "dense":
                met = "met" if peer / grep >= TARGET_DENSE else "NOT met"
                verdicts.append(f"dense ({count} pages) cache-hit grep {peer / grep:.0f}x faster than pdfgrep "
                                f"(target >= {TARGET_DENSE:.0f}x): {met}")
    print("\n".join(verdicts))


if __name__ == "__main__":
    run()
