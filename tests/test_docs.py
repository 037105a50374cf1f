"""Man pages, completions and --help: generated from the commands, current, and complete."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import click
import pytest
from click.shell_completion import BashComplete
from click.testing import CliRunner

from siftpdf import cli as cli_module
from siftpdf.cli import cli
from siftpdf.settings import KNOWN_SETTINGS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gendocs  # noqa: E402

CTX = click.Context(cli, info_name="siftpdf", **cli.context_settings)


def all_commands() -> list[tuple[str, str, click.Command, click.Context]]:
    """(top-level name, full path, command, context) of every visible command and subcommand."""
    found = []
    for name, command, ctx in gendocs.commands(cli, CTX):
        found.append((name, f"siftpdf {name}", command, ctx))
        for sub_name, sub, sub_ctx in gendocs.subcommands(command, ctx):
            found.append((name, f"siftpdf {name} {sub_name}", sub, sub_ctx))
    return found


def visible_options(command: click.Command, ctx: click.Context) -> list[click.Option]:
    return [p for p in command.get_params(ctx) if isinstance(p, click.Option) and not p.hidden]


def render(page: Path) -> str:
    """The page as man shows it (groff when man-db is missing), hyphens made plain ASCII."""
    env = {**os.environ, "MANWIDTH": "200", "MANPAGER": "cat", "PAGER": "cat"}
    if shutil.which("man"):
        done = subprocess.run(["man", "-l", str(page)], capture_output=True, env=env, timeout=60)
    else:
        done = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", str(page)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert not done.stderr.strip(), done.stderr
    return done.stdout.decode("utf-8").replace("\u2010", "-").replace("\u2212", "-")


def test_generated_files_are_current() -> None:
    assert gendocs.stale(gendocs.render_all()) == [], "man pages or completions are stale: run make docs"


def test_main_page_names_every_command() -> None:
    text = render(ROOT / "man" / "siftpdf.1")
    for _, path, _, _ in all_commands():
        assert re.search(rf"^\s+{re.escape(path)}( |$)", text, re.M), path
    for section in ("DOC STREAM", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"):
        assert f"\n{section}\n" in text
    for option in visible_options(cli, CTX):
        for opt in option.opts:
            assert opt in text


def test_every_option_is_in_its_command_page() -> None:
    for name, path, command, ctx in all_commands():
        page = ROOT / "man" / f"siftpdf-{name}.1"
        assert page.exists(), f"no man page for {path}"
        text = render(page)
        assert path in text
        for option in visible_options(command, ctx):
            for opt in option.opts + option.secondary_opts:
                assert re.search(rf"(^|[\s,]){re.escape(opt)}([\s,=]|$)", text, re.M), f"{path}: {opt}"


def test_every_environment_variable_is_documented() -> None:
    environment = render(ROOT / "man" / "siftpdf.1").split("\nENVIRONMENT\n")[1].split("\nFILES\n")[0]
    for _, path, command, ctx in all_commands():
        for param in command.get_params(ctx):
            names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar or [])
            for var in names:
                assert var in environment, f"{path}: {var} is not in siftpdf(1) ENVIRONMENT"


def test_every_command_and_option_has_help_and_examples() -> None:
    runner = CliRunner()
    assert all_commands()
    for _, path, command, ctx in [("", "siftpdf", cli, CTX), *all_commands()]:
        assert (command.help or "").strip(), f"{path} has no help text"
        for option in visible_options(command, ctx):
            assert (option.help or "").strip(), f"{path} {option.opts[0]} has no help text"
        result = runner.invoke(cli, path.split()[1:] + ["--help"], prog_name="siftpdf")
        assert result.exit_code == 0
        examples = result.output.split("Example")
        assert len(examples) == 2, f"{path} --help has no Examples block"
        shown = [line.strip() for line in examples[1].splitlines()[1:] if line.strip()]
        assert 2 <= len(shown) <= 3 and all(line.split()[0] in ("siftpdf", "cat", "curl") or "siftpdf" in line
                                            for line in shown), f"{path}: {shown}"
        assert result.output.rstrip().endswith(shown[-1]), f"{path} --help does not end with its examples"


def _complete(shell: str, words: str) -> str:
    env = {**os.environ, "_SIFTPDF_COMPLETE": f"{shell}_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    if shell == "fish":
        env["COMP_CWORD"] = words.split()[-1] if not words.endswith(" ") else ""
    done = subprocess.run([sys.executable, "-m", "siftpdf"], capture_output=True, env=env, timeout=60)
    return done.stdout.decode()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_protocol_answers_commands_options_and_files(shell: str) -> None:
    assert "grep" in _complete(shell, "siftpdf gr")
    assert "--max-pages" in _complete(shell, "siftpdf pages --max")
    assert "file" in _complete(shell, "siftpdf map sam")


@pytest.mark.skipif(not shutil.which("bash"), reason="needs bash")
def test_bash_script_completes_commands_and_options(tmp_path: Path) -> None:
    script = f"""
        source {ROOT / 'completions' / 'siftpdf.bash'}
        complete -p siftpdf
        COMP_WORDS=(siftpdf en); COMP_CWORD=1; _siftpdf_completion siftpdf; echo "A:${{COMPREPLY[*]}}"
        COMP_WORDS=(siftpdf engine status --j); COMP_CWORD=3; COMPREPLY=(); _siftpdf_completion siftpdf
        echo "B:${{COMPREPLY[*]}}"
    """
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, env=env, timeout=60, cwd=tmp_path)
    out = done.stdout.decode()
    assert "complete -o nosort -F _siftpdf_completion siftpdf" in out, done.stderr
    assert "A:engine" in out and "B:--json" in out, (out, done.stderr)


def test_set_keys_complete_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    @click.command()
    @click.option("--set", "settings", multiple=True, help="key=value")
    def fake(settings: tuple[str, ...]) -> None:
        """A command with --set."""

    monkeypatch.setitem(sys.modules, "siftpdf_fake_set", types.SimpleNamespace(command=fake))
    monkeypatch.setitem(cli_module.COMMANDS, "fake", "siftpdf_fake_set")
    monkeypatch.setitem(KNOWN_SETTINGS, "zz.test_key", "A key only this test knows.")
    complete = BashComplete(cli, {}, "siftpdf", "_SIFTPDF_COMPLETE")
    values = [item.value for item in complete.get_completions(["fake", "--set"], "")]
    assert values == [f"{key}=" for key in sorted(KNOWN_SETTINGS)]
    assert [i.value for i in complete.get_completions(["fake", "--set"], "zz")] == ["zz.test_key="]
    assert complete.get_completions(["fake", "--set"], "zz.test_key=") == []


def test_settings_section_appears_with_a_set_option(monkeypatch: pytest.MonkeyPatch) -> None:
    # The real commands have --set (extract, pages …), so the man page has the section.
    with_set = [path for _, path, c, _ in all_commands() if any("--set" in p.opts for p in c.params)]
    assert with_set and gendocs.settings_section(cli, CTX)[0] == ".SH SETTINGS", with_set

    @click.command()
    @click.option("--set", "settings", multiple=True, help="key=value")
    def fake(settings: tuple[str, ...]) -> None:
        """A command with --set."""

    monkeypatch.setitem(sys.modules, "siftpdf_fake_set", types.SimpleNamespace(command=fake))
    monkeypatch.setitem(cli_module.COMMANDS, "fake", "siftpdf_fake_set")
    section = "\n".join(gendocs.settings_section(cli, CTX))
    assert section.startswith(".SH SETTINGS")
    for key in KNOWN_SETTINGS:
        assert gendocs.esc(key) in section


def test_every_real_set_option_completes_known_keys() -> None:
    complete = BashComplete(cli, {}, "siftpdf", "_SIFTPDF_COMPLETE")
    for _, path, command, _ctx in all_commands():
        if any("--set" in p.opts for p in command.params):
            values = {i.value for i in complete.get_completions(path.split()[1:] + ["--set"], "")}
            assert values == {f"{key}=" for key in KNOWN_SETTINGS}, path


@pytest.mark.skipif(not shutil.which("bash"), reason="needs bash")
def test_bash_completes_set_keys_without_a_trailing_space(tmp_path: Path) -> None:
    program = tmp_path / "siftpdf"
    program.write_text(f"""#!{sys.executable}
import sys, types, click
from siftpdf import cli as m

@click.command()
@click.option("--set", "settings", multiple=True, help="key=value")
def fake(settings):
    \"\"\"A command with --set.\"\"\"

sys.modules["siftpdf_fake_set"] = types.SimpleNamespace(command=fake)
m.COMMANDS["fake"] = "siftpdf_fake_set"
m.main()
""")
    program.chmod(0o755)
    script = f"""
        source {ROOT / 'completions' / 'siftpdf.bash'}
        compopt() {{ local IFS=" "; echo "compopt $*"; }}
        COMP_WORDS=(siftpdf fake --set organize.fu); COMP_CWORD=3; _siftpdf_completion siftpdf
        echo "reply:${{COMPREPLY[*]}}"
    """
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, env=env, timeout=60)
    out = done.stdout.decode()
    assert "reply:organize.furniture=" in out, (out, done.stderr)
    assert "compopt -o nospace" in out
