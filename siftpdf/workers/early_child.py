"""A warm extraction child: the console command starts it first thing, before importing click
and the library, when its command line names a local PDF to extract without the cache; the
child imports its engine while the parent starts up, then waits on stdin for its job.

The job is given by the runner once the parent has decided to extract (pool slot taken): a
line of the child's own options, then what any child reads (password line, PDF). The child
applies its limits and closes its audit hook after reading that line, before the first byte
of the PDF (``siftpdf.child.main``). A warm child that gets no job (a usage error, a doc stream)
is killed on the way out; one whose parent dies reads end of file on stdin and exits.

The console's cold path (``siftpdf.console.local_pdf``) may give the child its job at once (:func:`send`),
with a pool slot taken for it (:func:`claim_slot`); the runner and the pool then take over
the child (:func:`take`) and the slot (:func:`take_slot`) instead of starting or taking others.

At import this module loads only ``os``, ``sys`` and ``_thread`` (built in, loaded at
start-up) and the defaults; fcntl, stat and signal where a job needs them: it runs before
everything else.
"""

from __future__ import annotations

import _thread
import os
import sys

from ..child.job import WARM, job_bytes
from ..defaults import SLOTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

SNIFF = 1024  # how far a PDF header may be from the start (as siftpdf.sniff looks)
_TAKING = _thread.allocate_lock()
FD_FOLDER = "/proc/self/fd"  # this process's open descriptors (Linux)


def default_argv() -> list[str]:
    """The command of an extraction child (``siftpdf.workers.runner.child_argv``'s default):
    isolated (``-I``) and without ``site`` (``-S``), whose work (the .pth files, one of which
    imports a module of setuptools') was a third of the interpreter's start; the folders site
    gave this process come on the command line instead (:func:`child_path`)."""
    global _ARGV
    if _ARGV is None:  # made once; threads that make it at once make the same one
        boot = f"import sys; sys.path.extend({child_path()!r}); from siftpdf.child.main import main; sys.exit(main())"
        _ARGV = (sys.executable, "-I", "-S", "-c", boot)
    return list(_ARGV)


_ARGV: tuple[str, ...] | None = None


def child_path() -> list[str]:
    """The folders a child imports from besides the standard library's: the one that holds
    this package, then those this process imports from (its site-packages and what their .pth
    files added), but its script's folder or the current one, which ``-I`` leaves out."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = os.path.dirname(os.path.realpath(sys.argv[0])) if sys.argv and sys.argv[0] else ""
    left_out = {"", os.getcwd(), script} if not sys.flags.safe_path else set()
    entries = [entry for index, entry in enumerate(sys.path) if index or entry not in left_out]
    folders = [here] + [entry for entry in entries if entry and os.path.isabs(entry) and os.path.exists(entry)]
    return list(dict.fromkeys(folders))


class Spawned:
    """A child started by ``os.posix_spawn``: the part of ``subprocess.Popen`` the runner uses
    (importing subprocess would cost the start-up this module saves)."""

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: IO[bytes] | None = os.fdopen(stdin, "wb")
        self.stdout: IO[bytes] | None = os.fdopen(stdout, "rb")
        self.stderr: IO[bytes] | None = os.fdopen(stderr, "rb")
        self._lock = _thread.allocate_lock()  # the watchdog polls while the reader waits

    def poll(self) -> int | None:
        # As Popen's: while another thread waits for the child, it is running (the watchdog
        # must not block behind the reader's wait, or it could never kill the child).
        if not self._lock.acquire(False):
            return None
        try:
            return self._wait(os.WNOHANG)
        finally:
            self._lock.release()

    def wait(self) -> int:
        with self._lock:
            code = self._wait(0)
        assert code is not None
        return code

    def _wait(self, flags: int) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:  # reaped by someone else: nothing more to know
                pid, status = self.pid, 0
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


class _Warm:
    """The one warm child of this process, if any, and the command that started it; once it
    has been given its job early (:func:`send`), the job's options and PDF; and a pool slot
    taken for that job (:func:`claim_slot`), until the pool takes it over."""

    child: Spawned | None = None
    argv: list[str] = []
    job: list[str] | None = None
    data: bytes | None = None
    slot: tuple[str, int] | None = None


def is_pdf(path: str) -> bool:
    """A regular file with a PDF header where the sniffer looks for one. A pipe (or a device)
    is never opened: its writer would take this for the command's reader, and the close that
    follows would end it."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and b"%PDF-" in os.read(fd, SNIFF)
    except OSError:
        return False
    finally:
        os.close(fd)


