"""siftpdf's organized Markdown beside the rule-based parsers a user would pick instead,
measured in the same run (whole processes: start, imports, reading, writing):
pdf-inspector (Rust, on PyPI) and, where installed, liteparse. Targets (pdf-inspector's run
is the yardstick):

- the dense 2,100-page report: wall ≤ 1.0×, CPU of the whole process tree ≤ 1.5×, peak
  memory of the process tree ≤ 0.5×;
- papers of 15-25 pages: wall ≤ 1.0×;
- one page, cold, default flags (a cache miss): ≤ 1.2× pdf-inspector's whole process, and
  no slower than ``--no-cache``.

siftpdf runs twice: as the editable install runs it (its modules as Python) and as ``pip
install .`` builds it where a C compiler is at hand (organization compiled with mypyc, the
evidence's busiest loops in C: the copy tools/compiled.py builds, first on the import path).

    .venv/bin/python bench/run.py peers
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.common import CORPUS, ROOT, SIFTPDF, compiled, compiled_env, fixture, run_tree, table
from siftpdf.store.behind import wait_all
from siftpdf.system import APP

PAPERS = ["paper/data_structures_epidemic-broadcast-trees.pdf",  # 22 pages
          "paper/datastores_dynamo-amazons-highly-available-key-value-store.pdf"]  # 16 pages
DPBENCH = ROOT.parent / "shared" / "bench" / "dpbench" / "pdfs"
SINGLE_PAGES = 15  # DP-Bench pages, each read once a round
PDF_INSPECTOR = "import sys, pdf_inspector; sys.stdout.write(pdf_inspector.process_pdf(sys.argv[1]).markdown or '')"


class Run:
    """One process's wall seconds, CPU seconds of its whole tree (user and system, children
    reaped included) and the peak resident memory of its tree in MB."""

    def __init__(self, wall: float, cpu: float, peak_mb: float) -> None:
        self.wall, self.cpu, self.peak_mb = wall, cpu, peak_mb


def _once(cmd: list[str], env: dict[str, str] | None = None, sample: bool = False) -> Run:
    """``cmd`` once, its output thrown away; with ``sample`` its tree's memory sampled (the
    times of such a run are not the ones used)."""
    wall, cpu, peak, code = run_tree(cmd, env=env, sample=sample)
    if code not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {code}")
    return Run(wall, cpu, peak)


def _median(runs: list[Run]) -> Run:
    return Run(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs),
               max((r.peak_mb for r in runs), default=0.0))


def _peers() -> dict[str, list[str]]:
    found = {}
    try:
        import pdf_inspector  # noqa: F401
        found["pdf-inspector"] = [sys.executable, "-c", PDF_INSPECTOR]
    except ImportError:
        pass
    try:
        import liteparse  # noqa: F401
        found["liteparse"] = [sys.executable, "-m", "liteparse.cli", "parse", "--format", "markdown", "--no-ocr", "-q"]
    except ImportError:
        pass
    return found


def _ratio(ours: float, peer: float | None, target: float) -> str:
    if not peer:
        return "n/a"
    ratio = ours / peer
    return f"{ratio:.2f}x {'ok' if ratio <= target else 'OVER'} (≤ {target}x)"


def _builds() -> dict[str, dict[str, str]]:
    """siftpdf as the editable install runs it (Python), and the compiled copy tools/compiled.py
    builds as `pip install .` does (first on the import path), when it can be built."""
    builds = {"siftpdf": {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}}
    try:
        builds["siftpdf compiled"] = compiled_env()
    except RuntimeError as exc:
        print(f"no compiled copy: {exc}")
    return builds


def _one_page(peers: dict[str, list[str]], builds: dict[str, dict[str, str]], rounds: int = 3) -> None:
    pages = sorted(DPBENCH.glob("*.pdf"))[:SINGLE_PAGES]
    if not pages:
        return
    times: dict[str, list[float]] = {"python -c pass": []}
    for name in builds:
        for what in ("default flags (cache miss)", "its copy writing the cache, after it", "--no-cache", "cache hit"):
            times[f"{name}, {what}"] = []
    times.update({name: [] for name in peers})
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(rounds):
            for page in pages:  # each engine in turn on one page, so the machine's moods fall on all
                times["python -c pass"].append(_once([sys.executable, "-c", "pass"]).wall)
                for name, env in builds.items():
                    # A cache folder already in use (its index made) without the page: a miss, then a hit.
                    # Default flags: the folder is the platform's (XDG's here), not named by an option.
                    cached = {**{key: value for key, value in env.items() if key != "SIFTPDF_CACHE_DIR"},
                              "XDG_CACHE_HOME": str(Path(tmp) / f"{name}{index}")}
                    folder = str(Path(tmp) / f"{name}{index}" / APP)  # system.default_cache_dir's rule
                    if page == pages[0]:
                        _once(SIFTPDF + ["extract", "--markdown", str(ROOT / "samples" / "sample.pdf")], cached)
                        wait_all(folder)
                    command = SIFTPDF + ["extract", "--markdown", str(page)]
                    times[f"{name}, default flags (cache miss)"].append(_once(command, cached).wall)
                    # A first read's cache writes are made by a copy of the command once it has
                    # printed (siftpdf/store/behind.py): timed here, apart, and waited for, so
                    # that no command below shares the cores with it.
                    started = time.perf_counter()
                    wait_all(folder)
                    times[f"{name}, its copy writing the cache, after it"].append(time.perf_counter() - started)
                    times[f"{name}, cache hit"].append(_once(command, cached).wall)
                    times[f"{name}, --no-cache"].append(
                        _once(SIFTPDF + ["extract", "--no-cache", "--markdown", str(page)], env).wall)
                for name, cmd in peers.items():
                    times[name].append(_once(cmd + [str(page)]).wall)
            for name in builds:
                shutil.rmtree(Path(tmp) / f"{name}{index}", ignore_errors=True)
    median = {name: statistics.median(values) for name, values in times.items() if values}
    inspector = median.get("pdf-inspector")
    rows = [[name, f"{seconds * 1000:.1f} ms",
             f"{seconds / inspector:.2f}x" if inspector and "copy" not in name else "n/a"]
            for name, seconds in median.items()]
    table(f"One page, cold: extract --markdown of {len(pages)} DP-Bench pages, each in turn beside the peers "
          f"({rounds} rounds, median)", ["command", "wall", "/ pdf-inspector"], rows)
    for name in builds:
        miss, bare = median[f"{name}, default flags (cache miss)"], median[f"{name}, --no-cache"]
        print(f"\n{name} targets: default flags {_ratio(miss, inspector, 1.2)} pdf-inspector; default flags / "
              f"--no-cache {miss / bare:.2f}x {'ok' if miss <= bare * 1.05 else 'OVER'} (≤ 1.0x)")


def _documents(peers: dict[str, list[str]], builds: dict[str, dict[str, str]]) -> None:
    docs = [(f"paper, {name.split('/')[-1][:28]}", CORPUS / name, 5) for name in PAPERS if (CORPUS / name).exists()]
    docs.append(("dense report, 2,100 pages", fixture("dense"), 3))
    ours = SIFTPDF + ["extract", "--no-cache", "--markdown", "--max-pages", "5000"]
    engines: dict[str, tuple[list[str], dict[str, str] | None]] = {name: (ours, env) for name, env in builds.items()}
    engines.update({name: (cmd, None) for name, cmd in peers.items()})
    rows = []
    for label, path, repeat in docs:
        measured: dict[str, list[Run]] = {name: [] for name in engines}
        for _ in range(repeat):  # by turns
            for name, (cmd, env) in engines.items():
                measured[name].append(_once(cmd + [str(path)], env))
        peaks = {name: _once(cmd + [str(path)], env, sample=True).peak_mb for name, (cmd, env) in engines.items()}
        results = {name: _median(runs) for name, runs in measured.items()}
        inspector = results.get("pdf-inspector")
        dense = label.startswith("dense")
        for index, (name, result) in enumerate(results.items()):
            row = [label if index == 0 else "", name, f"{result.wall:.3f} s", f"{result.cpu:.3f} s",
                   f"{peaks[name]:.0f} MB"]
            if name in builds:
                row += [_ratio(result.wall, inspector and inspector.wall, 1.0),
                        _ratio(result.cpu, inspector and inspector.cpu, 1.5) if dense else "",
                        _ratio(peaks[name], inspector and peaks["pdf-inspector"], 0.5) if dense else ""]
            else:
                row += ["", "", ""]
            rows.append(row)
    table("Organized Markdown of whole documents (extract --markdown --no-cache), whole processes by turns "
          "(median wall and CPU of the process tree; peak memory of the tree in a run of its own)",
          ["document", "engine", "wall", "CPU", "peak", "wall / pdf-inspector", "CPU / pdf-inspector",
           "peak / pdf-inspector"], rows)


def run() -> None:
    compiled()
    peers = _peers()
    builds = _builds()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; peers: {', '.join(peers) or 'none'}; "
          f"siftpdf: {', '.join(builds)}")
    _one_page(peers, builds)
    _documents(peers, builds)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    run()
