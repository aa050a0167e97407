"""Pilot tests of the app shell: modes, help, palette, a failing job, the too-small notice."""

from __future__ import annotations

import asyncio
import json

from textual.command import CommandList
from textual.widgets import DataTable, Static

from tests.ui.waiting import wait_for as _wait_for
from workbench.events import RunFailed
from workbench.i18n import set_language
from workbench.screens.dialogs import ErrorScreen, HelpScreen, TooSmallScreen
from workbench.screens.env import EnvChecks
from workbench.screens.modes import ordered_modes
from workbench.screens.monitor import MonitorScreen
from workbench.screens.runs import RunsScreen


async def test_starts_on_runs_and_switches_every_mode(make_app) -> None:  # type: ignore[no-untyped-def]
    """Each mode's screen is built on its first visit and reused on every later one (a switch never
    waits for a screen to be composed again). The Environment mode lists its checks without running
    them (their Paddle processes are tested where the checks are the subject)."""
    app = make_app(env_checks=EnvChecks(autostart=False))
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, RunsScreen)
        assert "ws" in app.sub_title
        built: dict[str, object] = {}
        for _turn in range(2):
            for index, (mode, _spec) in enumerate(ordered_modes(), start=1):
                await pilot.press(str(index))
                await _wait_for(pilot, lambda mode=mode: app.current_mode == mode and app.screen.is_mounted)
                assert built.setdefault(mode, app.screen) is app.screen, mode
        await pilot.press("1")
        await _wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))


async def test_failing_job_is_an_event_and_the_app_stays_up(make_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Also: the run's folder is made (its files fsynced) on a worker thread, never on the UI thread."""
    import os
    import threading

    on_ui_thread: list[bool] = []
    fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        on_ui_thread.append(threading.current_thread() is threading.main_thread())
        fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f")  # demo job that raises at step 40
        await _wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        job = app.monitor_target
        await _wait_for(pilot, lambda: job.done)
        await _wait_for(pilot, lambda: app.screen.query_one("#monitor-failure").display)  # on a monitor tick
        assert isinstance(job.result, RunFailed)
        failure = app.screen.query_one("#monitor-failure-text", Static)
        assert app.screen.query_one("#monitor-failure").display
        assert "DemoFailure" in str(failure.render()) and "Traceback" in str(failure.render())
        # events.jsonl holds every sample up to the failure, then the failure.
        rows = [json.loads(x) for x in (job.run_dir / "events.jsonl").read_text().splitlines()]
        assert [r["step"] for r in rows if r["type"] == "metrics"] == list(range(1, 40))
        assert rows[-1]["type"] == "run_failed"
        # The app is still alive and usable: back to the list, which shows the failed run.
        await pilot.press("escape")
        await _wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))
        table = app.screen.query_one(DataTable)
        # (the list already showed it running: RunsChanged re-read it when it started)
        await _wait_for(pilot, lambda: table.row_count == 1 and "failed" in str(table.get_row_at(0)[1]))
    assert on_ui_thread and not any(on_ui_thread), on_ui_thread


async def test_open_a_past_run_from_the_list(make_app, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from workbench.demo import start_demo_job
    from workbench.runs import RunStore

    job = start_demo_job(RunStore(tmp_path / "ws"), steps=30, step_s=0)
    assert job.wait(30)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(DataTable)
        await _wait_for(pilot, lambda: table.row_count == 1)
        await pilot.press("enter")
        await _wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        await _wait_for(pilot, lambda: app.monitor_target is not None and app.monitor_target.done)
        assert app.monitor_target.metrics.last_step == {0: 30}
        assert job.run_id in app.sub_title


async def test_help_and_palette(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"demo run")
        palette = app.screen.query_one(CommandList)
        await _wait_for(
            pilot,
            lambda: any(
                "Start a demo run" in str(palette.get_option_at_index(i).prompt)
                for i in range(palette.option_count)
            ),
        )
        await pilot.press("escape")


async def test_terminal_too_small_notice(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await _wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))


