"""Code identifiers that pdfgrep finds and siftpdf does not: a yardstick for word breaks.

    python bench/bench_identifiers.py [PDF or folder ...] [--sample N] [--missing K]

A word with an inner underscore (``e_ident``, ``EI_NIDENT``, ``Elf32_Half``) is one that a
reader greps for whole; letter-spaced text (monospaced code, titles set with character
spacing) comes apart into one letter a word when word breaks are read wrongly. For each PDF
(default: a fixed sample of the corpus in ../shared/corpus) the identifiers
``[A-Za-z0-9]+_[A-Za-z0-9_]+`` that ``pdfgrep -o`` finds (poppler's words; pdftotext when pdfgrep
is missing) are looked for in what ``siftpdf grep -o`` matches (grep searches the organized page, running
heads included) and in ``siftpdf extract --raw``: one line per document with a miss, then the
totals, found/total side by side. An identifier counts as found when some match or line holds
it (what ``siftpdf grep IDENT`` would select: every place it occurs lies inside a match).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# shared/corpus beside the checkout, or beside a folder above it (a worktree's)
CORPUS = next((up / "shared" / "corpus" for up in ROOT.parents if (up / "shared" / "corpus").is_dir()),
              ROOT.parent / "shared" / "corpus")
IDENTIFIER = r"[A-Za-z0-9]+_[A-Za-z0-9_]+"
_IDENTIFIER = re.compile(IDENTIFIER)
_PAGE_PREFIX = re.compile(r"^p\. \d+: ", re.MULTILINE)
_PAGE_MARKER = re.compile(r"^--- page \d+ ---$", re.MULTILINE)
BIG = "1000000000"
TIMEOUT = 300  # seconds a tool may take over one PDF before it is left out
# The corpus's folders sampled by default, and how many files of each (in name order, every
# k-th so the sample spreads over the folder): papers, books and long manuals hold code.
SAMPLE = {"long": 12, "paper": 16, "samples": 6, "parser-samples": 6, "forms-tables": 4, "cjk": 4}


def poppler_identifiers(pdf: Path) -> set[str]:
    """The identifiers poppler reads: ``pdfgrep -o`` (or pdftotext's text)."""
    if shutil.which("pdfgrep"):
        done = subprocess.run(["pdfgrep", "-o", IDENTIFIER, str(pdf)], capture_output=True, timeout=TIMEOUT)
        return set(done.stdout.decode("utf-8", "replace").split())
    done = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, timeout=TIMEOUT)
    return set(_IDENTIFIER.findall(done.stdout.decode("utf-8", "replace")))


def siftpdf_lines(pdf: Path, siftpdf: list[str]) -> tuple[str, str]:
    """The identifiers ``siftpdf grep -o`` matches (one a line) and the text of ``siftpdf extract
    --raw``. (grep's lines are not taken whole: a long one is shown as a window around its match.)"""
    env = {**os.environ, "NO_COLOR": "1", "SIFTPDF_OCR": "never"}  # the text layer, as pdfgrep reads it
    grep = subprocess.run([*siftpdf, "grep", "--no-cache", "-o", "-h", "-m", BIG, "--cap", BIG, IDENTIFIER, str(pdf)],
                          capture_output=True, env=env, timeout=TIMEOUT)
    raw = subprocess.run([*siftpdf, "extract", "--raw", "--text", "--no-cache", str(pdf)],
                         capture_output=True, env=env, timeout=TIMEOUT)
    organized = _PAGE_PREFIX.sub("", grep.stdout.decode("utf-8", "replace"))
    return organized, _PAGE_MARKER.sub("", raw.stdout.decode("utf-8", "replace"))


def measure(pdf: Path, siftpdf: list[str]) -> tuple[Path, set[str], set[str], set[str]] | None:
    """(pdf, poppler's identifiers, those missing from grep's lines, those missing from --raw);
    None when either tool took too long (a hostile file)."""
    try:
        wanted = poppler_identifiers(pdf)
        if not wanted:
            return pdf, wanted, set(), set()
        organized, raw = siftpdf_lines(pdf, siftpdf)
    except subprocess.TimeoutExpired:
        return None
    return pdf, wanted, {w for w in wanted if w not in organized}, {w for w in wanted if w not in raw}


def sample() -> list[Path]:
    """A fixed spread of the corpus: every k-th file of each folder of :data:`SAMPLE`."""
    chosen: list[Path] = []
    for folder, count in SAMPLE.items():
        files = sorted((CORPUS / folder).glob("*.pdf"))
        step = max(1, len(files) // count)
        chosen += files[::step][:count]
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path, help="PDFs or folders (default: a corpus sample)")
    parser.add_argument("--missing", type=int, default=5, help="missed identifiers shown per document")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    siftpdf = [sys.executable, "-m", "siftpdf"]
    pdfs: list[Path] = []
    for given in args.pdfs or sample():
        pdfs += sorted(given.rglob("*.pdf")) if given.is_dir() else [given]
    total = grep_found = raw_found = 0
    left_out: list[str] = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for pdf, found in zip(pdfs, pool.map(lambda p: measure(p, siftpdf), pdfs), strict=True):
            if found is None:
                left_out.append(pdf.name)
                continue
            _, wanted, grep_missing, raw_missing = found
            total += len(wanted)
            grep_found += len(wanted) - len(grep_missing)
            raw_found += len(wanted) - len(raw_missing)
            if grep_missing or raw_missing:
                shown = " ".join(sorted(grep_missing | raw_missing)[:args.missing])
                print(f"{pdf.parent.name}/{pdf.name}: pdfgrep {len(wanted)}, grep {len(wanted) - len(grep_missing)}, "
                      f"raw {len(wanted) - len(raw_missing)}; missing e.g. {shown}")
    if left_out:
        print(f"left out (a tool took over {TIMEOUT} s): {', '.join(left_out)}")
    print(f"identifiers in {len(pdfs) - len(left_out)} PDFs: pdfgrep {total}, siftpdf grep {grep_found}/{total}, "
          f"--raw {raw_found}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
