"""The ``compare`` mode: train/inference parity for one run and checkpoint, shown path by path.

Thin by design: the comparison runs in a child process
(:func:`workbench.inference.isolated.compare_in_child`, waited on by a thread worker): it imports Paddle,
exports, opens predictors and converts with paddle2onnx — native code that can abort, which must never
take down the TUI and the training runs it hosts. Quitting the TUI cancels the worker, which kills the
child's whole process group. The child reports its progress per path; this screen lists the checkpoints
to pick from and renders the result document (``CompareResult.to_dict()``, the same one ``compare --json`` prints): the
paths coloured by tolerance, a histogram of per-element differences and latency bars for the selected
path, the pitfall findings with their evidence, the operator inventory and the workspace matrix.
:meth:`CompareScreen.show_result` takes a precomputed document, which is how the Pilot test drives it.

``l`` serves the highlighted run's export and load-tests it
(:func:`workbench.serve.session.serve_and_loadtest` on a worker: the real ``serve`` command in a child
process, a bounded load test, SIGTERM), then shows throughput, p50/p90/p99 and the latency distribution;
:meth:`CompareScreen.show_loadtest` renders a precomputed one.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Header, Static
from textual.worker import get_current_worker

from workbench.formatting import format_number
from workbench.i18n import cell_width, t
from workbench.screens.base import WorkbenchScreen
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.widgets.measured_table import MeasuredTable
from workbench.screens.workers import (
    CheckpointsListed,
    CompareFinished,
    CompareProgressed,
    LoadtestFinished,
    LoadtestProgressed,
)

_STATUS_VARIABLE = {"ok": "status-pass", "exceeds": "status-fail", "error": "status-fail"}
"""The theme's status colour of a path's status (none for ``skipped``: plain text). Theme variables, not
Rich's named colours: those come from Textual's own palette and lost contrast on the light theme."""
_BAR_WIDTH = 30
_COLUMNS = ("path", "status", "diff", "cosine", "agree", "latency")
"""The paths table's columns, left to right."""
_PRIORITY = ("path", "status", "diff", "latency", "agree", "cosine")
"""Which columns stay when the table is narrower than all of them: the path and its verdict first."""
_SHORT_LABELS = {"diff": "ui.compare.col.diff_short", "latency": "ui.compare.col.latency_short"}
_CELL_PADDING = 1
"""DataTable's default: one cell each side of every column."""

Cells = dict[str, "str | Text"]


def bar(value: float, largest: float, width: int = _BAR_WIDTH) -> str:
    """A horizontal bar of ``value / largest`` of ``width`` cells (at least one cell when non-zero)."""
    if largest <= 0 or value <= 0:
        return ""
    return "█" * max(1, round(width * value / largest))


def histogram_text(hist: dict[str, list[float]] | None) -> Text:
    """Per-element absolute differences, one line per non-empty log10 bin."""
    out = Text()
    if not hist:
        return out
    counts, edges = hist["counts"], hist["log10_edges"]
    largest = max(counts) if counts else 0
    for index, count in enumerate(counts):
        if count:
            label = f"1e{edges[index]:+.1f}"
            out.append(f"{label:>8} {bar(count, largest, 24):<24} {count}\n")
    return out


def latency_text(doc: dict[str, Any]) -> Text:
    """Median latency per path and batch size as bars (the reference first)."""
    out = Text()
    rows: list[tuple[str, str, float]] = []
    for key, stats in (doc.get("reference", {}).get("latency") or {}).items():
        rows.append(("dygraph_eval", key, float(stats["median"])))
    for path in doc.get("paths", []):
        for key, stats in (path.get("latency") or {}).items():
            rows.append((path["name"], key, float(stats["median"])))
    largest = max((ms for _, _, ms in rows), default=0.0)
    name_width = max((cell_width(name) for name, _, _ in rows), default=0)
    for name, key, ms in rows:
        pad = " " * (name_width - cell_width(name))
        out.append(f"{name}{pad} {key:>9} {bar(ms, largest, 20):<20} {ms:.3g} ms\n")
    return out


def latency_distribution_text(histogram: list[tuple[float, float, int]]) -> Text:
    """Request latencies as bars, one line per bin (``low–high ms``, bar, count)."""
    out = Text()
    largest = max((count for _, _, count in histogram), default=0)
    for low, high, count in histogram:
        label = f"{low:7.1f}–{high:<7.1f} ms"
        out.append(f"{label} {bar(count, largest, 24):<24} {count}\n")
    return out