async def test_worker_error_becomes_an_error_panel(make_app) -> None:  # type: ignore[no-untyped-def]
    from textual import work

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:

        @work(thread=True, exit_on_error=False)
        def broken(self) -> None:  # type: ignore[no-untyped-def]
            raise RuntimeError("probe crashed")

        broken(app.screen)
        await _wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen))
        await pilot.press("escape")
        await _wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))


async def test_chinese_shell(make_app) -> None:  # type: ignore[no-untyped-def]
    set_language("zh")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "工作区" in app.sub_title
        await pilot.press("question_mark")
        await pilot.pause()
        assert "按键" in str(app.screen.query_one(".modal-title", Static).render())


async def test_quit_while_a_run_trains_asks_first_and_stops_it(make_app) -> None:  # type: ignore[no-untyped-def]
    from functools import partial

    from workbench.demo import start_demo_job
    from workbench.screens.dialogs import QuitScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(partial(start_demo_job, steps=100_000, step_s=0.01), open_monitor=False)
        await pilot.press("q")
        await _wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        assert app.is_running and not app.screen.can_detach  # an in-process run cannot outlive the app
        await pilot.press("d")  # not offered: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen) and not job.done
        await pilot.press("n")
        await pilot.pause()
        assert not job.done and app.is_running
        await pilot.press("q", "y")
        await _wait_for(pilot, lambda: job.done)
        assert job.status == "cancelled"


async def test_child_processes_started_under_the_app_get_a_real_stderr(make_app, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Textual's print capture says fileno() == -1; a process pool started from a worker (the dataset
    linter's image decoder, run before training from the `t` dialog) then failed with "bad value(s) in
    fds_to_keep". Under the workbench the capture hands over the real descriptors."""
    import sys

    from PIL import Image

    from workbench.datasets import imagecheck

    paths = []
    for i in range(4):
        path = tmp_path / f"img{i}.png"
        Image.new("RGB", (4, 4), (i, i, i)).save(path)
        paths.append(str(path))

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        assert sys.stderr.fileno() == 2 and sys.stdout.fileno() == 1
        original = imagecheck.POOL_THRESHOLD
        imagecheck.POOL_THRESHOLD = 1  # the pool path, as with a dataset of thousands of images
        try:
            results = await asyncio.to_thread(imagecheck.check_all, paths, workers=2)
        finally:
            imagecheck.POOL_THRESHOLD = original
        await pilot.pause()
    assert len(results) == 4


async def test_sigterm_or_sighup_stops_the_runs_after_their_step_then_quits(make_app) -> None:  # type: ignore[no-untyped-def]
    """What `run_tui` routes SIGTERM/SIGHUP to: before, both killed the TUI mid-step and its runs were
    left "running" with everything since the last checkpoint lost (checked by hand in tmux: SIGHUP
    exited 129 with state.json "running"; now "cancelled" at the step it reached, report kept)."""
    import signal as signals
    from functools import partial

    from workbench.demo import start_demo_job

    app = make_app()
    hung_up: list[bool] = []
    app.on_hangup = lambda: hung_up.append(True)
    async with app.run_test(size=(120, 40)) as pilot:
        app.start_job(partial(start_demo_job, steps=100_000, step_s=0.01))
        await _wait_for(pilot, lambda: any(job.metrics.last_step or 0 for job in app.live_jobs.values()))
        (job,) = app.live_jobs.values()
        app.stop_for_signal(signals.SIGHUP)
        await _wait_for(pilot, lambda: job.done)
        await _wait_for(pilot, lambda: not app.is_running)
    assert hung_up == [True] and app.stop_signal == signals.SIGHUP
    state = json.loads((job.run_dir / "state.json").read_text())
    assert state["status"] == "cancelled"
    assert app.stop_reports and job.run_id in app.stop_reports[0]
