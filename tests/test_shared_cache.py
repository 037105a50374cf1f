"""One cache for many machines (``--cache-url``): a real redis-server on a loopback port, processes
with cache dirs of their own (one per "machine") naming it with --cache-url.

The lock (a crashed holder's expires, a late holder cannot release its successor's), no half
document ever visible, a password-protected document's pages kept off the server, the server's
password never shown, failures (down, killed mid-run, out of memory) never failing a call, two
serve instances sharing one download and one child, and sharing resuming after a restart."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import httpx
import make_fixtures
import pytest
from conftest import run_siftpdf
from httpserver import Route, Running
from redisserver import RedisServer, free_port
from test_serve import Serve

from siftpdf.store import tiers as caches_module
from siftpdf.store.local_store import CacheSettings
from siftpdf.store.shared_store import RedisLock, RedisStore
from siftpdf.store.tiers import Caches

WARNING = "siftpdf: shared cache "


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("docs") / "report.pdf"
    body = {n: [f"Shared report, page {n}.", make_fixtures.FILLER] for n in range(1, 9)}
    body[6] = ["Shared report, page 6.", "The heron clause is here."]
    path.write_bytes(make_fixtures.pages_doc(8, "Shared Report", body))
    return path


def _machine(tmp_path: Path, name: str, url: str) -> dict[str, str]:
    """The environment of a process on a machine of its own (its own cache dir and pool)."""
    return {"SIFTPDF_CACHE_DIR": str(tmp_path / name), "SIFTPDF_CACHE_URL": url}


def _keys(server: RedisServer) -> list[str]:
    return sorted(key.decode() for key in server.client().keys("*"))


def _warnings(stderr: bytes) -> list[str]:
    return [line for line in stderr.decode().splitlines() if line.startswith(WARNING)]


# -- the lock ------------------------------------------------------------------------------------

def test_a_crashed_holders_lock_expires_and_a_live_holder_keeps_it(redis_server: RedisServer) -> None:
    holder = subprocess.Popen([sys.executable, "-c", f"""
