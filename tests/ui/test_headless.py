"""On a real terminal, `--plain` and `TERM=dumb` still mean line output, never the full-screen UI."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.ui.pty_harness import run_in_pty


@pytest.mark.parametrize(("args", "term"), [(["--plain"], "xterm-256color"), ([], "dumb")])
def test_line_mode_on_a_terminal(tmp_path: Path, args: list[str], term: str) -> None:
    env = dict(os.environ, TERM=term, PADDLE_WORKBENCH_LANG="en")
    argv = [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), *args]
    code, output = run_in_pty(argv, env=env, timeout=60)
    assert code == 0
    assert b"\x1b[?1049h" not in output  # no alternate screen: Textual never started
    assert b"line mode" in output and b"no runs yet" in output


@pytest.mark.parametrize(("lang", "title"), [("en", "Paddle Workbench"), ("zh", "Paddle 工作台")])
def test_the_first_frame_already_carries_the_title(tmp_path: Path, lang: str, title: str) -> None:
    """The header's title is set before the app starts: its first frame never shows Textual's default
    (the class name), which a slow terminal showed until the next frame."""
    env = dict(os.environ, TERM="xterm-256color", PADDLE_WORKBENCH_LANG=lang)
    argv = [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws")]
    wanted = title.encode()

    def on_output(output: bytes, send) -> None:  # type: ignore[no-untyped-def]
        if wanted in output:
            send(b"q")

    code, output = run_in_pty(argv, env=env, timeout=60, on_output=on_output)
    assert code == 0 and wanted in output
    assert b"WorkbenchApp" not in output
