"""Headings and their levels: which lines are headings, and how deep each is.

A line is a heading candidate on its own look (``layout.start_kind``: larger than the body,
bold throughout, a numbered line in capitals), or by its place (``layout``: a run-in head at
a paragraph's start, a numbered or capitals line set apart). Here the page and the document
decide:

- a page where most lines would be headings has no headings by weight alone (a page of bold
  lines, a cover set in one bold face);
- the document's outline, when it has one, wins: a line whose text is an outline title on
  its page, with or without its label ('B.', '1)', 'Chapter 3'), is a heading at the
  outline's depth, and so is a title that opens a line run in;
- otherwise the level comes from the numbering (1 / 1.1 / 1.1.1, I. / A., Chapter, Section,
  第一章 / 第一节); an unnumbered heading set in the face (size and weight) of numbered or
  outline headings takes their level ('References' after '5 Results'); else the level is the
  rank of the heading's size among the heading sizes seen so far in the document (the largest
  is level 1). The document title (the largest unnumbered heading near the top of the first
  page, when the outline does not hold it) is level 1, and numbered headings and the outline's
  entries sit below it;
- a numbered heading the outline does not hold sits below the outline's entries set larger
  than it and no higher than those in its own face (the outline that holds only the title
  puts '1 Introduction' under it; a '1.' under a third-level head numbers steps), and one
  level under the heading its numbering nests it in ('1.1' under '1', wherever that went).

Levels are decided as pages stream past: the rank is a running one over a bounded set of sizes,
never the whole document.
"""

from __future__ import annotations

import unicodedata

from ..lazyre import IGNORECASE, lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HEADING_SHARE = 0.5  # a page whose lines are mostly "headings" has none by weight alone
MIN_BOUND_LINES = 6  # a short page (a title page, a slide) may be mostly heading
MAX_SIZES = 32  # distinct heading sizes remembered for the running rank
SIZE_STEP = 0.5  # points: sizes closer than this are one size
MAX_LEVEL = 6
TITLE_ZONE = 0.4  # the document title sits in the top 40% of the first page
OUTLINE_SPAN = 3  # lines an outline title may be set over

NUMBERING = lazy(r"^(?:(?P<arabic>\d{1,2}(?:\.\d{1,3})*)\.?|(?P<roman>[IVX]{1,5})\.|"
                 r"(?P<appendix>[A-H](?:\.\d{1,2})+)\.?|(?P<letter>[A-H])\.)(?=\s+\S)")
_NAMED = lazy(r"^(?P<word>chapter|part|book|section|appendix|annex)\s+[\dIVXivx]+\b", IGNORECASE)
_CJK_NAMED = lazy(r"^第[一二三四五六七八九十百千零〇两\d]+(?P<unit>[编部章节])")
_NAMED_DEPTH = {"part": 1, "book": 1, "chapter": 1, "appendix": 1, "annex": 1, "section": 2}
_CJK_DEPTH = {"编": 1, "部": 1, "章": 1, "节": 2}


def numbering_depth(text: str) -> int | None:
    """How deep a heading's own numbering puts it: '2' 1, '2.1' 2, '2.1.3' 3; 'IV.' 1 and 'B.' 2;
    an appendix's 'A.1' 2 and 'A.1.2' 3;
    'Chapter 3' 1, 'Section 2' 2; '第三章' 1, '第二节' 2. None for an unnumbered heading."""
    match = NUMBERING.match(text)
    if match:
        if match.group("arabic"):
            return match.group("arabic").count(".") + 1
        if match.group("appendix"):  # 'A.1', 'B.2.3': an appendix's sections, below its letter
            return match.group("appendix").count(".") + 1
        return 1 if match.group("roman") else 2
    named = _NAMED.match(text)
    if named:
        return _NAMED_DEPTH[named.group("word").lower()]
    cjk = _CJK_NAMED.match(text)
    return _CJK_DEPTH[cjk.group("unit")] if cjk else None


def normalized(text: str) -> str:
    """Text for matching titles: letters and digits only, case folded, compatibility forms
    (full-width, ligatures) unfolded."""
    return "".join(filter(str.isalnum, unicodedata.normalize("NFKC", text).casefold()))


# A heading's label before its title, as an outline may drop or keep it: a number ('2', '2.1',
# 'IV.', 'B.', '1)', '(a)') or a named one ('Chapter 3', 'Appendix B:').
_LABEL = lazy(r"^\s*(?:(?:chapter|part|book|section|appendix|annex)\s+[\dIVXivx]{1,5}[.:]?"
              r"|\(?(?:\d{1,2}(?:\.\d{1,3})*|[IVXivx]{1,5}|[A-Ha-h])[.)]|\d{1,2}(?:\.\d{1,3})*"
              r"|[A-H](?:\.\d{1,2})+\.?)(?=\s)", IGNORECASE)


def bare_key(text: str) -> str:
    """A title's text for matching (``normalized``) without its label: '1) Feature Extraction'
    and 'B. Datasets' match the outline's 'Feature Extraction' and 'Datasets'."""
    label = _LABEL.match(text)
    return normalized(text[label.end():]) if label else normalized(text)


