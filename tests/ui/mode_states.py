"""One scripted, deterministic state per mode, shared by the mode snapshots and the contrast walker.

:func:`scripted_workspace` writes fixed workspace contents (a finished run from ``tests/stored_runs.py``,
a failed ``verify`` report and a passed environment check, so the path dashboard shows done, failed and
not-run steps); :func:`scripted_app` starts the app on it with fake environment probes and precomputed
plan facts (no Paddle, no child process); :func:`show_mode` switches to a mode and waits until its
state is drawn. Nothing shown depends on the clock, the temporary folder or a random id: the times are
fixed stamps shown in UTC (the caller sets ``TZ``, see :func:`utc`), paths are relative to the workspace.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList

from tests.stored_runs import STARTED, write_stored_run
from tests.ui.scripted import ScriptedJob
from tests.ui.test_compare_screen import RESULT
from tests.ui.test_plan_screen import mlp_facts
from tests.ui.waiting import wait_for
from workbench.envcheck import (
    CheckReport,
    Facts,
    GpuSample,
    Probe,
    ProbeContext,
    Rule,
    SystemSnapshot,
    Verdict,
    run_checks,
)
from workbench.screens import env as env_screen
from workbench.screens.app import WorkbenchApp
from workbench.screens.compare import CompareScreen
from workbench.screens.env import EnvChecks, EnvScreen
from workbench.screens.plan import PlanScreen
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.wizard import WizardScreen

MODES = ("runs", "env", "plan", "monitor", "compare", "wizard")
SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
WIZARD_FLOW = "which_path"
WIZARD_ANSWERS = ("vision", "none", "server")
"""The wizard's state: this problem walked with these answers to its finding (questions only: no
probe runs, so nothing of this machine is shown)."""


class FixedMonitor:
    """A system monitor with one GPU and fixed figures, so the system panel draws the same every time."""

    def sample(self) -> SystemSnapshot:
        gpu = GpuSample(0, "FakeGPU-80G", 1024, 81920, 42)
        return SystemSnapshot(12.0, 2, 2 * 2**30, 8 * 2**30, (gpu,))


def _says(status: str, says: str, fix: str = "") -> Probe:
    def run(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        return {"status": status, "says": says, "fix": fix}

    return Probe(f"probe-{status}", run, timeout_s=30.0)


def _rule(rule_id: str, probe: str) -> Rule:
    def evaluate(facts: Facts) -> Verdict:
        data = facts.data(probe)
        return Verdict(data["status"], data["says"], fix=data["fix"])

    return Rule(rule_id, (probe,), evaluate)


def scripted_checks() -> EnvChecks:
    """Three checks, one per verdict (pass, warn, fail), each with a fixed finding and fix."""
    probes = [
        _says("pass", "paddle 3.3.1 imports and runs a matmul"),
        _says("warn", "OMP_NUM_THREADS is not set", "export OMP_NUM_THREADS=2"),
        _says("fail", "no NCCL library found", "install the NCCL package matching CUDA 12.6"),
    ]
    rules = [
        _rule("paddle.import", "probe-pass"),
        _rule("cpu.threads", "probe-warn"),
        _rule("dist.nccl", "probe-fail"),
    ]
    return EnvChecks(probes=probes, rules=rules, monitor=FixedMonitor(), refresh_s=None, timeout_s=20.0)  # type: ignore[arg-type]


def scripted_workspace(root: Path) -> Path:
    """Fixed contents in ``root/ws``: the stored finished run, a passed environment check and a failed
    ``verify`` report (fixed times), and the sample plan with its training config. Returns the workspace."""
    workspace = root / "ws"
    write_stored_run(workspace)
    reports = workspace / "reports"
    reports.mkdir(exist_ok=True)
    verify = {
        "ok": False,
        "time": STARTED + 600.0,
        "counts": {"pass": 9, "fail": 1, "not_run": 4},
        "items": [{"id": "checkpoint.integrity", "status": "fail"}],
    }
    (reports / "verify-20251130-222405.json").write_text(json.dumps(verify), encoding="utf-8")
    check = {
        "started": STARTED + 300.0,
        "checks": [
            {"id": "paddle_import", "status": "pass", "summary": "paddle 3.3.1"},
            {"id": "tensor_op", "status": "pass", "summary": "a 2x2 matmul matches numpy"},
        ],
    }
    (reports / "check-20251130-221905.json").write_text(json.dumps(check), encoding="utf-8")
    return workspace


@contextmanager
def utc() -> Iterator[None]:
    """Show the stored times in UTC whatever the machine's zone; the zone is restored afterwards."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def scripted_app(theme: str, **kwargs: Any) -> WorkbenchApp:
    """The app on ``./ws`` (run from the folder that holds it: relative paths, stable header text)."""
    return WorkbenchApp("ws", theme_name=theme, preload_paddle=False, env_checks=scripted_checks(), **kwargs)


