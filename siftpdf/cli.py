"""The command line: a thin click layer over the library. Commands load lazily so that
``siftpdf --help`` and cache hits import no PDF engine."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from typing import Any

import click

from .errors import SiftError

COMMANDS = {
    "sniff": "siftpdf.commands.sniff",
    "extract": "siftpdf.commands.extract",
    "map": "siftpdf.commands.map",
    "pages": "siftpdf.commands.pages",
    "grep": "siftpdf.commands.grep",
    "fetch": "siftpdf.commands.fetch",
    "cache": "siftpdf.commands.cache",
    "digest": "siftpdf.commands.digest",
    "engine": "siftpdf.commands.engine",
    "serve": "siftpdf.commands.serve",
}


def report(error: SiftError, as_json: bool) -> None:
    """The one place a typed error meets the user: a line on stderr (and a record in JSON mode)."""
    if as_json:
        from .docstream import dumps

        try:
            sys.stdout.write(dumps(error.to_record()) + "\n")
            sys.stdout.flush()
        except (BrokenPipeError, ValueError):
            pass
    click.echo(f"siftpdf: {error.message}", err=True)
    if error.hint:
        click.echo(f"hint: {error.hint}", err=True)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _finish(command: click.Command) -> None:
    """Conventions every command (and subcommand) gets, whoever wrote it: the Examples block of
    its help is shown last, after the options; a ``--set`` option completes the known keys."""
    from .commands.options import complete_setting

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
            if "--set" in param.opts and param._custom_shell_complete is None:
                param._custom_shell_complete = complete_setting


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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SiftError as error:
            if ctx.obj and ctx.obj.get("debug"):
                raise
            report(error, bool(ctx.meta.get("siftpdf.json")))
            ctx.exit(error.exit_code)
        except BrokenPipeError:
            _silence_stdout()
            ctx.exit(0)
        except KeyboardInterrupt:
            click.echo("siftpdf: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=SiftGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="siftpdf", prog_name="siftpdf")
@click.option("--debug", is_flag=True, hidden=True, help="Show tracebacks.")
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
    cli(prog_name="siftpdf")