class Outline:
    """The document outline's titles by page, normalized, with their depths."""

    def __init__(self, entries: Any = None) -> None:
        self.pages: dict[int, dict[str, int]] = {}
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            title, page, level = entry.get("title"), entry.get("page"), entry.get("level")
            if not isinstance(title, str) or not isinstance(page, int) or isinstance(page, bool):
                continue
            key = normalized(title)
            if len(key) < 2:
                continue
            depth = level if isinstance(level, int) and not isinstance(level, bool) and level > 0 else 1
            titles = self.pages.setdefault(page, {})
            titles.setdefault(key, depth)
            bare = bare_key(title)
            if len(bare) >= 2:
                titles.setdefault(bare, depth)

    def titles(self, page: int) -> dict[str, int]:
        return self.pages.get(page, {})


def outline_matches(texts: list[str], titles: dict[str, int]) -> dict[int, tuple[int, int]]:
    """Lines that set an outline title: index of the first line -> (lines it spans, depth).
    A title may run over up to three consecutive lines."""
    if not titles:
        return {}
    keys = [normalized(t) for t in texts]
    found: dict[int, tuple[int, int]] = {}
    index = 0
    while index < len(keys):
        joined = ""
        bare: str | None = None  # the first line's key without its label, once it is asked
        for span in range(1, OUTLINE_SPAN + 1):
            if index + span > len(keys):
                break
            joined += keys[index + span - 1]
            depth = titles.get(joined)
            if not depth:
                if bare is None:
                    bare = bare_key(texts[index])
                # A first line that is a label and no title words ('4 ]}.', a listing's last
                # line numbered) does not open the title below it.
                if bare:
                    depth = titles.get(bare + joined[len(keys[index]):])
            if depth and len(joined) >= 2:
                found[index] = (span, depth)
                break
        index += found[index][0] if index in found else 1
    return found


# A byline's names: parts apart by commas, semicolons, '&' or 'and'; marks of affiliations and
# notes ('Bogdanov1', 'Smith*', 'Gomez´') set against a name are no part of it.
_NAME_PARTS = lazy(r"\s*(?:[,;&]|\band\b)\s*")
_NAME_MARKS = lazy(r"(?:(?<=[^\W\d_])|(?<=[,;])|(?<!\S)(?=\S{1,2}(?!\S)))[\d*∗†‡§¶´`^~¹²³⁴⁵⁶⁷⁸⁹⁰]+")
NAME_WORDS = (2, 4)  # words in a person's name, initials counted: 'Ada Lovelace' to 'Maria de la Cruz'
PARTICLES = frozenset(("van", "von", "de", "der", "den", "da", "di", "del", "della", "du", "dos", "la", "le",
                       "bin", "ibn", "al", "y"))  # the small words a name may hold
NOT_NAMES = frozenset(("a", "an", "the", "of", "and", "in", "on", "for", "to", "with", "at", "by", "from", "chapter",
                       "part", "section", "appendix", "annex", "figure", "table"))  # words no name holds


def reads_as_names(text: str, under_title: bool = False) -> bool:
    """Is the line a list of people's names ('Nuala E. Tully, Karen M. Morgan, and Hannah M.
    McGee', 'Dmitry Bogdanov1, Nicolas Wack2'): two names or more, the first part one, and
    names for two thirds of its parts at the least (an affiliation may close it)? A title set
    as a list has words no name holds ('Prime Numbers, An Odyssey'), or opens with a phrase
    that is none; yet 'Data Collection, Model Training' reads as names too, so only names
    with an initial or a mark of affiliation count, unless the line sits right ``under_title``."""
    bare = _NAME_MARKS.sub("", text)
    parts = [p for p in _NAME_PARTS.split(bare) if any(c.isalnum() for c in p)]
    names = [_a_name(p) for p in parts]
    if len(parts) < 2 or not names[0] or 3 * sum(names) < 2 * len(parts) or sum(names) < 2:
        return False
    return under_title or bare != text or _INITIAL.search(text) is not None


def a_name(text: str) -> tuple[bool, bool]:
    """Is the line one person's name ('Aditya Gupta†', 'Rob Sherwood'), and does it carry an
    initial or a mark of affiliation (which a title in title case does not)?"""
    bare = _NAME_MARKS.sub("", text).strip()
    if not _a_name(bare) or _NAME_PARTS.search(bare):
        return False, False
    return True, bare != text.strip() or _INITIAL.search(text) is not None


_INITIAL = lazy(r"(?<![^\W\d_])[A-Z]\.")  # 'E.' in 'Nuala E. Tully', 'J.' and 'H.' in 'J.H. Saltzer'


def _a_name(part: str) -> bool:
    words = part.split()
    if not NAME_WORDS[0] <= len(words) <= NAME_WORDS[1]:
        return False
    return all(w in PARTICLES or (w[:1].isupper() and w.casefold() not in NOT_NAMES and any(c.isalpha() for c in w))
               for w in words) and words[0][:1].isupper() and words[-1][:1].isupper()


