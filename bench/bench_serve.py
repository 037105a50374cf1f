"""siftpdf serve under load: cached ``/v1/fetch`` with ``pages`` on a 600+ page document.

    python bench/bench_serve.py        (or: make bench, which calls run())
    python bench/bench_serve.py --soak [RUNS]   (the soak alone)

A loopback upstream serves the document; ``siftpdf serve`` runs as its own process with a
private cache; one request extracts the document into the cache; then a second process puts a
bounded load on the server: 16 concurrent keep-alive connections for ``DURATION`` seconds, each
asking for a different 3-page slice in turn. wrk does it when it is installed (apt-get install
wrk), else a Python load loop (threads, one httpx client each), which costs the machine more
CPU and so understates the server. Targets: at least 300 requests/s, p99 under 100 ms, no
error responses.
"""

from __future__ import annotations

import json
import os
import re
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
CONNECTIONS = 16
DURATION = 10.0
TARGET_RPS, TARGET_P99_MS = 300, 100.0


def _document() -> Path:
    sys.path.insert(0, str(ROOT))
    from bench.bench_cache import _documents

    return _documents()[0][0]


def _bodies(url: str, pages: int) -> list[str]:
    return [json.dumps({"url": url, "pages": f"{p}-{p + 2}"}) for p in range(1, min(pages, 600) - 2, 7)]


def _start_server(cache: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    log = cache / "serve.log"
    env = dict(os.environ, SIFTPDF_CACHE_DIR=str(cache))
    proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "serve", "--port", "0", "--no-auth",
                             "--allow-private"], stdout=open(log, "wb"), stderr=subprocess.STDOUT, env=env)
    end = time.monotonic() + 60
    while "serving on " not in log.read_text():
        if proc.poll() is not None or time.monotonic() > end:
            raise SystemExit(f"bench_serve: the server did not start: {log.read_text()}")
        time.sleep(0.05)
    return proc, log.read_text().split("serving on ", 1)[1].split()[0], log


def _wrk(base: str, bodies: list[str], workdir: Path) -> dict[str, float]:
    script = workdir / "bodies.lua"
    listed = ",\n".join(json.dumps(b) for b in bodies)
    script.write_text(
        "local bodies = {\n" + listed + "\n}\nlocal i = 0\n"
        'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
        "request = function()\n  i = i % #bodies + 1\n"
        '  return wrk.format(nil, "/v1/fetch", nil, bodies[i])\nend\n'
        "done = function(summary, latency, requests)\n"
        '  io.write(string.format("JSON {\\"requests\\": %d, \\"seconds\\": %f, \\"p50\\": %f, '
        '\\"p99\\": %f, \\"errors\\": %d, \\"non2xx\\": %d}\\n", summary.requests, summary.duration / 1e6, '
        "latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.connect + "
        "summary.errors.read + summary.errors.write + summary.errors.timeout, summary.errors.status))\nend\n")
    out = subprocess.run(["wrk", "-t", "2", "-c", str(CONNECTIONS), "-d", f"{int(DURATION)}s", "--latency",
                          "-s", str(script), base], capture_output=True, text=True, timeout=DURATION + 60)
    match = re.search(r"^JSON (.*)$", out.stdout, re.M)
    if not match:
        raise SystemExit(f"bench_serve: wrk failed: {out.stdout}{out.stderr}")
    result: dict[str, float] = json.loads(match.group(1))
    result["errors"] += result.pop("non2xx")
    return result


def _python_load(base: str, bodies: list[str]) -> dict[str, float]:
    """The load in a second process: ``python bench_serve.py --load BASE`` with bodies on stdin."""
    out = subprocess.run([sys.executable, __file__, "--load", base], input="\n".join(bodies), capture_output=True,
                         text=True, timeout=DURATION + 120)
    if out.returncode:
        raise SystemExit(f"bench_serve: the load failed: {out.stderr[-500:]}")
    result: dict[str, float] = json.loads(out.stdout)
    return result


def load(base: str, bodies: list[str]) -> dict[str, float]:
    import httpx

    latencies: list[list[float]] = [[] for _ in range(CONNECTIONS)]
    errors = [0] * CONNECTIONS
    stop = time.monotonic() + DURATION

    def worker(index: int) -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            n = index
            while time.monotonic() < stop:
                body = bodies[n % len(bodies)]
                n += CONNECTIONS
                started = time.perf_counter()
                response = client.post("/v1/fetch", content=body, headers={"content-type": "application/json"})
                latencies[index].append((time.perf_counter() - started) * 1000)
                if response.status_code != 200:
                    errors[index] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - started
    every = sorted(x for part in latencies for x in part)
    return {"requests": len(every), "seconds": seconds, "p50": statistics.median(every),
            "p99": every[min(len(every) - 1, int(len(every) * 0.99))], "errors": sum(errors)}


