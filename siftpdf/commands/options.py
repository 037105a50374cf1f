"""Options shared by the commands: one definition, one spelling, one help text."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import defaults
from ..extras import OCR_MODES
from .bodies import (
    emit,
    out,
    read_options,
    set_cache,
    source_label,
)

__all__ = ["emit", "out", "source_label"]

if TYPE_CHECKING:  # completion is imported when a shell asks for it; the library when a command runs
    from click.shell_completion import CompletionItem

    from ..options import ReadOptions

F = Callable[..., Any]


class FiniteFloatRange(click.FloatRange):
    """A FloatRange that also refuses nan and infinity, which slip past its bounds (a deadline
    of 'inf' or 'nan' cannot become a timer)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


# The child's address-space limit is set in bytes (MiB << 20), which must fit a C long.
MAX_MEMORY_MIB = 1 << 30
CACHE_DIR_HELP = ("The shared cache (env SIFTPDF_CACHE_DIR; default ~/.cache/siftpdf, "
                  "~/Library/Caches/siftpdf on macOS).")
MEMORY_LIMIT_HELP = ("Memory limit of {whose} in MiB (0: none): RLIMIT_AS on Linux, "
                     "a watchdog elsewhere (engine status says which).")


def _stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


JSON_HELP = "Write JSON Lines records instead of the text view."


def json_option(func: F) -> F:
    """--json: JSON Lines records on stdout instead of the text view."""

    @click.option("--json", "as_json", is_flag=True, help=JSON_HELP)
    @functools.wraps(func)
    def wrapper(*args: Any, as_json: bool, **kwargs: Any) -> Any:
        click.get_current_context().meta["siftpdf.json"] = as_json
        return func(*args, as_json=as_json, **kwargs)

    return wrapper


OUTPUTS = ("text", "markdown", "json")
FORMAT_ENV = "SIFTPDF_FORMAT"


def output_options(default: str) -> Callable[[F], F]:
    """--text, --markdown, --json: the page-marked text view, the Markdown view (docs/manual.md) or
    JSON Lines records, at most one of them; without one, SIFTPDF_FORMAT, else ``default``.
    The command gets ``output``, one of :data:`OUTPUTS`."""
    helps = {"text": "Write the page-marked text view.",
             "markdown": "Write the page-marked Markdown view: CommonMark with GFM tables "
                         f"(env {FORMAT_ENV}=markdown).",
             "json": JSON_HELP if default == "text" else "Write the doc stream (JSON Lines records)."}

    def decorate(func: F) -> F:
        @_stack(*(click.option(f"--{name}", f"as_{name}", is_flag=True,
                               help=helps[name] + (" The default." if name == default else ""))
                  for name in OUTPUTS))
        @functools.wraps(func)
        def wrapper(*args: Any, as_text: bool, as_markdown: bool, as_json: bool, **kwargs: Any) -> Any:
            ctx = click.get_current_context()
            asked = [name for name, flag in zip(OUTPUTS, (as_text, as_markdown, as_json), strict=True) if flag]
            if len(asked) > 1:
                raise click.UsageError(" and ".join(f"--{name}" for name in asked) + " exclude each other", ctx)
            output = asked[0] if asked else _env_output(ctx) or default
            ctx.meta["siftpdf.json"] = output == "json"
            return func(*args, output=output, **kwargs)

        return wrapper

    return decorate


def _env_output(ctx: click.Context) -> str | None:
    value = os.environ.get(FORMAT_ENV, "").strip().lower()
    if value and value not in OUTPUTS:
        raise click.UsageError(f"{FORMAT_ENV}={value!r}: not one of {', '.join(OUTPUTS)}", ctx)
    return value or None


CAP_HELP = "Output cap in characters"
cap_option = click.option(
    "--cap", type=click.IntRange(min=200), default=defaults.CAP, envvar="SIFTPDF_CAP",
    show_default=True, help=f"{CAP_HELP} (env SIFTPDF_CAP).")
# extract and fetch write whole documents (saved to files, read by the other commands): their
# cap is asked for with the option alone, never by the environment's default for readers.
whole_cap_option = click.option(
    "--cap", type=click.IntRange(min=200), default=None,
    help=f"{CAP_HELP}: only the pages that fit, then where it was cut (a note in the views, "
         "done.cut in the doc stream). Default: the whole document.")


def set_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["siftpdf.quiet"] = True


quiet_option = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=set_quiet,
                            help="No progress bar or notes on stderr.")
# For commands where -q means something else (digest -q QUESTION).
long_quiet_option = click.option("--quiet", is_flag=True, expose_value=False, callback=set_quiet,
                                 help="No progress bar or notes on stderr.")


def is_quiet() -> bool:
    return bool(click.get_current_context().meta.get("siftpdf.quiet"))


def complete_source(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """SOURCE arguments complete as file paths (the shell does the listing)."""
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type="file")]


