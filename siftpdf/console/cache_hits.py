"""The console's fast path: a cache hit of ``siftpdf pages`` or ``siftpdf grep`` on a local
PDF, answered without click and without building options.

A cache hit is mostly start-up: click, the option machinery and the library's imports cost
several times what reading the pages does. When a command line is one this module knows to
answer the same way (one local source, the default extraction options but for --max-pages,
and --wait and --workers, for which a hit never waits nor starts a child, a handful of output
options) and the cache knows
the file as it is now (:meth:`siftpdf.store.local_reader.View.file`), the pages are written here
with the same code the commands use (:func:`siftpdf.views.slices.write_text`,
:func:`siftpdf.views.grep.write_source`). Anything else (an option not listed here, a value
click would refuse, an error before the first byte of output, a miss) returns None and the
command runs the usual way, which then says what is wrong.

Imports: ``os`` and ``sys`` here; SQLite's module (where the cache holds the file: see
:func:`siftpdf.store.local_reader.known`), and for pages json (its records), for grep re2.
Not typing, dataclasses, click, pickle; grep's text view not even json or re.
"""

from __future__ import annotations

import os
import sys

from .. import flags
from ..flags import APPEND, env_value, spellings, value_of
from ..system import silence_stdout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..store.local_reader import View
    from ..store.shared_reader import RemoteView

# The options answered here (siftpdf.flags spells them): grep's own by key. A hit
# on this machine's cache is answered with a shared server named or not (the commands too read
# this machine's cache first and ask the server only on a miss); --wait and --workers are only
# checked, as click checks them: a hit never waits nor starts a child.
_COMMON = (flags.CAP, flags.QUIET, flags.CACHE_DIR, flags.CACHE_URL, flags.MAX_PAGES,
           flags.WAIT, flags.WORKERS, flags.OCR)
GREP_KEYS = ("case", "max_count", "context", "after", "before", "page_range", "regexps", "fixed", "word", "line",
             "invert", "only", "count", "page_count", "files_with", "files_without", "quiet", "with_filename",
             "null", "page_number")
OPTIONS = {
    "pages": spellings([*_COMMON, flags.OUTPUTS["text"], flags.OUTPUTS["json"]]),
    # (grep's -q, --quiet and --silent: its own quiet, which the common -q is too)
    "grep": spellings([*_COMMON, flags.JSON, *(option for option in flags.GREP if option.key in GREP_KEYS)]),
}
# Environment variables of the reading commands' options that this path does not read: one
# that is set declines it (the options built here take every other option's default).
DECLINE_ENV = tuple(option.env for option in (*flags.EXTRACTION_OPTIONS, *flags.CACHE_OPTIONS)
                    if option.env and option not in (*_COMMON, flags.CALLER_CLASS))


def parse(args: list[str], tables: dict[str, dict[str, tuple[str, bool, Any]]] | None = None,
          ) -> tuple[str, list[str], dict[str, Any]] | None:
    """The command, its arguments and its options, when every word is one this path knows
    (of ``tables``, by command: this path's by default); else None. Options may come between
    arguments and take ``--name value``, ``--name=value`` and ``-x value`` (click's
    spellings), the last one given winning."""
    tables = OPTIONS if tables is None else tables
    if not args or args[0] not in tables:
        return None
    known = tables[args[0]]
    positional: list[str] = []
    given: dict[str, Any] = {}
    words = iter(args[1:])
    for word in words:
        if word == "-" or not word.startswith("-"):
            positional.append(word)
            continue
        name, equals, value = word.partition("=") if word.startswith("--") else (word, "", "")
        spec = known.get(name)
        if spec is None:
            return None  # '--', bundled short options, -m5, anything not answered here
        key, takes_value, flag = spec
        if not takes_value:
            if equals:
                return None
            given[key] = flag
            continue
        if not equals:
            value = next(words, None)  # type: ignore[assignment]
            if value is None:
                return None
        if flag == APPEND:
            given.setdefault(key, []).append(value)
        else:
            given[key] = value
    return args[0], positional, given


def answer(args: list[str]) -> int | None:
    """Answer a cache-hit command line and return its exit status, or None (having written
    nothing) when the command should run the usual way."""
    parsed = parse(args)
    if parsed is None or any(env_value(name) for name in DECLINE_ENV):
        return None
    command, positional, given = parsed
    try:
        return _answer(command, positional, given)
    except Exception:  # noqa: BLE001  (a cache that cannot be read, before any output: click reports it)
        return None


