"""Reading the shared cache server on the console's fast path (:mod:`siftpdf.console.cache_hits`): a hit
that only the server holds, answered without redis-py.

redis-py's import alone (with asyncio, ssl and its observability hooks) takes several times what
a whole cache hit on this machine does, so a process that only reads a document from the server
speaks the protocol here: a socket (``_socket``), commands packed and replies parsed by
hiredis (the Redis project's C parser, installed with the ``redis`` extra), and only GET and
HMGET. Anything else declines (returns None, having written nothing) and the commands run the
usual way through :mod:`siftpdf.store.tiers`: TLS (``rediss://``), a URL with query parameters or
percent-encoded credentials, a server that answers an error, hiredis not installed.

A hit answered here is copied into this machine's cache after the answer, by a process of its
own (:func:`copy_here`), so that the next call is a hit here: the answer does not wait for the
copy, and a copy that fails costs nothing but the next call's trip to the server.

The server's keys are made here, for :mod:`siftpdf.store.shared_store` too, so that reader and writer
cannot drift. Imports: ``os`` at start; ``_socket``, hiredis, hashlib, zlib and json when it
reads.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

PREFIX = "siftpdf"
TIMEOUT = 1.0  # seconds a call (or a connection) may take before the server counts as failing
_BATCH = 64  # pages per HMGET

# Network failures of the fast path in this process, by URL: the commands, run next in the same
# process, then take the server for failing at once (one warning, no second timeout).
FAILED: dict[str, BaseException] = {}


# -- keys ----------------------------------------------------------------------------------------

def doc_key(cls: str, sha: str, digest: str) -> str:
    return f"{PREFIX}:{cls}:doc:{sha}:{digest}"


def pages_key(doc: str) -> str:
    return doc.replace(":doc:", ":pages:", 1)  # as rediscache's commit script makes it for an evicted one


def url_key(cls: str, url: str) -> str:
    return f"{PREFIX}:{cls}:url:{url.split('#', 1)[0]}"


def digest_key(cls: str, name: str, code: str) -> str:
    """The options digest the commands use under ``name`` (siftpdf.store.local_reader.options_name) with
    this extraction code: what a process that builds no options needs to find a document."""
    return f"{PREFIX}:{cls}:digest:{name}:{code}"


# -- the connection ------------------------------------------------------------------------------

class ReplyError(Exception):
    """The server answered an error (wrong password, a command refused)."""


def _address(url: str) -> tuple[str | tuple[str, int], str | None, str | None, int] | None:
    """Where the server of ``url`` listens (a socket path, or host and port), its user,
    password and database, when the URL is one this module speaks to; else None."""
    scheme, _, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme not in ("redis", "unix") or "?" in rest or "#" in rest or "%" in rest:
        return None
    userinfo, at, where = rest.rpartition("@")
    user, colon, password = userinfo.partition(":")
    if at and not colon:
        return None  # a user without a password: left to redis-py
    credentials = (user or None, password or None)
    if scheme == "unix":
        return (where, *credentials, 0) if where.startswith("/") else None
    hostport, slash, db = where.partition("/")
    if not db.isdigit() and db or hostport.startswith("["):
        return None  # a database that is no number, an IPv6 address
    host, colon, port = hostport.partition(":")
    if colon and not port.isdigit():
        return None
    return (host or "localhost", int(port or 6379)), *credentials, int(db or 0)


class Connection:
    """One connection to the server: commands sent together, their replies read in order."""

    def __init__(self, url: str) -> None:
        found = _address(url)
        if found is None:
            raise ValueError("not a URL the fast path speaks to")
        import _socket

        import hiredis

        where, user, password, db = found
        self.hiredis = hiredis
        address: Any = where
        if isinstance(where, str):
            self.socket = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        else:
            family, kind, proto, _, address = _socket.getaddrinfo(*where, 0, _socket.SOCK_STREAM)[0]
            self.socket = _socket.socket(family, kind, proto)
        self.socket.settimeout(TIMEOUT)
        self.reader = hiredis.Reader(replyError=ReplyError)
        try:
            self.socket.connect(address)
            setup = ([["AUTH", *([user] if user else []), password]] if password else []) + (
                [["SELECT", str(db)]] if db else [])
            if setup:
                self.call(*setup)
        except BaseException:
            self.socket.close()
            raise

    def call(self, *commands: list[str]) -> list[Any]:
        """Send ``commands`` at once; their replies, in order (a server error raises)."""
        self.socket.sendall(b"".join(self.hiredis.pack_command(tuple(command))  # type: ignore[arg-type]
                                     for command in commands))
        replies: list[Any] = []
        while len(replies) < len(commands):
            reply = self.reader.gets()
            if reply is False:
                data = self.socket.recv(1 << 16)
                if not data:
                    raise ConnectionError("the server closed the connection")
                self.reader.feed(data)
                continue
            if isinstance(reply, ReplyError):
                raise reply
            replies.append(reply)
        return replies

    def close(self) -> None:
        self.socket.close()


# -- a document on the server --------------------------------------------------------------------

class RemoteView:
    """A document the server holds, read as :class:`siftpdf.store.local_reader.View` reads one here (the
    same ``read``), for the fast path's writers."""

    def __init__(self, connection: Connection, url: str, cls: str) -> None:
        self.connection, self.url, self.cls = connection, url, cls
        self.copy: list[str] | None = None  # what copy_here passes on: set by find()

    def read(self, cls: str, sha: str, digest: str, entry: dict[str, Any], first_page: int = 1,
             last_page: int | None = None, text_only: bool = False,
             search: Any = None) -> tuple[Iterator[dict[str, Any]], bool]:
        """As View.read: a document with text gives the slice only, any other all its pages
        and the reader checks that it has text. Records are whole (the server keeps no text
        blob), which every reader of slim ones reads too."""
        if entry.get("text_pages") and (first_page > 1 or last_page):
            return self.records(sha, digest, entry, first_page, last_page), False
        return self.records(sha, digest, entry), True

    def records(self, sha: str, digest: str, entry: dict[str, Any], start: int = 1,
                stop: int | None = None) -> Iterator[dict[str, Any]]:
        """The document's records, its pages ``start`` to ``stop``: read before the first is
        given, so that a page the server lost meanwhile is known before any output."""
        numbers = [n for n in entry["page_numbers"] if n >= start and (stop is None or n <= stop)]
        try:
            pages = self.pages(sha, digest, numbers)
        except OSError as exc:
            FAILED[self.url] = exc
            raise
        if pages is None:
            raise LookupError("the server lost pages of the document")
        return iter([{"meta": dict(entry["meta"])}, *pages, {"done": dict(entry["done"])}])

    def pages(self, sha: str, digest: str, numbers: list[int]) -> list[dict[str, Any]] | None:
        key = pages_key(doc_key(self.cls, sha, digest))
        batches = [numbers[start:start + _BATCH] for start in range(0, len(numbers), _BATCH)]
        replies = self.connection.call(*[["HMGET", key, *map(str, batch)] for batch in batches]) if batches else []
        pages: list[dict[str, Any]] = []
        for batch, values in zip(batches, replies, strict=True):  # one round trip for them all
            for number, raw in zip(batch, values, strict=True):
                record = page(raw, number)
                if record is None:
                    return None
                pages.append(record)
        return pages

    def close(self) -> None:
        self.connection.close()


