"""A command line of global options starts the TUI without click (``workbench.cli.quick_start``), with
the settings click would have passed on; every other command line is left to click untouched."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.pty_harness import run_in_pty
from workbench.cli import quick_start
from workbench.cli.quick_start import global_options, start_tui_quickly
from workbench.settings_sources import CONFIG_ENV


class _Given(Exception):
    def __init__(self, given: dict[str, Any]) -> None:
        super().__init__()
        self.given = given


def _what_click_passes_on(args: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The flags the root command hands to ``resolve_settings`` for ``args`` (read through click)."""
    import workbench.settings
    from workbench.cli.root import build_cli

    def capture(flags: dict[str, Any], **_: Any) -> Any:
        raise _Given(dict(flags))

    monkeypatch.setattr(workbench.settings, "resolve_settings", capture)
    with pytest.raises(_Given) as caught:
        build_cli().main(args=args, prog_name="paddle-workbench", standalone_mode=False)
    return caught.value.given


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["tui"],
        ["--workspace", "runs here"],
        ["--workspace=~/ws", "--lang", "zh", "tui"],
        ["--plain", "--low-bandwidth", "--theme=light", "--lang=en"],
        ["--theme", "no-such-theme"],  # checked later, on the settings, as the root command does
    ],
)
def test_global_options_are_read_as_the_root_command_reads_them(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert global_options(args) == _what_click_passes_on(args, monkeypatch)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["--version"],
        ["runs"],
        ["tui", "--demo"],
        ["tui", "--plan", "plan.yaml"],
        ["--workspace"],
        ["--workspace="],
        ["--workspace", "--plain"],
        ["--lang", "fr"],
        ["--plain", "--plain"],
        ["--plain=yes"],
        ["--nope"],
        ["-x"],
        ["tui", "--workspace", "ws"],
    ],
)
def test_every_other_command_line_is_left_to_click(args: list[str]) -> None:
    assert global_options(args) is None


def test_a_workspace_that_is_a_file_is_left_to_click(tmp_path: Path) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("x", encoding="utf-8")
    assert global_options(["--workspace", str(afile)]) is None  # click's "is a file" error


def test_bad_settings_and_line_mode_are_left_to_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown theme, a broken config file or line mode: nothing started, click reports or prints."""

    def never(*_: Any, **__: Any) -> int:
        raise AssertionError("the TUI was started")

    monkeypatch.setattr(quick_start, "open_tui", never)
    for key in [key for key in os.environ if key.startswith("PADDLE_WORKBENCH_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "none.yaml"))
    workspace = ["--workspace", str(tmp_path / "ws")]
    assert start_tui_quickly([*workspace, "--theme", "nope"]) is None
    assert start_tui_quickly([*workspace, "--plain"]) is None
    monkeypatch.setenv("PADDLE_WORKBENCH_THEME", "nope")
    assert start_tui_quickly(workspace) is None
    monkeypatch.delenv("PADDLE_WORKBENCH_THEME")
    broken = tmp_path / "config.yaml"
    broken.write_text("theme: [\n", encoding="utf-8")
    monkeypatch.setenv(CONFIG_ENV, str(broken))
    assert start_tui_quickly(workspace) is None


def test_a_workspace_through_a_file_is_exit_2_with_the_fix_on_a_terminal(tmp_path: Path) -> None:
    afile = tmp_path / "a-file"
    afile.write_text("x", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PADDLE_WORKBENCH_")}
    env.update({"TERM": "xterm-256color", "PADDLE_WORKBENCH_LANG": "en", CONFIG_ENV: str(tmp_path / "none")})
    argv = [sys.executable, "-m", "workbench", "--workspace", str(afile / "ws")]
    code, output = run_in_pty(argv, env=env, timeout=60)
    text = output.decode("utf-8", errors="replace")
    assert code == 2 and "Traceback" not in text
    assert "cannot use the workspace" in text and "--workspace DIR" in text
