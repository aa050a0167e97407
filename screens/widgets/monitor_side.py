"""The live monitor's side panel: the followed run's latest values, its checkpoints and alerts, the rank
table of a multi-rank run and, with runs overlaid, each run's latest value against the pinned baseline.

The monitor hands it the run and what the user looks at (:class:`SideView`); the panel decides what is
worth showing and hides itself when nothing is (the plot then takes the width).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from workbench.compare_runs import AlignedSeries, aligned_x, compare_latest
from workbench.events import AlertRaised, CheckpointSaved, RunFailed
from workbench.i18n import t
from workbench.parallel.ranks import RankWatch
from workbench.runner import Job
from workbench.screens.formatting import format_value
from workbench.screens.inert import InertStatic, inert
from workbench.screens.widgets.compare_table import CompareTable
from workbench.screens.widgets.ranks import RankTable
from workbench.screens.widgets.runs_sidebar import RunsSidebar

if TYPE_CHECKING:
    from workbench.screens.app import WorkbenchApp


@dataclass(frozen=True)
class SideView:
    """What the monitor shows now: the plotted metric, the metric the comparison reads (the plotted one,
    or the focused chart's in the grid), whether the grid covers the panel, and the x axis."""

    current: str | None
    compared: str | None
    grid_mode: bool
    axis: Literal["step", "samples"]


class MonitorSide(Vertical):
    """Sized and spaced by the monitor's CSS (``#monitor-side``, ``#monitor-events``)."""

    def __init__(self) -> None:
        super().__init__(id="monitor-side", classes="panel")
        self._rank_watch = RankWatch()
        self._values_shape: tuple[int, int, int] | None = None
        self._events_text: str | None = None

    @property
    def wb(self) -> WorkbenchApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Static(id="monitor-values")
        yield InertStatic(id="monitor-events")  # alert text comes from the run
        yield RankTable(id="monitor-ranks")
        yield CompareTable(id="monitor-compare")

    def show(self, job: Job, view: SideView, sidebar: RunsSidebar) -> None:
        """Redraw from ``job``; the panel is shown when it has something to say (in the grid, only for a
        comparison: the chart titles carry the latest values)."""
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(t("ui.monitor.metric"))
        table.add_column(t("ui.monitor.value"), justify="right")
        latest = job.metrics.latest()
        name_width = value_width = 0
        for name, value in latest.items():
            if name.startswith("sys/"):
                continue  # the system pane (y) shows them
            style = "bold" if name == view.current else ""
            cells = (Text(inert(name), style=style), format_value(value))
            name_width, value_width = max(name_width, cells[0].cell_len), max(value_width, cell_len(cells[1]))
            table.add_row(*cells)
        if not view.grid_mode:  # hidden under the grid
            # A new value of the same shape takes the same rows: redrawn in place. A layout pass (the
            # whole screen, with the table measured again) only when a row or a wider cell could move
            # the lines: that pass was most of a key's cost in the monitor (``]``, escape from help).
            shape = (table.row_count, name_width, value_width)
            self.query_one("#monitor-values", Static).update(table, layout=shape != self._values_shape)
            self._values_shape = shape
        lines = []
        for event in job.lifecycle[-8:]:
            if isinstance(event, CheckpointSaved):
                lines.append(t("ui.monitor.event.checkpoint", step=event.step))
            elif isinstance(event, AlertRaised):
                lines.append(t("ui.monitor.event.alert", kind=event.kind, message=event.message))
        events = "\n".join(lines)
        if (not view.grid_mode or self.display) and events != self._events_text:  # unchanged: no redraw
            self.query_one("#monitor-events", Static).update(events)
            self._events_text = events
        ranks = self._show_ranks(job)
        compared = self._show_compare(job, view, sidebar)
        self.query_one("#monitor-values").display = not view.grid_mode
        self.display = (bool(latest or lines or ranks) and not view.grid_mode) or compared

    def _show_compare(self, job: Job, view: SideView, sidebar: RunsSidebar) -> bool:
        """Each run's latest value of the compared metric and its difference to the baseline."""
        name = view.compared
        runs = [(job.run_id, job.metrics, job.config, 0)]
        runs += [(r.run_id, r.metrics, r.config, r.color) for r in sidebar.overlays.values()]
        aligned, colours = [], {}
        for run_id, metrics, config, slot in runs:
            series = metrics.series(name) if name is not None else None
            x = aligned_x(series.arrays()[0], config, view.axis) if series is not None else None
            if series is not None and x is not None:
                aligned.append(AlignedSeries(run_id, x, series.arrays()[1]))
                colours[run_id] = self.wb.theme_variable(f"run-{slot}")
        rows = compare_latest(aligned, sidebar.baseline) if sidebar.overlays and name is not None else []
        colour: Callable[[str], str] = lambda run_id: colours.get(run_id, "")  # noqa: E731
        self.query_one(CompareTable).show(name or "", rows, colour, t(f"ui.axis.{view.axis}"))
        return bool(rows)

    def _show_ranks(self, job: Job) -> bool:
        """The rank table of a multi-rank run (hidden for one rank); whether it is shown."""
        ranks = job.metrics.ranks()
        widget = self.query_one(RankTable)
        widget.display = len(ranks) > 1
        if len(ranks) > 1:
            result = job.result
            rows = self._rank_watch.rows(
                job.metrics,
                job.run_dir,
                now=time.monotonic(),
                done=job.done,
                failed_rank=getattr(result, "rank", None) if isinstance(result, RunFailed) else None,
            )
            widget.show(rows, lambda rank: self.wb.theme_variable(f"rank-{rank % 4}"))
        return len(ranks) > 1