def find(url: str, cls: str, name: str, path: str, stamp: str, size: int, directory: str,
         sha: str | None = None, digest: str | None = None) -> tuple[RemoteView, str, str, dict[str, Any]] | None:
    """The view, content hash, options digest and entry of the local PDF at ``path`` (of
    ``size`` bytes, :func:`siftpdf.store.local_reader.file_stamp` ``stamp``) on the server, for the
    options remembered under ``name``; None when this path cannot tell (a miss, an error).
    ``directory`` is this machine's cache, where the document is copied after the answer;
    ``sha``, the file's content hash when this machine's cache knows it for this stamp (the file
    is then not read); ``digest``, the options digest when this machine's cache remembers it
    under ``name`` (the same on the server: both follow from the options and the code)."""
    if _address(url) is None or url in FAILED:
        return None
    try:
        import hiredis  # noqa: F401  (without it, the commands read the server through redis-py)
    except ImportError:
        return None
    from ..defaults import MAX_PDF_BYTES
    from .local_reader import code_identity

    try:
        if size > MAX_PDF_BYTES:
            return None  # the commands refuse it
        sha = sha or _sha256(path)
        connection = Connection(url)
    except (OSError, ReplyError) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, FileNotFoundError | PermissionError):
            FAILED[url] = exc
        return None
    view = RemoteView(connection, url, cls)
    try:
        if digest is None:
            named = connection.call(["GET", digest_key(cls, name, code_identity())])[0]
            digest = named.decode() if named else None
        raw = connection.call(["GET", doc_key(cls, sha, digest)])[0] if digest else None
        found = entry(raw)
    except (OSError, ReplyError, ValueError) as exc:
        if isinstance(exc, OSError):
            FAILED[url] = exc
        view.close()
        return None
    if found is None or found.get("password_check") is not None or digest is None:
        view.close()
        return None
    view.copy = [directory, path, stamp, sha, digest, name]
    return view, sha, digest, found


