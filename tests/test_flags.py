"""The option table (siftpdf.flags) against click: for every command a fast path
answers, every option of the table it knows is read as click reads it (each spelling, each form,
values at and past their bounds, values from the environment), and every option it does not know
is declined. The cases are made from the table, so an option added to it is checked here."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import click
import pytest

from siftpdf import flags
from siftpdf.commands.group import cli
from siftpdf.console import cache_hits, local_pdf
from siftpdf.flags import APPEND, FLAG, Option

ROOT = Path(__file__).resolve().parent.parent
# command -> (the fast path's parser tables, the positional arguments of a command line)
FAST = {("cache_hits", "pages"): (cache_hits.OPTIONS, ["1", "a.pdf"]),
        ("cache_hits", "grep"): (cache_hits.OPTIONS, ["x", "a.pdf"]),
        ("local_pdf", "extract"): (local_pdf.OPTIONS, ["a.pdf"]),
        ("local_pdf", "pages"): (local_pdf.OPTIONS, ["1", "a.pdf"]),
        ("local_pdf", "map"): (local_pdf.OPTIONS, ["a.pdf"])}


def _command(name: str) -> click.Command:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    return command


def _declared(command: click.Command) -> dict[str, click.Option]:
    return {name: param for param in command.params if isinstance(param, click.Option)
            for name in param.opts + param.secondary_opts}


def _click_params(name: str, words: list[str]) -> dict[str, Any] | None:
    """The command's parameters as click reads ``words``, under the group's context as the
    command line has it (a command's help option is made once, from its first context)."""
    group = click.Context(cli, info_name="siftpdf", **cli.context_settings)
    try:
        with _command(name).make_context(name, list(words), parent=group) as ctx:
            return dict(ctx.params)
    except click.UsageError:
        return None


def _samples(option: Option) -> list[str]:
    """Values of ``option`` click takes, and values past its bounds (which it refuses)."""
    if option.kind == flags.INT:
        low = int(option.low or 0)
        values = [str(low), str(low + 3)] + ([str(int(option.high))] if option.high is not None else [])
        return values + ([str(low - 1)] if option.low is not None and low > 0 else []) \
            + ([str(int(option.high) + 1)] if option.high is not None else [])
    if option.kind == flags.SECONDS:
        return ["2.5", str(option.low or 0), "0.05" if (option.low or 0) > 0.05 else "7"]
    if option.kind == flags.CHOICE:
        return [*option.choices, "sometimes"]
    return ["x y", "/tmp"]


def _cases() -> list[tuple[str, str, str, Option]]:
    cases = []
    for (path, command), (tables, _positional) in FAST.items():
        declared = _declared(_command(command))
        for spelling, (key, _takes, _flag) in tables[command].items():
            param = declared[spelling]
            assert key == param.name, spelling
            options = [o for o in _all_options() if spelling in o.names and o.key == param.name
                       and o.env == param.envvar and (param.help or "").startswith(o.help or "")]
            assert options, spelling
            cases.append((path, command, spelling, options[0]))
    return cases


def _all_options() -> list[Option]:
    found = [value for value in vars(flags).values() if isinstance(value, Option)]
    return found + list(flags.GREP) + list(flags.OUTPUTS.values())


@pytest.mark.parametrize(("path", "command", "spelling", "option"), _cases(),
                         ids=lambda value: value if isinstance(value, str) else "")
def test_the_fast_path_reads_each_option_as_click_does(path: str, command: str, spelling: str,
                                                      option: Option, monkeypatch: pytest.MonkeyPatch) -> None:
    tables, positional = FAST[(path, command)]
    for name in [flags.FORMAT_ENV, *(o.env for o in _all_options() if o.env)]:
        monkeypatch.delenv(name or "", raising=False)
    declared = _declared(_command(command))[spelling]
    assert declared.name == option.key and declared.envvar == option.env
    if option.kind == FLAG:
        forms = [[spelling]]
    else:
        forms = [form for value in _samples(option) for form in ([spelling, value], [f"{spelling}={value}"])
                 if spelling.startswith("--") or "=" not in form[0]]
    for words in forms:
        parsed = cache_hits.parse([command, *positional, *words], tables)
        clicked = _click_params(command, [*positional, *words])
        assert parsed is not None, words
        given = parsed[2]
        if option.kind == FLAG:
            assert given[option.key] == option.value
            if declared.expose_value:
                assert clicked is not None and clicked[option.key] == option.value
            continue
        text = given[option.key][-1] if tables[command][spelling][2] == APPEND else given[option.key]
        fast = flags.plain_value(option, text)
        if clicked is None:  # click refuses it: the fast path declines it too
            assert fast is None, words
        elif option.many:
            assert list(clicked[option.key]) == [fast], words
        else:
            wanted = clicked[option.key]
            assert fast == (str(wanted) if option.kind in (flags.FOLDER, flags.FILE) else wanted), words
        if option.env and clicked is not None:  # the same value from the environment
            monkeypatch.setenv(option.env, text)
            from_env = _click_params(command, positional)
            assert from_env is not None and flags.value_of(option, {}) == flags.plain_value(option, text)
            monkeypatch.delenv(option.env)


@pytest.mark.parametrize(("path", "command"), list(FAST))
def test_the_fast_path_declines_every_option_it_does_not_answer(path: str, command: str) -> None:
    tables, positional = FAST[(path, command)]
    unknown = sorted(set(_declared(_command(command))) - set(tables[command]))
    assert unknown  # each command has options only click reads
    for spelling in unknown:
        assert cache_hits.parse([command, *positional, spelling], tables) is None, spelling
        assert cache_hits.parse([command, *positional, spelling, "1"], tables) is None, spelling


def test_every_click_option_comes_from_the_table() -> None:
    """Each option of every command is one of the table's: its spellings, key, help, kind of
    value and environment variable (a click option written by hand in a command would differ)."""
    options = _all_options()
    group = click.Context(cli)
    commands = [(name, cli.get_command(group, name)) for name in cli.list_commands(group)]
    seen = listed = 0
    while commands:
        name, command = commands.pop()
        assert command is not None
        if isinstance(command, click.Group):
            commands += [(f"{name} {sub}", command.get_command(group, sub)) for sub in command.list_commands(group)]
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            names = tuple(param.opts + param.secondary_opts)
            matches = [o for o in options if names == o.names and o.key == param.name and o.env == param.envvar
                       and o.many == param.multiple and (param.help or "").startswith(o.help or "")]
            assert matches, (name, param.opts)
            seen += 1
        if name in flags.COMMANDS:  # the group's own (--debug, --help, --version) aside
            # which options a command takes, and in what order its help lists them, is the table's
            taken = [tuple(param.opts + param.secondary_opts) for param in command.params
                     if isinstance(param, click.Option) and param.name != "help"]
            assert taken == [option.names for option in flags.COMMANDS[name]], name
            listed += 1
    assert seen > 100 and listed == len(flags.COMMANDS)


def test_no_module_but_the_table_spells_a_long_option() -> None:
    """A long option written as a string is the table's alone (help texts and docstrings may
    name options; a string that is exactly one is a parser's)."""
    spelled: dict[str, set[str]] = {}
    for path in (ROOT / "siftpdf").rglob("*.py"):
        if path.name == "helptext.py":  # made by `make docs` from click
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"--[a-z][a-z0-9-]*", node.value):
                spelled.setdefault(node.value, set()).add(path.relative_to(ROOT).as_posix())
    twice = {flag: sorted(modules) for flag, modules in spelled.items() if len(modules) > 1}
    assert twice == {}


def test_the_table_keeps_the_values_the_library_takes() -> None:
    from siftpdf.extras import OCR_MODES
    from siftpdf.views.grep import COLORS

    assert flags.OCR.choices == OCR_MODES and flags.grep_option("color").choices == COLORS
