"""``siftpdf engine status``: which engines load, their versions, whether the memory limit is
enforced on this machine, and where the cache is. The engines are loaded in a fresh child
(``siftpdf._probe``) started the way extraction children are, never in this process."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from .runner import Limits

ROLES = {"pdfium": "default engine", "pypdf": "fallback for what PDFium cannot open",
         "pdfplumber": "layout analysis and tables", "ocr": "OCR of scanned pages (--ocr)"}


def cache_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder: ``explicit``, else $SIFTPDF_CACHE_DIR, else $XDG_CACHE_HOME/siftpdf,
    else ~/.cache/siftpdf."""
    if explicit:
        return Path(explicit)
    if os.environ.get("SIFTPDF_CACHE_DIR"):
        return Path(os.environ["SIFTPDF_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "siftpdf"


def folder_bytes(path: Path) -> tuple[int, int]:
    """Bytes and number of the files under ``path`` (0, 0 when it does not exist)."""
    total = files = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
                files += 1
            except OSError:
                continue
    return total, files


def _probe(memory: int, timeout: float) -> dict[str, Any]:
    argv = [sys.executable, "-I", "-m", "siftpdf._probe", str(memory)]
    try:
        done = subprocess.run(argv, capture_output=True, env={}, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return {"error": f"the probe child did not answer in {timeout:g} s"}
    except OSError as exc:
        return {"error": f"cannot start a child: {exc}"}
    try:
        result: dict[str, Any] = json.loads(done.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
        return result
    except (ValueError, IndexError):
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return {"error": f"the probe child failed (exit {done.returncode}): {lines[-1] if lines else 'no output'}"}


def shared_cache(url: str) -> dict[str, Any]:
    """The shared cache server (``--cache-url``): its URL without the password, whether it
    answers, its version and what siftpdf keeps there (or why it does not answer)."""
    from .cache import failure, redacted

    found: dict[str, Any] = {"url": redacted(url), "reachable": False}
    try:
        from .rediscache import ERRORS, RedisStore
    except ImportError:
        return {**found, "error": "the Redis client is not installed: pip install 'siftpdf[redis]'"}
    try:
        return {**found, "reachable": True, **RedisStore(url).info()}
    except ERRORS as exc:
        return {**found, "error": failure(exc, url)}


def engine_status(cache: str | os.PathLike[str] | None = None, memory: int | None = None,
                  timeout: float = 60.0, cache_url: str | None = None) -> dict[str, Any]:
    """The status record body: engines, memory limit, cache (and the shared cache server, when
    one is named), and ``ok`` when the default engine loads and the memory limit is enforced."""
    from . import __version__

    memory = Limits().memory if memory is None else memory
    found = _probe(memory, timeout)
    engines = []
    for item in found.get("engines", []):
        engines.append({"name": item["name"], "loads": bool(item["loads"] and item.get("reads")),
                        "version": item.get("version"), "build": item.get("build"),
                        "role": ROLES.get(item["name"], ""), "error": item.get("error")})
    probe = found.get("memory", {})
    if "error" in found:
        limit = {"bytes": memory, "enforced": False, "detail": found["error"]}
    elif not found.get("limit_applied"):
        limit = {"bytes": memory, "enforced": False, "detail": found.get("limit_error", "RLIMIT_AS not applied")}
    else:
        limit = {"bytes": memory, "enforced": bool(probe.get("enforced")), "detail": probe.get("detail", "")}
    folder = cache_dir(cache)
    size, files = folder_bytes(folder)
    default = next((e for e in engines if e["name"] == "pdfium"), None)
    shared = {"shared_cache": shared_cache(cache_url)} if cache_url else {}
    return {
        "siftpdf": __version__,
        "python": platform.python_version(),
        "platform": sys.platform,
        "engines": engines,
        "memory_limit": limit,
        "cache": {"dir": str(folder), "exists": folder.is_dir(), "bytes": size, "files": files},
        **shared,
        "ok": bool(default and default["loads"] and limit["enforced"]),
    }


def render_status(status: dict[str, Any]) -> str:
    """The text view of :func:`engine_status`."""
    lines = [f"siftpdf {status['siftpdf']} · Python {status['python']} · {status['platform']}", "", "engines:"]
    width = max((len(e["name"]) for e in status["engines"]), default=6)
    for engine in status["engines"]:
        if engine["loads"]:
            what = engine["version"] + (f", {engine['build']}" if engine.get("build") else "")
            lines.append(f"  {engine['name']:<{width}}  loads   {what} — {engine['role']}")
        elif (engine.get("error") or "").startswith("not installed"):
            lines.append(f"  {engine['name']:<{width}}  absent  {engine['error']}")
        else:
            lines.append(f"  {engine['name']:<{width}}  FAILS   {engine.get('error') or 'does not read a test page'}")
    if not status["engines"]:
        lines.append("  (no engine could be probed)")
    limit = status["memory_limit"]
    mib = limit["bytes"] >> 20
    state = "enforced" if limit["enforced"] else "NOT enforced"
    lines += ["", f"memory limit: {state} ({mib} MiB per extraction child; {limit['detail']})"]
    cache = status["cache"]
    where = f"{cache['bytes']:,} bytes in {cache['files']} files" if cache["exists"] else "absent, 0 bytes"
    lines.append(f"cache: {cache['dir']} ({where})")
    if "shared_cache" in status:
        lines.append("shared cache: " + render_shared(status["shared_cache"]))
    return "\n".join(lines) + "\n"


def render_shared(shared: dict[str, Any]) -> str:
    """One line of :func:`shared_cache`."""
    if not shared["reachable"]:
        return f"{shared['url']} NOT reachable ({shared['error']}); the local cache is used alone"
    return f"{shared['url']} ({shared['server']}, {shared['documents']} documents, {shared['bytes']:,} bytes)"
