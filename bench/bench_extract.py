"""Cold extraction (--no-cache) against pdftotext -layout, measured in the same run (issue targets:
2,100 pages at most 1.5x pdftotext and 150 MB; 1 page under 250 ms; --help under 100 ms)."""

from __future__ import annotations

import sys

from bench.common import CORPUS, DATA, ROOT, SIFTPDF, have, measure, table


def _fixtures() -> dict[str, object]:
    sys.path.insert(0, str(ROOT / "tests"))
    import make_fixtures

    DATA.mkdir(parents=True, exist_ok=True)
    big = DATA / "big_2100.pdf"
    if not big.exists():
        big.write_bytes(make_fixtures.big_doc())
    one = DATA / "one_page.pdf"
    if not one.exists():
        one.write_bytes(make_fixtures.pages_doc(1, "One"))
    return {"big": big, "one": one}


def _largest_book() -> object | None:
    books = sorted((p for p in (CORPUS / "long").glob("*.pdf")), key=lambda p: p.stat().st_size)
    return books[-1] if books else None


def run() -> None:
    files = _fixtures()
    docs = [("2,100-page fixture", files["big"])]
    book = _largest_book()
    if book is not None:
        docs.append((f"largest corpus book ({book.name})", book))
    rows = []
    for label, path in docs:
        cold = SIFTPDF + ["extract", "--no-cache", "--max-pages", "5000", str(path)]
        raw, organized = measure(cold + ["--raw"]), measure(cold)
        if have("pdftotext"):
            peer = measure(["pdftotext", "-layout", str(path), "/dev/null"])
            ratio = f"{raw.seconds / peer.seconds:.2f}x / {organized.seconds / peer.seconds:.2f}x"
            peer_row = peer.row()
        else:
            ratio, peer_row = "n/a", "pdftotext missing"
        rows.append([label, raw.row(), organized.row(), peer_row, ratio])
    table("Cold extract: siftpdf extract (--raw, and organized as by default) vs pdftotext -layout "
          "(median of 5, peak RSS of the process tree)",
          ["document", "siftpdf --raw", "siftpdf (organized)", "pdftotext -layout", "time ratio raw / org"], rows)

    one = measure(SIFTPDF + ["extract", "--no-cache", "--raw", str(files["one"])], repeat=7)
    help_ = measure(SIFTPDF + ["--help"], repeat=7)
    peer_one = None
    if have("pdftotext"):
        peer_one = measure(["pdftotext", "-layout", str(files["one"]), "/dev/null"], repeat=7)
    table("Start-up", ["command", "siftpdf", "target", "pdftotext"], [
        ["extract --raw, 1-page PDF", one.row(), "< 250 ms", peer_one.row() if peer_one else "n/a"],
        ["--help", help_.row(), "< 100 ms", ""],
    ])


if __name__ == "__main__":
    run()
