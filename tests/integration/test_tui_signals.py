"""SIGTERM and SIGHUP sent to the real TUI on a real terminal, while a Paddle run trains in it.

The Pilot test (tests/ui/test_app.py) calls the app's handler directly; this one goes through what only
a real process has: the handlers installed by ``run_tui``, re-installed after ``import paddle`` replaced
SIGTERM's with glog's (docs/paddle-notes.md, "Signals"), and the exit status a shell sees. Keys are sent
only after the screen shows what they are for; every wait is bounded by the harness's timeout.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

from tests.ui.pty_harness import Terminal, run_in_pty, screen_words
from workbench.datasets import generate_cls_demo

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

CONFIG = """\
task: image_classification
data: {{dir: {data}, format: cls}}
model: {{name: small_cnn, width: 4}}
train: {{steps: 100000, batch_size: 8, lr: 0.01, seed: 3, device: cpu}}
eval: {{every: 100000}}
checkpoint: {{every: 100000, keep: 1}}
export: {{enabled: false}}
"""


def _steps_written(workspace: Path) -> int:
    """The highest step any run of the workspace has written to its events so far."""
    best = 0
    for events in (workspace / "runs").glob("*/events.jsonl"):
        for line in events.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                best = max(best, int(json.loads(line).get("step") or 0))
            except (ValueError, AttributeError):
                continue
    return best


@pytest.mark.parametrize(
    ("how", "signum"),
    [("kill", signal.SIGTERM), ("kill", signal.SIGHUP), ("hangup", signal.SIGHUP)],
    ids=["SIGTERM", "SIGHUP", "terminal-hangs-up"],
)
def test_a_signal_stops_the_tuis_run_after_its_step_and_exits_128_plus_n(
    tmp_path: Path, how: str, signum: int
) -> None:
    """``hangup`` closes the terminal as a dropped SSH link does: the kernel sends SIGHUP *and* SIGCONT.
    Textual's SIGCONT handler restarted application mode on the dead terminal and the app's exit then
    blocked for ever (the run was saved, the process stayed); screens/driver.py now ignores a SIGCONT
    that no ctrl+z preceded."""
    generate_cls_demo(tmp_path / "cls", n_train=32, n_val=8, seed=2)
    config = tmp_path / "long.yaml"
    config.write_text(CONFIG.format(data=tmp_path / "cls"))
    workspace = tmp_path / "ws"
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en")
    env.pop("PADDLE_WORKBENCH_INJECT", None)
    phase: list[str] = ["start"]
    typed_at: list[int] = [0]
    sent_at: list[int] = []

    # The field shows the relative path from its first cell: two cells of padding, then the text in
    # its own style. Left-overs of the suggested sample path would come before it in the same span.
    field_shows_path = re.compile(rb"m  \x1b\[0m\x1b\[[0-9;]*mlong\.yaml")

    def on_output(output: bytes, send: Terminal) -> None:
        if phase[0] == "start" and b"Train config" in output:  # the runs screen's footer
            # The dialog key and the path in one write, as a user typing ahead over SSH sends them: the
            # path reaches the dialog's field (screens/typeahead.py) and replaces the sample it offers,
            # which the field selects when it takes focus.
            typed_at[0] = len(output)
            send(b"t" + b"long.yaml")
            phase[0] = "typed"
        elif phase[0] == "typed" and field_shows_path.search(output, typed_at[0]):
            send(b"\r")
            phase[0] = "submitted"
        elif phase[0] == "submitted" and (workspace / "runs").is_dir():
            phase[0] = "training"
        elif phase[0] == "training" and _steps_written(workspace) >= 3 and re.search(rb"Paddle \d", output):
            # Steps are being written and the header says Paddle has loaded: glog's SIGTERM handler
            # is in, and the app's has been put back over it.
            sent_at.append(_steps_written(workspace))
            if how == "hangup":
                send.hangup()
            else:
                os.kill(pid[0], signum)
            phase[0] = "signalled"

    pid: list[int] = []
    code, output = run_in_pty(
        [sys.executable, "-m", "workbench", "--workspace", str(workspace)],
        env=env,
        cwd=str(tmp_path),
        size=(240, 40),  # the header keeps the Paddle version beside the long tmp workspace path
        timeout=240,
        on_output=on_output,
        on_start=pid.append,
    )
    assert phase[0] == "signalled", f"stuck at {phase[0]}: {screen_words(output)}"
    assert code == 128 + signum
    (run_dir,) = (workspace / "runs").iterdir()
    state = json.loads((run_dir / "state.json").read_text())
    assert state["status"] == "cancelled"
    assert _steps_written(workspace) >= sent_at[0]  # it went on to finish the step it was in
    assert list(run_dir.glob("checkpoints/*")), "no checkpoint written at the stop"
