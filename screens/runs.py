"""Home: past and live runs of the workspace, with status, start time and last step."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Footer, Header, Static

from workbench.i18n import t
from workbench.runs import RunSummary, read_run_brief
from workbench.screens.base import WorkbenchScreen
from workbench.screens.formatting import STATUS_VARIABLE, format_time, status_text

REFRESH_S = 2.0


class RunsScreen(WorkbenchScreen):
    """The run list; enter opens the selected run in the monitor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "ui.key.open"),
        Binding("r", "refresh", "ui.key.refresh"),
        Binding("t", "train", "ui.key.train"),
        Binding("d", "demo", "ui.key.demo"),
        Binding("f", "demo_fail", "ui.key.demo_fail"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._runs: list[RunSummary] = []
        self._shown: list[tuple[object, ...]] | None = None
        self._detail_for: tuple[object, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="runs-body"):
            yield DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="run-detail", classes="panel"):
                yield Static(t("ui.runs.select"), id="run-detail-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("runs.col.run", "runs.col.status", "runs.col.started", "runs.col.step"):
            table.add_column(t(key), key=key)
        self.refresh_runs()
        self._timer = self.set_interval(REFRESH_S, self.refresh_runs)

    def on_show(self) -> None:
        self._timer.resume()
        self.refresh_runs()

    def on_hide(self) -> None:
        self._timer.pause()  # a hidden list costs nothing while a run trains

    @work(thread=True, exclusive=True, exit_on_error=False, group="runs-list")
    def refresh_runs(self) -> None:
        runs = self.wb.store.list()
        self.app.call_from_thread(self._show_runs, runs)

    def _show_runs(self, runs: list[RunSummary]) -> None:
        shown = [(r.run_id, r.status, r.last_step, r.started) for r in runs]
        if shown == self._shown:
            return  # nothing changed: no rebuild, no re-highlight, no re-read of the detail
        self._shown = shown
        table = self.query_one(DataTable)
        selected = self.selected_run()
        self._runs = runs
        with self.app.batch_update():
            table.clear()
            for run in runs:
                color = self.wb.theme_variable(STATUS_VARIABLE.get(run.status, "status-warn"))
                table.add_row(
                    Text(run.run_id),
                    status_text(run.status, color),
                    format_time(run.started),
                    str(run.last_step) if run.last_step is not None else t("common.none"),
                    key=run.run_id,
                )
            ids = [r.run_id for r in runs]
            if selected in ids:
                table.move_cursor(row=ids.index(selected))
        if not runs:
            self.query_one("#run-detail-text", Static).update(
                t("runs.none", workspace=str(self.wb.workspace)) + "\n\n" + t("ui.runs.empty_hint")
            )

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        run_id = event.row_key.value if event.row_key is not None else None
        if not run_id:
            return
        run = next((r for r in self._runs if r.run_id == run_id), None)
        key = (run_id, run.status if run else None, run.last_step if run else None)
        if key != self._detail_for:
            self._detail_for = key
            self._show_detail(run_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="run-detail")
    def _show_detail(self, run_id: str) -> None:
        run_dir = self.wb.store.resolve(run_id)
        if run_dir is None:
            return
        brief = read_run_brief(run_dir)
        lines = [
            t("ui.runs.detail.id", run=brief.summary.run_id),
            t("runs.run_dir", path=str(brief.summary.run_dir)),
            t("ui.runs.detail.status", status=t(f"status.{brief.summary.status}")),
            t("ui.runs.detail.kind", kind=t(f"runs.kind.{brief.summary.kind}")),
        ]
        if brief.summary.damaged:
            lines.append(t("runs.damaged.line", run=brief.summary.run_id, reason=brief.summary.damaged))
        if brief.latest:
            values = ", ".join(f"{k}={v:.4g}" for k, v in sorted(brief.latest.items()))
            lines.append(t("ui.runs.detail.latest", values=values))
        if brief.failure is not None:
            lines += [
                "",
                t("ui.runs.detail.error", error=brief.failure.error),
                "",
                brief.failure.traceback.rstrip(),
            ]
        self.app.call_from_thread(self._detail_loaded, run_id, "\n".join(lines))

    def _detail_loaded(self, run_id: str, text: str) -> None:
        if run_id == self.selected_run():  # a slower, older read must not overwrite the current one
            self.query_one("#run-detail-text", Static).update(text)

    def selected_run(self) -> str | None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        return self._runs[row].run_id if 0 <= row < len(self._runs) else None

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        run_id = self.selected_run()
        if run_id is not None:
            self.wb.open_in_monitor(run_id)

    def action_refresh(self) -> None:
        self.refresh_runs()

    def action_train(self) -> None:
        self.wb.ask_train_config()

    def action_demo(self) -> None:
        from workbench.demo import start_demo_job

        self.wb.start_job(start_demo_job)

    def action_demo_fail(self) -> None:
        from functools import partial

        from workbench.demo import start_demo_job

        self.wb.start_job(partial(start_demo_job, fail_at=40))