def complete_setting(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``--set`` completes the keys of :data:`siftpdf.settings.KNOWN_SETTINGS` as ``key=``."""
    from click.shell_completion import CompletionItem

    from ..settings import KNOWN_SETTINGS

    if "=" in incomplete:
        return []
    return [CompletionItem(f"{key}=", help=text) for key, text in sorted(KNOWN_SETTINGS.items())
            if key.startswith(incomplete)]


CACHE_URL_ENV = "SIFTPDF_CACHE_URL"
cache_url_option = click.option(
    "--cache-url", metavar="URL", envvar=CACHE_URL_ENV,
    help="A shared cache server in front of which this machine's cache sits: "
         "redis://[USER:PASSWORD@]HOST[:PORT][/DB], rediss://… (TLS) or unix://PATH (env SIFTPDF_CACHE_URL; "
         "needs siftpdf[redis]). Every machine naming it shares documents, single-flight and the one job per "
         "caller id; when it fails, the local cache goes on alone.")


# Options more than one command takes, defined once (cache_options and extraction_options
# bundle them for the reading commands; cache, engine and serve take some of them alone).
cache_dir_option = click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path),
                                envvar="SIFTPDF_CACHE_DIR", help=CACHE_DIR_HELP)
cache_size_option = click.option("--cache-size", default=defaults.CACHE_SIZE, envvar="SIFTPDF_CACHE_SIZE",
                                 show_default=True,
                                 help="Cache size cap (e.g. 500M, 2G); whole documents go, oldest first.")
allow_private_option = click.option(
    "--allow-private", is_flag=True,
    help="Let URLs reach loopback, private and link-local addresses (trusted networks).")
max_pages_option = click.option("--max-pages", type=click.IntRange(min=1), default=defaults.MAX_PAGES,
                                show_default=True,
                                help="Extract at most this many pages (the meta still counts them all).")
workers_option = click.option(
    "--workers", type=click.IntRange(min=1, max=defaults.MAX_WORKERS), default=defaults.WORKERS,
    envvar="SIFTPDF_WORKERS", show_default=True, metavar="N",
    help="Extraction children at once: a document longer than 32 pages is split over N of them, "
         "several sources are read N at a time (env SIFTPDF_WORKERS; the machine's pool lets N run).")
deadline_option = click.option("--deadline", type=FiniteFloatRange(min=0.1), default=defaults.DEADLINE,
                               show_default=True, help="Seconds before an extraction child is killed.")


def memory_limit_option(whose: str) -> Callable[[F], F]:
    return click.option("--memory-limit", type=click.IntRange(min=0, max=MAX_MEMORY_MIB),
                        default=defaults.MEMORY_MIB, show_default=True, help=MEMORY_LIMIT_HELP.format(whose=whose))


def cache_options(func: F) -> F:
    """How a call shares the cache, the pool and the network: sets ``read_options.cache`` and
    friends on the ReadOptions that :func:`extraction_options` builds."""

    @_stack(
        cache_dir_option,
        cache_url_option,
        click.option("--no-cache", is_flag=True, help="Neither read nor write the cache."),
        click.option("--caller-class", default="default", envvar="SIFTPDF_CALLER_CLASS", show_default=True,
                     help="Cache partition of this caller (env SIFTPDF_CALLER_CLASS); 'restricted' "
                          "pages are invisible to others and its --verbose logs carry the outcome only."),
        click.option("--max-age", type=FiniteFloatRange(min=0), default=defaults.MAX_AGE, show_default=True,
                     help="Seconds a fetched URL is served from the cache before it is revalidated "
                          "(0: revalidate now)."),
        cache_size_option,
        allow_private_option,
        click.option("--verbose", is_flag=True, help="Log fetches, extractions and cache hits on stderr."),
        click.option("--wait", type=FiniteFloatRange(min=0), default=defaults.WAIT, envvar="SIFTPDF_WAIT",
                     show_default=True, metavar="SECONDS",
                     help="Seconds to wait in line for a PDF worker when all are busy, then exit 75 "
                          "(env SIFTPDF_WAIT; 0: busy at once)."),
    )
    @functools.wraps(func)
    def wrapper(*args: Any, cache_dir: Path | None, cache_url: str | None, no_cache: bool, caller_class: str,
                max_age: float, cache_size: str, allow_private: bool, verbose: bool, wait: float,
                read_options: ReadOptions, **kwargs: Any) -> Any:
        set_cache(read_options, cache_dir, no_cache, caller_class, max_age, cache_size, allow_private, verbose,
                  wait, cache_url)
        return func(*args, read_options=read_options, **kwargs)

    return wrapper


def extraction_options(func: F) -> F:
    """How a PDF is extracted: limits of the child and the password (and the cache options)."""
    func = cache_options(func)

    @_stack(
        max_pages_option,
        deadline_option,
        memory_limit_option("the child"),
        click.option("--password", envvar="SIFTPDF_PASSWORD", default=None,
                     help="User password of an encrypted PDF (env SIFTPDF_PASSWORD)."),
        click.option("--in-process", is_flag=True,
                     help="Parse in this process, without the child: for trusted input only."),
        click.option("--set", "settings", metavar="KEY=VALUE", multiple=True, shell_complete=complete_setting,
                     help="Organization and evidence settings (repeatable), e.g. organize.furniture=false, "
                          "output.evidence=true, extract.image_mode=embedded; every key in siftpdf(1), SETTINGS."),
        click.option("--raw", is_flag=True,
                     help="The engine's page text untouched: no organization (same as --set organize=false)."),
        workers_option,
        click.option("--ocr", type=click.Choice(OCR_MODES), default=None, envvar="SIFTPDF_OCR",
                     show_default="auto when siftpdf[ocr] is installed, else never",
                     help="Recognize scanned pages: auto reads pages with no usable text layer (and scanned "
                          "images on pages with one), always every page (env SIFTPDF_OCR; needs siftpdf[ocr])."),
    )
    @functools.wraps(func)
    def wrapper(*args: Any, max_pages: int, deadline: float, memory_limit: int,
                password: str | None, in_process: bool, settings: tuple[str, ...], raw: bool, ocr: str | None,
                workers: int, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        options, progress = read_options(max_pages, deadline, memory_limit, password, in_process, settings, raw,
                                         quiet=bool(ctx.meta.get("siftpdf.quiet")), ocr=ocr, workers=workers)
        ctx.call_on_close(progress.close)
        return func(*args, read_options=options, **kwargs)

    return wrapper


def note(text: str, quiet: bool = False) -> None:
    """A note for people, on stderr."""
    if not quiet:
        click.echo(text, err=True)
