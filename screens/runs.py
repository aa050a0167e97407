"""Home: past and live runs of the workspace, with status, start time and last step."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Header, Static

from workbench.i18n import cell_width, pad, t
from workbench.screens.base import WorkbenchScreen
from workbench.screens.formatting import STATUS_VARIABLE, format_duration, format_time, status_text
from workbench.screens.inert import InertStatic, inert
from workbench.screens.jobs import resume_command
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.widgets.measured_table import MeasuredTable
from workbench.screens.workers import (
    DatasetChecked,
    PathRead,
    RunDetailRead,
    RunsChanged,
    RunsListed,
    VerifyDone,
)

if TYPE_CHECKING:  # the checklist's code (and pydantic, through it) loads in the workers that read it
    from workbench.runs import RunBrief, RunStore, RunSummary
    from workbench.verify.path import PathStep

REFRESH_S = 2.0
COMPACT_BELOW = 30
"""Terminal rows under which the path dashboard folds into two lines (the steps, then the next one)."""
STATE_GLYPH = {"done": "✓", "failed": "✗", "not run": "·"}
STATE_VARIABLE = {"done": "status-pass", "failed": "status-fail", "not run": "status-warn"}
STEP_KEYS: dict[str, tuple[str, str]] = {
    "environment": ("mode", "env"),
    "baseline": ("key", "t"),
    "parallel": ("mode", "plan"),
    "parity": ("mode", "plan"),
    "inference": ("mode", "compare"),
    "hardware": ("mode", "compare"),
    "dataset": ("key", "k"),
    "verify": ("key", "v"),
}
"""Which key does a step: a screen key of this screen, or the number key of a mode."""
RESUMABLE = ("cancelled", "interrupted", "failed")


def list_runs(store: RunStore) -> list[RunSummary]:
    """The run list, with a live run's last step read from the end of its events (never lags)."""
    from workbench.runs import with_live_step  # the run store's code loads in the worker, after the frame

    return [with_live_step(run) for run in store.list()]


def path_text(
    steps: list[PathStep], colors: dict[str, str], key_for: Callable[[str], str], *, compact: bool = False
) -> Text:
    """The dashboard: one line per step (state, step, evidence, when, key), then what to do first.

    ``compact`` (a short terminal): one line of step states, then the next step — two lines in all.
    Lines never wrap; a long evidence is cut with an ellipsis at the screen's edge.
    """
    from workbench.verify.path import next_step

    out = Text(no_wrap=True, overflow="ellipsis")
    first = next_step(steps)
    if compact:
        out.append(t("path.title") + " ", style="bold")
        for i, step in enumerate(steps):
            out.append(
                ("→ " if i else "") + STATE_GLYPH.get(step.state, "?") + step.title + " ",
                style=colors.get(step.state, ""),
            )
    else:
        width = max(cell_width(step.title) for step in steps)
        for i, step in enumerate(steps):
            if i:
                out.append("\n")
            key = key_for(step.id)
            out.append(
                f"{STATE_GLYPH.get(step.state, '?')} {pad(step.title, width)} ",
                style=colors.get(step.state, ""),
            )
            out.append(pad(t(f"path.state.{step.state}"), 7) + " ")
            out.append(f"[{key or '-'}] ", style="bold")
            when = f"{format_time(step.when)}  " if step.when else ""
            # done and failed: what the evidence says (a failed file is named); not run: what to type
            shown = step.command if step.state == "not run" else step.evidence
            out.append(when + shown, style="dim")
    if first is not None:
        key = key_for(first.id)
        out.append("\n")
        out.append(t("path.next", command=first.command), style="bold")
        if key:
            out.append("  " + t("path.key", key=key, action=first.title))
    return out