def script_the_screens(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Paddle and no clock on screen: the plan screen checks against precomputed facts (no child),
    and the environment checks report a fixed duration (the status line says how long they took)."""
    monkeypatch.setattr(PlanScreen, "_build_facts", lambda self, train: mlp_facts())

    def fixed_duration(**kwargs: Any) -> CheckReport:
        return dataclasses.replace(run_checks(**kwargs), duration_s=0.5)

    monkeypatch.setattr(env_screen, "run_checks", fixed_duration)


def _offers(options: OptionList, option_id: str) -> bool:
    """The option list is shown and holds ``option_id`` (raises while it does not yet)."""
    return bool(options.display) and options.get_option_index(option_id) >= 0


async def _pick(pilot: Pilot[Any], options: OptionList, option_id: str) -> None:
    options.focus()
    options.highlighted = options.get_option_index(option_id)
    await pilot.press("enter")


async def show_mode(pilot: Pilot[Any], mode: str, run_dir: Path) -> None:
    """Switch to ``mode`` and wait until its scripted state is drawn.

    ``run_dir`` is where the monitor's scripted run lives (its folder is never shown).
    """
    app = pilot.app
    assert isinstance(app, WorkbenchApp)
    if mode == "monitor":
        app.open_in_monitor(ScriptedJob(run_dir))
        await wait_for(pilot, lambda: app.screen.query_one("#monitor-failure").display)
        await pilot.pause(0.6)  # one monitor tick, so every pane has drawn the run
        return
    if app.current_mode != mode:
        app.switch_mode(mode)
    await wait_for(pilot, lambda: app.current_mode == mode and app.screen.is_mounted)
    screen = app.screen
    if mode == "runs":
        await wait_for(pilot, lambda: "next:" in str(screen.query_one("#path").render()))
        await wait_for(pilot, lambda: screen.query_one("#runs-table", DataTable).row_count == 1)
    elif mode == "env":
        assert isinstance(screen, EnvScreen)
        table = screen.query_one(DataTable)
        await wait_for(pilot, lambda: not screen._check_running and table.row_count == 3)
        await wait_for(pilot, lambda: "FakeGPU" in str(screen.query_one("#env-system").render()))
    elif mode == "plan":
        assert isinstance(screen, PlanScreen)
        await wait_for(pilot, lambda: not screen.pending and screen.report is not None)
    elif mode == "compare":
        assert isinstance(screen, CompareScreen)
        screen.show_result(RESULT)
        paths = len(RESULT["paths"])  # and the reference row, where the screen lists it
        await wait_for(pilot, lambda: screen.query_one("#paths", DataTable).row_count >= paths)
    elif mode == "wizard":
        assert isinstance(screen, WizardScreen)
        await _pick(pilot, screen.query_one("#wizard-problems", OptionList), WIZARD_FLOW)
        for answer in WIZARD_ANSWERS:
            choices = screen.query_one("#wizard-choices", OptionList)
            await wait_for(pilot, partial(_offers, choices, answer))
            await _pick(pilot, choices, answer)
        await wait_for(pilot, lambda: screen.walk is not None and screen.walk.done and not screen.busy)
    # The footer shows its keys in the frame after the screen's first: wait for them before the picture.
    await wait_for(pilot, lambda: bool(screen.query_one(KeyFooter).query("FooterKey")))
    await pilot.pause(0.1)
    await pilot.wait_for_scheduled_animations()
