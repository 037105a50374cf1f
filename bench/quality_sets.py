"""The article layer's yardsticks, each split in two halves, converted and scored.

    python bench/quality_sets.py [dpbench icdar2013 readingorder] [--half a|b] [--keep DIR]

Each benchmark of ../shared/bench is the development half of a set whose other half is kept
apart. It is split here once more, by a fixed hash of each document's id, into half ``a`` (rules
are written against it) and half ``b`` (a rule is kept only when ``b`` agrees and no benchmark
drops). Every PDF is converted by one cold ``siftpdf extract --markdown --no-cache`` (two at a
time), its page markers are taken out, and the benchmark's own scorer scores each half and the
whole. Prints one line per half and set; ``--keep`` leaves the Markdown in DIR for a look.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BENCH = ROOT.parent / "shared" / "bench"
SETS = ("dpbench", "icdar2013", "readingorder")
HALVES = ("a", "b")
_MARKER = re.compile(r"^--- page \d+ ---\n\n?", re.MULTILINE)


def _group(doc_id: str) -> str:
    """The subset a document belongs to (readingorder holds two), split on its own."""
    return "kyokcha" if doc_id.startswith("doc_") else "readoc" if doc_id.startswith(("arxiv-", "github-")) else ""


def halves_of(ids: list[str]) -> dict[str, str]:
    """Each id's half: the ids of a subset in the order of their SHA-1, taken in turns, so the
    halves are even and fixed by the ids alone (rules are written against ``a``)."""
    out: dict[str, str] = {}
    for group in sorted({_group(i) for i in ids}):
        ranked = sorted((i for i in ids if _group(i) == group), key=lambda i: hashlib.sha1(i.encode()).digest())
        out.update((doc_id, HALVES[rank % 2]) for rank, doc_id in enumerate(ranked))
    return out


def documents(name: str) -> list[Path]:
    return sorted((BENCH / name / "pdfs").glob("*.pdf"))


def convert(pdf: Path, into: Path, siftpdf: list[str]) -> str | None:
    """One PDF to ``into/<id>.md``; the reason when the command failed (the page then scores empty)."""
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run([*siftpdf, "extract", "--markdown", "--no-cache", str(pdf)], capture_output=True,
                          env=env, timeout=600)
    markdown = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    (into / f"{pdf.stem}.md").write_text(_MARKER.sub("", markdown), encoding="utf-8")
    if done.returncode != 0:
        return f"{pdf.stem}: exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[:120]}"
    return None


def convert_all(pdfs: list[Path], into: Path, siftpdf: list[str], jobs: int = 2) -> list[str]:
    with ThreadPoolExecutor(jobs) as pool:
        return [failed for failed in pool.map(lambda pdf: convert(pdf, into, siftpdf), pdfs) if failed]


def score(name: str, predictions: Path, ids: list[str] | None = None) -> dict[str, Any]:
    """The set's own scorer over ``predictions`` (only ``ids`` when given): its printed lines and
    its JSON summary (for readingorder, one summary per subset, keyed by the line's name)."""
    folder = BENCH / name
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, str(folder / "score.py"), str(folder / "gt"), str(predictions),
                   "--json", str(Path(tmp) / "scores.json")]
        if ids is not None:
            (Path(tmp) / "ids.txt").write_text("\n".join(ids) + "\n", encoding="utf-8")
            command += ["--ids", str(Path(tmp) / "ids.txt")]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"quality_sets: {name}/score.py failed: {done.stderr.strip()}")
        data = json.loads((Path(tmp) / "scores.json").read_text(encoding="utf-8"))
    return {"lines": done.stdout.strip().splitlines(), "json": data}


def ids_of(pdfs: list[Path], half: str | None) -> list[str]:
    """The ids of a half; ICDAR's documents with two readings keep their one id (the scorer
    maps ``us-031`` to both ``us-031a`` and ``us-031b``)."""
    halves = halves_of([pdf.stem for pdf in pdfs])
    return [pdf.stem for pdf in pdfs if half is None or halves[pdf.stem] == half]


def run(names: list[str], halves: list[str | None], siftpdf: list[str], keep: Path | None) -> None:
    for name in names:
        pdfs = documents(name)
        with tempfile.TemporaryDirectory() as tmp:
            into = keep / name if keep else Path(tmp)
            into.mkdir(parents=True, exist_ok=True)
            chosen = {doc_id for half in halves for doc_id in ids_of(pdfs, half)}
            wanted = [pdf for pdf in pdfs if pdf.stem in chosen]
            for failed in convert_all(wanted, into, siftpdf):
                print(f"{name}: failed {failed}", file=sys.stderr)
            for half in halves:
                result = score(name, into, ids_of(pdfs, half))
                for line in result["lines"]:
                    if line.startswith("worst"):
                        continue
                    print(f"{name} {half or 'all'}: {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="*", metavar="SET", help=f"of {', '.join(SETS)} (default: all)")
    parser.add_argument("--half", choices=[*HALVES, "both", "all"], default="both",
                        help="which half to score: a, b, both (each, then the whole), all (the whole only)")
    parser.add_argument("--keep", type=Path, help="leave the Markdown in this folder")
    args = parser.parse_args(argv)
    if unknown := set(args.sets) - set(SETS):
        parser.error(f"no such set: {', '.join(sorted(unknown))}")
    halves: list[str | None] = {"a": ["a"], "b": ["b"], "all": [None]}.get(args.half, ["a", "b", None])
    run(args.sets or list(SETS), halves, [sys.executable, "-m", "siftpdf"], args.keep)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
