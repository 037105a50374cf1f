"""The progress bar: on stderr when it is a terminal, never on a pipe, never on stdout."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from conftest import run_on_terminal

BAR = re.compile(rb"(\d+)/2000(?:\x1b\[[0-9;]*m)? pages")  # the 2,100-page fixture stops at --max-pages
COLOUR = re.compile(rb"\x1b\[[0-9;]*3[0-9][;m]")  # an SGR foreground colour


@pytest.fixture(scope="module")
def on_terminal(big_pdf: Path) -> tuple[bytes, bytes, int]:
    return run_on_terminal(["map", "--no-cache", "--cap", "2000", str(big_pdf)], {}, stderr_tty=True)


def test_bar_on_a_terminal(on_terminal: tuple[bytes, bytes, int]) -> None:
    stdout, screen, code = on_terminal
    assert code == 0
    counts = [int(n) for n in BAR.findall(screen)]
    assert b"extracting" in screen
    assert counts and max(counts) > min(counts), screen[-500:]  # it moved
    assert stdout.startswith(b"# ") and b"extracting" not in stdout  # the data is untouched


def test_bar_is_cleared_when_done(on_terminal: tuple[bytes, bytes, int]) -> None:
    _, screen, _ = on_terminal
    last_bar = screen.rfind(b"pages")
    assert b"\x1b[2K" in screen[last_bar:], "the bar's line is erased at the end"


def test_nothing_on_a_pipe(big_pdf: Path) -> None:
    stdout, stderr, code = run_on_terminal(["map", "--no-cache", "--cap", "2000", str(big_pdf)], {}, stderr_tty=False)
    assert code == 0 and stdout.startswith(b"# ")
    assert stderr == b""


def test_quiet_means_no_bar(big_pdf: Path) -> None:
    _, screen, code = run_on_terminal(["map", "--no-cache", "-q", "--cap", "2000", str(big_pdf)], {}, stderr_tty=True)
    assert code == 0 and screen == b""


def test_no_color_keeps_the_bar_without_colour(big_pdf: Path, on_terminal: tuple[bytes, bytes, int]) -> None:
    assert COLOUR.search(on_terminal[1]), "a colour terminal gets a coloured bar"
    _, screen, code = run_on_terminal(["map", "--no-cache", "--cap", "2000", str(big_pdf)], {"NO_COLOR": "1"},
                                      stderr_tty=True)
    assert code == 0 and BAR.search(screen)
    assert not COLOUR.search(screen)


def test_short_document_shows_no_bar(fixtures: Path) -> None:
    _, screen, code = run_on_terminal(["map", "--no-cache", str(fixtures / "three_page.pdf")], {}, stderr_tty=True)
    assert code == 0 and screen == b""


def test_rich_is_not_imported_without_a_terminal(big_pdf: Path) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "siftpdf", "map", "--cap", "2000", str(big_pdf)],
                          capture_output=True, timeout=180)
    assert done.returncode == 0
    modules = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines() if "|" in line]
    assert "siftpdf.commands.progress" in modules  # the log is complete enough to judge
    assert not [m for m in modules if m.split(".")[0] == "rich"]


def test_data_on_the_same_terminal_takes_the_bar_away(big_pdf: Path) -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "siftpdf", "pages", "1990-2000", str(big_pdf)],
                            stdout=slave, stderr=slave, stdin=subprocess.DEVNULL,
                            env={**os.environ, "TERM": "xterm-256color"})
    os.close(slave)
    screen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    assert proc.wait(timeout=180) == 0
    os.close(master)
    before, marker, after = bytes(screen).partition(b"--- page 1990 ---")
    assert marker and BAR.search(before), "the bar shows while pages before the range are extracted"
    assert not BAR.search(after), "no bar is drawn over the text once it is being written"


@pytest.mark.parametrize("quiet", [False, True])
def test_fetch_shows_the_bar_and_quiet_takes_it_away(fixtures: Path, quiet: bool) -> None:
    from httpserver import Route, Running

    running = Running("127.0.0.1")
    try:
        running.server.routes["/long.pdf"] = Route((fixtures / "long.pdf").read_bytes())
        # --cap: a stdout this test reads only at the end stays within a pipe's buffer
        args = ["fetch", "--allow-private", "--no-cache", "--cap", "2000", *(["-q"] if quiet else []),
                running.server.url("/long.pdf")]
        stdout, screen, code = run_on_terminal(args, {}, stderr_tty=True)
    finally:
        running.stop()
    assert code == 0 and stdout.startswith(b'{"meta"')
    assert (re.search(rb"\d+/40(?:\x1b\[[0-9;]*m)? pages", screen) is None) is quiet, screen[-300:]
