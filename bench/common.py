"""Measuring helpers shared by the benchmarks: wall time and peak memory of a process tree."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "bench" / ".data"
# Generated documents the benches share (tests/make_fixtures.py), made once into DATA.
FIXTURES: dict[str, tuple[str, Callable[[Any], bytes]]] = {
    "big": ("big_2100.pdf", lambda make: make.big_doc()),
    "dense": ("dense_2100.pdf", lambda make: make.dense_doc()),
    "one": ("one_page.pdf", lambda make: make.pages_doc(1, "One")),
}


def fixture(key: str) -> Path:
    """The generated document ``key`` of FIXTURES, made on first use."""
    name, maker = FIXTURES[key]
    path = DATA / name
    if not path.exists():
        sys.path.insert(0, str(ROOT / "tests"))
        import make_fixtures

        DATA.mkdir(parents=True, exist_ok=True)
        path.write_bytes(maker(make_fixtures))
    return path
# The console script users run (python -m siftpdf where it is not installed).
_SCRIPT = Path(sys.executable).with_name("siftpdf")
SIFTPDF = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "siftpdf"]


@dataclass
class Measure:
    seconds: float  # median wall time
    peak_mb: float  # peak resident memory of the whole process tree, summed

    def row(self) -> str:
        return f"{self.seconds * 1000:8.0f} ms {self.peak_mb:7.1f} MB"


def tree_rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, summed (kB)."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            with open(f"/proc/{current}/task/{current}/children") as children:
                stack.extend(int(c) for c in children.read().split())
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total


def run_once(cmd: list[str], stdin_path: Path | None = None,
             env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall seconds, peak tree RSS (MB, sampled every 5 ms) and the exit code of one run
    (in ``env``, else this process's environment)."""
    wall, _, peak, code = run_tree(cmd, stdin_path, env)
    return wall, peak, code


def run_tree(cmd: list[str], stdin_path: Path | None = None, env: dict[str, str] | None = None,
             sample: bool = True) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds of the whole process tree (user and system, the children it
    reaped included), peak tree RSS (MB, sampled every 5 ms; 0 without ``sample``, whose
    sampling costs the machine a little) and the exit code of one run (in ``env``, else this
    process's environment)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**(os.environ if env is None else env), "NO_COLOR": "1"})
    peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG if sample else 0)
        if pid:
            break
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.005)
    elapsed = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if stdin_path:
        stdin.close()  # type: ignore[union-attr]
    return elapsed, usage.ru_utime + usage.ru_stime, peak / 1024, proc.returncode


def time_once(cmd: list[str], stdin_path: Path | None = None,
              env: dict[str, str] | None = None) -> tuple[float, int]:
    """Wall seconds and exit code of one run, with nothing else watching it (in ``env``, else
    this process's environment)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    started = time.perf_counter()
    code = subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=env).returncode
    elapsed = time.perf_counter() - started
    if stdin_path:
        stdin.close()  # type: ignore[union-attr]
    return elapsed, code


def measure(cmd: list[str], repeat: int = 5, stdin_path: Path | None = None) -> Measure:
    """Median wall time of ``repeat`` plain runs, then one sampled run for peak memory."""
    runs = [time_once(cmd, stdin_path) for _ in range(repeat)]
    failed = [code for _, code in runs if code not in (0, 1)]
    if failed:
        raise RuntimeError(f"{' '.join(cmd)} exited {failed[0]}")
    _, peak, _ = run_once(cmd, stdin_path)
    return Measure(statistics.median(r[0] for r in runs), peak)


def compiled() -> None:
    """Installed packages carry compiled bytecode; so does this tree once this has run,
    whatever PYTHONDONTWRITEBYTECODE says, so start-up is measured as users get it."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "siftpdf")], check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                   stdout=subprocess.DEVNULL)


def compiled_env() -> dict[str, str]:
    """This process's environment with the compiled copy tools/compiled.py builds (as ``pip
    install .`` builds siftpdf: organization with mypyc, the evidence's loops in C) first on the
    import path; RuntimeError (with the compiler's words) where it cannot be built. A command
    run with it must not put a source tree before it (``-P``, or the installed script)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sys.path.insert(0, str(ROOT / "tools"))
    import compiled as tools_compiled

    return {**env, "PYTHONPATH": str(tools_compiled.build())}


def have(tool: str) -> bool:
    from shutil import which

    return which(tool) is not None


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    print(f"\n## {title}\n")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=False)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)) + " |")


def sections(doc: str) -> dict[str, str]:
    """A markdown document's ``## `` sections by heading line, each with its text."""
    found: dict[str, str] = {}
    for part in ("\n" + doc).split("\n## ")[1:]:
        heading = "## " + part.split("\n", 1)[0]
        found[heading] = "## " + part.rstrip("\n") + "\n"
    return found


def write_keeping_others(path: Path, text: str) -> None:
    """Write ``text`` to the markdown file at ``path``, keeping the sections of the file that
    ``text`` does not have (those other benchmarks write, and hand-written ones) after it."""
    old = sections(path.read_text()) if path.exists() else {}
    kept = [body for heading, body in old.items() if heading not in sections(text)]
    path.write_text("\n".join([text.rstrip("\n") + "\n", *kept]))


def replace_section(path: Path, section: str, text: str) -> None:
    """Put ``text`` in the markdown file at ``path`` in place of the section whose heading line
    is ``section`` (up to the next ``## `` heading), or at its end when it has none."""
    doc = path.read_text() if path.exists() else ""
    if section in doc:
        head, _, rest = doc.partition(section)
        tail = rest[rest.find("\n## "):] if "\n## " in rest else ""
        doc = head + text + tail
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    path.write_text(doc)
