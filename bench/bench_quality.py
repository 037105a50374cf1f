"""The article's quality on three benchmarks, beside two rule-based peers run here (docs/quality.md).

    python bench/bench_quality.py [--sets dpbench,icdar2013,readingorder] [--peers pdf-inspector,liteparse]
                                  [--out docs/quality.md | --out -]
    (or: make bench-quality; make bench runs it too)

Every PDF of each benchmark in ../shared/bench (DP-Bench pages, ICDAR 2013 table documents, the
Kyokcha and READoc reading-order documents) is converted by one cold command of each engine, one
PDF at a time: ``siftpdf extract --markdown --no-cache --ocr never``, pdf-inspector's ``process_pdf`` and
liteparse's ``lit parse --format markdown --no-ocr`` (bench/quality_sets.py: ENGINES). Each
engine's page separators are taken out (the ground truth has none), then the benchmark's own
scorer scores each half of the set (quality_sets.halves_of: a rule is written against one half,
most against ``a``, and checked on the other) and the whole. DP-Bench also gets the outputs docling, marker,
opendataloader and pymupdf4llm published for the same pages, scored here the same way, and
pdftotext's published figures. ``--peers none`` runs siftpdf alone; ``--out -`` prints the report
instead of writing it.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.metadata
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import quality_sets as qs  # noqa: E402

OUT = ROOT / "docs" / "quality.md"
DPBENCH = qs.BENCH / "dpbench"
SCORER_NEEDS = ("rapidfuzz", "apted", "bs4", "lxml")
# The worst documents listed per metric and half.
WORST = 5
# Each set's headline figures: a column name and the path to it in the scorer's JSON summary
# (readingorder's summary holds one entry per subset).
HEADLINE: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "dpbench": [("overall", ("overall",)), ("NID", ("nid",)), ("TEDS", ("teds",)), ("MHS", ("mhs",))],
    "icdar2013": [("P", ("precision",)), ("R", ("recall",)), ("F1", ("f1",)), ("no-table docs", ("no_table",))],
    "readingorder": [("kyokcha NID", ("kyokcha", "nid")), ("readoc overall", ("readoc", "overall")),
                     ("readoc NID", ("readoc", "nid")), ("readoc MHS", ("readoc", "mhs"))],
}
# The per-document figures whose worst siftpdf documents are listed: a name, the subset (readingorder)
# and the key in the scorer's per-document rows.
WORST_OF: dict[str, list[tuple[str, str | None, str]]] = {
    "dpbench": [("NID", None, "nid"), ("TEDS", None, "teds"), ("MHS", None, "mhs")],
    "icdar2013": [("F1", None, "f1")],
    "readingorder": [("kyokcha NID", "kyokcha", "nid"), ("readoc NID", "readoc", "nid"),
                     ("readoc MHS", "readoc", "mhs")],
}
TITLES = {
    "dpbench": "DP-Bench (100 single pages: reading order, tables, headings)",
    "icdar2013": "ICDAR 2013 tables (37 documents: table cell adjacency)",
    "readingorder": "Reading order: Kyokcha (43 two-column pages) and READoc (11 whole documents)",
}
SCOPES: list[str | None] = ["a", "b", None]


@dataclass
class Measured:
    """One engine on one set: each document's wall seconds and pages, the failed commands, and
    the scorer's result for half a, half b and the whole (key ``None``); or why it did not run."""

    engine: str
    notes: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    scores: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    skipped: str = ""
    published: bool = False

    def per_page(self) -> float | None:
        pages = sum(self.pages.get(doc_id, 1) for doc_id in self.seconds)
        return sum(self.seconds.values()) / pages if self.seconds and pages else None


@dataclass
class SetResult:
    name: str
    ids: dict[str | None, list[str]]
    rows: list[Measured]
    bare: list[float] = field(default_factory=list)


def page_count(pdf: Path) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


def _why_not(engine: qs.Engine) -> str:
    if engine.module and importlib.util.find_spec(engine.module) is None:
        return "not installed here (`pip install -e '.[bench]'`)"
    return ""