def detail_text(brief: RunBrief) -> str:
    """The detail pane: what a user asks of a run (how long, where its export is, how to go on)."""
    summary = brief.summary
    lines = [
        t("ui.runs.detail.id", run=summary.run_id),
        t("ui.runs.detail.status", status=t(f"status.{summary.status}")),
        t("runs.run_dir", path=str(summary.run_dir)),
    ]
    if summary.damaged:
        lines.append(t("runs.damaged.line", run=summary.run_id, reason=summary.damaged))
    if summary.started:
        lines.append(t("ui.runs.detail.started", time=format_time(summary.started)))
    if summary.started and brief.ended:
        lines.append(t("ui.runs.detail.duration", duration=format_duration(brief.ended - summary.started)))
    if summary.last_step is not None:
        lines.append(t("ui.runs.detail.step", step=summary.last_step))
    if brief.pid is not None and brief.pid != os.getpid():
        lines.append(t("ui.runs.detail.origin_other", pid=brief.pid))
    elif brief.pid is not None:
        lines.append(t("ui.runs.detail.origin_here"))
    config = brief.environment.get("config_file")
    if config:
        lines.append(t("ui.runs.detail.config", path=str(config)))
    resumed = brief.environment.get("resumed_from")
    if isinstance(resumed, dict) and resumed.get("run_dir"):
        lines.append(
            t("ui.runs.detail.resumed_from", run=str(resumed["run_dir"]), step=resumed.get("step", "?"))
        )
    export = brief.finished.summary.get("export") if brief.finished is not None else None
    if export:
        lines.append(t("ui.runs.detail.export", path=str(export)))
    if summary.status in RESUMABLE:
        command = resume_command(summary.run_dir)
        if command:
            lines += ["", t("ui.runs.detail.resume", command=command)]
    shown = {k: v for k, v in brief.latest.items() if k in ("loss", "eval/loss", "eval/acc", "acc", "lr")}
    if shown:
        values = "  ".join(f"{k} {v:.4g}" for k, v in shown.items())
        lines += ["", t("ui.runs.detail.latest", values=values)]
    if brief.failure is not None:
        lines += [
            "",
            t("ui.runs.detail.error", error=brief.failure.error),
            "",
            brief.failure.traceback.rstrip(),
        ]
    return "\n".join(lines)


