"""The memory watchdog (where the kernel does not enforce RLIMIT_AS, as on macOS), simulated on
this Linux machine: the command runs with :func:`siftpdf.system.rlimit_enforced` answering
False, so its children set no RLIMIT_AS and only the parent's watchdog holds them to the limit.
Beside it, the same command with RLIMIT_AS (Linux as it is), through the same wrapper.

1. A child that allocates 4 GiB: one page whose content stream PDFium inflates to 4 GiB
   (tests/make_hostile.py), read with ``--memory-limit 512``. This benchmark samples the
   child's resident memory every millisecond from outside and reports the time from the first
   reading over 512 MiB to the child's death (target: within 1 s), and the most it held.
2. ``siftpdf pages 1 samples/sample.pdf`` with the default options on a fresh cache (so a child
   reads it), watchdog and RLIMIT_AS alternating: both must succeed; the wall times show what
   the watchdog costs a cold command.

    make bench                      # every benchmark
    .venv/bin/python bench/run.py watchdog
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.common import ROOT, table

sys.path.insert(0, str(ROOT / "tests"))
import make_hostile  # noqa: E402

LIMIT_MIB = 512
HOG_BYTES = 4 << 30
REPEAT = 5  # runs of the 4 GiB page each way
SAMPLE_REPEAT = 9  # runs of the sample each way
SAMPLE = ROOT / "samples" / "sample.pdf"
# The console command, with the mechanism decided as on a platform without RLIMIT_AS (or not).
WRAPPER = ("import sys, siftpdf.system as s\n"
           "if sys.argv.pop(1) == 'watchdog':\n"
           "    s.rlimit_enforced = lambda: False\n"
           "from siftpdf.cli import main\n"
           "main()\n")
WAYS = ("watchdog", "rlimit")


def _command(way: str, *args: str) -> list[str]:
    return [sys.executable, "-c", WRAPPER, way, *args]


class _Sampler:
    """Samples the resident memory of every extraction child of ``root`` each millisecond:
    when each was first seen over ``limit`` and when it was first seen gone (killed)."""

    def __init__(self, root: int, limit: int) -> None:
        self.root, self.limit = root, limit
        self.crossed: dict[int, float] = {}
        self.gone: dict[int, float] = {}
        self.peak: dict[int, int] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import psutil

        known: dict[int, psutil.Process] = {}
        try:
            root = psutil.Process(self.root)
        except psutil.Error:
            return
        while not self.done.is_set():
            try:
                for child in root.children(recursive=True):
                    if child.pid not in known and "siftpdf.child.main" in child.cmdline():
                        known[child.pid] = child
            except psutil.Error:
                pass
            for pid, child in known.items():
                if pid in self.gone:
                    continue
                now = time.perf_counter()
                try:
                    if child.status() == psutil.STATUS_ZOMBIE:
                        raise psutil.NoSuchProcess(pid)
                    rss = child.memory_info().rss
                except psutil.Error:
                    self.gone[pid] = now
                    continue
                self.peak[pid] = max(self.peak.get(pid, 0), rss)
                if rss > self.limit and pid not in self.crossed:
                    self.crossed[pid] = now
            time.sleep(0.001)

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def _hog_run(way: str, hog: Path, cache: Path) -> dict[str, object]:
    env = {**os.environ, "SIFTPDF_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    started = time.perf_counter()
    proc = subprocess.Popen(_command(way, "pages", "1", "--no-cache", "--memory-limit", str(LIMIT_MIB), str(hog)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    sampler = _Sampler(proc.pid, LIMIT_MIB << 20)
    _, err = proc.communicate(timeout=300)
    ended = time.perf_counter()
    sampler.stop()
    crossed = [(sampler.gone.get(pid, ended) - at, pid) for pid, at in sampler.crossed.items()]
    kill = max(crossed)[0] if crossed else None
    peak = max(sampler.peak.values(), default=0)
    return {"code": proc.returncode, "seconds": ended - started, "kill": kill, "peak": peak,
            "message": err.decode(errors="replace").splitlines()[0] if err else ""}


def _sample_run(way: str, cache: Path) -> tuple[float, int]:
    env = {**os.environ, "SIFTPDF_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    started = time.perf_counter()
    done = subprocess.run(_command(way, "pages", "1", str(SAMPLE)), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          env=env, timeout=120)
    ok = done.returncode == 0 and b"Why rivers meander" in done.stdout
    return time.perf_counter() - started, int(ok)


def run() -> None:
    with tempfile.TemporaryDirectory(prefix="siftpdf-watchdog-") as tmp:
        hog = Path(tmp) / "hog-4g.pdf"
        hog.write_bytes(make_hostile.memory_hog(HOG_BYTES))
        hogs: dict[str, list[dict[str, object]]] = {way: [] for way in WAYS}
        samples: dict[str, list[tuple[float, int]]] = {way: [] for way in WAYS}
        runs = 0
        for _ in range(REPEAT):  # the two ways alternate: a busy moment of the machine hits both
            for way in WAYS:
                runs += 1
                hogs[way].append(_hog_run(way, hog, Path(tmp) / f"cache-{runs}"))
        for _ in range(SAMPLE_REPEAT):
            for way in WAYS:
                runs += 1
                samples[way].append(_sample_run(way, Path(tmp) / f"cache-{runs}"))
    rows = []
    for way in WAYS:
        results = hogs[way]
        kills = [r["kill"] for r in results if r["kill"] is not None]
        kill = (f"{statistics.median(kills) * 1000:.0f} ms (max {max(kills) * 1000:.0f} ms)"  # type: ignore[arg-type]
                if kills else "never crossed")
        codes = sorted({str(r["code"]) for r in results})
        peak = max(int(r["peak"]) for r in results) >> 20  # type: ignore[call-overload]
        seconds = statistics.median(float(r["seconds"]) for r in results)  # type: ignore[arg-type]
        rows.append([way, f"{seconds * 1000:.0f} ms", kill, f"{peak} MiB", "/".join(codes), str(results[0]["message"])])
    table(f"A page that makes PDFium allocate 4 GiB, --memory-limit {LIMIT_MIB} (median of {REPEAT}; target for "
          "the watchdog: killed within 1 s of crossing the limit)",
          ["mechanism", "command ends", "crossing the limit -> child killed", "most the child held", "exit",
           "message"], rows)
    rows = []
    for way in WAYS:
        seconds = statistics.median(r[0] for r in samples[way])
        rows.append([way, f"{seconds * 1000:.0f} ms", f"{sum(r[1] for r in samples[way])} of {SAMPLE_REPEAT}"])
    table(f"`siftpdf pages 1 samples/sample.pdf`, default options, fresh cache (median of {SAMPLE_REPEAT})",
          ["mechanism", "wall time", "succeeded"], rows)
