"""What ``--ocr auto``, the default once the ocr extra is installed, costs pages that have a
text layer: the same cold commands with ``SIFTPDF_OCR=never`` and with the default, run in
turn (median of the runs), and whether they wrote the same bytes.

    python bench/run.py ocr_default

A text page is looked at for images large enough to be a scan (the evidence already lists
them) and nothing more: the OCR module is loaded only when a page is to be read. A document
with a large image no text lies over (a scanned half page, a screenshot of text) is read there
by design; the documents here have none.
"""

from __future__ import annotations

import os
import statistics
import subprocess

from bench.bench_extract import PAPERS, _fixtures
from bench.common import CORPUS, ROOT, SIFTPDF, compiled, table, time_once
from siftpdf.extras import default_ocr

DPBENCH = ROOT.parent / "shared" / "bench" / "dpbench" / "pdfs"
ONE_PAGES = 5  # DP-Bench pages, each a cold one-page command
REPEAT = 5


def _env(ocr: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SIFTPDF_OCR"}
    return {**env, "SIFTPDF_OCR": ocr} if ocr else env


def _cmd(path: object, markdown: bool) -> list[str]:
    return SIFTPDF + ["extract", "--no-cache", "--max-pages", "5000", *(["--markdown"] if markdown else []), str(path)]


def _pair(paths: list[object], repeat: int) -> tuple[float, float, bool]:
    """Median seconds (summed over ``paths``) with --ocr never and with the default, run in
    turn; and whether each path's output was the same bytes."""
    never: list[float] = []
    default: list[float] = []
    for _ in range(repeat):
        for runs, ocr in ((never, "never"), (default, None)):
            runs.append(sum(time_once(_cmd(path, True), env=_env(ocr))[0] for path in paths))
    same = all(subprocess.run(_cmd(path, True), capture_output=True, env=_env("never")).stdout
               == subprocess.run(_cmd(path, True), capture_output=True, env=_env(None)).stdout for path in paths)
    return statistics.median(never), statistics.median(default), same


def run() -> None:
    compiled()
    if default_ocr() != "auto":
        print("ocr_default: no OCR engine is installed, so the default is never; nothing to compare")
        return
    files = _fixtures()
    cases: list[tuple[str, list[object], int]] = []
    pages = sorted(DPBENCH.glob("*.pdf"))[:ONE_PAGES] if DPBENCH.is_dir() else []
    if pages:
        cases.append((f"{len(pages)} DP-Bench pages, one cold command each (summed)", list(pages), REPEAT))
    cases += [(f"paper {name.split('/')[-1][:40]}", [CORPUS / name], REPEAT) for name in PAPERS
              if (CORPUS / name).exists()]
    cases.append(("dense report, 2,100 pages", [files["dense"]], 3))
    rows = []
    for label, paths, repeat in cases:
        never, default, same = _pair(paths, repeat)
        rows.append([label, f"{never * 1000:.0f} ms", f"{default * 1000:.0f} ms", f"{default / never:.2f}x",
                     "yes" if same else "NO"])
    table("Text pages under the default --ocr auto (the ocr extra installed) against --ocr never: "
          "siftpdf extract --no-cache --markdown, the two run in turn (median); target: the same "
          "bytes, ≤ 1.05x the time",
          ["documents", "--ocr never", "default (auto)", "default / never", "same output"], rows)


if __name__ == "__main__":
    run()
