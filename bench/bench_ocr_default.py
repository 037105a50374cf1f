"""What ``--ocr auto``, the default once the ocr extra is installed, costs pages that have a
text layer: the same cold commands with ``SIFTPDF_OCR=never`` and with the default, run in
turn (median of the runs), and whether they wrote the same bytes.

    python bench/run.py ocr_default

A text page is looked at for images large enough to be a scan (the evidence already lists
them) and nothing more: the OCR module is loaded only when a page is to be read. A page with a
large image no text lies over (a scanned half page, a screenshot of text, but also a photo) has
it read by design, which costs that page about half a second; the last column counts them.
"""

from __future__ import annotations

import os
import statistics
import subprocess

from bench.bench_extract import PAPERS
from bench.common import CORPUS, ROOT, SIFTPDF, compiled, fixture, table, time_once
from siftpdf.extras import default_ocr

DPBENCH = ROOT.parent / "shared" / "bench" / "dpbench" / "pdfs"
ONE_PAGES = 10  # DP-Bench pages, each a cold one-page command
REPEAT = 5


def _env(ocr: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SIFTPDF_OCR"}
    return {**env, "SIFTPDF_OCR": ocr} if ocr else env


def _cmd(path: object, markdown: bool) -> list[str]:
    return SIFTPDF + ["extract", "--no-cache", "--max-pages", "5000", *(["--markdown"] if markdown else []), str(path)]


def _pair(paths: list[object], repeat: int) -> tuple[float, float, bool, int]:
    """Median seconds (summed over ``paths``) with --ocr never and with the default, run in
    turn; whether each path's Markdown was the same bytes; and the pages whose pictures the
    default read (``ocr.regions``: a large image no text lies over)."""
    never: list[float] = []
    default: list[float] = []
    for _ in range(repeat):
        for runs, ocr in ((never, "never"), (default, None)):
            runs.append(sum(time_once(_cmd(path, True), env=_env(ocr))[0] for path in paths))
    same = all(subprocess.run(_cmd(path, True), capture_output=True, env=_env("never")).stdout
               == subprocess.run(_cmd(path, True), capture_output=True, env=_env(None)).stdout for path in paths)
    pictures = 0
    for path in paths:
        stream = subprocess.run(_cmd(path, False), capture_output=True, env=_env(None), text=True).stdout
        pictures += sum(1 for line in stream.splitlines() if line.startswith('{"page"') and '"regions"' in line)
    return statistics.median(never), statistics.median(default), same, pictures


def run() -> None:
    compiled()
    if default_ocr() != "auto":
        print("ocr_default: no OCR engine is installed, so the default is never; nothing to compare")
        return
    cases: list[tuple[str, list[object], int]] = []
    pages = sorted(DPBENCH.glob("*.pdf"))[:ONE_PAGES] if DPBENCH.is_dir() else []
    if pages:
        cases.append((f"{len(pages)} DP-Bench pages, one cold command each (summed)", list(pages), REPEAT))
    cases += [(f"paper {name.split('/')[-1][:40]}", [CORPUS / name], REPEAT) for name in PAPERS
              if (CORPUS / name).exists()]
    cases.append(("dense report, 2,100 pages", [fixture("dense")], 3))
    rows = []
    for label, paths, repeat in cases:
        never, default, same, pictures = _pair(paths, repeat)
        rows.append([label, f"{never * 1000:.0f} ms", f"{default * 1000:.0f} ms", f"{default / never:.2f}x",
                     "yes" if same else "NO", str(pictures)])
    table("Text pages under the default --ocr auto (the ocr extra installed) against --ocr never: "
          "siftpdf extract --no-cache --markdown, the two run in turn (median); target: the same "
          "bytes, ≤ 1.05x the time where no page has a large picture to read (a page that has one "
          "pays for its reading: about half a second)",
          ["documents", "--ocr never", "default (auto)", "default / never", "same Markdown",
           "pages whose pictures were read"], rows)


if __name__ == "__main__":
    run()
