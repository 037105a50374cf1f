"""The command line: a thin click layer over the library. Commands load lazily so that
``siftpdf --help`` and cache hits import no PDF engine. The console entry point is
:func:`siftpdf.cli.main`, which imports this module once it has started what it could."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import click

from .. import flags as spec
from ..errors import SiftError, UsageError, report, typed_error
from ..errors import one_line as _one_line
from ..system import silence_stdout
from . import COMMANDS


def _flush_stdout() -> SiftError | None:
    """Write out what stdout still holds, now rather than at exit, where a failure (a full
    disk) could only be a Python warning; a reader that went away is not an error."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except (OSError, ValueError) as exc:
        silence_stdout()  # what could not be written goes nowhere, quietly, at exit
        return typed_error(exc)
    return None


# --- what a failure says: click's usage errors, OS errors, bugs -----------------------------

CACHE_DIR_KEY = "siftpdf.cache_dir"


def usage_error(error: click.ClickException, args: list[str]) -> UsageError:
    """click's own errors (unknown option or command, missing argument, bad value) as one
    line naming the command, with its --help as the hint."""
    ctx = getattr(error, "ctx", None)
    names: list[str] = [] if ctx is not None else _command_names(args)
    while ctx is not None and ctx.parent is not None:
        names.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    if isinstance(error, click.exceptions.NoSuchOption):
        message = f"no such option: {error.option_name}" + _did_you_mean(error.possibilities, quote=False)
    elif isinstance(error, click.exceptions.NoSuchCommand):
        message = f"no such command {error.command_name!r}" + _did_you_mean(error.possibilities, quote=True)
    else:
        message = _one_line(error.format_message())
        if isinstance(error, click.exceptions.MissingParameter):
            message = message.replace("'", "")
        if message[1:2].islower():
            message = message[:1].lower() + message[1:]
        message = message.removesuffix(".")
    command = " ".join(["siftpdf", *names])
    return UsageError(" ".join(names) + ": " + message if names else message, hint=f"{command} --help")


def _command_names(args: list[str]) -> list[str]:
    """The command (and subcommand) named in ``args``, for an error click raised without its
    context. The group's own options are flags, so the first other word is the command."""
    names: list[str] = []
    words = [arg for arg in args if not arg.startswith("-")]
    if words and words[0] in COMMANDS:
        names.append(words[0])
        command = importlib.import_module(COMMANDS[words[0]]).command
        if isinstance(command, click.Group) and len(words) > 1 and words[1] in command.commands:
            names.append(words[1])
    return names


def _did_you_mean(possibilities: list[str] | None, quote: bool) -> str:
    if not possibilities:
        return ""
    names = ", ".join(repr(p) if quote else p for p in sorted(possibilities))
    return f" (did you mean {names}?)" if len(possibilities) == 1 else f" (did you mean one of {names}?)"