def _version(name: str) -> str:
    if name == "siftpdf":
        done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        return f"commit {done.stdout.strip()}" if done.returncode == 0 else "this checkout"
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def measure(name: str, engine: qs.Engine, pdfs: list[Path], ids: dict[str | None, list[str]], work: Path,
            bare: list[float] | None = None) -> Measured:
    """``engine`` over the set's PDFs, one cold command at a time, then scored per half; ``bare``
    gets the wall seconds of a ``python -c pass`` run before each document (the yardstick of the
    cold single-page figure)."""
    row = Measured(engine.name, notes=f"{_version(engine.name)}, measured here")
    if why := _why_not(engine):
        row.skipped = why
        return row
    into = work / name / engine.name
    into.mkdir(parents=True)
    for pdf in pdfs:
        if bare is not None:
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append(time.perf_counter() - started)
        failed, seconds = qs.run_engine(engine, pdf, into)
        row.seconds[pdf.stem] = seconds
        row.pages[pdf.stem] = page_count(pdf)
        if failed:
            row.failed.append(failed)
        elif not (into / f"{pdf.stem}.md").read_text(encoding="utf-8").strip():
            row.empty.append(pdf.stem)
    if len(row.failed) == len(pdfs):
        row.skipped = f"every command failed, e.g. {row.failed[0]}"
        return row
    row.scores = {half: qs.score(name, into, ids[half]) for half in SCOPES}
    return row


