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


def _signed(value: float) -> str:
    return ("+" if value >= 0 else "") + format_value(value)


def _right(text: str) -> str:
    return " " * max(1, NUMBER_CELLS - cell_width(text)) + text


class CompareTable(Static):
    """``show(metric, rows, colour, axis)``: the table for ``rows`` (empty: hidden)."""

    DEFAULT_CSS = """
    CompareTable { height: auto; margin-top: 1; }
    """

    def show(self, metric: str, rows: Sequence[RunValue], colour: Callable[[str], str], axis: str) -> None:
        self.display = bool(rows)
        if not rows:
            return
        text = Text(t("ui.compare.title", metric=metric) + "\n", style="bold")
        header = "".join(_right(t(k)) for k in ("ui.compare.latest", "ui.compare.diff", "ui.compare.percent"))
        text.append("  " + header + "\n", style="dim")
        baseline = any(row.is_baseline for row in rows)
        for row in rows:
            style = colour(row.run_id)
            text.append("★ " if row.is_baseline else "● ", style=style)
            text.append(row.run_id + "\n", style=style)
            diff, percent = "", ""
            if row.diff is not None:
                diff = _signed(row.diff.absolute)
                percent = "—" if row.diff.percent is None else f"{row.diff.percent:+.1f}%"
            elif baseline and not row.is_baseline:
                diff = percent = "—"
            text.append("  " + _right(format_value(row.latest)) + _right(diff) + _right(percent) + "\n")
        note = t("ui.compare.note", axis=axis) if baseline else t("ui.compare.pin_hint")
        text.append(note, style="dim")
        self.update(text)
