"""The ``plan`` mode: the sharding-plan editor.

Left, the model's parameters as the plan leaves them (name, shape, dtype, placements, local shape, the
plan line that decided it) under the mesh; right, the plan's YAML — editable, and rewritten by the keys
(``c`` column-parallel, ``w`` row-parallel, ``x`` replicated, for the selected parameter's layer; ``s``
sharded on dim 0, ``d`` on the last dim for the parameter itself) through a round-trip edit that keeps
comments (:mod:`workbench.parallel.editing`). Every change is checked again on a worker
(:func:`workbench.parallel.validate.check_plan` on the buffer) once typing pauses for ``CHECK_DELAY_S``
(a burst of keys is one check, and the title is redrawn only when its text changes: each redraw lays the
whole screen out again), so the findings and the per-rank estimate follow the text. ``ctrl+s`` saves,
``n`` runs the plan on its mesh's ranks and opens the monitor.

The file edited is the user's: ``paddle-workbench tui --plan FILE``, ``o`` here or "Open a sharding
plan…" in the palette (recent plans offered, :mod:`workbench.parallel.recent`); with none named, the
newest recent plan, else the packaged sample copied into the workspace (a copy the user saved is never
overwritten, :func:`workbench.samples.materialize_sample`). Focus: the table has the screen's keys; Tab
there moves into the YAML editor, where every printable key is text, and Escape leaves it. Unsaved
edits (`` *`` in the title) are asked about before leaving the mode, opening another file or quitting.

The model is built once per training config in a child process with a time limit
(:func:`workbench.parallel.facts.build_facts_isolated`: its own process group, so the dataset linter's
spawned workers go with it). Leaving the mode or quitting the TUI kills that whole group at once, so
the TUI returns to the shell within moments; a crash or a hang of the build is shown as a finding. For
a ``task: custom`` config the findings pane says first that the user's module is being imported (in
that child). A Pilot test passes the facts in.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import DataTable, Header, Static, TextArea
from textual.worker import get_current_worker

from workbench.i18n import t
from workbench.isolate import Child
from workbench.parallel.estimate import estimate_text
from workbench.parallel.facts import ModelFacts
from workbench.parallel.validate import PlanReport
from workbench.screens.base import WorkbenchScreen
from workbench.screens.dialogs import LocalizedModal
from workbench.screens.plan_files import open_plan_dialog
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.widgets.measured_table import MeasuredTable
from workbench.screens.workers import Requests, WorkerResult

DEFAULT_PLAN = "plan_cls_tp.yaml"
CHECK_DELAY_S = 0.3
FIRST_CHECK_DELAY_S = 0.8


@dataclass
class PlanChecked(WorkerResult):
    report: PlanReport | None = None
    kind: ClassVar[str] = "plan-check"


@dataclass
class PlanFactsBuilt(WorkerResult):
    train: str = ""
    facts: ModelFacts | None = None
    error: str = ""
    notice: str = ""
    """Said while building: the user's module is being imported (``task: custom``)."""
    kind: ClassVar[str] = "plan-facts"


@dataclass
class ParityCompared(WorkerResult):
    result: dict[str, Any] | None = None
    kind: ClassVar[str] = "plan-parity"


@dataclass
class PlanRunStarted(WorkerResult):
    job: Any = None
    error: str = ""
    kind: ClassVar[str] = "plan-run"


def default_plan(workspace: Path) -> Path:
    """The newest plan the user opened here, else the packaged tensor-parallel sample (and its training
    config) copied into the workspace."""
    from workbench.parallel.recent import recent_plans
    from workbench.samples import materialize_sample

    recent = recent_plans(workspace)
    if recent:
        return recent[0]
    materialize_sample("train_cls_mlp.yaml", workspace)
    return materialize_sample(DEFAULT_PLAN, workspace)


def read_plan_text(path: Path) -> str:
    """The text of a plan file to edit (``OSError`` / ``UnicodeDecodeError`` say why it cannot be)."""
    return path.read_text(encoding="utf-8")


UNSAVED_SAVE = "save"
UNSAVED_DISCARD = "discard"


