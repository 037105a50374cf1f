"""Generate the man pages (man/) and shell completions (completions/) from the click commands.

    python tools/gendocs.py            # write them (what `make docs` runs)
    python tools/gendocs.py --check    # exit 1 and name the stale files

Everything a command knows (synopsis, description, options, defaults, environment variables,
examples) comes from click's introspection, so a new command or option shows up after one
`make docs`. What click cannot know (the doc stream, exit status, environment, files, worked
examples) is written by hand in docs/manual.md and merged into siftpdf(1).
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import click
from click.shell_completion import get_completion_class

ROOT = Path(__file__).resolve().parent.parent
MANUAL = ROOT / "docs" / "manual.md"
PROG = "siftpdf"
SHELLS = {"bash": "completions/siftpdf.bash", "zsh": "completions/_siftpdf", "fish": "completions/siftpdf.fish"}


# --- roff -----------------------------------------------------------------------------------

def esc(text: str) -> str:
    """Escape plain text for roff: backslashes, hyphens (so options copy as ASCII), line starts."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = "".join(ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]" for ch in text)
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line for line in text.split("\n"))


def inline(text: str) -> str:
    """Escape text, with `code` in bold and *words* in italics."""
    parts = re.split(r"(`[^`]+`|\*[^*\s][^*]*\*)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"\\fB{esc(part[1:-1])}\\fR")
        elif part.startswith("*") and part.endswith("*") and len(part) > 2:
            out.append(f"\\fI{esc(part[1:-1])}\\fR")
        else:
            out.append(esc(part))
    return "".join(out)


def preformatted(lines: list[str]) -> list[str]:
    return [".PP", ".RS 4", ".nf", *(esc(line) if line else "" for line in lines), ".fi", ".RE"]


def tag(text: str) -> str:
    """An option's tag ('-m, --max-count INTEGER'): option names bold, metavars italic."""
    words = re.split(r"(, | / | )", text)
    out = []
    for word in words:
        if word in (", ", " / ", " "):
            out.append(esc(word))
        elif word.startswith("-"):
            out.append(f"\\fB{esc(word)}\\fR")
        elif word:
            out.append(f"\\fI{esc(word)}\\fR")
    return "".join(out)


def markdown(text: str) -> list[str]:
    """The small Markdown subset of docs/manual.md: ### subsections, paragraphs, ``` blocks,
    '- ' lists and 'term' + ': definition' lists, `code` and *italics*."""
    out: list[str] = []
    lines = text.strip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("### "):
            out.append(f".SS {esc(line[4:].strip())}")
            i += 1
        elif line.startswith("```"):
            block = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append(lines[i])
                i += 1
            out += preformatted(block)
            i += 1
        elif i + 1 < len(lines) and lines[i + 1].startswith(": "):
            out += [".TP", inline(line.strip())]
            i += 1
            body = []
            while i < len(lines) and lines[i].strip() and (lines[i].startswith(": ") or lines[i].startswith("  ")):
                body.append(lines[i][2:].strip())
                i += 1
            out.append(inline(" ".join(body)))
        elif line.startswith("- "):
            while i < len(lines) and lines[i].startswith("- "):
                item = [lines[i][2:].strip()]
                i += 1
                while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                    item.append(lines[i].strip())
                    i += 1
                out += [".IP \\(bu 2", inline(" ".join(item))]
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("```", "### ", "- ")):
                if i + 1 < len(lines) and lines[i + 1].startswith(": "):
                    break
                para.append(lines[i].strip())
                i += 1
            out += [".PP", inline(" ".join(para))]
    return out


def manual_sections(path: Path = MANUAL) -> dict[str, str]:
    """docs/manual.md split at its '## TITLE' headings, in file order."""
    sections: dict[str, str] = {}
    current = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("## "):
            current = line[3:].strip().upper()
            sections[current] = ""
        elif current is not None:
            sections[current] += line + "\n"
    return sections


# --- click introspection ----------------------------------------------------------------------

def commands(group: click.Group, ctx: click.Context) -> Iterator[tuple[str, click.Command, click.Context]]:
    """(name, command, context) of each visible top-level command."""
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None and not command.hidden:
            yield name, command, click.Context(command, info_name=name, parent=ctx, **command.context_settings)


def subcommands(command: click.Command, ctx: click.Context) -> list[tuple[str, click.Command, click.Context]]:
    if not isinstance(command, click.Group):
        return []
    return list(commands(command, ctx))


def split_help(text: str) -> tuple[list[list[str]], list[str]]:
    """A command's help as paragraphs (each a list of lines; '\\b' ones keep their lines) and
    the lines of its 'Examples:' block."""
    paragraphs: list[list[str]] = []
    examples: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.split("\n")
        keep = lines[0].strip() == "\b"
        if keep:
            lines = lines[1:]
        if lines and lines[0].strip().rstrip(":").lower() in ("example", "examples"):
            examples += [line.strip() for line in lines[1:] if line.strip()]
            continue
        paragraphs.append(lines if keep else [" ".join(line.strip() for line in lines)])
    return paragraphs, examples


