"""Issue 13 on the screens: each test failed before its fix (numbers are the issue's items)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Footer, Input, Static

from tests.ui.scripted import ScriptedJob
from tests.ui.waiting import notified
from tests.ui.waiting import wait_for as _wait_for
from workbench.demo import start_demo_job
from workbench.envcheck import DEFAULT_PROBES, RULES, ProbeContext, run_checks
from workbench.runner import attach
from workbench.runs import RunStore, read_run_brief, summarize
from workbench.screens.dialogs import TrainConfigScreen, complete_path
from workbench.screens.env import EnvChecks, EnvScreen
from workbench.screens.jobs import stop_report
from workbench.screens.monitor import MonitorScreen
from workbench.screens.runs import RunsScreen, detail_text, list_runs
from workbench.screens.widgets.plot import BraillePlot
from workbench.screens.widgets.runs_sidebar import RunsSidebar


def _footer_text(app: Any) -> str:
    footer = app.screen.query_one(Footer)
    return " ".join(str(child.render()) for child in footer.query("FooterKey"))


# -- 13.2: the screen and `check` report the same (the user's) environment ---------------------


async def test_env_screen_and_check_report_the_users_environment(
    make_app, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    # What the app and Paddle do in their own process after start-up (launch.py, import paddle):
    monkeypatch.setenv("GLOG_minloglevel", "2")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    from workbench.startenv import startup_environment

    started_with = startup_environment()
    probes = [p for p in DEFAULT_PROBES if p.name in ("environment", "system")]
    rules = [RULES.get("environment")]
    # The CLI's path: `check` builds ProbeContext(workspace=...) and calls run_checks.
    cli = run_checks(probes=probes, rules=rules, context=ProbeContext(workspace=tmp_path / "ws"))
    cli_vars = cli.facts.data("environment")["variables"]
    app = make_app(env_checks=EnvChecks(probes=probes, rules=rules, refresh_s=5.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2")
        screen = app.screen
        assert isinstance(screen, EnvScreen)
        await _wait_for(pilot, lambda: not screen._check_running and "environment" in screen._findings)
        screen_vars = screen._facts.data("environment")["variables"]
        screen_summary = screen._findings["environment"].summary
    assert screen_vars == cli_vars
    assert screen_summary == cli.findings[0].summary
    for name in ("GLOG_minloglevel", "OMP_NUM_THREADS"):
        assert (name in cli_vars) == (name in started_with)


# -- 13.7: the t dialog offers the packaged samples anywhere; Tab completes; a missing file is a line


async def test_train_dialog_offers_samples_outside_the_repository(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert not (tmp_path / "sample_configs").exists()  # make_app runs in an empty tmp folder
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TrainConfigScreen)
        offered = dialog._suggestions
        assert any(Path(p).name == "train_cls_demo.yaml" for p in offered)
        assert all(Path(p).is_file() for p in offered)
        # Demo data paths stay relative to the config: they land in the workspace, not in the package.
        sample = Path(next(p for p in offered if p.endswith("train_cls_demo.yaml")))
        assert sample.resolve().is_relative_to((tmp_path / "ws").resolve())
        field = dialog.query_one(Input)
        field.value = "nope/missing.yaml"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog  # still open: no error dialog on top
        error = str(dialog.query_one("#train-error", Static).render())
        assert "No such file: nope/missing.yaml" in error and "\n" not in error.strip()


def test_tab_completion_of_paths(tmp_path: Path) -> None:
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train_a.yaml").write_text("x: 1\n")
    (tmp_path / "configs" / "train_b.yaml").write_text("x: 1\n")
    completed, candidates = complete_path(str(tmp_path / "conf"))
    assert completed == str(tmp_path / "configs") + os.sep
    completed, candidates = complete_path(str(tmp_path / "configs" / "tr"))
    assert completed == str(tmp_path / "configs" / "train_")
    assert len(candidates) == 2


async def test_tab_key_completes_in_the_dialog(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "my_configs").mkdir()
    (tmp_path / "my_configs" / "train_mine.yaml").write_text("x: 1\n")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.value = "my_c"
        field.focus()
        await pilot.press("tab")
        await pilot.press("tab")
        await pilot.pause()
        assert field.value == "my_configs/train_mine.yaml"


def test_cli_train_accepts_a_sample_name_anywhere(tmp_path: Path, subprocess_env: dict[str, str]) -> None:
    # Validation only (steps=0 is refused after the sample is found): proves the name resolved.
    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "train", "train_cls_demo",
         "-o", "train.steps=0", "--json"],  # fmt: skip
        cwd=tmp_path, env=subprocess_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "train.steps" in result.stdout + result.stderr
    assert (tmp_path / "ws" / "samples" / "train_cls_demo.yaml").is_file()


# -- 13.8: an overlay does not survive a new run; the legend never cuts the run id --------------


async def test_overlay_is_cleared_when_a_new_run_starts_and_legend_keeps_the_id(
    make_app, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    baseline = start_demo_job(RunStore(tmp_path / "ws"), steps=20, step_s=0)
    assert baseline.wait(30)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(ScriptedJob(tmp_path / "scripted"))
        await _wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(RunsSidebar)
        )
        screen = app.screen
        screen._overlay_chosen(baseline.run_id)
        sidebar = screen.query_one(RunsSidebar)
        await _wait_for(pilot, lambda: baseline.run_id in sidebar.overlays)
        plot = screen.query_one(BraillePlot)

        def legend() -> str:
            return "\n".join(line.plain for line in plot.render_lines_text(plot.size.width, plot.size.height))

        await _wait_for(pilot, lambda: f"● {baseline.run_id}" in legend())  # whole id, first characters too
        app.start_job(partial(start_demo_job, steps=50_000, step_s=0.01))
        await _wait_for(pilot, lambda: screen.job is not None and screen.job.run_id != "scripted-run")
        assert not sidebar.overlays
        assert any("1 overlaid run removed" in str(n.message) for n in notified(app))
        screen.job.cancel()  # type: ignore[union-attr]
        assert screen.job.wait(30)  # type: ignore[union-attr]


# -- 13.9: s / p / c are not offered on a finished run ------------------------------------------


async def test_stop_pause_checkpoint_hidden_once_the_run_ended(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(partial(start_demo_job, steps=100_000, step_s=0.01))
        await _wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is job)
        await _wait_for(pilot, lambda: "Stop run" in _footer_text(app))
        job.cancel()
        assert job.wait(30)
        await _wait_for(pilot, lambda: "Stop run" not in _footer_text(app))
        footer = _footer_text(app)
        assert "Pause" not in footer and "Checkpoint" not in footer
        assert app.screen.check_action("stop", ()) is False


# -- 13.10: one word for a kill -9-ed run; a live run's Last step does not lag ------------------


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_killed_run_is_interrupted_in_the_list_and_the_monitor(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")
    handle = store.create("victim", {"train": {"steps": 100}})
    for step in range(1, 8):
        handle.writer.sample(0, step, {"loss": 1.0 / step}, float(step))
    handle.writer.flush()
    handle.writer.close()
    state = json.loads((handle.run_dir / "state.json").read_text())
    state.update(pid=_dead_pid(), pid_started=None)
    (handle.run_dir / "state.json").write_text(json.dumps(state))
    assert summarize(handle.run_dir).status == "interrupted"
    job = attach(handle.run_dir)
    try:
        assert job.wait(10)
        assert job.status == "interrupted"
    finally:
        job.detach()


def test_live_run_last_step_is_read_from_the_events_tail(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "ws")
    handle = store.create("live", {"train": {"steps": 500}})
    handle.state["last_step"] = 100  # state.json only moves on lifecycle events
    handle.save_state()
    for step in range(101, 176):
        handle.writer.sample(0, step, {"loss": 0.5}, float(step))
    handle.writer.flush()
    try:
        [run] = list_runs(store)
        assert run.status == "running" and run.last_step == 175
        # the detail pane reads the same run through read_run_brief: it agrees with the list
        assert read_run_brief(run.run_dir).summary.last_step == 175
        assert "175" in detail_text(read_run_brief(run.run_dir))
    finally:
        handle.close()


# -- 13.15: quitting while training says what stopped and how to resume; TUI resume -------------


async def test_quit_while_training_reports_the_stop_and_the_resume_command(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(partial(start_demo_job, steps=100_000, step_s=0.01), open_monitor=False)
        await _wait_for(pilot, lambda: job.metrics.last_step.get(0, 0) > 3)
        await pilot.press("q", "y")
        await _wait_for(pilot, lambda: job.done)
        await _wait_for(pilot, lambda: bool(app.stop_reports))
    report = "\n".join(app.stop_reports)
    assert job.run_id in report and "cancelled" in report
    assert f"at step {job.metrics.last_step.get(0)}" in report


def test_stop_report_names_checkpoint_and_resume_command(tmp_path: Path) -> None:
    from workbench.events import CheckpointSaved, RunCancelled
    from workbench.runner import Job
    from workbench.runs import atomic_write_text

    run_dir = tmp_path / "ws" / "runs" / "r1"
    run_dir.mkdir(parents=True)
    atomic_write_text(run_dir / "run.yaml", "environment:\n  config_file: /cfg/train.yaml\nconfig: {}\n")
    job = Job(run_dir, "r1", "r")
    job.metrics.record(0, 42, {"loss": 0.1}, 0.0)
    job._publish(CheckpointSaved(step=40, path=str(run_dir / "checkpoints" / "step-40")))
    job._publish(RunCancelled(step=42))
    lines = stop_report(job)
    text = "\n".join(lines)
    assert "r1" in text and "step 42" in text and "step-40" in text
    assert "paddle-workbench train /cfg/train.yaml --resume r1" in text


async def test_resume_key_on_a_finished_run_says_why_not(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert start_demo_job(RunStore(tmp_path / "ws"), steps=3, step_s=0).wait(30)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await _wait_for(pilot, lambda: screen.query_one(DataTable).row_count == 1)
        await pilot.press("u")
        await _wait_for(pilot, lambda: any("can be resumed" in str(n.message) for n in notified(app)))


# -- minor: run detail, monitor with no run, side panel at 80×24, x axis --------------------------


async def test_run_detail_shows_duration_origin_and_no_metric_dump(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert start_demo_job(RunStore(tmp_path / "ws"), steps=5, step_s=0).wait(30)
    app = make_app()
    async with app.run_test(size=(200, 50)) as pilot:
        screen = app.screen
        await _wait_for(
            pilot, lambda: "duration" in str(screen.query_one("#run-detail-text", Static).render())
        )
        text = str(screen.query_one("#run-detail-text", Static).render())
        assert "started" in text
        assert "started in this session" in text or "outside this session" in text
        assert screen.query_one("#run-detail").size.width > 44  # grows with a wide terminal


async def test_monitor_without_a_run_says_no_run_selected(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4")
        await _wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(BraillePlot)
        )
        screen = app.screen
        plot = screen.query_one(BraillePlot)
        assert "No run selected" in plot.empty_text
        assert "waiting" not in str(plot.render())
        assert not screen.query_one("#monitor-side").display  # nothing to show: the plot gets the width


async def test_x_axis_samples_only_for_runs_with_a_batch_size(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(partial(start_demo_job, steps=100_000, step_s=0.01))  # no batch size
        await _wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is job)
        await pilot.press("x")
        await _wait_for(pilot, lambda: app.screen.x_axis == "step")
        assert any("no batch size" in str(n.message) for n in notified(app))
        title = str(app.screen.query_one("#monitor-title", Static).render())
        assert "x: optimizer step" in title
        job.cancel()
        assert job.wait(30)


def _line(table: DataTable, y: int) -> str:
    return "".join(segment.text for segment in table.render_line(y))


async def test_runs_table_keeps_status_and_last_step_in_view_at_80x24(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert start_demo_job(RunStore(tmp_path / "ws"), steps=7, step_s=0).wait(30)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        table = screen.query_one(DataTable)
        await _wait_for(pilot, lambda: table.row_count == 1)
        # The columns settle once the detail panel has taken its width: wait for the whole row.
        await _wait_for(pilot, lambda: "finished" in _line(table, 1) and " 7 " in _line(table, 1))
        header = "".join(s.text for s in table.render_line(0))
        row = "".join(s.text for s in table.render_line(1))
        assert "Status" in header and "Last step" in header
        assert "finished" in row and " 7 " in row


async def test_monitor_calls_a_killed_run_interrupted_like_the_list(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "ws")
    handle = store.create("victim", {"train": {"steps": 100}})
    handle.writer.sample(0, 1, {"loss": 1.0}, 1.0)
    handle.writer.close()
    state = json.loads((handle.run_dir / "state.json").read_text())
    state.update(pid=_dead_pid(), pid_started=None)
    (handle.run_dir / "state.json").write_text(json.dumps(state))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await _wait_for(pilot, lambda: "interrupted" in str(screen.query_one(DataTable).get_row_at(0)[1]))
        await pilot.press("enter")
        await _wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        monitor = app.screen
        await _wait_for(pilot, lambda: monitor.job.done)  # type: ignore[union-attr]
        await _wait_for(
            pilot, lambda: "interrupted" in str(monitor.query_one("#monitor-title", Static).render())
        )
        await _wait_for(pilot, lambda: monitor.query_one("#monitor-failure").display)
        title = str(monitor.query_one("#monitor-title", Static).render())
        assert "interrupted" in title and "failed" not in title
        assert "Run failed" not in str(monitor.query_one("#monitor-failure-text", Static).render())


async def test_u_resumes_a_failed_training_run_into_a_linked_run(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Real Paddle, tiny: a run that fails at step 5 after a checkpoint at 4, resumed with u."""
    from workbench.runs import read_run_doc_environment

    config = tmp_path / "tiny.yaml"
    config.write_text(
        "task: image_classification\n"
        f"data:\n  dir: {tmp_path / 'data'}\n  format: cls\n  demo: true\n"
        "model:\n  name: small_cnn\n  width: 4\n"
        "train:\n  steps: 8\n  batch_size: 8\n  lr: 0.05\n  seed: 1\n  device: cpu\n"
        "eval:\n  every: 100\ncheckpoint:\n  every: 2\n  keep: 2\nexport:\n  enabled: false\n"
        "debug:\n  inject: raise@5\n"
    )
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.train_config(str(config))
        await _wait_for(pilot, lambda: len(app.live_jobs) == 1, timeout=120)
        first = next(iter(app.live_jobs.values()))
        await _wait_for(pilot, lambda: first.done, timeout=120)
        assert first.status == "failed"
        await pilot.press("1")
        screen = app.screen
        assert isinstance(screen, RunsScreen)
        await _wait_for(pilot, lambda: screen.selected_run() == first.run_id)
        await _wait_for(pilot, lambda: "failed" in str(screen.query_one(DataTable).get_row_at(0)[1]))
        await pilot.press("u")
        await _wait_for(pilot, lambda: len(app.live_jobs) == 2, timeout=120)
        second = next(job for job in app.live_jobs.values() if job is not first)
        await _wait_for(pilot, lambda: second.done, timeout=120)
    resumed = read_run_doc_environment(second.run_dir).get("resumed_from") or {}
    assert Path(resumed["run_dir"]).name == first.run_id and resumed["step"] == 4


