"""The bake-off's scoring: word multisets and adjacent pairs, as docs/bakeoff.md describes them."""

from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

import bakeoff  # noqa: E402
import mutate  # noqa: E402


def test_words_fold_case_and_split_cjk_characters() -> None:
    assert bakeoff.words("The Cat, the cat.") == ["the", "cat", "the", "cat"]
    assert bakeoff.words("中华人民 abc") == ["中", "华", "人", "民", "abc"]


def test_scores_count_repeats_and_order() -> None:
    ref = bakeoff.words("a b c d")
    assert bakeoff.score(ref, ref) == (1.0, 1.0, 1.0)
    recall, precision, order = bakeoff.score(ref, bakeoff.words("d c b a a"))
    assert (recall, precision, order) == (1.0, 0.8, 0.0)  # all words, one extra, no pair in order
    assert bakeoff.score(ref, []) == (0.0, 0.0, 0.0)


def test_mutants_are_reproducible_from_the_seed() -> None:
    seeds = [("x", b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")]
    first, again = mutate.mutants(seeds, 20, seed=3), mutate.mutants(seeds, 20, seed=3)
    assert first == again
    assert {r[0]["op"] for _, r, _ in first} == set(mutate.OPS)
    assert any(data != seeds[0][1] for _, _, data in first)
