"""The ``env`` mode: the environment doctor, live. Checks stream in as their probes finish.

Thin by design: the engine (:func:`workbench.envcheck.run_checks`) runs on a thread worker and posts one
message per finding; this screen only keeps the rows, the selected finding's evidence and the system
panel up to date. Probes run in child processes, so a hung ``run_check`` never freezes the UI, and the
keys keep working while it runs.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Footer, Header, Static
from textual.worker import Worker, WorkerState

from workbench.envcheck import (
    DEFAULT_PROBES,
    DEFAULT_RULES,
    STATUSES,
    CheckReport,
    Facts,
    Finding,
    Probe,
    ProbeContext,
    ProbeResult,
    Rule,
    SystemMonitor,
    SystemSnapshot,
    markdown_report,
    run_checks,
)
from workbench.envcheck.report import STATUS_ICONS, summary_line
from workbench.i18n import t
from workbench.screens.base import WorkbenchScreen

DEFAULT_TIMEOUT_S = 120.0
REFRESH_S = 3.0
LOW_BANDWIDTH_REFRESH_S = 10.0
FACTS_PREVIEW_CHARS = 4000
# Fallback colours when the app has no theme variables (a bare test app).
_STATUS_COLORS = {"pass": "green", "warn": "yellow", "fail": "red", "skip": "grey50", "running": "cyan"}
_THEME_VARIABLES = {
    "pass": "status-pass",
    "warn": "status-warn",
    "fail": "status-fail",
    "running": "status-running",
}


@dataclass
class FindingArrived(Message):
    """A check finished (posted from the worker thread; ``generation`` drops stale runs' findings)."""

    finding: Finding
    generation: int


@dataclass
class ProbeFinished(Message):
    result: ProbeResult
    generation: int


@dataclass
class SystemSampled(Message):
    snapshot: SystemSnapshot


class EnvScreen(WorkbenchScreen):
    """Every check with its verdict; the detail pane shows the evidence and the fix."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rerun_selected", "envscreen.key.rerun"),
        Binding("R", "rerun_all", "envscreen.key.rerun_all", key_display="shift+r"),
        Binding("e", "export", "envscreen.key.export"),
        Binding("c", "copy", "envscreen.key.copy"),
    ]

    def __init__(
        self,
        *,
        probes: Sequence[Probe] | None = None,
        rules: Sequence[Rule] | None = None,
        context_factory: Callable[[Path], ProbeContext] | None = None,
        monitor: SystemMonitor | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        refresh_s: float | None = None,
        autostart: bool = True,
    ) -> None:
        super().__init__()
        self._probes = tuple(probes) if probes is not None else DEFAULT_PROBES
        self._rules = tuple(rules) if rules is not None else DEFAULT_RULES
        self._context_factory = context_factory or (lambda workspace: ProbeContext(workspace=workspace))
        self._monitor = monitor
        self._timeout_s = timeout_s
        self._refresh_s = refresh_s
        self._autostart = autostart
        self._findings: dict[str, Finding] = {}
        self._facts = Facts()
        self._generation = 0
        self._cancel = threading.Event()
        self._running = False
        self._worker: Worker[CheckReport] | None = None
        self._started = time.time()
        self._duration_s = 0.0

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(t("envscreen.idle"), id="env-status", markup=False)
        with Horizontal(id="env-body"):
            yield DataTable(id="env-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="env-detail", classes="panel"):
                yield Static(t("envscreen.select"), id="env-detail-text", markup=False)
        yield Static(t("envscreen.system.waiting"), id="env-system", classes="panel", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column(t("envcheck.col.status"), key="status")
        table.add_column(t("envcheck.col.check"), key="check")
        table.add_column(t("envcheck.col.summary"), key="summary")
        for rule in self._rules:
            table.add_row(self._status_cell("pending"), rule.title, Text(""), key=rule.id)
        refresh = self._refresh_s or (
            LOW_BANDWIDTH_REFRESH_S if getattr(self.app, "low_bandwidth", False) else REFRESH_S
        )
        self._sample_system()
        self.set_interval(refresh, self._sample_system)
        if self._autostart:
            self.action_rerun_all()

    def on_unmount(self) -> None:
        # Probe children live in their own sessions: tell the engine to kill them now.
        self._cancel.set()

    # -- actions ---------------------------------------------------------------------------------

    def action_rerun_all(self) -> None:
        self._start([rule.id for rule in self._rules], full=True)

    def action_rerun_selected(self) -> None:
        rule_id = self._selected_id()
        if rule_id is None:
            return
        if self._running:
            self.notify(t("envscreen.busy"), severity="warning")
            return
        self._start([rule_id], full=False)

    def action_export(self) -> None:
        self._export(self._report())

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(markdown_report(self._report()))
        self.notify(t("envscreen.copied"))

    # -- running checks --------------------------------------------------------------------------

    def _start(self, rule_ids: list[str], *, full: bool) -> None:
        self._cancel.set()  # a previous run (if any) stops and kills its children
        self._cancel = threading.Event()
        self._generation += 1
        self._running = True
        self._started = time.time()
        if full:
            self._findings.clear()
            self._facts = Facts()
        table = self.query_one(DataTable)
        for rule_id in rule_ids:
            table.update_cell(rule_id, "status", self._status_cell("running"))
        self._set_status(t("envscreen.running", done=0, total=len(rule_ids)))
        self._worker = self._run(self._generation, self._cancel, None if full else rule_ids)

    @work(thread=True, exclusive=True, exit_on_error=False, group="envcheck", name="envcheck")
    def _run(self, generation: int, cancel: threading.Event, only: list[str] | None) -> CheckReport:
        workspace = Path(getattr(self.app, "workspace", None) or ".paddle-workbench")
        return run_checks(
            probes=self._probes,
            rules=self._rules,
            context=self._context_factory(workspace),
            only=only,
            timeout_s=self._timeout_s,
            cancel=cancel,
            on_finding=lambda finding: self.post_message(FindingArrived(finding, generation)),
            on_probe=lambda result: self.post_message(ProbeFinished(result, generation)),
        )

    @on(ProbeFinished)
    def _probe_finished(self, message: ProbeFinished) -> None:
        if message.generation == self._generation:
            self._facts = self._facts.with_result(message.result)

    @on(FindingArrived)
    def _finding_arrived(self, message: FindingArrived) -> None:
        if message.generation != self._generation:
            return
        finding = message.finding
        self._findings[finding.id] = finding
        table = self.query_one(DataTable)
        table.update_cell(finding.id, "status", self._status_cell(finding.status))
        table.update_cell(finding.id, "summary", Text(finding.summary), update_width=True)
        pending = sum(1 for rule in self._rules if rule.id not in self._findings)
        if self._running:
            self._set_status(t("envscreen.running", done=len(self._rules) - pending, total=len(self._rules)))
        if finding.id == self._selected_id():
            self._show_detail(finding.id)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is self._worker:
            if event.state is WorkerState.SUCCESS and isinstance(worker.result, CheckReport):
                self._running = False
                self._duration_s = worker.result.duration_s
                self._set_status(summary_line(self._report()))
            elif event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
                self._running = False
        if event.state is WorkerState.SUCCESS and worker.group == "envcheck-export":
            self.notify(t("envscreen.exported", path=str(worker.result)))

    # -- export ----------------------------------------------------------------------------------

    def _report(self) -> CheckReport:
        findings = [self._findings[r.id] for r in self._rules if r.id in self._findings]
        return CheckReport(findings, self._facts, self._started, self._duration_s, rules=self._rules)

    @work(thread=True, exclusive=True, exit_on_error=False, group="envcheck-export")
    def _export(self, report: CheckReport) -> Path:
        workspace = Path(getattr(self.app, "workspace", None) or ".paddle-workbench")
        path = workspace / "reports" / f"env-check-{time.strftime('%Y%m%d-%H%M%S')}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown_report(report), encoding="utf-8")
        return path

    # -- system panel ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="envcheck-system")
    def _sample_system(self) -> None:
        if self._monitor is None:
            self._monitor = SystemMonitor()
        self.post_message(SystemSampled(self._monitor.sample()))

    @on(SystemSampled)
    def _system_sampled(self, message: SystemSampled) -> None:
        snap = message.snapshot
        parts = [
            t("envscreen.system.cpu", percent=f"{snap.cpu_percent:.0f}", count=snap.cpu_count),
            t(
                "envscreen.system.ram",
                used=f"{snap.memory_used_bytes / 2**30:.1f}",
                total=f"{snap.memory_total_bytes / 2**30:.1f}",
            ),
        ]
        for gpu in snap.gpus:
            used = "?" if gpu.memory_used_mib is None else f"{gpu.memory_used_mib / 1024:.1f}"
            total = "?" if gpu.memory_total_mib is None else f"{gpu.memory_total_mib / 1024:.1f}"
            util = "?" if gpu.utilization_pct is None else str(gpu.utilization_pct)
            parts.append(
                t("envscreen.system.gpu", index=gpu.index, name=gpu.name, used=used, total=total, util=util)
            )
        if not snap.gpus:
            parts.append(t("envscreen.system.no_gpu"))
        self.query_one("#env-system", Static).update("  ·  ".join(parts))

    # -- detail pane -----------------------------------------------------------------------------

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self._show_detail(event.row_key.value)

    def _show_detail(self, rule_id: str) -> None:
        text = Text()
        rule = next((r for r in self._rules if r.id == rule_id), None)
        text.append(f"{rule.title if rule else rule_id}  ", style="bold")
        text.append(f"({rule_id})\n\n", style="dim")
        finding = self._findings.get(rule_id)
        if finding is None:
            text.append(t("envscreen.pending"))
        else:
            text.append_text(self._status_cell(finding.status))
            text.append(f"  {finding.summary}\n")
            if finding.fix:
                text.append(f"\n{t('common.fix')}\n", style="bold")
                text.append(finding.fix + "\n")
            if finding.details:
                text.append(f"\n{t('envscreen.details')}\n", style="bold")
                text.append(finding.details + "\n")
            for probe in finding.facts:
                result = self._facts.get(probe)
                if result is None:
                    continue
                dump = json.dumps(result.to_dict(), indent=1, ensure_ascii=False, default=str)
                if len(dump) > FACTS_PREVIEW_CHARS:
                    dump = dump[:FACTS_PREVIEW_CHARS] + "\n…"
                text.append(f"\n{t('envscreen.facts', probe=probe)}\n", style="bold")
                text.append(dump + "\n", style="dim")
        self.query_one("#env-detail-text", Static).update(text)

    # -- helpers ---------------------------------------------------------------------------------

    def _selected_id(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    def _status_cell(self, status: str) -> Text:
        label = t(f"status.{status}") if status in STATUSES else t(f"envscreen.{status}_short")
        color = _STATUS_COLORS.get(status, "")
        variable = getattr(self.app, "theme_variable", None)
        if callable(variable) and status in _THEME_VARIABLES:
            color = str(variable(_THEME_VARIABLES[status], color))
        return Text(f"{STATUS_ICONS.get(status, '·')} {label}", style=color)

    def _set_status(self, text: str) -> None:
        self.query_one("#env-status", Static).update(text)
