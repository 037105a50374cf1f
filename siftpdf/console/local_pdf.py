"""The console's cold path: ``siftpdf extract``, ``pages`` and ``map`` of one local PDF with
the default extraction options, run without click.

A cold one-page extraction is mostly start-up: click and its option machinery cost as much as
the library's imports, and the extraction child, started first thing (:mod:`siftpdf.workers.early_child`),
waits for its job until the command has been parsed. When a command line is one this module
knows to run the same way (one local PDF; --no-cache, --raw, --max-pages, --cache-dir,
--cache-url, --wait, --workers, -q, --cap and the output flags), it builds the same options and calls
the same functions the click commands call (:mod:`siftpdf.commands.actions`), and reports a
failure as the click group does. With --no-cache it starts the warm child when a pool slot is
free for it (taken for the job), and gives it its job at once
(:func:`siftpdf.workers.early_child.send`), before the library is imported; the runner then takes
that child over.

Anything else (an option not listed here, a value click would refuse, stdin, a URL, a file
that is not a PDF) returns None, having written nothing, and click runs the command.

Imports: ``os`` and ``sys`` (and :mod:`siftpdf.console.cache_hits`'s parser) until the command runs.
"""

from __future__ import annotations

import os
import sys

from .. import flags
from ..defaults import (
    CAP,
    CHUNK_PAGES,
    DEADLINE,
    MEMORY_MIB,
    OCR_CHUNK_PAGES,
    WORKERS,
)
from ..flags import env_value, spellings, value_of
from .cache_hits import DECLINE_ENV, invoke, is_caller_class, parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

OUTPUTS = tuple(flags.OUTPUTS)
DEFAULT_OUTPUT = flags.DEFAULT_OUTPUT
# The options answered here, spelled by siftpdf.flags (extract's --cap is
# WHOLE_CAP, spelled the same).
_COMMON = spellings([flags.QUIET, flags.NO_CACHE, flags.RAW, flags.MAX_PAGES, flags.CACHE_DIR,
                     flags.CACHE_URL, flags.WAIT, flags.WORKERS, flags.CAP, flags.OCR,
                     *flags.OUTPUTS.values()])
OPTIONS = {"extract": _COMMON, "pages": _COMMON, "map": _COMMON}

# A larger PDF is not read ahead for an early job: the runner reads it (once) the usual way.
EARLY_BYTES = 8 << 20


def job_words(max_pages: int, raw: bool = False, ocr: str = "never", cache_dir: str | None = None,
              workers: int = WORKERS) -> list[str]:
    """The options of the first child the runner starts for an extraction with the default
    limits, organized (evidence asked for) or ``raw``, with ``ocr``, the cache folder
    ``cache_dir`` and ``workers`` (siftpdf.workers.runner.run_child and _Run.spawn)."""
    from ..child.job import Job
    from ..system import child_memory

    root = None
    if ocr != "never":
        from ..extras import ocr_models_root
        from ..system import default_cache_dir

        root = ocr_models_root(_as_click_path(cache_dir) if cache_dir else default_cache_dir())
    job = Job(max_pages=max_pages, evidence=not raw, ocr=ocr, ocr_models=root)
    chunk = OCR_CHUNK_PAGES if ocr == "always" else CHUNK_PAGES
    return job.under(child_memory(MEMORY_MIB << 20), DEADLINE, chunk).replace(shards=workers).to_argv()


def _as_click_path(folder: str) -> str:
    """``--cache-dir`` as the command holds it (a pathlib.Path made of click's value)."""
    from pathlib import Path

    return str(Path(folder))


class Plan:
    """A command line this path runs, read."""

    def __init__(self, command: str, positional: list[str], output: str, cap: int | None, max_pages: int,
                 no_cache: bool, quiet: bool, cache_dir: str | None, caller_class: str, wait: float,
                 cache_url: str | None, raw: bool, ocr: str, workers: int = WORKERS) -> None:
        self.command, self.positional, self.output, self.cap = command, positional, output, cap
        self.max_pages, self.no_cache, self.quiet = max_pages, no_cache, quiet
        self.cache_dir, self.caller_class, self.wait = cache_dir, caller_class, wait
        self.cache_url, self.raw, self.ocr, self.workers = cache_url, raw, ocr, workers
        self.source = positional[-1]

    @property
    def pool_dir(self) -> str:
        from ..workers.early_child import pool_folder

        return pool_folder(self.cache_dir)


def answer(args: list[str]) -> int | None:
    """Run a command line of this path and return its exit status, or None (having written
    nothing) when click should run it."""
    parsed = parse(args, OPTIONS)
    if parsed is None or sys.stdout is None or any(env_value(name) for name in DECLINE_ENV):
        return None
    plan = _plan(*parsed)
    if plan is None:
        return None
    from .early import prestart

    miss = not plan.no_cache and _missed(plan)
    prestart(args, plan.pool_dir, miss=miss)
    if plan.no_cache or miss:
        _early(plan)
    return _run(plan)


def _missed(plan: Plan) -> bool:
    """Whether this machine's cache surely lacks what the command reads: no shared server
    that might hold it (a hit there is asked for first), and the local cache does not know
    the file as it is now, read with these options (:func:`siftpdf.console.cache_hits.cached`).
    The child then starts, and gets its job, as with --no-cache."""
    if plan.cache_url:
        return False
    from .cache_hits import cached

    given = {"max_pages": plan.max_pages, "ocr": plan.ocr}
    if plan.cache_dir is not None:
        given["cache_dir"] = plan.cache_dir
    try:
        return cached(plan.source, given) is None
    except Exception:  # noqa: BLE001  (a cache that cannot be read: the command reports it)
        return False