CONTENTS = frozenset(("contents", "tableofcontents", "index", "目录", "目次", "inhalt", "inhaltsverzeichnis",
                      "sommaire", "tabledesmatières", "índice", "indice", "contenido", "sumário"))


def is_contents(text: str) -> bool:
    """A heading over a table of contents or an index: the lines under it are entries."""
    return normalized(text) in CONTENTS


def too_many(kinds: list[str], weight_only: list[bool]) -> bool:
    """Would this page be mostly headings? Then the ones that stand out by weight alone do
    not: nothing stands out on a page where everything is bold."""
    lines = len(kinds)
    heads = sum(kind == "heading" for kind in kinds)
    return lines >= MIN_BOUND_LINES and heads > HEADING_SHARE * lines and any(weight_only)


class Levels:
    """Heading levels as the document streams past: a running rank of the heading sizes seen
    so far, the levels its numbered headings gave their faces, and whether the document opened
    with a title."""

    def __init__(self) -> None:
        self.sizes: set[float] = set()
        self.faces: dict[tuple[float, bool], int] = {}  # (size, bold) -> level of numbered headings so set
        self.outlined: dict[tuple[float, bool], int] = {}  # (size, bold) -> level of outline entries so set
        self.open: dict[int, int] = {}  # numbering depth -> level of the last numbered heading that deep
        self.title = False
        self.first_page: int | None = None

    def see(self, size: float) -> None:
        key = _step(size)
        if key in self.sizes or len(self.sizes) < MAX_SIZES:
            self.sizes.add(key)

    def rank(self, size: float) -> int:
        key = _step(size)
        return 1 + sum(s > key for s in self.sizes)

    def _face(self, size: float, bold: bool) -> tuple[float, bool]:
        return _step(size), bold

    def page(self, page: int, heads: list[tuple[str, float, float, bool, int | None]], height: float) -> list[int]:
        """Levels of one page's headings, given as (text, size, top, bold, outline depth or None)
        in reading order. The outline's depth, else the numbering's, places a heading; one set in
        the face of placed ones ('References' after '5 Results') takes their level; others rank
        by size. Below a title the outline does not hold, every placed heading sits one deeper;
        a numbered heading sits below larger outline entries and under its numbering's parent."""
        for _, size, _, _, _ in heads:
            self.see(size)
        if self.first_page is None:
            self.first_page = page
        depths = [given or numbering_depth(text) for text, _, _, _, given in heads]
        title = -1
        if page == self.first_page and heads:
            largest = max(size for _, size, _, _, _ in heads)
            top_zone = (1 - TITLE_ZONE) * height
            title = next((k for k, ((_, size, top, _, _), depth) in enumerate(zip(heads, depths, strict=True))
                          if size == largest and top >= top_zone and depth is None), -1)
            self.title = self.title or title >= 0
        offset = 1 if self.title else 0
        placed: list[int | None] = []  # the outline's or the numbering's level of each heading
        for (_, size, _, bold, given), depth in zip(heads, depths, strict=True):
            level = None if depth is None else min(MAX_LEVEL, depth + offset)
            if level is not None and depth is not None and given is None:
                level = self._numbered(depth, max(level, self._below(size, bold)))
            placed.append(level)
            face = self._face(size, bold)
            if level is not None and (face in self.faces or len(self.faces) < MAX_SIZES):
                self.faces[face] = min(self.faces.get(face, MAX_LEVEL), level)
            if level is not None and given is not None and (face in self.outlined or len(self.outlined) < MAX_SIZES):
                self.outlined[face] = min(self.outlined.get(face, MAX_LEVEL), level)
        levels = []
        for index, ((_, size, _, bold, _), level) in enumerate(zip(heads, placed, strict=True)):
            known = self.faces.get(self._face(size, bold))
            if index == title:
                levels.append(1)
            elif level is not None:
                levels.append(level)
            elif known is not None:
                levels.append(known)
            else:
                levels.append(min(MAX_LEVEL, self.rank(size) + (1 if self.title and self.rank(size) == 1 else 0)))
        return levels

    def _numbered(self, depth: int, level: int) -> int:
        """A numbered heading's level, below the heading its numbering nests it in: '1.1' one
        under the level '1' was given."""
        parent = self.open.get(depth - 1)
        if parent is not None:
            level = min(MAX_LEVEL, max(level, parent + 1))
        self.open = {d: lv for d, lv in self.open.items() if d < depth}
        self.open[depth] = level
        return level

    def _below(self, size: float, bold: bool) -> int:
        """The shallowest level a numbered heading the outline does not hold may take: below the
        outline's entries set larger, and not above those in its own face. A '1.' under an
        outline's third-level head, in that head's face or a smaller one, numbers steps, not
        the document's parts."""
        key = _step(size)
        larger = [level for (other, _), level in self.outlined.items() if other > key]
        return max(max(larger, default=0) + 1, self.outlined.get(self._face(size, bold), 1))


def _step(size: float) -> float:
    """A size to the nearest ``SIZE_STEP``: sizes that differ by less are one."""
    return round(size / SIZE_STEP) * SIZE_STEP
