"""Start the TUI for real: capture fds 1/2 first, draw on the saved terminal, restore on exit."""

from __future__ import annotations

import os
from pathlib import Path

SESSION_LOG = "tui-output.log"


def run_tui(
    workspace: Path, theme: str | None = None, low_bandwidth: bool = False, demo: bool = False
) -> int:
    """Run the app until the user quits; returns the process exit code."""
    from workbench.capture import start_process_capture, stop_process_capture
    from workbench.screens.app import WorkbenchApp
    from workbench.screens.driver import CapturedTerminalDriver

    # glog goes to fd 2 from C++: quiet the chatty levels before Paddle is imported by a worker.
    os.environ.setdefault("GLOG_minloglevel", "2")
    capture = start_process_capture()
    CapturedTerminalDriver.terminal_fd = capture.terminal_fd
    # Everything written to fds 1/2 while the UI is up (import warnings included) is kept here;
    # each run's own output also goes to its logs.txt.
    workspace.mkdir(parents=True, exist_ok=True)
    session_log = open(workspace / SESSION_LOG, "a", encoding="utf-8", errors="replace")  # noqa: SIM115
    capture.add_sink(lambda text: (session_log.write(text), session_log.flush()))
    try:
        app = WorkbenchApp(
            workspace=workspace,
            theme_name=theme,
            low_bandwidth=low_bandwidth,
            seed_demo=demo,
            driver_class=CapturedTerminalDriver,
        )
        app.run()
        return_code = app.return_code or 0
    finally:
        stop_process_capture()
        session_log.close()
        CapturedTerminalDriver.terminal_fd = None
    return return_code
