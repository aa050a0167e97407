"""The monitor's comparison table: one metric across the runs on the axes, each run's latest value and
its difference to the pinned baseline (absolute and %), from :func:`workbench.compare_runs.compare_latest`.

Each run takes two lines — its mark and whole id in its curve's colour (the legend the grid's charts leave
out), then the numbers — so ids are never cut at the panel's width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.widgets import Static

from workbench.compare_runs import RunValue
from workbench.formatting import format_value
from workbench.i18n import cell_width, t

NUMBER_CELLS = 10
"""Cells per number column from :data:`WIDE` cells of panel width; narrower panels get 7-cell columns
and no indent (80 columns with the runs sidebar open)."""
WIDE = 32


def _signed(value: float) -> str:
    return ("+" if value >= 0 else "") + format_value(value)


def _right(text: str, cells: int = NUMBER_CELLS) -> str:
    return " " * max(1, cells - cell_width(text)) + text


def _folded(text: str, width: int) -> str:
    """``text`` cut into lines of ``width`` cells (a run id has no spaces to wrap at; it stays whole,
    folded, rather than leaving its mark alone on a line)."""
    lines, line = [], ""
    for char in text:
        if line and cell_width(line + char) > width:
            lines.append(line)
            line = ""
        line += char
    return "\n".join([*lines, line])


class CompareTable(Static):
    """``show(metric, rows, colour, axis)``: the table for ``rows`` (empty: hidden)."""

    DEFAULT_CSS = """
    CompareTable { height: auto; margin-top: 1; }
    """

    def show(self, metric: str, rows: Sequence[RunValue], colour: Callable[[str], str], axis: str) -> None:
        self.display = bool(rows)
        if not rows:
            return
        width = self.content_size.width or 40
        cells, indent = (NUMBER_CELLS, "  ") if width >= WIDE else (max(7, width // 3), "")
        text = Text(t("ui.compare.title", metric=metric) + "\n", style="bold")
        keys = ("ui.compare.latest", "ui.compare.diff", "ui.compare.percent")
        text.append(indent + "".join(_right(t(k), cells) for k in keys) + "\n", style="dim")
        baseline = any(row.is_baseline for row in rows)
        for row in rows:
            style = colour(row.run_id)
            mark = "★ " if row.is_baseline else "● "
            text.append(_folded(mark + row.run_id, width) + "\n", style=style)
            diff, percent = "", ""
            if row.diff is not None:
                diff = _signed(row.diff.absolute)
                places = 1 if indent else 0  # a narrow panel: whole percent
                percent = "—" if row.diff.percent is None else f"{row.diff.percent:+.{places}f}%"
            elif baseline and not row.is_baseline:
                diff = percent = "—"
            numbers = (_right(v, cells) for v in (format_value(row.latest), diff, percent))
            text.append(indent + "".join(numbers) + "\n")
        note = t("ui.compare.note", axis=axis) if baseline else t("ui.compare.pin_hint")
        text.append(note, style="dim")
        self.update(text)
