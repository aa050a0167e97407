"""A ``DataTable`` that never keeps serving cells drawn before their columns were measured.

Textual's ``DataTable`` measures new or updated cells on its next idle (``_update_dimensions``), after
``add_row``/``update_cell`` have returned, and caches every cell, row and line it renders under its update
counter, which that measurement does not move. A frame drawn in between (the screen's idle can come before
the table's) renders the new cells at the old widths, cut to the column headers ("202", "fini"), and the
caches keep serving them until a resize or ``clear()``. :class:`MeasuredTable` moves the counter when a
measurement changed a column's width, so the next frame draws every cell at its measured width.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from workbench.screens.textual_private import renew_table_renders

CellT = TypeVar("CellT")


class MeasuredTable(DataTable[CellT]):
    """A data table whose cached renderings are dropped whenever a column's measured width changes."""

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        before = [column.content_width for column in self.ordered_columns]
        super()._update_dimensions(new_rows)
        if [column.content_width for column in self.ordered_columns] != before:
            renew_table_renders(self)
