"""A braille line plot drawn with numpy: cost is flat in history length and small at full screen.

Each terminal cell holds a 2×4 braille dot matrix. Series are min/max-decimated to the plot's dot
columns (``workbench.metric_store.decimate_minmax``), rasterised with vectorised numpy (every column gets
the vertical span between consecutive points, so spikes and steep drops stay visible), and turned into
one Rich ``Text`` per row. Rendering happens only when data or size changed (a dirty flag), and the rows
go to the screen as ready-made strips (the line API), so a redraw pays for no markup or wrapping pass.

Two axis styles: the default (the monitor's one-metric plot) labels the first and last x beside the
legend; ``x_ticks`` of 3 or more (the chart grid) puts 3–5 round x values under tick marks on the axis,
with short labels (``1.2k``, ``3.4M``), and leaves the legend to the caller (:attr:`BraillePlot.legend`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from workbench.metric_store import decimate_minmax

# Dot bit for (column-in-cell, row-in-cell) — the Unicode braille layout.
_BITS = np.array([[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]], dtype=np.uint16)
Y_LABEL_WIDTH = 9


@dataclass
class PlotSeries:
    label: str
    x: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]
    color: str
    reading: str | None = None
    """The series' name in the cursor's readout when it differs from ``label`` (``""``: the coloured dot
    alone, for an overlaid run the legend elsewhere names). A series with neither is not read (a faint
    raw curve beside its smoothed one)."""
    read: Callable[[float], float | None] | None = None
    """The series' value at an x, for the cursor, where ``x``/``y`` are a summary of it (the chart
    grid's min/max envelope of a long series); ``None``: read the drawn points."""


def _format_tick(value: float) -> str:
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e4 or magnitude < 1e-3:
        return f"{value:.2e}"
    return f"{value:.4g}"


def format_x(value: float) -> str:
    """An x value as the cursor reads it: a whole step or sample count in full (``12345``), anything
    else to 4 significant digits."""
    if math.isfinite(value) and value == round(value):
        return str(int(value))
    return _format_tick(value)


def x_ticks(series: list[PlotSeries], x0: float, x1: float, most: int) -> list[float]:
    """The x values to label: one where every point has the same x (a single eval point), whole
    values only where every x is whole (steps, samples), else :func:`nice_ticks`."""
    xs = [s.x[np.isfinite(s.x)] for s in series if len(s.x)]
    xs = [x for x in xs if len(x)]
    if xs and min(float(x.min()) for x in xs) == max(float(x.max()) for x in xs):
        return [x0]
    ticks = nice_ticks(x0, x1, most)
    if xs and all(bool(np.all(x == np.round(x))) for x in xs):
        whole = [v for v in ticks if v == round(v)]
        ticks = whole if whole else [float(round(x0)), float(round(x1))]
    return ticks