def _plan(command: str, positional: list[str], given: dict[str, Any]) -> Plan | None:
    max_pages, wait, workers = (value_of(flags.MAX_PAGES, given), value_of(flags.WAIT, given),
                                value_of(flags.WORKERS, given))
    # extract's default is the whole document (its --cap reads no environment)
    cap = value_of(flags.WHOLE_CAP if command == "extract" else flags.CAP, given)
    if max_pages is None or wait is None or workers is None \
            or (cap is None and (command != "extract" or "cap" in given)) \
            or len(positional) != (2 if command == "pages" else 1):
        return None
    asked = [name for name in OUTPUTS if given.get(f"as_{name}")]
    env_output = flags.format_from_env()
    if len(asked) > 1 or (env_output and env_output not in OUTPUTS):
        return None  # click's usage errors
    cache_dir = given.get("cache_dir", env_value(flags.CACHE_DIR.env))
    caller_class = env_value(flags.CALLER_CLASS.env) or flags.CALLER_CLASS.default
    if cache_dir == "" or not _is_folder(cache_dir) or not is_caller_class(caller_class) or not _is_pdf(positional[-1]):
        return None
    if command == "pages" and not _is_range(positional[0]):
        return None
    from ..extras import ocr_mode

    ocr = ocr_mode(given.get("ocr"))
    if ocr is None:
        return None  # click's usage error
    return Plan(command, positional, (asked or [env_output or DEFAULT_OUTPUT[command]])[0], cap, max_pages,
                bool(given.get("no_cache")), bool(given.get("quiet")), cache_dir, caller_class, wait,
                given.get("cache_url", env_value(flags.CACHE_URL.env)), bool(given.get("raw")), ocr, workers)


def _is_folder(path: str | None) -> bool:
    """A --cache-dir click's Path(file_okay=False) takes as it is: absent (made later), or an
    existing folder it may read (a file, or a folder it may not read, is click's error)."""
    if path is None:
        return True
    import stat

    try:
        st = os.stat(path)
    except OSError:
        return True
    except ValueError:  # a NUL byte: click says so
        return False
    return stat.S_ISDIR(st.st_mode) and os.access(path, os.R_OK)


def _is_pdf(source: str) -> bool:
    """A regular local file with a PDF header where the sniffer looks for one (not stdin, a
    URL, a doc stream: click takes those)."""
    if not source or source == "-" or "://" in source:
        return False
    from ..workers.early_child import is_pdf as looks_like_pdf

    return looks_like_pdf(source)


def _is_range(spec: str) -> bool:
    from ..errors import SiftError
    from ..ranges import PageRange

    try:
        PageRange.parse(spec)
    except SiftError:
        return False
    return True


def _early(plan: Plan) -> None:
    """Give the warm child (if one was started, with a pool slot taken for it) its job now: the
    PDF read here, the options the runner will ask for. The runner takes that child over when
    it asks for the same job and bytes; else the child is killed and it starts one."""
    if env_value("SIFTPDF_CALLER_ID"):
        return  # the caller's one-job lock comes first: the runner gives the child its job then
    from ..workers import early_child

    if not early_child.started():
        return
    try:
        with open(plan.source, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > EARLY_BYTES:
                return
            data = handle.read(EARLY_BYTES + 1)
    except OSError:
        return  # the command reports it
    if len(data) > EARLY_BYTES:
        return
    early_child.send(job_words(plan.max_pages, plan.raw, plan.ocr, plan.cache_dir, plan.workers), data)


def _run(plan: Plan) -> int:
    """The command, as the click group runs it: options built, the body run, a failure
    reported the siftpdf way, stdout flushed; the exit status."""
    try:
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass
    from ..commands import actions

    cache_dir = None
    if plan.cache_dir:
        from pathlib import Path

        cache_dir = Path(plan.cache_dir)
    progress: Any = None

    def run() -> None:
        nonlocal progress
        options, progress = actions.read_options(
            {"max_pages": plan.max_pages, "raw": plan.raw, "ocr": plan.ocr, "workers": plan.workers,
             "cache_dir": cache_dir, "no_cache": plan.no_cache, "caller_class": plan.caller_class, "wait": plan.wait,
             "cache_url": plan.cache_url}, plan.quiet)
        if plan.command == "extract":
            actions.extract(plan.source, plan.output, options, cap=plan.cap)
        elif plan.command == "pages":
            actions.pages(plan.positional[0], plan.source, plan.cap or CAP, plan.output, options)
        else:
            actions.map_(plan.source, plan.cap or CAP, plan.output, options)

    def close() -> None:  # the bar, once run() has made it
        if progress is not None:
            progress.close()

    code = invoke(run, plan.output == "json", close, cache_dir)
    code = _flush(code)
    from ..workers.early_child import discard

    discard()  # a warm child given no job (or another) is not left behind
    return code


def _flush(code: int) -> int:
    """What the group's main does after a command: stdout written out now, a failure to write
    it reported (unless the command failed already)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: not an error
        from ..system import silence_stdout

        silence_stdout()
    except (OSError, ValueError) as exc:
        from ..errors import report, typed_error
        from ..system import silence_stdout

        silence_stdout()  # what could not be written goes nowhere, quietly, at exit
        if code in (0, 1):
            unwritten = typed_error(exc)
            report(unwritten, False)
            return unwritten.exit_code
    return code
