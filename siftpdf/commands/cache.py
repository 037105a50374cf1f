"""siftpdf cache: look at and tidy the shared cache (info, clear, prune)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import options_of, out

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..store.local_store import CacheSettings, Store


@click.group("cache")
def command() -> None:
    """The shared per-page cache: info, clear, prune.

    \b
    Examples:
      siftpdf cache info
      siftpdf cache prune --cache-size 200M
      siftpdf cache clear --caller-class restricted
    """


@command.command("info")
@options_of("cache info")
def info(cache_dir: Path | None, cache_url: str | None, cache_size: str, as_json: bool) -> None:
    """Where the cache is, its size and its documents per caller class (and,
    with --cache-url, the shared cache server's documents).

    \b
    Examples:
      siftpdf cache info
      siftpdf cache info --json | jq .cache.bytes
    """
    from ..docstream import dumps
    from ..status import render_shared, shared_cache
    from ..store.local_store import CacheSettings, check_url, open_store, parse_size
    from ..workers.pool import Pool

    url = check_url(cache_url)
    store = _settled(open_store, CacheSettings(directory=cache_dir, size_limit=parse_size(cache_size)))
    facts = store.info()
    facts["pool"] = Pool(store.directory).status()
    if url:
        facts["shared"] = shared_cache(url)
    if as_json:
        out(dumps({"cache": facts}) + "\n")
        return
    out(f"directory: {facts['directory']}\n"
        f"documents: {facts['documents']} · {_size(facts['bytes'])} of {_size(facts['size_limit'])} cap"
        f" · {facts['urls']} URLs · {_size(facts['disk_bytes'])} on disk\n")
    pool = facts["pool"]
    out(f"pool: {pool['running']} of {pool['slots']} extraction slots busy, {pool['waiting']} of {pool['places']} "
        "waiting places taken\n")
    for name, row in sorted(facts["classes"].items()):
        out(f"  {name}: {row['documents']} documents, {row['pages']} pages, {_size(row['bytes'])}\n")
    if url:
        out(f"shared: {render_shared(facts['shared'])}\n")


@command.command("clear")
@options_of("cache clear")
def clear(cache_dir: Path | None, caller_class: str | None) -> None:
    """Remove every cached document (or one caller class's).

    \b
    Examples:
      siftpdf cache clear
      siftpdf cache clear --caller-class restricted
    """
    from ..store.local_store import CacheSettings, check_class, open_store

    store = _settled(open_store, CacheSettings(directory=cache_dir))
    count = store.clear(check_class(caller_class) if caller_class else None)
    out(f"removed {count} documents\n")


@command.command("prune")
@options_of("cache prune")
def prune(cache_dir: Path | None, cache_size: str) -> None:
    """Drop leftovers of interrupted extractions and evict down to the cap, oldest first;
    remove the lock files and marks of work that is done.

    \b
    Examples:
      siftpdf cache prune
      siftpdf cache prune --cache-size 200M
    """
    from ..store.local_store import CacheSettings, open_store, parse_size

    store = _settled(open_store, CacheSettings(directory=cache_dir, size_limit=parse_size(cache_size)))
    done = store.prune()
    out(f"removed {done['evicted_documents']} documents over the cap, {done['orphan_pages']} orphan pages, "
        f"{done['stale_urls']} stale URL entries, {done['stale_files']} stale file entries, "
        f"{done['stale_marks']} stale marks, {done['idle_locks']} idle lock files\n")


def _settled(open_store: Callable[[CacheSettings], Store], settings: CacheSettings) -> Store:
    """The store, once what earlier commands left to write into it is written
    (:mod:`siftpdf.store.behind`): ``cache clear`` after a read clears what it read."""
    from ..store.behind import wait_all

    wait_all(settings.folder)
    return open_store(settings)


def _size(count: int) -> str:
    value = float(count)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{count} B"
