"""The extraction child: ``python -I -S -c BOOT`` calling :func:`main` (the command
``siftpdf.workers.warm.default_argv`` makes). Users never run it.

Contract: the PDF on stdin (optionally preceded by a JSON-encoded password line),
the doc stream on stdout. Limits and the audit hook are in place before the PDF is read.
Started as ``--warm`` (``siftpdf.workers.warm``), it imports its engine first, then reads its options
from stdin: a line with their length in bytes, then each option in UTF-8 ended by a NUL (end of
file before them: not needed, exit 0).
Exit codes: 0 ok, 2 a limit that was asked for cannot be enforced, 3 encrypted, 4 unreadable,
7 input too large.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

from ..defaults import CHUNK_PAGES, MAX_PAGES, MAX_PDF_BYTES, MEMORY_MIB

# Not typing's TYPE_CHECKING: the child's start is on the path of every cold command, and typing
# (with re, json and enum) cost it more than its interpreter's own start (siftpdf.docline).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

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


# The child's options (the parent's runner writes them): name -> default, whose type is the
# value's; flags default to False. Parsed by hand: argparse costs the child milliseconds of
# start-up (its help formatter compiles regexes) for a command line no person types.
_OPTIONS: dict[str, Any] = {"max-pages": MAX_PAGES, "memory": MEMORY_MIB << 20, "cpu": 0, "shard": 0, "shards": 1,
                            "chunk": CHUNK_PAGES,
                            "first-page": 1, "render": None, "image-mode": "none", "salvage": None,
                            "ocr": "never", "ocr-models": None}
_FLAGS = ("no-outline", "password-line", "evidence", "no-repair")
_CHOICES = {"image-mode": ("none", "embedded"), "ocr": ("never", "auto", "always")}


def _parse(argv: list[str] | None) -> SimpleNamespace:
    values: dict[str, Any] = {**_OPTIONS, **dict.fromkeys(_FLAGS, False)}
    words = list(sys.argv[1:] if argv is None else argv)
    while words:
        word = words.pop(0)
        name, has_value, value = word.removeprefix("--").partition("=")
        if not word.startswith("--") or (name not in _OPTIONS and name not in _FLAGS):
            _usage(f"unrecognized argument: {word}")
        if name in _FLAGS:
            if has_value:
                _usage(f"--{name} takes no value")
            values[name] = True
            continue
        if not has_value:
            if not words:
                _usage(f"--{name} expects a value")
            value = words.pop(0)
        values[name] = _convert(name, value)
    return SimpleNamespace(**{name.replace("-", "_"): value for name, value in values.items()})


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


def _job(stdin: Any) -> list[str] | None:
    """A warm child's options (``siftpdf.workers.warm.job_bytes`` writes them): a line with
    their length in bytes, then each option in UTF-8 ended by a NUL, which no option can hold;
    None at the end of the input."""
    line = stdin.readline(32)
    if not line:
        return None
    try:
        size = int(line) if line.endswith(b"\n") else -1
    except ValueError:
        size = -1
    payload = stdin.read(size) if 0 <= size <= MAX_JOB else b""
    if len(payload) != size or (size and not payload.endswith(b"\0")):
        _usage("the job is not a length line and NUL-ended options")
    return payload.decode("utf-8", "surrogateescape").split("\0")[:-1]


MAX_JOB = 1 << 20  # bytes of options: a warm child's job is a few hundred
MAX_PASSWORD = 1 << 20  # bytes of the password line


def _convert(name: str, value: str) -> Any:
    if isinstance(_OPTIONS[name], int):
        try:
            return int(value)
        except ValueError:
            _usage(f"--{name}: invalid int value: {value!r}")
    if name in _CHOICES and value not in _CHOICES[name]:
        _usage(f"--{name}: invalid choice: {value!r}")
    return value


def _usage(problem: str) -> NoReturn:
    print(f"siftpdf-child: error: {problem}", file=sys.stderr)
    raise SystemExit(2)  # the status argparse gave a bad command line


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words == ["--warm"]:
        # The engine's import reads nothing of the PDF: it may come before the limits. So do
        # the imports of the job (the meta's hash, the extraction, the evidence), while the
        # parent starts up or looks in its cache.
        import hashlib  # noqa: F401

        from . import evidence, extraction  # noqa: F401

        job = _job(sys.stdin.buffer)
        if job is None:
            return EXIT_OK  # the parent did not need this child, or is gone
        words = job
    args = _parse(words)
    try:
        apply_limits(args.memory, args.cpu)
    except (OSError, ValueError) as exc:
        print(f"cannot apply limits: {exc}", file=sys.stderr)
        return EXIT_LIMITS
    # Import the engines (native code, loaded via ctypes) before the hook closes the door.
    from ..errors import EncryptedError, SiftError
    from .extraction import ExtractOptions, extract_records

    sys.addaudithook(_refuse)
    stdin = sys.stdin.buffer
    try:
        password = _password(stdin) if args.password_line else None
        data = stdin.read(MAX_INPUT + 1)
    except MemoryError:
        print("out of memory reading the PDF", file=sys.stderr)
        return EXIT_TOO_LARGE
    if len(data) > MAX_INPUT:
        print(f"PDF over {MAX_INPUT >> 20} MiB", file=sys.stderr)
        return EXIT_TOO_LARGE
    opts = ExtractOptions(max_pages=args.max_pages, password=password, shard=args.shard,
                          shards=args.shards, chunk=args.chunk, first_page=args.first_page,
                          outline=not args.no_outline, evidence=args.evidence, image_mode=args.image_mode,
                          render=args.render, repair=not args.no_repair, salvage=args.salvage, ocr=args.ocr,
                          ocr_models=args.ocr_models)
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
        print(f"out of memory (limit {args.memory >> 20} MiB)", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_OK
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