def started() -> bool:
    """Whether this process started a warm child (:func:`prestart`) that is still its own."""
    return _Warm.child is not None


def prestart(pool_dir: str) -> None:
    """Start the warm child when a slot of the pool in ``pool_dir`` is free for it now (taken
    for the job: :func:`claim_slot`); the console decides that its command line will likely
    need one (:mod:`siftpdf.console.early`). A job that will wait in the pool's line starts its
    child when its turn comes: an idle child in line would be one child too many. Linux only
    (the child must not inherit this process's descriptors: /proc/self/fd lists them)."""
    if _Warm.child is not None or not sys.platform.startswith("linux"):
        return
    if not claim_slot(pool_dir, SLOTS):
        return
    argv = default_argv()
    try:
        _Warm.child = _spawn(argv + [WARM])
    except OSError:
        return  # the runner starts its child the usual way
    _Warm.argv = argv


def pool_folder(cache_dir: str | None) -> str:
    """The extraction pool's folder under the cache dir (the default one for None): its lock
    files are the pool (:mod:`siftpdf.workers.pool`)."""
    if not cache_dir:
        from ..system import default_cache_dir

        cache_dir = default_cache_dir()
    return os.path.join(cache_dir, "pool")


def _spawn(argv: list[str]) -> Spawned:
    """``argv`` in a new session, with an empty environment, pipes for stdin, stdout and stderr
    and no other descriptor (what the runner's Popen does with close_fds). OSError where this
    process's descriptors cannot be listed (a Linux without /proc): the runner then starts its
    child the usual way."""
    inherited = _inherited()
    pipes = [os.pipe() for _ in range(3)]  # non-inheritable: only the dup2 copies reach the child
    ends = [pipes[0][0], pipes[1][1], pipes[2][1]]
    actions: list[tuple[int, ...]] = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(ends)]
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in inherited]
    try:
        pid = os.posix_spawn(argv[0], argv, {}, file_actions=actions, setsid=True)
    except BaseException:
        for read, write in pipes:
            os.close(read)
            os.close(write)
        raise
    for fd in ends:
        os.close(fd)
    return Spawned(pid, pipes[0][1], pipes[1][0], pipes[2][0])


def _inherited() -> list[int]:
    """This process's descriptors above stderr that a child would inherit (OSError where they
    cannot be listed)."""
    found = []
    for name in os.listdir(FD_FOLDER):
        fd = int(name)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    found.append(fd)
            except OSError:  # the listing's own descriptor, closed by now
                pass
    return found


def take(argv: list[str], data: bytes | None = None) -> tuple[Spawned, bytes | None] | None:
    """The warm child for a child that would be started as ``argv`` to read ``data``, with the
    job line that makes it that child, or None for that line when it was sent early (the child
    has its PDF too); None when there is none, or it was started (or given a job) as another.
    Threads of one batch (``extract -o DIR``) ask at once: one of them gets it."""
    with _TAKING:
        return _take(argv, data)


def _take(argv: list[str], data: bytes | None) -> tuple[Spawned, bytes | None] | None:
    child, prefix, job = _Warm.child, _Warm.argv, _Warm.job
    if child is not None and job is not None and (argv != prefix + job or data != _Warm.data):
        discard()  # busy with another job: of no use here (and not to be left to run)
        return None
    if child is None or argv[: len(prefix)] != prefix:
        return None
    if job is not None:
        _Warm.child = _Warm.data = None
        return child, None  # even if it died meanwhile: its exit status says why, as any child's
    line = job_bytes(argv[len(prefix):])  # before the child is taken: a bad word leaves it to discard()
    _Warm.child = None
    if child.poll() is not None:  # it died while it waited: the usual way then
        _close(child)
        return None
    return child, line


