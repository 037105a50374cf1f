"""Fuzz the extraction child with byte-level mutations of generated PDFs, for a fixed time.

    python tests/fuzz_child.py --seconds 60

Hypothesis draws a seed document and one to three mutations (bench/mutate.py), feeds the
mutant to the real child as the runner starts it (``child_argv()``, with its limits) and
requires a contracted ending: exit 0, 3, 4 or 7, no traceback, within the time limit, and, on
exit 0, a doc stream that starts with meta and ends with done. A failure is shrunk to a minimal
recipe and appended to tests/fuzz_regressions.json, which tests/test_fuzz.py replays through the
parent on every test run. No binary is stored: a recipe plus the seed generator rebuild it.

Each case's ``found`` is what broke ("crash", "hang", "traceback", "bad stream"), or "curated"
for a mutant kept by hand for the recovery path it takes (repair pass, pypdf, a page that fails
alone); those also keep ``expect``, the pages' statuses (or the error's code) when kept, and the
replay requires every page read then to be read still.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "bench")]

import make_fixtures  # noqa: E402
import make_hostile  # noqa: E402
import mutate  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

REGRESSIONS = HERE / "fuzz_regressions.json"
CHILD_TIMEOUT = 20.0
CONTRACT_EXITS = {0, 3, 4, 7}

SEEDS = {
    "three_page": make_fixtures.three_page,
    "outline": make_fixtures.outline_doc,
    "page_tree_loop": make_hostile.page_tree_loop,
    "objstm_self": make_hostile.objstm_self,
    "xref_prev_loop": make_hostile.xref_prev_loop,
}


@functools.cache
def seed_bytes(name: str) -> bytes:
    return SEEDS[name]()


def recipes() -> st.SearchStrategy[list[dict[str, Any]]]:
    fraction = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
    one = st.one_of(
        st.builds(lambda bits: {"op": "bitflip", "bits": bits},
                  st.lists(st.tuples(fraction, st.integers(0, 7)).map(list), min_size=1, max_size=16)),
        st.builds(lambda keep: {"op": "truncate", "keep": keep}, st.floats(0.01, 0.999)),
        st.builds(lambda op, at, length: {"op": op, "at": at, "length": length},
                  st.sampled_from(["delete", "duplicate"]), fraction, st.integers(1, 1 << 15)),
        st.builds(lambda kw, nth, junk: {"op": "keyword", "keyword": kw, "nth": nth, "junk": junk},
                  st.sampled_from([k.decode() for k in mutate.KEYWORDS]), fraction,
                  st.sampled_from(["", "X", "0", "obj", "<<", ")", "9999999999", "%", "[", "-1"])),
    )
    return st.lists(one, min_size=1, max_size=3)


def run_child_entry(data: bytes) -> tuple[str, str]:
    """Feed ``data`` to the real child; return ("ok" or what broke the contract, detail)."""
    from siftpdf.workers.runner import child_argv

    argv = child_argv() + ["--memory", str(1 << 30), "--cpu", str(int(CHILD_TIMEOUT))]
    try:
        proc = subprocess.run(argv, input=data, capture_output=True, timeout=CHILD_TIMEOUT, env={})
    except subprocess.TimeoutExpired:
        return "hang", f"no exit within {CHILD_TIMEOUT:g} s"
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode not in CONTRACT_EXITS:
        return "crash", f"exit {proc.returncode}: {stderr[-300:]}"
    if "Traceback" in stderr:
        return "traceback", stderr[-300:]
    if proc.returncode == 0:
        lines = [json.loads(line) for line in proc.stdout.splitlines()]
        if not lines or "meta" not in lines[0] or "done" not in lines[-1]:
            return "bad stream", proc.stdout[:200].decode("utf-8", "replace")
    return "ok", ""


def load_regressions() -> list[dict[str, Any]]:
    return json.loads(REGRESSIONS.read_text()) if REGRESSIONS.exists() else []


def save_regression(seed: str, recipe: list[dict[str, Any]], kind: str, detail: str) -> None:
    known = load_regressions()
    if any(r["seed"] == seed and r["recipes"] == recipe for r in known):
        return
    known.append({"seed": seed, "recipes": recipe, "found": kind, "detail": detail[:300]})
    REGRESSIONS.write_text(json.dumps(known, indent=1) + "\n")


def fuzz(seconds: float, examples_per_round: int = 25) -> int:
    failures: list[tuple[str, list[dict[str, Any]], str, str]] = []

    @settings(max_examples=examples_per_round, deadline=None, database=None, print_blob=False,
              phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    @given(seed=st.sampled_from(sorted(SEEDS)), recipe=recipes())
    def target(seed: str, recipe: list[dict[str, Any]]) -> None:
        kind, detail = run_child_entry(mutate.apply_all(seed_bytes(seed), recipe))
        if kind != "ok":
            failures.append((seed, recipe, kind, detail))  # the last one is the shrunk one
        assert kind == "ok", f"{kind}: {detail}"

    deadline = time.monotonic() + seconds
    rounds = examples = found = 0
    while time.monotonic() < deadline:
        rounds += 1
        try:
            target()
        except AssertionError:
            seed, recipe, kind, detail = failures[-1]
            save_regression(seed, recipe, kind, detail)
            found += 1
            print(f"fuzz: {kind} on {seed} {json.dumps(recipe)}", file=sys.stderr)
        examples += examples_per_round
    print(f"fuzz: {rounds} rounds, about {examples} mutants in {seconds:g} s, {found} failure(s)"
          + (f", saved to {REGRESSIONS.name}" if found else ""), file=sys.stderr)
    return 1 if found else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    return fuzz(args.seconds)


if __name__ == "__main__":
    sys.exit(main())
