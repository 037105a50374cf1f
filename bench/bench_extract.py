"""Cold extraction (--no-cache) beside pdftotext -layout and `python -c pass`, measured in the
same run, with the targets each ratio is held to:

- organized ≤ 1.5× pdftotext -layout on the dense 2,100-page report and the corpus books;
  --raw ≤ 1.0× pdftotext -layout on 100+ pages; peak memory of the process tree ≤ 150 MB on
  the 2,100 pages;
- organized ≤ 1.3× --raw on papers;
- a cold 1-page extract ≤ 4× `python -c pass`; `--help` ≤ 2× `python -c pass`.

The long documents are also read by bench/pdfium_floor.py (PDFium's text pages alone, in two
processes): the floor under both of siftpdf's views.

    .venv/bin/python bench/run.py extract
"""

from __future__ import annotations

import os
import sys

from bench.common import CORPUS, FIXTURES, ROOT, SIFTPDF, Measure, compiled, fixture, have, measure, table

BOOKS = ["long/gdb.pdf", "long/n1570.pdf"]
PAPERS = ["paper/data_structures_epidemic-broadcast-trees.pdf",  # 22 pages
          "paper/datastores_dynamo-amazons-highly-available-key-value-store.pdf"]  # 16 pages
DPBENCH = ROOT.parent / "shared" / "bench" / "dpbench" / "pdfs"
SINGLE_PAGES = 10  # DP-Bench pages timed one by one for the single-page row


def _ratio(ours: Measure, peer: Measure | None, target: float) -> str:
    if peer is None:
        return "n/a"
    ratio = ours.seconds / peer.seconds
    return f"{ratio:.2f}x {'ok' if ratio <= target else 'OVER'} (≤ {target}x)"


def _times(ours: Measure, peer: Measure | None) -> str:
    return f"{ours.seconds / peer.seconds:.2f}x" if peer is not None else "n/a"


def _cold(path: object, *extra: str) -> list[str]:
    return SIFTPDF + ["extract", "--no-cache", "--max-pages", "5000", *extra, str(path)]


def _long_documents(files: dict[str, object]) -> None:
    docs = [("dense report, 2,100 pages", files["dense"])]
    docs += [(f"corpus book {name}", CORPUS / name) for name in BOOKS if (CORPUS / name).exists()]
    rows = []
    for label, path in docs:
        raw, organized = measure(_cold(path, "--raw"), repeat=3), measure(_cold(path), repeat=3)
        floor = measure([sys.executable, str(ROOT / "bench" / "pdfium_floor.py"), str(path)], repeat=3)
        peer = measure(["pdftotext", "-layout", str(path), "/dev/null"], repeat=3) if have("pdftotext") else None
        rows.append([label, floor.row(), raw.row(), organized.row(), peer.row() if peer else "missing",
                     _times(floor, peer), _ratio(raw, peer, 1.0), _ratio(organized, peer, 1.5)])
    table("Cold extract of long documents: siftpdf extract --no-cache (--raw, and organized as by "
          "default) vs pdftotext -layout, beside PDFium's own text pages read in two processes "
          "(bench/pdfium_floor.py: the floor of any PDFium route) (median of 3, then peak RSS of "
          "the whole process tree; target ≤ 150 MB on the 2,100 pages)",
          ["document", "PDFium floor", "siftpdf --raw", "siftpdf (organized)", "pdftotext -layout",
           "floor / pdftotext", "raw / pdftotext", "organized / pdftotext"], rows)


def _papers() -> None:
    rows = []
    for name in PAPERS:
        path = CORPUS / name
        if not path.exists():
            continue
        raw, organized = measure(_cold(path, "--raw")), measure(_cold(path))
        peer = measure(["pdftotext", "-layout", str(path), "/dev/null"]) if have("pdftotext") else None
        rows.append([path.name[:40], raw.row(), organized.row(), peer.row() if peer else "missing",
                     _ratio(organized, raw, 1.3)])
    if rows:
        table("Papers: organized vs --raw (median of 5)",
              ["paper", "siftpdf --raw", "siftpdf (organized)", "pdftotext -layout", "organized / raw"], rows)


def _start_up(files: dict[str, object]) -> None:
    floor = measure([sys.executable, "-c", "pass"], repeat=9)
    one = measure(SIFTPDF + ["extract", "--no-cache", str(files["one"])], repeat=9)
    pages = sorted(DPBENCH.glob("*.pdf"))[:SINGLE_PAGES]
    singles = [measure(SIFTPDF + ["extract", "--no-cache", "--markdown", str(p)], repeat=3).seconds for p in pages]
    help_ = measure(SIFTPDF + ["--help"], repeat=9)
    peer = measure(["pdftotext", "-layout", str(files["one"]), "/dev/null"], repeat=9) if have("pdftotext") else None
    rows = [["python -c pass", floor.row(), "", ""],
            ["extract, 1-page fixture (organized)", one.row(), _ratio(one, floor, 4.0), peer.row() if peer else ""]]
    if singles:
        mean = Measure(sum(singles) / len(singles), 0.0)
        rows.append([f"extract --markdown, {len(singles)} DP-Bench pages (mean)", mean.row().replace("    0.0 MB", ""),
                     _ratio(mean, floor, 4.0), ""])
    rows.append(["--help", help_.row(), _ratio(help_, floor, 2.0), ""])
    table("Start-up: whole commands beside the interpreter's own start (median of 9)",
          ["command", "time, peak RSS", "ratio to python -c pass", "pdftotext -layout"], rows)


def run() -> None:
    compiled()
    files = {key: fixture(key) for key in FIXTURES}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    _start_up(files)
    _papers()
    _long_documents(files)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    run()
