"""`extract -o DIR` of ten corpus papers, cold (--no-cache), beside the same ten one after the
other (a shell loop of single extracts) and two at a time by xargs -P 2, measured in the same
run; and the rerun, where every stream is finished and skipped.

Target: the batch within 10 % of `xargs -P 2` (both keep the two cores busy), well under the
loop; the rerun starts no child.

    .venv/bin/python bench/run.py batch
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from pathlib import Path

from bench.common import CORPUS, SIFTPDF, measure, table

COUNT = 10


def _papers() -> list[Path]:
    return sorted((CORPUS / "paper").glob("*.pdf"))[:COUNT]


def run() -> None:
    papers = _papers()
    if len(papers) < COUNT:
        print(f"(skipped: fewer than {COUNT} papers in {CORPUS / 'paper'})")
        return
    work = Path(tempfile.mkdtemp(prefix="siftpdf-bench-batch-"))
    try:
        _measure(papers, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(papers: list[Path], work: Path) -> None:
    out = work / "out"
    command = " ".join(shlex.quote(word) for word in SIFTPDF)
    names = " ".join(shlex.quote(str(path)) for path in papers)
    fresh = f"rm -rf {out} && mkdir {out} && "
    batch = ["sh", "-c", fresh + f"{command} extract -q --no-cache -o {out} {names}"]
    loop = ["sh", "-c", fresh + f"for f in {names}; do {command} extract -q --no-cache \"$f\" "
                                f"> {out}/$(basename \"$f\" .pdf).jsonl; done"]
    pairs = ["sh", "-c", fresh + f"printf '%s\\n' {names} | xargs -P 2 -I{{}} sh -c "
                                 f"'{command} extract -q --no-cache \"$1\" > {out}/$(basename \"$1\" .pdf).jsonl' "
                                 "_ {}"]
    rows = []
    measured = {}
    for name, cmd in (("extract -o DIR (batch)", batch), ("xargs -P 2 extract", pairs),
                      ("for loop of extract", loop)):
        measured[name] = measure(cmd, repeat=3)
        rows.append([name, measured[name].row()])
    again = measure(["sh", "-c", f"{command} extract -q --no-cache -o {out} {names}"], repeat=3)
    rows.append(["extract -o DIR, all finished (rerun)", again.row()])
    ratio = measured["extract -o DIR (batch)"].seconds / measured["xargs -P 2 extract"].seconds
    table(f"{COUNT} papers, cold (--no-cache): batch {ratio:.2f}x xargs -P 2 "
          f"({'ok' if ratio <= 1.1 else 'OVER'} ≤ 1.1x)", ["command", "median wall, peak tree RSS"], rows)
