"""The extraction child and its parent: limits, exit codes, outline, labels, page cap, sharding."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import records

from siftpdf import extract
from siftpdf.child.job import Job
from siftpdf.errors import EncryptedError, NoTextError, TimedOutError, UnreadableError
from siftpdf.options import Limits
from siftpdf.workers import runner
from siftpdf.workers.runner import run_child


def child(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-I", "-m", "siftpdf.child.main", *args], input=data,
                          capture_output=True, env={}, timeout=60)


def test_child_exit_codes(fixtures: Path) -> None:
    ok = child((fixtures / "three_page.pdf").read_bytes())
    assert ok.returncode == 0
    lines = records(ok.stdout.decode())
    assert list(lines[0]) == ["meta"] and lines[0]["meta"]["pages"] == 3
    assert [r["page"] for r in lines[1:-1]] == [1, 2, 3]
    assert "done" in lines[-1]
    assert child(b"nope").returncode == 4
    assert child((fixtures / "encrypted_user.pdf").read_bytes()).returncode == 3


def test_password_reaches_child_on_stdin_only(fixtures: Path, tmp_path: Path, monkeypatch) -> None:
    data = (fixtures / "encrypted_user.pdf").read_bytes()
    docs = list(extract(data, password="secret"))
    assert "beta crimson harbor" in docs[2]["text"]
    with pytest.raises(EncryptedError):
        list(extract(data, password="wrong"))
    # The child's argv and environment never carry the password.
    spy = tmp_path / "spy.py"
    spy.write_text(textwrap.dedent(f"""
        import json, os, sys
        open({str(tmp_path / 'seen.json')!r}, 'w').write(json.dumps({{"argv": sys.argv, "env": dict(os.environ)}}))
        sys.exit(4)
    """))
    monkeypatch.setattr(runner, "child_argv", lambda: [sys.executable, str(spy)])
    with pytest.raises(UnreadableError):
        list(run_child(data, "secret"))
    seen = (tmp_path / "seen.json").read_text()
    assert "secret" not in seen
    assert set(json.loads(seen)["env"]) <= {"LC_CTYPE"}  # empty; Python may coerce the C locale


def test_owner_password_only_reads_normally(fixtures: Path) -> None:
    for name in ("encrypted_owner_aes.pdf", "encrypted_owner_rc4.pdf"):
        docs = list(extract((fixtures / name).read_bytes()))
        assert [d.get("page") for d in docs[1:-1]] == [1, 2, 3], name
        assert "gamma velvet mountain" in docs[3]["text"]


def test_scanned_is_no_text_with_ocr_hint(fixtures: Path) -> None:
    with pytest.raises(NoTextError) as info:
        list(extract((fixtures / "scanned.pdf").read_bytes()))
    assert info.value.hint == "rerun with --ocr auto" and info.value.exit_code == 5


def test_page_statuses(fixtures: Path) -> None:
    from siftpdf.child.extraction import extract_records

    scanned = list(extract_records((fixtures / "scanned.pdf").read_bytes()))
    assert {r["status"] for r in scanned if "page" in r} == {"no_text"}
    import io

    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    c.drawString(72, 720, "only the first page has words")
    c.showPage()
    c.showPage()
    c.save()
    pages = [r for r in extract_records(buf.getvalue()) if "page" in r]
    assert [p["status"] for p in pages] == ["text", "empty"]


def test_outline_walk(fixtures: Path) -> None:
    meta = next(extract((fixtures / "outline.pdf").read_bytes()))["meta"]
    assert meta["title"] == "Outline Tëst"  # UTF-16BE with BOM
    assert meta["outline"] == [
        {"title": "Chapter 1", "page": 1, "level": 1},  # /Dest array
        {"title": "Section 1.1 — by action", "page": 2, "level": 2},  # /GoTo action, PDFDocEncoding
        {"title": "Section 1.2 — named ✓", "page": 3, "level": 2},  # named destination, UTF-16BE
        {"title": "Café chapter 2", "page": 4, "level": 1},  # Latin-1 range of PDFDocEncoding
    ]  # and the loops back to Chapter 1 end the walk instead of repeating it
    assert meta["page_labels"] == ["i", "ii", "1", "2"]


def test_no_outline_is_empty_list_and_no_labels(fixtures: Path) -> None:
    meta = next(extract((fixtures / "three_page.pdf").read_bytes()))["meta"]
    assert meta["outline"] == [] and "page_labels" not in meta


def test_page_cap_keeps_full_count(fixtures: Path) -> None:
    docs = list(extract((fixtures / "three_page.pdf").read_bytes(), max_pages=2))
    assert docs[0]["meta"]["pages"] == 3 and docs[0]["meta"]["max_pages"] == 2
    assert [d["page"] for d in docs[1:-1]] == [1, 2]
    assert docs[-1]["done"]["page_limit_reached"] is True


def test_large_document_is_split_but_stays_in_order(fixtures: Path) -> None:
    from make_fixtures import pages_doc

    data = pages_doc(150, "Sharded", {n: [f"marker-{n}-end"] for n in range(1, 151)})
    docs = list(extract(data))
    pages = [d for d in docs if "page" in d]
    assert [p["page"] for p in pages] == list(range(1, 151))
    assert all(p["text"] == f"marker-{p['page']}-end" for p in pages)
    assert docs[-1]["done"]["pages_processed"] == 150


def test_in_process_matches_child(fixtures: Path) -> None:
    data = (fixtures / "outline.pdf").read_bytes()
    strip = lambda rs: [r for r in rs if "done" not in r]  # noqa: E731 - elapsed_ms differs
    assert strip(extract(data)) == strip(extract(data, in_process=True))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_deadline_kills_the_whole_process_group(tmp_path: Path, monkeypatch, fixtures: Path) -> None:
    """A child that hangs (and starts a grandchild that hangs) is killed at the deadline: both
    sleep 60 s, so a timeout naming the 1 s deadline, and both gone, is the deadline's doing."""
    pids = tmp_path / "pids"
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text(textwrap.dedent(f"""
        import os, subprocess, sys, time
        grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{grandchild.pid}}")
        time.sleep(60)
    """))
    monkeypatch.setattr(runner, "child_argv", lambda: [sys.executable, str(sleeper)])
    with pytest.raises(TimedOutError) as info:
        list(run_child((fixtures / "three_page.pdf").read_bytes(), limits=Limits(deadline=1)))
    assert info.value.exit_code == 6 and info.value.message == "pdf extraction timed out after 1 s"
    child_pid, grandchild_pid = map(int, pids.read_text().split())
    assert not _alive(child_pid)
    deadline = time.monotonic() + 30  # only a bound for a hang: the kill is already sent
    while _alive(grandchild_pid) and time.monotonic() < deadline:  # orphan reaped by init
        time.sleep(0.05)
    assert not _alive(grandchild_pid)


