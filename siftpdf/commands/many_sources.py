"""Commands over several sources (pages, map): each source's output in turn, under a header
line naming it as head and tail write one (``==> a.pdf <==``); with --json, every record
carries its ``source`` instead. A source that fails is reported on stderr with its name (and,
with --json, as an ``error`` record carrying its source) and the others are still delivered;
the exit status is then 2, as grep's with several sources. One source is written as before:
no header, no ``source`` field, its own exit status."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from ..errors import SiftError, UsageError
from .actions import Output, emit, out, source_label

SEVERAL_FAILED_EXIT = 2  # as grep's (siftpdf.commands.grep) when one of several sources fails


def header(source: str | None) -> str:
    return f"==> {source_label(source)} <==\n"


class Labelled(Output):
    """The output of one of several sources: its header before its first text (a blank line
    before it when something was written already), its source on every record."""

    def __init__(self, source: str | None, after_other: bool) -> None:
        self.source = source_label(source)
        self._header: str | None = ("\n" if after_other else "") + header(source)
        self.written = False

    def text(self, text: str) -> None:
        if self._header is not None:
            out(self._header)
            self._header = None
        self.written = True
        out(text)

    def record(self, record: dict[str, Any]) -> None:
        self.written = True
        emit(labelled(record, self.source))


def labelled(record: dict[str, Any], source: str) -> dict[str, Any]:
    """The record with its source, after the record's own key: a stream's first line still
    starts with ``{"meta"``, as a reader sniffs it."""
    return {**record, "source": source}


def named(error: SiftError, source: str | None) -> str:
    """The error's message, starting with the source it is about."""
    label = source_label(source)
    return error.message if error.message.startswith(f"{label}: ") else f"{label}: {error.message}"


def say_failed(error: SiftError, source: str | None) -> None:
    """One source's failure, on stderr as the group reports an error, named."""
    lines = [f"siftpdf: {' '.join(named(error, source).split())}"]
    if error.hint:
        lines.append(f"hint: {' '.join(error.hint.split())}")
    click.echo("\n".join(lines), err=True)


def summary(failed: Sequence[tuple[str | None, SiftError]], total: int) -> str:
    """What failed, in one line: 'b.pdf (encrypted), c.pdf (no_text)'."""
    names = ", ".join(f"{source_label(source)} ({error.code})" for source, error in failed)
    return f"{len(failed)} of {total} sources failed: {names}"


def stdin_once(sources: Sequence[str | None]) -> None:
    """Standard input ('-') can be read once: named twice among the sources is a usage error."""
    if sum(source in (None, "-") for source in sources) > 1:
        context = click.get_current_context(silent=True)
        command = f"{context.info_name}: " if context is not None and context.info_name else ""
        raise UsageError(f"{command}standard input ('-') is named more than once: it can be read once",
                         "give '-' once, or save the stream to a file and name the file")


def each_source(sources: Sequence[str | None], as_json: bool, quiet: bool,
                body: Callable[[str | None, Output], None]) -> None:
    """Run ``body(source, output)`` over the sources, as the module's doc says; one source
    runs bare and raises its error as a command does."""
    stdin_once(sources)
    if len(sources) <= 1:
        body(sources[0] if sources else None, Output())
        return
    failed: list[tuple[str | None, SiftError]] = []
    written = False
    for source in sources:
        to = Labelled(source, written)
        try:
            body(source, to)
        except SiftError as error:
            if as_json:
                emit(labelled(error.to_record(), to.source))
            say_failed(error, source)
            failed.append((source, error))
        written = written or to.written
    if failed:
        if not quiet:
            click.echo(f"siftpdf: {summary(failed, len(sources))}", err=True)
        click.get_current_context().exit(SEVERAL_FAILED_EXIT)