def published(ids: dict[str | None, list[str]]) -> list[Measured]:
    """DP-Bench's published outputs of other engines, scored here per half; pdftotext's published
    figures (whole set only: its outputs are not kept)."""
    lines = (DPBENCH / "peers.tsv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        if not line.strip():
            continue
        entry = dict(zip(header, line.split("\t"), strict=False))
        notes = entry.get("notes", "").replace(" (published outputs)", "")
        folder = DPBENCH / "peers" / entry["engine"]
        how = "published outputs, scored here" if folder.is_dir() else "published figures, whole set only"
        row = Measured(entry["engine"], notes=f"{how}; {notes}", published=True)
        if folder.is_dir():
            row.scores = {half: qs.score("dpbench", folder, ids[half]) for half in SCOPES}
        else:
            summary = {key: float(entry[tsv]) for key, tsv in (("overall", "overall"), ("nid", "nid"),
                                                                ("teds", "teds"), ("mhs", "mhs")) if entry.get(tsv)}
            row.scores = {None: {"json": {"summary": summary, "documents": []}, "lines": []}}
        rows.append(row)
    return rows


def run_set(name: str, engines: list[qs.Engine], work: Path) -> SetResult:
    pdfs = qs.documents(name)
    ids = {half: qs.ids_of(pdfs, half) for half in SCOPES}
    result = SetResult(name, ids, [])
    for engine in engines:
        bare = result.bare if engine.name == "siftpdf" and name == "dpbench" else None
        result.rows.append(measure(name, engine, pdfs, ids, work, bare))
    if name == "dpbench":
        result.rows.extend(published(ids))
    return result


def _value(row: Measured, half: str | None, path: tuple[str, ...]) -> Any:
    value: Any = row.scores.get(half, {}).get("json", {}).get("summary")
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _cell(value: Any) -> str:
    if value is None or value == "":
        return "—"
    return str(value) if isinstance(value, int) else f"{float(value):.4f}"


def table(result: SetResult) -> list[str]:
    """The set's Markdown table: the engines measured here, then the published rows."""
    columns = [f"{label} {half or 'whole'}" for label, _ in HEADLINE[result.name] for half in SCOPES]
    out = ["| engine | " + " | ".join(columns) + " | s/page | notes |",
           "|---" * (len(columns) + 3) + "|"]
    for row in result.rows:
        name = f"**{row.engine}**" if row.engine == "siftpdf" else row.engine
        if row.skipped:
            out.append(f"| {name} | " + " | ".join("—" for _ in columns) + f" | — | not run: {row.skipped} |")
            continue
        values = [_cell(_value(row, half, path)) for _, path in HEADLINE[result.name] for half in SCOPES]
        per_page = row.per_page()
        notes = row.notes
        if row.failed:
            notes += f"; {len(row.failed)} command{'s' if len(row.failed) > 1 else ''} failed (scored as empty)"
        if row.empty:
            notes += f"; wrote nothing for {', '.join(f'`{doc_id}`' for doc_id in row.empty)}"
        out.append(f"| {name} | " + " | ".join(values) + f" | {'—' if per_page is None else f'{per_page:.3f}'} "
                   f"| {notes} |")
    return out


def worst(result: SetResult) -> list[str]:
    """siftpdf's worst documents per metric, half by half."""
    row = next((r for r in result.rows if r.engine == "siftpdf" and not r.skipped), None)
    if row is None:
        return []
    documents = row.scores[None]["json"]["documents"]
    out = []
    for label, subset, key in WORST_OF[result.name]:
        for half in ("a", "b"):
            chosen = set(result.ids[half])
            scored = sorted((d for d in documents if d["id"] in chosen and d.get(key) is not None
                             and (subset is None or d.get("set") == subset)), key=lambda d: d[key])[:WORST]
            if scored:
                out.append(f"- {label}, half {half}: " + ", ".join(f"`{d['id']}` {d[key]:.3f}" for d in scored))
    return out


def cold_line(seconds: list[float], bare: list[float]) -> str:
    """The cold single-page figure beside ``python -c pass`` measured in the same run."""
    mean, median, python = statistics.mean(seconds), statistics.median(seconds), statistics.median(bare)
    return (f"cold single page: mean {mean:.3f} s, median {median:.3f} s; `python -c pass` median "
            f"{python:.3f} s in the same run (the page costs {median / python:.1f}x a bare interpreter)")


def _counts(result: SetResult) -> str:
    return ", ".join(f"{f'half {half}' if half else 'whole'} {len(result.ids[half])}" for half in SCOPES)


def section(result: SetResult) -> list[str]:
    lines = [f"## {TITLES[result.name]}", "", f"Documents: {_counts(result)}.", "", *table(result), ""]
    siftpdf = next((r for r in result.rows if r.engine == "siftpdf" and not r.skipped), None)
    if result.name == "dpbench" and siftpdf is not None:
        summary = siftpdf.scores[None]["json"]["summary"]
        lines += [_wrap(f"TEDS counts the {summary.get('teds_count', '?')} pages whose ground truth has a "
                        f"table, MHS the {summary.get('mhs_count', '?')} pages with a heading; a page without "
                        "a prediction there scores 0. The published rows are the outputs published with the "
                        "benchmark for these pages (`../shared/bench/dpbench/peers/`), scored here by the "
                        "same script; pdftotext's are its published figures (whole set only)."), ""]
        if result.bare:
            lines += [_wrap(cold_line(list(siftpdf.seconds.values()), result.bare) + "."), ""]
    if result.name == "icdar2013":
        lines += [_wrap("P, R and F1 are micro-averaged over the adjacency relations of every table of every "
                        "document; no-table docs counts the documents whose Markdown has no table at all "
                        "(fewer is better)."), ""]
    if result.name == "readingorder":
        lines += [_wrap("Kyokcha's ground truth is plain text (headings without `#`), so its NID is the "
                        "figure to read; READoc's overall is the mean of its NID and MHS."), ""]
    for row in result.rows:
        if row.failed:
            lines += [_wrap(f"{row.engine}: commands that failed (scored as empty): {'; '.join(row.failed)}."), ""]
    if listed := worst(result):
        lines += [f"siftpdf's {WORST} worst documents per metric:", "", *listed, ""]
    return lines


def report(results: list[SetResult], engines: list[qs.Engine]) -> str:
    ran = [engine for engine in engines if not _why_not(engine)]
    lines = [
        "# Article quality: siftpdf and its peers on three benchmarks",
        "",
        _wrap("Made by `make bench-quality` (`bench/bench_quality.py`, also part of `make bench`). Every PDF of "
              "each benchmark in `../shared/bench` was converted by one cold command of each engine, one PDF at a "
              "time, on a 2-core Linux machine shared with other work (so the seconds vary from run to run):"),
        "",
        *(textwrap.fill(f"- **{engine.name}** ({_version(engine.name)}): {engine.how}.", width=100,
                        subsequent_indent="  ", break_long_words=False, break_on_hyphens=False) for engine in ran),
        "",
        _wrap("s/page is the commands' whole wall time (start-up included) over the documents' pages. Each "
              "set's own scorer (`../shared/bench/<set>/score.py`; every figure in [0, 1], higher is better) "
              "scored the Markdown, the same way for every engine; it reads pipe and HTML tables alike."),
        "",
        _wrap("**The halves.** Each set here is itself the development half of a benchmark whose other half is "
              "kept apart elsewhere and never looked at. It is split once more, by a fixed hash of each "
              "document's id (`bench/quality_sets.py`: `halves_of`), into half **a** and half **b**. A rule "
              "is written against one half and checked on the other: most against a; those for a class of "
              "page only b showed (say, statistics tables ruled above and below only) against b, then "
              "checked on a; the commit that adds a rule names its half. A rule is kept only when the other "
              "half agrees and no other set drops, and a rule for tables is also run on and off over the "
              "corpus's first pages and kept only when what it changes there reads better. The peers never "
              "saw either half, so their gap between a and b is the halves' own difference in difficulty; "
              "siftpdf's gap beyond theirs is what its rules fit and do not carry over."),
        "",
    ]
    if any(engine.module for engine in engines):
        lines += [_wrap("The peers are rule-based converters from PyPI, pinned in the `bench` extra of "
                        "`pyproject.toml` (`make bench-quality` installs it): pdf-inspector (Rust, by "
                        "Firecrawl) and liteparse (Rust, by LlamaIndex), both run without OCR, as siftpdf is "
                        "here, and given the same PDFs; each needs nothing beyond its wheel (liteparse's carries its "
                        "own PDFium; no Node.js)."
                        + (" pdf-inspector writes no Markdown for a page whose text layer it judges unreliable "
                           "(it sends such pages to OCR): those pages score as empty, and the notes name them."
                           if "pdf-inspector" in {engine.name for engine in ran} else "")), ""]
    for engine in engines:
        if why := _why_not(engine):
            lines += [_wrap(f"{engine.name} did not run: {why}."), ""]
    for result in results:
        lines += section(result)
    lines += [
        "## Commands",
        "",
        "From the repository root (a block of commands to copy, not run by the documentation's tests: each",
        "runs the benchmarks for minutes):",
        "",
        "```text",
        "make bench-quality   # installs the bench extra when missing, then: .venv/bin/python bench/run.py quality",
        ".venv/bin/python bench/bench_quality.py --out -                       # print, write nothing",
        ".venv/bin/python bench/bench_quality.py --sets dpbench --peers none --out -   # siftpdf alone, one set",
        ".venv/bin/python bench/quality_sets.py dpbench --half a               # siftpdf on one half, two at a time",
        "# one document by hand:",
        ".venv/bin/siftpdf extract --markdown --no-cache --ocr never ../shared/bench/dpbench/pdfs/<id>.pdf",
        ".venv/bin/python -c 'import sys, pdf_inspector; print(pdf_inspector.process_pdf(sys.argv[1]).markdown)' FILE",
        ".venv/bin/lit parse --format markdown --no-ocr -q FILE",
        "# then, over a folder OUT of <id>.md (separators taken out):",
        ".venv/bin/python ../shared/bench/<set>/score.py ../shared/bench/<set>/gt OUT [--ids IDS] --worst 5",
        "```",
        "",
    ]
    return "\n".join(lines)


def _wrap(paragraph: str) -> str:
    return textwrap.fill(paragraph, width=100, break_long_words=False, break_on_hyphens=False)


def _missing() -> list[str]:
    return [name for name in SCORER_NEEDS if importlib.util.find_spec(name) is None]


def run(out: Path | None = OUT, sets: tuple[str, ...] = qs.SETS, peers: tuple[str, ...] = qs.PEERS) -> None:
    """Measure, print the tables, and write the report to ``out`` (``None``: print it whole)."""
    present = [name for name in sets if (qs.BENCH / name / "score.py").is_file()]
    if not present:
        print(f"bench_quality: no benchmark under {qs.BENCH}; skipped")
        return
    if missing := _missing():
        print(f"bench_quality: the scorers need {', '.join(missing)} (pip install -e '.[dev]'); skipped")
        return
    engines = [qs.ENGINES["siftpdf"], *(qs.ENGINES[name] for name in peers)]
    # Bytecode as an installed package has it (pip compiles at install): with
    # PYTHONDONTWRITEBYTECODE set, an editable checkout would compile its changed modules anew
    # in every cold command, a cost no user pays.
    compileall.compile_dir(str(ROOT / "siftpdf"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="siftpdf-quality-") as tmp:
        results = [run_set(name, engines, Path(tmp)) for name in present]
    text = report(results, engines)
    if out is None:
        print(text)
        return
    for result in results:
        print(f"{result.name}: {_counts(result)}")
        print("\n".join(table(result)))
        if result.name == "dpbench" and result.bare:
            siftpdf = next(r for r in result.rows if r.engine == "siftpdf")
            print(cold_line(list(siftpdf.seconds.values()), result.bare))
        for row in result.rows:
            if row.failed:
                print(f"{row.engine} failed ({len(row.failed)}): {'; '.join(row.failed)}")
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


def _names(value: str, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    names = tuple(name for name in value.split(",") if name and name != "none")
    if unknown := [name for name in names if name not in known]:
        raise argparse.ArgumentTypeError(f"no such {what}: {', '.join(unknown)} (of {', '.join(known)})")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", default=str(OUT), help="where to write the report ('-': print it instead)")
    parser.add_argument("--sets", type=lambda v: _names(v, qs.SETS, "set"), default=qs.SETS,
                        help=f"comma-separated, of {', '.join(qs.SETS)} (default: all)")
    parser.add_argument("--peers", type=lambda v: _names(v, qs.PEERS, "peer"), default=qs.PEERS,
                        help=f"comma-separated, of {', '.join(qs.PEERS)}, or 'none' (default: both)")
    args = parser.parse_args(argv)
    run(None if args.out == "-" else Path(args.out).resolve(), args.sets, args.peers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