def test_cli_timeout_exit_code(tmp_path: Path, monkeypatch, fixtures: Path, run_cli) -> None:
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time; time.sleep(60)\n")
    monkeypatch.setattr(runner, "child_argv", lambda: [sys.executable, str(sleeper)])
    result = run_cli("pages", "1", "--deadline", "1", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 6  # the child sleeps 60 s: only the deadline ends it
    assert result.stderr.startswith("siftpdf: pdf extraction timed out after 1 s\n")
    assert "Traceback" not in result.stderr


def test_stdout_cap_is_too_large(fixtures: Path) -> None:
    from siftpdf.errors import TooLargeError

    with pytest.raises(TooLargeError):
        list(run_child((fixtures / "long.pdf").read_bytes(), limits=Limits(max_text=4000)))


def test_engine_crash_on_a_page_is_retried_by_salvage(tmp_path: Path, monkeypatch, fixtures: Path) -> None:
    """A child that dies mid-document (as a native crash would) costs no page: a new child
    reads that page with the salvage chain, then goes on with the document's engine."""
    crasher = tmp_path / "crasher.py"
    crasher.write_text(textwrap.dedent("""
        import os, signal, sys
        sys.argv[0] = "siftpdf-child"
        from siftpdf.child import main as _child, extraction
        real = extraction._extract_page
        def page(doc, n, *a):
            if n == 2:
                os.kill(os.getpid(), signal.SIGSEGV)
            return real(doc, n, *a)
        extraction._extract_page = page
        sys.exit(_child.main(sys.argv[1:]))
    """))
    monkeypatch.setattr(runner, "child_argv", lambda: [sys.executable, "-I", str(crasher)])
    docs = list(run_child((fixtures / "three_page.pdf").read_bytes()))
    pages = [d for d in docs if "page" in d]
    assert [p["status"] for p in pages] == ["text", "text", "text"]
    assert pages[1]["engine"] == "pypdf" and "signal 11" in pages[1]["retried_after"]
    assert (docs[-1]["done"]["pages_failed"], docs[-1]["done"]["pages_retried"]) == (0, 1)


def test_child_refuses_sockets_and_subprocesses() -> None:
    code = textwrap.dedent("""
        import socket, subprocess, sys
        from siftpdf.child import main as _child
        sys.addaudithook(_child._refuse)
        for attempt in (lambda: socket.socket(), lambda: subprocess.run(["true"])):
            try:
                attempt()
            except PermissionError as exc:
                print("refused", exc)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("refused") for line in lines), out.stderr
    assert "socket" in lines[0] and "subprocess" in lines[1]


def test_child_limits_are_set() -> None:
    code = textwrap.dedent("""
        import resource
        from siftpdf.child import main as _child
        _child.apply_limits(512 << 20, 7)
        print(resource.getrlimit(resource.RLIMIT_AS)[0], resource.getrlimit(resource.RLIMIT_CPU)[0])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.stdout.split() == [str(512 << 20), "7"]


def test_unenforceable_memory_limit_fails(monkeypatch) -> None:
    from siftpdf.child import main as _child

    monkeypatch.setattr(_child.sys, "platform", "darwin")
    with pytest.raises(OSError, match="cannot be enforced"):
        _child.apply_limits(1 << 30, 0)


def test_page_falls_back_to_pypdf(fixtures: Path, monkeypatch) -> None:
    """A page PDFium cannot read comes from pypdf, and the stream says so."""
    from siftpdf.child import engines
    from siftpdf.child.extraction import extract_records

    real = engines.PdfiumDoc.extract_page

    def broken(self, index: int):  # type: ignore[no-untyped-def]
        if index == 1:
            raise engines.pdfium.PdfiumError("cannot load page")
        return real(self, index)

    monkeypatch.setattr(engines.PdfiumDoc, "extract_page", broken)
    docs = list(extract_records((fixtures / "three_page.pdf").read_bytes()))
    page2 = docs[2]
    assert page2["engine"] == "pypdf" and "beta crimson harbor" in page2["text"]
    assert "engine" not in docs[1]
    assert docs[-1]["done"]["engines"] == {"pdfium": 2, "pypdf": 1}


def test_document_falls_back_to_pypdf(fixtures: Path, monkeypatch) -> None:
    from siftpdf.child import engines
    from siftpdf.child.extraction import extract_records

    def refuse(self, data: bytes, password: str | None) -> None:
        raise engines.UnreadableError("unreadable PDF (PDFium: Data format error)")

    monkeypatch.setattr(engines.PdfiumDoc, "__init__", refuse)
    docs = list(extract_records((fixtures / "three_page.pdf").read_bytes()))
    assert docs[0]["meta"]["engine"]["name"] == "pypdf"
    assert "gamma velvet mountain" in docs[3]["text"]
    assert docs[-1]["done"]["engines"] == {"pypdf": 3}


def test_password_option_and_environment(fixtures: Path, run_cli) -> None:
    pdf = str(fixtures / "encrypted_user.pdf")
    assert "beta crimson" in run_cli("pages", "2", "--password", "secret", pdf).stdout
    assert "beta crimson" in run_cli("pages", "2", pdf, env={"SIFTPDF_PASSWORD": "secret"}).stdout
    wrong = run_cli("pages", "2", "--password", "nope", pdf)
    assert wrong.exit_code == 3 and "secret" not in wrong.stderr


def test_a_childs_lines_are_read_ahead_of_the_parent_within_a_bound(monkeypatch) -> None:
    """Both children of a long document keep working while the parent takes the other's
    chunk: their lines are read ahead, up to a bound, and the end of the stream stays."""
    import threading

    monkeypatch.setattr(runner, "AHEAD_BYTES", 1000)
    read_end, write_end = os.pipe()
    ahead = runner._Ahead(os.fdopen(read_end, "rb"), 1 << 20)
    thread = threading.Thread(target=ahead.run, daemon=True)
    thread.start()
    line = b"x" * 99 + b"\n"
    writer = os.fdopen(write_end, "wb")
    writer.write(line * 50 + b"cut")  # 5,000 bytes and a last line without its newline
    writer.close()
    deadline = time.monotonic() + 30  # a bound for a hang only
    while ahead.held < 1000 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert 1000 <= ahead.held <= 1100  # read ahead, then waiting: memory stays bounded
    assert [ahead.next() for _ in range(50)] == [line] * 50
    assert ahead.next() == b"cut" and ahead.next() == b"cut"  # the end is the end, every time
    thread.join(timeout=5)
    assert not thread.is_alive()


def test_a_long_document_split_over_two_children_comes_out_in_page_order(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    import make_fixtures

    data = make_fixtures.dense_doc(80)
    found = [r["page"] for r in run_child(data, job=Job(evidence=True)) if "page" in r]
    assert found == list(range(1, 81))


@pytest.mark.parametrize("line", [b"not json\n", b"42\n", b'"\xff"\n', b"[" * 200000 + b"\n",
                                  b'"\\ud800"\n'])
def test_a_bad_password_line_is_a_usage_error(line: bytes) -> None:
    done = child(line + b"%PDF-1.4\n", "--password-line")
    assert done.returncode == 2 and b"password line" in done.stderr and b"Traceback" not in done.stderr


def test_a_password_of_bytes_that_are_not_utf8_reaches_pdfium(fixtures: Path) -> None:
    """--password from a command line that is not UTF-8 arrives as surrogate escapes: PDFium
    gets its bytes (an unencrypted PDF opens whatever the password)."""
    done = child(b'"\\udcff"\n' + (fixtures / "three_page.pdf").read_bytes(), "--password-line")
    assert done.returncode == 0, done.stderr
    assert [r["page"] for r in records(done.stdout.decode()) if "page" in r] == [1, 2, 3]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc thresholds: Linux only")
def test_the_child_keeps_its_heap_so_pages_do_not_fault_fresh_memory(fixtures: Path) -> None:
    """glibc gave back (and mapped again) the memory each page's buffers took: a page fault per
    4 KiB for every page. With the child's malloc thresholds, a hundred pages fault a fraction
    of it (the same child, the same pages, the thresholds left as glibc sets them)."""
    import resource

    from siftpdf.console import local_pdf
    from siftpdf.workers import early_child

    argv = early_child.default_argv()  # the child as every command starts it
    words = local_pdf.job_words(0, ocr="never", workers=1)
    faults = {}
    for kept in (True, False):
        patch = "" if kept else "m.keep_heap = lambda: False; "
        code = argv[4].replace("from siftpdf.child.main import main; sys.exit(main())",
                               f"import siftpdf.child.main as m; {patch}sys.exit(m.main({words!r}))")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
        done = subprocess.run(argv[:4] + [code], input=(fixtures / "hundred.pdf").read_bytes(), capture_output=True,
                              env={}, timeout=120)
        faults[kept] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - before
        assert done.returncode == 0 and done.stdout.count(b'{"page":') == 100, done.stderr
    assert faults[True] * 2 < faults[False], faults
