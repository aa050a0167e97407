"""One browser tab's app: ``python -m workbench.screens.web_entry``, started by ``paddle-workbench web``.

``textual-serve`` starts this module once per tab, with the tab's websocket behind its stdin and stdout
(the web driver's packets). Unlike :func:`workbench.screens.launch.run_tui` there is no terminal to
fall back to: the app always runs, drawing through :class:`WebTabDriver`.

- **Output.** fds 1 and 2 are moved to ``/dev/null`` and then captured as in the terminal
  (``workbench.capture``): a run's prints, glog and child processes go to the run's ``logs.txt`` and the
  workspace's ``tui-output.log``, never into the packet stream; the driver writes to a duplicate of the
  original stdout.
- **A closed tab does not stop runs.** Closing or reloading the tab makes ``textual-serve`` send
  ``quit``: the screens end and the tab's stdout is closed (the server forgets the tab), but a run this
  process started goes on, and the process stays until its runs end. A new tab is a new process that
  lists the run as running and follows it live from its folder (as the terminal follows another
  process's run); stop, pause and checkpoint stay with the process that runs it, i.e. the run finishes,
  or the server is stopped. ``q`` in the tab asks as in the terminal: stop the runs (they checkpoint) or stay.
- **Stopping.** SIGTERM or SIGHUP (the server stopping) stops the runs as ``q`` does — each finishes its
  step and writes a checkpoint, bounded by the quit wait — while the tab is open or after it closed; the
  stop reports go to ``tui-output.log``.
- **Own session.** The process leaves the server's process group, so Ctrl-C in the server's terminal
  reaches the server alone, which then stops its tabs as above. A server killed outright (SIGKILL) closes
  the tab's stdin: the screens end as for a closed tab, and the process ends once its runs have.

The ``__main__`` guard matters: the dataset linter's process pool starts its workers with ``spawn``,
which imports ``__main__`` again in each worker; unguarded, each would start a second app on the tab.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any, ClassVar

from textual import messages
from textual.drivers.web_driver import WebDriver

from workbench.screens.launch import SESSION_LOG, log_tail
from workbench.textsafe import inert


class WebTabDriver(WebDriver):
    """Textual's web driver, writing its packets to a saved duplicate of the tab's stdout."""

    protocol_fd: ClassVar[int | None] = None

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        if self.protocol_fd is not None:
            self.fileno = self.protocol_fd
            self._write = partial(os.write, self.protocol_fd)

    def run_input_thread(self) -> None:
        """Read the tab's input; when it ends without the app asking (the server was killed, so no
        ``quit`` came), end the screens as a closed tab does — nothing could reach them again."""
        super().run_input_thread()
        if not self.exit_event.is_set():
            self._app.post_message(messages.ExitApp())


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="workbench.screens.web_entry")
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--lang", default=None)
    parser.add_argument("--theme", default=None)
    parser.add_argument("--low-bandwidth", action="store_true", default=None)
    parser.add_argument("--demo", action="store_true")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    from workbench.capture import start_process_capture, stop_process_capture
    from workbench.i18n import set_language
    from workbench.permissions import private_umask
    from workbench.screens.app import WorkbenchApp
    from workbench.settings import resolve_settings

    args = parse_args(argv)
    private_umask()
    with contextlib.suppress(OSError):
        os.setsid()
    settings = resolve_settings(
        {
            "workspace": args.workspace,
            "lang": args.lang,
            "theme": args.theme,
            "low_bandwidth": args.low_bandwidth,
        }
    )
    set_language(settings.lang)
    os.environ.setdefault("GLOG_minloglevel", "2")
    workspace = settings.workspace
    workspace.mkdir(parents=True, exist_ok=True)
    log_path = workspace / SESSION_LOG
    session_log = open(log_path, "a", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
    protocol_fd, server_err = os.dup(1), os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    app: WorkbenchApp | None = None
    return_code = 1
    try:
        capture = start_process_capture()

        def to_session_log(text: str) -> None:
            session_log.write(text)
            session_log.flush()

        capture.add_sink(to_session_log)
        WebTabDriver.protocol_fd = protocol_fd
        app = WorkbenchApp(settings=settings, seed_demo=args.demo, driver_class=WebTabDriver)
        app.handle_stop_signals = True
        app.run()
        return_code = app.return_code or 0
        # The tab is gone: the server stops waiting for this process once its stdout closes.
        os.close(protocol_fd)
        protocol_fd = -1
        if app.stop_signal is None:
            outlive_tab(app)
    finally:
        if protocol_fd >= 0:
            os.close(protocol_fd)
        stop_process_capture()
        if app is not None and app.stop_reports:
            session_log.writelines(line + "\n" for line in app.stop_reports)
        session_log.close()
    if return_code:  # the server prints the app's stderr: say where the crash went
        from workbench.i18n import t

        with contextlib.suppress(OSError):
            os.write(server_err, (t("ui.crashed", path=str(log_path)) + "\n").encode())
            os.write(server_err, inert(log_tail(log_path, 40)).encode())  # outside text
    os.close(server_err)
    return return_code


def outlive_tab(app: Any) -> None:
    """Keep the process until the runs it started end; a stop signal stops them as ``q`` does."""
    from workbench.screens.jobs import QUIT_WAIT_S, stop_report

    running = [job for job in app.live_jobs.values() if not job.done]
    if not running:
        return
    stop = threading.Event()

    def on_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, on_stop)
    while not all(job.done for job in running):
        if stop.wait(0.5):
            for job in running:
                job.cancel()
            deadline = time.monotonic() + QUIT_WAIT_S
            for job in running:
                job.wait(max(0.0, deadline - time.monotonic()))
            app.stop_reports.extend(line for job in running for line in stop_report(job))
            return


if __name__ == "__main__":
    sys.exit(main())
