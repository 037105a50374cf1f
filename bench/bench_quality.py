"""The Markdown view's quality on the field's PDF-to-Markdown benchmark (docs/quality.md).

    python bench/bench_quality.py [--out docs/quality.md | --out -]
    (or: make bench-quality; make bench runs it too)

Each DP-Bench page of ../shared/bench/dpbench/pdfs is converted by one cold command,
``siftpdf extract --markdown --no-cache PAGE.pdf`` (its wall time is the page's seconds), into a
temporary folder; the ``--- page 1 ---`` marker line is taken out, since the ground truth has no
page markers; then the benchmark's own scorer (score.py: reading order NID, tables TEDS,
headings MHS) scores the folder, and siftpdf's row is printed beside the published rows of
docling, marker, opendataloader, pymupdf4llm and pdftotext (peers.tsv). The result, the commands
that made it and the worst pages per metric are written to docs/quality.md.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DPBENCH = ROOT.parent / "shared" / "bench" / "dpbench"
OUT = ROOT / "docs" / "quality.md"
SIFTPDF = [sys.executable, "-m", "siftpdf"]
COMMAND = ["extract", "--markdown", "--no-cache"]
SCORER_NEEDS = ("rapidfuzz", "apted", "bs4", "lxml")
WORST = 5
_MARKER = re.compile(r"\A--- page 1 ---\n\n?")
METRICS = ("overall", "overall_per_doc", "nid", "teds", "mhs")


def convert(pdfs: list[Path], into: Path) -> tuple[list[float], list[str], list[float]]:
    """Each PDF to ``into/<id>.md`` by one cold command; its wall seconds, the pages that
    failed (written empty, so they score as empty pages), and the wall seconds of a bare
    ``python -c pass`` timed before each page (the same machine at the same moment: the
    yardstick for the start-up figure)."""
    seconds, failed, bare = [], [], []
    env = {**os.environ, "NO_COLOR": "1"}
    for pdf in pdfs:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
        bare.append(time.perf_counter() - started)
        started = time.perf_counter()
        done = subprocess.run([*SIFTPDF, *COMMAND, str(pdf)], capture_output=True, env=env, timeout=300)
        seconds.append(time.perf_counter() - started)
        markdown = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
        if done.returncode != 0:
            failed.append(f"{pdf.stem} (exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[:80]})")
        (into / f"{pdf.stem}.md").write_text(_MARKER.sub("", markdown), encoding="utf-8")
    return seconds, failed, bare


def cold_line(seconds: list[float], bare: list[float]) -> str:
    """The cold single-page figure beside ``python -c pass`` measured in the same run."""
    mean, median, python = statistics.mean(seconds), statistics.median(seconds), statistics.median(bare)
    return (f"cold single page: mean {mean:.3f} s, median {median:.3f} s; `python -c pass` median "
            f"{python:.3f} s in the same run (the page costs {median / python:.1f}x a bare interpreter)")


def score(predictions: Path, scores: Path) -> str:
    """The benchmark's scorer over the folder; its printed summary."""
    done = subprocess.run([sys.executable, str(DPBENCH / "score.py"), str(DPBENCH / "gt"), str(predictions),
                           "--worst", str(WORST), "--json", str(scores)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_quality: score.py failed: {done.stderr.strip()}")
    return done.stdout.strip()


def peers() -> list[dict[str, str]]:
    lines = (DPBENCH / "peers.tsv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=False)) for line in lines[1:] if line.strip()]


def _cell(value: Any) -> str:
    return "—" if value is None or value == "" else f"{float(value):.4f}"


def table(summary: dict[str, Any], per_page: float, rows: list[dict[str, str]]) -> list[str]:
    """The Markdown table: siftpdf first, then the published rows."""
    out = ["| engine | overall | per-doc | NID | TEDS | MHS | s/page | notes |",
           "|---|---|---|---|---|---|---|---|"]
    values = " | ".join(_cell(summary.get(k)) for k in METRICS)
    out.append(f"| **siftpdf** | {values} | {per_page:.2f} | rule-based, no ML (measured here) |")
    for row in rows:
        values = " | ".join(_cell(row.get(k)) for k in ("overall", "per_doc", "nid", "teds", "mhs"))
        out.append(f"| {row['engine']} | {values} | — | {row.get('notes', '')} |")
    return out


def worst_pages(documents: list[dict[str, Any]]) -> list[str]:
    out = []
    for metric in ("nid", "teds", "mhs"):
        scored = sorted((d for d in documents if d.get(metric) is not None), key=lambda d: d[metric])[:WORST]
        listed = ", ".join(f"`{d['id']}` {d[metric]:.3f}" for d in scored)
        out.append(f"- {metric.upper()}: {listed}")
    return out


def report(summary: dict[str, Any], documents: list[dict[str, Any]], seconds: list[float], failed: list[str],
           scorer_line: str, bare: list[float]) -> str:
    per_page = sum(seconds) / len(seconds)
    lines = [
        "# Markdown quality: siftpdf on DP-Bench",
        "",
        _wrap("Made by `make bench-quality` (`bench/bench_quality.py`, also part of `make bench`). Each of the "
        f"{len(seconds)} single-page PDFs of `../shared/bench/dpbench/pdfs` (the development half of "
        "DP-Bench) was converted by one cold command, `siftpdf extract --markdown --no-cache <id>.pdf`; "
        "s/page is that command's whole wall time (start-up, the extraction child, organization, "
        "rendering), one page at a time, on a 2-core Linux machine shared with other work. The "
        "`--- page 1 ---` marker line was taken out before scoring, since the ground truth has no page "
        "markers. The scores are the benchmark's own (`../shared/bench/dpbench/score.py`: reading order "
        "NID, tables TEDS, headings MHS, each in [0, 1], higher is better); the other rows are the "
        "published outputs of each engine on the same pages, scored by the same script (`peers.tsv`)."),
        "",
        *table(summary, per_page, peers()),
        "",
        _wrap(f"TEDS counts the {summary.get('teds_count', '?')} pages whose ground truth has a table, MHS "
              f"the {summary.get('mhs_count', '?')} pages with a heading; a page without a prediction there "
              f"scores 0. Seconds per page: mean {per_page:.2f}, median {statistics.median(seconds):.2f}, "
              f"max {max(seconds):.2f}."),
        "",
        _wrap(cold_line(seconds, bare) + "."),
        "",
        *([_wrap(f"Pages whose command failed (scored as empty): {', '.join(failed)}."), ""] if failed else []),
        "The scorer said:",
        "",
        "```",
        scorer_line,
        "```",
        "",
        f"## The {WORST} worst pages per metric",
        "",
        *worst_pages(documents),
        "",
        "Commands, from the repository root:",
        "",
        "```sh",
        "make bench-quality        # = .venv/bin/python bench/run.py quality",
        "# by hand, one page: .venv/bin/siftpdf extract --markdown --no-cache ../shared/bench/dpbench/pdfs/<id>.pdf",
        "# then: python ../shared/bench/dpbench/score.py ../shared/bench/dpbench/gt OUT --worst 5 --json scores.json",
        "```",
        "",
    ]
    return "\n".join(lines)


def _wrap(paragraph: str) -> str:
    return textwrap.fill(paragraph, width=100, break_long_words=False, break_on_hyphens=False)


def _missing() -> list[str]:
    import importlib.util

    return [name for name in SCORER_NEEDS if importlib.util.find_spec(name) is None]


def run(out: Path | None = OUT) -> None:
    if not (DPBENCH / "score.py").is_file():
        print(f"bench_quality: {DPBENCH} is absent; skipped")
        return
    missing = _missing()
    if missing:
        print(f"bench_quality: the scorer needs {', '.join(missing)} (pip install -e '.[dev]'); skipped")
        return
    pdfs = sorted((DPBENCH / "pdfs").glob("*.pdf"))
    # Bytecode as an installed package has it (pip compiles at install): with
    # PYTHONDONTWRITEBYTECODE set, an editable checkout would compile its changed modules anew
    # in every cold command, a cost no user pays.
    compileall.compile_dir(str(ROOT / "siftpdf"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="siftpdf-quality-") as tmp:
        folder = Path(tmp) / "md"
        folder.mkdir()
        seconds, failed, bare = convert(pdfs, folder)
        scorer_line = score(folder, Path(tmp) / "scores.json")
        result = json.loads((Path(tmp) / "scores.json").read_text())
    summary, documents = result["summary"], result["documents"]
    per_page = sum(seconds) / len(seconds)
    print(f"DP-Bench dev split: {len(pdfs)} pages, each `siftpdf {' '.join(COMMAND)}` cold; the "
          "'--- page 1 ---' marker line is removed before scoring (the ground truth has none)")
    print(scorer_line)
    print(f"{'engine':<16}{'overall':>9}{'per-doc':>9}{'nid':>9}{'teds':>9}{'mhs':>9}{'s/page':>9}")
    print(f"{'siftpdf':<16}" + "".join(f"{_cell(summary.get(k)):>9}" for k in METRICS) + f"{per_page:>9.2f}")
    for row in peers():
        print(f"{row['engine']:<16}" + "".join(f"{_cell(row.get(k)):>9}"
                                               for k in ("overall", "per_doc", "nid", "teds", "mhs")) + f"{'—':>9}")
    print(cold_line(seconds, bare))
    if failed:
        print(f"failed ({len(failed)}): {'; '.join(failed)}")
    if out is not None:
        out.write_text(report(summary, documents, seconds, failed, scorer_line, bare), encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(OUT), help="where to write the report ('-': nowhere)")
    args = parser.parse_args()
    run(None if args.out == "-" else Path(args.out).resolve())
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
