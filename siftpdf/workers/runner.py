"""The parent side of extraction: run the child(ren), enforce the deadline and caps, merge.

A document with more pages than one chunk is split across the workers' children (two by
default, ``--workers``; as many as the pool grants slots for at once): chunk k goes to child
k % workers and the parent reads whichever child owns the next page, so output stays in page
order. A thread reads each child's lines ahead of the parent (at most ``AHEAD_BYTES``),
so a child goes on with its next chunk while the parent is still taking the other's; a pipe's
64 KiB alone would stop it after a page or two of evidence.
"""

from __future__ import annotations

import os
import sys
import time

from ..child.extraction import count_page, shard_of, tally
from ..child.job import Job
from ..defaults import OCR_CHUNK_PAGES
from ..docline import loads
from ..errors import (
    CancelledError,
    EncryptedError,
    SiftError,
    TimedOutError,
    TooLargeError,
    UnreadableError,
    UsageError,
)
from ..options import Limits

TYPE_CHECKING = False
if TYPE_CHECKING:  # threading imported where a child is started
    import threading
    from collections.abc import Callable, Iterator
    from typing import IO, Any, Protocol

    from ..cancel import Cancel
    from .memwatch import MemoryWatch

STDERR_KEEP = 4 << 10
# A child that dies on a page is replaced; past this many replacements the pages left to that
# child are marked failed (the deadline bounds the time all the same).
MAX_RESTARTS = 64
# After this many pages in a row on which the document's engine died, the rest of that
# child's pages go straight to the salvage chain.
CRASH_RUN = 3
# The salvage chain's time for one page the engine died on: at most this many seconds, and
# at most this share of the deadline.
SALVAGE_SECONDS = 10.0
SALVAGE_SHARE = 0.25
# A record's line may be longer than its text (JSON, evidence) by this much.
LINE_SLACK = 32 << 20
EARLY_SPLIT_BYTES = 512 << 10
# Lines a child may have written that the parent has not taken yet: about a chunk of dense
# pages with their evidence; past it the child waits (memory stays bounded).
AHEAD_BYTES = 16 << 20


MEMORY_HINT = "a larger limit: --memory-limit MIB (0: none, for PDFs you trust)"
NO_GUARD_HINT = "--memory-limit 0 runs without a memory limit"


def _memory_guard(limit: int) -> tuple[int, MemoryWatch | None]:
    """The memory limit the children set on themselves (``--memory``), and the watchdog that
    holds them to ``limit`` where the kernel cannot (:func:`siftpdf.system.memory_guard`).
    A limit that neither can enforce is a usage error: never run unlimited silently."""
    from ..system import WATCHDOG, child_memory, memory_guard

    if limit <= 0:
        return 0, None
    guard = memory_guard()
    if guard is None:
        raise UsageError(f"cannot apply limits: a memory limit cannot be enforced on {sys.platform} "
                         "(no RLIMIT_AS, and psutil cannot read a child's memory)", hint=NO_GUARD_HINT)
    if guard != WATCHDOG:
        return child_memory(limit), None
    from .memwatch import MemoryWatch

    return child_memory(limit), MemoryWatch(limit)


def child_argv() -> list[str]:
    """The command that starts one extraction child (tests may replace it): the warm child's,
    so that a warm child is adopted only when it was started as this one would be."""
    from .early_child import default_argv

    return default_argv()


if TYPE_CHECKING:
    class Process(Protocol):
        """A started child: a ``subprocess.Popen`` or a warm child (``siftpdf.workers.early_child.Spawned``)."""

        pid: int
        stdin: IO[bytes] | None
        stdout: IO[bytes] | None
        stderr: IO[bytes] | None

        def poll(self) -> int | None: ...

        def wait(self) -> int: ...

