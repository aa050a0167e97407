"""The TUI's terminal stream survives the terminal going away (``screens/driver.py``)."""

from __future__ import annotations

import os
import threading

import pytest

pytest.importorskip("textual")

from textual.drivers._writer_thread import WriterThread  # noqa: E402

from workbench.screens.driver import terminal_stream  # noqa: E402


def test_textuals_writer_thread_survives_a_terminal_that_hung_up() -> None:
    """Writes to a closed pipe (EPIPE, as a hung-up pty gives EIO) are dropped: the writer thread lives
    on, and the app's last frames and its stop never block on a dead thread's full queue."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads any more: every write fails
    try:
        stream = terminal_stream(write_end)
        writer = WriterThread(stream)
        writer.start()
        done = threading.Event()

        def frames_then_stop() -> None:
            for _ in range(200):  # far more than the writer's queue holds
                writer.write("\x1b[2J frame")
            writer.stop()
            done.set()

        threading.Thread(target=frames_then_stop, daemon=True).start()
        assert done.wait(10), "the writer thread died on the dead terminal and the app's writes blocked"
    finally:
        os.close(write_end)