def test_short_legend_stays_beside_the_ticks_at_80_columns() -> None:
    import numpy as np

    from workbench.screens.widgets.plot import PlotSeries

    plot = BraillePlot()
    x = np.arange(1.0, 54.0)
    plot.set_series(
        [PlotSeries("loss", x, np.exp(-x / 20), "red"), PlotSeries("eval/loss", x[::10], x[::10], "blue")]
    )
    lines = [line.plain for line in plot.render_lines_text(54, 16)]
    assert "● loss" in lines[-1] and lines[-1].rstrip().endswith("53")  # one footer row: ticks and legend
    plot.set_series([PlotSeries("loss [20261130-224533-train_cls_demo-8616]", x, x, "red")])
    lines = [line.plain for line in plot.render_lines_text(54, 16)]
    assert "[20261130-224533-train_cls_demo-8616]" in lines[-1]  # too long: its own row, id whole


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_runs_table_shows_whole_status_and_last_step_of_a_long_run_id_at_80x24(  # type: ignore[no-untyped-def]
    make_app, tmp_path: Path, lang: str
) -> None:
    """A sample config's run id is ~36 cells; beside the detail panel the table cut "300" to "30"."""
    from workbench.events import RunFinished
    from workbench.i18n import set_language, t

    store = RunStore(tmp_path / "ws")
    handle = store.create("train_cls_demo", {"train": {"steps": 300}})
    handle.writer.sample(0, 300, {"loss": 0.1}, 1.0)
    handle.writer.close(RunFinished(step=300))
    handle.state.update(status="finished", last_step=300, pid=None)
    handle.save_state()
    set_language(lang)
    try:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen.query_one(DataTable)
            await _wait_for(pilot, lambda: table.row_count == 1)
            # The columns settle once the detail panel has taken its width: wait for the whole row.
            await _wait_for(pilot, lambda: handle.run_id in _line(table, 1) and " 300 " in _line(table, 1))
            header = "".join(s.text for s in table.render_line(0))
            row = "".join(s.text for s in table.render_line(1))
            assert t("runs.col.status") in header and t("runs.col.step") in header
            assert handle.run_id in row and " 300 " in row
    finally:
        set_language("en")
