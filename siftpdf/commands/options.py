"""Options shared by the commands: one definition, one spelling, one help text."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import flags as spec
from ..flags import FLAG, UNSET, Option
from .actions import emit, out, read_options, source_label

__all__ = ["emit", "out", "source_label"]

if TYPE_CHECKING:  # completion is imported when a shell asks for it; the library when a command runs
    from click.shell_completion import CompletionItem


F = Callable[..., Any]


class FiniteFloatRange(click.FloatRange):
    """A FloatRange that also refuses nan and infinity, which slip past its bounds (a deadline
    of 'inf' or 'nan' cannot become a timer)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def _click_type(option: Option) -> Any:
    if option.kind == spec.INT:
        return click.IntRange(min=None if option.low is None else int(option.low),
                              max=None if option.high is None else int(option.high))
    if option.kind == spec.SECONDS:
        return FiniteFloatRange(min=option.low)
    if option.kind == spec.CHOICE:
        return click.Choice(option.choices)
    if option.kind == spec.FOLDER:
        return click.Path(file_okay=False, path_type=Path)
    if option.kind == spec.FILE:
        return click.Path(dir_okay=False, path_type=Path)
    return None  # text: click's string


def option(declared: Option, **extra: Any) -> Callable[[F], F]:
    """The click option of an option of the table (:mod:`siftpdf.flags`), with
    what only click knows of it (``callback``, ``shell_complete``, ``type`` …) in ``extra``."""
    kwargs: dict[str, Any] = {"help": declared.help or None, "hidden": declared.hidden, "envvar": declared.env,
                              "metavar": declared.metavar, "show_default": declared.show_default,
                              "multiple": declared.many, "expose_value": declared.exposed}
    if declared.default is not UNSET:
        path = declared.kind in (spec.FOLDER, spec.FILE) and isinstance(declared.default, str)
        kwargs["default"] = Path(declared.default) if path else declared.default
    if declared.kind == FLAG:
        if declared.value is True and declared.default is UNSET:
            kwargs["is_flag"] = True
        else:
            kwargs["flag_value"] = declared.value
    else:
        kwargs["type"] = _click_type(declared)
        if declared.optional is not None:
            kwargs.update(is_flag=False, flag_value=declared.optional)
    kwargs.update(extra)
    return click.option(*declared.names, declared.key, **kwargs)


def _stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


def json_option(func: F) -> F:
    """--json: JSON Lines records on stdout instead of the text view."""

    @option(spec.JSON)
    @functools.wraps(func)
    def wrapper(*args: Any, as_json: bool, **kwargs: Any) -> Any:
        click.get_current_context().meta["siftpdf.json"] = as_json
        return func(*args, as_json=as_json, **kwargs)

    return wrapper


OUTPUTS = tuple(spec.OUTPUTS)
FORMAT_ENV = spec.FORMAT_ENV


def output_options(default: str) -> Callable[[F], F]:
    """--text, --markdown, --json: the page-marked text view, the Markdown view (docs/manual.md) or
    JSON Lines records, at most one of them; without one, SIFTPDF_FORMAT, else ``default``.
    The command gets ``output``, one of :data:`OUTPUTS`."""
    helps = {name: declared.help for name, declared in spec.OUTPUTS.items()}
    if default == "text":
        helps["json"] = spec.JSON.help

    def decorate(func: F) -> F:
        @_stack(*(option(declared, help=helps[name] + (" The default." if name == default else ""))
                  for name, declared in spec.OUTPUTS.items()))
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
    value = spec.format_from_env()
    if value and value not in OUTPUTS:
        raise click.UsageError(f"{FORMAT_ENV}={value!r}: not one of {', '.join(OUTPUTS)}", ctx)
    return value or None


cap_option = option(spec.CAP)
whole_cap_option = option(spec.WHOLE_CAP)


def set_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["siftpdf.quiet"] = True


quiet_option = option(spec.QUIET, callback=set_quiet)
# For commands where -q means something else (digest -q QUESTION).
long_quiet_option = option(spec.LONG_QUIET, callback=set_quiet)


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


# Options more than one command takes (extraction_options bundles them for
# the reading commands; cache, engine and serve take some of them alone).
cache_dir_option = option(spec.CACHE_DIR)
cache_url_option = option(spec.CACHE_URL)
cache_size_option = option(spec.CACHE_SIZE)
allow_private_option = option(spec.ALLOW_PRIVATE)
max_pages_option = option(spec.MAX_PAGES)
deadline_option = option(spec.DEADLINE)


def extraction_options(func: F) -> F:
    """How a PDF is extracted (the limits of the child, the password, organization, OCR) and how
    the read is shared (the cache, the pool, the network): the command gets the ReadOptions
    built from them (:func:`siftpdf.options.build`) as ``read_options``."""
    keys = tuple(declared.key for declared in (*spec.EXTRACTION_OPTIONS, *spec.CACHE_OPTIONS))

    @_stack(*(option(declared, **({"shell_complete": complete_setting} if declared is spec.SET else {}))
              for declared in spec.EXTRACTION_OPTIONS),
            *(option(declared) for declared in spec.CACHE_OPTIONS))
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        values = {key: kwargs.pop(key) for key in keys}
        options, progress = read_options(values, quiet=bool(ctx.meta.get("siftpdf.quiet")))
        ctx.call_on_close(progress.close)
        return func(*args, read_options=options, **kwargs)

    return wrapper


def note(text: str, quiet: bool = False) -> None:
    """A note for people, on stderr."""
    if not quiet:
        click.echo(text, err=True)
