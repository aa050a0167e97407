"""The chart grid: every metric of a run gets a chart, related series share one.

:func:`group_metrics` decides the charts: ``loss`` with ``eval/loss``, each other eval metric, the
learning rate, throughput, step time split into data wait and compute, memory, every other metric on
its own, then the system series (``sys/*``, :mod:`workbench.runner.system_sampler`): CPU, the run's RSS,
and per GPU its utilisation, memory used with total, temperature and power. :class:`ChartGrid` lays them out two to four to a row (by width; three at 120 columns, so 12 fit on screen),
scrolls with the keys, and can enlarge one chart to the whole area and back. A chart redraws only when
its own series grew and only while it is visible: a chart scrolled out of view is marked stale and drawn
when it comes back. While a run streams, the focused (or enlarged) chart is redrawn at most once a second
and the others every 4 s, from envelopes fed with the new points only (``workbench.metric_envelope``):
the UI thread's CPU budget, measured by ``benchmarks/grid_ui_cpu.py``. Each chart's title carries the
latest value of its headline series (:func:`chart_title`), the bottom border the legend of a chart with two series or more; the plot has 4 labelled
y ticks and 3–5 round x ticks (``1.2k``, ``3.4M``).

Reading curves (:class:`CurveView`): EMA smoothing with the raw curve kept faint beside it (weights
:data:`SMOOTHING_STEPS`), log-scale y, and a window of the last N steps (:data:`WINDOW_STEPS`) or the whole
run.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.style import Style
from rich.text import Text
from textual.containers import Grid, VerticalScroll

from workbench.formatting import format_glance
from workbench.i18n import t
from workbench.metric_envelope import MAX_BUCKETS, Envelope, SmoothedEnvelope, ema_carry
from workbench.metric_store import MetricSeries, MetricStore
from workbench.runner.system_sampler import gpu_indices
from workbench.screens.widgets.plot import BraillePlot, PlotSeries

Floats = npt.NDArray[np.float64]

STEP_TIME = ("data_wait_ms", "compute_ms", "step_ms")
MEMORY_HEADLINE = ("gpu_alloc_mib", "host_rss_mib", "rss_mib")
"""The memory chart's title shows the first of these the run records: the GPU's allocated memory on a
GPU run, the process's resident memory on a CPU one."""
THROUGHPUT = ("samples_per_s", "tokens_per_s")
Y_TICKS = 4
X_TICKS = 5
"""At most this many round x values are labelled (3 at the least where the range has them)."""
MAX_DRAWS_PER_PASS = 3
"""Charts redrawn per pass at most: the monitor passes every tick (0.5 s), so no single tick pays for
twelve charts (UI lag); :data:`CHART_INTERVAL_S` sets how fresh each one is kept."""
CHART_INTERVAL_S = 4.0
"""A chart that is neither focused nor enlarged is redrawn at most this often while data streams in."""
FOCUSED_INTERVAL_S = 1.0
"""The focused (or enlarged) chart, the one being read, at most this often."""
CHART_HEIGHT = 8
"""Rows per chart in the grid (the ``Chart`` CSS height): a border, 4 plot rows, the axis and its ticks."""
WIDE, WIDER = 96, 180
"""Grid widths (cells) from which 3 and 4 charts share a row."""


@dataclass(frozen=True)
class ChartGroup:
    """One chart: its key (the first series' name), title and the series it draws."""

    key: str
    title: str
    names: tuple[str, ...]
    title_args: tuple[tuple[str, str], ...] = ()
    """Placeholders of a catalog title (``("index", "0")`` for a GPU's charts)."""
    headline: str = ""
    """The series whose latest value the title shows, named there, where the title alone does not say
    which of its series that is: the whole step's time rather than its data wait, the process's resident
    memory rather than its allocator's. Empty: the first series, which the title names already (``loss``
    over loss and eval/loss; ``used / total``)."""

    @property
    def shown(self) -> str:
        """The series the title's value is of."""
        return self.headline or self.names[0]


