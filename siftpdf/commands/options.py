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


OUTPUTS = tuple(spec.OUTPUTS)
FORMAT_ENV = spec.FORMAT_ENV


def _chosen_output(ctx: click.Context, asked: list[str], default: str) -> str:
    """--text, --markdown, --json: the page-marked text view, the Markdown view (docs/manual.md) or
    JSON Lines records, at most one of them; without one, SIFTPDF_FORMAT, else ``default``."""
    if len(asked) > 1:
        raise click.UsageError(" and ".join(f"--{name}" for name in asked) + " exclude each other", ctx)
    return asked[0] if asked else _env_output(ctx) or default


def _env_output(ctx: click.Context) -> str | None:
    value = spec.format_from_env()
    if value and value not in OUTPUTS:
        raise click.UsageError(f"{FORMAT_ENV}={value!r}: not one of {', '.join(OUTPUTS)}", ctx)
    return value or None


def set_quiet(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta["siftpdf.quiet"] = True


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


# What only click knows of some options of the table: a callback, a completion.
_CLICK: dict[Option, dict[str, Any]] = {spec.QUIET: {"callback": set_quiet}, spec.LONG_QUIET: {"callback": set_quiet},
                                        spec.SET: {"shell_complete": complete_setting}}
_READ_KEYS = tuple(declared.key for declared in (*spec.EXTRACTION_OPTIONS, *spec.CACHE_OPTIONS))


def options_of(command: str, **extra: dict[str, Any]) -> Callable[[F], F]:
    """The click options of ``command``, as the table lists them (:data:`siftpdf.flags.COMMANDS`),
    each with what only click knows of it (here, or in ``extra`` by its key). The command's
    function gets each option's value by its key, but for two groups: the views (--text,
    --markdown, --json) as ``output``, one of :data:`OUTPUTS`; the extraction and cache options
    as ``read_options``, the ReadOptions built from them (:func:`siftpdf.options.build`), whose
    progress bar closes with the command. --json alone (``as_json``) and an output of json make
    an error a JSON record on stdout too."""
    declared = spec.COMMANDS[command]
    views = set(spec.OUTPUTS.values()) <= set(declared)
    reads = set(spec.EXTRACTION_OPTIONS) <= set(declared)
    default = spec.DEFAULT_OUTPUT.get(command, "")
    helps = {view: view.help + (" The default." if name == default else "") for name, view in spec.OUTPUTS.items()}
    if default == "text":
        helps[spec.OUTPUTS["json"]] = spec.JSON.help
    made = [option(item, **{**_CLICK.get(item, {}), **({"help": helps[item]} if views and item in helps else {}),
                            **extra.get(item.key, {})})
            for item in declared]

    def decorate(func: F) -> F:
        @_stack(*made)
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            ctx = click.get_current_context()
            if views:
                asked = [name for name in OUTPUTS if kwargs.pop(f"as_{name}")]
                kwargs["output"] = _chosen_output(ctx, asked, default)
                ctx.meta["siftpdf.json"] = kwargs["output"] == "json"
            elif spec.JSON in declared:
                ctx.meta["siftpdf.json"] = kwargs["as_json"]
            if reads:
                values = {key: kwargs.pop(key) for key in _READ_KEYS}
                kwargs["read_options"], progress = read_options(values, quiet=bool(ctx.meta.get("siftpdf.quiet")))
                ctx.call_on_close(progress.close)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def note(text: str, quiet: bool = False) -> None:
    """A note for people, on stderr."""
    if not quiet:
        click.echo(text, err=True)