def path_rows(doc: dict[str, Any], colour: Callable[[str], str]) -> list[tuple[str, Cells]]:
    """The paths table's rows of a comparison document, the reference first: (row key, cells by column).

    ``colour`` gives a theme variable's colour (``status-fail`` …)."""
    size = (doc.get("batch") or {}).get("size")

    def latency_cell(latency: dict[str, Any]) -> str:
        one = format_number((latency.get("batch_1") or {}).get("median"))
        many = format_number((latency.get(f"batch_{size}") or {}).get("median"))
        return f"{one} / {many}"

    rows: list[tuple[str, Cells]] = []
    reference = doc.get("reference") or {}
    if reference:
        name = str(reference.get("name", "dygraph_eval"))
        cells: Cells = {"path": name, "status": Text(t("ui.compare.reference"), style="bold")}
        cells.update(diff="-", cosine="-", agree="-", latency=latency_cell(reference.get("latency") or {}))
        rows.append((name, cells))
    for path in doc.get("paths", []):
        status = path["status"]
        label = "deliberate" if path.get("deliberate") and status == "exceeds" else status
        variable = "status-warn" if label == "deliberate" else _STATUS_VARIABLE.get(status)
        style = colour(variable) if variable else ""
        rows.append(
            (
                path["name"],
                {
                    "path": path["name"],
                    "status": Text(t(f"inference.cli.status.{label}"), style=style),
                    "diff": format_number(path.get("max_abs_diff")),
                    "cosine": format_number(path.get("cosine"), ".6f"),
                    "agree": format_number(path.get("string_agreement", path.get("top1_agreement")), ".0%"),
                    "latency": latency_cell(path.get("latency") or {}),
                },
            )
        )
    return rows


Column = tuple[str, str, int]
"""One column of the paths table: key, label, width in cells (without the cell padding)."""


def fit_columns(rows: list[tuple[str, Cells]], width: int) -> tuple[list[Column], list[str]]:
    """The columns to show in ``width`` cells, left to right, and the labels of those left out.

    Every column with its full label when they all fit; otherwise the short labels, and columns taken in
    :data:`_PRIORITY` order while they fit (the path always), so the table never scrolls sideways.
    """

    def column(key: str, label: str) -> Column:
        cells = [cell_width(str(cells[key])) for _, cells in rows]
        return (key, label, max([cell_width(label), *cells]))

    def needs(columns: list[Column]) -> int:
        return sum(width + 2 * _CELL_PADDING for _, _, width in columns)

    full = [column(key, t(f"inference.cli.col.{key}")) for key in _COLUMNS]
    if needs(full) <= width:
        return full, []
    short = {key: column(key, t(_SHORT_LABELS.get(key, f"inference.cli.col.{key}"))) for key in _COLUMNS}
    kept: list[Column] = []
    for key in _PRIORITY:
        if key == "path" or needs([*kept, short[key]]) <= width:
            kept.append(short[key])
    shown = [short[key] for key in _COLUMNS if short[key] in kept]
    return shown, [label for key, label, _ in full if short[key] not in kept]


class ResultsPane(VerticalScroll):
    """The comparison's column: tells the screen when its size changed, so the paths table refits."""

    class Resized(Message):
        """The pane was laid out at a new size."""

    def on_resize(self, _event: events.Resize) -> None:
        self.post_message(self.Resized())


