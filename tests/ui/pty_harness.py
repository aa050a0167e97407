"""Run a command on a real pseudo-terminal and collect what a user's terminal would receive."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence

from workbench.textsafe import strip_sequences

_DRAWING = re.compile(r"[\u2500-\u259f\u2800-\u28ff]+")
_BLANKS = re.compile(r"[ \t]{2,}")


def screen_words(output: bytes, keep: int = 4000) -> str:
    """The text a terminal's last frames showed, for a failure message: escape sequences
    (:func:`workbench.textsafe.strip_sequences`), box and block drawing and runs of blanks taken out, the
    last ``keep`` characters kept (a dialog's message, which the raw bytes bury under colour codes)."""
    text = strip_sequences(output.decode("utf-8", "replace"))
    return _BLANKS.sub("  ", _DRAWING.sub(" ", text))[-keep:]


class Terminal:
    """The test's side of the pty: call it to type bytes; :meth:`hangup` drops the line."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.hung_up = False

    def __call__(self, data: bytes) -> None:
        if not self.hung_up:
            os.write(self.master, data)

    def hangup(self) -> None:
        """Close the terminal's side, as sshd does when an SSH link drops (or tmux's server dying): the
        kernel sends SIGHUP and SIGCONT to the foreground processes of that controlling terminal."""
        if not self.hung_up:
            self.hung_up = True
            os.close(self.master)


def _take_controlling_tty() -> None:
    """In the child, after ``setsid``: make the pty on fd 0 its controlling terminal (a login shell's)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def run_in_pty(
    argv: Sequence[str],
    *,
    env: dict[str, str],
    cwd: str | None = None,
    size: tuple[int, int] = (120, 40),
    timeout: float = 60.0,
    on_output: Callable[[bytes, Terminal], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> tuple[int | None, bytes]:
    """Start ``argv`` with a pty as its controlling terminal; return (exit code or None on timeout, all
    output).

    ``on_output(all output so far, terminal)`` runs on every chunk (``terminal(bytes)`` types,
    ``terminal.hangup()`` drops the line); ``on_start(pid)`` once, at start.
    """
    master, slave = os.openpty()
    cols, rows = size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen(
        list(argv),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=_take_controlling_tty,
    )
    os.close(slave)
    if on_start is not None:
        on_start(proc.pid)
    output = bytearray()
    terminal = Terminal(master)

    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and not terminal.hung_up:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                output += chunk
                if on_output is not None:
                    on_output(bytes(output), terminal)
            elif proc.poll() is not None:
                break
        try:
            code: int | None = proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
            code = None
        return code, bytes(output)
    finally:
        if not terminal.hung_up:
            os.close(master)
