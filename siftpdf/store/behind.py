"""A first read's cache writes, left to a copy of the command that outlives it.

Opening this machine's cache to write (diskcache imported, its two stores opened) and writing
a document into it cost a one-page ``extract`` a quarter of its time: a first read of a local
PDF took 1.3 times what the same read takes with ``--no-cache``. The ``siftpdf`` command ends
when its read does, so a first read of up to :data:`PAGES` pages keeps what it would write
(:class:`Behind`), and when the read is done a copy of the process (``os.fork``) writes it,
in a session of its own, its standard streams on ``/dev/null``, while the command prints its
last page and ends. What reads the same document meanwhile waits for the copy: it holds

- the read's single-flight lock (``content|SHA|OPTIONS``: a second read of the same bytes
  waits there, as it waits for a running extraction, then finds the document),
- a lock named by the file's path and stamp (:func:`wait_written`: the console's fast paths,
  which look the file up by its path, wait for it before they call a read a miss),
- the cache's writers' lock, shared (:func:`wait_all`: ``siftpdf cache`` waits for every
  copy, so that ``cache clear`` after a read clears what that read wrote).

A copy is made only where it is safe: by the ``siftpdf`` command (not a service, a library
caller, or a test's in-process runner: :data:`siftpdf.options.Hints.write_behind`), on Linux,
with no other thread running, and one at a time; otherwise the pages are written here, as a
read writes a longer document page by page. A copy that fails leaves only a later miss.
"""

from __future__ import annotations

import os

from ..workers.early_child import pool_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..workers.pool import FileLock
    from .tiers import Caches, DocumentWriter

#: The most pages a read keeps for its copy to write (two extraction chunks); a longer
#: document is written page by page as it is read, its cache's opening spread over its pages.
PAGES = 64
#: How long a look in the cache waits for a copy writing what it looks for (one writes a
#: document of PAGES pages in well under a second); then it goes on as on a miss.
WAIT = 10.0
POLL = 0.01  # seconds between looks at a copy's lock: a copy takes tens of milliseconds
#: Seconds a copy may take to write; then it ends (SIGALRM), its locks with it.
DEADLINE = 60
_WRITERS = "behind.lock"  # in the pool's folder: every copy holds it shared while it writes

# The copy this process made last (one at a time: a command reading many documents waits for
# the previous copy before it makes the next).
_LAST: list[int] = []


def _lock_path(directory: str, name: str) -> str:
    return os.path.join(pool_folder(directory), "behind", name)


def file_lock_name(cls: str, path: str, stamp: str) -> str:
    from ..workers.pool import lock_name

    return lock_name(f"{cls}|{path}|{stamp}")


def wait_written(directory: str, cls: str, path: str, stamp: str, timeout: float = WAIT) -> bool:
    """Wait while a copy writes the local file at ``path`` (resolved, with ``stamp``) into the
    cache at ``directory``; whether a copy ever wrote it (then look again: a look made while it
    wrote may have found only part of it). Where no copy has ever written there, one look at a
    folder and nothing imported."""
    if not os.path.isdir(os.path.join(pool_folder(directory), "behind")):
        return False
    return _wait_free(_lock_path(directory, file_lock_name(cls, path, stamp)), timeout, shared=True)


def wait_all(directory: str, timeout: float = WAIT) -> None:
    """Wait until no copy writes into the cache at ``directory`` (at most ``timeout``)."""
    _wait_free(os.path.join(pool_folder(directory), _WRITERS), timeout, shared=False)


def _wait_free(path: str, timeout: float, shared: bool) -> bool:
    """Wait until the lock file at ``path`` is free (taken as ``shared`` and let go at once);
    whether it is there (a lock file that is not there was never held)."""
    import fcntl

    from ..workers.pool import poll  # a miss: the read that follows imports it anyway

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False

    def taken() -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    try:
        if not taken():
            poll(taken, timeout, every=POLL)
        return True
    finally:
        os.close(fd)  # the lock, if taken, with it


