"""The extraction child: ``python -I -m siftpdf._child``. Users never run it.

Contract (SPEC §5): the PDF on stdin (optionally preceded by a JSON-encoded password line),
the doc stream on stdout. Limits and the audit hook are in place before the PDF is read.
Exit codes: 0 ok, 2 a limit that was asked for cannot be enforced, 3 encrypted, 4 unreadable,
7 input too large.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_OK, EXIT_LIMITS, EXIT_ENCRYPTED, EXIT_UNREADABLE, EXIT_TOO_LARGE = 0, 2, 3, 4, 7
MAX_INPUT = 200 << 20

# Audit events that mean "talk to the network or start a program".
_REFUSED_PREFIXES = ("socket.", "subprocess.", "os.exec", "os.posix_spawn", "os.spawn",
                     "os.fork", "os.forkpty", "os.system", "pty.spawn", "os.startfile")


def _refuse(event: str, _args: Any) -> None:
    if event.startswith(_REFUSED_PREFIXES):
        raise PermissionError(f"siftpdf child: {event} refused")


def memory_limit_supported() -> bool:
    """Whether RLIMIT_AS is enforced here: Linux enforces it; macOS accepts it and ignores it."""
    import resource

    return sys.platform.startswith("linux") and hasattr(resource, "RLIMIT_AS")


def apply_limits(memory: int, cpu_seconds: int) -> None:
    """Address-space and CPU limits. Asking for a memory limit that cannot be enforced fails."""
    import resource

    if memory > 0:
        if not memory_limit_supported():
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
    from .docstream import dumps, scrub_record

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


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="siftpdf-child", add_help=False)
    parser.add_argument("--max-pages", type=int, default=2000)
    parser.add_argument("--memory", type=int, default=2 << 30)
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--shard", type=int, default=0)
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=32)
    parser.add_argument("--first-page", type=int, default=1)
    parser.add_argument("--no-outline", action="store_true")
    parser.add_argument("--password-line", action="store_true")
    parser.add_argument("--evidence", action="store_true")
    parser.add_argument("--render", default=None)
    parser.add_argument("--image-mode", default="none", choices=("none", "embedded"))
    parser.add_argument("--no-repair", action="store_true")
    parser.add_argument("--salvage", default=None)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    try:
        apply_limits(args.memory, args.cpu)
    except (OSError, ValueError) as exc:
        print(f"cannot apply limits: {exc}", file=sys.stderr)
        return EXIT_LIMITS
    # Import the engines (native code, loaded via ctypes) before the hook closes the door.
    from . import engines  # noqa: F401
    from .errors import EncryptedError, SiftError
    from .extraction import ExtractOptions, extract_records

    sys.addaudithook(_refuse)
    stdin = sys.stdin.buffer
    try:
        password = json.loads(stdin.readline()) if args.password_line else None
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
                          render=args.render, repair=not args.no_repair, salvage=args.salvage)
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