_SI = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def short_number(value: float, digits: int = 3) -> str:
    """A short label: SI suffixes from a thousand up (``1.2k``, ``3.4M``), ``digits`` significant
    digits, a compact exponent below 0.001 (``1.5e-5``)."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    magnitude = abs(value)
    for scale, suffix in _SI:
        if magnitude >= scale * 0.9995:
            text = f"{value / scale:.{digits}g}"
            return (text if "e" not in text else f"{value / scale:.0f}") + suffix
    if magnitude < 1e-3:
        mantissa, exponent = f"{value:.{max(0, digits - 2)}e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    return f"{value:.{digits}g}"


def short_labels(values: list[float]) -> list[str]:
    """Short labels for ``values``, with as few digits as keep neighbouring labels apart (3 to 8)."""
    labels = [short_number(v) for v in values]
    for digits in range(4, 9):
        if len(set(labels)) == len(set(values)):
            break
        labels = [short_number(v, digits) for v in values]
    return labels


def nice_ticks(x0: float, x1: float, most: int = 5) -> list[float]:
    """Round values (1, 2, 2.5 or 5 × 10^k apart) inside ``[x0, x1]``: the most that do not pass
    ``most``, at least 3 where the range allows."""
    span = x1 - x0
    if not (span > 0 and math.isfinite(span)):
        return [x0]
    base = 10.0 ** math.floor(math.log10(span / most))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0, 20.0, 25.0, 50.0):
        step = base * factor
        first = math.ceil(x0 / step - 1e-9)
        ticks = [k * step for k in range(first, math.floor(x1 / step + 1e-9) + 1)]
        if len(ticks) <= most:
            return ticks if len(ticks) >= 3 else [x0, (x0 + x1) / 2, x1]
    return [x0, (x0 + x1) / 2, x1]


def place_ticks(ticks: list[float], x0: float, x1: float, plot_w: int) -> list[tuple[int, int, str]]:
    """``(tick cell, label start, label)`` for ``ticks`` on a ``plot_w``-cell axis: each label centred
    under its tick and kept inside the axis, one blank cell at least between neighbours (a tick whose
    label would touch the previous one is left out)."""
    labels = short_labels(ticks)
    dots = plot_w * 2
    placed: list[tuple[int, int, str]] = []
    end = -2
    for value, label in zip(ticks, labels, strict=True):
        cell = int(round((value - x0) / (x1 - x0) * (dots - 1))) // 2 if x1 > x0 else 0
        cell = min(max(cell, 0), plot_w - 1)
        start = min(max(cell - (len(label) - 1) // 2, 0), plot_w - len(label))
        if start <= end + 1 or start < 0:
            continue
        placed.append((cell, start, label))
        end = start + len(label) - 1
    return placed


def rasterise(
    series: list[PlotSeries], cells_w: int, cells_h: int
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int16], tuple[float, float, float, float]]:
    """Braille bits and the owning series index per cell, plus the data bounds (x0, x1, y0, y1)."""
    dots_w, dots_h = cells_w * 2, cells_h * 4
    bits = np.zeros((cells_h, cells_w), dtype=np.uint16)
    owner = np.full((cells_h, cells_w), -1, dtype=np.int16)
    prepared = []
    for s in series:
        x, y = decimate_minmax(s.x, s.y, dots_w)
        if len(x):
            prepared.append((x, y))
        else:
            prepared.append((np.empty(0), np.empty(0)))
    xs = [p[0] for p in prepared if len(p[0])]
    ys = [p[1] for p in prepared if len(p[1])]
    if not xs:
        return bits, owner, (0.0, 1.0, 0.0, 1.0)
    x0, x1 = min(float(a.min()) for a in xs), max(float(a.max()) for a in xs)
    y0, y1 = min(float(a.min()) for a in ys), max(float(a.max()) for a in ys)
    if x1 == x0:
        x1 = x0 + 1.0
    if y1 == y0:
        y0, y1 = y0 - 0.5, y1 + 0.5
    for index, (x, y) in enumerate(prepared):
        if not len(x):
            continue
        fcols = (x - x0) / (x1 - x0) * (dots_w - 1)
        frows = (y1 - y) / (y1 - y0) * (dots_h - 1)
        if 1 < len(fcols) < dots_w:
            # Sparse history: sample the polyline at every dot column so the line has no gaps.
            dense = np.arange(int(round(fcols[0])), int(round(fcols[-1])) + 1, dtype=np.float64)
            frows = np.interp(dense, fcols, frows)
            fcols = dense
        cols = np.clip(fcols.round().astype(np.int64), 0, dots_w - 1)
        rows = np.clip(frows.round().astype(np.int64), 0, dots_h - 1)
        # Join consecutive points: each column covers the rows between its neighbours.
        if len(rows) > 1:
            lo = np.minimum(rows[:-1], rows[1:])
            hi = np.maximum(rows[:-1], rows[1:])
            seg_cols = cols[:-1]
        else:
            lo = hi = rows
            seg_cols = cols
        span = hi - lo + 1
        total = int(span.sum())
        offsets = np.arange(total) - np.repeat(np.cumsum(span) - span, span)
        dot_rows = np.repeat(lo, span) + offsets
        dot_cols = np.repeat(seg_cols, span)
        cell_r, cell_c = dot_rows // 4, dot_cols // 2
        np.bitwise_or.at(bits, (cell_r, cell_c), _BITS[dot_cols % 2, dot_rows % 4])
        owner[cell_r, cell_c] = index
    return bits, owner, (x0, x1, y0, y1)


def _legend_rows(shown: list[PlotSeries], width: int) -> list[list[PlotSeries]]:
    """The legend's entries packed into rows of ``width`` cells, in order; an entry wider than a row
    gets a row of its own (and only its end can be cut)."""
    rows: list[list[PlotSeries]] = [[]]
    used = 0
    for s in shown:
        cells = cell_len(f"● {s.label}  ")
        if rows[-1] and used + cells > width:
            rows.append([])
            used = 0
        rows[-1].append(s)
        used += cells
    return rows


class BraillePlot(Widget):
    """A multi-series line plot. Call :meth:`set_series`; it redraws only when something changed."""

    DEFAULT_CSS = """
    BraillePlot { height: 1fr; min-height: 6; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._series: list[PlotSeries] = []
        self._strips: list[Strip] = []
        self._rendered_for: tuple[int, int, int] | None = None
        self._version = 0
        self.empty_text = ""
        self.y_ticks = 2
        """Labelled y ticks (top and bottom by default; the chart grid asks for 3–5)."""
        self.y_log = False
        """Log-scale y: values ≤ 0 are left out, ticks read as the values themselves."""
        self.cursor_x: float | None = None
        """Where the cursor stands on the x axis (``None``: no cursor); :meth:`move_cursor` moves it."""
        self.x_name = ""
        """What x counts (``step``, ``samples``), the first word of the cursor's readout."""
        self._x_bounds: tuple[float, float] | None = None
        self._dots_w = 0
        self.x_ticks = 2
        """Labelled x ticks: 2 (first and last, beside the legend), or up to this many round values."""
        self.legend = True
        """Draw the legend under the plot (the chart grid puts it in the chart's border instead)."""

    def set_series(self, series: list[PlotSeries]) -> None:
        """Draw ``series``; a cursor that stands outside their x range (another run, a window of the
        last steps) is taken away rather than left reading nothing."""
        self._series = series
        at = self.cursor_x
        if at is not None:
            xs = [s.x for s in series if len(s.x)]
            if not xs or not min(float(x.min()) for x in xs) <= at <= max(float(x.max()) for x in xs):
                self.cursor_x = None
        self._version += 1
        self.refresh()

    def clear_cursor(self) -> None:
        """Take the cursor (and its readout row) away."""
        if self.cursor_x is not None:
            self.cursor_x = None
            self._version += 1
            self.refresh()

    def move_cursor(self, cells: int) -> None:
        """Move the cursor ``cells`` columns (negative: left). The first move puts it on the newest
        point; a move right from the right end takes it away. The cursor stands on a point of a read
        series (the nearest to where the columns lead, and at least the next one), so it reads whole
        steps; where one cell holds many points it stands on the whole x value there."""
        bounds = self._x_bounds
        if bounds is None:
            return
        x0, x1 = bounds
        if self.cursor_x is None:
            self.cursor_x = x1
        elif cells > 0 and self.cursor_x >= x1:
            self.cursor_x = None
        else:
            per_cell = 2 * (x1 - x0) / max(1, self._dots_w - 1)  # one cell is two dot columns
            moved = min(x1, max(x0, self.cursor_x + cells * per_cell))
            self.cursor_x = float(round(moved)) if per_cell >= 1 else self._snap(moved, cells)
        self._version += 1
        self.refresh()

    def _sample_xs(self) -> npt.NDArray[np.float64]:
        """The x values of the read series' points, ascending and once each."""
        xs = [s.x for s in self._series if (s.label or s.reading is not None) and len(s.x)]
        if not xs:
            return np.empty(0)
        merged: npt.NDArray[np.float64] = np.unique(np.concatenate(xs))
        finite: npt.NDArray[np.float64] = merged[np.isfinite(merged)]
        return finite

    def _snap(self, moved: float, cells: int) -> float:
        """The point nearest ``moved``; the next point in the direction of the move when that is where
        the cursor already stands (a cell narrower than the points' spacing)."""
        xs = self._sample_xs()
        if not len(xs):
            return float(round(moved))
        index = int(np.abs(xs - moved).argmin())
        current = self.cursor_x
        if current is not None and xs[index] == current and cells:
            index = min(len(xs) - 1, max(0, index + (1 if cells > 0 else -1)))
        return float(xs[index])

    def cursor_readout(self) -> list[tuple[str, float | None, str]]:
        """``(name, value, colour)`` of every read series at the cursor: its nearest point at or before."""
        from workbench.compare_runs import value_at

        at = self.cursor_x
        if at is None:
            return []
        out = []
        for s in self._series:
            name = s.label if s.reading is None else s.reading
            if (s.label or s.reading is not None) and len(s.x):
                out.append((name, s.read(at) if s.read is not None else value_at(s.x, s.y, at), s.color))
        return out

    def _readout_text(self, width: int) -> Text:
        from workbench.formatting import format_value

        at = self.cursor_x
        # dim as a span, not the Text's base style: a base "dim" would fade the readout's colours too
        text = Text.assemble((f"{' ' * (Y_LABEL_WIDTH - 2)}▲ {self.x_name} {format_x(at or 0.0)}", "dim"))
        for name, value, color in self.cursor_readout():
            text.append("  ● ", style=color)
            text.append(f"{name} {format_value(value)}" if name else format_value(value), style=color)
        text.truncate(width, overflow="ellipsis")
        return text

    def render_lines_text(self, width: int, height: int) -> list[Text]:
        """Build the plot's rows (also used by the redraw benchmark)."""
        plot_w = max(4, width - Y_LABEL_WIDTH)
        lines: list[Text] = []
        if not any(len(s.y) for s in self._series):
            self._x_bounds = None
            return [Text(self.empty_text, style="dim")]
        if self.x_ticks > 2:
            return self._render_ticked(width, height)
        shown = [s for s in self._series if len(s.y) and s.label]  # an unlabelled series has no legend
        legend_w = sum(cell_len(f"● {s.label}  ") for s in shown)
        xs = [s.x for s in shown if len(s.x)]
        ticks = (_format_tick(min(float(x.min()) for x in xs)), _format_tick(max(float(x.max()) for x in xs)))
        bounds_w = len(ticks[0]) + len(ticks[1]) + 2  # the two x tick labels and a gap each side
        # A legend that does not fit beside the x ticks gets its own row: labels (run ids) are never cut
        # at the front; only a row wider than the whole plot loses its end.
        own_row = legend_w + bounds_w > plot_w
        legend_rows = _legend_rows(shown, width - Y_LABEL_WIDTH) if own_row else []
        # Several runs' labels wrap onto more rows (each label whole), but the curves keep most rows.
        keep = max(1, (height - 2) // 3)
        if len(legend_rows) > keep:  # the rest share the last row, cut at its end as one row would be
            legend_rows = legend_rows[: keep - 1] + [[s for row in legend_rows[keep - 1 :] for s in row]]
        cursor = self.cursor_x is not None
        plot_h = max(2, height - 2 - len(legend_rows) - (1 if cursor else 0))
        drawn = self._series
        if self.y_log:
            drawn = [PlotSeries(p.label, p.x[p.y > 0], np.log10(p.y[p.y > 0]), p.color) for p in self._series]
        bits, owner, (x0, x1, y0, y1) = rasterise(drawn, plot_w, plot_h)
        self._x_bounds, self._dots_w = (x0, x1), plot_w * 2
        chars = np.where(bits > 0, bits + 0x2800, 0x20).astype(np.uint32)
        styles = [Style.parse(s.color) for s in self._series]
        if cursor and self.cursor_x is not None:
            owner = draw_cursor(chars, owner, styles, (x0, x1), self.cursor_x)
        count = max(2, min(self.y_ticks, plot_h))
        tick_rows = {round(i * (plot_h - 1) / (count - 1)): i for i in range(count)}
        for row in range(plot_h):
            index = tick_rows.get(row)
            value = y0 if index == count - 1 else y1 - (y1 - y0) * (index or 0) / (count - 1)
            label = "" if index is None else _format_tick(10.0**value if self.y_log else value)
            text = Text.assemble((label.rjust(Y_LABEL_WIDTH - 1)[: Y_LABEL_WIDTH - 1] + "│", "dim"))
            lines.append(append_raster_row(text, chars[row], owner[row], styles))
        axis = " " * (Y_LABEL_WIDTH - 1) + "└" + "─" * plot_w
        lines.append(Text(axis, style="dim"))
        left, right = _format_tick(x0), _format_tick(x1)
        if len(x_ticks(drawn, x0, x1, 2)) == 1:
            right = ""  # one x value: one label
        legend = Text()
        for s, style in zip(self._series, styles[: len(self._series)], strict=True):
            if len(s.y) and s.label:
                legend.append(f"● {s.label}  ", style=style)
        footer = Text.assemble((" " * Y_LABEL_WIDTH + left, "dim"))  # the legend it takes keeps its colours
        if own_row:
            footer.append(" " * max(1, plot_w - len(left) - len(right)) + right, style="dim")
            lines.append(footer)
            for row_series in legend_rows:
                legend_row = Text(" " * Y_LABEL_WIDTH)
                for s in row_series:
                    legend_row.append(f"● {s.label}  ", style=Style.parse(s.color))
                legend_row.truncate(width, overflow="ellipsis")
                lines.append(legend_row)
            if cursor:
                lines.append(self._readout_text(width))
            return lines
        gap = max(1, plot_w - len(left) - len(right) - legend_w)
        footer.append(" " * (gap // 2))
        footer.append_text(legend)
        footer.append(" " * (gap - gap // 2) + right, style="dim")
        lines.append(footer)
        if cursor:
            lines.append(self._readout_text(width))
        return lines

    def _drawn(self) -> list[PlotSeries]:
        """The series as rasterised: log10 of the positive values on a log scale."""
        if not self.y_log:
            return self._series
        return [PlotSeries(p.label, p.x[p.y > 0], np.log10(p.y[p.y > 0]), p.color) for p in self._series]

    def _render_ticked(self, width: int, height: int) -> list[Text]:
        """The grid's layout: short y labels, an axis with 3–5 round x ticks, their labels beneath."""
        cursor = self.cursor_x is not None
        plot_h = max(2, height - 2 - (1 if self.legend else 0) - (1 if cursor else 0))
        count = max(2, min(self.y_ticks, plot_h))
        tick_rows = {round(i * (plot_h - 1) / (count - 1)): i for i in range(count)}
        # The y range decides the labels, the labels' width decides the plot's: bounds first.
        drawn = self._drawn()
        finite = [y for y in (p.y[np.isfinite(p.y)] for p in drawn) if len(y)]
        if finite:
            y0, y1 = min(float(y.min()) for y in finite), max(float(y.max()) for y in finite)
        else:
            y0, y1 = 0.0, 1.0
        if y1 == y0:
            y0, y1 = y0 - 0.5, y1 + 0.5
        values = [y0 if i == count - 1 else y1 - (y1 - y0) * i / (count - 1) for i in range(count)]
        texts = short_labels([10.0**v if self.y_log else v for v in values])
        label_w = min(max(len(x) for x in texts), 10)
        plot_w = max(4, width - label_w - 1)
        bits, owner, (x0, x1, _, _) = rasterise(drawn, plot_w, plot_h)
        self._x_bounds, self._dots_w = (x0, x1), plot_w * 2
        chars = np.where(bits > 0, bits + 0x2800, 0x20).astype(np.uint32)
        styles = [Style.parse(s.color) for s in self._series]
        if cursor and self.cursor_x is not None:
            owner = draw_cursor(chars, owner, styles, (x0, x1), self.cursor_x)
        labels = {row: texts[index] for row, index in tick_rows.items()}
        lines = _plot_rows(chars, owner, styles, labels, label_w, "┤")
        placed = place_ticks(x_ticks(drawn, x0, x1, max(3, self.x_ticks)), x0, x1, plot_w)
        axis = ["─"] * plot_w
        row = [" "] * plot_w
        for cell, start, label in placed:
            axis[cell] = "┬"
            row[start : start + len(label)] = label
        lines.append(Text(" " * label_w + "└" + "".join(axis), style="dim"))
        lines.append(Text(" " * (label_w + 1) + "".join(row).rstrip(), style="dim"))
        if self.legend:
            legend = Text(" " * (label_w + 1))
            for s, style in zip(self._series, styles[: len(self._series)], strict=True):
                if len(s.y) and s.label:
                    legend.append(f"● {s.label}  ", style=style)
            legend.truncate(width, overflow="ellipsis")
            lines.append(legend)
        if cursor:
            lines.append(self._readout_text(width))
        return lines

    def render(self) -> Text:
        """The plot as one Text (what tests read); the screen draws :meth:`render_line`'s strips."""
        return Text("\n").join(self.render_lines_text(self.size.width, self.size.height))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._rendered_for = None  # a theme or class change: the base style of the strips changed

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the plot, from strips built once per change of data or size."""
        width, height = self.size
        key = (self._version, width, height)
        if key != self._rendered_for:
            base = self.rich_style
            console = self.app.console
            self._strips = [
                _strip(line, console).apply_style(base).adjust_cell_length(width, base)
                for line in self.render_lines_text(width, height)[:height]
            ]
            self._rendered_for = key
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)


def _strip(text: Text, console: Console) -> Strip:
    """``text`` as one strip (``Text.render`` leaves the base style to its caller when there are no spans)."""
    if not text.spans:
        return Strip([Segment(text.plain, console.get_style(text.style) if text.style else None)])
    return Strip(text.render(console))


def _plot_rows(
    chars: npt.NDArray[np.uint32],
    owner: npt.NDArray[np.int16],
    styles: list[Style],
    labels: dict[int, str],
    label_w: int,
    mark: str,
) -> list[Text]:
    """One Text per raster row: the y label (``mark`` after a labelled row) and the cells (braille, or
    the cursor's line), one styled span per run of cells drawn by the same series."""
    lines = []
    for row in range(chars.shape[0]):
        label = labels.get(row)
        edge = "│" if label is None else mark
        # the label dim as a span: a base "dim" would fade the curves appended after it (3:1 and less)
        text = Text.assemble(((label or "").rjust(label_w)[:label_w] + edge, "dim"))
        lines.append(append_raster_row(text, chars[row], owner[row], styles))
    return lines


def append_raster_row(
    text: Text, chars: npt.NDArray[np.uint32], owner: npt.NDArray[np.int16], styles: list[Style]
) -> Text:
    """Append one raster row's cells to ``text``: one styled span per run of cells drawn by the same
    series (few spans per row), unstyled where no series drew."""
    row_chars = "".join(map(chr, chars))
    start, width = 0, len(row_chars)
    for col in range(1, width + 1):
        if col == width or owner[col] != owner[start]:
            who = int(owner[start])
            text.append(row_chars[start:col], style=styles[who] if who >= 0 else None)
            start = col
    return text


def draw_cursor(
    chars: npt.NDArray[np.uint32],
    owner: npt.NDArray[np.int16],
    styles: list[Style],
    x_bounds: tuple[float, float],
    cursor_x: float,
) -> npt.NDArray[np.int16]:
    """Draw the cursor's column into ``chars``: a thin dim line through the empty cells, the curves'
    dots left as they are. Adds the line's style to ``styles``; returns the owners with the line's
    cells (a copy: the raster's own array may be cached)."""
    x0, x1 = x_bounds
    plot_w = chars.shape[1]
    dot = round((min(x1, max(x0, cursor_x)) - x0) / (x1 - x0) * (plot_w * 2 - 1))
    column = min(plot_w - 1, dot // 2)
    empty = chars[:, column] == 0x20
    chars[empty, column] = ord("│")
    owner = owner.copy()
    owner[empty, column] = len(styles)
    styles.append(Style.parse("dim"))
    return owner
