"""The extraction pool across processes: 2 slots, 4 waiting places, one job per caller id,
slots freed by the kernel when their holder dies. Real processes, real children."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import make_fixtures
import pytest
from conftest import run_siftpdf

from siftpdf.pool import Pool


def _pdfs(tmp_path: Path, count: int) -> list[Path]:
    """Distinct small PDFs: distinct content, so single-flight never merges their jobs."""
    paths = []
    for index in range(count):
        path = tmp_path / f"doc{index}.pdf"
        path.write_bytes(make_fixtures.pages_doc(1, f"Pool document {index}",
                                                 {1: [f"Pool document number {index}."]}))
        paths.append(path)
    return paths


class Jobs:
    def __init__(self) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        full = dict(os.environ, **(env or {}))
        proc = subprocess.Popen([sys.executable, "-m", "siftpdf", *args], env=full, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate(timeout=60)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                self.kill(proc)


@pytest.fixture
def jobs() -> Iterator[Jobs]:
    running = Jobs()
    yield running
    running.stop()


def _wait_for(pool: Pool, running: int, waiting: int, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = pool.status()
        if status["running"] >= running and status["waiting"] >= waiting:
            return
        time.sleep(0.1)
    raise AssertionError(f"pool never reached {running} running / {waiting} waiting: {pool.status()}")


def test_the_seventh_concurrent_job_is_busy_and_a_cache_hit_never_waits(
        tmp_path: Path, own_cache: Path, jobs: Jobs) -> None:
    docs = _pdfs(tmp_path, 8)
    cached = docs[7]
    assert run_siftpdf("pages", "1", str(cached)).returncode == 0
    slow = {"SIFTPDF_TEST_CHILD_DELAY": "40"}  # each job holds its slot 40 s before its child starts
    for doc in docs[:6]:
        jobs.start("extract", str(doc), env=slow)
    _wait_for(Pool(own_cache), running=2, waiting=4)

    result = run_siftpdf("extract", str(docs[6]))
    assert result.returncode == 75, result.stderr
    assert result.stderr.decode().splitlines() == ["siftpdf: pdf workers busy", "hint: retry after 10 s"]

    hit = run_siftpdf("pages", "1", str(cached))
    assert hit.returncode == 0, hit.stderr
    assert "Pool document number 7." in hit.stdout.decode()


def test_a_job_waits_in_the_queue_for_a_slot(tmp_path: Path, own_cache: Path, jobs: Jobs) -> None:
    docs = _pdfs(tmp_path, 3)
    holders = [jobs.start("extract", str(doc), env={"SIFTPDF_TEST_CHILD_DELAY": "10"}) for doc in docs[:2]]
    _wait_for(Pool(own_cache), running=2, waiting=0)
    result = run_siftpdf("pages", "1", str(docs[2]))  # waits (≤20 s) and then runs
    assert result.returncode == 0, result.stderr
    for proc in holders:
        assert proc.wait(timeout=120) == 0


def test_a_process_killed_while_holding_a_slot_does_not_block_the_next_job(
        tmp_path: Path, own_cache: Path, jobs: Jobs) -> None:
    docs = _pdfs(tmp_path, 3)
    holders = [jobs.start("extract", str(doc), env={"SIFTPDF_TEST_CHILD_DELAY": "300"}) for doc in docs[:2]]
    pool = Pool(own_cache)
    _wait_for(pool, running=2, waiting=0)
    for proc in holders:
        jobs.kill(proc)
    assert pool.status() == {"running": 0, "waiting": 0}
    # Were the slots still held, this job would wait 20 s and exit 75.
    result = run_siftpdf("pages", "1", str(docs[2]))
    assert result.returncode == 0, result.stderr


def test_one_job_in_flight_per_caller_id(tmp_path: Path, own_cache: Path, jobs: Jobs) -> None:
    docs = _pdfs(tmp_path, 3)
    jobs.start("extract", str(docs[0]), env={"SIFTPDF_CALLER_ID": "agent-7", "SIFTPDF_TEST_CHILD_DELAY": "60"})
    _wait_for(Pool(own_cache), running=1, waiting=0)
    same = run_siftpdf("extract", str(docs[1]), env={"SIFTPDF_CALLER_ID": "agent-7"})
    assert same.returncode == 75
    assert b"already has a PDF job in flight" in same.stderr and b"retry after 10 s" in same.stderr
    other = run_siftpdf("extract", str(docs[2]), env={"SIFTPDF_CALLER_ID": "agent-8"})
    assert other.returncode == 0, other.stderr


def test_a_large_document_takes_a_second_slot_only_when_one_is_free(
        fixtures: Path, tmp_path: Path, own_cache: Path, jobs: Jobs, child_log) -> None:
    long_pdf = fixtures / "long.pdf"  # 40 pages: more than one 32-page chunk
    assert run_siftpdf("extract", "--no-cache", str(long_pdf)).returncode == 0
    assert child_log() == 2  # idle pool: both cores
    (doc,) = _pdfs(tmp_path, 1)
    jobs.start("extract", str(doc), env={"SIFTPDF_TEST_CHILD_DELAY": "60"})
    _wait_for(Pool(own_cache), running=1, waiting=0)
    result = run_siftpdf("extract", "--no-cache", str(long_pdf))
    assert result.returncode == 0, result.stderr
    assert sum(1 for line in result.stdout.decode().splitlines() if line.startswith('{"page"')) == 40
    # One slot free: the first child (started as shard 0 of 2, before the page count was known)
    # is replaced by one child that extracts every page.
    assert child_log() == 4
    assert Path(os.environ["SIFTPDF_TEST_CHILD_LOG"]).read_text().splitlines()[-1].endswith("shard=0/1")


def test_a_small_document_holds_one_slot(fixtures: Path) -> None:
    from siftpdf.shared import extract
    from siftpdf.sources import ReadOptions

    pool = Pool(ReadOptions().cache.path)
    records = extract((fixtures / "three_page.pdf").read_bytes(), ReadOptions())
    assert "meta" in next(records)
    assert pool.status()["running"] == 1
    assert [r["page"] for r in records if "page" in r] == [1, 2, 3]
    assert pool.status()["running"] == 0
