"""A soak of ``siftpdf serve``: mixed ``/v1/fetch`` and ``/v2/scrape`` requests over tens of
distinct generated PDFs, from several concurrent clients, on a fresh cache dir, twice (cold,
then warm). Shared by the test suite (tests/test_serve_soak.py, bounded) and ``make bench``
(bench_serve.py, ten runs).

Only 200, 400 (the bad ranges it asks for on purpose), 429 and 503 are answers a healthy server
gives here; anything else, a 500 above all, is a failure. The server's resident memory is read
after each round: a warm round must not grow it by more than a fifth.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {200, 400, 429, 503}
WORDS = ("harbor", "lantern", "quartz", "meadow", "signal", "copper", "willow", "beacon", "ember", "glacier")


def documents(count: int) -> dict[str, bytes]:
    """``count`` distinct PDFs of 2 to 7 pages, by route (``/doc-N.pdf``)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import make_fixtures

    found = {}
    for n in range(count):
        pages = 2 + n % 6
        body = {p: [f"Document {n} page {p}: the {WORDS[(n + p) % len(WORDS)]} report.",
                    f"Soak line {n}-{p} with {WORDS[(n * p) % len(WORDS)]} and numbers {n * 100 + p}."]
                for p in range(1, pages + 1)}
        found[f"/doc-{n}.pdf"] = make_fixtures.pages_doc(pages, f"Soak document {n}", body)
    return found


def plan(urls: list[str], requests: int, seed: int = 7) -> list[tuple[str, dict[str, Any]]]:
    """``requests`` mixed requests: whole text or map, slices, grep, both, bad ranges, scrape."""
    rng = random.Random(seed)
    made: list[tuple[str, dict[str, Any]]] = []
    for index in range(requests):
        url = urls[index % len(urls)]
        kind = rng.choice(("whole", "pages", "page", "grep", "both", "bad", "scrape"))
        if kind == "scrape":
            made.append(("/v2/scrape", {"url": url, "formats": ["markdown"]}))
            continue
        body: dict[str, Any] = {"url": url}
        if kind == "pages":
            body["pages"] = "1-2"
        elif kind == "page":
            body["pages"] = "2"
        elif kind == "grep":
            body["grep"] = rng.choice(WORDS)
        elif kind == "both":
            body.update(pages="1-", grep="report|soak")
        elif kind == "bad":
            body["pages"] = "90-99"  # past the end of every document: 400
        made.append(("/v1/fetch", body))
    return made


@dataclass
class Round:
    statuses: Counter[int] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    rss_mb: float = 0.0
    unexpected: list[str] = field(default_factory=list)

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0

    def summary(self) -> str:
        statuses = " ".join(f"{code}:{n}" for code, n in sorted(self.statuses.items()))
        return (f"{sum(self.statuses.values())} requests in {self.seconds:.1f} s, {statuses}; "
                f"p50 {statistics.median(self.latencies_ms or [0]):.0f} ms, p99 {self.percentile(0.99):.0f} ms; "
                f"server RSS {self.rss_mb:.0f} MB")


def run_round(base: str, requests: list[tuple[str, dict[str, Any]]], clients: int, pid: int) -> Round:
    """Send ``requests`` from ``clients`` threads (each its own keep-alive connection)."""
    import httpx

    result = Round()
    lock = threading.Lock()
    queue = list(enumerate(requests))

    def client() -> None:
        with httpx.Client(base_url=base, timeout=180) as http:
            while True:
                with lock:
                    if not queue:
                        return
                    _, (path, body) = queue.pop()
                started = time.perf_counter()
                response = http.post(path, json=body)
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    result.statuses[response.status_code] += 1
                    result.latencies_ms.append(elapsed)
                    if response.status_code not in ALLOWED:
                        result.unexpected.append(f"{response.status_code} {path} {body}: {response.text[:300]}")

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.perf_counter() - started
    result.rss_mb = rss_mb(pid)
    return result


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def children_of(pid: int) -> list[int]:
    """Live (not zombie) child processes of ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


@dataclass
class Soak:
    start_rss_mb: float  # the server's resident memory before the first request
    cold: Round
    warm: Round
    children_left: list[int]
    internal_errors: int  # lines the server logged for a 500

    @property
    def ok(self) -> bool:
        return (not self.cold.unexpected and not self.warm.unexpected and not self.children_left
                and not self.internal_errors and self.warm.rss_mb <= 1.2 * self.cold.rss_mb)


def soak(cache_dir: Path, docs: int = 30, requests: int = 240, clients: int = 8) -> Soak:
    """One soak on ``cache_dir`` (fresh): an upstream and a server of their own, stopped after."""
    sys.path.insert(0, str(ROOT / "tests"))
    from httpserver import Route, Running

    upstream = Running("127.0.0.1")
    for route, data in documents(docs).items():
        upstream.server.routes[route] = Route(data)
    urls = [upstream.server.url(route) for route in upstream.server.routes]
    log = cache_dir.parent / f"{cache_dir.name}-serve.log"
    env = dict(os.environ, SIFTPDF_CACHE_DIR=str(cache_dir))
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "serve", "--port", "0", "--no-auth",
                                 "--allow-private"], stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        base = _wait_for(proc, log)
        requests_ = plan(urls, requests)
        start_rss = rss_mb(proc.pid)
        cold = run_round(base, requests_, clients, proc.pid)
        warm = run_round(base, requests_, clients, proc.pid)
        time.sleep(0.5)  # a child killed at the end of a request is reaped by then
        left = children_of(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
        upstream.stop()
    return Soak(start_rss, cold, warm, left, log.read_text().count("siftpdf: internal error"))


def _wait_for(proc: subprocess.Popen[bytes], log: Path) -> str:
    end = time.monotonic() + 60
    while "serving on " not in log.read_text():
        if proc.poll() is not None or time.monotonic() > end:
            raise RuntimeError(f"the server did not start: {log.read_text()}")
        time.sleep(0.05)
    return log.read_text().split("serving on ", 1)[1].split()[0]