class UnsavedEditsScreen(LocalizedModal[str | None]):
    """Edits not saved: save them, discard them, or stay (``None``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,y", "answer('save')", "ui.plan.unsaved.key.save"),
        Binding("d", "answer('discard')", "ui.plan.unsaved.key.discard"),
        Binding("escape,n", "answer(None)", "ui.plan.unsaved.key.cancel"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._path = path

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box"):
            yield Static(t("ui.plan.unsaved.title"), classes="modal-title", markup=False)
            yield Static(t("ui.plan.unsaved.question", path=str(self._path)), markup=False)
            yield Static(t("ui.plan.unsaved.save"), markup=False)
            yield Static(t("ui.plan.unsaved.discard"), markup=False)
            yield Static(t("ui.plan.unsaved.cancel"), classes="dim", markup=False)

    def action_answer(self, answer: str | None) -> None:
        self.dismiss(answer)


class PlanEditor(TextArea):
    """The plan's YAML: every printable key is text here; Escape leaves for the parameter table."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "ui.plan.key.leave_editor")]

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            return  # not TextArea's own "focus next": the binding above (shown in the footer) has it
        await super()._on_key(event)

    def action_leave(self) -> None:
        self.screen.query_one("#plan-params", DataTable).focus()


class PlanScreen(WorkbenchScreen):
    """Edit a sharding plan against the real model; see the module docstring."""

    mode = "plan"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "ui.key.back"),
        Binding("tab", "focus_editor", "ui.plan.key.editor"),
        Binding("o", "open", "ui.plan.key.open"),
        Binding("c", "layer_plan('ColWiseParallel')", "ui.plan.key.col"),
        Binding("w", "layer_plan('RowWiseParallel')", "ui.plan.key.row"),
        Binding("x", "layer_plan('')", "ui.plan.key.clear"),
        Binding("n", "run", "ui.plan.key.run"),
        Binding("ctrl+s", "save", "ui.plan.key.save"),
        Binding("b", "parity", "ui.plan.key.parity"),
        Binding("s", "param_shard(0)", "ui.plan.key.shard0"),
        Binding("d", "param_shard(-1)", "ui.plan.key.shard_last"),
    ]
    DEFAULT_CSS = """
    PlanScreen #plan-title { height: auto; padding: 0 1; }
    PlanScreen #plan-left { width: 55%; }
    PlanScreen #plan-params { height: 1fr; }
    PlanScreen #plan-estimate { height: auto; padding: 0 1; }
    PlanScreen #plan-yaml { height: 1fr; }
    PlanScreen #plan-findings { height: auto; max-height: 40%; padding: 0 1; }
    """

    def __init__(self, plan_path: Path | None = None, facts: ModelFacts | None = None) -> None:
        super().__init__()
        self.plan_path = plan_path
        self.facts: dict[str, ModelFacts] = {}
        self._given_facts = facts
        self.report: PlanReport | None = None
        self.requests = Requests()
        self._builder_lock = threading.Lock()
        self._build_child: Child | None = None
        self._build_ended: threading.Event | None = None
        """Set when this screen ends the build in flight (left the mode, or a newer check took over):
        an ended build reports nothing."""
        self._checked_since_shown = False
        """A check started since the mode was last shown (the first one waits for FIRST_CHECK_DELAY_S)."""
        self._check_timer: Timer | None = None
        self._checked_text: str | None = None
        """The text the newest check was started for (a change back to it needs no new check)."""
        self._edited_at = 0.0
        self._saved_text = ""
        self._title = ""
        self._rows: list[str] = []
        self.checked = 0
        self.pending = False
        """The request number of the check shown now (tests wait for the newest)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="plan-title", markup=False)
        with Horizontal():
            with Vertical(id="plan-left"):
                yield MeasuredTable(id="plan-params", cursor_type="row", zebra_stripes=True)
                yield Static(id="plan-estimate", markup=False)
            with Vertical(id="plan-right"):
                yield PlanEditor(
                    id="plan-yaml", show_line_numbers=True, tab_behavior="indent", soft_wrap=False
                )
                yield Static(id="plan-findings")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#plan-params", DataTable)
        for key in ("param", "shape", "dtype", "placements", "local", "source"):
            table.add_column(t(f"ui.plan.col.{key}"), key=key)
        wanted = self._take_plan_to_open() or self.plan_path
        if wanted is None:
            wanted = default_plan(Path(getattr(self.app, "workspace", ".")))
        if not self._load(wanted) and self.plan_path is None:  # a named file that cannot be read
            self._load(default_plan(Path(getattr(self.app, "workspace", "."))))
        self.set_timer(FIRST_CHECK_DELAY_S, self._first_check)

    def _take_plan_to_open(self) -> Path | None:
        """The file ``tui --plan`` or the palette asked for, taken once (the app holds it until then:
        :func:`~workbench.screens.plan_files.show_plan`)."""
        app = cast(Any, self.app)
        path: Path | None = getattr(app, "plan_to_open", None)
        if path is not None:
            app.plan_to_open = None
        return path

    def _load(self, path: Path) -> bool:
        """Edit ``path`` (its text and saved state; the caller starts the check); an unreadable file is
        a notification saying why, and the file shown stays."""
        try:
            text = read_plan_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            self.notify(t("ui.plan.open.unreadable", path=str(path), error=str(exc)), severity="error")
            return False
        self.plan_path = path
        self._saved_text = text
        self.report = None
        self._remember(path)
        self.query_one("#plan-yaml", TextArea).load_text(text)
        self._render_title()
        return True

    def _remember(self, path: Path) -> None:
        from workbench.parallel.recent import remember_plan

        workspace = getattr(self.app, "workspace", None)
        if workspace is not None:
            with contextlib.suppress(OSError):  # a convenience: an unwritable workspace loses only it
                remember_plan(Path(workspace), path)

    def open_plan(self, path: Path) -> None:
        """Edit another plan file (after asking about unsaved edits), checked again at once."""

        def go() -> None:
            if self._load(path):
                self._checked_since_shown = True
                self.check_now()
                self.notify(t("ui.plan.opened", path=str(path)))

        self.confirm_leave(go)

    @property
    def dirty(self) -> bool:
        """Edits in the buffer that are not in the file."""
        return self.is_mounted and self.text != self._saved_text

    def confirm_leave(self, then: Any) -> None:
        """Run ``then`` now when nothing is unsaved; else ask: save, discard or stay (``then`` not run).
        The app calls this before quitting or switching modes (:meth:`WorkbenchApp.leave_screen`)."""
        if not self.dirty:
            then()
            return
        assert self.plan_path is not None

        def answered(answer: str | None) -> None:
            if answer == UNSAVED_SAVE:
                self.action_save()
            elif answer == UNSAVED_DISCARD:
                self._replace_text(self._saved_text)
            else:
                return
            then()

        self.app.push_screen(UnsavedEditsScreen(self.plan_path), answered)

    def _first_check(self) -> None:
        """Check once the mode has been shown a moment (passing through it builds no model)."""
        if self.is_current and self.report is None and not self._checked_since_shown:
            self.check_now()

    def on_unmount(self) -> None:
        self._end_builder()

    def on_screen_suspend(self) -> None:
        """Leaving the mode ends a model build still running (it starts again when the mode shows).
        Textual sends a screen no Hide when another mode is shown: ScreenSuspend is the signal."""
        self._checked_since_shown = False
        if self._end_builder():
            self.report = None
            self._checked_text = None

    def on_screen_resume(self) -> None:
        """Back in the mode: the file asked for, if one was; check again if leaving it ended the check
        (``_first_check`` starts one check however many of these timers and on_mount's fire)."""
        wanted = self._take_plan_to_open() if self.is_mounted else None
        if wanted is not None and wanted != self.plan_path:
            self.open_plan(wanted)
            return
        if self.report is None and self.plan_path is not None and self.is_mounted:
            self.set_timer(FIRST_CHECK_DELAY_S, self._first_check)

    def _end_builder(self) -> bool:
        """End the model build in flight, child and process group at once; whether there was one."""
        with self._builder_lock:
            ended, child = self._build_ended, self._build_child
            self._build_ended = self._build_child = None
        if ended is None or ended.is_set():
            return False
        ended.set()  # first: the build's worker then reports nothing, however the child ends
        if child is not None:
            child.kill()
        return True

    # -- checking ----------------------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self.query_one("#plan-yaml", TextArea).text

    @on(TextArea.Changed, "#plan-yaml")
    def _text_changed(self) -> None:
        self._render_title()
        if not self._checked_since_shown and self.text == self._saved_text:
            return  # the file as loaded: the first check waits until the mode has been shown a moment
        if self._check_timer is None and self._checked_since_shown and self.text == self._checked_text:
            return  # a late Changed for the text already being checked: a new check would end its build
        self.pending = True
        self._edited_at = time.monotonic()
        if self._check_timer is None:  # one timer per pause in typing, not one per key
            self._check_timer = self.set_timer(CHECK_DELAY_S, self._check_when_typing_stops)

    def _check_when_typing_stops(self) -> None:
        """Check once no key has changed the text for ``CHECK_DELAY_S`` (a burst of keys is one check)."""
        quiet = time.monotonic() - self._edited_at
        if quiet < CHECK_DELAY_S:
            self._check_timer = self.set_timer(CHECK_DELAY_S - quiet, self._check_when_typing_stops)
            return
        self._check_timer = None
        if self.text == self._checked_text:  # typed and undone: the check shown or running is for this text
            self.pending = False
            return
        self.check_now()

    def check_now(self) -> None:
        """Check the buffer now (the facts are built first when this training config has none yet)."""
        assert self.plan_path is not None
        self.pending = False
        self._checked_since_shown = True
        self._checked_text = self.text
        self._check(self.plan_path, self.text, self.requests.new("plan-check"))

    def _train_path(self, text: str) -> Path | None:
        from workbench.config import ConfigError
        from workbench.parallel.validate import load_plan

        assert self.plan_path is not None
        try:
            plan, _ = load_plan(self.plan_path, text=text)
        except ConfigError:
            return None
        return plan.train_path(self.plan_path)

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="plan-check", description="worker.plan_check"
    )
    def _check(self, path: Path, text: str, request: int) -> None:
        from workbench.isolate import ChildCancelled
        from workbench.parallel.validate import check_plan

        worker = get_current_worker()
        train = self._train_path(text)
        facts = None
        if train is not None and train.is_file():
            key = str(train.resolve())
            facts = self.facts.get(key) or self._given_facts
            if facts is None:
                facts = self._build_facts(train)
                if facts is None:
                    return
                self.facts[key] = facts
        try:  # without facts (no training config yet) check_plan builds nothing, unless one just appeared
            report = check_plan(path, text=text, facts=facts, cancel=lambda: worker.is_cancelled)
        except ChildCancelled:
            return
        self.post_message(PlanChecked(report=report, request=request))

    def _build_facts(self, train: Path) -> ModelFacts | None:
        """``train``'s model facts: the workspace's cached ones when config, data, code and Paddle are
        unchanged since they were built, else :meth:`_build_facts_now`'s."""
        from workbench.parallel.facts_cache import cache_folder, cached_or_built

        folder = cache_folder(self.wb.workspace)
        return cached_or_built(folder, train, (), lambda: self._build_facts_now(train))[0]

    def _build_facts_now(self, train: Path) -> ModelFacts | None:
        """Build ``train``'s model in a child process (one at a time: a newer check's build replaces an
        older one's); ``None`` when it failed (shown) or this screen ended it (nothing shown)."""
        from workbench.config import ConfigError
        from workbench.isolate import ChildCancelled
        from workbench.parallel.facts import FactsBuildFailed, build_facts_isolated, user_code_notice

        self._end_builder()
        ended = threading.Event()
        with self._builder_lock:
            self._build_ended = ended
        worker = get_current_worker()
        notice = user_code_notice(train) or ""
        self.post_message(PlanFactsBuilt(train=str(train), notice=notice))

        def started(child: Child) -> None:
            with self._builder_lock:
                if self._build_ended is ended:
                    self._build_child = child
            if ended.is_set():  # ended while it was starting
                child.kill()

        error = ""
        try:
            facts = build_facts_isolated(
                train, cancel=lambda: ended.is_set() or worker.is_cancelled, started=started
            )
        except ChildCancelled:
            return None
        except ConfigError as exc:
            error = "\n".join(str(issue) for issue in exc.issues)
        except FactsBuildFailed as exc:
            error = "\n".join(exc.messages) or t("ui.plan.facts_failed", path=str(train))
        finally:
            with self._builder_lock:
                if self._build_ended is ended:
                    self._build_ended = self._build_child = None
        if error:
            if not ended.is_set():
                self.post_message(PlanFactsBuilt(train=str(train), error=error))
            return None
        return facts

    @on(PlanFactsBuilt)
    def _facts_built(self, message: PlanFactsBuilt) -> None:
        findings = self.query_one("#plan-findings", Static)
        if message.error:
            findings.update(Text(message.error, style="bold red"))
        else:
            text = Text()
            if message.notice:
                text.append(message.notice + "\n", style="bold")
            text.append(t("ui.plan.building", path=message.train), style="dim")
            findings.update(text)

    @on(PlanChecked)
    def _checked(self, message: PlanChecked) -> None:
        if not self.requests.is_current(message) or message.report is None:
            return
        self.checked = message.request
        self.show_report(message.report)

    def show_report(self, report: PlanReport) -> None:
        """Render the parameter table, the findings and the estimate of ``report``."""
        self.report = report
        table = self.query_one("#plan-params", DataTable)
        cursor = table.cursor_row
        table.clear()
        self._rows = []
        if report.lowered is not None:
            for row in report.lowered.rows:
                sharded = any(p.is_shard for p in row.placements)
                table.add_row(
                    row.name,
                    "×".join(map(str, row.shape)),
                    row.dtype,
                    Text(", ".join(map(str, row.placements)), style="bold" if sharded else ""),
                    "×".join(map(str, row.local_shape)),
                    # plain, not dim: Textual blends dim text into the cursor row's colour (2.3:1)
                    Text(f"L{row.source.split(':')[-2]} {row.rule.split()[-1]}" if row.source else "-"),
                    key=row.name,
                )
                self._rows.append(row.name)
            if self._rows:
                table.move_cursor(row=min(max(cursor, 0), len(self._rows) - 1))
        findings = Text()
        fail, warn = self.wb.theme_variable("status-fail"), self.wb.theme_variable("status-warn")
        for finding in report.errors:
            findings.append(f"L{finding.line}:{finding.col} ", style="bold")
            findings.append(finding.message + "\n", style=f"bold {fail}")
            if finding.fix:
                findings.append(f"  {t('parallel.cli.fix')}: {finding.fix}\n", style="dim")
        for finding in report.warnings:
            findings.append(f"L{finding.line}:{finding.col} {finding.message}\n", style=warn)
        if not report.errors:
            findings.append(t("ui.plan.valid") + "\n", style=self.wb.theme_variable("status-pass"))
        self.query_one("#plan-findings", Static).update(findings)
        est = report.estimate
        self.query_one("#plan-estimate", Static).update(estimate_text(est) if est is not None else "")
        self._render_title()

    def _render_title(self) -> None:
        report = self.report
        mesh = ""
        if report is not None and report.plan is not None:
            m = report.plan.mesh
            mesh = t(
                "parallel.cli.mesh",
                shape=" × ".join(map(str, m.shape)),
                names=", ".join(m.dim_names),
                ranks=m.size,
            )
        dirty = " *" if self.dirty else ""
        title = f"{self.plan_path}{dirty}   {mesh}"
        if title != self._title:  # an update lays the screen out again: never once per key typed
            self._title = title
            self.query_one("#plan-title", Static).update(title)

    # -- keys ----------------------------------------------------------------------------------------

    def _selected(self) -> tuple[str, str] | None:
        """``(parameter, layer)`` of the selected row."""
        table = self.query_one("#plan-params", DataTable)
        if not self._rows or table.cursor_row < 0 or table.cursor_row >= len(self._rows):
            return None
        name = self._rows[table.cursor_row]
        return name, name.rpartition(".")[0]

    def _replace_text(self, text: str) -> None:
        area = self.query_one("#plan-yaml", TextArea)
        area.load_text(text)
        self._text_changed()

    def action_layer_plan(self, plan: str) -> None:
        """c / w / x: the selected parameter's layer becomes column- / row-parallel / replicated."""
        from workbench.parallel.editing import set_layer_plan

        selected = self._selected()
        if selected is None or not selected[1]:
            return
        self._replace_text(set_layer_plan(self.text, selected[1], plan or None))

    def action_param_shard(self, dim: int) -> None:
        """s / d: the selected parameter itself sharded on dim 0 / its last dim over the last mesh dim."""
        from workbench.parallel.editing import set_param_placements

        selected = self._selected()
        report = self.report
        if selected is None or report is None or report.plan is None or report.lowered is None:
            return
        row = next(r for r in report.lowered.rows if r.name == selected[0])
        target = dim if dim >= 0 else len(row.shape) - 1
        dims = len(report.plan.mesh.shape)
        placements = ["Replicate()"] * (dims - 1) + [f"Shard({target})"]
        current = [str(p) for p in row.placements]
        self._replace_text(
            set_param_placements(
                self.text,
                selected[0],
                None if current == placements and row.rule.startswith("params") else placements,
            )
        )

    def action_save(self) -> None:
        from workbench.runs import atomic_write_text

        assert self.plan_path is not None
        text = self.text
        atomic_write_text(self.plan_path, text)
        self._saved_text = text
        self._remember(self.plan_path)
        self._render_title()
        self.notify(t("ui.plan.saved", path=str(self.plan_path)))

    def action_run(self) -> None:
        """n: run the checked plan on its mesh's ranks; the monitor follows the run."""
        report = self.report
        if report is None or not report.ok or report.plan is None:
            self.notify(t("ui.plan.cannot_run"), severity="warning")
            return
        self._run(report, self.requests.new("plan-run"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="plan-run", description="worker.plan_run")
    def _run(self, report: PlanReport, request: int) -> None:
        from workbench.parallel.launch import start_plan_run

        assert report.plan is not None
        try:
            job = start_plan_run(report, self.wb.store, nproc=report.plan.mesh.size)
        except Exception as exc:  # noqa: BLE001 - shown as a message, never a crash of the screen
            self.post_message(PlanRunStarted(error=f"{type(exc).__name__}: {exc}", request=request))
            return
        self.post_message(PlanRunStarted(job=job, request=request))

    @on(PlanRunStarted)
    def _run_started(self, message: PlanRunStarted) -> None:
        if message.error:
            self.notify(message.error, severity="error")
        elif message.job is not None:
            job = message.job
            self.wb.start_job(lambda _store: job)

    def action_parity(self) -> None:
        """b: the newest finished run of this plan against the newest single-card run of its config."""
        assert self.plan_path is not None
        self._parity(self.plan_path, self.requests.new("plan-parity"))

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="plan-parity",
        description="worker.plan_parity",
    )
    def _parity(self, plan_path: Path, request: int) -> None:
        from workbench.parallel.parity import compare_runs, latest_pair, next_command

        pair = latest_pair(self.wb.store, plan_path)
        result = compare_runs(*pair).to_dict() if pair is not None else None
        if result is not None:
            result["next"] = next_command(result, self.wb.store)
        self.post_message(ParityCompared(result=result, request=request))

    @on(ParityCompared)
    def _parity_compared(self, message: ParityCompared) -> None:
        if not self.requests.is_current(message):
            return
        self.show_parity(message.result)

    def show_parity(self, result: dict[str, Any] | None) -> None:
        """Parity of the plan's run with the baseline, in the findings pane."""
        out = Text()
        if result is None:
            out.append(t("ui.plan.parity.none") + "\n", style="yellow")
        else:

            def fmt(value: object) -> str:
                return f"{value:.3g}" if isinstance(value, int | float) else "-"

            first, left = result["first_divergence_step"], result.get("leaves_floor_step")
            out.append(result["verdict_text"] + "\n", style="bold green" if result["ok"] else "bold red")
            out.append(
                t(
                    "parallel.cli.parity",
                    steps=result["compared_steps"],
                    abs=fmt(result["max_abs_diff"]),
                    rel=fmt(result["max_rel_diff"]),
                    tol=t("parallel.cli.parity.noise_model", k=f"{result['noise']['k']:g}"),
                    left=t("common.none") if left is None else str(left),
                    first=t("common.none") if first is None else str(first),
                )  # fmt: skip
                + "\n"
            )
            out.append(f"{Path(result['run_a']).name}  ↔  {Path(result['run_b']).name}\n", style="dim")
            for check in result["checks"]:
                style = {"fail": "bold red", "warn": "yellow", "pass": "green"}.get(check["status"], "")
                out.append(f"[{check['status']}] ", style=style)
                out.append(f"{check['id']}: {check['summary']}\n")
                if check["status"] == "fail" and check["fix"]:
                    out.append(f"    {t('parallel.cli.fix')}: {check['fix']}\n", style="dim")
            if result.get("next"):
                out.append(t("parallel.parity.next", command=result["next"]) + "\n", style="bold")
        self.query_one("#plan-findings", Static).update(out)

    def action_back(self) -> None:
        self.confirm_leave(lambda: self.app.switch_mode("runs"))

    def action_focus_editor(self) -> None:
        """Tab in the table: into the YAML editor (Escape there comes back)."""
        self.query_one("#plan-yaml", TextArea).focus()

    def action_open(self) -> None:
        """o: open another plan file (recent plans offered)."""

        def chosen(ref: str | None) -> None:
            if ref:
                self.open_plan(Path(ref).expanduser())

        self.app.push_screen(open_plan_dialog(self.wb.workspace), chosen)

    SCREEN_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"back", "focus_editor", "open", "layer_plan", "run", "parity", "param_shard"}
    )
    """Actions of keys that would be text in the editor: off (and not shown) while it has focus."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in self.SCREEN_KEYS and isinstance(self.focused, PlanEditor))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.refresh_bindings()  # the footer shows the keys of what has focus

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.refresh_bindings()
