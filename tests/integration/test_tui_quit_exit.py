"""``q`` then ``y`` in the real TUI while a Paddle run trains in it: the run ends whole, the stop report
is printed, and the process exits without first walking its whole heap.

What held the shell prompt back after the report was interpreter shutdown itself: its full garbage
collections examine every tracked object, and with Paddle loaded and a run's history in memory that is
hundreds of thousands of them (seconds of one core; tens of seconds on a loaded machine). The TUI is
started through a probe that registers an ``atexit`` hook first, so the hook runs after every other one,
just before those collections: it records how many objects they would still examine and how many the
TUI moved out of their reach (``gc.freeze``) once the runs had ended.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests.integration.test_tui_signals import CONFIG, _steps_written
from tests.ui.pty_harness import Terminal, run_in_pty, screen_words
from workbench.datasets import generate_cls_demo

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]


PROBE = """\
import atexit, gc, json, runpy, sys


def record():
    with open({path!r}, "w") as out:
        json.dump({{"examined": len(gc.get_objects()), "frozen": gc.get_freeze_count()}}, out)


atexit.register(record)  # first registered, so it runs last, right before shutdown's collections
runpy.run_module("workbench", run_name="__main__", alter_sys=True)
"""
"""``python -m workbench`` with the exit-time probe in front of it."""


def test_quit_and_stop_ends_the_run_whole_then_exits_without_walking_the_heap(tmp_path: Path) -> None:
    """``t`` (a config), enter, ``q``, ``y``: the run is ``cancelled`` with a checkpoint, the report names
    it, the exit code is 0, and the exit-time collections have next to nothing left to examine."""
    generate_cls_demo(tmp_path / "cls", n_train=32, n_val=8, seed=2)
    (tmp_path / "long.yaml").write_text(CONFIG.format(data=tmp_path / "cls"))
    workspace = tmp_path / "ws"
    probe = tmp_path / "exit-probe.json"
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en")
    env.pop("PADDLE_WORKBENCH_INJECT", None)
    phase = ["start"]
    marks = [0]
    field_shows_path = re.compile(rb"m  \x1b\[0m\x1b\[[0-9;]*mlong\.yaml")  # the dialog's field, typed

    def on_output(output: bytes, send: Terminal) -> None:
        if phase[0] == "start" and b"Train config" in output:  # the runs screen's footer
            marks[0] = len(output)
            send(b"t" + b"long.yaml")
            phase[0] = "typed"
        elif phase[0] == "typed" and field_shows_path.search(output, marks[0]):
            send(b"\r")
            phase[0] = "training"
        elif phase[0] == "training" and _steps_written(workspace) >= 3 and re.search(rb"Paddle \d", output):
            marks[0] = len(output)
            send(b"q")
            phase[0] = "asked"
        elif phase[0] == "asked" and b"Quit while training" in output[marks[0] :]:
            send(b"y")
            phase[0] = "stopping"

    code, output = run_in_pty(
        [sys.executable, "-c", PROBE.format(path=str(probe)), "--workspace", str(workspace)],
        env=env,
        cwd=str(tmp_path),
        size=(240, 40),  # the header keeps the Paddle version beside the long tmp workspace path
        timeout=240,
        on_output=on_output,
    )
    assert phase[0] == "stopping", f"stuck at {phase[0]}: {screen_words(output)}"
    assert code == 0, output[-2000:]
    (run_dir,) = (workspace / "runs").iterdir()
    assert json.loads((run_dir / "state.json").read_text())["status"] == "cancelled"
    assert list(run_dir.glob("checkpoints/*")), "no checkpoint written at the stop"
    assert f"Stopped run {run_dir.name} (cancelled)".encode() in output
    left = json.loads(probe.read_text())
    assert left["examined"] * 10 < left["frozen"], (
        f"shutdown's collections would examine {left['examined']} objects ({left['frozen']} frozen)"
    )
