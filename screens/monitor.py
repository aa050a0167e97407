"""Live training monitor: curves, latest values, lifecycle events, failure panel and the run's log.

It follows one :class:`~workbench.runner.Job` — started here, or a past/external run attached from
disk — and redraws on a timer (2 Hz, 1 Hz in low-bandwidth mode) only when something changed: the
training thread never calls into the UI.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

import numpy as np
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Log, Static

from workbench.events import AlertRaised, CheckpointSaved, RunFailed
from workbench.i18n import t
from workbench.runner import Job
from workbench.screens.base import WorkbenchScreen
from workbench.screens.formatting import STATUS_VARIABLE, format_value, status_text
from workbench.screens.widgets.plot import BraillePlot, PlotSeries

LOG_READ_LIMIT = 256_000


class MonitorScreen(WorkbenchScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "stop", t("ui.key.stop")),
        Binding("left_square_bracket", "metric(-1)", t("ui.key.prev_metric"), key_display="["),
        Binding("right_square_bracket", "metric(1)", t("ui.key.next_metric"), key_display="]"),
        Binding("escape", "back", t("ui.key.back")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.job: Job | None = None
        self.metric_index = 0
        self._seen: tuple[Any, ...] = ()
        self._log_offset = 0
        self._events_shown = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(t("ui.monitor.no_run"), id="monitor-title")
        with Horizontal(id="monitor-main"):
            yield BraillePlot(id="monitor-plot")
            with Vertical(id="monitor-side", classes="panel"):
                yield Static(id="monitor-values")
                yield Static(id="monitor-events")
        with VerticalScroll(id="monitor-failure", classes="panel error-panel"):
            yield Static(id="monitor-failure-text", markup=False)
        yield Log(id="monitor-log", max_lines=2000)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#monitor-failure").display = False
        self.query_one(BraillePlot).empty_text = t("ui.monitor.no_data")
        interval = 1.0 if getattr(self.app, "low_bandwidth", False) else 0.5
        self._timer = self.set_interval(interval, self.tick)
        self.tick()

    def on_show(self) -> None:
        self._timer.resume()
        self.tick()

    def on_hide(self) -> None:
        self._timer.pause()  # hidden plots cost nothing

    # -- following a job ------------------------------------------------------------------------

    def _follow(self, job: Job | None) -> None:
        self.job = job
        self._seen = ()
        self._log_offset = 0
        self._events_shown = 0
        self.query_one(Log).clear()
        self.query_one("#monitor-failure").display = False

    def metric_names(self) -> list[str]:
        if self.job is None:
            return []
        names = self.job.metrics.names()
        preferred = [n for n in ("loss",) if n in names]
        return (
            preferred
            + [n for n in names if n not in preferred and not n.startswith("eval/")]
            + [n for n in names if n.startswith("eval/")]
        )

    def tick(self) -> None:
        target = getattr(self.app, "monitor_target", None)
        if target is not self.job:
            self._follow(target)
        job = self.job
        if job is None:
            return
        state = (job.metrics.samples, len(job.lifecycle), self.metric_index, self.app.theme, self.size)
        if state != self._seen:
            self._seen = state
            self._render_title(job)
            self._render_plot(job)
            self._render_side(job)
            self._render_failure(job)
        self._tail_log(job)

    def _render_title(self, job: Job) -> None:
        color = self.wb.theme_variable(STATUS_VARIABLE.get(job.status, "status-warn"))
        last = job.metrics.last_step.get(0)
        title = Text.assemble(
            (f"{job.run_id}  ", "bold"),
            status_text(job.status, color),
            f"   {t('ui.monitor.step', step=last if last is not None else '—')}",
        )
        self.query_one("#monitor-title", Static).update(title)

    def _render_plot(self, job: Job) -> None:
        names = self.metric_names()
        plot = self.query_one(BraillePlot)
        if not names:
            plot.set_series([])
            return
        name = names[self.metric_index % len(names)]
        series = []
        ranks = job.metrics.ranks() or [0]
        for rank in ranks:
            s = job.metrics.series(name, rank)
            if s is not None and len(s):
                x, y = s.arrays()
                color = self.wb.theme_variable(f"rank-{rank % 4}" if len(ranks) > 1 else "loss-train")
                label = f"{name} r{rank}" if len(ranks) > 1 else name
                series.append(PlotSeries(label, x.astype(np.float64), y, color))
        if name == "loss":
            val = job.metrics.series("eval/loss")
            if val is not None and len(val):
                x, y = val.arrays()
                series.append(
                    PlotSeries("eval/loss", x.astype(np.float64), y, self.wb.theme_variable("loss-val"))
                )
        plot.set_series(series)

    def _render_side(self, job: Job) -> None:
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(t("ui.monitor.metric"))
        table.add_column(t("ui.monitor.value"), justify="right")
        names = self.metric_names()
        current = names[self.metric_index % len(names)] if names else None
        for name, value in job.metrics.latest().items():
            table.add_row(Text(name, style="bold" if name == current else ""), format_value(value))
        self.query_one("#monitor-values", Static).update(table)
        lines = []
        for event in job.lifecycle[-8:]:
            if isinstance(event, CheckpointSaved):
                lines.append(t("ui.monitor.event.checkpoint", step=event.step))
            elif isinstance(event, AlertRaised):
                lines.append(t("ui.monitor.event.alert", kind=event.kind, message=event.message))
        self.query_one("#monitor-events", Static).update("\n".join(lines))

    def _render_failure(self, job: Job) -> None:
        result = job.result
        panel = self.query_one("#monitor-failure")
        if isinstance(result, RunFailed):
            text = f"{t('ui.monitor.failed', error=result.error)}\n\n{result.traceback.rstrip()}"
            self.query_one("#monitor-failure-text", Static).update(text)
            panel.display = True
        else:
            panel.display = False

    def _tail_log(self, job: Job) -> None:
        path = job.run_dir / "logs.txt"
        try:
            size = os.path.getsize(path)
        except OSError:
            return
        if size <= self._log_offset:
            return
        with open(path, "rb") as fh:
            fh.seek(max(self._log_offset, size - LOG_READ_LIMIT))
            chunk = fh.read(size - self._log_offset)
        self._log_offset = size
        self.query_one(Log).write(chunk.decode("utf-8", "replace"))

    # -- actions --------------------------------------------------------------------------------

    def action_stop(self) -> None:
        if self.job is not None and not self.job.done:
            self.job.cancel()
            self.notify(t("ui.monitor.stopping"))

    def action_metric(self, delta: int) -> None:
        self.metric_index += delta
        self.tick()

    def action_back(self) -> None:
        self.app.switch_mode("runs")
