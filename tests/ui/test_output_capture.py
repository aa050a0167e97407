"""Nothing a run prints may reach the terminal raw while the TUI is up
(docs/architecture.md, "Output capture").

The real app runs on a pseudo-terminal through the real launch path (fd capture + the driver that
draws on the saved terminal). A job writes markers every way a Paddle run can: ``os.write`` on fds 1
and 2 (what C++ glog does), ``print``, ``sys.stderr``, ``warnings``, and a child process that inherits
the fds. The terminal stream must contain none of them; the run's ``logs.txt`` must contain all.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

from tests.ui.pty_harness import run_in_pty

MARKERS = [
    "RAW-FD2-MARKER",
    "RAW-FD1-MARKER",
    "PY-PRINT-MARKER",
    "PY-STDERR-MARKER",
    "PY-WARN-MARKER",
    "CHILD-MARKER",
]

SCRIPT = textwrap.dedent(
    """
    import os, subprocess, sys, warnings
    from pathlib import Path
    import workbench.screens.app as app_module
    from workbench.runner import start_in_process
    from workbench.screens.launch import run_tui
    from workbench.settings import WorkbenchSettings

    def noisy(ctx):
        os.write(2, b"RAW-FD2-MARKER from C level\\n")
        os.write(1, b"RAW-FD1-MARKER from C level\\n")
        print("PY-PRINT-MARKER")
        sys.stderr.write("PY-STDERR-MARKER\\n")
        warnings.warn("PY-WARN-MARKER")
        subprocess.run([sys.executable, "-c", "print('CHILD-MARKER')"], check=True)
        ctx.log(1, loss=1.0)

    class ProbeApp(app_module.WorkbenchApp):
        def on_mount(self):
            super().on_mount()
            self.start_job(lambda store: start_in_process(store, "noisy", noisy), open_monitor=False)
            self.set_interval(0.2, self._exit_when_done)

        def _exit_when_done(self):
            if self.live_jobs and all(job.done for job in self.live_jobs.values()):
                self.exit(0)

    app_module.WorkbenchApp = ProbeApp
    sys.exit(run_tui(WorkbenchSettings(workspace=Path(sys.argv[1]))))
    """
)


def test_run_output_never_reaches_the_terminal(tmp_path: Path) -> None:
    script = tmp_path / "probe.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PADDLE_WORKBENCH_LANG="en")
    env["PYTHONPATH"] = str(Path(__file__).parents[2])
    code, screen = run_in_pty([sys.executable, str(script), str(tmp_path / "ws")], env=env, timeout=60)
    assert code == 0, screen.decode(errors="replace")[-2000:]
    assert b"\x1b[?1049h" in screen  # the app really drew on the terminal (alternate screen)
    for marker in MARKERS:
        assert marker.encode() not in screen, f"{marker} leaked onto the terminal"
    [run_dir] = list((tmp_path / "ws" / "runs").iterdir())
    logs = (run_dir / "logs.txt").read_text()
    for marker in MARKERS:
        assert marker in logs, f"{marker} missing from logs.txt"