class Behind:
    """The writer of one extraction (:class:`siftpdf.store.tiers.DocumentWriter`'s ``add``,
    ``commit`` and ``abort``) that keeps the records and, at :meth:`commit`, leaves their
    writing to a copy of the process; past :data:`PAGES` pages, or where no copy can be made,
    it writes through ``open_writer`` here. ``remember`` writes what a read notes beside the
    document (the file's content hash, the options' name) in the store it is given."""

    def __init__(self, caches: Caches, flight: FileLock, local: tuple[str, str] | None,
                 open_writer: Callable[[], DocumentWriter], remember: Callable[[Any], None]) -> None:
        self.caches, self.flight, self.local = caches, flight, local
        self._open_writer, self._remember = open_writer, remember
        self._writer: DocumentWriter | None = None
        self.records: list[dict[str, Any]] = []
        self.meta: dict[str, Any] | None = None
        self.done: dict[str, Any] | None = None
        self.numbers: list[int] = []

    def add(self, record: dict[str, Any]) -> None:
        if self._writer is not None:
            self._writer.add(record)
            self.meta, self.numbers = self._writer.meta, self._writer.numbers
            return
        if "meta" in record:
            from .tiers import stored_meta

            self.meta = stored_meta(record["meta"])
        elif "page" in record:
            self.numbers.append(int(record["page"]))
        elif "done" in record:
            self.done = dict(record["done"])
        self.records.append(record)
        if len(self.numbers) > PAGES:
            self._here()

    def _here(self) -> DocumentWriter:
        """Write from now on in this process: what was kept first."""
        self._remember(self.caches.local)
        writer = self._writer = self._open_writer()
        records, self.records = self.records, []
        for record in records:
            writer.add(record)
        return writer

    def commit(self) -> bool:
        if self._writer is None and (self.meta is None or self.done is None):
            return False
        if self._writer is None and self._behind():
            return True
        return (self._writer or self._here()).commit()

    def abort(self) -> None:
        self.records = []
        if self._writer is not None:
            self._writer.abort()

    def _behind(self) -> bool:
        """Make the copy that writes the records; False when none can be made here."""
        from ..workers.pool import FileLock

        directory = self.caches.settings.folder
        locks = [FileLock(os.path.join(pool_folder(directory), _WRITERS))]
        if self.local is not None:
            locks.append(FileLock(_lock_path(directory, file_lock_name(self.caches.cls, *self.local))))
        try:
            taken = [lock.try_acquire(shared=index == 0) for index, lock in enumerate(locks)]
            if not all(taken):  # a copy writes the same file (its stamp unchanged): write here
                return False
            return outlive(self._write, [self.flight, *locks])
        finally:
            for lock in locks:
                lock.release()  # this process's descriptors: the copy holds its own

    def _write(self) -> None:
        """In the copy: the document, then what the read notes beside it."""
        writer = self._open_writer()
        pages = [record for record in self.records if "page" in record]
        for record in self.records:
            if "page" not in record:
                writer.add(record)
        writer.add_pages(pages)
        if writer.commit():
            self._remember(self.caches.local)


def outlive(work: Callable[[], object], keep: list[FileLock]) -> bool:
    """Run ``work`` in a copy of this process that outlives it, holding the locks ``keep``
    (their descriptors are the copy's too) and nothing else this process has open; False,
    having made none, when another thread runs (a copy would inherit locks it holds), off
    Linux, or when the system makes no copy."""
    import sys

    if not sys.platform.startswith("linux") or not _only_thread():
        return False  # (macOS's system libraries are not safe to use in a copy made by fork)
    if _LAST:  # one copy at a time
        try:
            os.waitpid(_LAST.pop(), 0)
        except ChildProcessError:
            pass
    _close_connections()
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid:
        _LAST.append(pid)
        return True
    code = 1
    try:
        import signal

        signal.alarm(DEADLINE)  # a copy that cannot finish (a cache locked for good) ends
        _alone([lock.descriptor for lock in keep if lock.descriptor is not None])
        work()
        code = 0
    finally:
        os._exit(code)  # never back into the command: no exit handlers, no buffers flushed


def _only_thread() -> bool:
    """Whether this thread is the process's only one, once the timers that were cancelled (the
    read's deadline, a page's) have ended, as each does at once."""
    import threading

    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer) and thread.finished.is_set():
            thread.join(timeout=1.0)
    return threading.active_count() == 1


def _close_connections() -> None:
    """Close this process's SQLite connections to the cache (each is opened again when next
    used): a copy must not inherit them, or the state SQLite keeps of them in the process (its
    locks, its WAL index) would be the copy's too, with descriptors the copy closes."""
    from .local_store import close_all
    from .tiers import close_views

    close_views()
    close_all()


def _alone(keep: list[int]) -> None:
    """The copy on its own: a session of its own (no terminal's signals), its standard streams
    on /dev/null (the command's reader sees the end of its output when the command ends), and
    every other descriptor closed but ``keep``."""
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    low = 3
    for fd in sorted(set(keep)):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))
