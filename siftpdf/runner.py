"""The parent side of extraction: run the child(ren), enforce the deadline and caps, merge.

A document with more pages than one chunk is split across two children (both cores): chunk k
goes to child k % 2 and the parent reads whichever child owns the next page, so output stays
in page order and memory stays bounded by the pipes' back-pressure.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # imported where used: a cache hit reads Limits from here and starts nothing
    import subprocess
    import threading

from .errors import (
    EncryptedError,
    SiftError,
    TimedOutError,
    TooLargeError,
    UnreadableError,
    UsageError,
)
from .extraction import CHUNK_PAGES, DEFAULT_MAX_PAGES, shard_of

STDERR_KEEP = 4 << 10
MAX_RESTARTS = 3
EARLY_SPLIT_BYTES = 512 << 10


def child_argv() -> list[str]:
    """The command that starts one extraction child (tests may replace it)."""
    return [sys.executable, "-I", "-m", "siftpdf._child"]


@dataclass
class Limits:
    deadline: float = 60.0
    max_text: int = 64 << 20
    max_pages: int = DEFAULT_MAX_PAGES
    memory: int = 2 << 30
    workers: int = 2
    chunk: int = CHUNK_PAGES
    repair: bool = True


@dataclass
class _Child:
    proc: subprocess.Popen[bytes]
    stderr: bytearray = field(default_factory=bytearray)
    threads: list[threading.Thread] = field(default_factory=list)

    @classmethod
    def start(cls, argv: list[str], data: bytes, password: str | None) -> _Child:
        import subprocess
        import threading

        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={}, start_new_session=True, close_fds=True,
        )
        child = cls(proc)
        prefix = (json.dumps(password) + "\n").encode() if password is not None else b""
        child.threads = [
            threading.Thread(target=child._feed, args=(prefix, data), daemon=True),
            threading.Thread(target=child._drain_stderr, daemon=True),
        ]
        for thread in child.threads:
            thread.start()
        return child

    def _feed(self, prefix: bytes, data: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            if prefix:
                stdin.write(prefix)
            stdin.write(data)
        except (BrokenPipeError, OSError):
            pass  # the child stopped reading: its exit code tells why
        finally:
            try:
                stdin.close()
            except OSError:
                pass

    def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        for chunk in iter(lambda: stream.read(4096), b""):
            room = STDERR_KEEP - len(self.stderr)
            if room > 0:
                self.stderr += chunk[:room]

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                import signal

                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def reap(self) -> int:
        returncode = self.proc.wait()
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

    def __init__(self, data: bytes, password: str | None, limits: Limits, extra: list[str]) -> None:
        self.data, self.password, self.limits, self.extra = data, password, limits, extra
        self.children: list[_Child] = []
        self.timed_out = False
        self.text_bytes = 0
        import threading

        self.timer = threading.Timer(limits.deadline, self._expire)
        self.timer.daemon = True

    def _expire(self) -> None:
        self.timed_out = True
        for child in self.children:
            child.kill()

    def spawn(self, shard: int, shards: int, first_page: int = 1, outline: bool = True) -> _Child:
        argv = child_argv() + [
            "--max-pages", str(self.limits.max_pages), "--memory", str(self.limits.memory),
            "--cpu", str(int(self.limits.deadline) + 5), "--shard", str(shard),
            "--shards", str(shards), "--chunk", str(self.limits.chunk),
            "--first-page", str(first_page),
        ]
        if not outline:
            argv.append("--no-outline")
        argv += self.extra
        if not self.limits.repair:
            argv.append("--no-repair")
        if self.password is not None:
            argv.append("--password-line")
        if os.environ.get("SIFTPDF_TEST_CHILD_SLEEP"):
            argv += ["--test-sleep", os.environ["SIFTPDF_TEST_CHILD_SLEEP"]]
        _test_hooks(shard, shards)
        child = _Child.start(argv, self.data, self.password)
        self.children.append(child)
        if self.timed_out:
            child.kill()
        return child

    def read(self, child: _Child) -> dict[str, Any] | None:
        stdout = child.proc.stdout
        assert stdout is not None
        line = stdout.readline(self.limits.max_text - self.text_bytes + 1)
        if not line:
            return None
        self.text_bytes += len(line)
        if self.text_bytes > self.limits.max_text:
            self._kill_all()
            raise TooLargeError(f"too large (text over {self.limits.max_text >> 20} MiB)")
        try:
            record = json.loads(line)
        except ValueError:
            child.kill()
            raise UnreadableError("unreadable PDF (the extraction child wrote a broken line)") from None
        if not isinstance(record, dict):
            raise UnreadableError("unreadable PDF (the extraction child wrote a broken line)")
        return record

    def failure(self, child: _Child) -> SiftError:
        """The typed error for a child that ended without the record we expected."""
        code = child.reap()
        if self.timed_out:
            return TimedOutError(f"pdf extraction timed out after {self.limits.deadline:g} s")
        message = child.message()
        if code == 2 and message.startswith("cannot apply limits"):
            return UsageError(message, hint="--memory-limit 0 runs without a memory limit")
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


def _test_hooks(shard: int, shards: int) -> None:
    delay = os.environ.get("SIFTPDF_TEST_CHILD_DELAY")
    if delay:
        time.sleep(float(delay))
    log = os.environ.get("SIFTPDF_TEST_CHILD_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} shard={shard}/{shards}\n")


class Slots(Protocol):
    """Who grants extraction children beyond the first (the pool)."""

    def add_slot(self) -> bool:
        """One more child now, or False: never waits."""
        ...

    def drop_slot(self) -> None:
        """Give back the slot of a child that was not needed."""
        ...


def run_child(data: bytes, password: str | None = None, limits: Limits | None = None,
              slots: Slots | None = None, evidence: bool = False, image_mode: str = "none",
              render: str | None = None) -> Iterator[dict[str, Any]]:
    """Extract ``data`` in child processes; yield meta, pages in order, then a merged done.
    With ``evidence`` each page record carries its evidence (SPEC §7.1).

    With ``slots``, every child beyond the first needs a slot granted at once; when none is
    free, one child extracts every page."""
    limits = limits or Limits()
    extra = (["--evidence"] if evidence else []) + (["--image-mode", image_mode] if image_mode != "none" else [])
    extra += ["--render", render] if render else []
    run = _Run(data, password, limits, extra)
    started = time.monotonic()
    run.timer.start()
    try:
        first = run.spawn(0, limits.workers)
        # A big file is likely a long document: start its second worker at once rather than
        # after the first one has counted the pages.
        early = run.spawn(1, limits.workers, outline=False) if (
            limits.workers > 1 and len(data) >= EARLY_SPLIT_BYTES
            and (slots is None or slots.add_slot())) else None
        meta_record = run.read(first)
        if meta_record is None or "meta" not in meta_record:
            raise run.failure(first)
        meta = meta_record["meta"]
        yield meta_record

        count = min(meta["pages"], limits.max_pages) if limits.max_pages > 0 else meta["pages"]
        shards = limits.workers if count > limits.chunk else 1
        if early is not None and shards == 1:
            early.kill()  # the document fits one chunk after all
            if slots is not None:
                slots.drop_slot()
        if shards > 1 and early is None and slots is not None and not slots.add_slot():
            # The first child skips the other shards' chunks: replace it by one that does all.
            first.kill()
            first = run.spawn(0, 1, outline=False)
            if run.read(first) is None:  # its meta: the one already yielded stands
                raise run.failure(first)
            shards = 1
        owners: dict[int, _Child] = {0: first}
        for shard in range(1, shards):
            owners[shard] = early if early is not None else run.spawn(shard, limits.workers, outline=False)
            if run.read(owners[shard]) is None:  # its meta: the first child's is the one we keep
                raise run.failure(owners[shard])
        done: dict[str, Any] = {"pages_processed": 0, "pages_failed": 0, "page_limit_reached": count < meta["pages"],
                                "clipped_chars": 0, "unmapped_chars": 0, "engines": {}}
        engine = meta.get("engine", {}).get("name", "pdfium")
        restarts = 0
        page = 1
        while page <= count:
            shard = shard_of(page, limits.workers, limits.chunk) if shards > 1 else 0
            record = run.read(owners[shard])
            if record is None or record.get("page") != page:
                error = run.failure(owners[shard])
                if run.timed_out or restarts >= MAX_RESTARTS or not isinstance(error, UnreadableError):
                    raise error
                # The engine died on this page: record it, restart after it.
                restarts += 1
                record = {"page": page, "error": error.message, "status": "failed"}
                if page < count:
                    owners[shard] = run.spawn(shard, limits.workers, first_page=page + 1, outline=False)
                    run.read(owners[shard])
                _count_page(done, record, engine)
                yield record
                page += 1
                continue
            _count_page(done, record, engine)
            yield record
            page += 1
        done["elapsed_ms"] = int((time.monotonic() - started) * 1000)
        yield {"done": done}
    finally:
        run.close()


def _count_page(done: dict[str, Any], record: dict[str, Any], default_engine: str) -> None:
    done["pages_processed"] += 1
    evidence = record.get("evidence") or {}
    done["clipped_chars"] += evidence.get("clipped_chars", 0)
    done["unmapped_chars"] += evidence.get("unmapped_chars", 0)
    if record["status"] == "failed":
        done["pages_failed"] += 1
    else:
        engine = record.get("engine", default_engine)
        done["engines"][engine] = done["engines"].get(engine, 0) + 1
