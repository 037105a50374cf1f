"""digest: latency from the cache, the BM25 library choice, and retrieval quality.

Targets: a digest of the 2,100-page fixture from the page cache under 2 s, a second question
on it under 0.5 s; for 20 generated questions whose answer sits on one known page of corpus
documents, the right page among the top 5 passages at least 18 times.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

from bench.common import CORPUS, DATA, SIFTPDF, fixture, table

QUALITY_DOCS = ["paper", "long"]
SEED = 7


def _timed(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(SIFTPDF + args, capture_output=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.decode())
    return time.perf_counter() - started


def latency() -> None:
    big = str(fixture("big"))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "SIFTPDF_CACHE_DIR": cache}
        # Fill the page cache first (when the build has one), so the digest reads pages from it.
        warm = _timed(["map", "--max-pages", "2100", big], env)
        first = _timed(["digest", "-q", "where does the zebra needle lie?", "--max-pages", "2100", big], env)
        second = _timed(["digest", "-q", "what does the committee review?", "--max-pages", "2100", big], env)
    table("digest on the 2,100-page fixture (extractive)", ["step", "wall", "target"], [
        ["map (extract, fill the cache)", f"{warm * 1000:.0f} ms", ""],
        ["first question (index built)", f"{first * 1000:.0f} ms", "< 2000 ms"],
        ["second question (index cached)", f"{second * 1000:.0f} ms", "< 500 ms"],
    ])


def libraries() -> None:
    """bm25s against rank-bm25 on the same chunks of the largest corpus manual."""
    from siftpdf import extract
    from siftpdf.digest.chunks import chunk_pages
    from siftpdf.digest.tokens import tokenize

    books = sorted((CORPUS / "long").glob("*.pdf"), key=lambda p: p.stat().st_size) if CORPUS.is_dir() else []
    if not books:
        print("\n(corpus absent: BM25 library comparison skipped)")
        return
    book = books[-2]
    pages = [r for r in extract(book.read_bytes()) if "page" in r]
    chunks = list(chunk_pages(pages))
    corpus = [tokenize(c.text) for c in chunks]
    query = tokenize("how do I set a conditional breakpoint")
    rows = []
    import bm25s

    started = time.perf_counter()
    model = bm25s.BM25()
    model.index(corpus, show_progress=False)
    rows.append(_lib_row("bm25s", model, started, lambda m: m.get_scores(query)))
    try:
        from rank_bm25 import BM25Okapi
    except ImportError:
        rows.append(["rank-bm25", "not installed", "", "", ""])
    else:
        started = time.perf_counter()
        okapi = BM25Okapi(corpus)
        rows.append(_lib_row("rank-bm25", okapi, started, lambda m: m.get_scores(query)))
    table(f"BM25 libraries on {book.name} ({len(chunks)} chunks)",
          ["library", "build", "cached load", "query", "index size"], rows)


def _lib_row(name: str, model: object, started: float, score) -> list[str]:  # type: ignore[no-untyped-def]
    build = time.perf_counter() - started
    blob = pickle.dumps(model)
    started = time.perf_counter()
    loaded = pickle.loads(blob)
    load = time.perf_counter() - started
    started = time.perf_counter()
    score(loaded)
    query = time.perf_counter() - started
    return [name, f"{build * 1000:.0f} ms", f"{load * 1000:.1f} ms", f"{query * 1000:.2f} ms", f"{len(blob) >> 10} KiB"]


def _questions(rng: random.Random, count: int) -> list[tuple[Path, int, str]]:
    """Questions from a sentence on one page: its rarest words in the document."""
    from siftpdf import extract
    from siftpdf.digest.tokens import tokenize

    files = sorted(p for c in QUALITY_DOCS for p in (CORPUS / c).glob("*.pdf"))
    rng.shuffle(files)
    out: list[tuple[Path, int, str]] = []
    for path in files:
        if len(out) >= count:
            break
        try:
            pages = [r for r in extract(path.read_bytes(), max_pages=200) if r.get("status") == "text"]
        except Exception:  # noqa: BLE001 - unreadable corpus files are simply not used
            continue
        if len(pages) < 5:
            continue
        df: dict[str, int] = {}
        for page in pages:
            for word in set(tokenize(page["text"])):
                df[word] = df.get(word, 0) + 1
        page = rng.choice(pages)
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", page["text"].replace("\n", " "))
                     if 10 <= len(s.split()) <= 40 and re.search(r"[a-z]{4}", s)]
        if not sentences:
            continue
        words = sorted({w for w in tokenize(rng.choice(sentences)) if w.isalpha() and len(w) > 3},
                       key=lambda w: (df.get(w, 0), w))[:4]
        if len(words) == 4:
            out.append((path, page["page"], f"What does the document say about {', '.join(words)}?"))
    return out


def quality() -> None:
    if not CORPUS.is_dir():
        print("\n(corpus absent: retrieval quality skipped)")
        return
    from siftpdf import extract
    from siftpdf.digest.core import digest
    from siftpdf.docstream import Document

    rows, hits = [], 0
    for path, page, question in _questions(random.Random(SEED), 20):
        doc = Document(iter(list(extract(path.read_bytes(), max_pages=200))))
        result = digest(doc, question)
        top = [p["page"] for p in result.passages[:5]]
        hits += page in top
        words = question.removeprefix("What does the document say about ")[:50]
        rows.append([path.name[:40], str(page), words, "yes" if page in top else f"no {top}"])
    table("Retrieval quality: the answer's page among the top 5 passages", ["document", "page", "words", "found"],
          rows)
    print(f"\nscore: {hits} of {len(rows)} (target: at least 18 of 20)")
    (DATA / "digest_quality.json").write_text(json.dumps({"hits": hits, "questions": len(rows)}))


def run() -> None:
    latency()
    libraries()
    quality()


if __name__ == "__main__":
    run()
