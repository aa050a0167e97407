"""The monitor's chart grid (g): every metric a chart, related series together, enlarge (z), redraw rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.ui.waiting import wait_for
from workbench.events import RunFinished, RunStarted
from workbench.runner import Job
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.chart_grid import ChartGrid, CurveView, common_unit, group_metrics
from workbench.screens.widgets.plot import PlotSeries, nice_ticks, short_number

FIFTEEN = [
    "loss", "eval/loss", "eval/acc", "lr", "samples_per_s", "data_wait_ms", "compute_ms", "step_ms",
    "gpu_alloc_mib", "loss_dfl", "grad_norm", "loss_cls", "loss_box", "sys/cpu_percent", "sys/rss_mib",
]  # fmt: skip


class FifteenMetricJob(Job):
    """A finished run with fifteen metrics over 300 steps (no threads, no Paddle)."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(run_dir, "fifteen", "fifteen", config={"train": {"steps": 300, "batch_size": 8}})
        steps = np.arange(1, 301)
        for step in steps:
            s = float(step)
            values = {name: (index + 1) * (1.0 + np.exp(-s / 50)) for index, name in enumerate(FIFTEEN)}
            values["lr"] = 0.1 * 0.99**s
            values["loss"] = 3.0 * np.exp(-s / 60) + 0.05
            if step % 30:
                values.pop("eval/loss"), values.pop("eval/acc")
            self.metrics.record(0, int(step), values, s)
        self._publish(RunStarted(run_id="fifteen", time=0.0))
        self._publish(RunFinished(step=300, time=1.0))


