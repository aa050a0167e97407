"""The ``wizard`` mode: pick a problem (or "I have an error"), walk its flow, read the finding, export it.

Thin by design: the flows, their probes and ``diagnose`` are engine code
(:mod:`workbench.troubleshoot.flow`, :mod:`workbench.troubleshoot.probes`,
:mod:`workbench.troubleshoot.diagnose`). Questions are answered from an option list (choice, yes/no) or
the text box (free text, a pasted error; ``ctrl+s`` submits); probes run on a thread worker and come
back as :class:`FlowProbed`; the evidence gathered so far is always shown. ``b`` goes back a step,
``e`` writes the finding (and any diagnosis) to ``<workspace>/reports/wizard-<time>.md``; ``r`` opens the
workspace's newest failed run straight into its diagnosis, and ``f`` continues into the matching flow.
Probes look at the workspace's newest run when there is one.

Keys follow the user: the problem list is focused with its first row highlighted on entry (enter works
at once); the footer offers only the keys that do something now (``b`` inside a flow, ``ctrl+s`` while the
text box is open, ``e`` once there is something to export, ``f`` after a diagnosis with a flow to follow)
and ``tab`` between the problem list and the current step. When a flow ends or a diagnosis arrives,
focus returns to the problem list, where the next action starts. Every new start (a problem, a paste,
``r``) clears the previous one's evidence, finding and text. A pasted log with no known cause but a
traceback gets the engine's structured reading (the error, the frame in the user's or kit's code, the
versions, the closest cause marked "not sure", what to try) — the lines ``diagnose`` prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from workbench.i18n import t
from workbench.screens.base import WorkbenchScreen
from workbench.screens.inert import InertStatic
from workbench.screens.widgets.key_footer import KeyFooter
from workbench.screens.workers import FlowProbed, PasteDiagnosed, WizardExported

if TYPE_CHECKING:
    from workbench.troubleshoot.diagnose import Diagnosis

PASTE = "__paste__"


def next_flow(diagnosis: Diagnosis, matched: str | None) -> str | None:
    """The flow to offer after a diagnosis: the one its top known cause names, else the one the
    unrecognised answer points at (its closest family, not sure)."""
    if matched is not None:
        return matched
    return diagnosis.unrecognised.flow if diagnosis.unrecognised is not None else None


class WizardScreen(WorkbenchScreen):
    """Guided troubleshooting: problems on the left, the current step, evidence and finding on the right."""

    mode = "wizard"
    BINDINGS: ClassVar[list[BindingType]] = [  # in the order a narrow footer keeps them
        Binding("r", "failed_run", "ui.wizard.key.run"),
        Binding("ctrl+s", "submit", "ui.wizard.key.submit"),
        Binding("f", "follow", "ui.wizard.key.follow"),
        Binding("e", "export", "ui.wizard.key.export"),
        Binding("b", "step_back", "ui.wizard.key.back"),
        Binding("tab", "app.focus_next", "ui.wizard.key.tab"),
        Binding("escape", "leave", "ui.key.back"),
    ]
    DEFAULT_CSS = """
    WizardScreen #wizard-problems { width: 40; }
    WizardScreen #wizard-right { padding: 0 1; }
    WizardScreen #wizard-prompt { height: auto; margin-bottom: 1; }
    WizardScreen #wizard-choices { height: auto; max-height: 10; }
    WizardScreen #wizard-text { height: 8; }
    WizardScreen .wizard-pane { height: auto; margin-top: 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.walk: Any = None  # FlowWalk of the problem being walked
        self.diagnosis: dict[str, Any] | None = None
        self.suggested_flow: str | None = None
        self.busy = False
        self.last_export: str = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield OptionList(id="wizard-problems")
            with VerticalScroll(id="wizard-right"):
                yield InertStatic(t("ui.wizard.pick"), id="wizard-prompt")  # may name the pasted source
                yield OptionList(id="wizard-choices")
                yield TextArea(id="wizard-text")
                yield InertStatic(id="wizard-finding", classes="wizard-pane")  # right under its header
                yield InertStatic(id="wizard-evidence", classes="wizard-pane")  # quoted log lines
        yield KeyFooter()

    def on_mount(self) -> None:
        from workbench.troubleshoot.flows import FLOWS

        problems = self.query_one("#wizard-problems", OptionList)
        problems.add_option(Option(t("ui.wizard.paste"), id=PASTE))
        for name, flow in FLOWS.items():
            problems.add_option(Option(t(flow.title_key), id=name))
        problems.highlighted = 0
        problems.focus()
        self.query_one("#wizard-choices", OptionList).display = False
        self.query_one("#wizard-text", TextArea).display = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers a key only while it does something (see the module docstring)."""
        if action == "step_back":
            return self.walk is not None
        if action == "submit":
            return self.query_one("#wizard-text", TextArea).display
        if action == "export":
            return self.diagnosis is not None or (self.walk is not None and self.walk.done)
        if action == "follow":
            return self.walk is None and self.suggested_flow is not None
        return True

    def _clear(self) -> None:
        """Forget the previous problem, paste or diagnosis: its walk, evidence, finding and text."""
        self.walk = None
        self.diagnosis = None
        self.suggested_flow = None
        self.query_one("#wizard-evidence", Static).update("")
        self.query_one("#wizard-finding", Static).update("")
        self.query_one("#wizard-text", TextArea).clear()
        self._show_choices([])
        self.refresh_bindings()

    def _to_problems(self) -> None:
        """Focus the problem list, where the next action starts (pick, or a screen key: e, f, r, b)."""
        problems = self.query_one("#wizard-problems", OptionList)
        if problems.highlighted is None:
            problems.highlighted = 0
        problems.focus()

    # -- where probes look --------------------------------------------------------------------------

    def _probe_context(self) -> Any:
        from workbench.troubleshoot.probes import ProbeContext

        workspace = getattr(self.app, "workspace", None)
        run_dir = None
        if workspace is not None:
            from workbench.runs import RunStore

            run_dir = RunStore(Path(workspace)).resolve("latest")
        return ProbeContext(run_dir=run_dir, workspace=Path(workspace) if workspace else None, timeout_s=120)

    # -- picking a problem ----------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#wizard-problems")
    def _problem_picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == PASTE:
            self.open_paste()
        elif event.option.id:
            self.start_flow(event.option.id)

    def open_paste(self) -> None:
        """A fresh text box for a pasted error: the previous paste, flow and diagnosis are gone."""
        self._clear()
        self._set_prompt(t("ui.wizard.paste.prompt"))
        text = self.query_one("#wizard-text", TextArea)
        text.display = True
        text.focus()
        self.refresh_bindings()

    def start_flow(self, flow_id: str, context: Any = None, keep_diagnosis: bool = False) -> None:
        """Walk ``flow_id`` from its start; ``keep_diagnosis``: it follows from the diagnosis (``f``), which
        stays for the export."""
        from workbench.troubleshoot.flow import open_flow

        diagnosis = self.diagnosis
        self._clear()
        if keep_diagnosis:
            self.diagnosis = diagnosis
        self.walk = open_flow(flow_id, context or self._probe_context())
        self._render_step()

    # -- walking ----------------------------------------------------------------------------------------

    def _set_prompt(self, text: str) -> None:
        self.query_one("#wizard-prompt", Static).update(text)

    def _show_choices(self, choices: list[tuple[str, str]]) -> None:
        options = self.query_one("#wizard-choices", OptionList)
        options.clear_options()
        for key, label in choices:
            options.add_option(Option(label, id=key))
        options.display = bool(choices)
        if choices:
            options.highlighted = 0
            options.focus()

    def _render_step(self) -> None:
        walk = self.walk
        if walk is None:
            return
        text = self.query_one("#wizard-text", TextArea)
        text.display = False
        evidence = [line for sid in walk.path if sid in walk.evidence for line in walk.evidence[sid]]
        self.query_one("#wizard-evidence", Static).update(
            (t("ui.wizard.evidence") + "\n" + "\n".join(evidence)) if evidence else ""
        )
        step = walk.step
        self.refresh_bindings()
        if walk.done:
            finding = walk.finding()
            self._set_prompt(t("ui.wizard.done", title=finding.title))
            self._show_choices([])
            self.query_one("#wizard-finding", Static).update(
                f"{t('diagnose.cli.cause', text=finding.cause)}\n"
                f"{t('diagnose.cli.fix', text=finding.fix)}\n\n{t('ui.wizard.export_hint')}"
            )
            self._to_problems()
            return
        self._set_prompt(walk.prompt)
        if step.probe:
            self._show_choices([])
            self.busy = True
            self._probe(walk)
        elif step.ask == "choice":
            self._show_choices(walk.choices())
        elif step.ask == "yesno":
            self._show_choices([("yes", t("ui.wizard.yes")), ("no", t("ui.wizard.no"))])
        else:
            self._show_choices([])
            text.display = True
            text.clear()
            text.focus()

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="wizard-probe",
        description="worker.wizard_probe",
    )
    def _probe(self, walk: Any) -> None:
        evidence = walk.run_probe()
        self.post_message(FlowProbed(evidence=evidence))

    @on(FlowProbed)
    def _probed(self, message: FlowProbed) -> None:
        self.busy = False
        self._render_step()

    @on(OptionList.OptionSelected, "#wizard-choices")
    def _choice_picked(self, event: OptionList.OptionSelected) -> None:
        if self.walk is not None and not self.busy and event.option.id:
            self.answer(event.option.id)

    def answer(self, value: str) -> None:
        """Answer the current question: a choice id, ``"yes"``/``"no"``, or free text."""
        step = self.walk.step
        self.walk.answer(value == "yes" if step.ask == "yesno" else value)
        self._render_step()

    def action_step_back(self) -> None:
        if self.walk is not None and not self.busy:
            self.walk.back()
            while self.walk.step.probe and self.walk.back():  # a probe is not a question: skip past it
                pass
            self.query_one("#wizard-finding", Static).update("")
            self._render_step()
            if not self.walk.done and not self.walk.step.probe and self.walk.step.ask != "text":
                self.query_one("#wizard-choices", OptionList).focus()

    def action_leave(self) -> None:
        self.app.switch_mode("runs")

    # -- the text box: free-text answers and pasted errors --------------------------------------------

    def action_submit(self) -> None:
        value = self.query_one("#wizard-text", TextArea).text
        if self.walk is not None and not self.walk.done and self.walk.step.ask == "text":
            self.answer(value)
            return
        if self.walk is None:
            self.diagnose_paste(value)

    def diagnose_paste(self, value: str) -> None:
        self.query_one("#wizard-evidence", Static).update("")
        self.query_one("#wizard-finding", Static).update("")
        self._set_prompt(t("ui.wizard.diagnosing"))
        self._diagnose(value)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="wizard-diagnose",
        description="worker.wizard_diagnose",
    )
    def _diagnose(self, value: str) -> None:
        from workbench.troubleshoot.context import flow_for
        from workbench.troubleshoot.diagnose import DiagnoseInputError, decode_log, diagnose_texts

        try:
            text, notices = decode_log(value.encode("utf-8", "surrogatepass"), t("ui.wizard.paste.source"))
        except DiagnoseInputError as exc:
            self.post_message(PasteDiagnosed(error=str(exc)))
            return
        diagnosis = diagnose_texts([(t("ui.wizard.paste.source"), text)], notices)
        self.post_message(
            PasteDiagnosed(doc=diagnosis.to_dict(), flow=next_flow(diagnosis, flow_for(diagnosis)))
        )

    @on(PasteDiagnosed)
    def _diagnosed(self, message: PasteDiagnosed) -> None:
        from workbench.troubleshoot.diagnose import similar_lines, unrecognised_lines

        finding = self.query_one("#wizard-finding", Static)
        if message.doc is None:
            self._set_prompt(message.error)
            return
        self.diagnosis = message.doc
        self.suggested_flow = message.flow
        self.query_one("#wizard-text", TextArea).display = False  # the paste is read; r/e/f are keys again
        self._to_problems()
        self.refresh_bindings()
        matches = message.doc["matches"]
        reading = unrecognised_lines(message.doc)
        lines: list[str] = []
        if matches:
            self._set_prompt(t("diagnose.cli.found", count=len(matches)))
            for i, match in enumerate(matches, 1):
                lines += [
                    f"{i}. {match['title']}  [{match['id']}]",
                    "   " + match["cause"],
                    "   → " + match["fix"],
                ]
                lines += ["   " + e for e in match["evidence"]]
        elif reading:  # no known cause, but a traceback read out: what it shows, and what to try
            self._set_prompt(reading[0])
            lines += reading[1:]
        else:
            self._set_prompt(t("diagnose.cli.none"))
        similar = similar_lines(message.doc)  # after the known causes, under their own header
        if similar:
            lines += ["", *similar]
        if message.flow:
            from workbench.troubleshoot.flows import FLOWS

            lines += ["", t("ui.wizard.continue", flow=t(FLOWS.get(message.flow).title_key))]
        elif lines:
            lines += ["", t("ui.wizard.export_diagnosis")]
        finding.update("\n".join(lines))

    def action_follow(self) -> None:
        """f: after a diagnosis, walk the flow that continues from its top cause."""
        if self.walk is None and self.suggested_flow:
            self.start_flow(self.suggested_flow, keep_diagnosis=True)

    def action_failed_run(self) -> None:
        """r: open the workspace's newest failed run straight into its diagnosis (f then walks the flow)."""
        workspace = getattr(self.app, "workspace", None)
        if workspace is not None:
            self._clear()
            self.query_one("#wizard-text", TextArea).display = False
            self._set_prompt(t("ui.wizard.diagnosing"))
            self._to_problems()
            self._diagnose_run(Path(workspace))

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="wizard-diagnose",
        description="worker.wizard_run",
    )
    def _diagnose_run(self, workspace: Path) -> None:
        from workbench.runs import RunStore
        from workbench.troubleshoot.context import open_failed_run
        from workbench.troubleshoot.diagnose import DiagnoseInputError

        failed = [run for run in RunStore(workspace).list() if run.status == "failed"]
        if not failed:
            self.post_message(PasteDiagnosed(error=t("ui.wizard.no_failed")))
            return
        try:
            diagnosis, flow = open_failed_run(failed[0].run_dir)
        except DiagnoseInputError as exc:
            self.post_message(PasteDiagnosed(error=str(exc)))
            return
        self.post_message(PasteDiagnosed(doc=diagnosis.to_dict(), flow=next_flow(diagnosis, flow)))

    # -- export ---------------------------------------------------------------------------------------

    def action_export(self) -> None:
        workspace = getattr(self.app, "workspace", None)
        if workspace is None or (self.diagnosis is None and (self.walk is None or not self.walk.done)):
            return
        title = t("ui.wizard.report_title")
        finding = None
        if self.walk is not None and self.walk.done:
            found = self.walk.finding()
            finding = {
                "title": found.title,
                "cause": found.cause,
                "fix": found.fix,
                "evidence": found.evidence,
            }
        self._export(Path(workspace), title, finding, self.diagnosis)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="wizard-export",
        description="worker.wizard_export",
    )
    def _export(self, workspace: Path, title: str, finding: Any, diagnosis: Any) -> None:
        from workbench.troubleshoot.bundle import write_findings

        try:
            path = write_findings(workspace, title, finding, diagnosis)
        except OSError as exc:
            self.post_message(WizardExported(error=exc.strerror or str(exc)))
            return
        self.post_message(WizardExported(path=str(path)))

    @on(WizardExported)
    def _exported(self, message: WizardExported) -> None:
        self.last_export = message.path
        self.notify(
            t("ui.wizard.exported", path=message.path) if message.path else message.error,
            severity="information" if message.path else "error",
        )
