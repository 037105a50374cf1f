"""The page renderer of a view, by its name, and a document written as one of the views or
as its doc stream (``siftpdf extract``'s output): the Markdown view's is imported only when asked
for, so that the text view's readers (the console's fast path) stay light; and the text view
need not know the Markdown view, which is built on it."""

from __future__ import annotations

from .text import render_page

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..document import Document
    from .text import PageRenderer


def page_renderer(output: str) -> PageRenderer:
    """``render_page`` of the view named ``output``: ``markdown`` (docs/manual.md, MARKDOWN VIEW)
    or the text view."""
    if output == "markdown":
        from .markdown import render_page as markdown_page

        return markdown_page
    return render_page


def write_document(doc: Document, output: str, write: Callable[[str], object],
                   on_page: Callable[[dict[str, Any]], None] | None = None) -> None:
    """Write ``doc`` as its doc stream (``output`` ``json``: meta, pages, done, one line per
    call of ``write``) or as its text or Markdown view (one page per call): what ``siftpdf
    extract`` writes, to stdout or to a file. ``on_page`` sees each page record before it is
    written (and may take fields off it)."""
    if output != "json":
        render_page = page_renderer(output)
        for index, record in enumerate(doc.pages()):
            if on_page is not None:
                on_page(record)
            write(render_page(record, index == 0))
        return
    from ..docline import dumps  # the doc stream's writer: not the text view's readers' import

    write(dumps({"meta": doc.meta}) + "\n")
    for record in doc.pages():
        if on_page is not None:
            on_page(record)
        write(dumps(record) + "\n")
    write(dumps({"done": doc.done or {}}) + "\n")
