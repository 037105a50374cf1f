"""siftpdf: Unix-style filters that read PDFs safely and fast, with page citations.

The library API (the commands are a thin layer over it)::

    import siftpdf

    for record in siftpdf.extract("paper.pdf"):         # doc-stream records: meta, pages, done
        ...
    with siftpdf.open_doc("paper.pdf") as doc:          # a Document: meta at once, pages lazily
        ...
    for match in siftpdf.grep("attention", "paper.pdf"):  # page-cited matches
        ...
    siftpdf.extract_to(["a.pdf", "b.pdf"], "streams/")  # streams/a.jsonl, streams/b.jsonl

Every PDF is parsed in a resource-limited child process unless ``in_process=True``. Errors are
:class:`siftpdf.errors.SiftError` subclasses with a ``code``, an ``exit_code`` and a ``hint``.
"""

from __future__ import annotations

import os

from . import defaults

if os.name != "posix":  # Windows without WSL: one clear line, before anything imports fcntl
    from .system import refuse_non_posix

    refuse_non_posix()

# Not typing's TYPE_CHECKING: importing typing would delay the console command's warm child
# (siftpdf.cli); mypy reads a name TYPE_CHECKING as true all the same.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    from .batch import Outcome
    from .docstream import Document
    from .options import ReadOptions

__all__ = ["extract", "extract_to", "open_doc", "grep", "read_options"]

Source = str | os.PathLike[str] | None


def __getattr__(name: str) -> Any:
    # importlib.metadata costs ~30 ms: only pay for it when the version is asked for.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("siftpdf")
        except PackageNotFoundError:  # running from a source tree
            return "0.0.0"
    raise AttributeError(name)


def read_options(*, password: str | None = None, max_pages: int = defaults.MAX_PAGES,
                 deadline: float = defaults.DEADLINE, memory_limit_mib: int = defaults.MEMORY_MIB,
                 in_process: bool = False,
                 on_page: Callable[[int, int], None] | None = None, cache: bool = True,
                 caller_class: str = "default", settings: Iterable[str] = (), raw: bool = False,
                 wait: float | None = None, cache_url: str | None = None,
                 workers: int = defaults.WORKERS, say: Callable[[str], None] | None = None,
                 **reading: Any) -> ReadOptions:
    """How PDFs are read: the child's limits, the password, a progress callback, the cache, and
    the organization settings (``settings`` as ``--set`` takes them, e.g.
    ``["organize.furniture=false", "output.evidence=true"]``; ``raw=True`` is ``--raw``).

    ``on_page(done, total)`` is called after each extracted page (a cache hit extracts
    nothing); ``in_process=True`` parses in this process without the child, for trusted input
    only; ``cache=False`` neither reads nor writes the shared per-page cache. ``wait`` is how
    many seconds an extraction may wait in the machine-wide pool's line for a worker (as the
    command line's ``--wait``); by default it waits as the service does, at most 20 s in a
    short line, and is :class:`siftpdf.errors.BusyError` beyond. ``cache_url`` names a shared
    cache server (``redis://…``, as ``--cache-url``) behind this machine's cache. ``workers``
    is how many extraction children a long document is split over (as ``--workers``).
    ``say(line)`` is told the lines a person should see (a shared cache server that failed);
    the library itself writes to no stream (``siftpdf.log.to_stderr`` writes them to stderr).
    Any other keyword is a field of what the document is read into
    (:class:`siftpdf.child.job.Reading`): ``ocr="auto"`` (as ``--ocr``; default ``"never"``),
    ``repair=False`` (as ``--no-repair``), ``render="1-3"``; another is a TypeError.
    """
    from .options import Hints, build

    values = {"password": password, "max_pages": max_pages, "deadline": deadline, "memory_limit": memory_limit_mib,
              "in_process": in_process, "no_cache": not cache, "caller_class": caller_class,
              "settings": tuple(settings), "raw": raw, "wait": wait, "cache_url": cache_url, "workers": workers,
              "ocr": "never"}
    from .child.job import Reading

    for key in reading:
        if key not in Reading.FIELDS:
            raise TypeError(f"read_options() got an unexpected keyword argument {key!r}")
    return build({**values, **reading}, Hints(on_page=on_page, say=say))


