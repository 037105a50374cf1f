"""The extraction child with test hooks: ``python -I hooked_child.py CONFIG ARGS…``. CONFIG is
a JSON object (see siftpdf_seams.py); ARGS are the real child's. The hooks are real faults:
a sleep, an abort of the process on a page, a line cut in half."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def _crash_on(cls: Any, pages: set[int]) -> None:
    original = cls.extract_page

    def extract_page(self: Any, index: int, *args: Any, **kwargs: Any) -> Any:
        if index + 1 in pages:
            os.abort()
        return original(self, index, *args, **kwargs)

    cls.extract_page = extract_page


def _stall_on(page: int) -> None:
    from siftpdf.child import extraction

    original = extraction.extract_records

    def extract_records(*args: Any, **kwargs: Any) -> Any:
        for record in original(*args, **kwargs):
            if record.get("page") == page:
                line = json.dumps(record).encode()
                sys.stdout.buffer.write(line[: len(line) // 2])
                sys.stdout.buffer.flush()
                time.sleep(3600)
            yield record

    extraction.extract_records = extract_records


def main() -> int:
    config = json.loads(sys.argv[1])
    from siftpdf.child import engines
    from siftpdf.child import main as _child

    if config.get("crash"):
        pages = {int(p) for p in str(config["crash"]).split(",")}
        _crash_on(engines.PdfiumDoc, pages)
        if config.get("crash_salvage"):
            _crash_on(engines.PypdfDoc, pages)
            _crash_on(engines.PlumberDoc, pages)
    if config.get("stall"):
        _stall_on(int(config["stall"]))
    if config.get("sleep"):
        time.sleep(float(config["sleep"]))
    return _child.main(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
