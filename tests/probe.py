"""Run one extraction as a real parent process and report what a user would notice, as JSON.

    python tests/probe.py FILE [--deadline S] [--memory-limit MIB] [--max-pages N]

Prints one JSON object: the outcome (``ok`` or the error code), exit code the CLI would use,
the message, pages and engines from ``done``, wall time, peak RSS of this parent and of the
largest child (which counts this parent's size when it was started), and any process of the
extraction still alive afterwards (there must be none).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any


def _sessions() -> dict[int, int]:
    """pid → session id of every process we can see."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(entry)] = int(fields[3])
    return found


def _own_peak_kib() -> int:
    """This process's peak RSS since exec (VmHWM). ru_maxrss would also count the high-water mark
    of whatever process forked us, before the exec."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def probe(path: Path, deadline: float, memory_mib: int, max_pages: int) -> dict[str, Any]:
    from siftpdf.child.job import Job
    from siftpdf.docstream import require_text
    from siftpdf.errors import SiftError
    from siftpdf.options import Limits
    from siftpdf.workers import runner

    started_pids: list[int] = []
    start = runner._Child.start.__func__  # type: ignore[attr-defined]

    def recording_start(cls: Any, argv: list[str], data: bytes, password: str | None, limit: int) -> Any:
        child = start(cls, argv, data, password, limit)
        started_pids.append(child.proc.pid)
        return child

    runner._Child.start = classmethod(recording_start)  # type: ignore[method-assign, assignment]
    limits = Limits(deadline=deadline, memory=memory_mib << 20)
    data = path.read_bytes()
    result: dict[str, Any] = {"file": path.name, "bytes": len(data)}
    t0 = time.monotonic()
    pages: list[dict[str, Any]] = []
    try:
        for record in require_text(runner.run_child(data, None, limits, Job(max_pages=max_pages))):
            if "page" in record:
                pages.append({k: record.get(k) for k in ("page", "status", "engine")})
            elif "done" in record:
                result["done"] = record["done"]
            elif "meta" in record:
                result["pages"] = record["meta"]["pages"]
        result["outcome"], result["exit"] = "ok", 0
    except SiftError as error:
        result["outcome"], result["exit"], result["message"] = error.code, error.exit_code, error.message
    result["seconds"] = round(time.monotonic() - t0, 2)
    result["page_status"] = [p["status"] for p in pages[:10]]
    result["parent_peak_mib"] = round(_own_peak_kib() / 1024, 1)
    result["child_peak_mib"] = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)
    sessions = _sessions()
    result["children"] = len(started_pids)
    result["left_over"] = sorted(pid for pid, sid in sessions.items() if pid in started_pids or sid in started_pids)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--deadline", type=float, default=20.0)
    parser.add_argument("--memory-limit", type=int, default=2048)
    parser.add_argument("--max-pages", type=int, default=2000)
    args = parser.parse_args()
    print(json.dumps(probe(args.file, args.deadline, args.memory_limit, args.max_pages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