def _answer(command: str, positional: list[str], given: dict[str, Any]) -> int | None:
    cap, max_pages = value_of(flags.CAP, given), value_of(flags.MAX_PAGES, given)
    if command == "grep" and given.get("regexps"):  # -e: every argument is a source
        positional = [given["regexps"], *positional]
    if cap is None or max_pages is None or len(positional) != 2 or sys.stdout is None:
        return None
    if value_of(flags.WAIT, given) is None or value_of(flags.WORKERS, given) is None:
        return None
    from ..extras import ocr_mode

    ocr = ocr_mode(given.get("ocr"))
    if ocr is None:
        return None  # click's usage error
    given["max_pages"], given["ocr"] = max_pages, ocr
    source = positional[1]
    if command == "pages":
        output = "json" if given.get("as_json") else "text" if given.get("as_text") else _env_output()
        if output is None or (given.get("as_json") and given.get("as_text")):
            return None
        return _pages(positional[0], source, cap, output, given)
    return _grep(positional[0], source, cap, given)


def _env_output() -> str | None:
    """SIFTPDF_FORMAT as the pages command reads it: text when unset; None (decline) for the
    Markdown view, which this path does not write, and for a wrong value, which click reports."""
    value = flags.format_from_env()
    return value if value in ("text", "json") else "text" if not value else None


def cached(source: str, given: dict[str, Any]) -> tuple[View | RemoteView, str, str, dict[str, Any]] | None:
    """The view, content hash, options digest and document entry of a hit, or None."""
    from ..store import local_reader
    from ..system import default_cache_dir

    if not source or source == "-" or ("://" in source and source.split("://", 1)[0].lower() in ("http", "https")):
        return None
    if given.get("cache_dir") == "":
        return None  # click makes a path of it; left to it
    url = given.get("cache_url", env_value(flags.CACHE_URL.env))
    if url and not local_reader.is_cache_url(url):
        return None  # click's usage error
    directory = given.get("cache_dir") or default_cache_dir()
    cls = env_value(flags.CALLER_CLASS.env) or flags.CALLER_CLASS.default
    if not is_caller_class(cls) or not url and not os.path.isdir(directory):
        return None
    import stat

    try:  # a pipe or a device is never opened here: its writer would see it closed again
        if not stat.S_ISREG(os.stat(source).st_mode):
            return None
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:  # opened (as the command does: a file it may not read is an error), never read
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        path = os.path.realpath(source)
    except OSError:
        return None
    finally:
        os.close(fd)
    stamp, name = local_reader.file_stamp(st), local_reader.options_name(given["max_pages"], given["ocr"])
    sha = digest = None
    if os.path.isdir(directory):
        found = _look(directory, cls, path, stamp, name, url)
        if found is None:
            from ..store.behind import wait_written

            if wait_written(directory, cls, path, stamp):  # a copy wrote it (or wrote it just now): look again
                found = _look(directory, cls, path, stamp, name, url)
        if found is None:
            return None
        view, sha, digest, entry = found
        if entry is not None and sha and digest:
            return (view, sha, digest, entry) if entry.get("password_check") is None else None
    if not url:
        return None
    from ..store.shared_reader import find  # a miss here: a hit on the shared server?

    return find(url, cls, name, path, stamp, st.st_size, directory, sha, digest)


def _look(directory: str, cls: str, path: str, stamp: str, name: str, url: str | None
          ) -> tuple[View, str | None, str | None, dict[str, Any] | None] | None:
    """What the cache at ``directory`` knows of the file: its view, content hash, options
    digest and document entry (each None where unknown); None when it holds nothing that
    could be the file's (without a shared server to ask), told without opening it."""
    from ..store import local_reader

    if not url and not local_reader.known(directory, "file", cls, path):
        return None
    view = local_reader.View(directory)
    sha = view.file(cls, path, stamp)
    digest = view.digest(name) if sha or url else None  # the server is asked only for what is not known here
    entry = view.document(cls, sha, digest) if sha and digest else None
    if entry is None and not url:
        return None
    return view, sha, digest, entry


_CLASS_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def is_caller_class(name: str) -> bool:
    """A caller class cache.check_class takes (or declined: click says what is wrong)."""
    return 0 < len(name) <= 64 and all(ch in _CLASS_CHARACTERS for ch in name)