def _sha256(path: str) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as pdf:
        while chunk := pdf.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


# The fields a reader of each entry counts on: an entry without them (written by some other
# program, or damaged) is no entry.
DOCUMENT_FIELDS = frozenset({"meta", "done", "page_numbers"})
URL_FIELDS = frozenset({"sha256", "final_url", "fetched_at"})


def entry(raw: bytes | str | None, fields: frozenset[str] = DOCUMENT_FIELDS) -> dict[str, Any] | None:
    """A document (or URL) entry as the server keeps it (JSON), or None."""
    if raw is None:
        return None
    import json

    found = json.loads(raw)
    return found if isinstance(found, dict) and fields <= found.keys() else None


def page(raw: bytes | str | None, number: int) -> dict[str, Any] | None:
    """Page ``number``'s record as the server keeps it (JSON compressed by zlib), or None for a
    page the server does not hold or holds as something else (bytes that do not decompress
    raise zlib.error, which callers take for a failing server)."""
    if not isinstance(raw, bytes):
        return None
    import json
    import zlib

    record = json.loads(zlib.decompress(raw))
    return record if isinstance(record, dict) and record.get("page") == number else None


# -- the copy here -------------------------------------------------------------------------------

def copy_command(view: RemoteView) -> tuple[list[str], dict[str, str]] | None:
    """The command line and environment of the process that copies what ``view`` read into
    this machine's cache (:func:`siftpdf.store.tiers.copy_main`): the server's URL goes in its
    environment, never on its command line."""
    import sys

    if view.copy is None or not sys.executable:
        return None
    env = dict(os.environ, SIFTPDF_CACHE_URL=view.url, SIFTPDF_CALLER_CLASS=view.cls)
    return [sys.executable, "-I", "-m", "siftpdf.store.tiers", *view.copy], env


def copy_here(view: RemoteView) -> None:
    """Copy the document ``view`` read into this machine's cache, in a process of its own
    that outlives this one (a session of its own, no terminal, output nowhere). A copy that
    cannot start is left to the next call."""
    command = copy_command(view)
    if command is None:
        return
    argv, env = command
    nowhere = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    try:
        os.posix_spawn(argv[0], argv, env, file_actions=nowhere, setsid=True)
    except (OSError, AttributeError, NotImplementedError, TypeError):
        pass
