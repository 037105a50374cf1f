"""The shared per-page cache for local PDFs: hits start no child, partitions, options in the
key, whole-document eviction, passwords, the cache command, and a hit path free of engines."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import make_fixtures
import pytest
from conftest import records, run_siftpdf

from siftpdf.options import Extraction, Hints, Limits, ReadOptions, Sharing
from siftpdf.settings import OrganizeOptions
from siftpdf.store.local_store import Store, View, parse_size


@pytest.fixture(scope="module")
def sixty_four(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("docs") / "sixty_four.pdf"
    body = {n: [f"Sixty-four page report, page {n}.", make_fixtures.FILLER] for n in range(1, 65)}
    body[50] = ["Sixty-four page report, page 50.", "The marmalade clause is here."]
    path.write_bytes(make_fixtures.pages_doc(64, "Sixty Four", body))
    return path


def test_a_second_pages_call_starts_no_child_and_reads_the_same(sixty_four: Path, child_log) -> None:
    first = run_siftpdf("pages", "41-60", str(sixty_four))
    assert first.returncode == 0, first.stderr
    started = child_log()
    assert started == 2  # 64 pages: two children
    second = run_siftpdf("pages", "41-60", str(sixty_four))
    assert second.stdout == first.stdout
    assert "--- page 41 ---" in second.stdout.decode() and "--- page 61 ---" not in second.stdout.decode()
    grep = run_siftpdf("grep", "marmalade", str(sixty_four))
    assert "p. 50: The marmalade clause is here." in grep.stdout.decode().splitlines()
    assert run_siftpdf("map", str(sixty_four)).returncode == 0
    assert child_log() == started
    uncached = run_siftpdf("pages", "41-60", "--no-cache", str(sixty_four))
    assert uncached.stdout == first.stdout
    assert child_log() == started + 2


def test_a_reader_that_stops_early_still_leaves_the_whole_document(sixty_four: Path, child_log) -> None:
    assert run_siftpdf("pages", "1", str(sixty_four)).returncode == 0
    started = child_log()
    result = run_siftpdf("pages", "64", str(sixty_four))
    assert "page 64." in result.stdout.decode()
    assert child_log() == started


def test_the_cached_doc_stream_equals_the_extracted_one(sixty_four: Path) -> None:
    first = run_siftpdf("extract", str(sixty_four))
    second = run_siftpdf("extract", str(sixty_four))
    a, b = records(first.stdout.decode()), records(second.stdout.decode())
    strip = lambda rs: [r for r in rs if "done" not in r]  # noqa: E731 - elapsed_ms differs
    assert strip(a) == strip(b) and len(a) == 66


def test_options_that_change_the_output_are_in_the_key(sixty_four: Path, child_log) -> None:
    assert run_siftpdf("pages", "1", str(sixty_four)).returncode == 0
    started = child_log()
    capped = run_siftpdf("extract", "--max-pages", "3", str(sixty_four))
    assert [r["page"] for r in records(capped.stdout.decode()) if "page" in r] == [1, 2, 3]
    assert child_log() > started
    # ... while those that do not (deadline, memory) share the entry.
    started = child_log()
    assert run_siftpdf("pages", "2", "--deadline", "30", "--memory-limit", "1024", str(sixty_four)).returncode == 0
    assert child_log() == started


def test_a_new_extraction_option_changes_the_digest_by_itself() -> None:
    class Wider(Extraction):
        widest: bool = True  # a field declared as every field of a record is

    base = Extraction()
    assert Wider().digest() != base.digest()
    assert Wider(widest=False).digest() != Wider().digest()
    assert Wider(widest=False).replace(widest=True).digest() == Wider().digest()
    # what is read, not how it is shared nor what one call asks
    shared = ReadOptions(sharing=Sharing(password="x", verbose=True, allow_private=True, limits=Limits(workers=4)),
                         hints=Hints(first_page=3, text_only=True))
    assert shared.extraction.digest() == ReadOptions().extraction.digest() == base.digest()
    for changed in ({"max_pages": 5}, {"ocr": "always"}, {"repair": False}, {"render": "1"},
                    {"organize": OrganizeOptions(tables=False)}):
        assert base.replace(**changed).digest() != base.digest()


def test_caller_classes_do_not_share_pages(fixtures: Path, child_log) -> None:
    pdf = str(fixtures / "three_page.pdf")
    assert run_siftpdf("pages", "1", pdf, env={"SIFTPDF_CALLER_CLASS": "restricted"}).returncode == 0
    assert run_siftpdf("pages", "1", pdf).returncode == 0
    assert child_log() == 2
    assert run_siftpdf("pages", "1", "--caller-class", "restricted", pdf).returncode == 0
    assert child_log() == 2


def test_a_password_protected_document_needs_its_password_on_a_hit(fixtures: Path, own_cache: Path,
                                                                   child_log) -> None:
    pdf = str(fixtures / "encrypted_user.pdf")
    ok = run_siftpdf("pages", "2", "--password", "secret", pdf)
    assert "beta crimson harbor" in ok.stdout.decode()
    assert child_log() == 1
    assert run_siftpdf("pages", "2", pdf).returncode == 3
    assert run_siftpdf("pages", "2", "--password", "wrong", pdf).returncode == 3
    started = child_log()
    again = run_siftpdf("pages", "2", pdf, env={"SIFTPDF_PASSWORD": "secret"})
    assert "beta crimson harbor" in again.stdout.decode()
    assert child_log() == started
    for path in own_cache.rglob("*"):
        if path.is_file():
            assert b"secret" not in path.read_bytes(), path


def test_eviction_removes_whole_documents_oldest_first(tmp_path: Path, own_cache: Path, child_log) -> None:
    docs = []
    for index in range(3):
        path = tmp_path / f"doc{index}.pdf"
        path.write_bytes(make_fixtures.pages_doc(5, f"Doc {index}", {n: [f"Doc {index} page {n}.",
                                                                         make_fixtures.FILLER * 3]
                                                                     for n in range(1, 6)}))
        docs.append(path)
    assert run_siftpdf("extract", str(docs[0])).returncode == 0
    info = json.loads(run_siftpdf("cache", "info", "--json").stdout)["cache"]
    one = info["bytes"]
    cap = str(int(one * 2.5))
    for doc in docs[1:]:
        time.sleep(0.05)
        assert run_siftpdf("extract", "--cache-size", cap, str(doc)).returncode == 0
    info = json.loads(run_siftpdf("cache", "info", "--json").stdout)["cache"]
    assert info["documents"] == 2 and info["bytes"] <= int(cap)
    store = Store(own_cache)
    assert {entry["meta"]["title"] for _, entry in store.entries()} == {"Doc 1", "Doc 2"}
    keys = list(store.pages.iterkeys())  # doc 0's five pages and its text blob went with it
    assert len(keys) == 12 and sorted(k.rsplit("|", 1)[1] for k in keys) == sorted([*"1234512345", "text", "text"])
    started = child_log()
    for doc in docs[1:]:
        assert run_siftpdf("pages", "1", "--cache-size", cap, str(doc)).returncode == 0
    assert child_log() == started
    assert run_siftpdf("pages", "1", "--cache-size", cap, str(docs[0])).returncode == 0
    assert child_log() == started + 1


def test_cache_info_clear_and_prune(fixtures: Path, own_cache: Path) -> None:
    pdf = str(fixtures / "three_page.pdf")
    assert run_siftpdf("pages", "1", pdf).returncode == 0
    assert run_siftpdf("pages", "1", "--caller-class", "restricted", pdf).returncode == 0
    text = run_siftpdf("cache", "info").stdout.decode()
    assert f"directory: {own_cache}" in text and "documents: 2" in text
    assert "restricted: 1 documents, 3 pages" in text
    # Pages of an interrupted extraction (no document entry owns them) are pruned.
    store = Store(own_cache)
    store.put_page("default", "f" * 64, "0" * 16, {"page": 1, "text": "orphan", "status": "text"})
    store.close()
    assert "1 orphan pages" in run_siftpdf("cache", "prune").stdout.decode()
    assert "removed 1 documents" in run_siftpdf("cache", "clear", "--caller-class", "restricted").stdout.decode()
    assert "documents: 1" in run_siftpdf("cache", "info").stdout.decode()
    assert "removed 1 documents" in run_siftpdf("cache", "clear").stdout.decode()
    assert View(own_cache).document("default", "f" * 64, "0" * 16) is None


@pytest.mark.parametrize("args", [["pages", "2"], ["grep", "velvet"], ["map"]])
def test_a_cache_hit_imports_no_engine_no_http_client_and_no_rich(fixtures: Path, args: list[str]) -> None:
    pdf = str(fixtures / "three_page.pdf")
    assert run_siftpdf("extract", pdf).returncode == 0
    result = run_siftpdf(*args, pdf, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert result.returncode == 0, result.stderr
    imported = {line.split("|")[-1].strip() for line in result.stderr.decode().splitlines() if "|" in line}
    assert "siftpdf.store.local_reader" in imported  # the measurement works
    for module in ("pypdfium2", "pypdf", "pdfplumber", "httpx", "httpcore", "rich", "siftpdf.child.engines",
                   "diskcache"):
        assert module not in imported, module
    if args[0] in ("pages", "grep"):  # answered by the console's fast path (siftpdf.console.cache_hits)
        assert "siftpdf.console.cache_hits" in imported
        for module in ("click", "siftpdf.commands.group", "dataclasses", "pickle", "hashlib"):
            assert module not in imported, module


def test_a_url_cache_hit_imports_no_http_client(fixtures: Path) -> None:
    from httpserver import Route, Running

    server = Running()
    try:
        server.server.routes["/doc.pdf"] = Route((fixtures / "three_page.pdf").read_bytes())
        url = server.server.url("/doc.pdf")
        assert run_siftpdf("fetch", "--allow-private", url).returncode == 0
        result = run_siftpdf("pages", "2", "--allow-private", url, env={"PYTHONPROFILEIMPORTTIME": "1"})
        assert "beta crimson harbor" in result.stdout.decode()
        imported = {line.split("|")[-1].strip() for line in result.stderr.decode().splitlines() if "|" in line}
        assert "siftpdf.store.local_store" in imported
        assert not imported & {"httpx", "httpcore", "siftpdf.fetch", "pypdfium2", "pypdf", "rich", "diskcache"}
    finally:
        server.stop()


def test_sizes_parse() -> None:
    assert parse_size("1G") == 1 << 30
    assert parse_size("500M") == 500 << 20
    assert parse_size("64k") == 64 << 10
    assert parse_size("1048576") == 1 << 20


def test_a_bad_caller_class_is_a_usage_error(fixtures: Path) -> None:
    result = run_siftpdf("pages", "1", "--caller-class", "a|b", str(fixtures / "three_page.pdf"))
    assert result.returncode == 2


def test_concurrent_reads_of_the_same_content_share_one_child(fixtures: Path, tmp_path: Path, child_log) -> None:
    import os
    import subprocess
    import sys

    copy = tmp_path / "same-bytes-other-name.pdf"
    copy.write_bytes((fixtures / "three_page.pdf").read_bytes())
    env = dict(os.environ, SIFTPDF_TEST_CHILD_DELAY="2")  # the leader is still working when the other asks
    procs = [subprocess.Popen([sys.executable, "-m", "siftpdf", "pages", "2", str(path)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for path in (fixtures / "three_page.pdf", copy)]
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=180)
        assert proc.returncode == 0, stderr
        assert "beta crimson harbor" in stdout.decode()
    assert child_log() == 1


def test_the_view_reads_every_kind_of_value_as_diskcache_does(tmp_path: Path) -> None:
    import diskcache

    from siftpdf.store.local_reader import fetch_value

    cache = diskcache.Cache(str(tmp_path / "docs"))
    values = {"small-text": "p" * 10, "large-text": "é" * 100_000, "small-dict": {"a": 1},
              "large-dict": {"text": "x" * 100_000}, "small-bytes": b"\x00\x01", "large-bytes": b"\x02" * 100_000,
              "number": 7}
    for key, value in values.items():
        cache.set(key, value)
    rows = cache._sql("SELECT key, mode, filename, value FROM Cache").fetchall()
    assert {row[1] for row in rows} == {1, 2, 3, 4}  # every storage mode is exercised
    for key, mode, filename, value in rows:
        fetched = fetch_value(str(tmp_path / "docs"), mode, filename, value)
        assert fetched == values[key]
        assert fetched == cache._disk.fetch(mode, filename, value, False)
    cache.close()


_OPEN_AND_WRITE = """
import sys, time
from pathlib import Path
from siftpdf.store.local_store import Store
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # all of them at once
store = Store(Path(sys.argv[1]))
store.put_url("default", "http://example.test/" + sys.argv[3], {"sha256": sys.argv[3]})
"""


def test_many_processes_open_a_fresh_cache_at_once(tmp_path: Path) -> None:
    """Opening a store writes its settings: processes racing on a fresh cache dir all get in."""
    start = time.time() + 2.0
    procs = [subprocess.Popen([sys.executable, "-c", _OPEN_AND_WRITE, str(tmp_path / "c"), str(start), str(n)],
                              stderr=subprocess.PIPE) for n in range(8)]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, errors
    store = Store(tmp_path / "c")
    assert sorted(store.url("default", f"http://example.test/{n}")["sha256"] for n in range(8)) == \
        [str(n) for n in range(8)]


def test_threads_share_one_opening_of_the_stores(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from siftpdf.store.local_store import CacheSettings, open_store

    settings = CacheSettings(directory=tmp_path / "c")

    def open_and_write(n: int) -> tuple[int, int]:
        store = open_store(settings)
        store.put_url("default", f"u{n}", {"n": n})
        return id(store.docs), id(store.pages)

    with ThreadPoolExecutor(max_workers=16) as pool:
        opened = set(pool.map(open_and_write, range(64)))
    assert len(opened) == 1  # one pair of diskcache stores for the whole process
    assert all(open_store(settings).url("default", f"u{n}") == {"n": n} for n in range(64))
