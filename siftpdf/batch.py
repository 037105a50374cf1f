"""Several sources into a folder, one file each (``siftpdf extract -o DIR``): the files' names,
what counts as a finished file, and the jobs, run side by side within the extraction pool.

Names: a source's file name (the last segment of a URL's path, ``stdin`` for ``-``) with a
``.pdf``, ``.jsonl``, ``.json`` or ``.ndjson`` extension dropped, then ``.jsonl`` (the doc
stream), ``.txt`` (the text view) or ``.md`` (Markdown). Sources of one batch whose names
would be the same (ignoring case) each get ``-`` and the first 8 hex digits of the SHA-256 of
the source as given: ``a-3f2c1d9e.jsonl``. The same source given twice is done once.

Finished: a file is written under a hidden temporary name beside its final one and renamed
only once whole, so a file under a final name is finished, unless something else wrote it; a
doc stream counts as finished only when it starts with its meta and ends with its ``done``
record (an interrupted ``siftpdf extract a.pdf > out/a.jsonl`` is done again). A finished file
is skipped without opening its source: no child, no download. It is not compared with its
source: remove it to have it done again.

Jobs: as many at once as the call's workers (two by default, ``--workers``), each with one
extraction child, so a batch keeps the cores busy and never takes more than the pool allows
(a batch of one document may use them all, as a single extraction does); a batch run under a
caller id (``SIFTPDF_CALLER_ID``) is that caller's one job, whatever its threads do.
Interrupted, a batch leaves no file behind but those finished.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import secrets
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed, wait
from pathlib import Path
from typing import Any

from .errors import UsageError
from .options import ReadOptions
from .sources import is_url, open_source
from .views.renderers import write_document

SUFFIXES = {"json": ".jsonl", "text": ".txt", "markdown": ".md"}
# Extensions a source's name loses before its output's suffix is added.
SOURCE_SUFFIXES = (".pdf", ".jsonl", ".json", ".ndjson")
STDIN_NAME = "stdin"
FALLBACK_NAME = "document"
MAX_URL_NAME = 100  # characters kept of a name made from a URL
HASH_DIGITS = 8
_TAIL_CHUNK = 64 << 10  # how much of a file's end is read at a time to find its last line
_MAX_TAIL = 16 << 20  # a last line longer than this is not a done record
CANCEL_GRACE = 2.0  # seconds an interrupted batch waits for its jobs to stop and reap their children


@dataclasses.dataclass(frozen=True)
class Item:
    """One source of a batch and the file it goes to."""

    source: str
    path: Path


@dataclasses.dataclass
class Outcome:
    """What became of an item: ``written`` (``pages`` pages), ``skipped`` (its file was
    finished already) or ``failed`` (``error``: the exception, typed or not)."""

    item: Item
    state: str
    pages: int = 0
    error: Exception | None = None


class Cancelled(Exception):
    """The batch was interrupted: a job stops at its next write."""


# --- names ----------------------------------------------------------------------------------

def base_name(source: str) -> str:
    """The name a source's file gets, before its suffix (see the module's doc)."""
    if source == "-":
        return STDIN_NAME
    if is_url(source):
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(source)
        segment = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
        return _file_name(_strip_suffix(segment)) or _file_name(parts.hostname or "") or FALLBACK_NAME
    name = _strip_suffix(os.path.basename(source.rstrip("/")))
    return name if name and name not in (".", "..") else FALLBACK_NAME


def _file_name(text: str) -> str:
    """A URL's part as a file name: what a file name may not hold, or a shell would trip on,
    replaced; no leading dot (no hidden file); not too long."""
    return re.sub(r"[^\w.-]", "_", text).lstrip(".")[:MAX_URL_NAME]


def _strip_suffix(name: str) -> str:
    lower = name.lower()
    for suffix in SOURCE_SUFFIXES:
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _identity(source: str) -> str:
    """What makes two sources the same one: a local file's resolved path, else the text."""
    if source == "-" or is_url(source):
        return source
    try:
        return os.path.realpath(source)
    except (OSError, ValueError):
        return source


def plan(sources: Sequence[str], directory: Path, output: str) -> list[Item]:
    """The items of a batch: each distinct source (in the order given) and its file in
    ``directory``. A file that would be one of the sources is a usage error."""
    unique: dict[str, str] = {}
    for source in sources:
        unique.setdefault(_identity(source), source)
    chosen = list(unique.values())
    names = {source: base_name(source) for source in chosen}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    suffix = SUFFIXES[output]
    items = []
    for source in chosen:
        name = names[source]
        if counts[name.casefold()] > 1:
            name += "-" + hashlib.sha256(source.encode("utf-8", "surrogateescape")).hexdigest()[:HASH_DIGITS]
        items.append(Item(source, directory / (name + suffix)))
    _check_sources_kept(items, unique)
    return items


def _check_sources_kept(items: list[Item], sources: dict[str, str]) -> None:
    for item in items:
        source = sources.get(_identity(os.fspath(item.path)))
        if source is not None:
            raise UsageError(f"{item.path}: the output of {item.source} would overwrite {source}",
                             hint="write into another folder (-o DIR)")


# --- finished files -------------------------------------------------------------------------

def is_finished(path: Path, output: str) -> bool:
    """Whether ``path`` holds a finished file of this output (see the module's doc)."""
    if output != "json":
        return path.is_file()
    try:
        with open(path, "rb") as handle:
            if handle.read(7) != b'{"meta"':
                return False
            last = _last_line(handle)
    except OSError:
        return False
    try:
        record = json.loads(last)
    except ValueError:
        return False
    return isinstance(record, dict) and isinstance(record.get("done"), dict)


