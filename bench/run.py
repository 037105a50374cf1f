"""`make bench`: every bench/bench_*.py module's run(), one after the other."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    sys.path.insert(0, str(ROOT))
    only = set(sys.argv[1:])
    for path in sorted((ROOT / "bench").glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if only and name not in only:
            continue
        print(f"\n# {name}")
        importlib.import_module(f"bench.{path.stem}").run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
