"""Several sources: `extract -o DIR` (one doc stream per file, two jobs at once, resumable) and
`pages`/`map` over several sources (each in turn under its header; --json records carry their
source); a failure on one source never loses the others."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import records, run_siftpdf

from siftpdf.batch import base_name, is_finished, plan
from siftpdf.docstream import schema
from siftpdf.workers.pool import Pool


def _same(stream: str) -> list[dict[str, Any]]:
    """A doc stream's records, with what two runs need not share (the time taken) zeroed (and
    the order of the meta's keys, which a cache hit and an extraction write differently)."""
    return records(re.sub(r'"elapsed_ms":\d+', '"elapsed_ms":0', stream))


@pytest.fixture
def three(fixtures: Path, tmp_path: Path) -> list[Path]:
    """Three good PDFs in a folder of their own, as `*.pdf` would name them."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("three_page", "outline", "long"):
        shutil.copy(fixtures / f"{name}.pdf", folder / f"{name}.pdf")
    return sorted(folder.glob("*.pdf"))


def _stderr_lines(result: Any) -> list[str]:
    return result.stderr.splitlines()


# --- extract -o DIR ------------------------------------------------------------------------

def test_several_pdfs_go_into_the_folder_one_stream_each(three: list[Path], tmp_path: Path, run_cli) -> None:
    out = tmp_path / "out"
    result = run_cli("extract", "-o", str(out), *map(str, three))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""  # the streams are in the files, nothing on stdout
    assert sorted(path.name for path in out.iterdir()) == ["long.jsonl", "outline.jsonl", "three_page.jsonl"]
    for pdf in three:
        written = (out / f"{pdf.stem}.jsonl").read_text(encoding="utf-8")
        assert _same(written) == _same(run_cli("extract", str(pdf)).stdout)
    assert _stderr_lines(result) == [f"siftpdf: {out}: 3 written"]


def test_a_rerun_skips_finished_streams_without_a_child(three: list[Path], tmp_path: Path, child_log) -> None:
    out = tmp_path / "out"
    args = ["extract", "--no-cache", "-o", str(out), *map(str, three)]  # no cache: only the files can spare a child
    first = run_siftpdf(*args)
    assert first.returncode == 0, first.stderr
    started = child_log()
    assert started >= 3
    before = {path.name: path.stat().st_mtime_ns for path in out.iterdir()}
    again = run_siftpdf(*args)
    assert again.returncode == 0 and child_log() == started
    assert {path.name: path.stat().st_mtime_ns for path in out.iterdir()} == before
    assert again.stderr.decode().strip() == f"siftpdf: {out}: 0 written, 3 skipped (finished already)"


def test_a_half_written_stream_is_done_again(three: list[Path], tmp_path: Path, run_cli, child_log) -> None:
    out = tmp_path / "out"
    out.mkdir()
    whole = run_cli("extract", str(three[0])).stdout
    started = child_log()
    cut = out / f"{three[0].stem}.jsonl"
    cut.write_text("".join(whole.splitlines(keepends=True)[:2]), encoding="utf-8")  # meta and a page, no done
    (out / f"{three[1].stem}.jsonl").write_text(whole.replace('{"done"', '{"error"'), encoding="utf-8")
    assert not is_finished(cut, "json")
    result = run_cli("extract", "--no-cache", "-o", str(out), str(three[0]), str(three[1]))
    assert result.exit_code == 0
    assert child_log() == started + 2
    assert _same(cut.read_text(encoding="utf-8")) == _same(whole)
    assert is_finished(cut, "json") and is_finished(out / f"{three[1].stem}.jsonl", "json")
    assert not list(out.glob(".*"))  # no temporary file left behind


def test_one_broken_pdf_among_good_ones(three: list[Path], fixtures: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    broken = [str(fixtures / "encrypted_user.pdf"), str(fixtures / "not_a_pdf.txt")]
    done = run_siftpdf("extract", "-o", str(out), str(three[0]), *broken, str(three[1]))
    assert done.returncode == 2  # as grep with several sources
    assert done.stdout == b""
    assert sorted(path.name for path in out.iterdir()) == [f"{three[0].stem}.jsonl", f"{three[1].stem}.jsonl"]
    assert all(is_finished(path, "json") for path in out.iterdir())
    err = done.stderr.decode()
    assert f"siftpdf: {broken[0]}: encrypted PDF (password required)\nhint: pass the user password" in err
    assert f"siftpdf: {broken[1]}: not a PDF" in err
    assert err.splitlines()[-1] == (f"siftpdf: {out}: 2 written, 2 failed: {broken[0]} (encrypted), "
                                    f"{broken[1]} (unreadable)")
    with_q = run_siftpdf("extract", "-q", "-o", str(out), str(three[0]), broken[0])
    assert with_q.returncode == 2 and with_q.stderr.decode().startswith(f"siftpdf: {broken[0]}: encrypted")
    assert "skipped" not in with_q.stderr.decode()  # -q keeps the summary, never the errors


def test_one_source_into_a_folder_keeps_its_exit_status(fixtures: Path, tmp_path: Path, run_cli) -> None:
    out = tmp_path / "out"
    ok = run_cli("extract", "--text", "-o", str(out), str(fixtures / "three_page.pdf"))
    assert ok.exit_code == 0 and ok.stdout == ""
    assert (out / "three_page.txt").read_text(encoding="utf-8") == \
        run_cli("extract", "--text", str(fixtures / "three_page.pdf")).stdout
    failed = run_cli("extract", "-o", str(out), str(fixtures / "encrypted_user.pdf"))
    assert failed.exit_code == 3 and failed.stdout == ""  # no error record: stdout carries no stream here
    assert "encrypted" in failed.stderr and not (out / "encrypted_user.jsonl").exists()
    streamed = run_cli("extract", "--markdown", "-o", str(out), "-", input=(fixtures / "outline.pdf").read_bytes())
    assert streamed.exit_code == 0 and (out / "stdin.md").read_text(encoding="utf-8").startswith("--- page 1 ---")


def test_several_sources_without_a_folder_is_a_usage_error(three: list[Path], run_cli) -> None:
    result = run_cli("extract", "--text", *map(str, three[:2]))
    assert result.exit_code == 2 and result.stdout == ""
    assert _stderr_lines(result) == ["siftpdf: extract: several sources go into a folder, one doc stream each: "
                                     "give -o DIR", "hint: siftpdf extract -o DIR SOURCE..."]


def test_names_are_predictable_and_never_clash(tmp_path: Path) -> None:
    assert base_name("papers/attention.pdf") == "attention"
    assert base_name("Report.PDF") == "Report"
    assert base_name("saved.jsonl") == "saved"
    assert base_name("1706.03762") == "1706.03762"  # only known extensions go
    assert base_name("-") == "stdin"
    assert base_name("https://arxiv.org/pdf/1706.03762") == "1706.03762"
    assert base_name("https://example.org/a%20b/My%20Paper.pdf?x=1") == "My_Paper"
    assert base_name("https://example.org/") == "example.org"
    assert base_name("https://example.org/../..pdf") == "example.org"
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    for name in ("x/a.pdf", "y/a.pdf", "x/A.pdf", "b.pdf"):
        (tmp_path / name).write_bytes(b"%PDF-1.4\n")
    sources = [str(tmp_path / "x/a.pdf"), str(tmp_path / "y/a.pdf"), str(tmp_path / "b.pdf"),
               str(tmp_path / "x/../x/a.pdf")]  # the last: the first again
    items = plan(sources, tmp_path / "out", "json")
    names = [item.path.name for item in items]
    assert [item.source for item in items] == sources[:3]
    assert names[2] == "b.jsonl"
    assert re.fullmatch(r"a-[0-9a-f]{8}\.jsonl", names[0]) and re.fullmatch(r"a-[0-9a-f]{8}\.jsonl", names[1])
    assert names[0] != names[1]
    assert [item.path.name for item in plan(list(reversed(sources[:3])), tmp_path / "out", "json")] == \
        list(reversed(names))  # the order given changes no name
    clash = plan([str(tmp_path / "x/a.pdf"), str(tmp_path / "x/A.pdf")], tmp_path / "out", "text")
    assert len({item.path.name.lower() for item in clash}) == 2  # also where case is not told apart


def test_a_stream_is_never_written_over_its_source(fixtures: Path, tmp_path: Path, run_cli) -> None:
    saved = tmp_path / "paper.jsonl"
    saved.write_text(run_cli("extract", str(fixtures / "three_page.pdf")).stdout, encoding="utf-8")
    before = saved.read_bytes()
    result = run_cli("extract", "--raw", "-o", str(tmp_path), str(saved))
    assert result.exit_code == 2 and "would overwrite" in result.stderr
    assert saved.read_bytes() == before


def test_the_batch_keeps_both_slots_busy_and_is_one_job_of_its_caller(three: list[Path], fixtures: Path,
                                                                       tmp_path: Path, own_cache: Path) -> None:
    """Four slow documents under one caller id: the batch's two jobs run side by side (its own
    caller lock does not refuse its second thread), and the pool never holds more than two."""
    sources = [*map(str, three), str(fixtures / "two_page_header.pdf")]
    env = dict(os.environ, SIFTPDF_CALLER_ID="batcher", SIFTPDF_TEST_CHILD_SLEEP="1.5")
    proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "extract", "--no-cache", "-o", str(tmp_path / "out"),
                             *sources], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pool = Pool(own_cache)
    seen: set[int] = set()
    second: subprocess.CompletedProcess[bytes] | None = None
    deadline = time.monotonic() + 90
    while proc.poll() is None and time.monotonic() < deadline:
        running = pool.status()["running"]
        seen.add(running)
        if running == 2 and second is None:  # meanwhile, another job of the same caller is refused
            second = run_siftpdf("extract", "--no-cache", str(fixtures / "outline.pdf"),
                                 env={"SIFTPDF_CALLER_ID": "batcher"})
        time.sleep(0.02)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert max(seen) == 2
    assert second is not None and second.returncode == 75 and b"already has a PDF job" in second.stderr
    assert len(list((tmp_path / "out").glob("*.jsonl"))) == 4


def test_the_warm_child_goes_to_one_job_only(three: list[Path], tmp_path: Path, child_log) -> None:
    """The console starts one child early for a --no-cache command line; the batch's two
    threads ask for it at once, and one gets it."""
    out = tmp_path / "out"
    done = run_siftpdf("extract", "--no-cache", "-o", str(out), str(three[0]), str(three[1]))
    assert done.returncode == 0, done.stderr
    assert child_log() == 2  # one per document: none started twice, none lost
    assert all(is_finished(path, "json") for path in out.iterdir())


# --- pages and map over several sources ----------------------------------------------------

def test_pages_of_several_sources_in_turn(three: list[Path], fixtures: Path, run_cli) -> None:
    a, b = str(three[2]), str(three[0])  # three_page, long
    result = run_cli("pages", "1", a, b)
    assert result.exit_code == 0
    one, two = run_cli("pages", "1", a).stdout, run_cli("pages", "1", b).stdout
    assert result.stdout == f"==> {a} <==\n{one}\n==> {b} <==\n{two}"
    cut = run_cli("pages", "1-", "--cap", "2000", b, a).stdout
    assert f"siftpdf pages 2- {b}]\n\n==> {a} <==\n" in cut  # each source's note: how to go on with it


def test_pages_goes_on_after_a_failing_source(three: list[Path], fixtures: Path, run_cli) -> None:
    a, b = str(three[2]), str(three[1])
    bad = str(fixtures / "encrypted_user.pdf")
    result = run_cli("pages", "2", a, bad, b, str(fixtures / "missing.pdf"))
    assert result.exit_code == 2
    assert f"==> {a} <==" in result.stdout and f"==> {b} <==" in result.stdout and bad not in result.stdout
    err = _stderr_lines(result)
    assert f"siftpdf: {bad}: encrypted PDF (password required)" in err
    assert f"siftpdf: {fixtures / 'missing.pdf'}: no such file" in err
    assert err[-1] == f"siftpdf: 2 of 4 sources failed: {bad} (encrypted), {fixtures / 'missing.pdf'} (usage)"
    out_of_range = run_cli("pages", "4", a, b)  # three_page has 3 pages, outline 4
    assert out_of_range.exit_code == 2 and f"==> {b} <==" in out_of_range.stdout
    assert "1–3" in out_of_range.stderr
    assert run_cli("pages", "x", a, b).exit_code == 2  # a bad range: once, for the command


def test_json_records_of_several_sources_carry_their_source(three: list[Path], fixtures: Path, run_cli) -> None:
    validator = jsonschema.Draft202012Validator(schema())
    a, b = str(three[2]), str(three[1])
    bad = str(fixtures / "encrypted_user.pdf")
    pages = records(run_cli("pages", "--json", "1-2", a, bad, b).stdout)
    mapped = records(run_cli("map", "--json", a, bad, b).stdout)
    for lines in (pages, mapped):
        for line in lines:
            assert not list(validator.iter_errors(line)), line
        assert [line["source"] for line in lines if "error" in line] == [bad]
        for source in (a, b):
            mine = [{k: v for k, v in line.items() if k != "source"} for line in lines if line["source"] == source]
            assert list(mine[0]) == ["meta"] and mine[0]["meta"]["source"] == source
    alone = records(run_cli("pages", "--json", "1-2", a).stdout)
    assert [{k: v for k, v in line.items() if k != "source"} for line in pages if line["source"] == a] == alone
    assert all("source" not in line for line in alone)  # one source: the stream as it always was
    assert [list(line)[0] for line in pages] == ["meta", "page", "page", "done", "error",
                                                 "meta", "page", "page", "done"]


def test_map_of_several_sources(three: list[Path], run_cli) -> None:
    paths = [str(path) for path in three]
    result = run_cli("map", "--cap", "1000", *paths)
    assert result.exit_code == 0
    parts = result.stdout.split("\n==> ")
    assert result.stdout.startswith(f"==> {paths[0]} <==\n") and len(parts) == 3
    for part, path in zip(parts, paths, strict=True):
        alone = run_cli("map", "--cap", "1000", path).stdout
        assert part.removeprefix("==> ").split(" <==\n", 1) == [path, alone]


# --- the fast paths leave several sources and -o to the command -----------------------------

CLICK = "import sys; sys.argv[0] = 'siftpdf'; from siftpdf.commands.group import main; main()"


def _console(args: list[str], cache: Path, via_click: bool = False) -> tuple[int, bytes, bytes, bool]:
    """Exit status, stdout, stderr and whether click was imported, of the console command (or
    of the click group itself) with this cache."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1", SIFTPDF_CACHE_DIR=str(cache))
    argv = [sys.executable, "-c", CLICK, *args] if via_click else [sys.executable, "-m", "siftpdf", *args]
    done = subprocess.run(argv, capture_output=True, env=env, timeout=120)
    lines = done.stderr.decode().splitlines()
    clicked = any(line.startswith("import time:") and line.split("|")[-1].strip() == "click" for line in lines)
    err = "\n".join(line for line in lines if not line.startswith("import time:")).encode()
    out = re.sub(rb'"elapsed_ms":\d+', b'"elapsed_ms":0', done.stdout)
    return done.returncode, out, err, clicked


