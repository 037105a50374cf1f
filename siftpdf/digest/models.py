"""Where answers come from: a command (--llm-cmd), an OpenAI-compatible endpoint, or, with
neither configured, an extractive digest. No model is ever called unasked."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass

from ..errors import FetchError, TimedOutError, UsageError
from .chunks import Chunk
from .prompt import INSTRUCTIONS
from .tokens import tokenize

MAX_ANSWER_BYTES = 1 << 20
PASSAGE_CHARS = 360
_MARKER = re.compile(r"\n?--- page \d+ ---\n?")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")


@dataclass(frozen=True)
class Endpoint:
    url: str
    model: str
    key: str | None

    @classmethod
    def from_env(cls) -> Endpoint | None:
        url = os.environ.get("SIFTPDF_LLM_URL")
        if not url:
            return None
        return cls(url, os.environ.get("SIFTPDF_LLM_MODEL") or "default", os.environ.get("SIFTPDF_LLM_KEY"))

    @property
    def chat_url(self) -> str:
        url = self.url.rstrip("/")
        return url if url.endswith("/chat/completions") else url + "/chat/completions"


def run_command(command: str, prompt: str, timeout: float) -> str:
    """Pipe the prompt to a command's stdin and read the answer from its stdout."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"bad --llm-cmd: {exc}") from None
    if not argv:
        raise UsageError("empty --llm-cmd")
    try:
        proc = subprocess.run(argv, input=prompt.encode("utf-8"), capture_output=True, timeout=timeout)
    except FileNotFoundError:
        raise UsageError(f"--llm-cmd: {argv[0]}: command not found") from None
    except subprocess.TimeoutExpired:
        raise TimedOutError(f"model command timed out after {timeout:g} s") from None
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise FetchError(f"model command failed (exit {proc.returncode})"
                         + (f": {detail[-1][:200]}" if detail else ""))
    return proc.stdout[:MAX_ANSWER_BYTES].decode("utf-8", "replace").strip()


def call_endpoint(endpoint: Endpoint, prompt: str, timeout: float) -> str:
    """Ask an OpenAI-compatible chat endpoint."""
    import httpx

    headers = {"Authorization": f"Bearer {endpoint.key}"} if endpoint.key else {}
    body = {"model": endpoint.model, "messages": [
        {"role": "system", "content": INSTRUCTIONS},
        {"role": "user", "content": prompt},
    ]}
    try:
        response = httpx.post(endpoint.chat_url, json=body, headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise TimedOutError(f"model endpoint timed out after {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise FetchError(f"model endpoint unreachable: {exc}") from None
    if response.status_code != 200:
        raise FetchError(f"model endpoint answered HTTP {response.status_code}")
    try:
        answer = response.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise FetchError("model endpoint answered without choices[0].message.content") from None
    if not isinstance(answer, str):
        raise FetchError("model endpoint answered a non-text message")
    return answer.strip()


def best_passage(chunk: Chunk, question: str, width: int = PASSAGE_CHARS) -> tuple[int, str]:
    """The sentence of the chunk that shares most words with the question, with neighbours
    up to ``width`` characters, and the page it is on."""
    wanted = set(tokenize(question))
    text = chunk.text
    spans = _sentence_spans(text)
    if not spans:
        return chunk.first_page, ""
    scores = [len(wanted & set(tokenize(text[a:b]))) for a, b in spans]
    best = max(range(len(spans)), key=lambda i: (scores[i], -i))
    page = chunk.page_at(spans[best][0])
    # Grow around the best sentence, never across a page break: the passage cites one page.
    same_page = [chunk.page_at(a) == page for a, _ in spans]
    lo, hi = best, best
    while True:
        grown = False
        if hi + 1 < len(spans) and same_page[hi + 1] and spans[hi + 1][1] - spans[lo][0] <= width:
            hi, grown = hi + 1, True
        if lo > 0 and same_page[lo - 1] and spans[hi][1] - spans[lo - 1][0] <= width:
            lo, grown = lo - 1, True
        if not grown:
            break
    start, end = spans[lo][0], spans[hi][1]
    passage = " ".join(_MARKER.sub(" ", text[start:end]).split())
    if len(passage) > width:
        passage = passage[:width].rsplit(" ", 1)[0] + "…"
    return page, passage


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence or line of ``text``; page-marker lines are not sentences."""
    spans: list[tuple[int, int]] = []
    position = 0
    for match in [*_SENTENCE_END.finditer(text), None]:
        end = match.start() if match else len(text)
        if end > position and not _MARKER.fullmatch(text[position:end].strip("\n") + "\n"):
            spans.append((position, end))
        position = match.end() if match else end
    return spans