class RunsScreen(WorkbenchScreen):
    """The run list; enter opens the selected run in the monitor."""

    DEFAULT_CSS = """
    RunsScreen #path { height: auto; max-height: 10; padding: 0 1; }
    RunsScreen #runs-body { height: 1fr; }
    RunsScreen #runs-table { width: 1fr; height: 1fr; }
    RunsScreen #run-detail { width: 35%; min-width: 30; max-width: 90; height: 1fr; }
    /* Under 100 columns the detail goes below the list: beside it, it left the table too narrow for
       Status and Last step (a 300 showed as "30"). */
    RunsScreen #runs-body.narrow { layout: vertical; }
    RunsScreen #runs-body.narrow #run-detail { width: 1fr; max-width: 100%; height: 40%; min-height: 6; }
    """

    NARROW_BELOW = 100
    """Terminal width under which the run detail moves below the list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "ui.key.open"),
        Binding("r", "refresh", "ui.key.refresh"),
        Binding("t", "train", "ui.key.train"),
        Binding("a", "attach_log", "ui.key.attach_log"),
        Binding("u", "resume", "ui.key.resume"),
        Binding("d", "demo", "ui.key.demo"),
        Binding("f", "demo_fail", "ui.key.demo_fail"),
        Binding("k", "check_dataset", "ui.key.check_dataset", show=False),
        Binding("v", "verify", "ui.key.verify", show=False),
        Binding("b", "pin_baseline", "ui.key.pin_baseline", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._runs: list[RunSummary] = []
        self._shown: list[tuple[str, str, int | None, float | None]] | None = None
        self._detail_for: tuple[object, ...] | None = None
        self._dataset_for: str | None = None  # the run whose k (dataset) or v (checklist) report shows
        self._steps: list[PathStep] = []
        self._list_asked = False  # a run list read is asked for the next frame

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(t("path.loading"), id="path", markup=False)
        with Horizontal(id="runs-body"):
            yield MeasuredTable(id="runs-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="run-detail", classes="panel"):
                # errors, tracebacks and dataset lines come from outside: shown inert
                yield InertStatic(t("ui.runs.select"), id="run-detail-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # Status and Last step right after the id: at 80 columns they stay in view (Started scrolls).
        for key in ("runs.col.run", "runs.col.status", "runs.col.step", "runs.col.started"):
            table.add_column(t(key), key=key)
        self.refresh_runs()
        self._timer = self.set_interval(REFRESH_S, self.refresh_runs)

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self._timer.resume()
            self.refresh_runs()
            self.refresh_path()

    def on_screen_suspend(self) -> None:
        """Another mode shown (Textual sends no Hide to a screen): a hidden list costs nothing while a
        run trains."""
        self._timer.pause()

    def on_resize(self) -> None:
        self.query_one("#runs-body").set_class(self.size.width < self.NARROW_BELOW, "narrow")
        # Column widths are measured when rows are added; rows added before the terminal reported its
        # real size come out cut to the header widths ("202", "canc" at 80 columns): rebuild once sized.
        self._shown = None
        self.refresh_runs()
        self._show_path()

    # -- the list --------------------------------------------------------------------------------

    def refresh_runs(self) -> None:
        # Read after the next frame: the reading thread competes for the GIL, and the app's first
        # frame (this is its home screen) must not wait for it. Asked through the app: the screen's own
        # callbacks run inside Textual's start-up batch, before that frame. Rows that land
        # before the table has measured them are safe: it is a MeasuredTable.
        # One read however many asked in a frame (mount, resume and resizes do at start-up).
        if not self._list_asked:
            self._list_asked = True
            self.app.call_after_refresh(self._list_runs_if_attached)

    def _list_runs_if_attached(self) -> None:
        self._list_asked = False
        if self.is_attached:
            self._list_runs(self.wb.requests.new("runs-list"))

    @on(RunsChanged)
    def _runs_changed(self, message: RunsChanged) -> None:
        self.refresh_runs()
        self.refresh_path()

    # -- the path dashboard ----------------------------------------------------------------------

    def refresh_path(self) -> None:
        # Once the home screen is whole: the checklist's code (and pydantic, through it) loads in this
        # worker.
        self.wb.call_after_start(lambda: self._read_path(self.wb.requests.new("path")))

    @work(thread=True, exclusive=True, exit_on_error=False, group="path", description="worker.path")
    def _read_path(self, request: int) -> None:
        from workbench.verify.path import path_steps

        self.post_message(PathRead(steps=path_steps(self.wb.workspace), request=request))

    @on(PathRead)
    def _path_read(self, message: PathRead) -> None:
        if self.wb.requests.is_current(message):
            self._steps = list(message.steps)
            self._show_path()

    def step_key(self, step_id: str) -> str:
        """The key that does a step: this screen's own key, or the number key of the step's mode."""
        kind, value = STEP_KEYS.get(step_id, ("key", ""))
        if kind == "key":
            return value
        names = [name for name, _spec in getattr(self.app, "modes", [])]
        return str(names.index(value) + 1) if value in names else ""

    def _show_path(self) -> None:
        if not self._steps:
            return
        colors = {state: self.wb.theme_variable(var) for state, var in STATE_VARIABLE.items()}
        compact = self.app.size.height < COMPACT_BELOW
        self.query_one("#path", Static).update(path_text(self._steps, colors, self.step_key, compact=compact))

    def action_verify(self) -> None:
        """Run the release checklist (loads Paddle: a worker) and store its report; the path refreshes."""
        self.notify(t("ui.runs.verify_started"))
        self._verify(self.wb.requests.new("verify"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="verify", description="worker.verify")
    def _verify(self, request: int) -> None:
        from workbench.verify import collect, write_report
        from workbench.verify.path import checklist_text

        result = collect(self.wb.workspace, deep=True)
        path = write_report(result)
        counts = result.counts()
        summary = t(
            "path.verify_done", passed=counts["pass"], failed=counts["fail"], not_run=counts["not run"]
        )
        details = checklist_text(result.items, summary, path)
        self.post_message(VerifyDone(ok=result.ok, summary=summary, details=details, request=request))

    @on(VerifyDone)
    def _verify_done(self, message: VerifyDone) -> None:
        if self.wb.requests.is_current(message):
            self.notify(message.summary, severity="information" if message.ok else "error")
            # which items failed, their evidence and the command to fix each: in the detail pane,
            # kept there (like k's report) until another run is highlighted
            self._detail_for = None
            self._dataset_for = self.selected_run() or ""
            self.query_one("#run-detail-text", Static).update(message.details)
            self.refresh_path()

    @work(thread=True, exclusive=True, exit_on_error=False, group="runs-list", description="worker.runs_list")
    def _list_runs(self, request: int) -> None:
        self.post_message(RunsListed(runs=list_runs(self.wb.store), request=request))

    @on(RunsListed)
    def _runs_listed(self, message: RunsListed) -> None:
        if not self.wb.requests.is_current(message):
            return  # an older, slower read: a newer one is on its way
        runs = message.runs
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
                    Text(inert(run.run_id)),
                    status_text(run.status, color),
                    str(run.last_step) if run.last_step is not None else t("common.none"),
                    format_time(run.started),
                    key=run.run_id,
                )
            ids = [r.run_id for r in runs]
            if selected in ids:
                table.move_cursor(row=ids.index(selected))
        if not runs:
            self.query_one("#run-detail-text", Static).update(
                t("runs.none", workspace=str(self.wb.workspace)) + "\n\n" + t("ui.runs.empty_hint")
            )

    # -- the detail pane -------------------------------------------------------------------------

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        # The row under the cursor now, not the event's: rebuilding the list highlights row 0 on its
        # way back to the selected run, and that stale highlight would replace what the pane shows.
        run_id = self.selected_run()
        if not run_id:
            return
        if run_id == self._dataset_for:
            return  # the dataset report asked for with k stays until another run is highlighted
        self._dataset_for = None
        run = next((r for r in self._runs if r.run_id == run_id), None)
        key = (run_id, run.status if run else None, run.last_step if run else None)
        if key != self._detail_for:
            self._detail_for = key
            self._read_detail(run_id, self.wb.requests.new("run-detail"))

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="run-detail", description="worker.run_detail"
    )
    def _read_detail(self, run_id: str, request: int) -> None:
        from workbench.baseline import is_pinned
        from workbench.runs import read_run_brief

        run_dir = self.wb.store.resolve(run_id)
        text = detail_text(read_run_brief(run_dir)) if run_dir is not None else ""
        if run_dir is not None and is_pinned(self.wb.store, run_dir):
            text += "\n\n" + t("ui.runs.detail.pinned")
        self.post_message(RunDetailRead(run_id=run_id, text=text, request=request))

    @on(RunDetailRead)
    def _detail_read(self, message: RunDetailRead) -> None:
        if self.wb.requests.is_current(message) and message.text:
            self.query_one("#run-detail-text", Static).update(message.text)

    # -- the dataset panel -----------------------------------------------------------------------

    def action_check_dataset(self) -> None:
        """Lint the selected run's dataset; the report, offending lines first, fills the detail pane."""
        run_id = self.selected_run()
        if run_id is not None:
            self._detail_for = None
            self._dataset_for = run_id  # a refresh of the list re-highlights the row: keep the report
            # A large dataset takes seconds: say at once that the check runs (a live run included).
            self.query_one("#run-detail-text", Static).update(t("dataset.panel.checking", run=run_id))
            self._check_dataset(run_id, self.wb.requests.new("run-detail"))

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="run-detail",
        description="worker.dataset_check",
    )
    def _check_dataset(self, run_id: str, request: int) -> None:
        from workbench.datasets.lint import lint_dataset, report_text
        from workbench.verify.evidence import run_dataset, store_dataset_report

        run_dir = self.wb.store.resolve(run_id)
        data_dir, fmt = run_dataset(run_dir) if run_dir is not None else (None, "auto")
        if not data_dir:
            self.post_message(DatasetChecked(run_id=run_id, text=t("dataset.panel.no_data"), request=request))
            return
        report = lint_dataset(data_dir, fmt)
        # the evidence `paddle-workbench dataset check` leaves: the path's dataset step reads it
        store_dataset_report(report, self.wb.workspace)
        self.post_message(DatasetChecked(run_id=run_id, text=report_text(report), request=request))

    @on(DatasetChecked)
    def _dataset_checked(self, message: DatasetChecked) -> None:
        if self.wb.requests.is_current(message):
            self.query_one("#run-detail-text", Static).update(message.text)
            self.refresh_path()

    # -- actions ---------------------------------------------------------------------------------

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

    def action_attach_log(self) -> None:
        """Follow a kit's training log (PaddleOCR, PaddleClas, PaddleDetection, PaddleX) as a linked run."""
        self.wb.ask_attach_log()

    def action_resume(self) -> None:
        """Continue the selected stopped / interrupted / failed run into a new linked run."""
        run = next((r for r in self._runs if r.run_id == self.selected_run()), None)
        if run is None:
            return
        if run.status not in RESUMABLE:
            self.notify(t("ui.runs.not_resumable", status=t(f"status.{run.status}")), severity="warning")
            return
        self.wb.resume_run(run.run_id)

    def action_pin_baseline(self) -> None:
        """Pin the selected finished run as the baseline of its model (``runs pin``); on a pinned run,
        unpin it (``runs unpin``) and let the rule choose again."""
        from workbench.baseline import is_pinned, pin, unpin

        run = next((r for r in self._runs if r.run_id == self.selected_run()), None)
        if run is None:
            return
        store = self.wb.store
        if is_pinned(store, run.run_dir):
            unpin(store, run.run_dir)
            self.notify(t("ui.runs.unpinned", run=run.run_id))
        elif run.status != "finished" or run.damaged:
            status = t("runs.damaged") if run.damaged else t(f"status.{run.status}")
            self.notify(t("ui.runs.pin_not_finished", run=run.run_id, status=status), severity="warning")
            return
        else:
            pin(store, run.run_dir)
            self.notify(t("ui.runs.pinned", run=run.run_id))
        self._detail_for = None
        self._dataset_for = None
        self._read_detail(run.run_id, self.wb.requests.new("run-detail"))
        self.refresh_path()

    def action_demo(self) -> None:
        from workbench.demo import start_demo_job

        self.wb.start_job_in_worker(start_demo_job)

    def action_demo_fail(self) -> None:
        from functools import partial

        from workbench.demo import DEMO_FAIL_AT, start_demo_job

        self.wb.start_job_in_worker(partial(start_demo_job, fail_at=DEMO_FAIL_AT))