def run() -> None:
    import httpx

    sys.path.insert(0, str(ROOT / "tests"))
    from httpserver import Route, Running

    path = _document()
    data = path.read_bytes()
    upstream = Running("127.0.0.1")
    upstream.server.routes["/doc.pdf"] = Route(data)
    url = upstream.server.url("/doc.pdf")
    with tempfile.TemporaryDirectory(prefix="siftpdf-bench-serve-") as tmp:
        proc, base, _log = _start_server(Path(tmp))
        try:
            started = time.perf_counter()
            first = httpx.post(base + "/v1/fetch", json={"url": url, "pages": "1"}, timeout=600)
            first.raise_for_status()
            pages = int(first.json()["pdf"]["pages"])
            cold = time.perf_counter() - started
            bodies = _bodies(url, pages)
            for body in bodies[:3]:  # warm the server's code paths
                httpx.post(base + "/v1/fetch", content=body, headers={"content-type": "application/json"})
            tool = "wrk" if shutil.which("wrk") else "python threads"
            result = _wrk(base, bodies, Path(tmp)) if shutil.which("wrk") else _python_load(base, bodies)
            gets = len(upstream.server.gets("/doc.pdf"))
        finally:
            proc.terminate()
            proc.wait(30)
            upstream.stop()
    rps = result["requests"] / result["seconds"]
    print(f"document: {path.name}, {pages} pages; first request (download + extraction): {cold:.1f} s")
    print(f"load: {tool}, {CONNECTIONS} connections, {DURATION:.0f} s, cached /v1/fetch with pages (3-page slices)")
    print(f"{'requests':>10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'upstream GETs':>14}")
    print(f"{int(result['requests']):>10} {rps:>8.0f} {result['p50']:>8.1f} {result['p99']:>8.1f} "
          f"{int(result['errors']):>7} {gets:>14}")
    verdict = rps >= TARGET_RPS and result["p99"] < TARGET_P99_MS and not result["errors"]
    print(f"target: >= {TARGET_RPS} req/s, p99 < {TARGET_P99_MS:.0f} ms, no errors: {'met' if verdict else 'NOT met'}")
    run_soaks()


SOAK_RUNS = 10


def run_soaks(runs: int = SOAK_RUNS) -> None:
    """The soak (bench/soak.py) ``runs`` times, each on a fresh cache dir: answers by status,
    latencies, the server's memory after the cold and the warm round. Target: no 500 at all."""
    sys.path.insert(0, str(HERE))
    import soak

    print(f"\nsoak: {runs} runs, each a fresh cache dir: 240 mixed requests over 30 generated PDFs from "
          "8 clients, cold then warm")
    print(f"{'run':>3} {'round':<5} {'seconds':>7} {'200':>5} {'400':>5} {'429':>5} {'503':>5} {'other':>5}"
          f" {'p50 ms':>7} {'p99 ms':>7} {'RSS MB':>7}")
    failures = 0
    for number in range(1, runs + 1):
        with tempfile.TemporaryDirectory(prefix="siftpdf-soak-") as tmp:
            result = soak.soak(Path(tmp) / "cache")
        print(f"{number:>3} {'start':<5}" + " " * 69 + f"{result.start_rss_mb:>7.0f}")
        for name, round_ in (("cold", result.cold), ("warm", result.warm)):
            other = sum(n for code, n in round_.statuses.items() if code not in soak.ALLOWED)
            print(f"{number:>3} {name:<5} {round_.seconds:>7.1f}"
                  + "".join(f" {round_.statuses.get(code, 0):>5}" for code in (200, 400, 429, 503))
                  + f" {other:>5} {statistics.median(round_.latencies_ms):>7.0f} {round_.percentile(0.99):>7.0f}"
                  f" {round_.rss_mb:>7.0f}")
        failures += not result.ok
        for line in (result.cold.unexpected + result.warm.unexpected)[:3]:
            print(f"    unexpected: {line}")
        if result.children_left or result.internal_errors:
            print(f"    children left {result.children_left}, internal errors logged {result.internal_errors}")
    print(f"target: no 500 and nothing left behind in {runs} runs, warm RSS within 20 % of cold: "
          f"{'met' if not failures else f'NOT met in {failures} runs'}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--soak"]:
        run_soaks(int(sys.argv[2]) if len(sys.argv) > 2 else SOAK_RUNS)
    elif sys.argv[1:2] == ["--load"]:
        print(json.dumps(load(sys.argv[2], [line for line in sys.stdin.read().splitlines() if line])))
    else:
        run()