class _Ahead:
    """A child's output lines, read by a thread ahead of the parent. The last line is the one
    that does not end in a newline (b"" at the end of the stream, or a cut one)."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        import collections
        import threading

        self.stream, self.limit = stream, limit
        self.lines: collections.deque[bytes] = collections.deque()
        self.held = 0
        self.closed = False
        self.ready = threading.Condition()

    def run(self) -> None:
        while True:
            try:
                line = self.stream.readline(self.limit)
            except (OSError, ValueError):  # closed under the thread: the stream ended
                line = b""
            with self.ready:
                while self.held > AHEAD_BYTES and not self.closed:
                    self.ready.wait()
                self.lines.append(line)
                self.held += len(line)
                self.ready.notify_all()
                if self.closed or not line.endswith(b"\n"):
                    return

    def next(self) -> bytes:
        with self.ready:
            while not self.lines:
                self.ready.wait()
            line = self.lines[0]
            if line.endswith(b"\n"):  # the last line stays: every later call gets it again
                self.lines.popleft()
                self.held -= len(line)
                self.ready.notify_all()
            return line

    def close(self) -> None:
        with self.ready:
            self.closed = True
            self.ready.notify_all()


class _Child:
    """A running extraction child and what watches it. (Not a dataclass: siftpdf.record.)"""

    def __init__(self, proc: Process) -> None:
        self.proc = proc
        self.stderr = bytearray()
        self.threads: list[threading.Thread] = []
        self.gave_up_after = 0.0  # set when a page's own time budget ran out and it was killed
        self.ahead: _Ahead | None = None
        self.watch: MemoryWatch | None = None  # the memory watchdog holding it to its limit, if any
        self.over_memory = 0  # resident bytes when the watchdog killed it over the limit

    @classmethod
    def start(cls, argv: list[str], data: bytes, password: str | None, limit: int) -> _Child:
        import threading

        from .early_child import take

        warm = take(argv, data)  # the console command's child, started early (and maybe given this job)
        fed = False
        if warm is not None:
            proc: Process = warm[0]
            fed = warm[1] is None  # its job and PDF were sent already
            prefix = warm[1] or b""
        else:
            import subprocess

            proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env={}, start_new_session=True, close_fds=True,
            )
            prefix = b""
        child = cls(proc)
        if password is not None:
            import json

            prefix += (json.dumps(password) + "\n").encode()
        assert proc.stdout is not None
        child.ahead = _Ahead(proc.stdout, limit)
        child.threads = [
            threading.Thread(target=child._drain_stderr, daemon=True),
            threading.Thread(target=child.ahead.run, daemon=True),
        ]
        if not fed:
            child.threads.append(threading.Thread(target=child._feed, args=(prefix, data), daemon=True))
        for thread in child.threads:
            thread.start()
        return child

    def _feed(self, prefix: bytes, data: bytes) -> None:
        from .early_child import feed

        assert self.proc.stdin is not None
        feed(self.proc.stdin, prefix, data)

    def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        for chunk in iter(lambda: stream.read(4096), b""):
            room = STDERR_KEEP - len(self.stderr)
            if room > 0:
                self.stderr += chunk[:room]

    def over(self, resident: int) -> None:
        """Killed by the memory watchdog, over the limit with ``resident`` bytes."""
        self.over_memory = resident
        self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                from _signal import SIGKILL  # signal's C half: the module imports enum

                os.killpg(self.proc.pid, SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def reap(self) -> int:
        if self.watch is not None:
            self.watch.remove(self.proc.pid)  # before its pid can be another process's
        returncode = self.proc.wait()
        if self.ahead is not None:
            self.ahead.close()
        for thread in self.threads:
            thread.join(timeout=5)
        if self.proc.stdout:
            self.proc.stdout.close()
        return returncode

    def message(self) -> str:
        lines = [ln.strip() for ln in self.stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
        if not lines:
            return ""
        return lines[-1] if lines[0].startswith("Traceback") else lines[0]


class _Run:
    """One extraction: children, watchdog, byte budget."""

    def __init__(self, data: bytes, password: str | None, limits: Limits, job: Job) -> None:
        """``job``: what every child of the run does (evidence, OCR, …); the limits, the share
        of pages and the password line are set for each child at :meth:`spawn`."""
        self.data, self.password, self.limits, self.job = data, password, limits, job
        self.children: list[_Child] = []
        self.timed_out = False
        self.cancelled = False
        self.text_bytes = 0
        import threading

        self.timer = threading.Timer(limits.deadline, self._expire)
        self.timer.daemon = True
        self.child_memory, self.watch = _memory_guard(limits.memory)

    def _expire(self) -> None:
        self.timed_out = True
        self._kill_all()

    def cancel(self) -> None:
        """The caller gave up (from another thread): every child is killed now, and the read
        ends in CancelledError rather than in a salvage attempt."""
        self.cancelled = True
        self._kill_all()

    def spawn(self, shard: int, shards: int, first_page: int = 1, outline: bool = True,
              salvage: str | None = None) -> _Child:
        limits = self.limits
        job = self.job.under(self.child_memory, limits.deadline, limits.chunk).replace(
            shard=shard, shards=shards, first_page=first_page, outline=outline,
            password_line=self.password is not None, salvage=salvage or None)
        child = _Child.start(child_argv() + job.to_argv(), self.data, self.password, self.limits.max_text + LINE_SLACK)
        self.children.append(child)
        if self.watch is not None:
            child.watch = self.watch
            self.watch.add(child.proc.pid, child.over)
        if self.timed_out or self.cancelled:
            child.kill()
        return child

    def read(self, child: _Child) -> dict[str, Any] | None:
        """The child's next record, or None when it ended (or was killed) before a whole line:
        :meth:`failure` then says why. The text budget counts page text, not the evidence
        that comes with it, so organization does not change what is too large."""
        assert child.ahead is not None
        line = child.ahead.next()
        if not line.endswith(b"\n"):
            if len(line) >= self.limits.max_text + LINE_SLACK:
                self._kill_all()
                raise TooLargeError(f"too large (a page's record over {self.limits.max_text >> 20} MiB)")
            child.kill()
            return None
        try:
            record = loads(line.decode("utf-8", "surrogatepass"))  # as json.loads reads a UTF-8 line
        except ValueError:
            record = None
        if not isinstance(record, dict):
            child.kill()
            raise UnreadableError("unreadable PDF (the extraction child wrote a broken line)")
        text = record.get("text")
        self.text_bytes += len(text.encode("utf-8")) if isinstance(text, str) else len(line)
        if self.text_bytes > self.limits.max_text:
            self._kill_all()
            raise TooLargeError(f"too large (text over {self.limits.max_text >> 20} MiB)")
        return record

    def failure(self, child: _Child) -> SiftError:
        """The typed error for a child that ended without the record we expected."""
        code = child.reap()
        if self.cancelled:
            return CancelledError("cancelled by the caller: the extraction was stopped")
        if child.over_memory:
            used = -(-child.over_memory >> 20)  # rounded up: a child killed over 256 MiB never "used 256"
            return TooLargeError(f"too large (the extraction child used {used} MiB, over the "
                                 f"{self.limits.memory >> 20} MiB memory limit)", hint=MEMORY_HINT)
        if self.timed_out:
            hint = None
            if self.job.ocr != "never":  # a page read by OCR costs seconds, not milliseconds
                hint = (f"OCR reads a page in 1-3 s a worker: give it more time (--deadline "
                        f"{max(600, 4 * int(self.limits.deadline)):g}) or fewer pages (--max-pages)")
            return TimedOutError(f"pdf extraction timed out after {self.limits.deadline:g} s", hint=hint)
        if child.gave_up_after:
            return UnreadableError(f"unreadable PDF (gave up on the page after {child.gave_up_after:g} s)")
        message = child.message()
        if code == 2 and message.startswith("cannot apply limits"):
            return UsageError(message, hint=NO_GUARD_HINT)
        if code == 3:
            return EncryptedError(message or "encrypted PDF (password required)")
        if code == 7:
            return TooLargeError(message or "too large")
        if code < 0:
            import signal

            why = f"engine crashed: signal {-code}"
            if -code in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS) and self.limits.memory > 0:
                why += f", out of memory within the {self.limits.memory >> 20} MiB limit?"
            return UnreadableError(f"unreadable PDF ({why})")
        if message.startswith("unreadable PDF"):
            return UnreadableError(message)
        return UnreadableError(f"unreadable PDF ({message})" if message else "unreadable PDF")

    def _kill_all(self) -> None:
        for child in self.children:
            child.kill()

    def close(self) -> None:
        self.timer.cancel()
        self._kill_all()
        for child in self.children:
            child.reap()
        if self.watch is not None:
            self.watch.close()  # its thread ends with the children


if TYPE_CHECKING:
    class Slots(Protocol):
        """Who grants extraction children beyond the first (the pool)."""

        def add_slot(self) -> bool:
            """One more child now, or False: never waits."""
            ...

        def drop_slot(self) -> None:
            """Give back the slot of a child that was not needed."""
            ...


def run_child(data: bytes, password: str | None = None, limits: Limits | None = None, job: Job | None = None,
              slots: Slots | None = None, meanwhile: Callable[[], None] | None = None,
              cancel: Cancel | None = None) -> Iterator[dict[str, Any]]:
    """Extract ``data`` in child processes; yield meta, pages in order, then a merged done.
    ``job`` is what every child does (:meth:`siftpdf.options.Extraction.job`: pages, evidence,
    OCR …); each child's share of the pages and its limits are set for it.

    With ``slots``, every child beyond the first needs a slot granted at once; when none is
    free, one child extracts every page. ``meanwhile`` is called once the first child is
    started, before its meta is awaited: work of the caller's that overlaps the child's start-up."""
    limits, job = limits or Limits(), job or Job()
    ocr = job.ocr
    if ocr == "always":
        # A page read by OCR costs seconds: pages alternate between the children, so that a
        # short scan keeps both cores busy. (``auto`` reads in chunks, as text pages are read,
        # until a page turns out to be a scan: _alternate.)
        limits = limits.replace(chunk=OCR_CHUNK_PAGES)
    run = _Run(data, password, limits, job)
    started = time.monotonic()
    run.timer.start()
    unwatch = cancel.watch(run.cancel) if cancel is not None else None
    try:
        first = run.spawn(0, limits.workers)
        # A big file is likely a long document: start its second worker at once rather than
        # after the first one has counted the pages.
        early = run.spawn(1, limits.workers, outline=False) if (
            limits.workers > 1 and len(data) >= EARLY_SPLIT_BYTES
            and (slots is None or slots.add_slot())) else None
        if meanwhile is not None:
            meanwhile()
        meta_record = run.read(first)
        if meta_record is None or "meta" not in meta_record:
            raise run.failure(first)
        meta = meta_record["meta"]
        yield meta_record

        count = min(meta["pages"], job.max_pages) if job.max_pages > 0 else meta["pages"]
        owners = _owners(run, first, early, slots, count)
        shards = _shards(run, owners)
        done = tally(meta, count < meta["pages"])
        engine = meta.get("engine", {}).get("name", "pdfium")
        recovery = _Recovery(run, owners, shards)
        scan_seen = ocr != "auto" or limits.chunk <= OCR_CHUNK_PAGES
        for page in range(1, count + 1):
            shard = shard_of(page, shards, run.limits.chunk)
            record = recovery.next(shard, page)
            count_page(done, record, engine)
            yield record
            if not scan_seen and record.get("status") == "ocr":
                scan_seen = True  # one try: a document of text pages with a scanned one stays as it is
                if count - page > 1 and (switched := _alternate(run, recovery.owners, slots, page + 1)):
                    recovery, shards = switched, run.limits.workers
        done["elapsed_ms"] = int((time.monotonic() - started) * 1000)
        yield {"done": done}
    finally:
        if unwatch is not None:
            unwatch()
        run.close()


def _owners(run: _Run, first: _Child, early: _Child | None, slots: Slots | None, count: int) -> dict[int, _Child]:
    """The children that extract a document of ``count`` pages, by shard, each past its meta
    record: one per chunk up to the workers asked for, as many as the pool grants slots for
    at once (the early second child given back when the document fits one chunk). Children
    started before the grant was known skip the chunks of shards that will not run: they are
    replaced by children for the shards that do (``run.limits.workers`` becomes their number)."""
    limits = run.limits
    wanted = min(limits.workers, -(-count // limits.chunk)) if count > limits.chunk else 1
    if early is not None and wanted == 1:
        early.kill()  # the document fits one chunk after all
        early.reap()  # gone before its slot is: the pool's children stay within its slots
        if slots is not None:
            slots.drop_slot()
        early = None
    granted = _granted(slots, 1 + (early is not None), wanted)
    if granted < wanted:
        # The children started skip the chunks of shards that get no child: replace them by
        # children for ``granted`` shards (each gone first: one slot, one child).
        for child in (first, early):
            if child is not None:
                child.kill()
                child.reap()
        run.limits = limits = limits.replace(workers=granted)
        first, early = run.spawn(0, granted, outline=False), None
        if run.read(first) is None:  # its meta: the one already yielded stands
            raise run.failure(first)
    owners: dict[int, _Child] = {0: first}
    for shard in range(1, min(granted, wanted)):
        owners[shard] = early if early is not None and shard == 1 else run.spawn(shard, limits.workers, outline=False)
        if run.read(owners[shard]) is None:  # its meta: the first child's is the one we keep
            raise run.failure(owners[shard])
    return owners


def _granted(slots: Slots | None, held: int, wanted: int) -> int:
    """Children a job holding ``held`` slots may run, up to ``wanted``: each one more needs a
    slot granted at once (never waited for); without a pool (``slots`` None), all of them."""
    if slots is None:
        return max(held, wanted)
    while held < wanted and slots.add_slot():
        held += 1
    return held


def _shards(run: _Run, owners: dict[int, _Child]) -> int:
    """The number pages are dealt out by (``shard_of``): the workers' when the document is
    split, 1 when one child reads every page."""
    return run.limits.workers if len(owners) > 1 else 1


def _alternate(run: _Run, owners: dict[int, _Child], slots: Slots | None, first_page: int) -> _Recovery | None:
    """With ``--ocr auto``, once a page was a scan (read whole by OCR, seconds a page): the
    pages from ``first_page`` on alternate between the workers' children, as with ``--ocr
    always``, so a scan keeps every core asked for busy while a text document is read in
    chunks by as few children as it needs. The children so far are stopped and new ones start
    there, as many as the pool grants slots for; None (nothing changed) when there is one
    worker, or no slot for a second child."""
    workers = _granted(slots, len(owners), run.limits.workers) if run.limits.workers > 1 else 1
    if workers < 2:
        return None
    for child in owners.values():
        child.kill()
        child.reap()
    run.limits = run.limits.replace(chunk=OCR_CHUNK_PAGES, workers=workers)
    alternating = {shard: run.spawn(shard, workers, first_page=first_page, outline=False) for shard in range(workers)}
    for child in alternating.values():
        if run.read(child) is None:  # its meta: the first child's is the one we keep
            raise run.failure(child)
    return _Recovery(run, alternating, workers)


class _Recovery:
    """Page records in order from the children that own them, recovering from a child that
    dies on a page: the page is read again by the salvage chain in a new child (which then
    goes on after it); if that dies too, the page is marked failed and a new child goes on
    after it. A run of pages the engine dies on sends the rest to the salvage chain."""

    def __init__(self, run: _Run, owners: dict[int, _Child], workers: int) -> None:
        self.run, self.owners, self.workers = run, owners, workers
        self.restarts = 0
        self.crashes: dict[int, int] = {}  # shard -> pages in a row the engine died on
        self.salvage_from: dict[int, int] = {}  # shard -> first page of its salvage-only stretch

    def next(self, shard: int, page: int) -> dict[str, Any]:
        retried: str | None = None
        while True:
            child = self.owners.get(shard)
            if child is None:
                return {"page": page, "status": "failed",
                        "error": f"not read: the extraction child died {self.restarts} times"}
            record = self.run.read(child)
            if record is not None and record.get("page") == page:
                if retried is not None:
                    return self._retried(record, retried)
                if page not in self._salvaged(shard):
                    self.crashes[shard] = 0
                return record
            if record is not None:  # a child out of step: replace it as if it had died
                child.kill()
            error = self.run.failure(child)
            if self.run.timed_out or not isinstance(error, UnreadableError):
                raise error
            salvaged = page in self._salvaged(shard) or retried is not None
            if not salvaged:  # the engine died on this page: the salvage chain reads it
                retried = error.message
                self.crashes[shard] = self.crashes.get(shard, 0) + 1
                if self.crashes[shard] >= CRASH_RUN:
                    self.salvage_from[shard] = page
                self._respawn(shard, page, salvage=True)
                record = self._within(self._budget(), shard, page)
                if record is not None:
                    return self._retried(record, retried)
                continue
            # Salvage died on it too: the page is lost, the child after it goes on.
            self._respawn(shard, page + 1, salvage=False)
            message = f"{retried}; salvage: {error.message}" if retried else error.message
            return {"page": page, "error": message, "status": "failed"}

    def _budget(self) -> float:
        """Seconds the salvage chain may spend on a page the engine died on: a page that
        exhausted one engine (a decompression bomb) must not spend the document's deadline."""
        return max(1.0, min(SALVAGE_SECONDS, self.run.limits.deadline * SALVAGE_SHARE))

    def _within(self, budget: float, shard: int, page: int) -> dict[str, Any] | None:
        """The page's record from the salvage child, or None (the child was killed when the
        budget ran out, or died: the caller finds out which)."""
        import threading

        child = self.owners.get(shard)
        if child is None:
            return None

        def give_up() -> None:
            child.gave_up_after = budget
            child.kill()

        timer = threading.Timer(budget, give_up)
        timer.daemon = True
        timer.start()
        try:
            record = self.run.read(child)
        finally:
            timer.cancel()
        if record is not None and record.get("page") == page:
            return record
        if record is not None:
            child.kill()
        return None

    def _retried(self, record: dict[str, Any], retried: str) -> dict[str, Any]:
        if record.get("status") != "failed":
            record["retried_after"] = retried
        else:
            record["error"] = f"{retried}; {record.get('error')}"
        return record

    def _salvaged(self, shard: int) -> range:
        start = self.salvage_from.get(shard)
        return range(start, 1 << 30) if start else range(0)

    def _respawn(self, shard: int, first_page: int, salvage: bool) -> None:
        """A new child for ``shard`` from ``first_page`` on; with ``salvage`` its first page
        goes to the salvage chain (and, after a run of crashes, every page does)."""
        self.restarts += 1
        if self.restarts > MAX_RESTARTS:
            self.owners.pop(shard, None)
            return
        start = self.salvage_from.get(shard)
        pages = f"{start}-" if start else (str(first_page) if salvage else None)
        child = self.run.spawn(shard, self.workers, first_page=first_page, outline=False, salvage=pages)
        self.owners[shard] = child
        self.run.read(child)  # its meta: the first child's is the one kept
