"""digest end to end: index → retrieve → prompt → model or extractive passages."""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from ..docstream import Document
from .models import Endpoint, best_passage, call_endpoint, run_command
from .prompt import Prompt, build_prompt, cited_pages, select
from .retrieval import load_or_build
from .semantic import Embedder, chunk_vectors, fuse, semantic_ranking

PASSAGES = 5
CANDIDATES = 60


@dataclass
class Digest:
    question: str
    answer: str
    citations: list[int]
    passages: list[dict[str, Any]]
    model: str  # "extractive", "command" or "endpoint"
    prompt: Prompt
    invalid_citations: list[int] = field(default_factory=list)

    def to_record(self) -> dict[str, Any]:
        return {"answer": self.answer, "citations": self.citations, "passages": self.passages,
                "invalid_citations": self.invalid_citations, "model": self.model,
                "prompt_pages": self.prompt.pages}


def prepare(doc: Document, question: str, budget: int, store: MutableMapping[str, bytes] | None,
            embedder: Embedder | None = None) -> tuple[Prompt, list[tuple[Any, float]]]:
    """Retrieve for ``question`` (BM25, fused with embeddings when an embedder is given) and
    build the prompt. No model is involved."""
    index, _ = load_or_build(doc.pages(), store)
    ranked = index.search(question, CANDIDATES)
    if embedder is not None:
        vectors = chunk_vectors(index.chunks, embedder, index.key, store)
        ranked = fuse(ranked, semantic_ranking(question, index.chunks, vectors, embedder, CANDIDATES))
    # Nothing matched (a question in other words than the text's): give the opening instead.
    chosen = select(ranked, budget) if ranked else select([(c, 0.0) for c in index.chunks], budget)
    return build_prompt(question, doc.meta, chosen), ranked


def digest(doc: Document, question: str, *, budget: int = 40_000, llm_cmd: str | None = None,
           endpoint: Endpoint | None = None, timeout: float = 300.0,
           store: MutableMapping[str, bytes] | None = None, embedder: Embedder | None = None) -> Digest:
    prompt, ranked = prepare(doc, question, budget, store, embedder)
    passages = []
    for chunk, score in ranked[:PASSAGES]:
        page, text = best_passage(chunk, question)
        passages.append({"page": page, "text": text, "score": round(score, 4)})
    if llm_cmd:
        answer, model = run_command(llm_cmd, prompt.text, timeout), "command"
    elif endpoint is not None:
        answer, model = call_endpoint(endpoint, prompt.text, timeout), "endpoint"
    else:
        answer, model = _extractive(passages), "extractive"
    citations = cited_pages(answer)
    invalid = [page for page in citations if page not in prompt.pages]
    return Digest(question, answer, citations, passages, model, prompt, invalid)


def _extractive(passages: list[dict[str, Any]]) -> str:
    if not passages:
        return "No passage of the document matches the question."
    return "\n\n".join(f"(p. {p['page']}) {p['text']}" for p in passages)
