"""The extraction pool across processes: 2 slots, a line of waiting places (4 for the service,
the whole line for the command line's --wait), one job per caller id, slots freed by the kernel
when their holder dies. Real processes, real children; the test process itself holds slots and
places (flock files) where a job must find the pool busy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import make_fixtures
import pytest
from children import Watch, at_once
from conftest import run_siftpdf

from siftpdf.errors import BusyError
from siftpdf.workers import pool
from siftpdf.workers.pool import QUEUE, SLOTS, WAITING, FileLock, Pool


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


@pytest.fixture
def held(own_cache: Path) -> Iterator[Callable[..., list[FileLock]]]:
    """Hold pool files (``slot.N``, ``wait.N``) from this process: a pool as busy as asked."""
    locks: list[FileLock] = []

    def hold(*names: str) -> list[FileLock]:
        for name in names:
            lock = FileLock(own_cache / "pool" / name)
            assert lock.try_acquire(), name
            locks.append(lock)
        return locks

    yield hold
    for lock in locks:
        lock.release()


WAIT_HINT = "hint: retry later, or wait longer: --wait SECONDS (env SIFTPDF_WAIT)"


def test_ten_parallel_commands_on_ten_new_documents_all_succeed_two_children_at_a_time(
        tmp_path: Path, own_cache: Path, jobs: Jobs, child_log) -> None:
    """`ls *.pdf | xargs -P 10 -n 1 siftpdf pages 1` on a fresh cache: the line holds the eight
    that find both slots taken, and no more than two children ever run at once (each child
    sleeps a little, so that children of different jobs would overlap if the pool let them)."""
    docs = _pdfs(tmp_path, 10)
    slow = {"SIFTPDF_TEST_CHILD_SLEEP": "0.4"}
    procs = [jobs.start("pages", "1", str(doc), env=slow) for doc in docs]
    watch = Watch(lambda: [proc.pid for proc in procs])
    outputs = [proc.communicate(timeout=300) for proc in procs]
    peak = watch.stop()
    for index, (proc, (out, err)) in enumerate(zip(procs, outputs, strict=True)):
        assert proc.returncode == 0, err
        assert f"Pool document number {index}." in out.decode()
    assert child_log() == 10
    assert peak == SLOTS, (peak, watch.samples)


def test_a_full_service_line_is_busy_at_once(own_cache: Path, held, monkeypatch) -> None:
    """The service's answer (503 with Retry-After): two running, four waiting, the next busy."""
    held(*(f"slot.{i}" for i in range(SLOTS)), *(f"wait.{i}" for i in range(WAITING)))

    def no_wait(seconds: float) -> None:
        raise AssertionError(f"waited {seconds} s in a full line")

    monkeypatch.setattr(pool, "time", SimpleNamespace(monotonic=time.monotonic, sleep=no_wait))
    with pytest.raises(BusyError) as caught, Pool(own_cache).job():
        pass
    assert (caught.value.message, caught.value.hint, caught.value.status) == (
        "pdf workers busy", "retry after 10 s", 503)


def test_the_command_line_queues_behind_the_service_line_and_a_cache_hit_never_waits(
        tmp_path: Path, own_cache: Path, held) -> None:
    docs = _pdfs(tmp_path, 2)
    assert run_siftpdf("pages", "1", str(docs[1])).returncode == 0
    held(*(f"slot.{i}" for i in range(SLOTS)), *(f"wait.{i}" for i in range(WAITING)))
    result = run_siftpdf("extract", "--wait", "0.5", str(docs[0]))
    assert result.returncode == 75
    assert result.stderr.decode().splitlines() == ["siftpdf: pdf workers busy (waited 0.5 s in line)", WAIT_HINT]
    hit = run_siftpdf("pages", "1", str(docs[1]))
    assert hit.returncode == 0, hit.stderr
    assert "Pool document number 1." in hit.stdout.decode()


def test_the_whole_line_full_is_busy_at_once(own_cache: Path) -> None:
    locks = [FileLock(own_cache / "pool" / f"slot.{i}") for i in range(SLOTS)]
    locks += [FileLock(own_cache / "pool" / f"wait.{i}") for i in range(QUEUE)]
    assert all(lock.try_acquire() for lock in locks)
    try:
        with pytest.raises(BusyError) as caught, Pool(own_cache, wait=600).job():
            pass
    finally:
        for lock in locks:
            lock.release()
    assert caught.value.message == f"pdf workers busy ({QUEUE} jobs waiting already)"


