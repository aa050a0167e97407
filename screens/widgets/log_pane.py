"""The monitor's log pane: a run's output, inert (:class:`~workbench.screens.inert.InertLog`), with long
lines wrapped to the pane's width instead of cut at its edge.

Textual's ``Log`` keeps one screen row per line and scrolls sideways for the rest; a traceback line or a
kit's long metric line then shows only its start. This pane keeps the lines as they came (``lines`` is
unchanged) and draws each one over as many rows as it needs, cut at cell boundaries (a CJK character is
never split). A line's rows are computed once per width and reused, so a write costs a pass over the
line list, not over its characters.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len, chop_cells
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from typing_extensions import Self

from workbench.screens.inert import InertLog

__all__ = ["WrappedLog"]


class WrappedLog(InertLog):
    """An :class:`InertLog` whose long lines wrap at the pane's width (no sideways scrolling)."""

    DEFAULT_CSS = """
    WrappedLog { overflow-x: hidden; }
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._rows: list[str] = []
        """The display rows: each line's pieces, in order."""
        self._chunks: dict[str, list[str]] = {}
        """A line's rows at :attr:`_wrap_width`, by the line's text (a write re-reads the cache, not the
        characters)."""
        self._wrap_width = 0

    def write(self, data: str, scroll_end: bool | None = None) -> Self:
        at_end = self.is_vertical_scroll_end
        super().write(data, scroll_end)
        self._rewrap(scroll_end, at_end)
        return self

    def write_lines(self, lines: Iterable[str], scroll_end: bool | None = None) -> Self:
        at_end = self.is_vertical_scroll_end
        super().write_lines(lines, scroll_end)
        self._rewrap(scroll_end, at_end)
        return self

    def clear(self) -> Self:
        super().clear()
        self._rows = []
        self._chunks.clear()
        return self

    def on_resize(self) -> None:
        self._rewrap(None, self.is_vertical_scroll_end)

    def _update_maximum_width(self, updates: int, size: int) -> None:
        """Textual's width update from its worker: the rows, not the longest line, size the pane."""
        if updates == self._updates:
            self.virtual_size = Size(self._wrap_width, len(self._rows))

    def _pieces(self, line: str, width: int) -> list[str]:
        """``line`` as shown (tabs expanded, escapes visible), cut into rows of ``width`` cells."""
        pieces = self._chunks.get(line)
        if pieces is None:
            if len(self._chunks) > 4 * (self.max_lines or 2000):
                self._chunks.clear()
            shown = self._process_line(line)
            pieces = [shown] if cell_len(shown) <= width else chop_cells(shown, width)
            self._chunks[line] = pieces
        return pieces

    def _rewrap(self, scroll_end: bool | None, at_end: bool) -> None:
        """Rebuild the display rows for the current width and size the scroll area to them."""
        # The vertical scrollbar's cells are kept free whether or not it shows yet: a write that makes it
        # appear does not leave rows wider than the cells beside it.
        width = max(1, self.size.width - self.styles.scrollbar_size_vertical)
        if width != self._wrap_width:
            self._wrap_width = width
            self._chunks.clear()
        rows: list[str] = []
        for line in self._lines[: self.line_count]:
            rows.extend(self._pieces(line, width))
        self._rows = rows
        self._render_line_cache.clear()
        self.virtual_size = Size(width, len(rows))
        auto_scroll = self.auto_scroll if scroll_end is None else scroll_end
        if auto_scroll and at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def _render_line(self, y: int, scroll_x: int, width: int) -> Strip:
        """Display row ``y``: a piece of a line, padded to the pane's width."""
        style = self.rich_style
        if y >= len(self._rows):
            return Strip.blank(width, style)
        text = Text(self._rows[y], no_wrap=True, style=style)
        strip = Strip(text.render(self.app.console), cell_len(self._rows[y]))
        return strip.crop_extend(0, width, style).apply_offsets(0, y)