import time
from siftpdf.store.shared_store import RedisLock, RedisStore
lock = RedisLock(RedisStore({redis_server.url!r}), "siftpdf:default:lock:t", ttl=1.0)
assert lock.try_acquire()
print("held", flush=True)
time.sleep(120)
"""], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        waiter = RedisLock(RedisStore(redis_server.url), "siftpdf:default:lock:t", ttl=1.0)
        assert not waiter.acquire(2.5)  # past its TTL: the live holder renews it
        holder.kill()
        holder.wait(10)
        assert waiter.acquire(10)  # the crashed holder's lock expired
        waiter.release()
    finally:
        holder.kill()
        holder.wait(10)


def test_a_late_holder_cannot_release_its_successors_lock(redis_server: RedisServer) -> None:
    store = RedisStore(redis_server.url)
    late = RedisLock(store, "siftpdf:default:lock:t", ttl=0.3)
    assert late.try_acquire()
    late.stop()  # a holder that stalls (no renewal) past its TTL
    successor = RedisLock(store, "siftpdf:default:lock:t", ttl=30)
    assert successor.acquire(5)
    late.release()
    assert redis_server.client().get("siftpdf:default:lock:t") == successor.token.encode()
    assert not RedisLock(store, "siftpdf:default:lock:t").try_acquire()
    successor.release()
    assert redis_server.client().get("siftpdf:default:lock:t") is None


# -- whole documents only ----------------------------------------------------------------------

def _settings(tmp_path: Path, name: str, url: str) -> CacheSettings:
    return CacheSettings(directory=tmp_path / name, url=url)


def _write_pages(caches: Caches, sha: str, count: int) -> Any:
    writer = caches.writer(sha, "0" * 16, None)
    writer.add({"meta": {"format": 1, "pages": count, "title": "T", "source": "x.pdf"}})
    for n in range(1, count + 1):
        writer.add({"page": n, "status": "text", "text": f"page {n} " + "words " * 50})
    writer.add({"done": {"pages": count}})
    return writer


def test_no_reader_sees_half_a_document(redis_server: RedisServer, tmp_path: Path) -> None:
    url, sha = redis_server.url, "a" * 64
    writer = _write_pages(Caches(_settings(tmp_path, "m1", url)), sha, 150)  # three pipelines on the server
    assert any(":pages:" in key for key in _keys(redis_server))  # the pages are there, compressed ...
    raw = redis_server.client().hget(f"siftpdf:default:pages:{sha}:{'0' * 16}", "1")
    assert json.loads(zlib.decompress(raw))["text"].startswith("page 1 ")
    assert Caches(_settings(tmp_path, "m2", url)).document(sha, "0" * 16) is None  # ... the document is not
    writer.commit()
    entry = Caches(_settings(tmp_path, "m3", url)).document(sha, "0" * 16)
    assert entry is not None and len(entry["page_numbers"]) == 150


def test_a_server_restarted_mid_write_holds_no_document(redis_server: RedisServer, tmp_path: Path) -> None:
    url, sha = redis_server.url, "b" * 64
    writer = _write_pages(Caches(_settings(tmp_path, "m1", url)), sha, 100)  # 64 pages sent, 36 pending
    redis_server.kill()
    redis_server.start()  # empty again: the pages sent are gone
    writer.commit()  # sends the rest and the entry: refused, the server lacks pages
    assert not any(":doc:" in key for key in _keys(redis_server))
    assert Caches(_settings(tmp_path, "m2", url)).document(sha, "0" * 16) is None


def test_a_document_missing_pages_on_the_server_is_a_miss(redis_server: RedisServer, tmp_path: Path) -> None:
    url, sha = redis_server.url, "c" * 64
    _write_pages(Caches(_settings(tmp_path, "m1", url)), sha, 10).commit()
    redis_server.client().hdel(f"siftpdf:default:pages:{sha}:{'0' * 16}", "7")  # as the server's own eviction
    assert Caches(_settings(tmp_path, "m2", url)).document(sha, "0" * 16) is None
    assert not any(sha in key for key in _keys(redis_server))  # forgotten, not served with a hole


def test_the_size_cap_evicts_whole_documents_on_the_server(redis_server: RedisServer, tmp_path: Path,
                                                           report: Path, fixtures: Path) -> None:
    env = _machine(tmp_path, "m1", redis_server.url)
    for source in (report, fixtures / "three_page.pdf"):
        assert run_siftpdf("pages", "1", "--cache-size", "1k", str(source), env=env).returncode == 0
    keys = [key for key in _keys(redis_server) if ":doc:" in key or ":pages:" in key]
    three = hashlib.sha256((fixtures / "three_page.pdf").read_bytes()).hexdigest()
    assert len(keys) == 2 and all(three in key for key in keys), keys


# -- what never reaches the server, and what is never shown --------------------------------------

def test_a_password_protected_documents_pages_never_reach_the_server(redis_server: RedisServer, tmp_path: Path,
                                                                     fixtures: Path, child_log) -> None:
    pdf = fixtures / "encrypted_user.pdf"
    sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
    env = _machine(tmp_path, "m1", redis_server.url)
    first = run_siftpdf("pages", "2", "--password", "secret", str(pdf), env=env)
    assert first.returncode == 0, first.stderr
    assert not any(sha in key for key in _keys(redis_server)), _keys(redis_server)
    assert run_siftpdf("pages", "2", "--password", "secret", str(pdf), env=env).stdout == first.stdout
    assert child_log() == 1  # cached on its machine all the same
    elsewhere = run_siftpdf("pages", "2", str(pdf), env=_machine(tmp_path, "m2", redis_server.url))
    assert elsewhere.returncode == 3  # another machine without the password reads nothing


def test_the_servers_password_is_never_shown(tmp_path: Path, fixtures: Path, child_log) -> None:
    secret = "Zq8-sekrit-pw"
    server = RedisServer(tmp_path, password=secret)
    try:
        pdf = str(fixtures / "three_page.pdf")
        good = run_siftpdf("pages", "2", "--verbose", pdf, env=_machine(tmp_path, "m1", server.url))
        assert good.returncode == 0 and not _warnings(good.stderr), good.stderr
        shared = run_siftpdf("pages", "2", "--verbose", pdf, env=_machine(tmp_path, "m2", server.url))
        assert shared.stdout == good.stdout and child_log() == 1  # a hit on the server
        wrong = server.url.replace(secret, secret + "X")
        refused = run_siftpdf("pages", "2", "--verbose", pdf, env=_machine(tmp_path, "m3", wrong))
        assert refused.returncode == 0 and refused.stdout == good.stdout
        assert len(_warnings(refused.stderr)) == 1
        assert f"redis://:***@127.0.0.1:{server.port}/0" in refused.stderr.decode()
        status = run_siftpdf("engine", "status", "--json", "--cache-url", server.url)
        assert json.loads(status.stdout)["engine_status"]["shared_cache"]["reachable"] is True
        info = run_siftpdf("cache", "info", "--cache-url", wrong, env={"SIFTPDF_CACHE_DIR": str(tmp_path / "m1")})
        server.kill()
        down = run_siftpdf("pages", "3", "--verbose", pdf, env=_machine(tmp_path, "m4", server.url))
        assert down.returncode == 0 and len(_warnings(down.stderr)) == 1
        bad = run_siftpdf("pages", "3", pdf, env=_machine(tmp_path, "m5", f"redis//:{secret}@127.0.0.1"))
        assert bad.returncode == 2 and b"bad cache URL" in bad.stderr
        for result in (good, shared, refused, status, info, down, bad):
            assert secret.encode() not in result.stdout + result.stderr, result
        assert b"***" in status.stdout and b"***" in info.stdout
    finally:
        server.stop()


# -- failures ------------------------------------------------------------------------------------


def test_the_library_tells_its_lines_to_say_and_writes_no_stream(report: Path, tmp_path: Path,
                                                                  capfd: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Library code writes to no stream of the process: the warning of a shared cache server
    that is down goes to the caller's ``say`` (the command line's writes it to stderr), and
    without one nowhere; the pages are read either way."""
    import siftpdf

    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    monkeypatch.setenv("SIFTPDF_CACHE_DIR", str(tmp_path / "cache"))
    said: list[str] = []
    for say in (said.append, None):
        with siftpdf.open_doc(str(report), cache_url=url, say=say) as doc:
            assert len(list(doc.pages())) == 8
        monkeypatch.setattr(caches_module, "_HEALTH", {})  # the next read finds the server down anew
    assert len(said) == 1 and said[0].startswith(f"siftpdf: shared cache {url} failed (")
    assert said[0].endswith("Connection refused.); going on with this machine's cache")
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_a_reader_that_stops_early_is_told_before_the_rest_is_read(report: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``before_finish`` runs when the reader leaves after the first page, before the rest
    are read into the cache (the command line flushes its stdout there); the next read
    is a hit of all eight."""
    import siftpdf

    monkeypatch.setenv("SIFTPDF_CACHE_DIR", str(tmp_path / "cache"))
    stopped: list[int] = []
    extracted: list[int] = []
    options = siftpdf.read_options(on_page=lambda done, _total: extracted.append(done)).with_hints(
        before_finish=lambda: stopped.append(len(extracted)))
    with siftpdf.open_doc(str(report), options) as doc:
        next(iter(doc.pages()))
    assert len(stopped) == 1 and stopped[0] < 8 and extracted[-1] == 8  # (the child reads on ahead of the reader)
    with siftpdf.open_doc(str(report), options.with_hints(before_finish=None)) as doc:
        assert len(list(doc.pages())) == 8
    assert extracted[-1] == 8 and len(extracted) == 8  # a hit: nothing extracted again

def test_a_server_out_of_memory_or_down_never_fails_a_command(redis_server: RedisServer, tmp_path: Path,
                                                               report: Path) -> None:
    redis_server.client().config_set("maxmemory", "1")  # every write refused: OOM
    full = run_siftpdf("pages", "6", str(report), env=_machine(tmp_path, "m1", redis_server.url))
    assert full.returncode == 0 and b"heron clause" in full.stdout
    warnings = _warnings(full.stderr)
    assert len(warnings) == 1 and "OutOfMemoryError" in warnings[0], full.stderr
    redis_server.kill()
    down = run_siftpdf("grep", "heron", str(report), env=_machine(tmp_path, "m2", redis_server.url))
    assert down.returncode == 0 and b"p. 6: The heron clause is here." in down.stdout
    assert len(_warnings(down.stderr)) == 1


def test_a_server_that_stops_answering_costs_short_timeouts_not_the_command(redis_server: RedisServer,
                                                                            tmp_path: Path, report: Path) -> None:
    assert redis_server.proc is not None
    redis_server.proc.send_signal(signal.SIGSTOP)  # connections are accepted, nothing is answered
    try:
        slow = run_siftpdf("pages", "6", str(report), env=_machine(tmp_path, "m1", redis_server.url))
    finally:
        redis_server.proc.send_signal(signal.SIGCONT)
    assert slow.returncode == 0 and b"heron clause" in slow.stdout
    warnings = _warnings(slow.stderr)
    assert len(warnings) == 1 and "TimeoutError" in warnings[0], slow.stderr


def test_a_hit_on_this_machine_asks_nothing_of_the_server(redis_server: RedisServer, tmp_path: Path,
                                                          report: Path, child_log) -> None:
    env = _machine(tmp_path, "m1", redis_server.url)
    first = run_siftpdf("pages", "2-3", str(report), env=env)  # the console's cold path: cached on both
    assert first.returncode == 0 and any(":doc:" in key for key in _keys(redis_server))
    redis_server.kill()
    for argv in (["pages", "2-3", str(report)], ["pages", "2-3", "--cache-url", redis_server.url, str(report)],
                 ["grep", "heron", str(report)], ["map", str(report)]):
        again = run_siftpdf(*argv, env=env)  # the fast path and the commands alike
        assert again.returncode == 0 and not _warnings(again.stderr), (argv, again.stderr)
    assert child_log() == 1


def _copied(directory: Path, timeout: float = 60.0) -> bool:
    """Whether a document reaches the cache at ``directory`` (copied there by a process of its
    own, after the answer) within ``timeout`` seconds: only a copy that never comes fails."""
    from siftpdf.extras import default_ocr
    from siftpdf.store.local_reader import View, digest_key, options_name

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        docs = directory / "docs" / "cache.db"
        if docs.exists() and View(directory)._get("docs", digest_key(options_name(2000, default_ocr()))):
            return True
        time.sleep(0.1)
    return False


def _without_redis_py(tmp_path: Path) -> str:
    """A PYTHONPATH on which ``import redis`` fails (the copying process, started isolated
    from PYTHONPATH, still has it)."""
    blocked = tmp_path / "blocked" / "redis"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('redis-py is not here')\n")
    return os.pathsep.join([str(blocked.parent), os.environ["PYTHONPATH"]])


@pytest.mark.parametrize("command", [["pages", "6"], ["grep", "heron"]])
def test_a_miss_here_is_a_hit_on_the_server_answered_without_redis_py_and_copied_here(
        redis_server: RedisServer, tmp_path: Path, report: Path, child_log, command: list[str]) -> None:
    assert run_siftpdf("extract", str(report), env=_machine(tmp_path, "m1", redis_server.url)).returncode == 0
    env = _machine(tmp_path, "m2", redis_server.url)
    blind = run_siftpdf(*command, str(report), env=dict(env, PYTHONPATH=_without_redis_py(tmp_path)))
    # Answered by the console's fast path: redis-py was not needed, no child was started.
    assert blind.returncode == 0 and b"heron clause" in blind.stdout and not blind.stderr, blind.stderr
    assert child_log() == 1
    assert _copied(tmp_path / "m2")
    redis_server.kill()
    again = run_siftpdf(*command, str(report), env=env)  # copied: now a hit on this machine
    assert again.stdout == blind.stdout and not _warnings(again.stderr) and child_log() == 1


def test_the_fast_paths_hit_on_the_server_is_the_commands(redis_server: RedisServer, tmp_path: Path,
                                                          report: Path, child_log) -> None:
    """A hit on the server reads the same through the fast path as through the commands
    (made to run by --allow-private, which changes nothing for a local file and which the fast
    path does not answer)."""
    assert run_siftpdf("extract", str(report), env=_machine(tmp_path, "m1", redis_server.url)).returncode == 0
    for number, argv in enumerate((["pages", "2-7"], ["pages", "3", "--json"], ["grep", "-c", "page"],
                                   ["grep", "--json", "-i", "HERON"])):
        fast = run_siftpdf(*argv, str(report), env=_machine(tmp_path, f"fast{number}", redis_server.url))
        slow = run_siftpdf(*argv, "--allow-private", str(report),
                           env=_machine(tmp_path, f"slow{number}", redis_server.url))
        assert fast.returncode == slow.returncode == 0 and not fast.stderr, (argv, fast.stderr)
        assert fast.stdout == slow.stdout and fast.stdout, argv
    assert child_log() == 1


def test_the_fast_path_leaves_a_server_it_cannot_read_to_the_commands(tmp_path: Path, report: Path,
                                                                      child_log) -> None:
    """The right password reads a hit without redis-py; a wrong one is the commands' to report
    (once, the password never shown); a server that went away costs one warning, not two
    timeouts."""
    secret = "Zq8-sekrit-pw"
    server = RedisServer(tmp_path, password=secret)
    try:
        assert run_siftpdf("extract", str(report), env=_machine(tmp_path, "m1", server.url)).returncode == 0
        blind = run_siftpdf("pages", "6", str(report),
                            env=dict(_machine(tmp_path, "m2", server.url), PYTHONPATH=_without_redis_py(tmp_path)))
        assert blind.returncode == 0 and b"heron clause" in blind.stdout and not blind.stderr, blind.stderr
        wrong = server.url.replace(secret, secret + "X")
        denied = run_siftpdf("pages", "6", str(report), env=_machine(tmp_path, "m3", wrong))
        assert denied.returncode == 0 and denied.stdout == blind.stdout
        warnings = _warnings(denied.stderr)
        assert len(warnings) == 1 and "AuthenticationError" in warnings[0] and secret not in denied.stderr.decode()
        server.kill()
        down = run_siftpdf("pages", "6", str(report), env=_machine(tmp_path, "m4", server.url))
        assert down.returncode == 0 and down.stdout == blind.stdout
        warnings = _warnings(down.stderr)
        assert len(warnings) == 1 and "ConnectionRefusedError" in warnings[0], down.stderr
        assert child_log() == 3  # the first machine's, and the two that could not read the server
    finally:
        server.stop()


@pytest.mark.check  # make check: a long run, about 5 s
def test_one_job_per_caller_id_across_machines(redis_server: RedisServer, tmp_path: Path, report: Path,
                                               fixtures: Path) -> None:
    env = dict(os.environ, **_machine(tmp_path, "m1", redis_server.url), SIFTPDF_CALLER_ID="agent-7",
               SIFTPDF_TEST_CHILD_DELAY="4")
    first = subprocess.Popen([sys.executable, "-m", "siftpdf", "pages", "1", str(report)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 60
        while not redis_server.client().keys("siftpdf:#caller:*"):
            assert first.poll() is None and time.monotonic() < end, "the first job never took its caller lock"
            time.sleep(0.05)
        second = run_siftpdf("pages", "1", str(fixtures / "three_page.pdf"),
                             env={**_machine(tmp_path, "m2", redis_server.url), "SIFTPDF_CALLER_ID": "agent-7"})
        assert second.returncode == 75 and b"busy" in second.stderr, second.stderr
        assert first.wait(120) == 0
    finally:
        first.kill()
        first.communicate()
    third = run_siftpdf("pages", "1", str(fixtures / "three_page.pdf"),
                        env={**_machine(tmp_path, "m2", redis_server.url), "SIFTPDF_CALLER_ID": "agent-7"})
    assert third.returncode == 0  # the job ended: its lock went with it


# -- serve: two instances, one server ----------------------------------------------------------

def _extractions(servers: list[Serve]) -> float:
    total = 0.0
    for server in servers:
        for line in httpx.get(server.base + "/metrics").text.splitlines():
            if line.startswith('siftpdf_pdf_extract_total{outcome="ok"}'):
                total += float(line.split()[-1])
    return total


def _metric(server: Serve, name: str) -> float:
    for line in httpx.get(server.base + "/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def _all_at_once(calls: list[Any]) -> list[httpx.Response]:
    results: list[Any] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(index: int) -> None:
        barrier.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    return results


def _two(tmp_path: Path, url: str, **env: str) -> list[Serve]:
    return [Serve(tmp_path, "--no-auth", "--cache-dir", str(tmp_path / name), "--cache-url", url, env=env)
            for name in ("a", "b")]


@pytest.mark.check  # make check: a long run, about 4 s
def test_two_instances_make_one_get_and_one_child_and_a_third_machine_none(
        redis_server: RedisServer, upstream: Running, tmp_path: Path, report: Path, child_log) -> None:
    upstream.server.routes["/report.pdf"] = Route(report.read_bytes(), delay=0.5)
    doc = upstream.server.url("/report.pdf")
    servers = _two(tmp_path, redis_server.url, SIFTPDF_TEST_CHILD_DELAY="1")
    try:
        results = _all_at_once([lambda i=i: servers[i % 2].fetch({"url": doc, "pages": "6"}) for i in range(20)])
        assert [r.status_code for r in results] == [200] * 20, [r.text for r in results if r.status_code != 200]
        assert all("heron clause" in r.json()["content"] for r in results)
        assert len(upstream.server.gets("/report.pdf")) == 1
        assert child_log() == 1 and _extractions(servers) == 1
    finally:
        for server in servers:
            server.stop()
    cli = run_siftpdf("pages", "6", "--allow-private", doc, env=_machine(tmp_path, "c", redis_server.url))
    assert cli.returncode == 0 and b"heron clause" in cli.stdout, cli.stderr
    assert len(upstream.server.gets("/report.pdf")) == 1 and child_log() == 1


@pytest.mark.check  # make check: a server killed and started again, about 8 s
def test_a_server_killed_mid_run_fails_no_request_and_sharing_resumes_after_a_restart(
        redis_server: RedisServer, upstream: Running, tmp_path: Path, child_log) -> None:
    for i in range(8):
        upstream.server.routes[f"/d{i}.pdf"] = Route(make_fixtures.pages_doc(2, f"Document {i}"), delay=0.3)
    servers = _two(tmp_path, redis_server.url, SIFTPDF_TEST_CHILD_DELAY="0.5")
    try:
        killer = threading.Timer(1.0, redis_server.kill)
        killer.start()
        results = _all_at_once([lambda i=i: servers[i % 2].fetch({"url": upstream.server.url(f"/d{i % 4}.pdf")})
                                for i in range(12)])
        killer.join()
        assert [r.status_code for r in results] == [200] * 12, [r.text for r in results if r.status_code != 200]
        after = [servers[i % 2].fetch({"url": upstream.server.url(f"/d{4 + i}.pdf")}) for i in range(2)]
        assert [r.status_code for r in after] == [200, 200]  # with the server down
        assert sum(_metric(server, "siftpdf_cache_backend_errors_total") for server in servers) >= 2
        redis_server.start()  # same port, empty
        time.sleep(caches_module.RETRY_AFTER + 0.5)  # the instances leave a failing server alone this long
        children = child_log()
        first = servers[0].fetch({"url": upstream.server.url("/d7.pdf")})
        second = servers[1].fetch({"url": upstream.server.url("/d7.pdf")})
        assert (first.status_code, second.status_code) == (200, 200)
        assert first.json()["content"] == second.json()["content"]
        assert len(upstream.server.gets("/d7.pdf")) == 1 and child_log() == children + 1  # shared again
    finally:
        for server in servers:
            server.stop()
    for server in servers:
        assert len([line for line in server.output().splitlines() if line.startswith(WARNING)]) == 1, \
            server.output()[-2000:]


@pytest.mark.parametrize(("url", "address"), [
    ("redis://127.0.0.1:7000/2", (("127.0.0.1", 7000), None, None, 2)),
    ("redis://cache", (("cache", 6379), None, None, 0)),
    ("REDIS://:pw@cache:1/", (("cache", 1), None, "pw", 0)),
    ("redis://agent:pw@cache", (("cache", 6379), "agent", "pw", 0)),
    ("unix:///run/redis.sock", ("/run/redis.sock", None, None, 0)),
    ("unix://:pw@/run/redis.sock", ("/run/redis.sock", None, "pw", 0)),
])
def test_the_fast_path_speaks_to_plain_urls(url: str, address: tuple[Any, ...]) -> None:
    from siftpdf.store.shared_reader import _address

    assert _address(url) == address


@pytest.mark.parametrize("url", [
    "rediss://cache:6380/0",  # TLS: the commands' (redis-py's)
    "redis://cache/0?socket_timeout=5", "redis://:p%40ss@cache", "redis://agent@cache", "redis://[::1]:6379",
    "redis://cache/zero", "redis://cache:port", "unix://run/redis.sock",
])
def test_the_fast_path_leaves_other_urls_to_the_commands(url: str) -> None:
    from siftpdf.store.shared_reader import _address, find

    assert _address(url) is None
    assert find(url, "default", "cli:2000", "/nonexistent.pdf", "", 1, "/tmp") is None
