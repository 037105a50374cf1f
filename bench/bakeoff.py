"""The engine bake-off: PDFium, pypdf and pdfplumber against ``pdftotext -layout``, plus
robustness on byte-level mutants, with siftpdf itself (real parent and child) on the same mutants.

    python bench/bakeoff.py                      # the full run: 70 files, 200 mutants
    python bench/bakeoff.py --files 10 --mutants 20 --out -   # a quick look

Selection (reproducible, seed 6): corpus files listed in INDEX.tsv with 2-40 pages, not
encrypted, outside the ``hostile`` and ``parser-samples`` categories, whose pdftotext output has
at least 100 words; shuffled with the seed and taken round-robin across categories. Mutants come
from the ten smallest selected files (20 each), one mutation kind per round (bit flips,
truncation, deleted chunk, duplicated chunk, corrupted keyword), every fifth stacked with a second.

Every engine run is its own process (bench/engine_worker.py) with a wall-clock timeout; peak
memory is that process's maximum RSS as GNU time reports it (for siftpdf, the largest of the
parent and its extraction children).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = HERE / ".data"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))  # bench.common, when run as a script

import mutate  # noqa: E402

ENGINES = ("pdfium", "pypdf", "pdfplumber")
SIFT = ("siftpdf", "siftpdf-norepair")
SKIP_CATEGORIES = {"hostile", "parser-samples"}
MAX_PAGES = 40

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")


def words(text: str) -> list[str]:
    """Words for scoring: case-folded runs of letters/digits; each CJK character is a word."""
    return _WORD.findall(text.casefold())


def overlap(ref: list[Any], hyp: list[Any]) -> int:
    return sum((Counter(ref) & Counter(hyp)).values())


def score(ref: list[str], hyp: list[str]) -> tuple[float, float, float]:
    """Recall and precision of the word multisets, and the share of the reference's adjacent
    word pairs found in the hypothesis (word order)."""
    common = overlap(ref, hyp)
    recall = common / len(ref) if ref else 1.0
    precision = common / len(hyp) if hyp else (1.0 if not ref else 0.0)
    ref_pairs, hyp_pairs = list(zip(ref, ref[1:], strict=False)), list(zip(hyp, hyp[1:], strict=False))
    order = overlap(ref_pairs, hyp_pairs) / len(ref_pairs) if ref_pairs else 1.0
    return recall, precision, order


@dataclass
class Run:
    outcome: str  # ok | empty | typed | crash | hang
    seconds: float = 0.0
    wall: float = 0.0
    peak_mib: float = 0.0
    text: str = ""
    error: str = ""
    info: dict[str, Any] = field(default_factory=dict)


GNU_TIME = "/usr/bin/time" if Path("/usr/bin/time").exists() else None


def run_process(argv: list[str], timeout: float) -> tuple[int | None, bytes, float, float]:
    """Run argv; returns (exit status or None on timeout, stdout, wall seconds, peak MiB).

    Peak memory comes from GNU time's %M when it is installed: a process forked by this (large)
    Python process would otherwise inherit this process's high-water mark into its ru_maxrss.
    """
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile(suffix=".mem") as mem:
        if GNU_TIME:
            argv = [GNU_TIME, "-q", "-f", "%M", "-o", mem.name, *argv]
        started = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        status: int | None = None
        while True:
            pid, raw, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(raw)
                break
            if time.monotonic() - started > timeout:
                os.killpg(proc.pid, signal.SIGKILL)
                _, _, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        proc.returncode = status if status is not None else -9  # already reaped by wait4
        wall = time.monotonic() - started
        peak = usage.ru_maxrss / 1024
        if GNU_TIME:
            lines = Path(mem.name).read_text().split()
            peak = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else float("nan")
        out.seek(0)
        return status, out.read(), wall, peak


def run_engine(engine: str, path: Path, timeout: float) -> Run:
    argv = [sys.executable, str(HERE / "engine_worker.py"), engine, str(path), "--max-pages", str(MAX_PAGES),
            "--deadline", str(max(1.0, timeout - 10))]
    status, out, wall, peak = run_process(argv, timeout)
    if status is None:
        return Run("hang", wall=wall, peak_mib=peak)
    try:
        result = json.loads(out)
    except ValueError:
        return Run("crash", wall=wall, peak_mib=peak, error=f"exit {status}")
    if result["status"] != "ok":
        return Run("typed", result["seconds"], wall, peak, error=result["error"])
    outcome = "ok" if words(result["text"]) else "empty"
    return Run(outcome, result["seconds"], wall, peak, result["text"],
               info={k: result[k] for k in ("pages", "failed_pages", "engines") if k in result})


def pdftotext(path: Path, timeout: float) -> Run:
    with tempfile.NamedTemporaryFile(suffix=".txt") as out:
        argv = ["pdftotext", "-q", "-layout", "-enc", "UTF-8", "-l", str(MAX_PAGES), str(path), out.name]
        status, _, wall, peak = run_process(argv, timeout)
        if status is None:
            return Run("hang", wall=wall, peak_mib=peak)
        text = Path(out.name).read_text("utf-8", "replace")
    return Run("ok" if status == 0 and words(text) else "typed", wall, wall, peak, text)


def select(limit: int, seed: int, timeout: float) -> list[tuple[Path, str, Run]]:
    rows = list(csv.DictReader((CORPUS / "INDEX.tsv").open(encoding="utf-8"), delimiter="\t"))
    eligible = [r for r in rows if r["pages"].isdigit() and 2 <= int(r["pages"]) <= MAX_PAGES
                and r["category"] not in SKIP_CATEGORIES and "encrypted=yes" not in r["notes"]]
    rng = random.Random(seed)
    rng.shuffle(eligible)
    by_category: dict[str, list[dict[str, str]]] = {}
    for row in eligible:
        by_category.setdefault(row["category"], []).append(row)
    ordered = []
    while any(by_category.values()):
        for category in sorted(by_category):
            if by_category[category]:
                ordered.append(by_category[category].pop(0))
    chosen = []
    for row in ordered:
        if len(chosen) >= limit:
            break
        path = CORPUS / row["file"]
        ref = pdftotext(path, timeout)
        if ref.outcome == "ok" and len(words(ref.text)) >= 100:
            chosen.append((path, row["category"], ref))
    return chosen


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def quality_table(chosen: list[tuple[Path, str, Run]], timeout: float, log: Any) -> tuple[list[dict[str, Any]], dict]:
    """Per engine: mean recall/precision/order over the files (a failed file scores 0)."""
    scored = ENGINES + ("siftpdf",)
    scores: dict[str, list[tuple[float, float, float]]] = {e: [] for e in scored}
    times: dict[str, list[float]] = {e: [] for e in scored + ("pdftotext",)}
    peaks: dict[str, list[float]] = {e: [] for e in scored + ("pdftotext",)}
    failures: Counter[str] = Counter()
    originals: dict[str, dict[Path, str]] = {e: {} for e in scored}
    for n, (path, _category, ref) in enumerate(chosen, 1):
        times["pdftotext"].append(ref.seconds)
        peaks["pdftotext"].append(ref.peak_mib)
        ref_words = words(ref.text)
        for engine in scored:
            run = run_engine(engine, path, timeout)
            peaks[engine].append(run.peak_mib)
            if run.outcome in ("ok", "empty"):
                times[engine].append(run.seconds)
                scores[engine].append(score(ref_words, words(run.text)))
                originals[engine][path] = run.text
            else:
                failures[engine] += 1
                scores[engine].append((0.0, 0.0, 0.0))
        print(f"[quality {n}/{len(chosen)}] {path.name}", file=log, flush=True)
    base = median(times["pdftotext"])
    table = []
    for engine in scored + ("pdftotext",):
        row: dict[str, Any] = {"engine": engine, "median_ms": round(median(times[engine]) * 1000),
                               "vs_pdftotext": round(median(times[engine]) / base, 1),
                               "median_mib": round(median(peaks[engine])), "max_mib": round(max(peaks[engine]))}
        if engine in scores:
            for i, key in enumerate(("recall", "precision", "order")):
                row[key] = round(statistics.fmean(s[i] for s in scores[engine]), 3)
            row["failed_files"] = failures[engine]
        table.append(row)
    return table, originals


def robustness(seeds: list[Path], count: int, seed: int, timeout: float, log: Any) -> dict[str, Any]:
    """Outcomes of every engine and of siftpdf on ``count`` mutants of ``seeds``."""
    seed_data = [(p.name, p.read_bytes()) for p in seeds]
    made = mutate.mutants(seed_data, count, seed)
    originals: dict[str, dict[str, list[str]]] = {}
    for engine in ENGINES + SIFT:
        originals[engine] = {}
        for path in seeds:
            run = run_engine(engine, path, timeout)
            originals[engine][path.name] = words(run.text)
    outdir = DATA / "mutants"
    outdir.mkdir(parents=True, exist_ok=True)
    outcomes: dict[str, Counter[str]] = {e: Counter() for e in ENGINES + SIFT}
    salvage: dict[str, list[float]] = {e: [] for e in ENGINES + SIFT}
    ok_sets: dict[str, set[int]] = {e: set() for e in ENGINES + SIFT}
    engines_used: Counter[str] = Counter()
    details = []
    for i, (name, recipes, data) in enumerate(made):
        path = outdir / f"m{i:03d}.pdf"
        path.write_bytes(data)
        row: dict[str, Any] = {"mutant": i, "seed": name, "recipes": recipes}
        for engine in ENGINES + SIFT:
            run = run_engine(engine, path, timeout)
            outcomes[engine][run.outcome] += 1
            if run.outcome == "ok":
                ok_sets[engine].add(i)
            ref = originals[engine][name]
            got = words(run.text) if run.outcome == "ok" else []
            salvage[engine].append(overlap(ref, got) / len(ref) if ref else 0.0)
            if engine == "siftpdf":
                engines_used.update(run.info.get("engines", {}))
            row[engine] = run.outcome if run.outcome != "typed" else f"typed: {run.error[:80]}"
        details.append(row)
        print(f"[mutant {i + 1}/{len(made)}] " + " ".join(f"{e}={row[e][:5]}" for e in ENGINES + SIFT),
              file=log, flush=True)
    union = set().union(*(ok_sets[e] for e in ENGINES))
    return {
        "outcomes": {e: dict(outcomes[e]) for e in outcomes},
        "salvage": {e: round(statistics.fmean(salvage[e]), 3) for e in salvage},
        "union_ok": len(union),
        "union_not_siftpdf": sorted(union - ok_sets["siftpdf"]),
        "repair_only": sorted(ok_sets["siftpdf"] - ok_sets["siftpdf-norepair"]),
        "siftpdf_pages_by_engine": dict(engines_used),
        "details": details,
    }


def broken_corpus(timeout: float, log: Any) -> dict[str, Any]:
    """Outcomes over the corpus's own broken and hostile files (categories hostile, parser-samples),
    encrypted files left out (they are a separate, typed outcome)."""
    rows = list(csv.DictReader((CORPUS / "INDEX.tsv").open(encoding="utf-8"), delimiter="\t"))
    files = [CORPUS / r["file"] for r in rows if r["category"] in SKIP_CATEGORIES and "encrypted=yes" not in r["notes"]]
    outcomes: dict[str, Counter[str]] = {e: Counter() for e in ENGINES + SIFT}
    ok_sets: dict[str, set[str]] = {e: set() for e in ENGINES + SIFT}
    for n, path in enumerate(files, 1):
        for engine in ENGINES + SIFT:
            run = run_engine(engine, path, timeout)
            outcomes[engine][run.outcome] += 1
            if run.outcome == "ok":
                ok_sets[engine].add(path.name)
        print(f"[broken {n}/{len(files)}] {path.name}", file=log, flush=True)
    union = set().union(*(ok_sets[e] for e in ENGINES))
    return {"files": len(files), "outcomes": {e: dict(c) for e, c in outcomes.items()}, "union_ok": len(union),
            "union_not_siftpdf": sorted(union - ok_sets["siftpdf"])}


def render(args: argparse.Namespace, chosen: list[tuple[Path, str, Run]], quality: list[dict[str, Any]],
           robust: dict[str, Any], broken: dict[str, Any] | None, seeds: list[Path], elapsed: float) -> str:
    out = ["# Engine bake-off", "",
           f"Made by `{args.command}` ({len(chosen)} files, {args.mutants} mutants, seed {args.seed}, "
           f"{elapsed / 60:.0f} min on 2 shared cores). Re-run it to refresh this file.", "",
           "## Text quality and cost", "",
           f"Reference: `pdftotext -layout`, first {MAX_PAGES} pages. Words are case-folded runs of letters and",
           "digits (each CJK character is a word), compared as multisets; word order is the share of the",
           "reference's adjacent word pairs found in the engine's text. Means over the files; a file the",
           "engine could not open scores 0. Time is open + extract inside the worker process (no interpreter",
           "start-up); memory is the worker's peak RSS (GNU time), interpreter and imports included. The siftpdf",
           "row is the whole product: parent plus extraction child (PDFium with its salvage chain), child",
           "start-up included; its memory is the larger of the two processes.", "",
           "| engine | recall | precision | word order | failed files | median ms | × pdftotext | median / max MiB |",
           "|---|---|---|---|---|---|---|---|"]
    for row in quality:
        if row["engine"] == "pdftotext":
            out.append(f"| pdftotext -layout (reference) | | | | | {row['median_ms']} | 1.0 | "
                       f"{row['median_mib']} / {row['max_mib']} |")
        else:
            out.append(f"| {row['engine']} | {row['recall']:.3f} | {row['precision']:.3f} | {row['order']:.3f} | "
                       f"{row['failed_files']} | {row['median_ms']} | {row['vs_pdftotext']} | "
                       f"{row['median_mib']} / {row['max_mib']} |")
    kinds = ("ok", "empty", "typed", "crash", "hang")
    out += ["", "## Robustness: byte-level mutants", "",
            f"{args.mutants} mutants of {len(seeds)} seed files, the smallest selected ones: "
            + ", ".join(f"`{p.relative_to(CORPUS)}`" for p in seeds) + ".",
            "ok: returned text; empty: returned no words; typed: a Python exception or siftpdf's typed",
            "error (unreadable, timeout, ...); crash: the process died (signal, uncaught error); hang: killed",
            f"after {args.timeout:g} s. Salvage: mean share of the engine's own words from the unmutated file",
            "that it recovers from the mutant (0 for a failure). siftpdf runs the real parent and child",
            f"(deadline {max(1.0, args.timeout - 10):g} s); `siftpdf-norepair` is the same without the qpdf",
            "repair pass (PDFium, pypdf, pdfminer).", "",
            "| engine | " + " | ".join(kinds) + " | salvage |", "|---" * (len(kinds) + 2) + "|"]
    for engine in ENGINES + SIFT:
        counts = robust["outcomes"][engine]
        out.append(f"| {engine} | " + " | ".join(str(counts.get(k, 0)) for k in kinds)
                   + f" | {robust['salvage'][engine]:.3f} |")
    out += ["", f"Union of the single engines' ok: **{robust['union_ok']}**; siftpdf ok: "
            f"**{robust['outcomes']['siftpdf'].get('ok', 0)}**. Mutants some single engine read and siftpdf did not: "
            f"{robust['union_not_siftpdf'] or 'none'}. Mutants only the repair pass saved: "
            f"{len(robust['repair_only'])}{' ' + str(robust['repair_only']) if robust['repair_only'] else ''}.",
            f"Pages siftpdf took from each engine over all mutants: {robust['siftpdf_pages_by_engine']}.", ""]
    if broken:
        out += ["## Robustness: the corpus's broken and hostile files", "",
                f"{broken['files']} files of the corpus categories `hostile` and `parser-samples` (encrypted ones",
                "left out), same outcome classes as above.", "",
                "| engine | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
        for engine in ENGINES + SIFT:
            counts = broken["outcomes"][engine]
            out.append(f"| {engine} | " + " | ".join(str(counts.get(k, 0)) for k in kinds) + " |")
        out += ["", f"Union of the single engines' ok: **{broken['union_ok']}**; siftpdf ok: "
                f"**{broken['outcomes']['siftpdf'].get('ok', 0)}**; read by some engine, not by siftpdf: "
                f"{broken['union_not_siftpdf'] or 'none'}.", ""]
    out += ["## Files", ""]
    out += [f"- {category}: `{path.relative_to(CORPUS)}`" for path, category, _ in chosen]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=70, help="corpus files for the quality table")
    parser.add_argument("--mutants", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=10, help="seed files the mutants come from")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--timeout", type=float, default=30.0, help="per engine run, seconds")
    parser.add_argument("--no-broken", action="store_true", help="skip the corpus's broken/hostile files")
    parser.add_argument("--out", default=str(ROOT / "docs" / "bakeoff.md"), help="markdown file, - for stdout")
    args = parser.parse_args()
    args.command = "python bench/bakeoff.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    args.command = args.command.strip()
    if not CORPUS.is_dir():
        print(f"bakeoff: corpus not found at {CORPUS}", file=sys.stderr)
        return 1
    started = time.monotonic()
    log = sys.stderr
    chosen = select(args.files, args.seed, args.timeout)
    quality, _ = quality_table(chosen, args.timeout, log)
    seeds = [p for p, _, _ in sorted(chosen, key=lambda c: c[0].stat().st_size)[: args.seeds]]
    robust = robustness(seeds, args.mutants, args.seed, args.timeout, log)
    broken = None if args.no_broken else broken_corpus(args.timeout, log)
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "bakeoff.json").write_text(json.dumps({"quality": quality, "robustness": robust, "broken": broken},
                                                  indent=1, default=str))
    text = render(args, chosen, quality, robust, broken, seeds, time.monotonic() - started)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        from bench.common import write_keeping_others

        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        write_keeping_others(Path(args.out), text)  # the hostile-input and OCR sections stay
        print(f"bakeoff: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
