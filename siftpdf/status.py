"""``siftpdf engine status``: which engines load, their versions, whether the memory limit is
enforced on this machine and by what (RLIMIT_AS or the watchdog), and where the cache is. The
engines are loaded in a fresh child (``siftpdf.child.probe``) started the way extraction children
are, never in this process."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from .options import Limits

# Layout and tables are siftpdf's own work on PDFium's evidence; pypdf and pdfplumber only salvage.
ROLES = {"pdfium": "default engine", "pypdf": "salvage: documents and pages PDFium cannot read",
         "pdfplumber": "last salvage step (pdfminer.six), after pypdf and a qpdf repair",
         "ocr": "OCR of scanned pages (--ocr)"}


def cache_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder: ``explicit``, else the default (:func:`siftpdf.system.default_cache_dir`)."""
    from .system import default_cache_dir

    return Path(explicit or default_cache_dir())


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


def _probe(memory: int, timeout: float, guard: str | None) -> dict[str, Any]:
    """The probe child's findings. Under the watchdog the child sets no limit on itself and is
    watched as an extraction child is; ``watchdog`` then says what the watchdog read of it."""
    from .system import WATCHDOG, child_memory

    watch = None
    if guard == WATCHDOG and memory > 0:
        from .workers.memwatch import MemoryWatch

        watch = MemoryWatch(memory)
    argv = [sys.executable, "-I", "-m", "siftpdf.child.probe", str(child_memory(memory))]
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={}, start_new_session=True)
    except OSError as exc:
        return {"error": f"cannot start a child: {exc}"}
    try:
        if watch is not None:
            watch.add(proc.pid, lambda _rss: proc.kill())
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"error": f"the probe child did not answer in {timeout:g} s"}
    finally:
        if watch is not None:
            watch.close()
    try:
        result: dict[str, Any] = json.loads(stdout.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        lines = stderr.decode("utf-8", "replace").strip().splitlines()
        return {"error": f"the probe child failed (exit {proc.returncode}): {lines[-1] if lines else 'no output'}"}
    if watch is not None:
        result["watchdog"] = {"samples": watch.samples, "peak": watch.peak}
    return result


def memory_limit(memory: int, guard: str | None, found: dict[str, Any]) -> dict[str, Any]:
    """The ``memory_limit`` part of the status: the limit, the ``mechanism`` that enforces it
    here (``rlimit``, ``watchdog`` or None), whether it is enforced and what shows it."""
    from .system import RLIMIT, WATCHDOG
    from .workers.memwatch import RATE

    limit: dict[str, Any] = {"bytes": memory, "mechanism": guard, "enforced": False}
    if "error" in found:
        return {**limit, "detail": found["error"]}
    if guard == RLIMIT:
        probe = found.get("memory", {})
        if not found.get("limit_applied"):
            return {**limit, "detail": found.get("limit_error", "RLIMIT_AS not applied")}
        return {**limit, "enforced": bool(probe.get("enforced")), "detail": probe.get("detail", "")}
    if guard == WATCHDOG:
        read = found.get("watchdog", {})
        if not read.get("samples"):
            return {**limit, "detail": "the watchdog could not read the probe child's memory"}
        return {**limit, "enforced": True,
                "detail": f"RLIMIT_AS is not enforced on {sys.platform}: a watchdog reads each child's resident "
                          f"memory {RATE} times a second and kills it over the limit "
                          f"(it read {read['peak'] >> 20} MiB of the probe child)"}
    return {**limit, "detail": f"neither RLIMIT_AS nor the watchdog (psutil) works on {sys.platform}: "
                               "an extraction with a memory limit fails (--memory-limit 0 runs without one)"}


def shared_cache(url: str) -> dict[str, Any]:
    """The shared cache server (``--cache-url``): its URL without the password, whether it
    answers, its version and what siftpdf keeps there (or why it does not answer)."""
    from .store.local_store import failure, redacted

    found: dict[str, Any] = {"url": redacted(url), "reachable": False}
    try:
        from .store.shared_store import ERRORS, RedisStore
    except ImportError:
        from .extras import install

        return {**found, "error": f"the Redis client is not installed: {install('redis')}"}
    try:
        return {**found, "reachable": True, **RedisStore(url).info()}
    except ERRORS as exc:
        return {**found, "error": failure(exc, url)}


def engine_status(cache: str | os.PathLike[str] | None = None, memory: int | None = None,
                  timeout: float = 60.0, cache_url: str | None = None) -> dict[str, Any]:
    """The status record body: engines, memory limit, cache (and the shared cache server, when
    one is named), and ``ok`` when the default engine loads and the memory limit is enforced."""
    from . import __version__
    from .system import memory_guard

    memory = Limits().memory if memory is None else memory
    guard = memory_guard()
    found = _probe(memory, timeout, guard)
    engines = []
    for item in found.get("engines", []):
        engines.append({"name": item["name"], "loads": bool(item["loads"] and item.get("reads")),
                        "version": item.get("version"), "build": item.get("build"),
                        "role": ROLES.get(item["name"], ""), "error": item.get("error")})
    limit = memory_limit(memory, guard, found)
    folder = cache_dir(cache)
    for engine in engines:
        if engine["name"] == "ocr" and engine["loads"] and "rapidocr" in (engine["version"] or ""):
            from .store.ocrmodels import state

            engine["models"] = state(folder).note
    size, files = folder_bytes(folder)
    default = next((e for e in engines if e["name"] == "pdfium"), None)
    ocr = next((e for e in engines if e["name"] == "ocr"), None)
    shared = {"shared_cache": shared_cache(cache_url)} if cache_url else {}
    return {
        "siftpdf": __version__,
        "python": platform.python_version(),
        "platform": sys.platform,
        "engines": engines,
        "memory_limit": limit,
        "cache": {"dir": str(folder), "exists": folder.is_dir(), "bytes": size, "files": files},
        "ocr_default": ocr_default(bool(ocr and ocr["loads"])),
        "organize": compiled_state(),
        "evidence": evidence_state(),
        **shared,
        "ok": bool(default and default["loads"] and limit["enforced"]),
    }


def compiled_state() -> dict[str, Any]:
    """Whether organization runs compiled (:func:`siftpdf.compiled.state`)."""
    from .compiled import state

    return state()


def evidence_state() -> dict[str, Any]:
    """Whether the evidence's C loops are built (:func:`siftpdf.compiled.state`)."""
    from .compiled import EXTENSIONS, state

    return state(EXTENSIONS)


def render_evidence(found: dict[str, Any]) -> str:
    """One line of :func:`evidence_state`."""
    if found["path"] == "compiled":
        return f"its busiest loops in C ({', '.join(found['compiled'])})"
    return ("Python (built without its C loops: an editable install, SIFTPDF_PURE=1, or no C compiler at hand; "
            "the output is the same)")


def render_compiled(found: dict[str, Any]) -> str:
    """One line of :func:`compiled_state`."""
    if found["path"] == "compiled":
        return f"compiled (mypyc, {len(found['compiled'])} modules)"
    if found["path"] == "python":
        return ("Python (installed without compiling it: an editable install, SIFTPDF_PURE=1, or no C "
                "compiler or mypyc at hand; the output is the same)")
    return f"MIXED: {', '.join(found['python'])} run as Python, the rest compiled (a broken build: reinstall)"


def ocr_default(reads: bool) -> dict[str, str]:
    """The --ocr the commands run with when none is given (:func:`siftpdf.extras.ocr_mode`):
    ``mode``, and ``why`` (SIFTPDF_OCR, or whether an engine is installed; ``reads``: whether it
    read the probe page)."""
    from .extras import OCR_INSTALL, ocr_mode

    mode, env = ocr_mode(None), os.environ.get("SIFTPDF_OCR")
    if env and mode is None:
        return {"mode": env, "why": "SIFTPDF_OCR, which the commands refuse (a mode they do not know, or "
                                    f"no OCR engine is installed: {OCR_INSTALL})"}
    if env:
        return {"mode": env, "why": "SIFTPDF_OCR"}
    if mode == "auto":
        return {"mode": "auto", "why": "an OCR engine is installed" + ("" if reads else
                                                                        ", but it does not read the probe page")}
    return {"mode": "never", "why": f"no OCR engine is installed: {OCR_INSTALL}"}


def render_status(status: dict[str, Any]) -> str:
    """The text view of :func:`engine_status`."""
    lines = [f"siftpdf {status['siftpdf']} · Python {status['python']} · {status['platform']}", "", "engines:"]
    width = max((len(e["name"]) for e in status["engines"]), default=6)
    for engine in status["engines"]:
        if engine["loads"]:
            what = engine["version"] + (f", {engine['build']}" if engine.get("build") else "")
            lines.append(f"  {engine['name']:<{width}}  loads   {what} — {engine['role']}")
            if engine.get("models"):
                lines.append(f"  {'':<{width}}          CJK pages read with {engine['models']}")
        elif (engine.get("error") or "").startswith("not installed"):
            lines.append(f"  {engine['name']:<{width}}  absent  {engine['error']}")
        else:
            lines.append(f"  {engine['name']:<{width}}  FAILS   {engine.get('error') or 'does not read a test page'}")
    if not status["engines"]:
        lines.append("  (no engine could be probed)")
    limit = status["memory_limit"]
    mib = limit["bytes"] >> 20
    by = {"rlimit": " by RLIMIT_AS", "watchdog": " by the watchdog"}.get(limit.get("mechanism") or "", "")
    state = f"enforced{by}" if limit["enforced"] else "NOT enforced"
    lines += ["", f"memory limit: {state} ({mib} MiB per extraction child; {limit['detail']})"]
    cache = status["cache"]
    where = f"{cache['bytes']:,} bytes in {cache['files']} files" if cache["exists"] else "absent, 0 bytes"
    lines.append(f"cache: {cache['dir']} ({where})")
    if "ocr_default" in status:
        ocr = status["ocr_default"]
        lines.append(f"--ocr default: {ocr['mode']} ({ocr['why']})")
    if "organize" in status:
        lines.append("organization: " + render_compiled(status["organize"]))
    if "evidence" in status:
        lines.append("evidence: " + render_evidence(status["evidence"]))
    if "shared_cache" in status:
        lines.append("shared cache: " + render_shared(status["shared_cache"]))
    return "\n".join(lines) + "\n"


def render_shared(shared: dict[str, Any]) -> str:
    """One line of :func:`shared_cache`."""
    if not shared["reachable"]:
        return f"{shared['url']} NOT reachable ({shared['error']}); the local cache is used alone"
    return f"{shared['url']} ({shared['server']}, {shared['documents']} documents, {shared['bytes']:,} bytes)"
