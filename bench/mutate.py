"""Byte-level PDF mutations, reproducible from a seed: the inputs of the bake-off's robustness
column and of the fuzz target.

A mutation is a small JSON-able recipe (``{"op": ..., "at": ..., ...}``), so a mutant that
breaks something can be kept as a recipe plus the seed document, not as a binary.
"""

from __future__ import annotations

import random
from typing import Any

OPS = ("bitflip", "truncate", "delete", "duplicate", "keyword")

# Structural keywords a reader depends on; corrupting one is a common real-world breakage.
KEYWORDS = (b"obj", b"endobj", b"stream", b"endstream", b"xref", b"trailer", b"startxref",
            b"/Length", b"/Type", b"/Pages", b"/Kids", b"/Count", b"/Root", b"/Filter",
            b"/FlateDecode", b"/Contents", b"/Font", b"/Page", b"/Size", b"/Prev", b"/ObjStm")

Recipe = dict[str, Any]


def make_recipe(rng: random.Random, size: int, op: str | None = None) -> Recipe:
    """A random mutation for a document of ``size`` bytes; positions are fractions of the size."""
    op = op or rng.choice(OPS)
    if op == "bitflip":
        return {"op": op, "bits": [[rng.random(), rng.randrange(8)] for _ in range(rng.randint(1, 16))]}
    if op == "truncate":
        return {"op": op, "keep": round(rng.uniform(0.05, 0.98), 4)}
    if op in ("delete", "duplicate"):
        return {"op": op, "at": rng.random(), "length": rng.choice((1, 7, 64, 512, 4096, 32768))}
    return {"op": op, "keyword": rng.choice(KEYWORDS).decode(), "nth": rng.random(),
            "junk": rng.choice(["", "X", "0", "obj", "<<", ")", "9999999999", "%"])}


def apply(data: bytes, recipe: Recipe) -> bytes:
    """Apply one recipe; deterministic for the same bytes and recipe."""
    size = len(data)
    if size == 0:
        return data
    op = recipe["op"]
    if op == "bitflip":
        out = bytearray(data)
        for where, bit in recipe["bits"]:
            out[min(int(where * size), size - 1)] ^= 1 << int(bit)
        return bytes(out)
    if op == "truncate":
        return data[: max(1, int(size * float(recipe["keep"])))]
    if op in ("delete", "duplicate"):
        at = min(int(float(recipe["at"]) * size), size - 1)
        chunk = data[at: at + int(recipe["length"])]
        if op == "delete":
            return data[:at] + data[at + len(chunk):]
        return data[:at] + chunk + data[at:]
    if op == "keyword":
        keyword = str(recipe["keyword"]).encode()
        hits = []
        start = data.find(keyword)
        while start >= 0 and len(hits) < 100_000:
            hits.append(start)
            start = data.find(keyword, start + 1)
        if not hits:
            return data
        at = hits[min(int(float(recipe["nth"]) * len(hits)), len(hits) - 1)]
        return data[:at] + str(recipe["junk"]).encode() + data[at + len(keyword):]
    raise ValueError(f"unknown mutation {op!r}")


def apply_all(data: bytes, recipes: list[Recipe]) -> bytes:
    for recipe in recipes:
        data = apply(data, recipe)
    return data


def mutants(seeds: list[tuple[str, bytes]], count: int, seed: int) -> list[tuple[str, list[Recipe], bytes]]:
    """``count`` mutants spread evenly over ``seeds`` and over the mutation kinds.

    Returns (seed name, recipes, mutated bytes). Every fifth mutant stacks two mutations.
    """
    rng = random.Random(seed)
    made = []
    for i in range(count):
        name, data = seeds[i % len(seeds)]
        recipes = [make_recipe(rng, len(data), OPS[(i // len(seeds)) % len(OPS)])]
        if i % 5 == 4:
            recipes.append(make_recipe(rng, len(data)))
        made.append((name, recipes, apply_all(data, recipes)))
    return made
