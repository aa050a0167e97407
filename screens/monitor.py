"""Live training monitor: curves, latest values, lifecycle events, failure panel and the run's log.

It follows one :class:`~workbench.runner.Job` — started here, or a past/external run attached from
disk — and redraws on a timer (2 Hz, 1 Hz in low-bandwidth mode) only when something changed: the
training thread never calls into the UI. Other runs are overlaid on the same axes from the runs sidebar
(``r``, :mod:`~workbench.screens.widgets.runs_sidebar`), aligned by optimizer step or samples seen, with a
pinned baseline and each run's difference to it (:mod:`~workbench.screens.widgets.compare_table`); a
cursor (``,`` ``.``) reads every curve at one step.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, Log, Static
from textual.worker import Worker

from workbench.attach.link import is_linked
from workbench.compare_runs import aligned_x, batch_size
from workbench.events import RunFailed
from workbench.i18n import t
from workbench.logtail import LogTail
from workbench.progress import PROGRESS_CELLS, EtaClock, format_eta, progress_bar
from workbench.runner import Job
from workbench.screens.dialogs import RunPickerScreen
from workbench.screens.formatting import STATUS_VARIABLE, status_text
from workbench.screens.inert import InertStatic, inert
from workbench.screens.job_controls import JobControlScreen
from workbench.screens.widgets.chart_grid import (
    SMOOTHING_STEPS,
    WINDOW_STEPS,
    Chart,
    ChartGrid,
    CurveView,
    GridOverlay,
    GridSource,
)
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.widgets.log_pane import WrappedLog
from workbench.screens.widgets.monitor_side import MonitorSide, SideView
from workbench.screens.widgets.overview import OverviewPane
from workbench.screens.widgets.plot import BraillePlot, PlotSeries
from workbench.screens.widgets.runs_sidebar import RunsSidebar
from workbench.screens.widgets.system_pane import SystemPane
from workbench.screens.workers import LogTailRead, RunsChanged

PLOT_INTERVAL_S = 1.0
GRID_LOW_BANDWIDTH_INTERVAL_S = 5.0


class MonitorScreen(JobControlScreen):
    DEFAULT_CSS = """
    MonitorScreen #monitor-title { height: 1; padding: 0 1; }
    MonitorScreen #monitor-main { height: 1fr; min-height: 8; }
    MonitorScreen #monitor-plot { width: 1fr; }
    MonitorScreen #monitor-side { width: 30%; min-width: 26; max-width: 48; }
    MonitorScreen #monitor-events { margin-top: 1; }
    MonitorScreen #monitor-failure { height: auto; max-height: 30%; }
    MonitorScreen #monitor-log { height: 20%; min-height: 3; }
    MonitorScreen #monitor-log.-short { height: 4; }
    """

    AUTO_FOCUS = ""
    """Nothing is focused on arrival: Textual would pick the first focusable widget, the chart grid or
    the runs filter, even while hidden, and the keys typed next would land there instead of the
    screen's bindings. Tab focuses what is on screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", "ui.key.stop"),
        Binding("p", "pause", "ui.key.pause"),
        Binding("c", "checkpoint", "ui.key.checkpoint"),
        Binding("left_square_bracket", "metric(-1)", "ui.key.prev_metric", key_display="["),
        Binding("right_square_bracket", "metric(1)", "ui.key.next_metric", key_display="]"),
        Binding("o", "overlay", "ui.key.overlay"),
        Binding("r", "runs", "ui.key.runs_sidebar", show=False),  # o (shown) names it in its picker
        Binding("slash", "filter_runs", "ui.key.filter_runs", key_display="/", show=False),
        Binding("comma", "cursor(-1)", "ui.key.cursor_left", key_display=",", show=False),
        Binding("full_stop", "cursor(1)", "ui.key.cursor_right", key_display=".", show=False),
        Binding("less_than_sign", "cursor(-10)", "ui.key.cursor_far_left", key_display="<", show=False),
        Binding("greater_than_sign", "cursor(10)", "ui.key.cursor_far_right", key_display=">", show=False),
        Binding("x", "x_axis", "ui.key.x_axis"),
        Binding("g", "grid", "ui.key.grid"),
        Binding("z", "enlarge", "ui.key.enlarge"),
        Binding("m", "smoothing", "ui.key.smoothing", show=False),
        Binding("l", "log_y", "ui.key.log_y", show=False),
        Binding("w", "window", "ui.key.window", show=False),
        Binding("v", "overview", "ui.key.overview"),
        Binding("k", "copy_config", "ui.key.copy_config", show=False),
        Binding("y", "system", "ui.key.system", show=False),
        Binding("escape", "back", "ui.key.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.job: Job | None = None
        self.metric_index = 0
        self.x_axis = "step"  # or "samples"
        self.grid_mode = False
        self._seen_data: tuple[Any, ...] = ()
        self._seen_view: tuple[Any, ...] = ()
        self._last_plot = 0.0
        self.plot_interval_s = PLOT_INTERVAL_S
        self._log_tail: LogTail | None = None
        self._log_request = 0
        self._log_worker: Worker[None] | None = None
        self._eta = EtaClock()
        self._controls_for: tuple[object, ...] = ()
        self._kit_log = False  # the followed run is a kit's log (``attach``): it has no system samples

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="monitor-title")  # no run: the plot says so, once
        with Horizontal(id="monitor-main"):
            yield RunsSidebar(id="monitor-runs")
            yield BraillePlot(id="monitor-plot")
            yield ChartGrid(id="monitor-grid")
            yield MonitorSide()
        yield OverviewPane(id="monitor-overview")  # v: shown in place of the curves
        yield SystemPane(id="monitor-system")
        with VerticalScroll(id="monitor-failure", classes="panel error-panel"):
            yield InertStatic(id="monitor-failure-text")  # the run's error and traceback
        yield WrappedLog(id="monitor-log", max_lines=2000)  # the run's output, a kit's log: outside text
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#monitor-failure").display = False
        self.query_one("#monitor-side").display = False  # no metrics yet: the plot takes the width
        self.query_one(ChartGrid).display = False  # g: every metric as a chart
        self.query_one(OverviewPane).display = False
        self.query_one("#monitor-plot", BraillePlot).empty_text = t("ui.monitor.no_run_selected")
        interval = 1.0 if self.wb.low_bandwidth else 0.5
        if self.wb.low_bandwidth:
            self.plot_interval_s = 2.0
        self._timer = self.set_interval(interval, self.tick)
        self.tick()

    def on_screen_resume(self) -> None:
        # Textual's auto-focus (just before this) takes the first focusable widget, even one inside a
        # pane hidden by the overview or the grid toggle.
        self._keep_focus_visible()
        if self.is_mounted:
            self._timer.resume()
            self.tick()

    def on_resize(self) -> None:
        """The title's progress bar is sized to the width: redrawn at once, not at the next tick."""
        if self.job is not None and self.is_mounted:
            self._render_title(self.job)

    def on_screen_suspend(self) -> None:
        """Another mode shown (Textual sends no Hide to a screen): a hidden monitor costs nothing."""
        self._timer.pause()

    # -- following a job ------------------------------------------------------------------------

    def _follow(self, job: Job | None) -> None:
        # Overlays were chosen against the previous run's axes: a new run starts clean.
        cleared = self.query_one(RunsSidebar).follow(job.run_id if job is not None else None)
        if cleared:
            self.notify(t("ui.overlay.cleared", count=cleared))
        self.job = job
        self._kit_log = job is not None and is_linked(job.run_dir)
        self._seen_data = self._seen_view = ()
        self._log_tail = LogTail(job.log_path) if job is not None else None
        self._log_request = self.wb.requests.new("monitor-log")  # a read for the previous run is dropped
        self._eta.clear()
        if job is not None and self.x_axis == "samples" and batch_size(job.config) is None:
            self.x_axis = "step"
        self.query_one(Log).clear()
        self.query_one(ChartGrid).clear()
        self.query_one("#monitor-plot", BraillePlot).clear_cursor()  # it read the previous run
        if job is None:
            self.query_one("#monitor-title", Static).update("")
        self.query_one("#monitor-failure").display = False
        self.query_one("#monitor-plot", BraillePlot).empty_text = t(
            "ui.monitor.no_data" if job is not None else "ui.monitor.no_run_selected"
        )
        self.refresh_bindings()

    def metric_names(self) -> list[str]:
        if self.job is None:
            return []
        names = self.job.metrics.names()
        head = [n for n in ("loss",) if n in names]
        train = [n for n in names if n not in head and not n.startswith("eval/")]
        return head + train + [n for n in names if n.startswith("eval/")]

    def current_metric(self) -> str | None:
        names = self.metric_names()
        return names[self.metric_index % len(names)] if names else None

    def tick(self) -> None:
        target = self.wb.monitor_target
        if target is not self.job:
            self._follow(target)
        job = self.job
        self.query_one(SystemPane).show_from(
            job.metrics if job else None, done=job is None or job.done, kit_log=self._kit_log
        )
        if job is None:
            return
        last = job.metrics.last_step.get(0)
        if not job.done:
            self._eta.observe(time.monotonic(), last, job.paused)
        controls = (job.done, job.paused)
        if controls != self._controls_for:
            self._controls_for = controls
            self.refresh_bindings()  # s / p / c only while the run can take them
        data = (job.metrics.samples, len(job.lifecycle), job.paused, self.query_one(RunsSidebar).samples())
        view = (
            self.metric_index, self.x_axis, self.query_one(RunsSidebar).generation,
            self.app.theme, self.size, self.grid_mode, self._compare_metric(), self.query_one(ChartGrid).view,
        )  # fmt: skip
        if data == self._seen_data and view == self._seen_view:
            if self.grid_mode:
                self.query_one(ChartGrid).refresh_visible()  # charts still waiting for their turn
            self._tail_log()
            return
        self._render_title(job)  # cheap: one line, every tick
        now = time.monotonic()
        # Curves and the metrics table cost Python time under the GIL the training thread shares:
        # redraw them at most once per PLOT_INTERVAL_S while data streams in, at once for a view change
        # or when the run has ended (docs/paddle-notes.md, "Redraws cost the training thread").
        if view != self._seen_view or job.done or now - self._last_plot >= self._plot_interval():
            self._last_plot = now
            self._seen_data, self._seen_view = data, view
            if self.grid_mode:
                self._render_grid(job)
            else:
                self._render_plot(job)
            self._render_side(job)
            self._render_failure(job)
            self.query_one(OverviewPane).follow(job)  # returns at once while hidden
        elif self.grid_mode and not self.wb.low_bandwidth:
            self.query_one(ChartGrid).refresh_visible()  # the charts whose turn it is, between redraws
        self._tail_log()

    def _plot_interval(self) -> float:
        """Seconds between redraws while data streams in; the grid in low-bandwidth mode waits longer
        (twelve charts redrawn at once would pass the 10 KB/s budget at 2 s)."""
        if self.grid_mode and self.wb.low_bandwidth:
            return GRID_LOW_BANDWIDTH_INTERVAL_S
        return self.plot_interval_s

    def _eta_text(self, job: Job, last: int, total: int) -> str:
        remaining = None if job.done else self._eta.remaining_s(last, total)
        return "" if remaining is None else t("ui.monitor.eta", eta=format_eta(remaining))

    def _render_title(self, job: Job) -> None:
        status = "paused" if job.paused and not job.done else job.status
        color = self.wb.theme_variable(STATUS_VARIABLE.get(status, "status-warn"))
        last = job.metrics.last_step.get(0)
        title = Text.assemble((f"{inert(job.run_id)}  ", "bold"), status_text(status, color), "   ")
        total = job.total_steps
        if last is not None and total:
            cells = PROGRESS_CELLS if self.size.width >= 110 else PROGRESS_CELLS // 3  # 80 columns: keep ETA
            title.append(
                f"{progress_bar(last, total, cells)} {t('ui.monitor.step_of', step=last, total=total)}"
            )
            title.append(f"  {self._eta_text(job, last, total)}", style="dim")
        else:
            title.append(t("ui.monitor.step", step=last if last is not None else "—"))
        label = "ui.monitor.x_samples_label" if self.x_axis == "samples" else "ui.monitor.x_steps_label"
        title.append("   " + t(label), style="dim")
        view = self.query_one(ChartGrid).view
        if self.grid_mode and view != CurveView():  # how the charts read their curves: m, l, w
            title.append("   " + curve_view_brief(view), style="dim")
        self.query_one("#monitor-title", Static).update(title, layout=False)  # one row: no reflow per tick

    def _x(self, steps: npt.NDArray[np.int64], config: Mapping[str, Any]) -> npt.NDArray[np.float64]:
        """The followed run's steps on the x axis (``x`` is offered for samples only with a batch size)."""
        x = aligned_x(steps, config, self._axis())
        return x if x is not None else steps.astype(np.float64)

    def _render_plot(self, job: Job) -> None:
        name = self.current_metric()
        plot = self.query_one("#monitor-plot", BraillePlot)
        if name is None:
            plot.set_series([])
            return
        series = []
        ranks = job.metrics.ranks() or [0]
        for rank in ranks:
            s = job.metrics.series(name, rank)
            if s is not None and len(s):
                steps, values = s.arrays()
                color = self.wb.theme_variable(f"rank-{rank % 4}" if len(ranks) > 1 else "loss-train")
                label = f"{name} r{rank}" if len(ranks) > 1 else name
                series.append(PlotSeries(label, self._x(steps, job.config), values, color))
        if name == "loss":
            val = job.metrics.series("eval/loss")
            if val is not None and len(val):
                steps, values = val.arrays()
                color = self.wb.theme_variable("loss-val")
                series.append(PlotSeries("eval/loss", self._x(steps, job.config), values, color))
        for run in self.query_one(RunsSidebar).overlays.values():
            other = run.metrics.series(name)
            x = aligned_x(other.arrays()[0], run.config, self._axis()) if other is not None else None
            if other is not None and x is not None and len(x):
                label = run.run_id  # the whole id (the metric is the plot's): the legend wraps, never cuts it
                color = self.wb.theme_variable(f"run-{run.color}")
                series.append(PlotSeries(label, x, other.arrays()[1], color, reading=""))
        plot.x_name = t(f"ui.axis.{self._axis()}")
        plot.set_series(series)

    def _render_grid(self, job: Job) -> None:
        colors = ("loss-train", "loss-val", "partial", "rank-2")
        sidebar = self.query_one(RunsSidebar)
        overlays = [
            GridOverlay(
                run.run_id,
                run.metrics,
                partial(aligned_x, config=run.config, axis=self._axis()),
                self.wb.theme_variable(f"run-{run.color}"),
            )
            for run in sidebar.overlays.values()
        ]
        self.query_one(ChartGrid).update_from(
            GridSource(
                store=job.metrics,
                x=lambda steps: self._x(steps, job.config),
                color=lambda index: self.wb.theme_variable(colors[index % len(colors)]),
                overlays=overlays,
                generation=sidebar.generation,
                x_name=t(f"ui.axis.{self._axis()}"),
            )
        )

    def _render_side(self, job: Job) -> None:
        view = SideView(self.current_metric(), self._compare_metric(), self.grid_mode, self._axis())
        self.query_one(MonitorSide).show(job, view, self.query_one(RunsSidebar))

    def _axis(self) -> Literal["step", "samples"]:
        return "samples" if self.x_axis == "samples" else "step"

    def _compare_metric(self) -> str | None:
        """The metric the comparison table shows: the plotted one, or the focused (enlarged) chart's."""
        if not self.grid_mode:
            return self.current_metric()
        grid = self.query_one(ChartGrid)
        focused = self.focused.group.key if isinstance(self.focused, Chart) else None
        return grid.enlarged or focused or next(iter(grid.charts), None)

    def _render_failure(self, job: Job) -> None:
        result = job.result
        panel = self.query_one("#monitor-failure")
        if isinstance(result, RunFailed):
            if job.status == "interrupted":  # the writer died: the run list's word, not "failed"
                text = result.error
            else:
                text = f"{t('ui.monitor.failed', error=result.error)}\n\n{result.traceback.rstrip()}"
            self.query_one("#monitor-failure-text", Static).update(text)
            panel.display = True
        else:
            panel.display = False

    def _tail_log(self) -> None:
        """Ask for what the run's log (``logs.txt``, a linked kit log's own file) gained: one read at a
        time, on a worker thread (file I/O never runs on the UI thread)."""
        tail = self._log_tail
        if tail is None or (self._log_worker is not None and not self._log_worker.is_finished):
            return
        self._log_worker = self._read_log(tail, self._log_request)

    @work(thread=True, exit_on_error=False, group="monitor-log", description="worker.monitor_log")
    def _read_log(self, tail: LogTail, request: int) -> None:
        self.post_message(LogTailRead(text=tail.read(), request=request))

    @on(LogTailRead)
    def _log_read(self, message: LogTailRead) -> None:
        if self.wb.requests.is_current(message) and message.text:
            self.query_one(Log).write(message.text)

    # -- actions --------------------------------------------------------------------------------

    def action_metric(self, delta: int) -> None:
        self.metric_index += delta
        self.tick()

    def action_x_axis(self) -> None:
        if self.x_axis == "step" and (self.job is None or batch_size(self.job.config) is None):
            self.notify(t("ui.monitor.x_no_samples"), severity="warning")
            return
        self.x_axis = "samples" if self.x_axis == "step" else "step"
        for run in self.query_one(RunsSidebar).overlays.values():
            if self.x_axis == "samples" and batch_size(run.config) is None:
                self.notify(t("ui.overlay.no_samples", run=run.run_id), severity="warning")
        for plot in self.query(BraillePlot):
            plot.cursor_x = None  # it stood on the other axis
        self.tick()

    def action_grid(self) -> None:
        """Every metric as a chart (g), or the one-metric plot again."""
        self.grid_mode = not self.grid_mode
        self.query_one("#monitor-plot", BraillePlot).display = not self.grid_mode
        self.query_one(ChartGrid).display = self.grid_mode
        # A short log under the grid: a class on the log alone (one on the screen restyles every widget).
        self.query_one("#monitor-log").set_class(self.grid_mode, "-short")
        if self.grid_mode:
            self.query_one("#monitor-side").display = False  # the chart titles carry the latest values
        self._keep_focus_visible()
        self.tick()

    def _keep_focus_visible(self) -> None:
        """Blur a widget that a toggle just hid: keys typed next must reach the screen's bindings, not
        a filter box or chart the user can no longer see."""
        focused = self.focused
        if focused is None:
            return
        for node in focused.ancestors_with_self:
            if node is self:
                return
            if not node.display:
                self.set_focus(None)
                return

    def _leave_overview(self) -> None:
        """The curves (and the runs sidebar beside them) back in place of the overview."""
        if self.query_one(OverviewPane).display:
            self.action_overview()

    def action_overview(self) -> None:
        """v: the run overview (config, environment, summary, alerts) in place of the curves, and back."""
        pane = self.query_one(OverviewPane)
        pane.display = not pane.display
        self.query_one("#monitor-main").display = not pane.display
        self._keep_focus_visible()
        pane.follow(self.job)

    def action_copy_config(self) -> None:
        """k: the resolved config to the clipboard and to ``<run>/config.copy.yaml``."""
        self.query_one(OverviewPane).follow(self.job)
        self.query_one(OverviewPane).copy_config()

    def action_system(self) -> None:
        """y: the system pane (CPU, the run's memory, every GPU), and back."""
        self.query_one(SystemPane).toggle()
        self.tick()

    def _set_curve_view(self, **change: Any) -> None:
        from dataclasses import replace

        grid = self.query_one(ChartGrid)
        view = replace(grid.view, **change)
        grid.set_view(view)
        if self.job is not None:
            self._render_title(self.job)  # the title row names the view
        self.notify(curve_view_text(view))

    def action_smoothing(self) -> None:
        """m: EMA smoothing weight 0 → 0.6 → 0.9 → 0.99 (raw curve kept faint beside it)."""
        steps = SMOOTHING_STEPS
        current = self.query_one(ChartGrid).view.smoothing
        self._set_curve_view(
            smoothing=steps[(steps.index(current) + 1) % len(steps)] if current in steps else 0.0
        )

    def action_log_y(self) -> None:
        """l: log-scale y on every chart, and back."""
        self._set_curve_view(log_y=not self.query_one(ChartGrid).view.log_y)

    def action_window(self) -> None:
        """w: the whole run, then the last 100 / 1000 / 10000 steps."""
        steps = WINDOW_STEPS
        current = self.query_one(ChartGrid).view.window
        self._set_curve_view(
            window=steps[(steps.index(current) + 1) % len(steps)] if current in steps else None
        )

    def action_enlarge(self) -> None:
        """Enlarge the focused chart of the grid to the whole area (z), and back."""
        grid = self.query_one(ChartGrid)
        if not self.grid_mode:
            return
        if grid.enlarged is not None:
            grid.enlarge(None)
            return
        focused = self.focused
        key = getattr(getattr(focused, "group", None), "key", None)
        grid.enlarge(key or next(iter(grid.charts), None))

    def action_overlay(self) -> None:
        """o: overlay one run from a quick picker (the same overlays the runs sidebar keeps; it fits an
        80-column terminal where the sidebar would squeeze the plot); with runs overlaid, o clears them."""
        sidebar = self.query_one(RunsSidebar)
        if sidebar.overlays:
            sidebar.clear()
            return
        current = self.job.run_id if self.job is not None else None
        runs = [
            (r.run_id, f"{r.run_id}  {t('status.' + r.status)}")
            for r in self.wb.store.list()
            if r.run_id != current
        ]
        self.app.push_screen(RunPickerScreen(t("ui.monitor.overlay_title"), runs), self._overlay_chosen)

    def _overlay_chosen(self, run_id: str | None) -> None:
        if run_id:
            self.query_one(RunsSidebar).toggle(run_id)

    @on(RunsSidebar.Changed)
    def _overlays_changed(self) -> None:
        self.tick()

    @on(RunsChanged)
    def _runs_changed(self) -> None:
        """A run started or was attached in this app: the shown sidebar lists it at once."""
        sidebar = self.query_one(RunsSidebar)
        if sidebar.display:
            sidebar.reload()

    def action_runs(self) -> None:
        """r: the runs sidebar (read afresh each time it opens), and away again."""
        self._leave_overview()
        sidebar = self.query_one(RunsSidebar)
        sidebar.set_shown(not sidebar.display)
        self._keep_focus_visible()

    def action_filter_runs(self) -> None:
        """/: the sidebar's filter (the sidebar opens first if it is hidden)."""
        self._leave_overview()
        sidebar = self.query_one(RunsSidebar)
        if not sidebar.display:
            self.action_runs()
        sidebar.query_one("#runs-filter").focus()

    def _cursor_plot(self) -> BraillePlot | None:
        if not self.grid_mode:
            return self.query_one("#monitor-plot", BraillePlot)
        grid = self.query_one(ChartGrid)
        if grid.enlarged is not None:
            return grid.charts[grid.enlarged]
        return self.focused if isinstance(self.focused, Chart) else next(iter(grid.charts.values()), None)

    def action_cursor(self, cells: int) -> None:
        """, and . move a cursor on the plot (the focused or enlarged chart in the grid) one column, < and
        > ten; it reads every curve there. The first press puts it on the newest point."""
        plot = self._cursor_plot()
        if plot is not None:
            plot.move_cursor(cells)

    def action_back(self) -> None:
        self.app.switch_mode("runs")


def curve_view_brief(view: CurveView) -> str:
    """What the charts do to their curves beyond the default (raw, linear, whole run), short enough for
    the title row at 120 columns: ``charts: smoothing 0.9 · log y``."""
    parts = [t("ui.chart.smoothing_on", weight=f"{view.smoothing:g}")] if view.smoothing else []
    parts += [t("ui.chart.log_y")] if view.log_y else []
    parts += [t("ui.chart.last_steps", steps=view.window)] if view.window else []
    return t("ui.chart.view_brief", settings=" · ".join(parts))


def curve_view_text(view: CurveView) -> str:
    """How the charts read their curves, in words: the smoothing weight, the y scale and the window."""
    smoothing = f"{view.smoothing:g}" if view.smoothing else t("ui.chart.off")
    window = t("ui.chart.last_steps", steps=view.window) if view.window else t("ui.chart.whole_run")
    scale = t("ui.chart.scale_log" if view.log_y else "ui.chart.scale_linear")
    return t("ui.chart.view", smoothing=smoothing, scale=scale, window=window)
