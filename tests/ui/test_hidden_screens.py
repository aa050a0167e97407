"""A screen another mode covers costs nothing: its timers stop and its child processes end.

Textual sends a screen no ``Hide`` when the app switches modes (``Hide`` is for widgets its own layout
drops); ``ScreenSuspend``/``ScreenResume`` are the signals. Before the screens listened to them, the run
list kept re-reading the workspace every 2 s under a live monitor, and a monitor left for the run list
kept redrawing its charts — UI-thread work under the GIL the training thread shares.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any

import pytest
from textual.widgets import TextArea

from tests.ui.waiting import wait_for
from workbench.isolate import Child
from workbench.screens.monitor import MonitorScreen
from workbench.screens.plan import PlanScreen
from workbench.screens.runs import RunsScreen


def _count_calls(monkeypatch: pytest.MonkeyPatch, cls: type, name: str) -> list[int]:
    calls = [0]
    original = getattr(cls, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


async def test_the_run_list_stops_refreshing_under_another_mode_and_catches_up_on_return(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("workbench.screens.runs.REFRESH_S", 0.05)
    refreshes = _count_calls(monkeypatch, RunsScreen, "refresh_runs")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: refreshes[0] >= 3)  # the list's own timer runs while shown
        app.switch_mode("monitor")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        await pilot.pause(0.1)
        hidden_from = refreshes[0]
        await pilot.pause(0.5)  # ten periods of the list's timer
        assert refreshes[0] == hidden_from
        app.switch_mode("runs")
        await wait_for(pilot, lambda: refreshes[0] > hidden_from)  # re-read at once on return


async def test_a_monitor_left_for_another_mode_stops_ticking(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    ticks = _count_calls(monkeypatch, MonitorScreen, "tick")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("monitor")
        await wait_for(pilot, lambda: ticks[0] >= 2)
        app.switch_mode("runs")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))
        await pilot.pause(0.1)
        hidden_from = ticks[0]
        await pilot.pause(1.2)  # two periods of the monitor's 0.5 s tick
        assert ticks[0] == hidden_from
        app.switch_mode("monitor")
        await wait_for(pilot, lambda: ticks[0] > hidden_from)


async def test_leaving_the_plan_mode_ends_its_model_build(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("plan")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen))
        screen = app.screen
        assert isinstance(screen, PlanScreen)
        builder = Child([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            screen._build_ended, screen._build_child = threading.Event(), builder  # a build in flight
            app.switch_mode("runs")
            await wait_for(pilot, lambda: builder.proc.poll() is not None)
        finally:
            builder.kill()
            builder.proc.wait()


def _count_model_builds(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[str]]:
    """Every model-facts build the plan screen starts from now on (each is a child that imports Paddle)."""
    builds: list[subprocess.Popen[str]] = []
    real_popen = subprocess.Popen

    def counted(*args: Any, **kwargs: Any) -> subprocess.Popen[str]:
        proc: subprocess.Popen[str] = real_popen(*args, **kwargs)
        if "workbench.parallel.facts" in list(args[0] if args else kwargs["args"]):
            builds.append(proc)
        return proc

    monkeypatch.setattr("workbench.isolate.subprocess.Popen", counted)
    return builds


async def test_opening_the_plan_mode_builds_the_model_once(make_app, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The file loading into the editor, the first check and the screen's resume each asked for a check;
    three model builds (each imports Paddle) ran side by side before."""
    builds = _count_model_builds(monkeypatch)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("plan")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.report is not None)
        await pilot.pause(0.5)
        assert len(builds) == 1
        assert all(proc.poll() is not None for proc in builds)


async def test_a_late_change_message_for_the_loaded_text_starts_no_second_build(  # type: ignore[no-untyped-def]
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load the editor's ``Changed`` for the file it loaded can arrive after the first check began;
    the text is the one being checked, so it must not start a check that kills the build in flight."""
    builds = _count_model_builds(monkeypatch)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("plan")
        await wait_for(pilot, lambda: len(builds) == 1)
        screen = app.screen
        assert isinstance(screen, PlanScreen)
        area = screen.query_one("#plan-yaml", TextArea)
        area.post_message(TextArea.Changed(area))  # the loaded text's change, handled late
        await wait_for(pilot, lambda: screen.report is not None)
        await pilot.pause(0.5)
        assert len(builds) == 1
        assert builds[0].returncode == 0
