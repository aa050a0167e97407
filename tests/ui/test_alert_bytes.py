"""Alerts that reach the user outside the TUI, as the terminal receives them (docs/architecture.md,
"Alerts outside the TUI").

The real app starts through the real launch path (fds 1/2 captured, the driver drawing on the saved
terminal) and runs a tiny in-process job to its end. On a pty, with ``notify: osc9`` and ``$TMUX`` set,
the bytes must hold the bell once and the notification wrapped in tmux's passthrough (never bare). In a real
tmux server (a private socket in the test's folder) the run finishing in a background window must set
that window's bell flag — the ``!`` a user sees in the status line. ``paddle-workbench train`` rings at
the end on the terminal too, and never into a file its output is redirected to.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.pty_harness import run_in_pty

SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import workbench.screens.app as app_module
    from workbench.runner import start_in_process
    from workbench.screens.launch import run_tui
    from workbench.settings import resolve_settings

    def tiny(ctx):
        ctx.log(1, loss=1.0)
        return {}

    class ProbeApp(app_module.WorkbenchApp):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "preload_paddle": False})

        def on_mount(self):
            super().on_mount()
            self.start_job(lambda store: start_in_process(store, "bell-probe", tiny), open_monitor=False)
            self.set_interval(0.1, self._exit_once_rung)

        def _exit_once_rung(self):
            if self.alert_notifier().sent:
                self.exit(0)

    app_module.WorkbenchApp = ProbeApp
    sys.exit(run_tui(resolve_settings({"workspace": Path(sys.argv[1])})))
    """
)

OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
WRAPPED_OSC9 = b"\x1bPtmux;\x1b\x1b]9;Paddle Workbench: run bell-probe finished at step 1\x07\x1b\\"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_WORKBENCH_", "TMUX"))}
    env.update(
        TERM="xterm-256color",
        HOME=str(tmp_path),
        PADDLE_WORKBENCH_LANG="en",
        PADDLE_WORKBENCH_CONFIG=str(tmp_path / "no-config.yaml"),
        PYTHONPATH=str(Path(__file__).parents[2]),
        **extra,
    )
    return env


def _probe(tmp_path: Path) -> Path:
    script = tmp_path / "probe.py"
    script.write_text(SCRIPT)
    return script


def test_inside_tmux_the_osc9_notification_is_wrapped_for_passthrough(tmp_path: Path) -> None:
    env = _env(tmp_path, TMUX="/tmp/tmux-0/default,1,0", PADDLE_WORKBENCH_NOTIFY="osc9")
    code, screen = run_in_pty(
        [sys.executable, str(_probe(tmp_path)), str(tmp_path / "ws")], env=env, timeout=60
    )
    assert code == 0, screen.decode(errors="replace")[-2000:]
    assert b"\x1b[?1049h" in screen  # drawn by the app on the real terminal
    assert b"\x07" + WRAPPED_OSC9 in screen  # the bell, then the notification tmux forwards
    rest = screen.replace(WRAPPED_OSC9, b"")
    assert b"\x1b]9;" not in rest  # never unwrapped
    assert OSC.sub(b"", rest).count(b"\x07") == 1  # one ring (Textual's own OSC 22 ends in BEL too)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_a_run_finishing_in_a_background_tmux_window_flags_it(tmp_path: Path) -> None:
    env = _env(tmp_path, TMUX_TMPDIR=str(tmp_path))
    del env["TERM"]  # tmux sets the panes' own

    def tmux(*args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", "wb-bell", "-f", "/dev/null", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return result.stdout.strip()

    command = f"{sys.executable} {_probe(tmp_path)} {tmp_path / 'ws'}"
    tmux("new-session", "-d", "-s", "main", "-x", "120", "-y", "40")
    try:
        tmux("set-option", "-g", "remain-on-exit", "on")  # the window (and its flag) outlive the app
        tmux("new-window", "-d", "-t", "main:", "-n", "training", command)
        assert tmux("display-message", "-p", "-t", "main", "#{window_name}") != "training"  # background
        deadline = time.monotonic() + 60
        flag = ""
        while time.monotonic() < deadline:
            flag = tmux("display-message", "-p", "-t", "main:training", "#{window_bell_flag}")
            if flag == "1":
                break
            time.sleep(0.1)
        pane = tmux("capture-pane", "-p", "-t", "main:training")
        assert flag == "1", pane
    finally:
        subprocess.run(["tmux", "-L", "wb-bell", "kill-server"], env=env, capture_output=True, timeout=30)


@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed")
def test_train_rings_on_the_terminal_and_never_into_a_redirected_file(tmp_path: Path) -> None:
    from tests.parallel_helpers import write_train

    config = write_train(tmp_path, steps=2)
    out = tmp_path / "out.json"
    train = [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "train", str(config)]
    command = f"{shlex.join([*train, '--json'])} > {shlex.quote(str(out))}"  # stdout a file, stderr the pty
    env = _env(tmp_path, PADDLE_WORKBENCH_NOTIFY="osc777", GLOG_minloglevel="2")
    code, screen = run_in_pty(["/bin/sh", "-c", command], env=env, cwd=str(tmp_path), timeout=120)
    assert code == 0, screen.decode(errors="replace")[-2000:]
    assert b"\x07\x1b]777;notify;Paddle Workbench;run train finished at step 2\x07" in screen
    document = out.read_bytes()
    assert b"\x07" not in document and b"\x1b" not in document
    assert json.loads(document)["status"] == "finished"


async def test_the_app_rings_once_for_a_nan_stop_and_never_for_a_run_history(
    make_app: Any, tmp_path: Path
) -> None:
    """Pilot (headless: nothing is written, the notifier counts): a run that raises a NaN alert and fails
    is one ring and two hook calls; a finished run opened from disk later is not watched at all."""
    from tests.ui.waiting import wait_for
    from workbench.events import AlertRaised
    from workbench.runner import JobContext, start_in_process
    from workbench.runs import RunStore
    from workbench.settings import WorkbenchSettings

    def nan(ctx: JobContext) -> None:
        ctx.log(1, loss=float("nan"))
        ctx.emit(AlertRaised(kind="nonfinite", message="loss is nan", step=1))
        raise FloatingPointError("loss is nan at step 1")

    workspace = tmp_path / "ws"
    old = start_in_process(RunStore(workspace), "old-run", lambda ctx: ctx.log(1, loss=1.0))
    assert old.wait(30) and old.status == "finished"
    hook, out = tmp_path / "hook.py", tmp_path / "events.jsonl"
    hook.write_text("import sys\nopen(sys.argv[1], 'a').write(sys.stdin.read() + '\\n')\n")
    settings = WorkbenchSettings(
        workspace=workspace, on_alert=shlex.join([sys.executable, str(hook), str(out)])
    )
    app = make_app(settings=settings)
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(lambda store: start_in_process(store, "nan-run", nan), open_monitor=False)
        await wait_for(pilot, lambda: len(out.read_text().splitlines()) == 2)
        kinds = [json.loads(line)["kind"] for line in out.read_text().splitlines()]
        assert sorted(kinds) == ["failed", "nonfinite"] and job.status == "failed"
        assert app.alert_notifier().sent == 1  # the alert and the failure a moment later: one ring
        app.open_in_monitor(old.run_id)
        await wait_for(pilot, lambda: getattr(app.monitor_target, "run_id", None) == old.run_id)
        await wait_for(pilot, lambda: not [w for w in app.workers if w.group == "alerts" and w.is_running])
    assert app.alert_notifier().wait_for_hooks(30)  # every hook started has written its line
    assert app.alert_notifier().sent == 1 and len(out.read_text().splitlines()) == 2