def _document(found: tuple[View | RemoteView, str, str, dict[str, Any]], source: str, first: int = 1,
              last: int | None = None, text_only: bool = False, search: Any = None) -> Any:
    """The Document of a hit, as :func:`siftpdf.read.open_cached` gives it for these needs."""
    from ..document import Document, require_text, with_source

    view, sha, digest, entry = found
    cls = env_value(flags.CALLER_CLASS.env) or flags.CALLER_CLASS.default
    records, check = view.read(cls, sha, digest, entry, first, last, text_only, search)
    return Document(with_source(require_text(records) if check else records, source))


def _pages(spec: str, source: str, cap: int, output: str, given: dict[str, Any]) -> int | None:
    from ..errors import SiftError
    from ..ranges import PageRange

    try:
        wanted = PageRange.parse(spec)
    except SiftError:
        return None
    found = cached(source, given)
    if found is None:
        return None
    first, last = wanted.bounds()
    doc = _document(found, source, first, last)
    try:
        wanted.check(doc.extracted_count)
    except SiftError:
        doc.close()
        return None

    def run() -> int:
        from ..views.slices import write_json, write_text

        with doc:
            if output == "json":
                write_json(doc, wanted, _emit)
            else:
                write_text(doc, wanted, cap, source, output, sys.stdout.write)
        return 0

    return _settled(found, _finish(run, output == "json"))


def _grep(pattern: str | list[str], source: str, cap: int, given: dict[str, Any]) -> int | None:
    from ..errors import SiftError
    from ..ranges import PageRange
    from ..views.grep import GrepSpec, GrepState, mode_of, split_patterns, use_color, write_source
    from ..views.search import compile_patterns, page_filter

    grep_option = flags.grep_option
    max_count, context = value_of(grep_option("max_count"), given), value_of(grep_option("context"), given)
    before = value_of(grep_option("before"), given, context)
    after = value_of(grep_option("after"), given, context)
    if max_count is None or context is None or before is None or after is None:
        return None
    try:
        wanted = PageRange.parse(given["page_range"]) if given.get("page_range") else None
    except SiftError:
        return None
    found = cached(source, given)
    if found is None:
        return None
    try:  # compiled after the cache lookup: re2's import is for hits only
        regex = compile_patterns(split_patterns(pattern if isinstance(pattern, list) else [pattern]),
                                 {"ignore": True, "sensitive": False}.get(given.get("case") or ""),
                                 bool(given.get("fixed")), bool(given.get("word")), bool(given.get("line")))
    except SiftError:
        return None
    invert = bool(given.get("invert"))
    doc = _document(found, source, text_only=True, search=None if invert else page_filter(regex))
    if wanted:
        try:
            wanted.check(doc.extracted_count)
        except SiftError:
            doc.close()
            return None
    as_json = bool(given.get("as_json"))
    spec = GrepSpec(mode_of(given), before, after, invert, max_count, cap, as_json, bool(given.get("with_filename")),
                    bool(given.get("null")), color=not as_json and use_color("auto", sys.stdout))
    state = GrepState()

    def run() -> int:
        with doc:
            write_source(doc, regex, wanted, spec, source, state, sys.stdout.write)
        return 0 if state.selected else 1

    return _settled(found, _finish(run, as_json))


def _settled(found: tuple[Any, str, str, dict[str, Any]], code: int) -> int:
    """``code``, once a hit only the shared server held is on its way into this machine's
    cache (:func:`siftpdf.store.shared_reader.copy_here`)."""
    view = found[0]
    if getattr(view, "copy", None) is not None:
        from ..store.shared_reader import copy_here

        copy_here(view)
        view.close()
    return code


def _emit(record: dict[str, Any]) -> None:
    from ..docstream import write_record

    write_record(sys.stdout, record)


def _finish(run: Callable[[], int], as_json: bool) -> int:
    """Run the command's writing as the click group would: stdout UTF-8 whatever the locale,
    then :func:`invoke`."""
    try:
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass

    def written() -> int:
        code = run()
        sys.stdout.flush()
        return code

    code = invoke(written, as_json)
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        silence_stdout()
    return code


def invoke(run: Callable[[], int | None], as_json: bool, close: Callable[[], None] | None = None,
           cache_dir: Any = None) -> int:
    """What the group's invoke does around a command: its context closed first (a progress bar
    taken off), a reader that went away no error, any other failure reported the siftpdf way."""
    try:
        try:
            return run() or 0
        finally:
            if close is not None:
                close()
    except BrokenPipeError:
        silence_stdout()
        return 0
    except KeyboardInterrupt:
        _say("siftpdf: interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001  (what the group's invoke does with any failure)
        from ..errors import report, typed_error

        error = typed_error(exc, cache_dir)
        report(error, as_json)
        return error.exit_code


def _say(text: str) -> None:
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass

