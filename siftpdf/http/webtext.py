"""Readable text of an HTML page: the words a reader sees, without scripts, styles and the
page's furniture (navigation, header, footer)."""

from __future__ import annotations

import re

_DROP = ("script", "style", "noscript", "template", "svg", "canvas", "iframe", "nav", "header", "footer",
         "aside", "form")
_BLOCKS = ("p", "div", "section", "article", "main", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol",
           "table", "tr", "pre", "blockquote", "dl", "dt", "dd", "figure", "figcaption", "hr")
_BLANKS = re.compile(r"\n\s*\n\s*")
_SPACES = re.compile(r"[ \t\r\f\v]+")


def html_text(html: str) -> tuple[str, str]:
    """``(title, text)`` of an HTML document; paragraphs end with a blank line."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    for tag in soup(_DROP):
        tag.decompose()
    if soup.head:
        soup.head.decompose()
    body = soup.find("main") or soup.find("article") or soup.body or soup
    for tag in body.find_all(_BLOCKS):
        tag.insert_before("\n\n")
        tag.insert_after("\n\n")
    for tag in body.find_all("br"):
        tag.replace_with("\n")
    lines = (_SPACES.sub(" ", line).strip() for line in body.get_text().splitlines())
    text = _BLANKS.sub("\n\n", "\n".join(lines)).strip()
    return title, text + "\n" if text else ""
