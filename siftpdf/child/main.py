"""The extraction child: ``python -I -S -c BOOT`` calling :func:`main` (the command
``siftpdf.workers.early_child.default_argv`` makes). Users never run it.

Contract: the PDF on stdin (optionally preceded by a JSON-encoded password line),
the doc stream on stdout. Limits and the audit hook are in place before the PDF is read.
Started as ``--warm`` (``siftpdf.workers.early_child``), it imports its engine first, then reads its options
from stdin: a line with their length in bytes, then each option in UTF-8 ended by a NUL (end of
file before them: not needed, exit 0).
Exit codes: 0 ok, 2 a limit that was asked for cannot be enforced, 3 encrypted, 4 unreadable,
7 input too large.
"""

from __future__ import annotations

import sys

from ..defaults import MAX_PDF_BYTES

# Not typing's TYPE_CHECKING: the child's start is on the path of every cold command, and typing
# (with re, json and enum) cost it more than its interpreter's own start (siftpdf.docline).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from .job import Job

EXIT_OK, EXIT_LIMITS, EXIT_ENCRYPTED, EXIT_UNREADABLE, EXIT_TOO_LARGE = 0, 2, 3, 4, 7
MAX_INPUT = MAX_PDF_BYTES

# Audit events that mean "talk to the network or start a program".
_REFUSED_PREFIXES = ("socket.", "subprocess.", "os.exec", "os.posix_spawn", "os.spawn",
                     "os.fork", "os.forkpty", "os.system", "pty.spawn", "os.startfile")


def _refuse(event: str, _args: Any) -> None:
    if event.startswith(_REFUSED_PREFIXES):
        raise PermissionError(f"siftpdf child: {event} refused")


def apply_limits(memory: int, cpu_seconds: int) -> None:
    """Address-space and CPU limits. Asking for a memory limit that cannot be enforced here
    fails (where the parent's watchdog holds the child to its limit, it asks for none)."""
    import resource

    from ..system import rlimit_enforced

    if memory > 0:
        if not rlimit_enforced():
            raise OSError(f"a memory limit cannot be enforced on {sys.platform}")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY and hard < memory:
            memory = hard  # already held to less than was asked: keep the stricter limit
        resource.setrlimit(resource.RLIMIT_AS, (memory, hard if hard != resource.RLIM_INFINITY else memory))
    if cpu_seconds > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))


# glibc's malloc hands back the top of its heap once 128 KiB of it is free, and serves a block of
# 128 KiB or more with a mapping of its own, unmapped when freed: the buffers PDFium makes and
# drops for each page then cost every page fresh memory from the kernel, a fault for each 4 KiB
# (about 230 a dense page; a second of system time over 2,100 pages). Blocks under 1 MiB are
# served from the heap and 4 MiB of free space is kept at its top: the faults are gone, and the
# child holds at most that much more than it uses.
HEAP_MMAP_THRESHOLD = 1 << 20
HEAP_TRIM_THRESHOLD = 4 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (malloc.h)


def keep_heap() -> bool:
    """Set glibc malloc's thresholds (above) in this process; whether they were set (not on
    another system or C library, which keep their own ways)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD)) & bool(mallopt(_M_TRIM_THRESHOLD, HEAP_TRIM_THRESHOLD))


# One page's record past this is the page's evidence run wild (a hostile page with millions of
# glyphs): the page keeps its text and loses its evidence, rather than the document its pages.
MAX_RECORD = 32 << 20


def encode_record(record: dict[str, Any]) -> bytes:
    """One doc-stream line as UTF-8. Text that cannot be encoded was scrubbed where the record
    was made; this is the last guard, so that no character can end the document."""
    from ..docline import dumps, scrub_record

    line = dumps(record)
    try:
        data = line.encode("utf-8")
    except UnicodeEncodeError:
        count = scrub_record(record)
        record["replaced_chars"] = record.get("replaced_chars", 0) + count
        data = dumps(record).encode("utf-8")
    if len(data) > MAX_RECORD and "evidence" in record:
        record.pop("evidence")
        record["evidence_dropped"] = f"the page's evidence was over {MAX_RECORD >> 20} MiB"
        data = dumps(record).encode("utf-8")
    return data + b"\n"


def _password(stdin: Any) -> str:
    """The password line: one JSON string (``siftpdf.workers.runner`` writes it). A password
    given as bytes that are not UTF-8 comes as surrogate escapes, which PDFium gets back as
    those bytes; any other UTF-16 half is no password."""
    from ..docline import loads

    line = stdin.readline(MAX_PASSWORD)
    try:
        # A string, not anything nested: the scanner recurses into arrays and objects.
        password = loads(line.decode("utf-8")) if line.startswith(b'"') else None
        if isinstance(password, str):
            password.encode("utf-8", "surrogateescape")
    except (ValueError, UnicodeError):
        password = None
    if not isinstance(password, str):
        _usage("the password line is not a JSON string")
    return password


MAX_PASSWORD = 1 << 20  # bytes of the password line


def _usage(problem: str) -> NoReturn:
    print(f"siftpdf-child: error: {problem}", file=sys.stderr)
    raise SystemExit(2)  # the status argparse gave a bad command line


def _job(words: list[str]) -> Job | None:
    """The job of this child: its command line's words, or, started as a warm child, the words
    its parent sends on stdin once it has one (None: it has none, or is gone). Bad words are a
    usage error (exit 2)."""
    from .job import WARM, Job, JobError, read_words

    try:
        if words == [WARM]:
            # The engine's import reads nothing of the PDF: it may come before the limits. So
            # do the imports of the job (the extraction, the evidence, what --ocr auto asks of
            # a page), while the parent starts up or looks in its cache.
            from . import evidence, extraction, ocrpage  # noqa: F401

            sent = read_words(sys.stdin.buffer)
            if sent is None:
                return None
            words = sent
        return Job.from_argv(words)
    except JobError as exc:
        _usage(str(exc))


def main(argv: list[str] | None = None) -> int:
    job = _job(sys.argv[1:] if argv is None else argv)
    if job is None:
        return EXIT_OK  # the parent did not need this warm child, or is gone
    try:
        apply_limits(job.memory, job.cpu)
    except (OSError, ValueError) as exc:
        print(f"cannot apply limits: {exc}", file=sys.stderr)
        return EXIT_LIMITS
    keep_heap()
    # Import the engines (native code, loaded via ctypes) before the hook closes the door.
    from ..errors import EncryptedError, SiftError
    from .extraction import extract_records

    sys.addaudithook(_refuse)
    stdin = sys.stdin.buffer
    try:
        password = _password(stdin) if job.password_line else None
        data = stdin.read(MAX_INPUT + 1)
    except MemoryError:
        print("out of memory reading the PDF", file=sys.stderr)
        return EXIT_TOO_LARGE
    if len(data) > MAX_INPUT:
        print(f"PDF over {MAX_INPUT >> 20} MiB", file=sys.stderr)
        return EXIT_TOO_LARGE
    opts = job.extract_options(password)
    out = sys.stdout.buffer
    try:
        for record in extract_records(data, opts):
            out.write(encode_record(record))
            out.flush()
    except EncryptedError as exc:
        print(exc.message, file=sys.stderr)
        return EXIT_ENCRYPTED
    except SiftError as exc:
        print(exc.message, file=sys.stderr)
        return EXIT_UNREADABLE
    except MemoryError:
        print(f"out of memory (limit {job.memory >> 20} MiB)", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_OK
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