def describe(paragraphs: list[list[str]]) -> list[str]:
    out: list[str] = []
    for para in paragraphs:
        out += [".PP", esc(para[0])] if len(para) == 1 else preformatted(para)
    return out


def options(command: click.Command, ctx: click.Context) -> list[str]:
    out: list[str] = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option) or param.hidden:
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        out += [".TP", tag(record[0]), esc(record[1])]
    return out


def usage(command: click.Command, ctx: click.Context) -> str:
    pieces = command.collect_usage_pieces(ctx)
    return " ".join(pieces)


def envvars(command: click.Command, ctx: click.Context) -> list[tuple[str, str]]:
    found = []
    for param in command.get_params(ctx):
        names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar or [])
        for name in names:
            opts = "/".join(param.opts)
            found.append((name, f"Default for {opts}."))
    return found


def short(command: click.Command) -> str:
    """The one-line summary: short_help, else the help's first paragraph."""
    if command.short_help:
        return command.short_help.rstrip(".")
    paragraphs, _ = split_help(full_help(command))
    return paragraphs[0][0].rstrip(".") if paragraphs else ""


def full_help(command: click.Command) -> str:
    """Help and epilog, dedented as click shows them."""
    parts = [inspect.cleandoc(text) for text in (command.help, command.epilog) if text]
    return "\n\n".join(parts)


def body(command: click.Command) -> tuple[list[list[str]], list[str]]:
    """The help's paragraphs after the summary line that NAME already shows, and its examples."""
    paragraphs, examples = split_help(full_help(command))
    if paragraphs and not command.short_help and paragraphs[0][0].rstrip(".") == short(command):
        paragraphs = paragraphs[1:]
    return paragraphs, examples


# --- pages ------------------------------------------------------------------------------------

def header(title: str) -> list[str]:
    return [f'.TH {title.upper()} 1 "" "{PROG} {version(PROG)}" "siftpdf manual"', ".nh", ".ad l"]


def command_body(path: str, command: click.Command, ctx: click.Context, level: str) -> list[str]:
    """Synopsis, description, options and examples of one command (as .SH or .SS parts)."""
    paragraphs, examples = body(command) if level == "SH" else split_help(full_help(command))
    out: list[str] = []
    if level == "SH":
        out += [".SH SYNOPSIS", f".B {esc(path)}", esc(usage(command, ctx)), ".SH DESCRIPTION"]
        out += describe(paragraphs)
    else:
        out += [f".SS {esc(path)} {esc(usage(command, ctx))}"]
        out += describe(paragraphs)
    opts = options(command, ctx)
    if opts:
        out += [".SH OPTIONS" if level == "SH" else ".PP", *([] if level == "SH" else ["Options:"]), *opts]
    if examples:
        out += [".SH EXAMPLES" if level == "SH" else ".PP", *([] if level == "SH" else ["Examples:"])]
        out += preformatted(examples)[1:] if level == "SH" else preformatted(examples)
    return out


def command_page(name: str, command: click.Command, ctx: click.Context) -> str:
    path = f"{PROG} {name}"
    out = header(f"{PROG}-{name}")
    out += [".SH NAME", f"{PROG}\\-{esc(name)} \\- {esc(short(command))}"]
    out += command_body(path, command, ctx, "SH")
    subs = subcommands(command, ctx)
    if subs:
        out.append(".SH COMMANDS")
        for sub_name, sub, sub_ctx in subs:
            out += command_body(f"{path} {sub_name}", sub, sub_ctx, "SS")
    env = [item for c, x in [(command, ctx), *[(s, c) for _, s, c in subs]] for item in envvars(c, x)]
    if env:
        out.append(".SH ENVIRONMENT")
        for var, text in dict(env).items():
            out += [".TP", f"\\fB{esc(var)}\\fR", esc(text)]
    out += [".SH SEE ALSO", f"\\fB{PROG}\\fR(1)"]
    return "\n".join(out) + "\n"


def main_page(cli: click.Group, ctx: click.Context, manual: dict[str, str]) -> str:
    paragraphs, examples = body(cli)
    out = header(PROG)
    out += [".SH NAME", f"{PROG} \\- {esc(short(cli))}"]
    out += [".SH SYNOPSIS", f".B {PROG}", "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]..."]
    out += [".SH DESCRIPTION", *describe(paragraphs)]
    out += markdown(manual.pop("DESCRIPTION", ""))
    out += [".SH OPTIONS", *options(cli, ctx)]
    out.append(".SH COMMANDS")
    pages = []
    for name, command, sub_ctx in commands(cli, ctx):
        pages.append(f"{PROG}-{name}")
        out += [".TP", f"\\fB{PROG} {esc(name)}\\fR {esc(usage(command, sub_ctx))}",
                f"{esc(short(command))}. See \\fB{PROG}\\-{esc(name)}\\fR(1)."]
        for sub_name, sub, sub_sub_ctx in subcommands(command, sub_ctx):
            out += [".TP", f"\\fB{PROG} {esc(name)} {esc(sub_name)}\\fR {esc(usage(sub, sub_sub_ctx))}",
                    f"{esc(short(sub))}."]
    out += settings_section(cli, ctx)
    see_also = manual.pop("SEE ALSO", "")
    if examples:  # the group's own examples open the EXAMPLES section
        manual["EXAMPLES"] = "```\n" + "\n".join(examples) + "\n```\n\n" + manual.get("EXAMPLES", "")
    for title, text in manual.items():
        out += [f".SH {esc(title)}", *markdown(text)]
    refs = ", ".join(f"\\fB{esc(p)}\\fR(1)" for p in pages)
    out += [".SH SEE ALSO", refs + ("," if see_also.strip() else ""), *([inline(see_also.strip())] if see_also else [])]
    return "\n".join(out) + "\n"