@pytest.mark.parametrize("args", [
    ["extract", "{doc}"],  # the console's cold path
    ["extract", "--no-cache", "{doc}"],  # the same, with the warm child it would start
    ["extract", "--raw", "{doc}"],  # click's
    ["pages", "1", "{doc}"],
    ["map", "{doc}"],
    ["grep", "Pool", "{doc}"],
    ["digest", "-q", "which pool?", "{doc}"],
])
def test_every_extracting_command_waits_as_long_as_told_and_says_so(
        tmp_path: Path, held, args: list[str]) -> None:
    (doc,) = _pdfs(tmp_path, 1)
    held(*(f"slot.{i}" for i in range(SLOTS)))
    words = [word.format(doc=doc) for word in args]
    started = time.monotonic()
    result = run_siftpdf(*words[:1], "--wait", "1.5", *words[1:])
    took = time.monotonic() - started
    assert result.returncode == 75, result.stderr
    assert result.stderr.decode().splitlines()[-2:] == ["siftpdf: pdf workers busy (waited 1.5 s in line)", WAIT_HINT]
    assert 1.5 <= took < 30
    by_env = run_siftpdf(*words, env={"SIFTPDF_WAIT": "0.5"})
    assert by_env.returncode == 75
    assert "siftpdf: pdf workers busy (waited 0.5 s in line)" in by_env.stderr.decode()


def test_wait_zero_is_busy_at_once_with_a_hint(tmp_path: Path, held) -> None:
    (doc,) = _pdfs(tmp_path, 1)
    held(*(f"slot.{i}" for i in range(SLOTS)))
    result = run_siftpdf("pages", "1", "--wait", "0", str(doc))
    assert result.returncode == 75
    assert result.stderr.decode().splitlines() == [
        "siftpdf: pdf workers busy", "hint: retry after 10 s, or wait in line: --wait SECONDS"]


@pytest.mark.parametrize("value", ["-1", "abc", "inf", "nan"])
def test_a_wait_that_is_no_number_of_seconds_is_a_usage_error(tmp_path: Path, value: str) -> None:
    (doc,) = _pdfs(tmp_path, 1)
    for args, env in ((["pages", "1", "--wait", value, str(doc)], None),
                      (["extract", str(doc)], {"SIFTPDF_WAIT": value})):
        result = run_siftpdf(*args, env=env)
        assert result.returncode == 2, result.stderr
        assert b"wait" in result.stderr.lower()


@pytest.mark.parametrize("args", [["extract", "{doc}"], ["extract", "--no-cache", "{doc}"],
                                  ["pages", "--raw", "1", "{doc}"]])
def test_a_new_job_does_not_pass_the_jobs_waiting_in_line(tmp_path: Path, held, args: list[str]) -> None:
    """Both slots free, but the head of the line held (jobs about to take them): a newcomer
    queues behind them instead of taking a slot first (nor does the cold path's early claim)."""
    (doc,) = _pdfs(tmp_path, 1)
    held(*(f"wait.{i}" for i in range(SLOTS)))
    words = [word.format(doc=doc) for word in args]
    result = run_siftpdf(*words[:1], "--wait", "2", *words[1:])
    assert result.returncode == 75, result.stderr
    assert "waited 2 s in line" in result.stderr.decode()


def test_a_job_waiting_in_line_runs_no_child(tmp_path: Path, own_cache: Path, held, jobs: Jobs, child_log) -> None:
    """Not even the warm child a --no-cache command starts when a slot is free for it."""
    (doc,) = _pdfs(tmp_path, 1)
    slots = held(*(f"slot.{i}" for i in range(SLOTS)))
    proc = jobs.start("extract", "--no-cache", str(doc))
    _wait_for(Pool(own_cache), running=SLOTS, waiting=1)
    seen = Watch(lambda: [proc.pid])
    time.sleep(1.5)
    assert seen.stop() == 0 and at_once([proc.pid]) == 0
    slots[0].release()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert b"Pool document number 0." in out
    assert child_log() == 1