def _record_cache_dir(param: click.Parameter) -> None:
    """A ``--cache-dir`` option notes its folder in ``ctx.meta``, so that an error about the
    folder can name it."""
    given = param.callback
    if getattr(given, "records_cache_dir", False):
        return

    def record(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if given is not None:
            value = given(ctx, param, value)
        ctx.meta[CACHE_DIR_KEY] = value
        return value

    record.records_cache_dir = True  # type: ignore[attr-defined]
    param.callback = record


def _finish(command: click.Command) -> None:
    """Conventions every command (and subcommand) gets, whoever wrote it: the Examples block of
    its help is shown last, after the options; a ``--set`` option completes the known keys; a
    ``--cache-dir`` option is remembered for error messages."""
    commands = [command]
    while commands:
        current = commands.pop()
        if isinstance(current, click.Group):
            commands.extend(current.commands.values())
        parts = re.split(r"^(?=\x08\nExamples?:)", inspect.cleandoc(current.help or ""), maxsplit=1, flags=re.M)
        if len(parts) == 2 and current.epilog is None:
            current.help, current.epilog = parts[0].rstrip(), parts[1]
        for param in current.params:
            # _custom_shell_complete is where click keeps an option's shell_complete= callback.
            if spec.SET.long in param.opts and param._custom_shell_complete is None:
                from .options import complete_setting  # only a command with --set loads it

                param._custom_shell_complete = complete_setting
            if spec.CACHE_DIR.long in param.opts:
                _record_cache_dir(param)


def _debugging(args: list[str]) -> bool:
    """``--debug`` among the group's own options (those before the command name)."""
    for arg in args:
        if not arg.startswith("-"):
            return False
        if arg == spec.DEBUG.long:
            return True
    return False


def _json_wanted(args: list[str]) -> bool:
    return spec.JSON.long in (args[: args.index("--")] if "--" in args else args)


class SiftGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = COMMANDS.get(name)
        if module is None:
            return None
        command: click.Command = importlib.import_module(module).command
        _finish(command)
        return command

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:
            # click suggests from self.commands, empty here: the commands load lazily.
            raise click.exceptions.NoSuchCommand(error.command_name, possibilities=self.list_commands(ctx),
                                                 ctx=ctx) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        """click's main, with click's own failures (usage, abort) reported the siftpdf way
        (docs/manual.md, EXIT STATUS): one line on stderr, a hint, exit 2; the same for CliRunner and a real run."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        argv = [str(arg) for arg in (sys.argv[1:] if args is None else args)]
        try:
            code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            error.show()  # a bare 'siftpdf' (or 'siftpdf cache'): the help, on stderr
            code = error.exit_code
        except click.ClickException as error:
            usage = usage_error(error, argv)
            report(usage, _json_wanted(argv))
            code = usage.exit_code
        except click.Abort:
            click.echo("siftpdf: interrupted", err=True)
            code = 130
        except BrokenPipeError:
            silence_stdout()
            code = 0
        except Exception as exc:  # raised outside a command (parsing, closing): same rules
            if _debugging(argv):
                raise
            failure = typed_error(exc)
            report(failure, _json_wanted(argv))
            code = failure.exit_code
        code = code if isinstance(code, int) else 0
        unwritten = _flush_stdout()
        if unwritten is not None and code in (0, 1):
            report(unwritten, False)
            code = unwritten.exit_code
        sys.exit(code)

    def invoke(self, ctx: click.Context) -> None:
        try:
            super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            silence_stdout()
            ctx.exit(0)
        except KeyboardInterrupt:
            click.echo("siftpdf: interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            error = typed_error(exc, ctx.meta.get(CACHE_DIR_KEY))
            report(error, bool(ctx.meta.get("siftpdf.json")))
            ctx.exit(error.exit_code)


@click.group(cls=SiftGroup, context_settings={"help_option_names": list(spec.HELP.names)})
@click.version_option(package_name="siftpdf", prog_name="siftpdf")
@click.option(*spec.DEBUG.names, is_flag=True, hidden=spec.DEBUG.hidden, help=spec.DEBUG.help)
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Read PDFs safely and fast, as page-cited text and JSON Lines.

    Every PDF is parsed in a resource-limited child process. Commands read a
    PDF path, an http(s) URL, a doc-stream file or stdin (decided by sniffing)
    and write the text view or, with --json, JSON Lines records. Extracted
    pages go to a shared cache, so a second look starts no child and makes
    no request. 'siftpdf COMMAND --help' tells more; so does 'man siftpdf'.

    \b
    Examples:
      siftpdf fetch https://arxiv.org/pdf/1706.03762 | siftpdf map
      siftpdf pages 3-5 paper.pdf
      siftpdf grep 'attention head' paper.pdf
    """
    ctx.obj = {"debug": debug}


_finish(cli)


def main() -> None:
    """The console command (after :func:`siftpdf.cli.main` has started what it could)."""
    _utf8_stdout()
    try:
        cli(prog_name="siftpdf")
    except SystemExit as done:
        if not isinstance(done.code, int | None):
            raise
        _exit_now(done.code or 0)


def _exit_now(code: int) -> None:
    """End the process without the interpreter's teardown (freeing every module and object
    costs a short command a tenth of its time). What it skips matters only when unwritten:
    stdout was flushed by the group's main, stderr is flushed here, and siftpdf registers no
    exit handler and leaves no thread that has work to finish. A warm child that got no job
    is killed on the way out."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:  # the group's main already reported what it could not write
                silence_stdout()
    from ..workers.early_child import discard

    discard()
    os._exit(code)


def _utf8_stdout() -> None:
    """stdout is UTF-8 whatever the locale (docs/manual.md: a doc stream is UTF-8); a character that
    still cannot be written becomes U+FFFD rather than an error."""
    if sys.stdout is None:  # started with stdout closed ('>&-'): nowhere to write the data
        click.echo("siftpdf: standard output is closed", err=True)
        sys.exit(2)
    try:
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass
