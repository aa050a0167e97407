"""SIGTERM and SIGHUP in the TUI: stop the runs after their step, then quit — as ``train`` does.

A scheduler's ``kill`` sends SIGTERM; an SSH session that drops sends SIGHUP. Left to their defaults,
both killed the TUI mid-step, and an in-process run lost everything since its last checkpoint and was
left "running". Here the first one stops every live run cooperatively (each finishes its step and
writes a checkpoint, bounded by the quit wait), records the stop reports, and exits with 128 + the
signal's number; SIGHUP first points the dead terminal at ``/dev/null``, so nothing blocks on it. A
second signal exits at once.

``import paddle`` installs glog's C-level SIGTERM handler over ours (docs/paddle-notes.md, "Signals"), so
the app installs the handlers again once Paddle has loaded.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def install_stop_signals(handler: Callable[[int], None]) -> None:
    """Route the stop signals to ``handler(signum)`` on the running event loop (safe, and it wakes the
    loop); calling it again re-asserts the handlers at the C level."""
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, handler, signum)


def silence_terminal(fd: int | None) -> None:
    """Point the saved terminal descriptor at ``/dev/null``: the terminal hung up, and the screen's last
    writes (and the driver's restore sequences) must go nowhere rather than fail or block."""
    if fd is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)
