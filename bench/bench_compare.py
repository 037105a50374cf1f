"""siftpdf next to the tools people use today, on the same files in the same run: pdftotext
(poppler) and PyMuPDF / pymupdf4llm for text, pdfgrep for search.

    make bench                      # every benchmark
    .venv/bin/python bench/run.py compare

PyMuPDF and pymupdf4llm are measured only when importable (pip install them into the venv to
compare; siftpdf never depends on them). Every tool runs as a fresh process, so start-up counts
for all of them; siftpdf runs cold (no cache), with its extraction child and limits.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.common import CORPUS, ROOT, SIFTPDF, have, measure, table

# (label, path, grep pattern): the bundled sample, papers, a long manual, a CJK statute.
DOCS = [
    ("sample (5 p.)", ROOT / "samples" / "sample.pdf", "oxbow|sediment"),
    ("paper (7 p.)", CORPUS / "paper" / "audio_comp_sci_shazam-audio-search-algorithm.pdf", "fingerprint"),
    ("paper (15 p.)", CORPUS / "paper" / "time_series_ts-asap.pdf", "smoothing"),
    ("manual (932 p.)", CORPUS / "long" / "gdb.pdf", "breakpoint"),
    ("CJK statute", CORPUS / "cjk" / "law_中华人民共和国民法典_中华人民共和国民法典.pdf", "合同"),
]
BIG_CAP = str(1 << 30)

PYMUPDF = ("import sys, pymupdf\n"
           "doc = pymupdf.open(sys.argv[1])\n"
           "sys.stdout.write(''.join(page.get_text() for page in doc))\n")
PYMUPDF4LLM = "import sys, pymupdf4llm\nsys.stdout.write(pymupdf4llm.to_markdown(sys.argv[1]))\n"


def _importable(module: str) -> str | None:
    """The module's version when this interpreter can import it, else None."""
    probe = f"import {module} as m; print(getattr(m, '__version__', None) or getattr(m, 'VersionBind', '?'))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def _lines(cmd: list[str]) -> int:
    done = subprocess.run(cmd, capture_output=True)
    return len(done.stdout.splitlines())


def _extract_table(docs: list[tuple[str, Path, str]], mupdf: str | None, mupdf4llm: str | None) -> None:
    header = ["document", "siftpdf extract --no-cache --text", "pdftotext -layout"]
    if mupdf:
        header.append(f"PyMuPDF {mupdf} get_text")
    header.append("pymupdf4llm to_markdown" if mupdf4llm else "pymupdf4llm")
    rows = []
    for label, path, _ in docs:
        cold = SIFTPDF + ["extract", "--no-cache", "--text", "--max-pages", "5000", str(path)]
        row = [label, measure(cold, repeat=3).row()]
        peer = ["pdftotext", "-layout", str(path), "-"]
        row.append(measure(peer, repeat=3).row() if have("pdftotext") else "missing")
        if mupdf:
            row.append(measure([sys.executable, "-c", PYMUPDF, str(path)], repeat=3).row())
        row.append(measure([sys.executable, "-c", PYMUPDF4LLM, str(path)], repeat=3).row()
                   if mupdf4llm else "not installed")
        rows.append(row)
    table("Text out of a PDF: median wall time of 3 runs, peak RSS of the process tree", header, rows)


def _grep_table(docs: list[tuple[str, Path, str]]) -> None:
    rows = []
    for label, path, pattern in docs:
        sift = SIFTPDF + ["grep", "--no-cache", "-C", "0", "-m", "1000000", "--cap", BIG_CAP, pattern, str(path)]
        row = [label, f"'{pattern}'", measure(sift, repeat=3).row(), str(_lines(sift))]
        if have("pdfgrep"):
            peer = ["pdfgrep", "-n", "-i", "-P", pattern, str(path)]
            row += [measure(peer, repeat=3).row(), str(_lines(peer))]
        else:
            row += ["missing", ""]
        rows.append(row)
    table("Search: siftpdf grep --no-cache -C 0 vs pdfgrep -n -i (median of 3; matching lines found, "
          "siftpdf's being joined paragraphs)",
          ["document", "pattern", "siftpdf grep", "lines", "pdfgrep", "lines"], rows)


def run() -> None:
    docs = [d for d in DOCS if d[1].exists()]
    mupdf, mupdf4llm = _importable("pymupdf"), _importable("pymupdf4llm")
    _extract_table(docs, mupdf, mupdf4llm)
    _grep_table(docs)
    if not mupdf4llm:
        print("\npymupdf4llm is not importable here: not measured.")
    print("\nmeasured with: .venv/bin/python bench/run.py compare")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    run()
