"""Start the TUI for real: capture fds 1/2 first, draw on the saved terminal, restore on exit."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from pathlib import Path

from workbench.i18n import t
from workbench.settings import WorkbenchSettings
from workbench.textsafe import inert

SESSION_LOG = "tui-output.log"


def run_tui(
    settings: WorkbenchSettings,
    demo: bool = False,
    open_run: str | None = None,
    open_plan: Path | None = None,
) -> int:
    """Run the app with the user's settings until the user quits; returns the process exit code."""
    from workbench.capture import start_process_capture, stop_process_capture
    from workbench.screens.app import WorkbenchApp
    from workbench.screens.driver import CapturedTerminalDriver
    from workbench.screens.signals import silence_terminal

    # glog goes to fd 2 from C++: quiet the chatty levels before Paddle is imported by a worker.
    os.environ.setdefault("GLOG_minloglevel", "2")
    # Made before capture starts, so a failure here is an ordinary error on a clean terminal.
    workspace = settings.workspace
    workspace.mkdir(parents=True, exist_ok=True)
    log_path = workspace / SESSION_LOG
    session_log = open(log_path, "a", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
    return_code = 1
    app: WorkbenchApp | None = None
    try:
        capture = start_process_capture()
        CapturedTerminalDriver.terminal_fd = capture.terminal_fd

        def to_session_log(text: str) -> None:
            # C-level output (glog, child processes) written while no run is active lands here; each
            # run's own output also goes to its logs.txt. Python-level prints of non-job threads are
            # Textual's.
            session_log.write(text)
            session_log.flush()

        capture.add_sink(to_session_log)
        app = WorkbenchApp(
            settings=settings,
            seed_demo=demo,
            driver_class=CapturedTerminalDriver,
            open_run=open_run,
            open_plan=open_plan,
        )
        app.handle_stop_signals = True
        terminal_fd = capture.terminal_fd
        app.on_hangup = lambda: silence_terminal(terminal_fd)
        spare_start_objects()
        app.run()
        return_code = app.return_code or 0
    finally:
        stop_process_capture()
        session_log.close()
        CapturedTerminalDriver.terminal_fd = None
    # Quitting stopped runs: say which, where they stopped, and how to go on (now that the terminal
    # is the user's again, so it stays in the scrollback).
    reports = app.stop_reports if app is not None else []
    if reports:
        with open(log_path, "a", encoding="utf-8") as log:  # kept even when the terminal is gone
            log.writelines(line + "\n" for line in reports)
    with contextlib.suppress(OSError):  # after a hang-up the terminal cannot be written
        for line in reports:
            sys.stderr.write(inert(line) + "\n")  # they name runs
        sys.stderr.flush()
    spare_exit_collection()
    if app is not None and app.stop_signal is not None:
        return 128 + app.stop_signal  # stopped by SIGTERM / SIGHUP, runs checkpointed: not a crash
    if return_code:
        # Textual printed the crash while fds 1/2 were still captured: point at where it went.
        sys.stderr.write(t("ui.crashed", path=str(log_path)) + "\n")
        sys.stderr.write(inert(log_tail(log_path, 40)))  # glog and child output: outside text
    return return_code


def spare_start_objects() -> None:
    """Move every object alive now out of the garbage collector's reach, before the app starts.

    What the start path made (the modules it imported: Textual, Rich, the screens; the settings; the
    app) lives until the process exits: a full collection here finds no garbage among its ~40,000
    objects. Frozen, they are never walked again: not by the collections while the first frame is built
    (a full one among them took ~15 ms of the first frame on a quiet machine), nor by any full
    collection later. Objects made from here on are collected as usual.
    """
    gc.freeze()


def spare_exit_collection() -> None:
    """Move every object alive now out of the garbage collector's reach before the process exits.

    Interpreter shutdown runs full collections over every tracked object; with Paddle loaded (and a
    run's history in memory) that is hundreds of thousands of objects: seconds of one core after the
    terminal is back (tens of seconds on a loaded machine), the shell prompt waiting the whole time.
    Frozen objects are never examined, and nothing is lost: by now the TUI's runs have ended (their
    files written and closed) or been handed to keepers of their own; ``atexit`` hooks and stream
    flushes still run as usual.
    """
    gc.freeze()


def log_tail(path: Path, lines: int) -> str:
    """The last ``lines`` lines of the session log (where a crash went), or nothing if unreadable."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "".join(text.splitlines(keepends=True)[-lines:])
