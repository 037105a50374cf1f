"""Test-only seams, patched into siftpdf from the tests' side: siftpdf itself reads no test
variable, so nothing in a user's environment can slow, crash or redirect its children.

The tests' conftest installs them in the test process; ``sitecustomize.py`` beside this file
installs them in every Python process the tests start (the folder is on their PYTHONPATH)
when one of these variables is set:

- ``SIFTPDF_TEST_CHILD_LOG=FILE``: each extraction child started appends a line to FILE;
- ``SIFTPDF_TEST_CHILD_DELAY=S``: the parent waits S seconds before starting each child
  (a job that holds its pool slot);
- ``SIFTPDF_TEST_CHILD_SLEEP=S``: each child sleeps S seconds before extracting (a hang);
- ``SIFTPDF_TEST_CHILD_CRASH=N[,M…]``: PDFium aborts the child on those pages (a real crash
  of the process, as a hostile page can cause); ``SIFTPDF_TEST_CHILD_CRASH_SALVAGE=1``
  aborts it in the salvage engines too;
- ``SIFTPDF_TEST_CHILD_STALL=N``: the child writes half of page N's line, then hangs;
- ``SIFTPDF_TEST_PLATFORM_NO_RLIMIT=1``: a platform where the kernel does not enforce
  RLIMIT_AS (macOS): the parent's memory watchdog holds the children to the limit
  (:func:`siftpdf.system.rlimit_enforced` says False); ``SIFTPDF_TEST_PLATFORM_NO_WATCHDOG=1``
  takes the watchdog away too (:func:`siftpdf.system.watchdog_available`);
- ``SIFTPDF_TEST_SERVICE_BUG=TEXT``: the service raises an unexpected exception (a bug) for
  every URL that contains TEXT;
- ``SIFTPDF_TEST_FETCH_VIA=http://127.0.0.1:PORT``: a URL whose host is not loopback is
  downloaded from that server instead, at ``/HOST/PATH`` (the documentation's
  ``https://arxiv.org/pdf/…`` from a loopback server), and the answer keeps the URL asked for.
  Patched into ``siftpdf.fetch`` when that module is imported, so a process that downloads
  nothing pays nothing for it.
- ``SIFTPDF_TEST_ABSENT=NAME[,NAME…]``: those top-level modules cannot be imported, as when
  their package is not installed (an extra left out), however they are looked for.

The child runs isolated (``-I``, empty environment), so its hooks travel in its argv: the
child command becomes ``hooked_child.py CONFIG`` with CONFIG a JSON object.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HOOKED_CHILD = Path(__file__).with_name("hooked_child.py")
_CHILD_HOOKS = {"SIFTPDF_TEST_CHILD_SLEEP": "sleep", "SIFTPDF_TEST_CHILD_CRASH": "crash",
                "SIFTPDF_TEST_CHILD_CRASH_SALVAGE": "crash_salvage", "SIFTPDF_TEST_CHILD_STALL": "stall"}
_installed: list[bool] = []


def install() -> None:
    """Patch the parent side of extraction (siftpdf.workers.runner). Idempotent; each hook reads the
    environment when a child starts, so a test can set it with monkeypatch."""
    if _installed:
        return
    _installed.append(True)
    from siftpdf.workers import runner

    original_argv = runner.child_argv
    original_spawn = runner._Run.spawn

    def child_argv() -> list[str]:
        config = {name: os.environ[var] for var, name in _CHILD_HOOKS.items() if os.environ.get(var)}
        if not config:
            return original_argv()
        return [sys.executable, "-I", str(HOOKED_CHILD), json.dumps(config)]

    def spawn(self: Any, shard: int, shards: int, *args: Any, **kwargs: Any) -> Any:
        delay = os.environ.get("SIFTPDF_TEST_CHILD_DELAY")
        if delay:
            time.sleep(float(delay))
        log = os.environ.get("SIFTPDF_TEST_CHILD_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(f"{os.getpid()} shard={shard}/{shards}\n")
        return original_spawn(self, shard, shards, *args, **kwargs)

    runner.child_argv = child_argv
    runner._Run.spawn = spawn  # type: ignore[method-assign]
    _platform()
    _service_bug()
    install_fetch()


def _platform() -> None:
    from siftpdf import system

    for name, variable in (("rlimit_enforced", "SIFTPDF_TEST_PLATFORM_NO_RLIMIT"),
                           ("watchdog_available", "SIFTPDF_TEST_PLATFORM_NO_WATCHDOG")):
        original = getattr(system, name)

        def simulated(_original: Any = original, _variable: str = variable) -> bool:
            return False if os.environ.get(_variable) else bool(_original())

        setattr(system, name, simulated)


def _service_bug() -> None:
    from siftpdf.http import service

    for name in ("clean", "digest"):
        original = getattr(service, name)

        def buggy(url: str, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            marker = os.environ.get("SIFTPDF_TEST_SERVICE_BUG")
            if marker and marker in url:
                raise RuntimeError(f"a bug planted by the test seam for {url}")
            return _original(url, *args, **kwargs)

        setattr(service, name, buggy)


def wanted() -> bool:
    return any(name.startswith(("SIFTPDF_TEST_CHILD_", "SIFTPDF_TEST_SERVICE_", "SIFTPDF_TEST_PLATFORM_"))
               for name in os.environ)


ABSENT = "SIFTPDF_TEST_ABSENT"


def make_absent(names: str) -> None:
    """What Python does for a module in ``sys.modules`` as None: ``import`` raises
    ModuleNotFoundError and ``importlib.util.find_spec`` answers None."""
    for name in filter(None, (part.strip() for part in names.split(","))):
        sys.modules[name] = None  # type: ignore[assignment]


FETCH_VIA = "SIFTPDF_TEST_FETCH_VIA"
LOOPBACK_HOSTS = ("localhost", "::1")


def install_fetch() -> None:
    """Reroute downloads as ``SIFTPDF_TEST_FETCH_VIA`` says (read at each download)."""
    module = sys.modules.get("siftpdf.fetch")
    if module is not None:
        _reroute(module)
    elif not any(isinstance(finder, _AfterImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport("siftpdf.fetch", _reroute))


class _AfterImport:
    """A meta path finder that runs ``patch`` on a module right after it is first imported
    (the imports it needs wait until then: every process the tests start loads this file)."""

    def __init__(self, name: str, patch: Any) -> None:
        self.name, self.patch = name, patch

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        import importlib.util

        sys.meta_path.remove(self)  # once; and the real finders below find the module
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        loader, patch = spec.loader, self.patch
        original = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            original(module)
            patch(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _reroute(fetch: ModuleType) -> None:
    import dataclasses
    from urllib.parse import urlsplit

    if getattr(fetch.download, "rerouted", False):
        return
    original = fetch.download

    def download(url: str, **kwargs: Any) -> Any:
        via = os.environ.get(FETCH_VIA, "").rstrip("/")
        parts = urlsplit(url)
        host = parts.hostname or ""
        if not via or host in LOOPBACK_HOSTS or host.startswith("127."):
            return original(url, **kwargs)
        local = f"{via}/{host}{parts.path or '/'}" + (f"?{parts.query}" if parts.query else "")
        fetched = original(local, **dict(kwargs, allow_private=True))
        final = fetched.final_url
        if final.startswith(via + "/"):
            final = f"{parts.scheme}://{final[len(via) + 1:]}"
        return dataclasses.replace(fetched, url=url, final_url=final)

    download.rerouted = True  # type: ignore[attr-defined]
    fetch.download = download

