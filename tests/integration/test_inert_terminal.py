"""Outside text never acts on a real terminal: the TUI on a pseudo-terminal showing a kit log full of
escape sequences, and ``plan validate`` echoing a layer name that holds them (the model built by Paddle).

The pty test reads the very bytes a user's terminal receives. The app itself writes no OSC 0/2 (window
title), 52 (clipboard) or 8 (link) — so any of them in the stream came from the log.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from tests.hostile_text import BIDI, CLEAR, OSC0, OSC2, OSC8, OSC52, assert_inert
from tests.ui.pty_harness import Terminal, run_in_pty

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs"
VISIBLE_OSC2 = "␛]2;title-two␛\\".encode()


def test_a_kit_log_with_osc_sequences_reaches_the_tui_inert(tmp_path: Path) -> None:
    lines = (FIXTURES / "paddleclas_train.log").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "kit" / "train.log"
    log.parent.mkdir()
    hostile = [f"a {OSC2} b", f"c {OSC0} d", f"e {OSC52} f", f"g {OSC8} h", f"i {CLEAR}\x9b2J{BIDI} j"]
    log.write_text("\n".join([*lines, *hostile, "end of log"]) + "\n", encoding="utf-8")
    env = dict(os.environ, TERM="xterm-256color", PADDLE_WORKBENCH_LANG="en")
    argv = [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "attach", str(log)]
    quit_sent = False

    def quit_once_shown(output: bytes, terminal: Terminal) -> None:
        nonlocal quit_sent
        if not quit_sent and b"end of log" in output:  # the log pane has drawn the log's last line
            quit_sent = True
            terminal(b"q")

    code, output = run_in_pty(
        argv, env=env, cwd=str(tmp_path), size=(140, 60), timeout=90, on_output=quit_once_shown
    )
    assert quit_sent and code == 0, output[-2000:]
    for sequence in (b"\x1b]2;", b"\x1b]0;", b"\x1b]52;", b"\x1b]8;;https://evil", b"\x1b]8;;https"):
        assert sequence not in output, sequence
    text = output.decode("utf-8", "replace")
    assert "title-two\x1b" not in text and "\x9b" not in text and "\x9d" not in text and "\u202e" not in text
    assert VISIBLE_OSC2 in output and "␛]52;c;" in text and "\\x9b2J" in text  # shown, not swallowed


@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed")
def test_plan_validate_echoes_a_hostile_layer_name_inert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.parallel_helpers import write_plan, write_train
    from workbench.cli.root import build_cli

    write_train(tmp_path)
    layer = "fc3\\e]2;pwned\\a\\e]52;c;ZXZpbA==\\e\\\\\\e]8;;https://evil/\\e\\\\x\\e[2J\\x9b31m\\x9d0;t\\x9c\\u202e"
    plan = write_plan(
        tmp_path,
        "hostile",
        f'mesh: {{shape: [2], dim_names: [mp]}}\nlayers:\n  - {{match: "{layer}", plan: ColWiseParallel}}\n',
    )
    try:
        code = build_cli().main(
            args=["--workspace", str(tmp_path / "ws"), "plan", "validate", str(plan), "--nproc", "2"],
            prog_name="paddle-workbench",
            standalone_mode=False,
        )
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert "fc3␛]2;pwned" in out + err and "matches no layer" in out + err
    assert_inert(out + err)