async def _drawn(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait until every chart on screen is drawn (a loaded machine may take longer than a fixed pause)."""
    grid = pilot.app.screen.query_one(ChartGrid)

    def drawn() -> bool:
        keys = grid.visible_keys()
        return bool(keys) and all(not grid.charts[k].stale and grid.charts[k].data_key for k in keys)

    await wait_for(pilot, drawn)
    await pilot.pause(0.1)


def test_related_series_share_a_chart() -> None:
    groups = {g.key: g.names for g in group_metrics(FIFTEEN)}
    assert groups["loss"] == ("loss", "eval/loss")
    assert groups["data_wait_ms"] == ("data_wait_ms", "compute_ms", "step_ms")
    assert groups["gpu_alloc_mib"] == ("gpu_alloc_mib",)
    assert "eval/acc" in groups and "lr" in groups and "sys/cpu_percent" in groups
    assert sum(len(names) for names in groups.values()) == 15  # every metric is on exactly one chart
    assert len(groups) == 12


async def test_grid_enlarge_and_back(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 28)) as pilot:  # short: not every chart fits, the grid scrolls
        app.open_in_monitor(FifteenMetricJob(tmp_path / "fifteen"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        screen = app.screen
        await pilot.press("g")
        grid = screen.query_one(ChartGrid)
        await wait_for(pilot, lambda: grid.display and any(not c.stale for c in grid.charts.values()))
        assert len(grid.charts) == 12
        visible = [c for c in grid.charts.values() if not c.stale]
        assert 0 < len(visible) < 12  # only what is on screen was drawn
        assert grid.charts["sys/rss_mib"].stale  # the last row is below the fold
        loss = grid.charts["loss"]
        assert [s.label for s in loss._series] == ["loss", "eval/loss"]
        assert str(loss.border_title).startswith("loss  ")
        lines = loss.render_lines_text(50, 8)
        labelled = [line.plain.split("┤")[0].strip() for line in lines[:-2] if "┤" in line.plain]
        assert len(labelled) == 4 and all(labelled)  # four labelled y ticks
        drawn_names = [n for k in grid.visible_keys() for n in grid.charts[k].group.names if k != "loss"]
        assert drawn_names and all(screen.job.metrics.series(n)._cache is None for n in drawn_names), (
            "the grid reads the points that arrived since its last redraw; it never copies a whole history"
        )
        redraws = grid.redraws
        screen.tick()  # nothing changed: nothing is redrawn
        assert grid.redraws == redraws
        grid.scroll_end(animate=False)
        # Drawn once scrolled into view.
        await wait_for(pilot, lambda: grid.charts["sys/rss_mib"].stale is False)
        grid.charts["lr"].focus()
        await pilot.press("z")
        await wait_for(pilot, lambda: grid.enlarged == "lr")
        assert [k for k, c in grid.charts.items() if c.display] == ["lr"]
        await pilot.press("z")
        await wait_for(pilot, lambda: grid.enlarged is None and all(c.display for c in grid.charts.values()))
        await pilot.press("g")
        await wait_for(pilot, lambda: not grid.display)


def test_grid_snapshot_fifteen_metrics(make_app, tmp_path: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = make_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_in_monitor(FifteenMetricJob(tmp_path / "fifteen"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        await pilot.press("g")
        app.screen.set_focus(None)  # no chart focused: the picture does not depend on focus order
        await _drawn(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_grid_snapshot_enlarged_chart(make_app, tmp_path: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = make_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_in_monitor(FifteenMetricJob(tmp_path / "fifteen"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        await pilot.press("g")
        await _drawn(pilot)
        app.screen.query_one(ChartGrid).charts["loss"].focus()
        await pilot.press("z")
        await _drawn(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_ema_matches_the_recurrence_and_is_debiased() -> None:
    from workbench.screens.widgets.chart_grid import ema

    y = np.random.RandomState(0).rand(3000)
    for weight in (0.6, 0.9, 0.99):
        s = d = 0.0
        expected = []
        for value in y:
            s, d = weight * s + (1 - weight) * value, weight * d + (1 - weight)
            expected.append(s / d)
        assert np.allclose(ema(y, weight), expected, rtol=1e-9, atol=1e-12)
    assert ema(np.array([5.0, 5.0]), 0.99).tolist() == [5.0, 5.0]  # no pull towards 0 at the start


async def test_smoothing_log_scale_and_window(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(FifteenMetricJob(tmp_path / "fifteen"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        await pilot.press("g")
        grid = app.screen.query_one(ChartGrid)
        await wait_for(pilot, lambda: grid.display and not grid.charts["loss"].stale)
        await pilot.press("m")
        loss = grid.charts["loss"]
        await wait_for(pilot, lambda: grid.view.smoothing == 0.6 and len(loss._series) == 4)
        assert [s.label for s in loss._series] == ["", "loss", "", "eval/loss"]  # raw (faint) beside each
        assert loss._series[0].color.endswith(" dim")
        raw, smooth = loss._series[0].y, loss._series[1].y
        assert np.abs(np.diff(smooth)).sum() < np.abs(np.diff(raw)).sum()
        await pilot.press("l")
        await wait_for(pilot, lambda: grid.view.log_y and loss.y_log)
        assert any("e" in line.plain[:8] or line.plain[:8].strip() for line in loss.render_lines_text(50, 8))
        await pilot.press("w")
        # The last 100 steps of 300.
        await wait_for(pilot, lambda: grid.view.window == 100 and float(loss._series[1].x.min()) >= 200.0)


def test_grid_snapshot_smoothing_and_log_scale(make_app, tmp_path: Path, snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = make_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_in_monitor(FifteenMetricJob(tmp_path / "fifteen"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        await pilot.press("g")
        await _drawn(pilot)
        # The keys (m, l) are tested above; set the view directly so no notice toast is in the picture.
        app.screen.query_one(ChartGrid).set_view(CurveView(smoothing=0.9, log_y=True))
        app.screen.set_focus(None)
        await _drawn(pilot)
        title = app.screen.query_one("#monitor-title")
        await wait_for(pilot, lambda: "smoothing 0.9 · log y" in str(title.render()))  # names the view

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def _ticks(lines: list[str]) -> tuple[list[str], list[str]]:
    """The y labels (rows marked ┤) and the x labels of a chart's rendered rows, checking that each x
    label sits under a tick mark of the axis above it."""
    y_labels = [line.split("┤")[0].strip() for line in lines if "┤" in line]
    axis, row = lines[-2], lines[-1]
    marks = [i for i, ch in enumerate(axis) if ch == "┬"]
    x_labels, starts = [], []
    for i, ch in enumerate(row):
        if ch != " " and (i == 0 or row[i - 1] == " "):
            starts.append(i)
    for start in starts:
        end = row.find(" ", start)
        end = len(row) if end < 0 else end
        x_labels.append(row[start:end])
        assert any(start <= mark < end for mark in marks), (axis, row)  # under its own tick
    assert len(marks) == len(x_labels)
    return y_labels, x_labels


async def test_every_chart_has_short_y_and_x_ticks_at_80x24_and_120x40(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for size in ((80, 24), (120, 40)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            app.open_in_monitor(FifteenMetricJob(tmp_path / f"fifteen-{size[0]}"))
            await wait_for(
                pilot,
                lambda: isinstance(pilot.app.screen, MonitorScreen) and pilot.app.screen.query_one(ChartGrid),
            )
            await pilot.press("g")
            await _drawn(pilot)
            grid = app.screen.query_one(ChartGrid)
            for key in sorted(grid.visible_keys()):
                chart = grid.charts[key]
                lines = [line.plain for line in chart.render_lines_text(chart.size.width, chart.size.height)]
                assert len(lines) == chart.size.height
                y_labels, x_labels = _ticks(lines)
                assert 3 <= len(y_labels) <= 5 and all(y_labels), (size, key, lines)
                assert 3 <= len(x_labels) <= 5, (size, key, lines)
                assert all(len(label) <= 6 for label in y_labels + x_labels)
                assert len(set(y_labels)) == len(y_labels)  # neighbouring ticks read apart
            loss = grid.charts["loss"]
            legend = str(loss.border_subtitle)
            assert "loss" in legend and "eval/loss" in legend  # two series: the legend is in the border
            assert grid.charts["lr"].border_subtitle is None  # one series: the title names it


def test_x_ticks_of_long_runs_read_as_si_and_stay_apart() -> None:
    assert [short_number(v) for v in (0, 300, 1234, 25_000, 3_400_000, 2e9)] == [
        "0", "300", "1.23k", "25k", "3.4M", "2G",
    ]  # fmt: skip
    assert short_number(1.5e-5) == "1.5e-5" and short_number(0.004904) == "0.0049"
    assert nice_ticks(3, 298) == [50.0, 100.0, 150.0, 200.0, 250.0]
    assert nice_ticks(0, 3_400_000) == [0.0, 1e6, 2e6, 3e6]
    from workbench.screens.widgets.chart_grid import Chart, ChartGroup

    chart = Chart(ChartGroup("loss", "loss", ("loss",)))
    for last in (40, 1_000, 123_456, 3_400_000, 98_765_432):
        x = np.linspace(1, last, 500)
        chart.set_series([PlotSeries("loss", x, np.exp(-x / last), "red")])
        for width in (37, 38, 60, 118):
            lines = [line.plain for line in chart.render_lines_text(width, 6)]
            y_labels, x_labels = _ticks(lines)
            assert 3 <= len(x_labels) <= 5, (last, width, lines[-2:])
            assert all(len(label) <= 5 for label in x_labels), x_labels  # 1.2k, 3.4M, 99M
            assert max(len(line) for line in lines) <= width


def test_a_legend_drops_the_unit_its_labels_share() -> None:
    assert common_unit(["data_wait_ms", "compute_ms", "step_ms"]) == "_ms"
    assert common_unit(["loss", "eval/loss"]) == ""
    assert common_unit(["gpu_alloc_mib", "step_ms"]) == ""


class GrowingJob(FifteenMetricJob):
    """The fifteen-metric run, still running: a test appends steps itself."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(run_dir)
        self.lifecycle = self.lifecycle[:1]  # started, not finished

    def grow(self, step: int) -> None:
        self.metrics.record(0, step, {name: 1.0 / step for name in FIFTEEN}, float(step))


async def test_focused_chart_is_redrawn_more_often_than_the_rest(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.widgets import chart_grid

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = GrowingJob(tmp_path / "growing")
        app.open_in_monitor(job)
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        await pilot.press("g")
        await _drawn(pilot)
        grid = app.screen.query_one(ChartGrid)
        grid.charts["lr"].focus()
        await pilot.pause()
        drawn_at = {key: chart.drawn_at for key, chart in grid.charts.items()}
        start = max(drawn_at.values()) + 10.0
        now = [start]
        grid.clock = lambda: now[0]  # the redraw intervals read this clock, not the wall's
        grid.max_draws = 12
        for step in range(301, 305):  # four seconds of a streaming run, one pass a second
            now[0] += 1.0
            job.grow(step)
            grid.refresh_visible()
        fresh = {key for key, chart in grid.charts.items() if chart.drawn_at != drawn_at[key]}
        assert grid.charts["lr"].drawn_at == start + 4.0  # the focused chart: every second
        assert all(grid.charts[k].drawn_at == start + 1.0 for k in fresh - {"lr"})  # the rest: once in 4 s
        assert fresh - {"lr"}, "the others are redrawn too, only less often"
        assert chart_grid.FOCUSED_INTERVAL_S < chart_grid.CHART_INTERVAL_S


class LongJob(Job):
    """A finished run of 5,000 steps: longer than an envelope keeps point for point."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(run_dir, "long", "long", config={"train": {"steps": 5000, "batch_size": 8}})
        rng = np.random.RandomState(0)
        for step in range(1, 5001):
            self.metrics.record(0, step, {"loss": float(rng.rand())}, float(step))
        self._publish(RunStarted(run_id="long", time=0.0))
        self._publish(RunFinished(step=5000, time=1.0))


async def test_the_cursor_reads_a_long_series_exactly_not_its_envelope(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from workbench.compare_runs import value_at
    from workbench.metric_envelope import MAX_BUCKETS
    from workbench.screens.widgets.chart_grid import ema

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = LongJob(tmp_path / "long")
        app.open_in_monitor(job)
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.query_one(ChartGrid)
        )
        await pilot.press("g")
        await _drawn(pilot)
        grid = app.screen.query_one(ChartGrid)
        chart = grid.charts["loss"]
        steps, values = job.metrics.series("loss").arrays()
        assert len(chart._series[0].x) < len(steps) and len(steps) > MAX_BUCKETS  # drawn from its envelope
        chart.focus()
        for smoothing in (0.0, 0.6):
            grid.set_view(CurveView(smoothing=smoothing))
            await pilot.press("comma", *["comma"] * 7)  # onto the newest point, then 7 columns left
            await wait_for(pilot, lambda: chart.cursor_x is not None and chart.cursor_x < 5000)
            at = chart.cursor_x
            expected = values if smoothing == 0 else ema(values, smoothing)
            (name, got, _color), *_ = chart.cursor_readout()
            want = value_at(steps.astype(np.float64), expected, at)
            assert name == "loss" and got is not None and want is not None
            assert np.isclose(got, want, rtol=1e-9, atol=0.0)
            chart.cursor_x = None


async def test_the_grid_toggle_restyles_the_log_not_every_widget(
    make_app, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """``g`` shortens the log under the grid with a class on the log itself: a class on the screen made
    Textual restyle every widget of it (header, sidebar, footer …) on every toggle (the cost of a key while a run trains)."""
    from textual.css.stylesheet import Stylesheet

    restyled: list[str] = []
    real_apply = Stylesheet.apply

    def counted(self: Stylesheet, node, *args, **kwargs):  # type: ignore[no-untyped-def]
        restyled.append(type(node).__name__)
        return real_apply(self, node, *args, **kwargs)

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(FifteenMetricJob(tmp_path / "fifteen"))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MonitorScreen) and bool(app.screen.query("#monitor-log"))
        )
        screen = app.screen
        log = screen.query_one("#monitor-log")
        await pilot.pause()
        monkeypatch.setattr(Stylesheet, "apply", counted)
        await pilot.press("g")
        await wait_for(pilot, lambda: log.styles.height is not None and log.styles.height.value == 4)
        await pilot.pause()
        assert screen.grid_mode
        assert not {"MonitorScreen", "Header", "HeaderTitle", "RunsSidebar"} & set(restyled), restyled
        await pilot.press("g")
        await wait_for(pilot, lambda: not screen.grid_mode)
        await pilot.pause()
        assert log.styles.height is not None and log.styles.height.value == 20, (
            log.styles.height
        )  # 20 % again