@pytest.fixture(params=["proc-locks", "platform-without-proc"])
def lock_table(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The line read from the kernel's lock table, and (macOS) probed where there is none."""
    if request.param == "platform-without-proc":
        monkeypatch.setattr(pool, "LOCKS_TABLE", str(tmp_path / "no-proc" / "locks"))
        assert pool._locked_inodes() is None


def test_the_line_is_first_come_first_served_and_each_waiter_gets_the_slot(
        own_cache: Path, held, lock_table: None, request: pytest.FixtureRequest) -> None:
    """With one slot, every job gets it once; in the order they joined the line where the
    kernel's lock table tells the line (threads of this process: flock locks of two
    descriptors conflict even within a process)."""
    pool = Pool(own_cache, slots=1, wait=60)
    (slot,) = held("slot.0")
    order: list[int] = []

    def job(index: int) -> None:
        with pool.job():
            order.append(index)
            time.sleep(0.1)

    threads = []
    for index in range(5):
        threads.append(threading.Thread(target=job, args=(index,)))
        threads[-1].start()
        _wait_for(pool, running=1, waiting=index + 1)
    slot.release()
    for thread in threads:
        thread.join(60)
    if request.node.callspec.params["lock_table"] == "proc-locks":
        assert order == [0, 1, 2, 3, 4]
    else:
        # Without the kernel's lock table a place is probed by taking it: a probe (another
        # waiter's, `cache info`'s) can keep a waiter from moving up for a second, and the one
        # behind then passes it as stuck. The order is nearly first come, first served; each
        # job still gets the slot once.
        assert sorted(order) == [0, 1, 2, 3, 4]


def test_a_stuck_waiter_does_not_hold_up_the_line(own_cache: Path, held, lock_table: None) -> None:
    """A waiter that never moves (a stopped process) keeps its place; the one behind it passes
    it once a place ahead has stayed free (and then takes the slot that frees)."""
    pool = Pool(own_cache, wait=30)
    slots = held("slot.0", "slot.1", "wait.1")  # the stuck waiter holds place 1; place 0 is free
    got: list[bool] = []

    def job() -> None:
        with pool.job():
            got.append(True)

    thread = threading.Thread(target=job)
    thread.start()
    _wait_for(pool, running=2, waiting=2)  # the stuck one, and the new one behind it
    slots[0].release()
    thread.join(60)
    assert got  # behind the stuck one for its whole 30 s wait, it would have been busy


@pytest.mark.check  # make check: a wait in the pool's line, about 10 s
def test_a_job_waits_in_the_queue_for_a_slot(tmp_path: Path, own_cache: Path, jobs: Jobs) -> None:
    docs = _pdfs(tmp_path, 3)
    holders = [jobs.start("extract", str(doc), env={"SIFTPDF_TEST_CHILD_DELAY": "10"}) for doc in docs[:2]]
    _wait_for(Pool(own_cache), running=2, waiting=0)
    result = run_siftpdf("pages", "1", str(docs[2]))  # waits in line, and then runs
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
    assert pool.status() == {"running": 0, "waiting": 0, "slots": SLOTS, "places": QUEUE}
    # Were the slots still held, this job would wait its 5 s and exit 75.
    result = run_siftpdf("pages", "1", "--wait", "5", str(docs[2]))
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


def _shards_started(since: int) -> list[str]:
    """The ``shard=K/N`` of each extraction child started after the first ``since`` (the child log)."""
    lines = Path(os.environ["SIFTPDF_TEST_CHILD_LOG"]).read_text().splitlines()
    return [line.rsplit(" ", 1)[-1] for line in lines[since:]]


def _page_lines(result: subprocess.CompletedProcess[bytes]) -> list[str]:
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.decode().splitlines() if line.startswith('{"page"')]


def test_workers_split_a_long_document_over_as_many_children(fixtures: Path, child_log) -> None:
    hundred = str(fixtures / "hundred.pdf")  # 100 pages: four 32-page chunks
    alone = _page_lines(run_siftpdf("extract", "--no-cache", "--workers", "1", hundred))
    assert len(alone) == 100 and _shards_started(0) == ["shard=0/1"]
    for workers, env in ((3, {}), (8, {}), (4, {"SIFTPDF_WORKERS": "4"})):
        started = child_log()
        flag = [] if env else ["--workers", str(workers)]
        assert _page_lines(run_siftpdf("extract", "--no-cache", *flag, hundred, env=env)) == alone, workers
        # One child per chunk at most: eight workers asked, four chunks, four children.
        assert _shards_started(started) == [f"shard={k}/{workers}" for k in range(min(workers, 4))]


