"""Run a command on a real pseudo-terminal and collect what a user's terminal would receive."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence


def run_in_pty(
    argv: Sequence[str],
    *,
    env: dict[str, str],
    cwd: str | None = None,
    size: tuple[int, int] = (120, 40),
    timeout: float = 60.0,
    on_output: Callable[[bytes, Callable[[bytes], None]], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> tuple[int | None, bytes]:
    """Start ``argv`` with a pty as its terminal; return (exit code or None on timeout, all output).

    ``on_output(all output so far, send)`` runs on every chunk; ``on_start(pid)`` once, at start.
    """
    master, slave = os.openpty()
    cols, rows = size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen(
        list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
    )
    os.close(slave)
    if on_start is not None:
        on_start(proc.pid)
    output = bytearray()

    def send(data: bytes) -> None:
        os.write(master, data)

    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
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
                    on_output(bytes(output), send)
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
        os.close(master)
