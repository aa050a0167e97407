"""The home screen's run list never stays cut to its column headers.

Textual's ``DataTable`` measures a new row's column widths on the table's next idle; a frame drawn between
``add_row`` and that measurement (the screen's idle may come first, as it can when the list arrives after
the first frame on a loaded machine) renders the row at the headers' widths ("202", "fini"), and the
table's caches would keep serving that rendering. The test draws the row at exactly that moment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from tests.ui.waiting import wait_for
from workbench.demo import start_demo_job
from workbench.i18n import cell_width, t
from workbench.runs import RunStore


def _line(table: DataTable[Any], y: int) -> str:
    return "".join(segment.text for segment in table.render_line(y))


async def test_a_row_drawn_before_its_widths_are_measured_is_drawn_whole_after(
    make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    add_row = DataTable.add_row

    def add_and_draw(self: DataTable[Any], *cells: Any, **kwargs: Any) -> Any:
        key = add_row(self, *cells, **kwargs)
        if self.id == "runs-table":
            _line(self, 1)  # a frame before the table's idle has measured the new row
        return key

    monkeypatch.setattr(DataTable, "add_row", add_and_draw)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        table = screen.query_one("#runs-table", DataTable)
        # The screen settled (the path dashboard read, the empty list shown): no resize comes after.
        await wait_for(pilot, lambda: str(screen.query_one("#path", Static).render()) != t("path.loading"))
        await wait_for(
            pilot, lambda: t("ui.runs.empty_hint") in str(screen.query_one("#run-detail-text").render())
        )
        assert start_demo_job(RunStore(tmp_path / "ws"), steps=7, step_s=0).wait(30)
        await pilot.press("r")
        await wait_for(pilot, lambda: table.row_count == 1)
        run_id = str(table.get_row_at(0)[0])
        run_column = table.ordered_columns[0]
        await wait_for(pilot, lambda: run_column.content_width >= cell_width(run_id))
        await pilot.pause()
        row = _line(table, 1)
        assert run_id in row and "finished" in row and " 7 " in row, row
