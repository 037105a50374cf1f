"""Time and peak memory of siftpdf on each hostile fixture (tests/make_hostile.py).

    python bench/hostile.py                       # print the table
    python bench/hostile.py --into docs/bakeoff.md  # replace that file's "Hostile inputs" section

Each fixture runs through tests/probe.py: a real parent process extracting with the default
limits (deadline 20 s here, memory 2 GiB), reporting the outcome, wall time, the parent's and the
children's peak RSS, and any process left behind.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"
sys.path.insert(0, str(TESTS))
sys.path.insert(0, str(HERE.parent))  # bench.common, when run as a script

import make_hostile  # noqa: E402

OUT = HERE / ".data" / "hostile"
SECTION = "## Hostile inputs"


def probe(path: Path, *args: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, str(TESTS / "probe.py"), str(path), *args],
                          capture_output=True, timeout=120)
    if proc.returncode != 0:
        return {"outcome": "probe failed", "message": proc.stderr.decode()[-200:]}
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def table() -> str:
    paths = make_hostile.write_all(OUT)
    hog = OUT / "memory_hog.pdf"
    if not hog.exists():
        hog.write_bytes(make_hostile.memory_hog())
    runs = [(name, path, ()) for name, path in paths.items()]
    runs += [("memory_hog", hog, ()), ("memory_hog, --memory-limit 256", hog, ("--memory-limit", "256"))]
    lines = [SECTION, "",
             "Made by `python bench/hostile.py --into docs/bakeoff.md`. Each generated fixture "
             "(tests/make_hostile.py) through the real parent and child, deadline 20 s, memory limit 2 GiB "
             "unless shown. Peak memory is RSS: the parent's since it started (VmHWM), the largest extraction "
             "child's from ru_maxrss (which includes the parent's size when the child was started). Outcome is "
             "what the command reports.", "",
             "| fixture | bytes | outcome | pages ok / failed | engines | seconds | parent MiB | child MiB "
             "| left over |", "|---|---|---|---|---|---|---|---|---|"]
    for name, path, args in runs:
        r = probe(path, "--deadline", "20", *args)
        done = r.get("done") or {}
        pages = f"{sum(done.get('engines', {}).values())} / {done.get('pages_failed', 0)}" if done else "–"
        outcome = r["outcome"] if r["outcome"] == "ok" else f"{r['outcome']}: {r.get('message', '')[:70]}"
        lines.append(f"| {name} | {path.stat().st_size:,} | {outcome} | {pages} | {done.get('engines', '')} | "
                     f"{r.get('seconds', '')} | {r.get('parent_peak_mib', '')} | {r.get('child_peak_mib', '')} | "
                     f"{len(r.get('left_over', []))} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--into", type=Path, help="markdown file whose hostile section to replace or add")
    args = parser.parse_args()
    text = table()
    if not args.into:
        sys.stdout.write(text)
        return 0
    from bench.common import replace_section

    replace_section(args.into, SECTION, text)
    print(f"hostile: wrote {args.into}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
