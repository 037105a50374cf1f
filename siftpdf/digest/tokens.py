"""Tokens for retrieval: lower-cased words, CJK runs as character bigrams, no stop words."""

from __future__ import annotations

import re

# Internal fixed patterns (not user input), so the standard library's re is fine here.
_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")

STOP_WORDS = frozenset("""
a an and are as at be been but by can could did do does for from had has have how i if in into
is it its may might must not of on or our shall should so than that the their them then there
these they this those to was we were what when where which while who whom why will with would
you your about after all also any before between both each more most no nor only other over
same some such under until very just used using use what's does doesn't
""".split())


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    for word in _WORD.findall(text.lower()):
        if _CJK.search(word):
            tokens.extend(_cjk_tokens(word))
        elif word not in STOP_WORDS and not (len(word) == 1 and not word.isdigit()):
            tokens.append(word)
    return tokens


def _cjk_tokens(word: str) -> list[str]:
    """Split a mixed word into its CJK runs (as bigrams) and the rest (as words)."""
    out: list[str] = []
    position = 0
    for run in _CJK.finditer(word):
        if run.start() > position:
            out.append(word[position:run.start()])
        chars = run.group()
        out.extend(chars[i:i + 2] for i in range(max(1, len(chars) - 1)))
        position = run.end()
    if position < len(word):
        out.append(word[position:])
    return out
