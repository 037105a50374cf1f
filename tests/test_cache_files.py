"""A cache hit on a local file it has seen does not read the file: the file's content hash is
remembered for its stamp (device, inode, size, mtime, ctime) and hashed again when any of them
changes. And the per-document text blob: consistent with the pages, evicted with them."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import make_fixtures
import pytest

import siftpdf
from siftpdf import read as shared
from siftpdf import sources
from siftpdf.store.local_reader import View, slim
from siftpdf.store.local_store import Store
from siftpdf.views.search import compile_pattern, grep_pages


def _pdf(word: str, pages: int = 3) -> bytes:
    return make_fixtures.pages_doc(pages, f"Doc {word}", {n: [f"The {word} page {n}.", make_fixtures.FILLER]
                                                          for n in range(1, pages + 1)})


def _texts(path: Path, **options: Any) -> list[str]:
    with siftpdf.open_doc(path, in_process=True, **options) as doc:
        return [record["text"] for record in doc.pages()]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times a source was read (sniffed and read whole) and a document extracted."""
    counts = {"reads": 0, "extractions": 0}
    read, extract = sources.open_stream, shared._extract

    def counting_read(*args: Any, **kwargs: Any) -> Any:
        counts["reads"] += 1
        return read(*args, **kwargs)

    def counting_extract(*args: Any, **kwargs: Any) -> Any:
        counts["extractions"] += 1
        return extract(*args, **kwargs)

    monkeypatch.setattr(sources, "open_stream", counting_read)
    monkeypatch.setattr(shared, "_extract", counting_extract)
    return counts


def test_a_hit_on_a_known_file_does_not_read_it(tmp_path: Path, counted: dict[str, int]) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber"))
    first = _texts(path)
    assert counted == {"reads": 1, "extractions": 1}
    assert _texts(path) == first and "The amber page 2." in first[1]
    assert counted == {"reads": 1, "extractions": 1}


def test_a_file_replaced_under_the_same_path_is_read_again(tmp_path: Path, counted: dict[str, int]) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber"))
    _texts(path)
    other = tmp_path / "b.pdf"
    other.write_bytes(_pdf("basalt"))
    os.replace(other, path)  # a new inode under the old name
    assert "The basalt page 1." in _texts(path)[0]
    assert counted == {"reads": 2, "extractions": 2}
    path.write_bytes(_pdf("cobalt", 4))  # rewritten in place: another size
    assert "The cobalt page 1." in _texts(path)[0]
    assert counted == {"reads": 3, "extractions": 3}


def test_a_touched_file_is_hashed_again_and_found_the_same(tmp_path: Path, counted: dict[str, int]) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber"))
    first = _texts(path)
    later = time.time() + 100
    os.utime(path, (later, later))
    assert _texts(path) == first
    assert counted == {"reads": 2, "extractions": 1}  # read and hashed: the same document
    assert _texts(path) == first
    assert counted == {"reads": 2, "extractions": 1}  # and remembered with its new stamp


def test_another_path_to_the_same_file_is_the_same_entry(tmp_path: Path, counted: dict[str, int]) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber"))
    link = tmp_path / "link.pdf"
    link.symlink_to(path)
    first = _texts(path)
    assert _texts(link) == first
    assert counted == {"reads": 1, "extractions": 1}  # the resolved path is the key


def test_file_entries_are_per_caller_class(tmp_path: Path, counted: dict[str, int]) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber"))
    _texts(path)
    _texts(path, caller_class="restricted")
    assert counted == {"reads": 2, "extractions": 2}


def test_without_the_cache_the_file_is_always_read(tmp_path: Path, counted: dict[str, int]) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber"))
    _texts(path, cache=False)
    _texts(path, cache=False)
    assert counted == {"reads": 2, "extractions": 2}


def _total_size(store: Store) -> int:
    """The bytes of every document the cache holds, as its size cap counts them (``cache info``'s)."""
    return int(store.info()["bytes"])


