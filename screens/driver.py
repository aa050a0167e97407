"""A Linux driver that draws on a duplicate of the terminal, so fds 1 and 2 can be captured.

Textual's ``LinuxDriver`` writes to ``sys.__stderr__`` and sizes the screen from fd 1. While a run is
up, both fds point at our capture pipe (``workbench.capture.FdCapture``), so the driver must write to
and measure the saved terminal instead (docs/paddle-notes.md, "Paddle inside a Textual process").
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any, ClassVar

from textual.drivers.linux_driver import LinuxDriver

from workbench.screens.textual_private import set_driver_output


class TerminalStream(io.TextIOWrapper):
    """The saved terminal as a text stream that survives the terminal hanging up.

    Textual's writer thread writes every frame to this stream. When the terminal goes away (an SSH link
    drops, a pty's master closes) a write fails with ``EIO`` or ``EPIPE``; raised in the writer thread,
    that ended the thread, and the app's exit then blocked for ever putting its last frames on the dead
    thread's full queue — the runs were stopped, but the process stayed. A failed write is dropped
    instead: there is nobody left to read it.
    """

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError):
            super().flush()


def terminal_stream(fd: int) -> TerminalStream:
    """A text stream on ``fd`` that does not close it (the capture owns it) and outlives a hang-up."""
    raw = io.FileIO(fd, "w", closefd=False)
    return TerminalStream(raw, encoding="utf-8", errors="replace", write_through=True)


class CapturedTerminalDriver(LinuxDriver):
    """``LinuxDriver`` bound to a saved terminal fd (set ``terminal_fd`` before the app starts)."""

    terminal_fd: ClassVar[int | None] = None

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        if self.terminal_fd is not None:
            set_driver_output(self, terminal_stream(self.terminal_fd))

    def _sigcont_application(self, *_: Any) -> None:
        """SIGCONT restarts application mode only after a SIGTSTP (ctrl+z) suspended it.

        A terminal that hangs up (an SSH link dropping, tmux's server dying) sends SIGHUP *and* SIGCONT
        to its foreground processes. Textual's handler then started application mode a second time on
        the dead terminal: the new writer thread died on its first write, and the app's exit blocked
        for ever on that thread's full queue — the runs were saved, but the process stayed behind.
        """
        if self._must_signal_resume:
            super()._sigcont_application()

    def _get_terminal_size(self) -> tuple[int, int]:
        if self.terminal_fd is not None:
            try:
                size = os.get_terminal_size(self.terminal_fd)
                return size.columns or 80, size.lines or 25
            except OSError:
                pass
        return super()._get_terminal_size()