class CompareScreen(WorkbenchScreen):
    """Pick a run's checkpoint, compare every path, read the differences and the pitfalls."""

    mode = "compare"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "ui.key.back"),
        Binding("c", "compare", "ui.compare.key.run"),
        Binding("l", "loadtest", "ui.compare.key.loadtest"),
        Binding("r", "reload", "ui.key.refresh"),
    ]
    DEFAULT_CSS = """
    CompareScreen #checkpoints { height: auto; max-height: 35%; }
    CompareScreen #compare-progress { height: auto; padding: 0 1; }
    CompareScreen #compare-right { height: 1fr; scrollbar-gutter: stable; }
    CompareScreen #paths { height: auto; }
    CompareScreen #compare-hidden { height: auto; }
    CompareScreen .compare-pane { height: auto; margin: 1 0 0 0; }
    """

    def __init__(self, result: dict[str, Any] | None = None) -> None:
        super().__init__()
        self._initial = result
        self.result: dict[str, Any] | None = None
        self._targets: dict[str, tuple[str, int]] = {}
        self._fitted_width: int | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        checkpoints: DataTable[str] = MeasuredTable(
            id="checkpoints", cursor_type="row", zebra_stripes=True, classes="panel"
        )
        checkpoints.border_title = t("ui.compare.checkpoints")
        yield checkpoints
        yield Static(t("ui.compare.hint"), id="compare-progress", markup=False)
        results = ResultsPane(id="compare-right", classes="panel")
        results.border_title = t("ui.compare.results")
        with results:
            yield MeasuredTable(id="paths", cursor_type="row", fixed_columns=1)
            yield Static(id="compare-hidden", classes="dim", markup=False)
            yield Static(id="compare-serve", classes="compare-pane")  # shown by the first load test
            yield Static(id="compare-detail", classes="compare-pane")
            yield Static(id="compare-findings", classes="compare-pane")
            yield Static(id="compare-ops", classes="compare-pane")
            yield Static(id="compare-matrix", classes="compare-pane")
        yield KeyFooter()

    def on_mount(self) -> None:
        checkpoints = self.query_one("#checkpoints", DataTable)
        checkpoints.add_column(t("ui.compare.col.run"), key="run")
        checkpoints.add_column(t("ui.compare.col.step"), key="step")
        self.query_one("#compare-serve", Static).display = False
        self.query_one("#compare-hidden", Static).display = False
        if self._initial is not None:
            self.show_result(self._initial)
        self.action_reload()

    # -- picking a checkpoint ---------------------------------------------------------------------------

    def _workspace(self) -> Path | None:
        return self.wb.workspace

    def action_reload(self) -> None:
        workspace = self._workspace()
        if workspace is not None:
            self._list_checkpoints(workspace)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="compare-list",
        description="worker.checkpoints",
    )
    def _list_checkpoints(self, workspace: Path) -> None:
        from workbench.runs import RunStore
        from workbench.training.checkpoints import CheckpointStore

        rows: list[tuple[str, int]] = []
        for run_dir in RunStore(workspace).run_dirs():
            for info in reversed(CheckpointStore(run_dir / "checkpoints", keep=None).committed()):
                rows.append((str(run_dir), info.step))
        self.post_message(CheckpointsListed(rows=rows))

    @on(CheckpointsListed)
    def _checkpoints_listed(self, message: CheckpointsListed) -> None:
        self._fill_checkpoints(message.rows)

    def _fill_checkpoints(self, rows: list[tuple[str, int]]) -> None:
        table = self.query_one("#checkpoints", DataTable)
        table.clear()
        self._targets.clear()
        for run_dir, step in rows:
            key = f"{run_dir}@{step}"
            self._targets[key] = (run_dir, step)
            table.add_row(Path(run_dir).name, str(step), key=key)
        if not rows and self.result is None:
            self.query_one("#compare-progress", Static).update(t("ui.compare.no_checkpoints"))

    # -- running a comparison -------------------------------------------------------------------------

    def action_compare(self) -> None:
        table = self.query_one("#checkpoints", DataTable)
        workspace = self._workspace()
        if table.row_count == 0 or workspace is None:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if key is None or key not in self._targets:
            return
        run_dir, step = self._targets[key]
        self.query_one("#compare-progress", Static).update(
            t("ui.compare.running", run=Path(run_dir).name, step=step)
        )
        self._compare(workspace, run_dir, step)

    @on(DataTable.RowSelected, "#checkpoints")
    def _picked(self, _event: DataTable.RowSelected) -> None:
        self.action_compare()

    @work(thread=True, exclusive=True, exit_on_error=False, group="compare-run", description="worker.compare")
    def _compare(self, workspace: Path, run_dir: str, step: int) -> None:
        from workbench.inference import CompareInputError
        from workbench.inference.isolated import CompareCrashed, compare_in_child
        from workbench.isolate import ChildCancelled

        worker = get_current_worker()

        def progress(stage: str, name: str | None) -> None:
            text = t("inference.cli.progress", stage=stage, path=name or "")
            self.post_message(CompareProgressed(text=text))

        try:
            doc = compare_in_child(
                workspace,
                run_dir,
                checkpoint=step,
                repeats=10,
                progress=progress,
                cancel=lambda: worker.is_cancelled,
            )
        except ChildCancelled:
            return  # the app is closing, or a newer comparison replaced this one
        except CompareInputError as exc:
            self.post_message(CompareFinished(error="\n".join(exc.messages)))
            return
        except CompareCrashed as exc:
            self.post_message(CompareFinished(error=str(exc)))
            return
        self.post_message(CompareFinished(doc=doc))

    @on(CompareProgressed)
    def _compare_progressed(self, message: CompareProgressed) -> None:
        self.query_one("#compare-progress", Static).update(message.text)

    @on(CompareFinished)
    def _compare_finished(self, message: CompareFinished) -> None:
        if message.doc is not None:
            self.show_result(message.doc)
        else:
            self.query_one("#compare-progress", Static).update(message.error)

    # -- serving the run and load-testing it -----------------------------------------------------------

    def action_loadtest(self) -> None:
        table = self.query_one("#checkpoints", DataTable)
        workspace = self._workspace()
        pane = self._serve_pane()
        if table.row_count == 0 or workspace is None:
            pane.update(t("ui.compare.loadtest.none"))
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if key is None or key not in self._targets:
            pane.update(t("ui.compare.loadtest.none"))
            return
        run_dir, _step = self._targets[key]
        self._loadtest(workspace, run_dir)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="compare-loadtest",
        description="worker.loadtest",
    )
    def _loadtest(self, workspace: Path, run_dir: str) -> None:
        from workbench.serve import SERVE_FIX, SERVE_MODULES, missing_modules

        def extra_missing(modules: list[str]) -> None:
            text = t("serve.input.extra_missing", modules=", ".join(modules), fix=SERVE_FIX)
            self.post_message(LoadtestFinished(error=text))

        missing = missing_modules(SERVE_MODULES)  # the serve command checks the same before it starts
        if missing:
            extra_missing(missing)
            return
        try:
            from workbench.serve.loadtest import LoadtestInputError
            from workbench.serve.session import serve_and_loadtest
        except ImportError as exc:  # found but not importable: a broken or blocked install
            extra_missing([exc.name or str(exc)])
            return

        def progress(text: str) -> None:
            self.post_message(LoadtestProgressed(text=text))

        try:
            result = serve_and_loadtest(workspace, run_dir, progress=progress)
        except LoadtestInputError as exc:
            self.post_message(LoadtestFinished(error="\n".join(exc.messages)))
            return
        self.post_message(LoadtestFinished(doc=result.doc, histogram=result.histogram))

    @on(LoadtestProgressed)
    def _loadtest_progressed(self, message: LoadtestProgressed) -> None:
        self._serve_pane(message.text)

    @on(LoadtestFinished)
    def _loadtest_finished(self, message: LoadtestFinished) -> None:
        if message.doc is not None:
            self.show_loadtest(message.doc, message.histogram)
        else:
            self._serve_pane(Text(message.error, style="bold " + self._colour("status-fail")))

    def _colour(self, variable: str) -> str:
        """The current theme's colour for a status variable (``status-fail`` …)."""
        return self.wb.theme_variable(variable)

    def _serve_pane(self, content: str | Text | None = None) -> Static:
        """The load-test pane, shown once it has something to say (``content``, when given, replaces it)."""
        pane = self.query_one("#compare-serve", Static)
        if content is not None:
            pane.update(content)
        pane.display = True
        return pane

    def show_loadtest(self, doc: dict[str, Any], histogram: list[tuple[float, float, int]]) -> None:
        """Render a load-test document (``loadtest --json``) and its latency distribution."""
        lat = doc.get("latency_ms") or {}
        out = Text()
        out.append(
            t(
                "ui.compare.loadtest.title",
                model=str((doc.get("model") or {}).get("name", "?")),
                concurrency=doc.get("concurrency", "?"),
                ok=doc.get("succeeded", 0),
                sent=doc.get("sent", 0),
                rps=format_number(doc.get("throughput_rps"), ".1f"),
                p50=format_number(lat.get("p50")),
                p90=format_number(lat.get("p90")),
                p99=format_number(lat.get("p99")),
            )
            + "\n",
            style="bold",
        )
        errors = doc.get("errors") or {}
        if errors:
            listed = ", ".join(f"{status}×{n}" for status, n in sorted(errors.items()))
            out.append(
                t("ui.compare.loadtest.errors", errors=listed) + "\n",
                style="bold " + self._colour("status-fail"),
            )
        out.append_text(latency_distribution_text(histogram))
        report = (doc.get("reports") or {}).get("markdown")
        if report:
            out.append(t("ui.compare.loadtest.report", path=report), style="dim")
        self._serve_pane(out)

    # -- showing a result ------------------------------------------------------------------------------

    def show_result(self, doc: dict[str, Any]) -> None:
        """Render a comparison document (``CompareResult.to_dict()``)."""
        self.result = doc
        step = (doc.get("checkpoint") or {}).get("step", "?")
        size = (doc.get("batch") or {}).get("size", "?")
        run = Path(str(doc.get("run_dir", "?"))).name
        self.query_one("#compare-right", ResultsPane).border_title = t(
            "ui.compare.results_of", run=run, step=step, size=size
        )
        self._fill_paths()
        verdict = t("inference.cli.summary_ok" if doc.get("ok") else "inference.cli.summary_fail")
        self.query_one("#compare-progress", Static).update(
            Text(
                verdict,
                style=self._colour("status-pass") if doc.get("ok") else "bold " + self._colour("status-fail"),
            )
        )
        self._show_findings(doc)
        self._show_ops(doc)
        self._show_matrix(doc)
        first = next((p for p in doc.get("paths", []) if p.get("histogram")), None)
        self._show_detail(first)

    @on(ResultsPane.Resized)
    def _results_resized(self, _message: ResultsPane.Resized) -> None:
        width = self.query_one("#compare-right", ResultsPane).scrollable_content_region.width
        if self.result is not None and width != self._fitted_width:
            self._fill_paths()

    def _fill_paths(self) -> None:
        """The reference and every path, with the columns that fit the results pane's width."""
        if self.result is None:
            return
        width = self.query_one("#compare-right", ResultsPane).scrollable_content_region.width
        self._fitted_width = width
        rows = path_rows(self.result, self._colour)
        shown, hidden = fit_columns(rows, width if width > 0 else sys.maxsize)
        table = self.query_one("#paths", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        for key, label, cells_wide in shown:  # widths given: the table's own measuring runs when idle
            table.add_column(label, key=key, width=cells_wide)
        for name, cells in rows:
            table.add_row(*(cells[key] for key, _, _ in shown), key=name)
        if 0 < row < table.row_count:
            table.move_cursor(row=row)
        note = self.query_one("#compare-hidden", Static)
        note.update(t("ui.compare.hidden_columns", columns=", ".join(hidden)) if hidden else "")
        note.display = bool(hidden)

    @on(DataTable.RowHighlighted, "#paths")
    def _path_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.result is None or event.row_key.value is None:
            return
        path = next((p for p in self.result.get("paths", []) if p["name"] == event.row_key.value), None)
        self._show_detail(path)

    def _show_detail(self, path: dict[str, Any] | None) -> None:
        out = Text()
        if path is not None:
            out.append(t("ui.compare.histogram", path=path["name"]) + "\n", style="bold")
            if path.get("error"):
                out.append(str(path["error"]) + "\n", style=self._colour("status-fail"))
            out.append_text(histogram_text(path.get("histogram")))
        if self.result is not None:
            out.append("\n" + t("ui.compare.latency") + "\n", style="bold")
            out.append_text(latency_text(self.result))
        self.query_one("#compare-detail", Static).update(out)

    def _show_findings(self, doc: dict[str, Any]) -> None:
        out = Text(t("inference.report.findings") + "\n", style="bold")
        for finding in doc.get("findings", []):
            severity = finding.get("severity", "")
            variable = {"fail": "status-fail", "warn": "status-warn"}.get(severity)
            colour = ("bold " if severity == "fail" else "") + self._colour(variable) if variable else ""
            out.append(f"[{finding.get('severity', '')}] {finding['id']}: ", style=colour)
            out.append(f"{finding['summary']}\n")
            if finding.get("fix"):
                out.append(f"    {t('inference.report.fix')}: {finding['fix']}\n", style="dim")
            for item in (finding.get("evidence") or [])[:6]:
                out.append(f"    · {item}\n", style="dim")
        self.query_one("#compare-findings", Static).update(out)

    def _show_ops(self, doc: dict[str, Any]) -> None:
        ops = doc.get("ops") or {}
        out = Text(t("inference.report.ops") + "\n", style="bold")
        listed = ", ".join(f"{op['name']}×{op['count']}" for op in ops.get("ops", []))
        out.append(listed + "\n")
        for device, missing in (ops.get("missing_kernels") or {}).items():
            out.append(
                t("inference.finding.missing_kernels", device=device, ops=", ".join(missing)) + "\n",
                style=self._colour("status-fail"),
            )
        self.query_one("#compare-ops", Static).update(out)

    def _show_matrix(self, doc: dict[str, Any]) -> None:
        out = Text(t("ui.compare.matrix") + "\n", style="bold")
        for row in doc.get("matrix_rows", []):
            out.append(
                f"{row['hardware']} | {row['model']} | {row['paddle_version']} | {row['path']} | "
                f"{row['status']} | {format_number(row['max_diff'])} | {format_number(row['latency_ms'])} ms\n"
            )
        self.query_one("#compare-matrix", Static).update(out)

    def action_back(self) -> None:
        """escape: back to the Runs list, as on every other mode."""
        self.app.switch_mode("runs")