def group_metrics(names: Sequence[str]) -> list[ChartGroup]:
    """The charts for a run's metric names, in a stable order (loss first, ``sys/*`` last)."""
    present = set(names)
    groups: list[ChartGroup] = []
    used: set[str] = set()

    def add(title: str, members: Sequence[str], headline: Sequence[str] = (), **args: str) -> None:
        chosen = tuple(n for n in members if n in present and n not in used)
        if chosen:
            used.update(chosen)
            lead = next((n for n in headline if n in chosen), chosen[0]) if headline else ""
            groups.append(ChartGroup(chosen[0], title, chosen, tuple(args.items()), lead))

    add("loss", ["loss", "eval/loss"])  # titles of groups are catalog keys when they start with "ui."
    for name in sorted(n for n in present if n.startswith("eval/")):
        add(name, [name])
    add("lr", ["lr"])
    add("ui.chart.throughput", [n for n in THROUGHPUT])
    add("ui.chart.step_time", [n for n in STEP_TIME], headline=["step_ms"])
    memory = sorted(n for n in present if n.endswith("_mib") and not n.startswith("sys/"))
    add("ui.chart.memory", memory, headline=MEMORY_HEADLINE)
    for name in sorted(n for n in present if not n.startswith("sys/")):
        add(name, [name])
    add("ui.chart.sys_cpu", ["sys/cpu_percent"])
    add("ui.chart.sys_rss", ["sys/rss_mb"])
    for index in gpu_indices(present):
        gpu = f"sys/gpu{index}/"
        add("ui.chart.gpu_util", [gpu + "util"], index=str(index))
        add("ui.chart.gpu_memory", [gpu + "mem_used_mb", gpu + "mem_total_mb"], index=str(index))
        add("ui.chart.gpu_temp", [gpu + "temp_c"], index=str(index))
        add("ui.chart.gpu_power", [gpu + "power_w"], index=str(index))
    for name in sorted(n for n in present if n.startswith("sys/")):
        add(name, [name])
    return groups


class Chart(BraillePlot):
    """A titled plot of one :class:`ChartGroup`; focusable so it can be enlarged."""

    can_focus = True
    DEFAULT_CSS = """
    Chart { height: 8; min-height: 6; border: round $panel-border; padding: 0 0; }
    Chart:focus { border: round $accent; }
    Chart.-enlarged { height: 1fr; }
    """

    def __init__(self, group: ChartGroup) -> None:
        super().__init__(classes="chart")
        self.group = group
        self.y_ticks = Y_TICKS
        self.x_ticks = X_TICKS
        self.legend = False  # in the bottom border, and only where a chart has two series or more
        self.data_key: tuple[int, ...] = ()
        self.stale = True
        self.drawn_at = float("-inf")
        self._title = ""
        self._legend_for: tuple[tuple[str, str], ...] = ()

    def on_blur(self) -> None:
        """The cursor's keys now move another chart's cursor: this one's readout would go stale."""
        self.clear_cursor()

    def set_title(self, text: str) -> None:
        if text != self._title:  # setting a border title repaints the chart even when it is the same
            self._title = text
            self.border_title = text

    def set_series(self, series: list[PlotSeries]) -> None:
        super().set_series(series)
        named = tuple((s.label, s.color) for s in series if s.label and len(s.y))
        if named != self._legend_for:
            self._legend_for = named
            legend = Text()
            if len(named) > 1:
                labels = [label for label, _ in named]
                unit = common_unit(labels)  # data_wait_ms, compute_ms → data_wait, compute: it fits
                for index, (label, color) in enumerate(named):
                    legend.append(" ● " if index else "● ", style=Style.parse(color))
                    legend.append(label[: len(label) - len(unit)])
            self.border_subtitle = legend if legend else None


def chart_title(group: ChartGroup, store: MetricStore) -> str:
    """A chart's title: its name and the latest value of its headline series, named where the chart
    draws several (``step time  step 379``: the value is the step's, not its data wait's); a chart
    without a headline shows its first series', which its title names."""
    last = store.series(group.shown)
    latest = last.last() if last is not None else None
    value = format_glance(latest[1]) if latest is not None else "—"
    title = t(group.title, None, **dict(group.title_args)) if group.title.startswith("ui.") else group.title
    drawn = [n for n in group.names if store.series(n) is not None]
    if group.headline and len(drawn) > 1:
        value = f"{group.headline[: len(group.headline) - len(common_unit(drawn))]} {value}"
    return f"{title}  {value}"


def common_unit(labels: Sequence[str]) -> str:
    """The ``_unit`` suffix every label shares (``_ms``, ``_mib``), or "" — a legend can drop it."""
    suffixes = {label.rsplit("_", 1)[-1] for label in labels if "_" in label}
    if len(suffixes) != 1 or not all("_" in label for label in labels):
        return ""
    return "_" + suffixes.pop()


@dataclass(frozen=True)
class GridOverlay:
    """Another run drawn on every chart (its first series, in its own colour): the runs sidebar's choice.

    ``x`` places its steps on the shared axis, ``None`` when it cannot be (no batch size for samples)."""

    run_id: str
    store: MetricStore
    x: Callable[[npt.NDArray[Any]], npt.NDArray[np.float64] | None]
    color: str


