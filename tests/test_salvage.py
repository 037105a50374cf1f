"""The salvage chain: PDFium, pypdf's lenient reader, PDFium over a qpdf-repaired copy, pdfminer.
``done`` says which pages came from which engine."""

from __future__ import annotations

import sys
from pathlib import Path

import make_fixtures
import pytest
from conftest import FIXTURES, making, records, run_siftpdf

from siftpdf.child.job import Job
from siftpdf.errors import UnreadableError
from siftpdf.workers import runner

PHRASES = list(make_fixtures.PHRASES.values())


@pytest.fixture(scope="session")
def no_trailer() -> Path:
    """The three-page document with its ``trailer`` keyword destroyed: PDFium and pypdf both
    give up; qpdf rebuilds the cross-reference table and finds every object."""
    path = FIXTURES / "salvage" / "no_trailer.pdf"
    with making():
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(make_fixtures.three_page().replace(b"trailer", b"X"))
    return path


def test_repair_pass_salvages_what_pdfium_and_pypdf_cannot(no_trailer: Path) -> None:
    proc = run_siftpdf("extract", "--json", str(no_trailer))
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    meta = out[0]["meta"]
    assert meta["engine"]["name"] == "repaired" and "qpdf" in meta["engine"]["version"]
    text = " ".join(r.get("text", "") for r in out if "page" in r)
    assert all(phrase in text for phrase in PHRASES)
    assert out[-1]["done"]["engines"] == {"repaired": 3}


def test_without_the_repair_pass_the_same_file_is_unreadable(no_trailer: Path) -> None:
    with pytest.raises(UnreadableError):
        list(runner.run_child(no_trailer.read_bytes(), None, job=Job(repair=False)))


def test_no_repair_reads_a_damaged_file_as_it_stands(no_trailer: Path, fixtures: Path, tmp_path: Path) -> None:
    """--no-repair: the file only qpdf's rebuilding reads is unreadable, though the cache holds
    it rebuilt (a read made without the rebuilding is never served a rebuilt one); a sound file
    reads the same either way."""
    cache = ["--cache-dir", str(tmp_path / "cache")]
    assert run_siftpdf("extract", *cache, str(no_trailer)).returncode == 0  # rebuilt, and cached
    for args in (["extract", "--no-repair"], ["pages", "1", "--no-repair"]):
        refused = run_siftpdf(*args, *cache, str(no_trailer))
        assert refused.returncode == 4 and refused.stderr.startswith(b"siftpdf: unreadable PDF"), refused.stderr
        # the doc stream's reader is told in the stream too; the text view writes nothing
        said = [record["error"]["code"] for record in records(refused.stdout.decode())]
        assert said == (["unreadable"] if args[0] == "extract" else []), args
    assert run_siftpdf("pages", "1", *cache, str(no_trailer)).returncode == 0  # the rebuilt one, for a read that asks
    sound = str(fixtures / "three_page.pdf")
    assert run_siftpdf("extract", "--no-repair", "--no-cache", "--markdown", sound).stdout == \
        run_siftpdf("extract", "--no-cache", "--markdown", sound).stdout


def test_missing_pikepdf_degrades_to_a_typed_error(run_cli, monkeypatch, no_trailer: Path) -> None:
    code = "import sys; sys.modules['pikepdf'] = None; import siftpdf.child.main as c; sys.exit(c.main(sys.argv[1:]))"
    monkeypatch.setattr(runner, "child_argv", lambda: [sys.executable, "-I", "-c", code])
    result = run_cli("extract", str(no_trailer))
    assert result.exit_code == 4
    assert result.stderr.startswith("siftpdf: unreadable PDF") and "Traceback" not in result.stderr


def test_truncated_download_keeps_its_complete_pages(fixtures: Path) -> None:
    """A file cut at 60 % still yields the pages whose objects arrived."""
    proc = run_siftpdf("extract", "--json", str(fixtures / "truncated.pdf"))
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    done = out[-1]["done"]
    assert sum(done["engines"].values()) >= 1
    pages = [r for r in out if "page" in r]
    assert any(PHRASES[0] in r.get("text", "") for r in pages)
    assert all(r.get("engine", out[0]["meta"]["engine"]["name"]) in done["engines"]
               for r in pages if r["status"] != "failed")


