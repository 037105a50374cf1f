"""Scanned pages read as articles: each test scan organized by `siftpdf extract --ocr auto`
beside the same page organized from its text layer, in the whole command.

    python bench/run.py scan_article

The scans come from tests/make_scans.py (corpus pages rendered at 300 dpi, turned 0.5-1.5
degrees, grained, stored as JPEG in image-only PDFs). For each English page: the blocks of the
organized scan against the text layer's (the article's shape: a block a printed line gives a
large ratio), its headings as the text layer's, the words the text layer breaks over two lines
that the scan reads whole, the raw text's character error rate in reading order (`--raw`: the
engine's order), and the command's wall time. Then a ruled table scanned at 200 dpi (its cells
read alike to the text layer's table) and a page scanned whole with its footer left in the text
layer (`auto` reads it; recall of the page's words).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import make_scans  # noqa: E402

TABLE = make_scans.Source("forms-tables/examples_pdfs_ca-warn-report.pdf", 0, "en", "warn")


def _pages(*args: str) -> tuple[list[dict[str, Any]], float]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "siftpdf", "extract", "--no-cache", *args], cwd=ROOT,
                         capture_output=True, text=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"page"')], time.perf_counter() - start


def _text_layer(source: make_scans.Source) -> dict[str, Any]:
    pages, _ = _pages("--ocr", "never", "--max-pages", str(source.page + 1), str(make_scans.CORPUS / source.path))
    return pages[source.page]


def _cells(record: dict[str, Any]) -> list[str]:
    return [c["text"] for b in record["blocks"] if b["kind"] == "table" for row in b["rows"] for c in row]


def _headings(record: dict[str, Any]) -> list[str]:
    return [b["text"] for b in record["blocks"] if b["kind"] == "heading"]


def english(folder: Path) -> None:
    print("| page | blocks scan / text layer | headings alike | words hyphenated across lines read whole "
          "| raw CER, engine order | wall s |")
    print("|---|---|---|---|---|---|")
    for source in make_scans.ENGLISH:
        scan = make_scans.scan(source, dpi=300)
        path = folder / f"{source.label}.pdf"
        path.write_bytes(scan.pdf)
        (page,), seconds = _pages("--ocr", "auto", str(path))
        (raw,), _ = _pages("--ocr", "auto", "--raw", str(path))
        layer = _text_layer(source)
        broken = ["".join(parts).lower() for parts in re.findall(r"(\w+)\ufffe\s*(\w+)", scan.reference)]
        read = set(re.findall(r"\w+", " ".join(b["text"] for b in page["blocks"]).lower()))
        whole = f"{sum(w in read for w in broken)}/{len(broken)}" if broken else "-"
        print(f"| {source.label} | {len(page['blocks'])} / {len(layer['blocks'])} "
              f"({len(page['blocks']) / max(1, len(layer['blocks'])):.2f}) | "
              f"{'yes' if _headings(page) == _headings(layer) else 'no'} | {whole} | "
              f"{make_scans.cer(raw['text'], scan.reference):.4f} | {seconds:.1f} |")


def table(folder: Path) -> None:
    scan = make_scans.scan(TABLE, dpi=200)
    path = folder / "table.pdf"
    path.write_bytes(scan.pdf)
    (page,), _ = _pages("--ocr", "auto", str(path))
    expected, read = _cells(_text_layer(TABLE)), _cells(page)
    alike = sum((Counter(expected) & Counter(read)).values())
    print(f"\nruled table scanned at 200 dpi ({TABLE.path}): {alike} of the text layer's {len(expected)} cells "
          f"read alike; {sum('|' in t or '[' in t for t in read)} cells with a rule read as a mark")


def footer(folder: Path) -> None:
    scan = make_scans.scan_with_footer()
    path = folder / "footer.pdf"
    path.write_bytes(scan.pdf)
    (page,), _ = _pages("--ocr", "auto", str(path))
    words = Counter(re.findall(r"\w+", scan.reference.lower()))
    texts = [b["text"] for b in page["blocks"]] + [f["text"] for f in page.get("furniture", [])]  # the footer set aside
    read = Counter(re.findall(r"\w+", " ".join(texts).lower()))
    print(f"page scanned whole, its footer in the text layer: {sum((words & read).values()) / sum(words.values()):.1%}"
          f" of its words read (the body and what is set aside); regions read {page.get('ocr', {}).get('regions')}")


def run() -> None:
    if not make_scans.CORPUS.is_dir():
        print("scan_article: ../shared/corpus is absent; skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        english(folder)
        table(folder)
        footer(folder)


if __name__ == "__main__":
    run()
