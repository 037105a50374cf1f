"""siftpdf: Unix-style filters that read PDFs safely and fast, with page citations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .docstream import Document
    from .sources import ReadOptions


def __getattr__(name: str) -> Any:
    # importlib.metadata costs ~30 ms: only pay for it when the version is asked for.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("siftpdf")
        except PackageNotFoundError:  # running from a source tree
            return "0.0.0"
    raise AttributeError(name)


def extract(data: bytes, *, password: str | None = None, max_pages: int = 2000,
            deadline: float = 60.0, in_process: bool = False) -> Iterator[dict[str, Any]]:
    """Extract PDF bytes into doc-stream records (meta, pages, done), in a child process.

    Raises a :class:`siftpdf.errors.SiftError` subclass when the document cannot be read.
    """
    from .runner import Limits
    from .sources import ReadOptions, open_pdf_bytes

    options = ReadOptions(limits=Limits(deadline=deadline, max_pages=max_pages),
                          password=password, in_process=in_process)
    with open_pdf_bytes(data, None, options) as doc:
        yield {"meta": doc.meta}
        yield from doc.pages()
        yield {"done": doc.done}


def open_doc(source: str | None, options: ReadOptions | None = None) -> Document:
    """Open a PDF path, doc-stream file or ``-`` as a :class:`siftpdf.docstream.Document`."""
    from .sources import open_source

    return open_source(source, options)