def open_doc(source: Source = None, options: ReadOptions | None = None, **kwargs: Any) -> Document:
    """Open a PDF path, doc-stream file or ``-``/None (stdin) as a :class:`siftpdf.docstream.Document`.

    The kind is decided by sniffing the bytes. ``doc.meta`` is there at once, ``doc.pages()``
    yields page records lazily and ``doc.done`` holds the diagnostics after the last page.
    Use it as a context manager so the extraction child is always reaped. Keyword arguments
    are those of :func:`read_options` (when ``options`` is not given).
    """
    from .sources import open_source

    return open_source(None if source is None else os.fspath(source), options or read_options(**kwargs))


def extract(source: bytes | str | os.PathLike[str], options: ReadOptions | None = None,
            **kwargs: Any) -> Iterator[dict[str, Any]]:
    """The doc stream of a PDF, as records: ``{"meta": …}``, one ``{"page": …}`` per page, ``{"done": …}``.

    ``source`` is the PDF's bytes, or a path (a PDF or a saved doc stream). Raises a
    :class:`siftpdf.errors.SiftError` subclass when the document as a whole cannot be read;
    a page that fails is a record with ``"status": "failed"`` and the rest go on.
    """
    from .sources import open_pdf_bytes

    options = options or read_options(**kwargs)
    doc = open_pdf_bytes(source, None, options) if isinstance(source, bytes) else open_doc(source, options)
    with doc:
        yield {"meta": doc.meta}
        yield from doc.pages()
        yield {"done": doc.done or {}}


def extract_to(sources: Iterable[str | os.PathLike[str]], directory: str | os.PathLike[str], *,
               output: str = "json", options: ReadOptions | None = None, **kwargs: Any) -> list[Outcome]:
    """Extract each source into its own file in ``directory``, as ``siftpdf extract -o DIR``
    does: ``a.pdf`` to ``a.jsonl`` (``output`` ``"text"``: ``a.txt``, ``"markdown"``: ``a.md``),
    two at a time within the extraction pool, a finished file skipped (see
    :mod:`siftpdf.batch`). Returns each source's :class:`siftpdf.batch.Outcome` (``state``
    ``written``, ``skipped`` or ``failed`` with its ``error``) in the order given: one source's
    failure never stops the others.
    """
    from pathlib import Path

    from .batch import SUFFIXES, Batch, plan
    from .errors import UsageError

    if output not in SUFFIXES:
        raise UsageError(f"output {output!r}: not one of {', '.join(SUFFIXES)}")
    items = plan([os.fspath(source) for source in sources], Path(directory), output)
    return Batch(items, output, options or read_options(**kwargs)).run()


def grep(pattern: str, source: Source, *, ignore_case: bool | None = None, context: int = 1,
         pages: str | None = None, max_count: int = 100, options: ReadOptions | None = None,
         **kwargs: Any) -> Iterator[dict[str, Any]]:
    """Lines of ``source`` that match the RE2 ``pattern``, each as a dict with ``source``,
    ``page``, ``line``, ``text``, and the context lines ``before`` and ``after``.

    Smart case unless ``ignore_case`` is given; ``pages`` restricts to a range such as
    ``"3-5,9"``; at most ``max_count`` matches. A bad pattern or range raises
    :class:`siftpdf.errors.UsageError`.
    """
    from .ranges import PageRange
    from .views.search import capped_groups, compile_pattern, match_records, page_filter

    regex = compile_pattern(pattern, ignore_case)
    wanted = PageRange.parse(pages) if pages else None
    label = "-" if source is None or source == "-" else os.fspath(source)
    # Only the text of the pages the pattern may match is read (a cache hit's text blob).
    options = (options or read_options(**kwargs)).with_hints(text_only=True, search=page_filter(regex))
    with open_doc(source, options) as doc:
        if wanted:
            wanted.check(doc.extracted_count)
        records = (r for r in doc.pages() if wanted is None or r["page"] in wanted)
        for group in capped_groups(records, regex, max_count, context):
            yield from match_records(group, label)