def send(job: list[str], data: bytes) -> bool:
    """Give the warm child its job now, ahead of the runner, which then takes the child (with
    :func:`take`) if it asks for the same job. ``job`` is the child's options; the PDF is
    written by a thread, as the runner's feeder does, since a pipe holds only so much."""
    child = _Warm.child
    if child is None or _Warm.job is not None or child.stdin is None:
        return False
    try:
        line = job_bytes(job)
    except ValueError:
        return False
    _Warm.job, _Warm.data = list(job), data
    _thread.start_new_thread(feed, (child.stdin, line, data))
    return True


def feed(stdin: IO[bytes], prefix: bytes, data: bytes) -> None:
    """Write a child's input (its job or password line, then the PDF) and close its stdin."""
    try:
        if prefix:
            stdin.write(prefix)
        stdin.write(data)
    except (OSError, ValueError):
        pass  # the child stopped reading: its exit status tells why
    finally:
        try:
            stdin.close()
        except (OSError, ValueError):
            pass


def claim_slot(pool_dir: str, slots: int) -> bool:
    """Take a slot of the extraction pool at ``pool_dir`` now, as ``siftpdf.workers.pool`` takes one
    (an flock on ``slot.N``, while holding the places at the head of its line, so that no
    waiting job is passed), for this command's job; the pool takes it over with
    :func:`take_slot`. False when none is free or a job waits: the pool's line then."""
    if _Warm.slot is not None:
        return os.path.normpath(os.path.dirname(_Warm.slot[0])) == os.path.normpath(pool_dir)
    try:
        os.makedirs(pool_dir, exist_ok=True)
    except OSError:
        return False
    _Warm.slot = free_slot(pool_dir, slots)
    return _Warm.slot is not None


def free_slot(pool_dir: str, slots: int) -> tuple[str, int] | None:
    """A slot of the pool at ``pool_dir`` free now, unless a job waits for one (the places at
    the head of the line are held while it is taken, so no waiter is passed): its path and the
    descriptor holding its flock. The pool's way to a slot not waited for, here so that the
    console can take one before the pool is imported."""
    import fcntl

    heads = []
    try:
        for index in range(slots):
            fd = _try_lock(os.path.join(pool_dir, f"wait.{index}"), fcntl)
            if fd is None:
                return None  # a job is waiting: it comes first
            heads.append(fd)
        for index in range(slots):
            path = os.path.join(pool_dir, f"slot.{index}")
            fd = _try_lock(path, fcntl)
            if fd is not None:
                return path, fd
        return None
    finally:
        for fd in heads:
            os.close(fd)


def _try_lock(path: str, fcntl: Any) -> int | None:
    """A descriptor of ``path`` holding its flock, or None when another holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def take_slot(pool_dir: str) -> tuple[str, int] | None:
    """The path and descriptor of the slot :func:`claim_slot` took in ``pool_dir``, if any (one
    taken in another pool, by a wrong guess of the cache dir, is given back)."""
    slot = _Warm.slot
    if slot is None:
        return None
    _Warm.slot = None
    if os.path.normpath(os.path.dirname(slot[0])) != os.path.normpath(pool_dir):
        os.close(slot[1])
        return None
    return slot


def discard() -> None:
    """Kill the warm child (no job for it, or not the one it was given) and reap it; give back
    the pool slot claimed for it, unless the pool has taken it over."""
    child, _Warm.child = _Warm.child, None
    _Warm.job = _Warm.data = None
    slot, _Warm.slot = _Warm.slot, None
    if slot is not None:
        os.close(slot[1])
    if child is None:
        return
    from _signal import SIGKILL  # signal's C half: the module imports enum

    try:
        os.killpg(child.pid, SIGKILL)
    except OSError:
        pass
    _close(child)
    child.wait()


def _close(child: Spawned) -> None:
    for stream in (child.stdin, child.stdout, child.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