def test_workers_take_only_the_slots_free_and_deal_the_pages_again(fixtures: Path, held, child_log) -> None:
    hundred = str(fixtures / "hundred.pdf")
    alone = _page_lines(run_siftpdf("extract", "--no-cache", "--workers", "1", hundred))
    held("slot.1", "slot.2")  # another job's children: of four slots, two are free
    started = child_log()
    assert _page_lines(run_siftpdf("extract", "--no-cache", "--workers", "4", hundred)) == alone
    # The first child, started for four shards before the grant was known, gives way to two
    # children that deal the chunks between them.
    assert _shards_started(started) == ["shard=0/4", "shard=0/2", "shard=1/2"]


def test_a_batch_reads_as_many_sources_at_once_as_it_has_workers(tmp_path: Path, own_cache: Path,
                                                                jobs: Jobs) -> None:
    docs = [str(path) for path in _pdfs(tmp_path, 4)]
    jobs.start("extract", "-o", str(tmp_path / "out"), "--workers", "3", *docs,
               env={"SIFTPDF_TEST_CHILD_DELAY": "60"})
    _wait_for(Pool(own_cache), running=3, waiting=0)  # three children at once, each a source
    time.sleep(0.5)
    assert Pool(own_cache).status()["running"] == 3  # and no fourth


def test_a_worker_count_out_of_range_is_a_usage_error(fixtures: Path) -> None:
    import siftpdf
    from siftpdf.errors import UsageError

    for args, env in ((["--workers", "0"], {}), (["--workers", "65"], {}), ([], {"SIFTPDF_WORKERS": "0"})):
        result = run_siftpdf("extract", "--no-cache", *args, str(fixtures / "three_page.pdf"), env=env)
        assert result.returncode == 2 and b"--workers" in result.stderr and not result.stdout, args
    with pytest.raises(UsageError, match="workers must be 1 to 64"):
        siftpdf.read_options(workers=0)
    assert siftpdf.read_options(workers=6).sharing.limits.slots == 6
    assert siftpdf.read_options().sharing.limits.slots == SLOTS


def test_a_small_document_holds_one_slot(fixtures: Path) -> None:
    from siftpdf.options import ReadOptions
    from siftpdf.read import extract

    pool = Pool(ReadOptions().sharing.cache.path)
    records = extract((fixtures / "three_page.pdf").read_bytes(), ReadOptions())
    assert "meta" in next(records)
    assert pool.status()["running"] == 1
    assert [r["page"] for r in records if "page" in r] == [1, 2, 3]
    assert pool.status()["running"] == 0


def test_a_large_document_takes_no_second_slot_from_a_job_waiting_for_one(
        fixtures: Path, held, child_log) -> None:
    held("wait.0")  # a job waits at the head of the line (both slots free, one about to be its)
    result = run_siftpdf("extract", "--no-cache", str(fixtures / "long.pdf"))
    assert result.returncode == 0, result.stderr
    assert sum(1 for line in result.stdout.decode().splitlines() if line.startswith('{"page"')) == 40
    log = Path(os.environ["SIFTPDF_TEST_CHILD_LOG"]).read_text().splitlines()
    assert child_log() == 2 and log[-1].endswith("shard=0/1")  # one child does every page


def test_the_library_waits_as_long_as_it_is_told(tmp_path: Path, held) -> None:
    import siftpdf

    (doc,) = _pdfs(tmp_path, 1)
    held(*(f"slot.{i}" for i in range(SLOTS)))
    started = time.monotonic()
    with pytest.raises(BusyError) as caught:
        list(siftpdf.extract(doc, wait=0.5))
    assert 0.5 <= time.monotonic() - started < 15
    assert caught.value.message == "pdf workers busy (waited 0.5 s in line)" and caught.value.exit_code == 75


def test_a_cancelled_job_leaves_the_line_at_once(own_cache: Path, held) -> None:
    """A server's call that its client gave up while it waited for a worker: its place is free
    for the next one, long before its own wait would have ended."""
    from siftpdf.cancel import Cancel
    from siftpdf.errors import CancelledError

    cancel = Cancel()
    pool = Pool(own_cache, wait=600, cancel=cancel)
    held(*(f"slot.{i}" for i in range(SLOTS)))
    failed: list[BaseException] = []

    def job() -> None:
        try:
            with pool.job():
                pass
        except CancelledError as error:
            failed.append(error)

    thread = threading.Thread(target=job)
    thread.start()
    _wait_for(pool, running=SLOTS, waiting=1)
    cancel.set()
    thread.join(30)
    assert not thread.is_alive() and len(failed) == 1
    assert pool.status() == {"running": SLOTS, "waiting": 0, "slots": SLOTS, "places": QUEUE}