def test_pdfminer_is_the_last_resort(corpus: Path) -> None:
    """A mutant of a real form (512 bytes duplicated inside an object) that PDFium, pypdf and
    the qpdf repair pass all give up on; pdfminer's parser still reads both pages."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import mutate

    source = corpus / "forms-tables" / "tests_pdfs_150109DSP-Milw-505-90D.pdf"
    if not source.exists():
        pytest.skip("corpus file absent")
    data = mutate.apply(source.read_bytes(), {"op": "duplicate", "at": 0.24171771118979668, "length": 512})
    out = list(runner.run_child(data))
    assert out[0]["meta"]["engine"]["name"] == "pdfplumber"
    assert out[-1]["done"]["engines"] == {"pdfplumber": 2}
    assert any(r.get("status") == "text" and r["text"].strip() for r in out if "page" in r)


@pytest.mark.parametrize("view", [(), ("--raw",)])
def test_text_pdfium_leaves_undecoded_is_read_by_pdfminer(tmp_path: Path, view: tuple[str, ...]) -> None:
    """An OCR layer of Chinese drawn one glyph a text object in a font through GBK-EUC-H, not
    embedded: PDFium reads the page's figures and none of its Chinese, without a word. The page
    has more text objects than PDFium read characters, and pdfminer reads characters PDFium's
    text has none of: the page is pdfminer's, and says so."""
    path = tmp_path / "gbk.pdf"
    path.write_bytes(make_fixtures.gbk_text())
    proc = run_siftpdf("extract", "--json", "--no-cache", *view, str(path))
    assert proc.returncode == 0, proc.stderr
    out = records(proc.stdout.decode())
    page = out[1]
    assert all(line in page["text"] for line in make_fixtures.GBK_LINES) and "2016 306" in page["text"]
    if _pdfium_reads_chinese(path):  # a system font with the glyphs (fonts-droid-fallback): PDFium's own reading
        assert "engine" not in page and out[-1]["done"]["engines"] == {"pdfium": 1}
        return
    assert page["engine"] == "pdfplumber" and page["status"] == "text"
    assert out[-1]["done"]["engines"] == {"pdfplumber": 1}


def _pdfium_reads_chinese(path: Path) -> bool:
    """Whether PDFium reads the fixture's Chinese on this machine: it does where a system font
    (one ghostscript's packages bring) has the glyphs of the font the file does not embed."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    return any(line in text for line in make_fixtures.GBK_LINES)


def test_a_layer_pdfminer_reads_twice_does_not_replace_pdfiums() -> None:
    """pdfminer's reading replaces PDFium's only with characters PDFium's has none of: a text
    layer drawn twice, which pdfminer reads twice ('本科本科'), is no such case."""
    from siftpdf.child.engines import PageResult
    from siftpdf.child.extraction import _read_whole

    class Other:
        names = ["pdfplumber"]

        def __init__(self, text: str) -> None:
            self.text = text

        def read_with(self, name: str, page: int) -> PageResult:
            return PageResult(self.text, "text", name)

    first = PageResult("本科 计算机科学与技术 微软 项目描述", "text", "pdfium", undecoded=True)
    twice = "本科本科 计算机科学与技术计算机科学与技术 微软微软 项目描述项目描述"
    assert _read_whole(first, 1, Other(twice)) is first  # type: ignore[arg-type]
    other = _read_whole(first, 1, Other(twice + " 四川省甘孜州丹巴磨子电站引水隧洞爆破方案优化设计及爆破震动监测工作"))  # type: ignore[arg-type]
    assert other is first  # the new characters are under half of what it read
    chinese = PageResult("2016 306", "text", "pdfium", undecoded=True)
    read = _read_whole(chinese, 1, Other("2016 306 关于公司年度报告中有关财务事项的说明上海证券交易所"))  # type: ignore[arg-type]
    assert read.engine == "pdfplumber"
