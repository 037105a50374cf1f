"""The shared cache (``--cache-url``) on a real redis-server, in one run.

    python bench/bench_redis.py        (or: make bench, which calls run())

1. ``siftpdf pages 41-60`` of an 80-page document (bench/.data/shared_80.pdf, generated) as a
   hit on this machine's cache, and as a hit on the shared server only: each of those runs has
   an empty cache dir of its own (a new sandbox), so it reads the document from the server
   (the console's fast path, siftpdf/store/shared_reader.py) and copies it here after answering, in a
   process of its own: the next command starts when that copy is over, and the copying
   process is measured on its own too. Whole processes, wall and CPU, median of interleaved
   runs, beside ``python -c pass``; also the local hit through the click commands
   (``--allow-private``, which the fast path does not answer) and ``python -c 'import redis'``
   (the client's import, paid by the commands and the copy when they ask the server).
   Target: the server hit within 1.5x the local hit.
2. ``siftpdf serve``: N concurrent ``/v1/fetch`` of one URL (a loopback upstream that counts
   its GETs) on one instance; on two instances with caches of their own (two machines), the
   requests split between them, without a shared server; and on two sharing one. Upstream
   GETs, extractions (children, from the instances' metrics) and wall time. Target: one GET
   and one child for the N requests across the instances.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / ".data"
RUNS = 9
REQUESTS = 20
TARGET_RATIO = 1.5
COPY = "copy here (background, once)"

sys.path.insert(0, str(ROOT / "tests"))


def _document() -> Path:
    path = DATA / "shared_80.pdf"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        import make_fixtures

        path.write_bytes(make_fixtures.book(80))
    return path


def _siftpdf() -> list[str]:
    script = Path(sys.executable).with_name("siftpdf")
    return [str(script)] if script.exists() else [sys.executable, "-m", "siftpdf"]


def _once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0 or result.stderr:
        raise SystemExit(f"bench_redis: {' '.join(argv)}: exit {result.returncode} {result.stderr.decode()[:300]}")
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def _hits(sift: list[str], pdf: Path, url: str, tmp: Path) -> list[str]:
    """Part 1: the rows, and the verdict last."""
    env = dict(os.environ, SIFTPDF_CACHE_DIR=str(tmp / "here"), SIFTPDF_CACHE_URL=url)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([*sift, "extract", str(pdf)], env=env, stdout=subprocess.DEVNULL, check=True)
    pages = [*sift, "pages", "41-60", str(pdf)]
    children = tmp / "children.log"
    counted = dict(env, SIFTPDF_TEST_CHILD_LOG=str(children), PYTHONPATH=str(ROOT / "tests" / "seams"),
                   SIFTPDF_CACHE_DIR=str(tmp / "check"))
    subprocess.run(pages, env=counted, stdout=subprocess.DEVNULL, check=True)
    if children.exists():
        raise SystemExit("bench_redis: a hit on the server started an extraction child")
    commands = {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        "python -c 'import redis'": ([sys.executable, "-c", "import redis"], None),
        "local hit (fast path)": (pages, None),
        "local hit (click commands)": ([*pages[:-1], "--allow-private", str(pdf)], None),
        "server hit (empty cache dir)": (pages, "fresh"),
    }
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in commands}
    times[COPY] = ([], [])
    for run in range(RUNS):
        for name, (argv, fresh) in commands.items():
            run_env = dict(env, SIFTPDF_CACHE_DIR=str(tmp / f"fresh{run}")) if fresh else env
            wall, cpu = _once(argv, run_env)
            times[name][0].append(wall)
            times[name][1].append(cpu)
            if fresh:  # its copy here, in the background: over before the next command starts
                _copied(tmp / f"fresh{run}")
        wall, cpu = _once(_copy_argv(pdf, url, tmp / f"copy{run}"), env)
        times[COPY][0].append(wall)
        times[COPY][1].append(cpu)
    local = statistics.median(times["local hit (fast path)"][0])
    rows = [f"{name:<30} {statistics.median(walls):8.1f} {min(walls):8.1f} {statistics.median(cpus):8.1f}"
            f" {statistics.median(walls) / local:8.2f}x" for name, (walls, cpus) in times.items()]
    ratio = statistics.median(times["server hit (empty cache dir)"][0]) / local
    verdict = (f"server hit {ratio:.2f}x the local hit (target <= {TARGET_RATIO}x): "
               f"{'met' if ratio <= TARGET_RATIO else 'NOT met'}")
    return [*rows, verdict]


def _copied(directory: Path, timeout: float = 60.0) -> None:
    from siftpdf.store.local_reader import View, code_identity

    deadline = time.monotonic() + timeout
    while not (directory / "docs" / "cache.db").exists() or View(directory)._get(
            "docs", f"digest|cli:2000|{code_identity()}") is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"bench_redis: a hit on the server was not copied into {directory}")
        time.sleep(0.005)


def _copy_argv(pdf: Path, url: str, directory: Path) -> list[str]:
    """The command line of the process that copies a hit on the server here (what the fast
    path starts after answering)."""
    from siftpdf.store.local_reader import file_stamp
    from siftpdf.store.shared_reader import copy_command, find

    found = find(url, "default", "cli:2000", str(pdf.resolve()), file_stamp(pdf.stat()), pdf.stat().st_size,
                 str(directory))
    command = copy_command(found[0]) if found is not None else None
    if found is None or command is None:
        raise SystemExit("bench_redis: the fast path found no hit on the server")
    found[0].close()
    return command[0]


class _Instances:
    """``siftpdf serve`` instances, each with a cache dir of its own (a machine each)."""

    def __init__(self, tmp: Path, count: int, url: str | None) -> None:
        from test_serve import Serve

        args = ["--no-auth", *(["--cache-url", url] if url else [])]
        self.servers = [Serve(tmp, *args, "--cache-dir", str(tmp / f"serve{os.urandom(4).hex()}"))
                        for _ in range(count)]

    def fetch_all(self, url: str, count: int) -> tuple[float, list[int]]:
        statuses = [0] * count
        barrier = threading.Barrier(count + 1)

        def one(index: int) -> None:
            barrier.wait()
            statuses[index] = self.servers[index % len(self.servers)].fetch({"url": url, "pages": "41-60"}).status_code

        threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        barrier.wait()
        started = time.perf_counter()
        for thread in threads:
            thread.join(300)
        return time.perf_counter() - started, statuses

    def extractions(self) -> int:
        import httpx

        total = 0.0
        for server in self.servers:
            for line in httpx.get(server.base + "/metrics").text.splitlines():
                if line.startswith('siftpdf_pdf_extract_total{outcome="ok"}'):
                    total += float(line.split()[-1])
        return int(total)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


def _instances(pdf: Path, url: str, tmp: Path) -> list[str]:
    """Part 2: the rows, and the verdict last."""
    from httpserver import Route, Running

    upstream = Running("127.0.0.1")
    rows, verdict = [], ""
    try:
        for number, (label, count, shared) in enumerate([("one instance", 1, False),
                                                         ("two instances, no shared cache", 2, False),
                                                         ("two instances sharing Redis", 2, True)]):
            path = f"/doc{number}.pdf"  # a URL of its own each time: nothing cached before
            upstream.server.routes[path] = Route(pdf.read_bytes())
            instances = _Instances(tmp, count, url if shared else None)
            try:
                wall, statuses = instances.fetch_all(upstream.server.url(path), REQUESTS)
                gets, children = len(upstream.server.gets(path)), instances.extractions()
            finally:
                instances.stop()
            failed = sum(status != 200 for status in statuses)
            rows.append(f"{label:<32} {REQUESTS:>8} {gets:>5} {children:>9} {wall:8.2f} s {failed:>7}")
            if shared:
                met = gets == 1 and children == 1 and failed == 0
                verdict = (f"two instances sharing Redis: {gets} GET, {children} child for {REQUESTS} requests "
                           f"(target 1 and 1, none failed): {'met' if met else 'NOT met'}")
    finally:
        upstream.stop()
    return [*rows, verdict]


def run() -> None:
    if not shutil.which("redis-server"):
        print("bench_redis: redis-server is not installed (apt-get install redis-server); skipped")
        return
    from bench.common import compiled

    compiled()
    from redisserver import RedisServer

    pdf = _document()
    with tempfile.TemporaryDirectory(prefix="siftpdf-bench-redis-") as folder:
        tmp = Path(folder)
        server = RedisServer(tmp)
        try:
            hits = _hits(_siftpdf(), pdf, server.url, tmp)
            server.client().flushall()
            instances = _instances(pdf, server.url, tmp)
        finally:
            server.stop()
    print(f"pages 41-60 of an 80-page document: milliseconds per whole command, median of {RUNS} interleaved "
          f"runs; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'command':<30} {'wall':>8} {'min':>8} {'cpu':>8} {'x local':>9}")
    print("\n".join(hits[:-1]))
    print(f"\n{REQUESTS} concurrent /v1/fetch of one URL (pages 41-60), requests split between the instances")
    print(f"{'setup':<32} {'requests':>8} {'GETs':>5} {'children':>9} {'wall':>10} {'failed':>7}")
    print("\n".join(instances[:-1]))
    print(hits[-1])
    print(instances[-1])


if __name__ == "__main__":
    run()
