"""What the monitor's curves and panes say: whole steps under the cursor and no stale readout, titles
that name the value they show, one tick for one point, the curve settings on screen in the user's
language, a title redrawn on resize, an empty state said once, long log lines wrapped, probe names and
labels translated."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from textual.widgets import Log

from tests.ui.test_mode_contrast import screen_strips
from tests.ui.waiting import notified, wait_for
from workbench.events import RunFinished, RunStarted
from workbench.i18n import set_language, t
from workbench.metric_store import MetricStore
from workbench.runner import Job
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.chart_grid import (
    Chart,
    ChartGrid,
    ChartGroup,
    CurveView,
    group_metrics,
)
from workbench.screens.widgets.plot import BraillePlot, PlotSeries


class ShortJob(Job):
    """A finished run of 50 steps (fewer points than the plot has columns), one eval point at step 50,
    the step time and memory series a CPU run records."""

    def __init__(self, run_dir: Path, run_id: str = "short", steps: int = 50) -> None:
        super().__init__(run_dir, run_id, run_id, config={"train": {"steps": steps, "batch_size": 8}})
        for step in range(1, steps + 1):
            values = {
                "loss": 1.0 / step,
                "data_wait_ms": 21.77,
                "compute_ms": 357.0,
                "step_ms": 379.0,
                "host_alloc_mib": 1.79,
                "host_rss_mib": 545.0,
            }
            if step == 50:
                values["eval/acc"] = 0.5
            self.metrics.record(0, step, values, float(step))
        self._publish(RunStarted(run_id=run_id, time=0.0))
        self._publish(RunFinished(step=steps, time=1.0))


def _lines(plot: BraillePlot) -> list[str]:
    return [line.plain for line in plot.render_lines_text(plot.size.width, plot.size.height)]


def _screen(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(strip.text for strip in screen_strips(app))


async def _monitor(pilot, job: Job) -> MonitorScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    app.open_in_monitor(job)
    await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is job)
    screen: MonitorScreen = app.screen
    return screen


async def test_the_cursor_reads_whole_steps(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _monitor(pilot, ShortJob(tmp_path / "short"))
        plot = screen.query_one("#monitor-plot", BraillePlot)
        await wait_for(pilot, lambda: plot._series)
        await pilot.press("comma", "comma", "comma")  # onto the newest point, then two columns left
        await wait_for(pilot, lambda: plot.cursor_x is not None and plot.cursor_x < 50)
        readout = _lines(plot)[-1]
        assert re.search(r"▲ step \d+  ", readout), readout  # a whole step, never "step 48.68"
        assert plot.cursor_x == 48.0  # one column is less than a step here: each press is one point
        await pilot.press("less_than_sign")
        await wait_for(pilot, lambda: plot.cursor_x is not None and plot.cursor_x < 48)
        assert plot.cursor_x == round(plot.cursor_x)


async def test_no_stale_readout_stays_when_the_run_or_the_focus_changes(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _monitor(pilot, ShortJob(tmp_path / "short"))
        plot = screen.query_one("#monitor-plot", BraillePlot)
        await wait_for(pilot, lambda: plot._series)
        await pilot.press("comma", "comma")
        await wait_for(pilot, lambda: plot.cursor_x is not None and plot.cursor_x < 50)
        # Another run followed: the cursor read the previous run's curve, so it goes.
        screen.wb.open_in_monitor(ShortJob(tmp_path / "other", "other", steps=60))
        await wait_for(
            pilot, lambda: screen.job is not None and screen.job.run_id == "other" and plot._series
        )
        assert plot.cursor_x is None and "▲" not in _lines(plot)[-1]
        # In the grid the cursor is the focused chart's: focus moving on takes it (and its readout) away.
        await pilot.press("g")
        grid = screen.query_one(ChartGrid)
        await wait_for(pilot, lambda: grid.charts and not grid.charts["loss"].stale)
        loss = grid.charts["loss"]
        loss.focus()
        await pilot.press("comma")
        await wait_for(pilot, lambda: loss.cursor_x == 60.0 and "▲ step 60" in _lines(loss)[-1])
        await pilot.press("tab")
        await wait_for(pilot, lambda: screen.focused is not loss)
        assert loss.cursor_x is None and not any("▲" in line for line in _lines(loss))


def test_a_cursor_outside_new_data_is_dropped() -> None:
    plot = BraillePlot()
    plot._x_bounds, plot._dots_w = (1.0, 500.0), 200
    plot.cursor_x = 480.0
    x = np.arange(1, 101, dtype=np.float64)
    plot.set_series([PlotSeries("loss", x, x, "red")])  # a window of other steps: 480 is not on it
    assert plot.cursor_x is None


def test_a_chart_title_shows_its_headline_series_and_names_it() -> None:
    from workbench.screens.widgets.chart_grid import chart_title

    store = MetricStore()
    for step in (1, 2):
        store.record(0, step, {"data_wait_ms": 21.77, "compute_ms": 357.0, "step_ms": 379.0}, float(step))
        store.record(0, step, {"host_alloc_mib": 1.79, "host_rss_mib": 545.0, "loss": 0.5}, float(step))
        store.record(0, step, {"eval/loss": 0.7}, float(step))
    groups = {g.key: g for g in group_metrics(store.names())}
    assert chart_title(groups["data_wait_ms"], store) == f"{t('ui.chart.step_time')}  step 379"
    assert chart_title(groups["host_alloc_mib"], store) == f"{t('ui.chart.memory')}  host_rss 545"
    assert chart_title(groups["loss"], store) == "loss  0.5"  # the title names it already
    gpu = MetricStore()
    gpu.record(0, 1, {"gpu_alloc_mib": 900.0, "gpu_peak_mib": 1200.0, "host_rss_mib": 545.0}, 1.0)
    (memory,) = [g for g in group_metrics(gpu.names()) if g.title == "ui.chart.memory"]
    assert chart_title(memory, gpu).endswith("gpu_alloc 900")


def _x_labels(chart: Chart, width: int = 40) -> list[str]:
    return _lines_at(chart, width)[-1].split()


def _lines_at(chart: Chart, width: int) -> list[str]:
    return [line.plain for line in chart.render_lines_text(width, 6)]


def test_one_point_gets_one_tick_and_a_step_axis_whole_ones() -> None:
    chart = Chart(ChartGroup("eval/acc", "eval/acc", ("eval/acc",)))
    chart.set_series([PlotSeries("eval/acc", np.array([50.0]), np.array([0.5]), "red")])
    assert _x_labels(chart) == ["50"]
    assert _lines_at(chart, 40)[-2].count("┬") == 1
    chart.set_series([PlotSeries("eval/acc", np.array([50.0, 52.0]), np.array([0.5, 0.6]), "red")])
    labels = _x_labels(chart)
    assert labels and all(label.isdigit() for label in labels), labels  # no 50.5 on a step axis
    chart.set_series([PlotSeries("loss", np.array([0.0, 0.5, 1.0]), np.array([1.0, 2.0, 3.0]), "red")])
    assert "0.5" in _x_labels(chart)  # an axis of fractions keeps its round fractions
    plot = BraillePlot()
    plot.set_series([PlotSeries("eval/acc", np.array([50.0]), np.array([0.5]), "red")])
    footer = [line.plain for line in plot.render_lines_text(60, 8)][-1]
    assert footer.split()[0] == "50" and "51" not in footer  # the one-metric plot: one label too


async def test_chart_titles_and_the_curve_settings_in_the_title_row(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await _monitor(pilot, ShortJob(tmp_path / "short"))
        await pilot.press("g")
        grid = screen.query_one(ChartGrid)
        await wait_for(pilot, lambda: grid.charts and not grid.charts["loss"].stale)
        # Each title shows its headline series' value and names it: not data wait's 21.77, host_alloc's 1.79.
        await wait_for(pilot, lambda: all(c.border_title for c in grid.charts.values()))
        assert str(grid.charts["data_wait_ms"].border_title) == f"{t('ui.chart.step_time')}  step 379"
        assert str(grid.charts["host_alloc_mib"].border_title) == f"{t('ui.chart.memory')}  host_rss 545"
        await pilot.press("m", "l", "w")
        await wait_for(pilot, lambda: grid.view == CurveView(smoothing=0.6, log_y=True, window=100))
        title = str(screen.query_one("#monitor-title").render())
        assert "smoothing 0.6 · log y · last 100 steps" in title, title
        await pilot.press("l")  # back to linear: the title names only what differs from the default
        await wait_for(pilot, lambda: "log y" not in str(screen.query_one("#monitor-title").render()))
        assert "charts: smoothing 0.6 · last 100 steps" in str(screen.query_one("#monitor-title").render())
        set_language("zh")
        await pilot.press("w")  # the last 1000 steps: the title row says so in Chinese
        await wait_for(pilot, lambda: "最近 1000 步" in str(screen.query_one("#monitor-title").render()))
        assert "图表：平滑 0.6 · 最近 1000 步" in str(screen.query_one("#monitor-title").render())
        toast = str(notified(app)[-1].message)
        assert "线性" in toast and "linear" not in toast, toast


async def test_the_progress_bar_follows_a_resize_at_once(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _monitor(pilot, ShortJob(tmp_path / "short"))

        def bar() -> int:
            return str(screen.query_one("#monitor-title").render()).count("█")

        await wait_for(pilot, lambda: bar() == 8)
        screen._timer.pause()  # no tick redraws it: the resize alone must
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: screen.size.width == 120)
        await pilot.pause()
        assert bar() == 24


async def test_the_empty_monitor_says_it_once(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("monitor")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and "No run" in _screen(app))
        await pilot.pause()
        assert _screen(app).count("No run selected") == 1


async def test_long_log_lines_wrap_in_the_log_pane(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_dir = tmp_path / "short"
    run_dir.mkdir()
    long = "epoch 1 " + " ".join(f"metric_{i}=0.{i:03d}" for i in range(30)) + " END"
    (run_dir / "logs.txt").write_text(f"first\n{long}\n中文" * 1 + "行" * 70 + "\nlast\n", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(80, 40)) as pilot:
        screen = await _monitor(pilot, ShortJob(run_dir))
        log = screen.query_one(Log)
        await wait_for(pilot, lambda: "last" in log.lines)
        await pilot.pause()
        width = log.size.width
        rows = [log._render_line(y, 0, width).text for y in range(log.virtual_size.height)]  # every row
        assert all(len(row.rstrip()) <= width for row in rows)
        shown = "".join(row.rstrip() for row in rows)
        assert long.replace(" ", "") in shown.replace(" ", ""), rows  # the whole line, END included
        assert "行" * 30 in shown  # a wide line wraps on cell boundaries too
        assert list(log.lines[:2]) == ["first", long]  # the lines themselves are kept as written


def test_the_interpreter_labels_are_translated() -> None:
    set_language("zh")
    assert "prefix" not in t("envcheck.label.prefix") and "prefix" not in t("envcheck.label.base_prefix")


def test_probe_names_are_translated() -> None:
    from workbench.envcheck import DEFAULT_PROBES
    from workbench.screens.env import probe_title

    set_language("zh")
    assert t("envscreen.facts", probe=probe_title("interpreter")) == "探针「解释器」收集的信息"
    assert all(
        re.search(r"[\u4e00-\u9fff]", probe_title(p.name)) for p in DEFAULT_PROBES if p.name != "paddle"
    )
    assert probe_title("a_plugin_probe") == "a_plugin_probe"
