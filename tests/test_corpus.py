"""Every real-world PDF in ../shared/corpus goes through extract with a documented exit code."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.check  # make check: a walk of the whole corpus

EXIT_CODES = {0, 3, 4, 5, 6, 7}  # docs/manual.md, EXIT STATUS: a PDF's own outcomes


def _extract(path: Path) -> tuple[Path, int, bytes]:
    proc = subprocess.run([sys.executable, "-m", "siftpdf", "extract", "--max-pages", "300", str(path)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    return path, proc.returncode, proc.stderr


def test_every_corpus_pdf_has_a_typed_outcome(corpus: Path) -> None:
    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
    assert len(files) > 100
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_extract, files))
    bad = [(p.name, code, err) for p, code, err in results
           if code not in EXIT_CODES or b"Traceback" in err or (code and not err.startswith(b"siftpdf: "))]
    for name, code, err in bad:  # (whole, in the report's captured output: a traceback's last line says what)
        print(f"{name}: exit {code}\n{err.decode(errors='replace')}")
    assert not bad, [(name, code, err[:200]) for name, code, err in bad]
    ok = sum(1 for _, code, _ in results if code == 0)
    assert ok > len(files) * 0.8  # the corpus is mostly readable documents
