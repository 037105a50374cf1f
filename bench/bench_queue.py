"""A batch on a fresh cache: ``ls *.pdf | xargs -P 10 -n 1 siftpdf pages 1``, beside the same
ten documents run as two sequential halves of five (which the pool's line held before it
queued batches). Both should end with 10 of 10 done, at most 2 extraction children at any
moment, in about the same wall time.

    make bench                      # every benchmark
    .venv/bin/python bench/run.py queue

Each run gets an empty cache (every job extracts); the runs of the two ways alternate, and
the median of five is shown. Children are counted in one more run of each way, by walking
its process tree every 10 ms (tests/children.py: extraction children alive at one moment),
which costs CPU the timed runs do not pay.
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import CORPUS, ROOT, SIFTPDF, table

sys.path.insert(0, str(ROOT / "tests"))
import make_fixtures  # noqa: E402
from children import Watch  # noqa: E402

COUNT = 10
REPEAT = 5
MARK = b"--- page 1 ---"


def _documents(folder: Path) -> list[Path]:
    """Ten papers of the corpus (linked into ``folder``), or generated ones without it."""
    papers = sorted((CORPUS / "paper").glob("*.pdf"))[:COUNT] if (CORPUS / "paper").is_dir() else []
    if len(papers) < COUNT:
        made = []
        for index in range(COUNT):
            path = folder / f"doc{index:02d}.pdf"
            texts = {page: [f"Batch document {index}, page {page}, line {line}." for line in range(40)]
                     for page in range(1, 13)}
            path.write_bytes(make_fixtures.pages_doc(12, f"Batch document {index}", texts))
            made.append(path)
        return made
    linked = []
    for paper in papers:
        link = folder / paper.name
        link.symlink_to(paper)
        linked.append(link)
    return linked


def _run(script: str, folder: Path, cache: Path, watch: bool) -> tuple[float, int, int]:
    """Wall seconds, documents answered and (``watch``: sampled, else 0) peak children of one
    shell script in ``folder``."""
    env = {**os.environ, "SIFTPDF_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    started = time.perf_counter()
    proc = subprocess.Popen(["sh", "-c", script], cwd=folder, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    watcher = Watch(lambda: [proc.pid]) if watch else None
    out, _ = proc.communicate()
    elapsed = time.perf_counter() - started
    return elapsed, out.count(MARK), watcher.stop() if watcher else 0


def run() -> None:
    command = " ".join(shlex.quote(word) for word in SIFTPDF)
    each = f"xargs -n 1 {command} pages 1"
    ways = {
        "xargs -P 10 (one batch)": f"ls *.pdf | {each.replace('xargs', 'xargs -P 10')}",
        "two halves of xargs -P 5": (f"ls *.pdf | head -5 | {each.replace('xargs', 'xargs -P 5')}; "
                                     f"ls *.pdf | tail -n +6 | {each.replace('xargs', 'xargs -P 5')}"),
    }
    timed: dict[str, list[tuple[float, int, int]]] = {name: [] for name in ways}
    watched: dict[str, tuple[float, int, int]] = {}
    with tempfile.TemporaryDirectory(prefix="siftpdf-batch-") as tmp:
        folder = Path(tmp) / "pdfs"
        folder.mkdir()
        docs = _documents(folder)
        runs = 0
        for _ in range(REPEAT):  # the two ways alternate: a busy moment of the machine hits both
            for name, script in ways.items():
                runs += 1
                timed[name].append(_run(script, folder, Path(tmp) / f"cache-{runs}", watch=False))
        for name, script in ways.items():  # watching costs CPU: its own run, not timed
            runs += 1
            watched[name] = _run(script, folder, Path(tmp) / f"cache-{runs}", watch=True)
    rows = []
    for name, results in timed.items():
        seconds = statistics.median(r[0] for r in results)
        answered = min(r[1] for r in [*results, watched[name]])
        rows.append([name, f"{seconds * 1000:6.0f} ms", f"{answered} of {len(docs)}", str(watched[name][2])])
    base = statistics.median(r[0] for r in timed["two halves of xargs -P 5"])
    batch = statistics.median(r[0] for r in timed["xargs -P 10 (one batch)"])
    table(f"A batch of {len(docs)} documents on a fresh cache, `siftpdf pages 1` each (median of {REPEAT}; "
          f"the batch takes {batch / base:.2f}x the halves' time)",
          ["how", "wall time", "answered (fewest)", "most children at once (one watched run)"], rows)
