"""siftpdf digest: answer a question about a document, citing pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .options import complete_source, is_quiet, note, options_of, out

if TYPE_CHECKING:  # the library is imported when a command runs, not for --help
    from ..options import ReadOptions


@click.command("digest")
@click.argument("source", required=False, shell_complete=complete_source)
@options_of("digest", question={"required": True})
def command(question: str, source: str | None, llm_cmd: str | None, show_prompt: bool, semantic: bool,
            llm_timeout: float,
            cap: int, as_json: bool, read_options: ReadOptions) -> None:
    """Answer QUESTION from SOURCE, citing pages as (p. N).

    The document is cut into page-aware chunks; BM25 picks those relevant to
    the question (the index is cached, so a second question is quick); the
    prompt keeps their --- page N --- markers. The answer comes from --llm-cmd,
    else from the OpenAI-compatible endpoint in SIFTPDF_LLM_URL (with
    SIFTPDF_LLM_MODEL, SIFTPDF_LLM_KEY), else it is an extractive digest: the
    best passages, each with its page. No model is called unasked. Citations
    of pages that were not in the prompt are reported.

    \b
    Examples:
      siftpdf digest -q 'what learning rate schedule is used?' paper.pdf
      siftpdf digest -q 'warranty period' manual.jsonl --llm-cmd 'llm -m gpt-4o-mini'
      siftpdf digest -q 'who signed it?' contract.pdf --show-prompt
    """
    from ..digest.core import digest, prepare
    from ..digest.models import Endpoint
    from ..digest.retrieval import index_store
    from ..docstream import dumps
    from ..sources import open_source

    store = index_store(read_options.sharing.cache)
    embedder = None
    if semantic:
        from ..digest.semantic import MiniLM

        embedder = MiniLM()
    with open_source(source, read_options) as doc:
        if show_prompt:
            prompt, _ = prepare(doc, question, cap, store, embedder)
            out(prompt.text)
            return
        result = digest(doc, question, budget=cap, llm_cmd=llm_cmd, endpoint=Endpoint.from_env(),
                        timeout=llm_timeout, store=store, embedder=embedder)
    if result.invalid_citations:
        pages = ", ".join(str(p) for p in result.invalid_citations)
        note(f"siftpdf: the answer cites page(s) {pages}, which were not in the prompt", is_quiet())
    if as_json:
        out(dumps(result.to_record()) + "\n")
        return
    out(result.answer.rstrip("\n") + "\n")
