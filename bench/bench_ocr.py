"""OCR engines on generated scans: character error rate, seconds per page, peak memory.

    python bench/bench_ocr.py                                  # siftpdf.child.ocr's engine beside tesseract
    python bench/bench_ocr.py --engine rapidocr=/path/to/venv/bin/python ... --into docs/bakeoff.md

The scans come from tests/make_scans.py: corpus text pages (English papers and books, Chinese
papers and laws) rendered by PDFium at each resolution, turned 0.5-1.5 degrees, with grain and
specks, stored as JPEG in image-only PDFs; the reference is the source page's text layer. Also
a blank scanned page (any text read there is invented).

Every engine runs in its own process (bench/ocr_worker.py, in the engine's own interpreter,
under ``unshare -n`` where that works, so that an engine that reaches for the network fails
here), one process per engine, resolution and language, pages one after the other.

Character error rate (CER): Levenshtein distance between recognized and reference text, both
NFKC-normalized, with typographic quotes and dashes folded and all whitespace removed, over
the reference's length; summed over the pages of a language (edits over characters). The
text layer's order is not always a reading order (columns, headers), so each page counts the
smaller of two distances: the engine's lines in its own order, and in the order where each
aligns best in the reference (tests/make_scans.py: ``cer`` and ``cer_any_order``).
Seconds are per page for the recognition alone (the render excluded, start-up and model
loading reported apart); CPU is user + system time of all threads (and of a program the
engine runs), the figure that shared cores disturb least. Peak is the worker's maximum RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / ".data" / "scans"
SECTION = "## OCR engines"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))  # bench.common, when run as a script

import make_scans  # noqa: E402


@dataclass
class Result:
    engine: str
    version: str = ""
    pages: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)  # (dpi, group) -> pages
    init: list[float] = field(default_factory=list)
    peak_mib: int = 0
    errors: list[str] = field(default_factory=list)


def write_scans(dpis: list[int]) -> dict[tuple[int, str], list[Path]]:
    """The scans as files (made again only when missing), grouped by resolution and language."""
    DATA.mkdir(parents=True, exist_ok=True)
    groups: dict[tuple[int, str], list[Path]] = {}
    for dpi in dpis:
        for lang in ("en", "cjk"):
            paths = []
            for source in make_scans.ENGLISH if lang == "en" else make_scans.CJK:
                pdf, txt = DATA / f"{source.name}-{dpi}.pdf", DATA / f"{source.name}-{dpi}.txt"
                if not pdf.exists() or not txt.exists():
                    made = make_scans.scan(source, dpi)
                    pdf.write_bytes(made.pdf)
                    txt.write_text(made.reference)
                paths.append(pdf)
            groups[(dpi, lang)] = paths
        blank = DATA / f"blank-{dpi}.pdf"
        if not blank.exists():
            blank.write_bytes(make_scans.blank(dpi).pdf)
            blank.with_suffix(".txt").write_text("")
        groups[(dpi, "blank")] = [blank]
    return groups


def _offline_prefix() -> list[str]:
    """``unshare -n`` (a network namespace with no interface) where this user may make one."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-n"]
    return []


def run_engine(name: str, python: str, groups: dict[tuple[int, str], list[Path]], threads: int,
               log: Any) -> Result:
    result = Result(name)
    prefix = _offline_prefix()
    for (dpi, group), paths in groups.items():
        lang = "cjk" if group == "cjk" else "en"
        command = [*prefix, python, str(HERE / "ocr_worker.py"), name, str(dpi), str(threads), lang,
                   *map(str, paths)]
        started = time.monotonic()
        proc = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode or not rows or "done" not in rows[-1]:
            result.errors.append(f"{dpi} dpi {group}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
            print(f"ocr: {name} {dpi} dpi {group}: failed", file=log)
            continue
        done = rows.pop()
        result.version = done["version"]
        result.init.append(done["init_cpu"])
        result.peak_mib = max(result.peak_mib, done["peak_rss_mib"])
        for row in rows:
            row["reference"] = Path(row["file"]).with_suffix(".txt").read_text()
        result.pages[(dpi, group)] = rows
        print(f"ocr: {name} {dpi} dpi {group}: {len(rows)} pages in {time.monotonic() - started:.0f} s", file=log)
    return result


def page_cer(row: dict[str, Any]) -> float:
    lines = [line["text"] for line in row["lines"]]
    return min(make_scans.cer("\n".join(lines), row["reference"]), make_scans.cer_any_order(lines, row["reference"]))


def group_cer(rows: list[dict[str, Any]]) -> float | None:
    """Edits over characters, summed over the pages."""
    sizes = [len(make_scans.normalize(row["reference"])) for row in rows]
    if not rows or not sum(sizes):
        return None
    return sum(page_cer(row) * size for row, size in zip(rows, sizes, strict=True)) / sum(sizes)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summary(result: Result, dpis: list[int]) -> dict[str, Any]:
    out: dict[str, Any] = {"engine": result.engine, "version": result.version, "peak_mib": result.peak_mib,
                           "init_cpu": _mean(result.init), "errors": result.errors}
    for dpi in dpis:
        text_pages = result.pages.get((dpi, "en"), []) + result.pages.get((dpi, "cjk"), [])
        for lang in ("en", "cjk"):
            out[f"cer_{lang}_{dpi}"] = group_cer(result.pages.get((dpi, lang), []))
        out[f"cpu_{dpi}"] = _mean([row["cpu"] for row in text_pages])
        out[f"wall_{dpi}"] = _mean([row["wall"] for row in text_pages])
        blank = result.pages.get((dpi, "blank"), [])
        out[f"blank_{dpi}"] = sum(len(make_scans.normalize(line["text"])) for row in blank for line in row["lines"])
    return out


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.2f} %"