@dataclass
class GridSource:
    """What the grid draws from: the store, how steps become x, and a colour per series index; the
    overlaid runs, and ``generation``, which changes whenever they (or their alignment) change."""

    store: MetricStore
    x: Callable[[npt.NDArray[Any]], npt.NDArray[np.float64]]
    """Steps (integer, or the float steps of an envelope's buckets) to x values."""
    color: Callable[[int], str]
    overlays: Sequence[GridOverlay] = ()
    generation: int = 0
    x_name: str = ""


class ChartGrid(VerticalScroll):
    """Every metric as a chart in a scrollable grid; ``enlarge(key)`` shows one chart alone."""

    DEFAULT_CSS = """
    ChartGrid { height: 1fr; }
    ChartGrid > Grid { grid-size: 2; grid-rows: 8; grid-gutter: 0 1; height: auto; }
    ChartGrid.-wide > Grid { grid-size: 3; }
    ChartGrid.-wider > Grid { grid-size: 4; }
    ChartGrid.-enlarged > Grid { grid-size: 1; grid-rows: 1fr; height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.charts: dict[str, Chart] = {}
        self.enlarged: str | None = None
        self.view = CurveView()
        self.max_draws = MAX_DRAWS_PER_PASS
        self.clock: Callable[[], float] = time.monotonic
        """Where redraw intervals are read from (tests pass their own)."""
        self._turn = 0
        self.redraws = 0
        """How many chart redraws happened (tests and the benchmark read it)."""
        self._source: GridSource | None = None
        self._envelopes: dict[tuple[str, float | None], tuple[MetricSeries, Envelope]] = {}
        self._readings: dict[tuple[str, float, int], float] = {}
        self._generation = 0

    def compose(self):  # type: ignore[no-untyped-def]
        yield Grid(id="chart-grid-cells")

    def on_resize(self) -> None:
        self.set_class(self.size.width >= WIDE, "-wide")  # 120 columns: three charts a row, 12 on screen
        self.set_class(self.size.width >= WIDER, "-wider")
        self.refresh_visible(all_now=True)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self.call_after_refresh(lambda: self.refresh_visible(all_now=True))  # what scrolled into view

    def clear(self) -> None:
        for chart in self.charts.values():
            chart.remove()
        self.charts.clear()
        self._envelopes.clear()  # another run: its series are other objects
        self._readings.clear()
        self.enlarged = None
        self.remove_class("-enlarged")

    def update_from(self, source: GridSource) -> None:
        """Add charts for new metrics and redraw the visible ones whose data changed."""
        self._source = source
        if source.generation != self._generation:  # other runs overlaid or aligned anew: redraw all
            self._generation = source.generation
            for chart in self.charts.values():
                chart.stale = True
        groups = group_metrics(source.store.names())
        cells = self.query_one("#chart-grid-cells", Grid)
        new = [Chart(g) for g in groups if g.key not in self.charts]
        for chart in new:
            self.charts[chart.group.key] = chart
            chart.display = self.enlarged is None or chart.group.key == self.enlarged
        if new:  # drawn once laid out: only then is it known which ones are on screen
            cells.mount_all(new)
            self.call_after_refresh(lambda: self.refresh_visible(all_now=True))
            return
        self.refresh_visible()

    def columns(self) -> int:
        width = self.size.width
        return 4 if width >= WIDER else 3 if width >= WIDE else 2

    def visible_keys(self) -> set[str]:
        """The charts on screen, from the grid's own geometry (rows of :data:`CHART_HEIGHT`)."""
        if self.enlarged is not None:
            return {self.enlarged}
        height = self.size.height
        if height <= 0:
            return set()
        columns, top = self.columns(), self.scroll_y
        return {
            key
            for index, key in enumerate(self.charts)
            if (index // columns) * CHART_HEIGHT < top + height
            and (index // columns + 1) * CHART_HEIGHT > top
        }

    def refresh_visible(self, *, all_now: bool = False) -> None:
        """Redraw the visible charts whose data changed — :attr:`max_draws` of them per pass, in turn,
        unless ``all_now`` (a new view, a chart enlarged, the first picture)."""
        source = self._source
        if source is None:
            return
        store = source.store
        visible = self.visible_keys()
        now = self.clock()
        names = list(self.charts)
        start = self._turn % max(1, len(names))
        drawn = 0
        for name in names[start:] + names[:start]:  # round robin: every chart gets its turn
            chart = self.charts[name]
            series = [store.series(name) for name in chart.group.names]
            key = tuple(len(s) if s is not None else 0 for s in series)
            key += tuple(len(o.store.series(chart.group.names[0]) or ()) for o in source.overlays)
            if key == chart.data_key and not chart.stale:
                continue
            if name not in visible:
                chart.stale = True
                continue
            if not all_now and not chart.stale and now - chart.drawn_at < self._interval(chart):
                continue  # drawn recently enough: the others' turn (the UI thread's CPU budget)
            if drawn >= self.max_draws and not all_now:
                self._turn = names.index(name)  # the next pass starts here
                return
            drawn += 1
            plotted = []
            view = self.view
            for index, (name, s) in enumerate(zip(chart.group.names, series, strict=True)):
                if s is None or not len(s):
                    continue
                color = source.color(index)
                x, y, smooth = self._curves(name, s, source)
                summarised = self.view.window is None and len(s) > MAX_BUCKETS  # drawn from the envelope
                read = self._reader(name, s, source) if summarised else None
                if smooth is not None:
                    plotted.append(PlotSeries("", x, y, f"{color} dim"))  # the raw curve, faint, no legend
                    x, y = smooth
                plotted.append(PlotSeries(name, x, y, color, read=read))
            plotted += self._overlay_series(source.overlays, chart.group.names[0])
            chart.y_log = view.log_y
            chart.x_name = source.x_name
            chart.set_title(chart_title(chart.group, store))
            chart.set_series(plotted)
            chart.data_key, chart.stale, chart.drawn_at = key, False, now
            self.redraws += 1

    def _interval(self, chart: Chart) -> float:
        """Seconds a chart waits between redraws: the one being read is fresher than the rest."""
        if self.enlarged == chart.group.key or (self.is_attached and self.screen.focused is chart):
            return FOCUSED_INTERVAL_S
        return CHART_INTERVAL_S

    def _curves(
        self, name: str, series: MetricSeries, source: GridSource
    ) -> tuple[Floats, Floats, tuple[Floats, Floats] | None]:
        """What to draw of one series under the current view: ``(x, y, smoothed or None)``.

        The whole run comes from the series' :class:`Envelope` (and its EMA's), fed with the points
        that arrived since the last redraw, so a redraw costs the same at step 100 and at step 10
        million. A window of the last N steps reads only the chunks that hold it."""
        view = self.view
        if view.window is not None:
            steps, values = _window(series, source, view.window)
            x = source.x(steps)
            return x, values, ((x, ema(values, view.smoothing)) if view.smoothing > 0 else None)
        (ex, ey), smooth = self._envelope_points(name, series)
        if smooth is None:
            return source.x(ex), ey, None
        sx, sy = smooth
        return source.x(ex), ey, (source.x(sx), sy)

    def _envelope_points(
        self, key: str, series: MetricSeries
    ) -> tuple[tuple[Floats, Floats], tuple[Floats, Floats] | None]:
        """``(steps, values)`` of the series' envelope, and of its EMA's when the view smooths."""
        raw = self._envelope(key, series, None).points()
        smoothing = self.view.smoothing
        return raw, (self._envelope(key, series, smoothing).points() if smoothing > 0 else None)

    def _envelope(self, name: str, series: MetricSeries, weight: float | None) -> Envelope:
        """The envelope of ``name`` (its EMA's with ``weight``), brought up to date."""
        key = (name, weight)
        entry = self._envelopes.get(key)
        if entry is None or entry[0] is not series or entry[1].count > len(series):
            entry = (series, Envelope() if weight is None else SmoothedEnvelope(weight))
            self._envelopes[key] = entry
        envelope = entry[1]
        if envelope.count < len(series):
            steps, values = series.since(envelope.count)
            envelope.extend(steps, values)
        return envelope

    def _overlay_series(self, overlays: Sequence[GridOverlay], name: str) -> list[PlotSeries]:
        """Series ``name`` of each overlaid run, drawn from its own envelope like the followed run's
        (a window of the last N steps reads the points: :func:`overlay_series`)."""
        view = self.view
        if view.window is not None:
            return overlay_series(overlays, name, view)
        plotted = []
        for overlay in overlays:
            other = overlay.store.series(name)
            if other is None or not len(other):
                continue
            key = f"{overlay.run_id}\n{name}"  # a run id never holds a newline
            (ex, y), smooth = self._envelope_points(key, other)
            x = overlay.x(ex)
            if x is None:
                continue  # it cannot be placed on this axis (samples seen, no batch size)
            if smooth is not None:
                plotted.append(PlotSeries("", x, y, f"{overlay.color} dim"))
                sx, y = smooth
                x = overlay.x(sx)
                if x is None:
                    continue
            plotted.append(PlotSeries("", x, y, overlay.color, reading=""))
        return plotted

    def _reader(self, name: str, series: MetricSeries, source: GridSource) -> Callable[[float], float | None]:
        """The cursor's reading of a series drawn from its envelope: the point at or before x, found by
        bisecting the steps — smoothed when the view smooths (the EMA up to that point, computed once
        per cursor position: it never changes as the run grows)."""
        n = len(series)
        weight = self.view.smoothing
        readings = self._readings

        def read(at: float) -> float | None:
            index = bisect_right(range(n), at, key=lambda i: _x_of(series, source, i)) - 1
            if index < 0:
                return None
            if weight <= 0:
                return series.value_at(index)
            key = (name, weight, index)
            if key not in readings:
                readings[key] = float(ema_carry(series.since(0)[1][: index + 1], weight)[0][-1])
            return readings[key]

        return read

    def set_view(self, view: CurveView) -> None:
        """Smoothing, log scale or window changed: every chart is redrawn (the visible ones now)."""
        if view.smoothing != self.view.smoothing:  # the old weight's smoothed envelopes are done with
            self._envelopes = {k: v for k, v in self._envelopes.items() if k[1] is None}
            self._readings.clear()
        self.view = view
        for chart in self.charts.values():
            chart.stale = True
        self.refresh_visible(all_now=True)

    def enlarge(self, key: str | None) -> None:
        """Show only chart ``key`` over the whole area (``None``: the grid again)."""
        self.enlarged = key if key in self.charts else None
        self.set_class(self.enlarged is not None, "-enlarged")
        for name, chart in self.charts.items():
            chart.display = self.enlarged is None or name == self.enlarged
            chart.set_class(name == self.enlarged, "-enlarged")
            chart.stale = True
        self.refresh_visible(all_now=True)


# --------------------------------------------------------------------------- reading curves

SMOOTHING_STEPS = (0.0, 0.6, 0.9, 0.99)
"""EMA weights ``m`` cycles through (0: raw only)."""
WINDOW_STEPS = (None, 100, 1000, 10_000)
"""Zoom ``w`` cycles through: the whole run, then the last N steps."""


@dataclass(frozen=True)
class CurveView:
    """How curves are read: EMA weight (raw kept faint beside it), log-scale y, last-N-steps window."""

    smoothing: float = 0.0
    log_y: bool = False
    window: int | None = None


def ema(values: npt.NDArray[np.float64], weight: float) -> npt.NDArray[np.float64]:
    """Exponential moving average, debiased like TensorBoard's (the first points are not pulled to 0)."""
    return ema_carry(np.asarray(values, dtype=np.float64), weight)[0]


def _x_of(series: MetricSeries, source: GridSource, index: int) -> float:
    """Point ``index`` of ``series`` on the grid's x axis."""
    return float(source.x(np.array([series.step_at(index)], dtype=np.int64))[0])


def _window(
    series: MetricSeries, source: GridSource, window: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The points whose x lies within ``window`` of the last one, found by bisecting the (ascending)
    steps, so only the chunks that hold them are copied."""
    n = len(series)
    cutoff = _x_of(series, source, n - 1) - window
    start = bisect_left(range(n), cutoff, key=lambda i: _x_of(series, source, i))
    steps, values = series.since(start)
    keep = source.x(steps) >= cutoff  # steps that went back (a resumed run) stay out, as before
    return (steps, values) if keep.all() else (steps[keep], values[keep])


def overlay_series(overlays: Sequence[GridOverlay], name: str, view: CurveView) -> list[PlotSeries]:
    """Series ``name`` of each overlaid run as the chart draws it (no legend: the runs sidebar and the
    comparison table name the colours; the cursor reads them by colour)."""
    plotted = []
    for overlay in overlays:
        other = overlay.store.series(name)
        if other is None or not len(other):
            continue
        steps, values = other.arrays()
        shared = overlay.x(steps)
        if shared is None:
            continue
        x, y = apply_view(shared, values, view)
        if view.smoothing > 0:
            plotted.append(PlotSeries("", x, y, f"{overlay.color} dim"))
            y = ema(y, view.smoothing)
        plotted.append(PlotSeries("", x, y, overlay.color, reading=""))
    return plotted


def apply_view(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], view: CurveView
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The window of the last ``view.window`` steps of one series (smoothing is applied by the caller)."""
    if view.window is not None and len(x):
        keep = x >= x[-1] - view.window
        return x[keep], y[keep]
    return x, y