def _last_line(handle: Any) -> bytes:
    """The last non-empty line of an open file, read from its end."""
    end = handle.seek(0, os.SEEK_END)
    tail = b""
    position = end
    while position > 0 and len(tail) <= _MAX_TAIL:
        step = min(_TAIL_CHUNK, position)
        position -= step
        handle.seek(position)
        tail = handle.read(step) + tail
        stripped = tail.rstrip(b"\r\n")
        if b"\n" in stripped:
            return stripped.rsplit(b"\n", 1)[1]
    return tail.rstrip(b"\r\n") if position == 0 else b""


# --- the jobs -------------------------------------------------------------------------------

OnPage = Callable[[dict[str, Any]], None]


class Batch:
    """Extract items into their files, side by side within the pool; a finished file is
    skipped. ``on_page(item)`` may give a callback that sees each page record of the item
    (``extract --render`` takes its image off); ``on_outcome`` hears of each item as it ends
    (in the calling thread)."""

    def __init__(self, items: list[Item], output: str, options: ReadOptions,
                 on_outcome: Callable[[Outcome], None] | None = None,
                 on_page: Callable[[Item], OnPage | None] | None = None) -> None:
        self.items, self.output, self.options = items, output, options
        self.on_outcome, self.on_page = on_outcome, on_page
        self.cancel = threading.Event()
        self._parts: set[str] = set()
        self._lock = threading.Lock()

    def run(self) -> list[Outcome]:
        """Every item's outcome, in the items' order."""
        outcomes: dict[Item, Outcome] = {}
        todo = []
        for item in self.items:
            if is_finished(item.path, self.output):
                outcomes[item] = self._tell(Outcome(item, "skipped"))
            else:
                todo.append(item)
        if todo:
            todo[0].path.parent.mkdir(parents=True, exist_ok=True)
            caller = self._take_caller()
            try:
                outcomes.update(self._run_jobs(todo))
            finally:
                if caller is not None:
                    caller.release()
        return [outcomes[item] for item in self.items]

    def _take_caller(self) -> Any:
        """The caller's one-job lock, held by the batch for all its threads (each of which
        would otherwise be a second job of the caller, refused as busy)."""
        options = self.options
        if not options.sharing.caller_id or options.sharing.in_process:
            return None
        from .store.tiers import caches_for

        return caches_for(options).take_caller(options.sharing.caller_id)

    def _job_options(self, jobs: int) -> ReadOptions:
        options = self.options.with_sharing(caller_id=None)
        if jobs > 1:
            # Each job one child, so a job never takes the slot its sibling waits for; and no
            # progress bar, which draws one document at a time.
            options = options.with_sharing(limits=options.sharing.limits.replace(workers=1)).with_hints(on_page=None)
        return options

    def _run_jobs(self, todo: list[Item]) -> dict[Item, Outcome]:
        # PDFium in this process (--in-process) is not to be entered by two threads at once.
        sharing = self.options.sharing
        jobs = 1 if sharing.in_process else max(1, min(sharing.limits.workers, len(todo)))
        options = self._job_options(jobs)
        executor = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="siftpdf-batch")
        outcomes: dict[Item, Outcome] = {}
        futures: dict[Future[Outcome], Item] = {}
        try:
            for item in todo:
                futures[executor.submit(self._job, item, options.replace())] = item
            for future in as_completed(futures):
                outcome = future.result()
                outcomes[outcome.item] = self._tell(outcome)
        except BaseException:
            # Interrupted: each job stops at its next page, which closes its document and so
            # kills and reaps its child; a job stuck in a page longer than the grace is left.
            self.cancel.set()
            executor.shutdown(wait=False, cancel_futures=True)
            wait([future for future in futures if not future.cancelled()], timeout=CANCEL_GRACE)
            self._remove_parts()
            raise
        executor.shutdown()
        return outcomes

    def _tell(self, outcome: Outcome) -> Outcome:
        if self.on_outcome is not None:
            self.on_outcome(outcome)
        return outcome

    def _job(self, item: Item, options: ReadOptions) -> Outcome:
        """One item, written under a temporary name and renamed once whole."""
        pages = 0
        on_page = self.on_page(item) if self.on_page is not None else None

        def count(record: dict[str, Any]) -> None:
            nonlocal pages
            pages += 1
            if on_page is not None:
                on_page(record)

        try:
            part = self._part(item.path)
        except OSError as exc:
            return Outcome(item, "failed", error=exc)
        try:
            with open(part, "w", encoding="utf-8", errors="replace", newline="") as handle:
                with open_source(item.source, options) as doc:
                    write_document(doc, self.output, lambda text: self._write(handle, text), count)
                handle.flush()
                os.fsync(handle.fileno())  # whole on disk before it has its final name
            if self.cancel.is_set():
                raise Cancelled()
            os.replace(part, item.path)
        except Exception as exc:  # noqa: BLE001  (one source's failure, whatever it is, is its own)
            _unlink(part)
            return Outcome(item, "failed", error=exc)
        except BaseException:
            _unlink(part)
            raise
        finally:
            with self._lock:
                self._parts.discard(part)
        return Outcome(item, "written", pages=pages)

    def _part(self, path: Path) -> str:
        """A new hidden file beside ``path``, for its content until it is whole (made with the
        mode a file of the user's gets, unlike mkstemp's 0600, since it is renamed to stay)."""
        while True:
            part = os.fspath(path.with_name(f".{path.name}.{secrets.token_hex(4)}.part"))
            try:
                os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
                break
            except FileExistsError:
                continue
        with self._lock:
            self._parts.add(part)
        return part

    def _write(self, handle: Any, text: str) -> None:
        if self.cancel.is_set():
            raise Cancelled()
        handle.write(text)

    def _remove_parts(self) -> None:
        with self._lock:
            parts, self._parts = set(self._parts), set()
        for part in parts:
            _unlink(part)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