def _sec(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def table(summaries: list[dict[str, Any]], dpis: list[int]) -> list[str]:
    head = ["engine", "version"]
    for dpi in dpis:
        head += [f"CER en {dpi}", f"CER CJK {dpi}"]
    for dpi in dpis:
        head += [f"CPU s/page {dpi}", f"wall s/page {dpi}"]
    head += ["peak MiB", "start CPU s", "blank: chars read"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in summaries:
        cells = [s["engine"], s["version"]]
        for dpi in dpis:
            cells += [_pct(s[f"cer_en_{dpi}"]), _pct(s[f"cer_cjk_{dpi}"])]
        for dpi in dpis:
            cells += [_sec(s[f"cpu_{dpi}"]), _sec(s[f"wall_{dpi}"])]
        cells += [str(s["peak_mib"]), _sec(s["init_cpu"]), " / ".join(str(s[f"blank_{dpi}"]) for dpi in dpis)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def per_page(results: list[Result], dpi: int) -> list[str]:
    """CER of each page at one resolution, engines side by side."""
    names = [r.engine for r in results]
    lines = ["| page | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
    keys = [(dpi, "en"), (dpi, "cjk")]
    files = [Path(row["file"]).stem for key in keys for row in (results[0].pages.get(key, []) if results else [])]
    for stem in files:
        cells = []
        for r in results:
            rows = [row for key in keys for row in r.pages.get(key, []) if Path(row["file"]).stem == stem]
            cells.append(_pct(page_cer(rows[0])) if rows else "–")
        lines.append(f"| {stem} | " + " | ".join(cells) + " |")
    return lines


def default_engines() -> list[tuple[str, str]]:
    """What ``make bench`` measures: siftpdf's own engine (with PP-OCR's int8 models, and with
    its float ones), and tesseract beside it if installed."""
    engines = [("siftpdf", sys.executable), ("siftpdf_float", sys.executable)]
    if shutil.which("tesseract"):
        engines.append(("tesseract", sys.executable))
    return engines


def measure(engines: list[tuple[str, str]], dpis: list[int], threads: int, rounds: int,
            log: Any) -> tuple[list[Result], list[dict[str, Any]]]:
    groups = write_scans(dpis)
    if any(name.startswith("siftpdf") for name, _ in engines):
        print(f"ocr: PP-OCR's models: {_int8_models().note}", file=log)  # made before any worker is timed
    results = []
    for name, python in engines:
        best: Result | None = None
        for _ in range(rounds):  # shared cores: keep the round with the least CPU per page
            r = run_engine(name, python, groups, threads, log)
            cpu = sum(row["cpu"] for rows in r.pages.values() for row in rows)
            if best is None or cpu < sum(row["cpu"] for rows in best.pages.values() for row in rows):
                best = r
        assert best is not None
        results.append(best)
    return results, [summary(r, dpis) for r in results]


def render(results: list[Result], summaries: list[dict[str, Any]], dpis: list[int], threads: int,
           command: str) -> str:
    out = [SECTION, "", f"Made by `{command}` ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores shared with "
           f"other work, {threads} inference thread(s) per engine, the best of the rounds by CPU time). "
           "Method: bench/bench_ocr.py's docstring. Pages: "
           + ", ".join(s.name for s in (*make_scans.ENGLISH, *make_scans.CJK)) + ".", ""]
    out += table(summaries, dpis)
    for s in summaries:
        for error in s["errors"]:
            out.append(f"\n{s['engine']}: {error}")
    out += ["", f"Per page, {max(dpis)} dpi:", ""] + per_page(results, max(dpis))
    return "\n".join(out) + "\n"


def run() -> None:
    """``make bench``: siftpdf's engine and tesseract on the scans at 200 and 300 dpi."""
    try:
        from siftpdf.child import ocr
    except ImportError:
        ocr = None  # type: ignore[assignment]
    if ocr is None or ocr.available() is None:
        print("ocr: skipped, no OCR engine installed (pip install 'siftpdf[ocr]')")
        return
    dpis = [200, 300]
    results, summaries = measure(default_engines(), dpis, 1, 1, sys.stderr)
    print("\n".join(table(summaries, dpis)))
    whole_command()
    corpus_scans()


SCAN_PAGES = 20


def _int8_models() -> Any:
    """PP-OCR's int8 models in this machine's cache folder, made now if they are not there (a
    machine's first --ocr call on a Chinese page starts their making; its later calls read
    with them)."""
    from siftpdf.store import ocrmodels
    from siftpdf.system import default_cache_dir

    return ocrmodels.make_here(Path(default_cache_dir()))


def _float_cache(folder: str) -> dict[str, str]:
    """The environment of a call that reads with PP-OCR's float models: a cache folder of its
    own whose int8 models are marked as not to be made (as where they cannot be)."""
    from siftpdf.store import ocrmodels

    models = ocrmodels.folder_for(Path(folder))
    if models is not None:
        models.mkdir(parents=True)
        (models / "failed").write_text("the bench's float models row\n")
    return {**os.environ, "SIFTPDF_CACHE_DIR": folder}


def whole_command() -> None:
    """The product on 20-page scans, English and Chinese: ``siftpdf extract --ocr auto`` (both
    workers, the organized view), seconds a page and the peak memory of the process tree."""
    import tempfile

    from bench.common import SIFTPDF, run_once

    models = _int8_models()
    print(f"\n## OCR, whole command ({SCAN_PAGES}-page scans at 200 dpi, --no-cache --deadline 600)\n")
    print(f"CJK pages read with {models.note}.\n")
    print("| what | s/page | peak MB (process tree) | target |")
    print("|---|---|---|---|")
    # An English paper; Chinese pages from the lightest (a paper, 600 characters) to the
    # densest (a paper of formulas, 1,100 characters in 50 full-width lines).
    # Last, the law again with PP-OCR's float models: what a machine's first call reads with.
    runs = [(source, "") for source in (make_scans.ENGLISH[0], make_scans.CJK[2], make_scans.CJK[1], make_scans.CJK[3])]
    for source, floats in [*runs, (make_scans.CJK[1], ", PP-OCR's float models")]:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "scan.pdf"
            path.write_bytes(make_scans.many_pages(SCAN_PAGES, dpi=200, source=source))
            seconds, peak, code = run_once([*SIFTPDF, "extract", "--ocr", "auto", "--no-cache", "--deadline", "600",
                                             str(path)], env=_float_cache(folder) if floats else None)
        what = f"siftpdf extract --ocr auto, {source.name}{floats}"
        if code:
            print(f"| {what} | failed (exit {code}) | | |")
            continue
        print(f"| {what} | {seconds / SCAN_PAGES:.2f} | {peak:.0f} | ≤ 1.5 s/page, ≤ 1000 MB |")
    english_300()


def english_300() -> None:
    """English scans at 300 dpi in the whole command: each one-page scan (the default view,
    so --ocr auto as a user with the extra installed gets it), then a 20-page scan."""
    import tempfile

    from bench.common import SIFTPDF, run_once

    print("\n## OCR, whole command, English scans at 300 dpi (--no-cache; the default --ocr auto)\n")
    print("| what | seconds | s/page | peak MB (process tree) | target |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for source in make_scans.ENGLISH:
            path = Path(folder) / f"{source.label}.pdf"
            path.write_bytes(make_scans.scan(source, dpi=300).pdf)
            seconds, peak, code = run_once([*SIFTPDF, "extract", "--no-cache", str(path)])
            state = f"failed (exit {code})" if code else f"{seconds:.2f}"
            print(f"| one page, {source.name} | {state} | {seconds:.2f} | {peak:.0f} | ≤ 2.5 s, ≤ 1000 MB |")
        path = Path(folder) / "twenty.pdf"
        path.write_bytes(make_scans.many_pages(SCAN_PAGES, dpi=300, source=make_scans.ENGLISH[0]))
        seconds, peak, code = run_once([*SIFTPDF, "extract", "--no-cache", "--deadline", "600", str(path)])
        state = f"failed (exit {code})" if code else f"{seconds:.1f}"
        print(f"| {SCAN_PAGES} pages, {make_scans.ENGLISH[0].name} | {state} | {seconds / SCAN_PAGES:.2f} "
              f"| {peak:.0f} | ≤ 1.5 s/page, ≤ 1000 MB |")


def text_free(corpus: Path = make_scans.CORPUS, look: int = 5) -> list[Path]:
    """The corpus's PDFs whose first pages have no text layer at all (PDFium, in process)."""
    import pypdfium2 as pdfium

    found = []
    for path in sorted(corpus.rglob("*.pdf")):
        try:
            doc = pdfium.PdfDocument(str(path))
            try:
                chars = 0
                for index in range(min(len(doc), look)):
                    textpage = doc[index].get_textpage()
                    chars += len(textpage.get_text_range().strip())
                    textpage.close()
            finally:
                doc.close()
        except pdfium.PdfiumError:  # encrypted or broken: not a scan to read
            continue
        if chars == 0:
            found.append(path)
    return found


def corpus_scans() -> None:
    """The corpus's files without a text layer, read with ``extract --ocr auto``: how each ends
    without OCR and with it, the pages read and the engine's mean confidence (there is no
    reference text for them: the confidence and the outcome are what can be told)."""
    import tempfile

    from bench.common import SIFTPDF

    if not make_scans.CORPUS.is_dir():
        print("ocr: corpus scans skipped, no corpus")
        return
    print("\n## OCR of the corpus's files without a text layer (extract --raw, --deadline 600)\n")
    print("| file | pages | exit, no OCR | exit, --ocr auto | pages read (ocr / blank / failed) | confidence | s |")
    print("|---|---|---|---|---|---|---|")
    models = _int8_models().folder
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "SIFTPDF_CACHE_DIR": cache}
        if models is not None:  # this machine's int8 models, as its calls read with them
            (Path(cache) / "models").mkdir()
            (Path(cache) / "models" / models.name).symlink_to(models)
        for path in text_free():
            base = [*SIFTPDF, "extract", "--raw", "--deadline", "600", str(path)]
            plain = subprocess.run(base, capture_output=True, env=env).returncode
            started = time.perf_counter()
            read = subprocess.run([*base[:2], "--ocr", "auto", *base[2:]], capture_output=True, env=env)
            seconds = time.perf_counter() - started
            records = [json.loads(line) for line in read.stdout.splitlines() if line.strip()]
            pages = [r for r in records if "page" in r]
            ocr = [r for r in pages if r.get("status") == "ocr"]
            blank = sum(1 for r in pages if "ocr" in r and r.get("status") == "empty")
            failed = sum(1 for r in pages if "ocr_error" in r)
            levels = [r["ocr"]["confidence"] for r in ocr if r["ocr"].get("confidence")]
            confidence = f"{sum(levels) / len(levels):.2f}" if levels else "-"
            print(f"| {path.relative_to(make_scans.CORPUS)} | {len(pages)} | {plain} | {read.returncode} | "
                  f"{len(ocr)} / {blank} / {failed} | {confidence} | {seconds:.1f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=PYTHON",
                        help="an engine of bench/ocr_worker.py and the interpreter that has it (repeatable)")
    parser.add_argument("--dpi", type=int, action="append", default=[])
    parser.add_argument("--threads", type=int, default=1, help="inference threads per engine")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument("--into", type=Path, help="markdown file whose OCR section to replace or add")
    args = parser.parse_args()
    engines = [tuple(spec.split("=", 1)) for spec in args.engine] or default_engines()
    dpis = args.dpi or [200, 300]
    results, summaries = measure(engines, dpis, args.threads, args.rounds, sys.stderr)  # type: ignore[arg-type]
    command = "python bench/bench_ocr.py " + " ".join(
        a.replace(str(Path.home()), "~") for a in sys.argv[1:])
    text = render(results, summaries, dpis, args.threads, command.strip())
    if args.json:
        args.json.write_text(json.dumps({"summaries": summaries, "pages": {
            r.engine: {f"{dpi}-{group}": rows for (dpi, group), rows in r.pages.items()} for r in results}},
            ensure_ascii=False, indent=1))
    if args.into:
        from bench.common import replace_section

        replace_section(args.into, SECTION, text)
        print(f"ocr: wrote {args.into}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
