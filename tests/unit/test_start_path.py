"""The TUI's start path, up to its first frame, loads neither pydantic nor Paddle (docs/architecture.md,
"Budgets": the first frame within 1.3× a bare Textual app's), nor the run store, the runner or psutil.

Settings, themes and the run store validate with pydantic only when something needs checking (a user
config file, a variable to convert) or after the first frame; one fresh interpreter walks the path the
CLI takes to ``WorkbenchApp`` and reports what it loaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from workbench.settings import WorkbenchSettings, resolve_settings, settings_model
from workbench.settings_sources import CONFIG_ENV

START_PATH = """
import sys
from workbench.cli.root import build_cli
from workbench.settings import resolve_settings
settings = resolve_settings({"workspace": sys.argv[1]})
from workbench.cli.tui import check_theme, tui_command
check_theme(settings.theme)
tui_command()
from workbench.screens.app import WorkbenchApp
from workbench.screens.launch import run_tui
import workbench.screens.runs  # the home screen
app = WorkbenchApp(settings=settings)
assert app.theme == "workbench-dark", app.theme
heavy = ("pydantic", "paddle", "numpy")
# the run store, the runner and psutil: read and started after the frame (the first list, the first run)
# and PyYAML: the bundled themes are read without it (no user config file here)
heavy += ("psutil", "workbench.runner", "workbench.runs", "workbench.events", "yaml")
print(",".join(name for name in heavy if name in sys.modules))
"""


def test_the_tui_start_path_loads_neither_pydantic_nor_paddle(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PADDLE_WORKBENCH_")}
    env.pop("NO_COLOR", None)
    env.update({CONFIG_ENV: str(tmp_path / "no-config.yaml"), "PADDLE_WORKBENCH_LANG": "en"})
    result = subprocess.run(
        [sys.executable, "-c", START_PATH, str(tmp_path / "ws")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


def test_settings_built_without_pydantic_equal_the_validated_ones(tmp_path: Path) -> None:
    environ = {CONFIG_ENV: str(tmp_path / "no-config.yaml"), "PADDLE_WORKBENCH_LANG": "zh_CN.UTF-8"}
    flags = {"workspace": "~/runs", "theme": "light", "low_bandwidth": True, "plain": None}
    quick = resolve_settings(flags, environ=environ)
    model = settings_model().model_validate(
        {"workspace": "~/runs", "theme": "light", "low_bandwidth": True, "lang": "zh"}
    )
    assert quick == WorkbenchSettings(**model.model_dump())
    assert quick.workspace == Path("~/runs").expanduser() and quick.lang == "zh"
    # a value to convert goes through validation, with the same result as before
    assert resolve_settings(environ={**environ, "PADDLE_WORKBENCH_PLAIN": "yes"}).plain is True


FIRST_FRAME = """
import json, runpy, sys
from textual.dom import DOMNode
from textual.drivers.linux_driver import LinuxDriver

report, workspace = sys.argv[1], sys.argv[2]
workers = []
seen = []
run_worker = DOMNode.run_worker
write = LinuxDriver.write


def recording_run_worker(self, *args, **kwargs):
    workers.append(kwargs.get("description") or kwargs.get("group") or "?")
    return run_worker(self, *args, **kwargs)


def first_frame(self, data):
    if not seen and "Paddle Workbench" in data:
        seen.append({"workers": list(workers), "keys": "Quit" in data})
        heavy = ("pydantic", "paddle", "yaml", "workbench.verify", "workbench.runner")
        heavy += ("click",)  # global options only: workbench.cli.quick_start reads them
        heavy += ("workbench.screens.dialogs",)  # loaded when a dialog is first shown
        seen[0]["loaded"] = [name for name in heavy if name in sys.modules]
    elif len(seen) == 1 and "Quit" in data:  # the footer's keys: the home screen whole
        seen.append({"workers": list(workers)})
        with open(report, "w") as out:
            json.dump(seen, out)
    return write(self, data)


DOMNode.run_worker = recording_run_worker
LinuxDriver.write = first_frame
sys.argv = ["workbench", "--workspace", workspace]
runpy.run_module("workbench", run_name="__main__", alter_sys=True)
"""


def test_the_first_frame_waits_for_no_worker(tmp_path: Path) -> None:
    """Nothing competes with the home screen's first frame (docs/architecture.md, "Budgets"): the run
    list, the path dashboard, the theme check, the mode screens' code and Paddle are read in workers that
    start after the frame is on the terminal, so it holds neither their threads nor what they import
    (the checklist's pydantic models). A command line of global options starts the TUI without click.
    The footer's keys come in a later frame, and the workers that import code (all but the run list's)
    start only once they are drawn."""
    import json

    from tests.ui.pty_harness import run_in_pty

    report = tmp_path / "first-frame.json"
    env = {key: value for key, value in os.environ.items() if not key.startswith("PADDLE_WORKBENCH_")}
    env.update({"TERM": "xterm-256color", "PADDLE_WORKBENCH_LANG": "en", CONFIG_ENV: str(tmp_path / "none")})
    argv = [sys.executable, "-c", FIRST_FRAME, str(report), str(tmp_path / "ws")]

    def on_output(output: bytes, send) -> None:  # type: ignore[no-untyped-def]
        if report.exists():
            send(b"q")

    code, _ = run_in_pty(argv, env=env, timeout=60, on_output=on_output)
    assert code == 0
    first, whole = json.loads(report.read_text(encoding="utf-8"))
    assert first == {"workers": [], "keys": False, "loaded": []}, first
    assert set(whole["workers"]) <= {"worker.runs_list"}, whole
