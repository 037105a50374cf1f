"""Everything that runs inside the extraction child (``python -I -S``, :mod:`siftpdf.child.main`):
the entry point, PDFium's engine and evidence, extraction page by page, OCR. The parent
imports a few of its helpers (the page tally, the OCR engine's presence) and nothing that
parses a PDF."""
