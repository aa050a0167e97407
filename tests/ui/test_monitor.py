"""Pilot tests of the monitor on a scripted event stream (no Paddle): metrics, ranks, axes, overlay."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from tests.ui.scripted import ScriptedJob
from tests.ui.waiting import notified, wait_for
from workbench.demo import start_demo_job
from workbench.runs import RunStore
from workbench.screens.dialogs import RunPickerScreen
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.plot import BraillePlot


def _labels(screen: MonitorScreen) -> list[str]:
    return [s.label for s in screen.query_one(BraillePlot)._series]


async def test_metric_keys_ranks_and_axis(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(ScriptedJob(tmp_path / "scripted", ranks=2))
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        screen = app.screen
        # One curve per rank, val overlaid.
        await wait_for(pilot, lambda: _labels(screen) == ["loss r0", "loss r1", "eval/loss"])
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: _labels(screen) == ["lr r0", "lr r1"])
        first_x = screen.query_one(BraillePlot)._series[0].x[-1]
        await pilot.press("x")
        await wait_for(pilot, lambda: screen.x_axis == "samples")
        assert screen.query_one(BraillePlot)._series[0].x[-1] == first_x * 32  # batch_size from the config


async def test_side_values_redraw_in_place_and_lay_out_only_when_their_shape_changes(
    make_app, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A new value in the same rows and widths is drawn without a layout pass of the screen (most of
    ``]``'s cost); a new metric (a row more) gets one, so the table grows and no row is cut."""
    import io

    from rich.console import Console
    from textual.widgets import Static

    def text(widget: Static) -> str:
        console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
        console.print(widget.content)
        return console.export_text()

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = ScriptedJob(tmp_path / "scripted")
        app.open_in_monitor(job)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        values = app.screen.query_one("#monitor-values", Static)
        await wait_for(pilot, lambda: "eval/loss" in text(values) and values.region.height == 3)
        layouts: list[bool] = []
        update = values.update
        monkeypatch.setattr(
            values,
            "update",
            lambda content, *, layout=True: (layouts.append(layout), update(content, layout=layout)),
        )
        loss = job.metrics.latest()["loss"]  # the same widths: a new lr value
        job.metrics.record(0, 301, {"loss": loss, "lr": 0.02}, 301.0)
        await wait_for(pilot, lambda: "0.0200" in text(values))
        assert layouts == [False]
        job.metrics.record(0, 302, {"loss": loss, "lr": 0.02, "grad_norm": 1.5}, 302.0)
        await wait_for(pilot, lambda: "grad_norm" in text(values) and values.region.height == 4)
        assert layouts[-1] is True


async def test_pause_on_a_run_of_another_process_says_it_cannot(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = ScriptedJob(tmp_path / "scripted")
        job.lifecycle.pop()  # still "running" from the monitor's point of view
        job._done.clear()
        app.open_in_monitor(job)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        await pilot.press("p")
        await wait_for(pilot, lambda: any("another process" in n.message for n in notified(app)))


async def test_overlay_a_stored_run_on_the_same_axes(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    baseline = start_demo_job(RunStore(tmp_path / "ws"), steps=20, step_s=0)
    assert baseline.wait(30)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(ScriptedJob(tmp_path / "scripted"))
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, RunPickerScreen))
        app.screen.query_one(OptionList).highlighted = 0
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(baseline.run_id[-20:] in label for label in _labels(app.screen)))
        assert isinstance(app.screen, MonitorScreen)
        assert any(baseline.run_id[-20:] in label for label in _labels(app.screen))
        await pilot.press("o")  # o again removes it
        await wait_for(
            pilot, lambda: not any(baseline.run_id[-20:] in label for label in _labels(app.screen))
        )


async def test_log_pane_shows_whole_lines_once_even_when_utf8_is_split(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from textual.widgets import Log

    run_dir = tmp_path / "scripted"
    run_dir.mkdir()
    log = run_dir / "logs.txt"
    text = "第一行 ok\n第二行 done\n".encode()
    split = text.index("第二".encode()) + 1  # in the middle of a 3-byte character
    log.write_bytes(text[:split])
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(ScriptedJob(run_dir))
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, MonitorScreen) and "第一行 ok" in app.screen.query_one(Log).lines,
        )
        with open(log, "ab") as fh:
            fh.write(text[split:])
        screen = app.screen
        await wait_for(pilot, lambda: "第二行 done" in screen.query_one(Log).lines)
        lines = [line for line in screen.query_one(Log).lines if line]
        assert lines == ["第一行 ok", "第二行 done"]


async def test_the_log_pane_reads_the_file_off_the_ui_thread(make_app, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import threading

    from textual.widgets import Log

    from workbench.logtail import LogTail

    readers: list[str] = []
    read = LogTail.read

    def recording_read(self: LogTail) -> str:
        readers.append(threading.current_thread().name)
        return read(self)

    monkeypatch.setattr(LogTail, "read", recording_read)
    run_dir = tmp_path / "scripted"
    run_dir.mkdir()
    (run_dir / "logs.txt").write_text("first line\n", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(ScriptedJob(run_dir))
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, MonitorScreen) and "first line" in app.screen.query_one(Log).lines,
        )
    assert readers and threading.main_thread().name not in readers
