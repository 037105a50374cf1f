"""The page renderer of a view, by its name: the Markdown view's is imported only when asked
for, so that the text view's readers (the console's fast path) stay light; and the text view
need not know the Markdown view, which is built on it."""

from __future__ import annotations

from .text import render_page

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .text import PageRenderer


def page_renderer(output: str) -> PageRenderer:
    """``render_page`` of the view named ``output``: ``markdown`` (docs/manual.md, MARKDOWN VIEW)
    or the text view."""
    if output == "markdown":
        from .markdown import render_page as markdown_page

        return markdown_page
    return render_page