@pytest.mark.parametrize("line", [
    "pages 2 {a} {b}", "pages --json 1 {a} {b}", "map {a} {b}", "map --no-cache {a} {b}",
    "pages --no-cache 1 {a} {b}", "extract --no-cache -o {out} {a}", "extract -o {out} {a} {b}",
])
@pytest.mark.parametrize("cached", [True, False], ids=["hit", "miss"])
def test_the_fast_paths_leave_several_sources_to_the_command(three: list[Path], tmp_path: Path, own_cache: Path,
                                                             line: str, cached: bool) -> None:
    if cached:
        for path in three:
            assert run_siftpdf("extract", str(path)).returncode == 0
    words = [word.format(a=three[2], b=three[1], out=tmp_path / "out") for word in line.split()]
    fast = _console(words, own_cache)
    assert fast[3]  # click ran it
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
    slow = _console(words, own_cache if cached else tmp_path / "cache", via_click=True)  # a miss again
    assert fast[:3] == slow[:3]
    if "--json" in words:  # every record says its source: both are there, in order
        said = [record["source"] for record in records(fast[1].decode())]
        assert said == [str(three[2])] * 3 + [str(three[1])] * 3, said
    elif "-o" not in words:  # text: a head line per source
        assert re.findall(rb"^==> (.*) <==$", fast[1], re.M) == [str(three[2]).encode(), str(three[1]).encode()]


def _children_of(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_an_interrupted_batch_leaves_no_file_and_no_child(tmp_path: Path) -> None:
    import signal

    sys.path.insert(0, str(Path(__file__).parent))
    import make_fixtures

    dense = tmp_path / "dense.pdf"
    dense.write_bytes(make_fixtures.dense_doc(300))
    other = tmp_path / "dense2.pdf"
    shutil.copy(dense, other)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "extract", "--no-cache", "-o", str(out), str(dense),
                             str(other)], stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    children: set[int] = set()
    while time.monotonic() < deadline and (len(children) < 2 or not list(out.glob(".*.part"))):
        children = _children_of(proc.pid)
        time.sleep(0.02)
    assert len(children) == 2 and proc.poll() is None  # both jobs under way
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.decode().strip() == "siftpdf: interrupted"
    # No half-written file under any name: none is left, or (a job that ended before the signal
    # came) one is whole, its doc stream ended by its done record.
    for written in out.iterdir():
        assert not written.name.startswith(".") and '"done"' in written.read_text().splitlines()[-1], written
    assert len(list(out.iterdir())) < 2  # the other job was under way: interrupted, nothing of it
    assert [pid for pid in children if _alive(pid)] == []  # the jobs' children were killed and reaped


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
