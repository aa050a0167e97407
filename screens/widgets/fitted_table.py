"""A ``DataTable`` whose cells are always drawn at the columns' current widths.

Textual's ``DataTable`` measures the widths of new rows' cells on its next idle, after ``add_row`` has
returned, and caches every cell, row and line it renders under its update counter, which that
measurement does not move. A frame drawn in between (the screen's idle can come before the table's)
renders the new cells at the old widths, cut to the column headers ("202", "fini"), and the cache keeps
serving them so until a resize or ``clear()``. :class:`FittedTable` remembers the widths its cached
renderings were drawn at and drops them when the widths have changed since.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.strip import Strip
from textual.widgets import DataTable

from workbench.screens.textual_private import forget_table_renders

CellT = TypeVar("CellT")


class FittedTable(DataTable[CellT]):
    """A data table that never shows a cell cut to a column width it has since outgrown."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._widths_rendered: tuple[int, ...] = ()

    def render_line(self, y: int) -> Strip:
        widths = tuple(column.get_render_width(self) for column in self.ordered_columns)
        if widths != self._widths_rendered:
            forget_table_renders(self)
            self._widths_rendered = widths
        return super().render_line(y)
