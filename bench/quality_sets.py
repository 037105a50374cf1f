"""The article layer's yardsticks, each split in two halves, converted and scored.

    python bench/quality_sets.py [dpbench icdar2013 readingorder] [--half a|b] [--keep DIR]

Each benchmark of ../shared/bench is the development half of a set whose other half is kept
apart. It is split here once more, by a fixed hash of each document's id, into halves ``a`` and
``b``: a rule is written against one (most against ``a``) and kept only when the other agrees and
no benchmark drops. Every PDF is converted by one cold ``siftpdf extract --markdown --no-cache`` (two at a
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
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _bench_folder() -> Path:
    """The benchmarks: $SIFTPDF_BENCH, else ../shared/bench beside this checkout, or beside the
    main checkout when this one is a git worktree (its .git is a file naming the main one's)."""
    if os.environ.get("SIFTPDF_BENCH"):
        return Path(os.environ["SIFTPDF_BENCH"])
    beside = ROOT.parent / "shared" / "bench"
    git = ROOT / ".git"
    if not beside.is_dir() and git.is_file() and git.read_text().startswith("gitdir:"):
        main_git = Path(git.read_text().split(":", 1)[1].strip()).parent.parent
        return main_git.parent.parent / "shared" / "bench"
    return beside


BENCH = _bench_folder()
SETS = ("dpbench", "icdar2013", "readingorder")
HALVES = ("a", "b")
# siftpdf's exit status when the machine's PDF workers are all busy (EX_TEMPFAIL: other commands
# run beside the benchmark), how long its hint says to wait, and how often to try again; the
# document's seconds are those of the attempt that ran.
BUSY_EXIT, BUSY_PAUSE, BUSY_TRIES = 75, 10.0, 6
_MARKER = re.compile(r"^--- page \d+ ---\n\n?", re.MULTILINE)
# pdf-inspector's Markdown read this way (its wheel has no command): the whole document's, or
# nothing for the pages it sends to OCR instead (it judges their text layer unreliable).
_PDF_INSPECTOR = ("import sys, pdf_inspector; markdown = pdf_inspector.process_pdf(sys.argv[1]).markdown or ''; "
                  "sys.stdout.buffer.write(markdown.encode('utf-8', 'replace'))")


@dataclass(frozen=True)
class Engine:
    """A converter of PDFs to Markdown: its cold command for one PDF (the file's path goes last),
    the page separator it writes (``None``: none) and what takes its place (the ground truth has
    no page separators), the module it needs (``None``: siftpdf itself), and how it was run."""

    name: str
    command: tuple[str, ...]
    separator: re.Pattern[str] | None
    joiner: str
    module: str | None
    how: str

    def strip(self, markdown: str) -> str:
        """The Markdown with this engine's page separators taken out, the text around kept."""
        return self.separator.sub(self.joiner, markdown) if self.separator else markdown


ENGINES = {engine.name: engine for engine in (
    # The text layer only (--ocr never), as the peers read it here: the default, auto once the
    # ocr extra is installed, would also read the images of text a few pages carry.
    Engine("siftpdf", (sys.executable, "-m", "siftpdf", "extract", "--markdown", "--no-cache", "--ocr", "never"),
           _MARKER, "", None,
           "`siftpdf extract --markdown --no-cache --ocr never FILE`; its `--- page N ---` lines taken out"),
    Engine("pdf-inspector", (sys.executable, "-c", _PDF_INSPECTOR), None, "", "pdf_inspector",
           "`pdf_inspector.process_pdf(FILE).markdown` (its Python module: the wheel has no command); "
           "it writes no page separators"),
    # Its `lit` command (the module it runs) with its defaults but OCR: off, the text layer only,
    # as siftpdf reads it here. Its pages are joined by a line of five dashes.
    Engine("liteparse", (sys.executable, "-m", "liteparse.cli", "parse", "--format", "markdown", "--no-ocr", "-q"),
           re.compile(r"\n\n-----\n\n"), "\n\n", "liteparse",
           "`lit parse --format markdown --no-ocr -q FILE`, otherwise its defaults; the `-----` line "
           "it writes between pages taken out"),
)}
PEERS = ("pdf-inspector", "liteparse")


def _group(doc_id: str) -> str:
    """The subset a document belongs to (readingorder holds two), split on its own."""
    return "kyokcha" if doc_id.startswith("doc_") else "readoc" if doc_id.startswith(("arxiv-", "github-")) else ""


def halves_of(ids: list[str]) -> dict[str, str]:
    """Each id's half: the ids of a subset in the order of their SHA-1, taken in turns, so the
    halves are even and fixed by the ids alone."""
    out: dict[str, str] = {}
    for group in sorted({_group(i) for i in ids}):
        ranked = sorted((i for i in ids if _group(i) == group), key=lambda i: hashlib.sha1(i.encode()).digest())
        out.update((doc_id, HALVES[rank % 2]) for rank, doc_id in enumerate(ranked))
    return out


def documents(name: str) -> list[Path]:
    return sorted((BENCH / name / "pdfs").glob("*.pdf"))


def convert(pdf: Path, into: Path, siftpdf: list[str]) -> str | None:
    """One PDF to ``into/<id>.md`` by ``siftpdf``'s command; the reason when it failed (the page
    then scores empty)."""
    base = ENGINES["siftpdf"]
    engine = Engine(base.name, (*siftpdf, *base.command[3:]), base.separator, base.joiner, None, base.how)
    return run_engine(engine, pdf, into)[0]


def run_engine(engine: Engine, pdf: Path, into: Path) -> tuple[str | None, float]:
    """One PDF to ``into/<id>.md`` by one cold command of ``engine``, its separators taken out:
    the reason when the command failed (the page then scores empty) and its wall seconds."""
    env = {**os.environ, "NO_COLOR": "1"}
    for attempt in range(BUSY_TRIES):
        if attempt:
            time.sleep(BUSY_PAUSE)
        started = time.perf_counter()
        try:
            done = subprocess.run([*engine.command, str(pdf)], capture_output=True, env=env, timeout=600)
        except subprocess.TimeoutExpired:
            (into / f"{pdf.stem}.md").write_text("", encoding="utf-8")
            return f"{pdf.stem}: timed out", time.perf_counter() - started
        seconds = time.perf_counter() - started
        if done.returncode != BUSY_EXIT or engine.name != "siftpdf":
            break
    markdown = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    (into / f"{pdf.stem}.md").write_text(engine.strip(markdown), encoding="utf-8")
    if done.returncode != 0:
        return f"{pdf.stem}: exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[:120]}", seconds
    return None, seconds


def convert_all(pdfs: list[Path], into: Path, siftpdf: list[str], jobs: int = 2) -> list[str]:
    with ThreadPoolExecutor(jobs) as pool:
        return [failed for failed in pool.map(lambda pdf: convert(pdf, into, siftpdf), pdfs) if failed]


def score(name: str, predictions: Path, ids: list[str] | None = None, gt: Path | None = None) -> dict[str, Any]:
    """The set's own scorer over ``predictions`` (only ``ids`` when given) against its ground
    truth, or ``gt``'s: its printed lines and its JSON summary (for readingorder, one summary per
    subset, keyed by the line's name)."""
    folder = BENCH / name
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, str(folder / "score.py"), str(gt or folder / "gt"), str(predictions),
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
