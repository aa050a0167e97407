"""The monitor's rank table: one row per rank of a launched run, coloured with the theme's rank colours."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from workbench.i18n import t
from workbench.parallel.ranks import RankRow

_STATE_STYLE = {"alive": "green", "stalled": "bold red", "failed": "bold red", "ended": "dim"}


class RankTable(Static):
    """``show(rows, colour)``: rank, step, step time, memory, state and the last log line per rank."""

    DEFAULT_CSS = """
    RankTable { height: auto; margin-top: 1; }
    """

    def show(self, rows: Sequence[RankRow], colour: Callable[[int], str]) -> None:
        table = Table(box=None, pad_edge=False, expand=True)
        for key in ("rank", "step", "step_ms", "memory", "state"):
            table.add_column(
                t(f"ui.ranks.col.{key}"), no_wrap=True, justify="left" if key == "rank" else "right"
            )
        for row in rows:
            table.add_row(
                Text(f"r{row.rank}", style=colour(row.rank)),
                "-" if row.step is None else str(row.step),
                "-" if row.step_ms is None else f"{row.step_ms:.0f}",
                "-" if row.memory_mib is None else f"{row.memory_mib:.0f}M",
                Text(t(f"ui.ranks.state.{row.state}"), style=_STATE_STYLE.get(row.state, "")),
            )
        lines = Text()
        for row in rows:
            if row.last_line:
                lines.append(f"r{row.rank} ", style=colour(row.rank))
                lines.append(row.last_line[:200] + "\n", style="dim")
        self.shown = _stack(table, lines) if rows else Text("")
        """The last renderable shown (what tests read back)."""
        self.update(self.shown)


def _stack(table: Table, lines: Text) -> Table:
    grid = Table.grid(expand=True)
    grid.add_row(table)
    if lines:
        grid.add_row(lines)
    return grid