def _entry(own_cache: Path) -> tuple[View, str, str, dict[str, Any]]:
    store = Store(own_cache)
    [(_, entry)] = store.entries()
    return View(own_cache), entry["sha256"], entry["options"], entry


def test_the_text_blob_holds_every_page_as_the_pages_do(tmp_path: Path, own_cache: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber", 70))  # more than one batch of pages
    with siftpdf.open_doc(path, in_process=True) as doc:
        full = list(doc.pages())
    view, sha, digest, entry = _entry(own_cache)
    text = view.text("default", sha, digest)
    assert text is not None
    blob = list(text.pages())
    assert blob == [slim(record) for record in full]
    assert [r for r in view.records("default", sha, digest, entry) if "page" in r] == full
    regex = compile_pattern("page 6")
    shown = [[(x.page, x.text, x.is_match, x.number) for x in group] for group in grep_pages(full, regex)]
    assert shown and shown == [[(x.page, x.text, x.is_match, x.number) for x in group]
                               for group in grep_pages(blob, regex)]
    assert _total_size(Store(own_cache)) > sum(len(r["text"]) for r in full) * 2  # pages and blob counted


def test_grep_reads_the_blob_and_without_it_the_pages(tmp_path: Path, own_cache: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(_pdf("amber", 5))
    found = list(siftpdf.grep("amber page 4", path, in_process=True))
    assert [m["page"] for m in found] == [4]
    view, sha, digest, entry = _entry(own_cache)
    records, check = view.read("default", sha, digest, entry, text_only=True)
    assert check and [sorted(r) for r in records if "page" in r][0] == ["page", "status", "text"]
    Store(own_cache).pages.delete(f"default|{sha}|{digest}|text")  # a cache written before blobs
    assert view.text_records("default", sha, digest, entry) is None
    assert list(siftpdf.grep("amber page 4", path, in_process=True)) == found


def test_eviction_and_clear_and_prune_remove_blob_and_file_entries(tmp_path: Path, own_cache: Path) -> None:
    paths = []
    for word in ("amber", "basalt"):
        paths.append(tmp_path / f"{word}.pdf")
        paths[-1].write_bytes(_pdf(word))
        _texts(paths[-1])
    store = Store(own_cache)
    (old_key, old), _ = store.entries()
    store.evict(limit=_total_size(store) - 1)  # the older goes
    assert [entry["meta"]["title"] for _, entry in store.entries()] == ["Doc basalt"]
    assert not [k for k in store.pages.iterkeys() if old["sha256"] in k]  # its pages and blob
    assert store.prune()["stale_files"] == 1  # its file entry pointed at nothing now
    files = [k for k in store.docs.iterkeys() if k.startswith("file|")]
    assert len(files) == 1 and files[0].endswith("basalt.pdf")
    assert store.clear("default") == 1
    assert not [k for k in store.docs.iterkeys() if k.startswith("file|")]
    assert not list(store.pages.iterkeys())


def test_an_entry_that_no_longer_reads_is_pruned_and_cleared(tmp_path: Path, own_cache: Path) -> None:
    for word in ("amber", "basalt"):
        path = tmp_path / f"{word}.pdf"
        path.write_bytes(_pdf(word))
        _texts(path)
    store = Store(own_cache)
    keys = [key for key, _ in store.entries()]
    for key in keys:
        store.docs.set(key, b"\xff not marshal")  # as another Python's marshal would read
    assert store.entries() == []
    assert store.prune()["orphan_pages"] == 8  # three pages and a blob each
    assert not [k for k in store.docs.iterkeys() if k.startswith("doc|")]
    store.docs.set(keys[0], b"\xff")
    store.clear("default")
    # (what is left is the name of the default options' digest, which is no document's)
    assert [key.split("|")[0] for key in store.docs.iterkeys()] == ["digest"]


def test_every_file_that_decides_what_a_page_reads_to_keys_the_cache() -> None:
    """An upgrade that changes how a page is extracted or organized changes every cache key:
    each module of the child's extraction and of organization, the font tables they read
    glyphs by, and the text a table block is written as (document.py's ``table_text``), is
    among the files whose bytes key the cache."""
    from siftpdf.store.local_reader import CODE_FILES

    package = Path(siftpdf.__file__).parent
    deciding = {f"{folder}/{path.name}" for folder in ("child", "organize") for path in (package / folder).glob("*.py")}
    # the package marker; the engine-status child; the item shape the type checker reads
    deciding -= {"child/__init__.py", "child/probe.py", "organize/boxes.py"}
    deciding |= {"fonts.py", "texfonts.py", "document.py"}
    assert deciding <= set(CODE_FILES)
    assert all((package / name).is_file() for name in CODE_FILES)


def test_a_hit_of_pages_reads_them_without_json_and_pages_stored_as_json_still_read(
        tmp_path: Path, own_cache: Path) -> None:
    """Pages are kept as marshal's bytes: a cache hit of ``pages`` imports neither json nor re
    (a tenth of its time); a page an earlier version stored as JSON text reads the same."""
    import json
    import subprocess
    import sys

    from siftpdf.store.local_reader import decode_page, encode_page

    path = tmp_path / "doc.pdf"
    path.write_bytes(_pdf("marshal"))
    # As a user runs it: without the test seams on PYTHONPATH (their sitecustomize imports re).
    env = {**{name: value for name, value in os.environ.items() if name != "PYTHONPATH"},
           "SIFTPDF_CACHE_DIR": str(own_cache)}
    first = subprocess.run([sys.executable, "-m", "siftpdf", "pages", "2", str(path)], capture_output=True, env=env,
                           timeout=120)
    again = subprocess.run([sys.executable, "-m", "siftpdf", "pages", "2", str(path)], capture_output=True,
                           env={**env, "PYTHONPROFILEIMPORTTIME": "1"}, timeout=120)
    assert first.returncode == again.returncode == 0 and again.stdout == first.stdout
    loaded = {line.split("|")[-1].strip() for line in again.stderr.decode().splitlines()
              if line.startswith("import time:")}
    assert "siftpdf.store.local_reader" in loaded
    assert not loaded & {"json", "re", "diskcache", "siftpdf.read"}, sorted(loaded & {"json", "re", "diskcache"})
    record = {"page": 2, "status": "ok", "text": "é\ud800", "blocks": [{"kind": "heading", "level": 1}], "n": 1.5}
    assert decode_page(encode_page(record)) == record
    as_json = json.dumps({**record, "text": "é"}, ensure_ascii=False)
    assert decode_page(as_json) == {**record, "text": "é"}
    assert decode_page(b"\xff not marshal") is None  # another Python's bytes: read the page again


def test_prune_removes_the_marks_and_lock_files_of_work_done(tmp_path: Path) -> None:
    """Every read leaves a mark of its file and document and lock files for its single flight
    and its copy: prune removes the marks of what the store no longer holds and the lock files
    nobody holds, and keeps the rest."""
    from siftpdf.store.local_reader import known, mark_known
    from siftpdf.workers.pool import flight_lock

    store = Store(tmp_path)
    kept, gone = "a" * 64, "b" * 64
    store.put_document("default", kept, "digest", {"title": None}, {"pages": 1}, [1], 10, None)
    store.put_file("default", "/kept.pdf", "stamp", kept)
    store.put_file("default", "/gone.pdf", "stamp", gone)  # its document is not stored
    mark_known(tmp_path, "doc", "default", gone)  # a document evicted since
    held, idle = flight_lock(tmp_path, "reading now"), flight_lock(tmp_path, "read before")
    assert held.try_acquire() and idle.try_acquire()
    idle.release()
    try:
        done = store.prune()
        assert (done["stale_files"], done["stale_marks"], done["idle_locks"]) == (1, 2, 1)
        assert known(tmp_path, "file", "default", "/kept.pdf") and known(tmp_path, "doc", "default", kept)
        assert not known(tmp_path, "file", "default", "/gone.pdf") and not known(tmp_path, "doc", "default", gone)
        assert os.path.exists(held.path) and not os.path.exists(idle.path)
    finally:
        held.release()
