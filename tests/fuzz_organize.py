"""Fuzz organization for a while: the properties of tests/test_organize_fuzz.py (no page fails,
no word is lost, cost in proportion to the input) with many more examples, drawn at random
afresh each round, until --seconds have passed or a property fails.

A failure prints its example and a ``@reproduce_failure`` line; the fix goes into
siftpdf/organize/__init__.py or siftpdf/organize/layout.py, the example into the test file as an ``@example``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).parent


def fuzz_round(examples: int) -> int:
    env = {**os.environ, "SIFTPDF_FUZZ_EXAMPLES": str(examples)}
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
               str(TESTS / "test_organize_fuzz.py")]
    return subprocess.run(command, env=env, cwd=TESTS.parent).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="keep starting rounds until then")
    parser.add_argument("--examples", type=int, default=300, help="examples per property in a round")
    args = parser.parse_args()
    deadline = time.monotonic() + args.seconds
    rounds = 0
    while not rounds or time.monotonic() < deadline:
        rounds += 1
        code = fuzz_round(args.examples)
        if code:
            print(f"fuzz_organize: a property failed in round {rounds}", file=sys.stderr)
            return code
    print(f"fuzz_organize: {rounds} round(s) of {args.examples} examples per property, no failure",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