def settings_section(cli: click.Group, ctx: click.Context) -> list[str]:
    """The keys ``--set`` knows (siftpdf.settings.KNOWN_SETTINGS), once a command has --set."""
    from siftpdf.settings import KNOWN_SETTINGS

    has_set = any("--set" in param.opts for _, command, sub_ctx in commands(cli, ctx)
                  for c in [command, *(s for _, s, _ in subcommands(command, sub_ctx))] for param in c.params)
    if not has_set or not KNOWN_SETTINGS:
        return []
    out = [".SH SETTINGS", ".PP", esc("Keys of --set key=value (shells complete them):")]
    for key, text in sorted(KNOWN_SETTINGS.items()):
        out += [".TP", f"\\fB{esc(key)}\\fR", esc(text)]
    return out


def completion(cli: click.Group, shell: str) -> str:
    cls = get_completion_class(shell)
    assert cls is not None, shell
    source = cls(cli, {}, PROG, "_SIFTPDF_COMPLETE").source().rstrip("\n") + "\n"
    if shell == "bash":
        # A completed '--set key=' waits for its value: no space after it.
        plain = "COMPREPLY+=($value)\n"
        assert plain in source, "click's bash script changed: revisit this patch"
        source = source.replace(plain, plain + "            [[ $value == *= ]] && compopt -o nospace\n")
    return source


def render_all() -> dict[str, str]:
    """Every generated file: path relative to the repository → content."""
    from siftpdf.cli import cli

    ctx = click.Context(cli, info_name=PROG, **cli.context_settings)
    files = {f"man/{PROG}.1": main_page(cli, ctx, manual_sections())}
    for name, command, sub_ctx in commands(cli, ctx):
        files[f"man/{PROG}-{name}.1"] = command_page(name, command, sub_ctx)
    for shell, path in SHELLS.items():
        files[path] = completion(cli, shell)
    files[HELP_MODULE] = help_module(cli, ctx)
    return files


HELP_MODULE = "siftpdf/console/helptext.py"
HELP_WIDTH = 78  # click's help on a terminal of 80 columns or more (its widest)


def help_texts(cli: click.Group) -> dict[str, str]:
    """What ``siftpdf --help`` ("") and ``siftpdf COMMAND --help`` print on a wide terminal."""
    ctx = click.Context(cli, info_name=PROG, terminal_width=HELP_WIDTH, **cli.context_settings)
    texts = {"": cli.get_help(ctx) + "\n"}
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        sub_ctx = click.Context(command, info_name=name, parent=ctx, terminal_width=HELP_WIDTH)
        texts[name] = command.get_help(sub_ctx) + "\n"
    return texts


def help_module(cli: click.Group, ctx: click.Context) -> str:
    """siftpdf/console/helptext.py: the help texts, for the console's --help without click."""
    lines = ['"""The help texts of ``siftpdf --help`` and ``siftpdf COMMAND --help`` as click prints them on',
             "a terminal of 80 columns or more, for siftpdf.cli to print without importing click.",
             'Generated by tools/gendocs.py (make docs); tests fail when it is stale."""',
             "", "HELP = {"]
    for name, text in help_texts(cli).items():
        lines.append(f"    {name!r}: (")
        lines += [f"        {line!r}" for line in text.splitlines(keepends=True)]
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def stale(files: dict[str, str]) -> list[str]:
    """Generated files that differ from the committed copies, plus old pages of gone commands."""
    wrong = [path for path, text in files.items()
             if not (ROOT / path).exists() or (ROOT / path).read_text(encoding="utf-8") != text]
    pages = (str(p.relative_to(ROOT)) for p in sorted((ROOT / "man").glob("*.1")))
    extra = [page for page in pages if page not in files]
    return wrong + extra


def main(argv: list[str]) -> int:
    files = render_all()
    if "--check" in argv:
        wrong = stale(files)
        for path in wrong:
            print(f"stale: {path} (run: make docs)", file=sys.stderr)
        return 1 if wrong else 0
    for old in (ROOT / "man").glob("*.1"):
        if str(old.relative_to(ROOT)) not in files:
            old.unlink()
    for path, text in files.items():
        target = ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files: " + " ".join(sorted(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
