"""The ``env`` mode: the environment doctor, live. Checks stream in as their probes finish.

Thin by design: the engine (:func:`workbench.envcheck.run_checks`) runs on a thread worker and posts one
message per finding; this screen only keeps the rows, the selected finding's evidence and the system
panel (:mod:`workbench.screens.widgets.env_system`) up to date. Probes run in child processes, so a
hung ``run_check`` never freezes the UI, and the keys keep working while it runs. A full run stores
its report where ``paddle-workbench check`` does (:mod:`workbench.verify.evidence`), so the path
dashboard marks the environment step whichever door ran the checks.
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
from textual.widgets import DataTable, Header, Static

from workbench.envcheck import (
    DEFAULT_PROBES,
    DEFAULT_TIMEOUT_S,
    STATUSES,
    CheckReport,
    Facts,
    Finding,
    Probe,
    ProbeContext,
    Rule,
    SystemMonitor,
    default_rules,
    markdown_report,
    run_checks,
)
from workbench.envcheck.report import summary_line
from workbench.formatting import STATUS_ICONS
from workbench.i18n import t
from workbench.screens.base import WorkbenchScreen
from workbench.screens.formatting import STATUS_VARIABLE
from workbench.screens.inert import InertStatic
from workbench.screens.widgets.env_system import EnvSystemPanel, system_entries
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.widgets.measured_table import MeasuredTable
from workbench.screens.workers import (
    ChecksFinished,
    FindingArrived,
    ProbeFinished,
    ReportExported,
    SystemSampled,
)

REFRESH_S = 3.0
LOW_BANDWIDTH_REFRESH_S = 10.0
FACTS_PREVIEW_CHARS = 4000


@dataclass
class EnvChecks:
    """What the Environment screen runs; ``WorkbenchApp(env_checks=...)`` swaps it (tests use fakes)."""

    probes: Sequence[Probe] = DEFAULT_PROBES
    rules: Sequence[Rule] | None = None  # None: the rule registry, read when the screen asks
    context_factory: Callable[[Path], ProbeContext] | None = None
    monitor: SystemMonitor | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    refresh_s: float | None = None
    autostart: bool = True


class EnvScreen(WorkbenchScreen):
    """Every check with its verdict; the detail pane shows the evidence and the fix."""

    DEFAULT_CSS = """
    EnvScreen #env-status { height: 1; padding: 0 1; }
    EnvScreen #env-body { height: 1fr; }
    EnvScreen #env-table { width: 3fr; height: 1fr; }
    EnvScreen #env-detail { width: 2fr; height: 1fr; }
    EnvScreen #env-system { height: auto; max-height: 5; padding: 0 1; }  /* MAX_LINES + the border */
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rerun_selected", "envscreen.key.rerun"),
        Binding("R", "rerun_all", "envscreen.key.rerun_all", key_display="shift+r"),
        Binding("e", "export", "envscreen.key.export"),
        Binding("c", "copy", "envscreen.key.copy"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._findings: dict[str, Finding] = {}
        self._facts = Facts()
        self._cancel = threading.Event()
        self._check_running = False
        self._started = time.time()
        self._duration_s = 0.0

    @property
    def checks(self) -> EnvChecks:
        return self.wb.env_checks if self.wb.env_checks is not None else DEFAULT_CHECKS

    @property
    def _rules(self) -> Sequence[Rule]:
        rules = self.checks.rules
        return tuple(rules) if rules is not None else default_rules()

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(t("envscreen.idle"), id="env-status", markup=False)
        with Horizontal(id="env-body"):
            yield MeasuredTable(id="env-table", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="env-detail", classes="panel"):
                yield InertStatic(t("envscreen.select"), id="env-detail-text")  # facts read from the machine
        yield EnvSystemPanel(id="env-system", classes="panel")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column(t("envcheck.col.status"), key="status")
        table.add_column(t("envcheck.col.check"), key="check")
        table.add_column(t("envcheck.col.summary"), key="summary")
        for rule in self._rules:
            table.add_row(self._status_cell("pending"), rule.title, Text(""), key=rule.id)
        refresh = self.checks.refresh_s or (LOW_BANDWIDTH_REFRESH_S if self.wb.low_bandwidth else REFRESH_S)
        self._monitor = self.checks.monitor or SystemMonitor()
        self._sample_system()
        self.set_interval(refresh, self._sample_system)
        if self.checks.autostart:
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
        if self._check_running:
            self.notify(t("envscreen.busy"), severity="warning")
            return
        self._start([rule_id], full=False)

    def action_export(self) -> None:
        self._export(self._report(), copied=False)

    def action_copy(self) -> None:
        """Copy through the terminal (OSC 52) and also save the file: the copy may be dropped silently."""
        report = self._report()
        self.app.copy_to_clipboard(markdown_report(report))
        self._export(report, copied=True)

    # -- running checks --------------------------------------------------------------------------

    def _start(self, rule_ids: list[str], *, full: bool) -> None:
        self._cancel.set()  # a previous run (if any) stops and kills its children
        self._cancel = threading.Event()
        request = self.wb.requests.new("envcheck")  # older runs' findings are dropped from now on
        self._check_running = True
        self._started = time.time()
        if full:
            self._findings.clear()
            self._facts = Facts()
        table = self.query_one(DataTable)
        for rule_id in rule_ids:
            table.update_cell(rule_id, "status", self._status_cell("running"))
        self._set_status(t("envscreen.running", done=0, total=len(rule_ids)))
        self._run(request, self._cancel, None if full else rule_ids)

    @work(thread=True, exclusive=True, exit_on_error=False, group="envcheck", description="worker.envcheck")
    def _run(self, request: int, cancel: threading.Event, only: list[str] | None) -> None:
        checks = self.checks
        factory = checks.context_factory or (
            lambda workspace: ProbeContext(workspace=workspace, background=True)
        )
        report = run_checks(
            probes=checks.probes,
            rules=self._rules,
            context=factory(self.wb.workspace),
            only=only,
            timeout_s=checks.timeout_s,
            cancel=cancel,
            on_finding=lambda finding: self.post_message(FindingArrived(finding=finding, request=request)),
            on_probe=lambda result: self.post_message(ProbeFinished(result=result, request=request)),
        )
        if only is None and not cancel.is_set():
            from workbench.verify.evidence import store_check_report

            # the same report `paddle-workbench check` stores: the path dashboard marks the step from it
            store_check_report(report.to_dict(), self.wb.workspace)
        self.post_message(ChecksFinished(duration_s=report.duration_s, request=request))

    @on(ProbeFinished)
    def _probe_finished(self, message: ProbeFinished) -> None:
        if self.wb.requests.is_current(message) and message.result is not None:
            self._facts = self._facts.with_result(message.result)

    @on(FindingArrived)
    def _finding_arrived(self, message: FindingArrived) -> None:
        finding = message.finding
        if not self.wb.requests.is_current(message) or finding is None:
            return
        self._findings[finding.id] = finding
        table = self.query_one(DataTable)
        table.update_cell(finding.id, "status", self._status_cell(finding.status))
        table.update_cell(finding.id, "summary", Text(finding.summary), update_width=True)
        pending = sum(1 for rule in self._rules if rule.id not in self._findings)
        if self._check_running:
            self._set_status(t("envscreen.running", done=len(self._rules) - pending, total=len(self._rules)))
        if finding.id == self._selected_id():
            self._show_detail(finding.id)

    @on(ChecksFinished)
    def _checks_finished(self, message: ChecksFinished) -> None:
        if self.wb.requests.is_current(message):
            self._check_running = False
            self._duration_s = message.duration_s
            self._set_status(summary_line(self._report()))

    # -- export ----------------------------------------------------------------------------------

    def _report(self) -> CheckReport:
        findings = [self._findings[r.id] for r in self._rules if r.id in self._findings]
        return CheckReport(findings, self._facts, self._started, self._duration_s, rules=self._rules)

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="envcheck-export", description="worker.export"
    )
    def _export(self, report: CheckReport, *, copied: bool) -> None:
        path = self.wb.workspace / "reports" / f"env-check-{time.strftime('%Y%m%d-%H%M%S')}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown_report(report), encoding="utf-8")
        self.post_message(
            ReportExported(path=path, note="copied" if copied else "", partial=len(report.not_run))
        )

    @on(ReportExported)
    def _exported(self, message: ReportExported) -> None:
        path = str(message.path)
        if message.note == "copied":
            self.notify(t("envscreen.copied_osc52", path=path), timeout=10)
        else:
            self.notify(t("envscreen.exported", path=path))
        if message.partial:
            self.notify(t("envscreen.exported_partial", count=message.partial), severity="warning")

    # -- system panel ----------------------------------------------------------------------------

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="envcheck-system", description="worker.system"
    )
    def _sample_system(self) -> None:
        self.post_message(SystemSampled(snapshot=self._monitor.sample()))

    @on(SystemSampled)
    def _system_sampled(self, message: SystemSampled) -> None:
        if message.snapshot is not None:
            self.query_one(EnvSystemPanel).show(system_entries(message.snapshot))

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
                text.append(f"\n{t('envscreen.facts', probe=probe_title(probe))}\n", style="bold")
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
        variable = STATUS_VARIABLE.get(status)
        color = self.wb.theme_variable(variable) if variable else "dim"
        return Text(f"{STATUS_ICONS.get(status, '·')} {label}", style=color)

    def _set_status(self, text: str) -> None:
        self.query_one("#env-status", Static).update(text)


DEFAULT_CHECKS = EnvChecks()


def probe_title(name: str) -> str:
    """A probe's name in the user's language (``interpreter`` reads 解释器); a probe the catalog does
    not name (a test's, a plugin's) keeps its own."""
    key = f"envcheck.probe.{name}"
    title = t(key)
    return name if title == key else title
