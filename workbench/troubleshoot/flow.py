"""Troubleshooting flows as data: the YAML model (validated, located errors) and a walker the wizard drives.

A flow file (one per problem in :mod:`workbench.troubleshoot.flows`; its name is the flow's id)::

    order: 10                     # place in the wizard's list; title: catalog key wizard.flow.<flow>
    start: where
    steps:
      - id: where                 # prompt: catalog key wizard.<flow>.<id>
        ask: choice               # choice | yesno | text
        choices: {linux: probe_python, windows: dll}   # choice id → next step; label key wizard.<flow>.<id>.<choice>
      - id: probe_python
        probe: interpreter        # a name in workbench.troubleshoot.probes.PROBES
        args: {}
        outcomes: {paddle_found: ok, paddle_missing: missing}   # every outcome the probe names, or "*"
      - id: missing
        finding: true             # a leaf: wizard.<flow>.<id> (title), .cause, .fix; evidence = the probes' lines

``yesno`` steps give ``if_yes:``/``if_no:`` (plain ``yes``/``no`` keys are booleans in YAML); ``text`` steps give ``next:`` (the text is kept as evidence).
:func:`load_flow` reports every problem at once, located to ``file:line:col``: a branch to a step that
does not exist, an unknown probe, an outcome the flow does not cover, a step no path reaches, a missing
catalog string.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.config.loader import PositionMap, load_yaml, validate_data
from workbench.i18n import catalog, t
from workbench.troubleshoot.probes import PROBES, ProbeContext, run_probe


class StepSpec(BaseModel):
    """One step: a question (``ask``), an automatic check (``probe``) or a leaf (``finding``)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    ask: Literal["choice", "yesno", "text"] | None = None
    choices: dict[str, str] = Field(default_factory=dict)
    if_yes: str | None = None
    if_no: str | None = None
    next: str | None = None
    probe: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    outcomes: dict[str, str] = Field(default_factory=dict)
    finding: bool = False

    @property
    def kind(self) -> str:
        return "finding" if self.finding else "probe" if self.probe else str(self.ask or "?")

    def targets(self) -> list[tuple[str, str]]:
        """``(field, next step)`` for every branch of this step."""
        out = [(f"choices.{k}", v) for k, v in self.choices.items()]
        out += [(f"outcomes.{k}", v) for k, v in self.outcomes.items()]
        out += [
            (name, v)
            for name, v in (("if_yes", self.if_yes), ("if_no", self.if_no), ("next", self.next))
            if v
        ]
        return out


class FlowSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    order: float | None = None
    """Place in the wizard's list (smaller first; flows without one follow)."""
    start: str
    steps: list[StepSpec] = Field(min_length=1)


def _where(positions: PositionMap, loc: tuple[Any, ...]) -> tuple[int, int]:
    return positions.values.get(loc) or positions.keys.get(loc) or (0, 0)


def load_flow(flow_id: str, path: Path) -> FlowSpec:
    """Read and check one flow file; raise :class:`ConfigError` listing every problem with its place."""
    data, positions = load_yaml(path)
    spec = validate_data(data, positions, FlowSpec, str(path))
    issues: list[ConfigIssue] = []
    file = str(path)

    def issue(loc: tuple[Any, ...], message: str) -> None:
        line, col = _where(positions, loc)
        issues.append(ConfigIssue(file, line, col, message))

    ids = [s.id for s in spec.steps]
    known = set(ids)
    strings = catalog()
    for index, step in enumerate(spec.steps):
        at: tuple[Any, ...] = ("steps", index)
        kinds = [bool(step.ask), bool(step.probe), step.finding]
        if sum(kinds) != 1:
            issue((*at, "id"), t("flow.error.kind", step=step.id))
        if ids.count(step.id) > 1:
            issue((*at, "id"), t("flow.error.duplicate", step=step.id))
        for name, target in step.targets():
            if target not in known:
                issue((*at, *name.split(".")), t("flow.error.dangling", step=step.id, target=target))
        if step.ask == "choice" and len(step.choices) < 2:
            issue((*at, "ask"), t("flow.error.choices", step=step.id))
        if step.ask == "yesno" and not (step.if_yes and step.if_no):
            issue((*at, "ask"), t("flow.error.yesno", step=step.id))
        if step.ask == "text" and not step.next:
            issue((*at, "ask"), t("flow.error.text", step=step.id))
        if step.probe:
            if step.probe not in PROBES:
                issue(
                    (*at, "probe"), t("flow.error.probe", probe=step.probe, known=", ".join(PROBES.names()))
                )
            else:
                declared = PROBES.get(step.probe).outcomes
                for outcome in step.outcomes:
                    if outcome != "*" and outcome not in declared:
                        issue(
                            (*at, "outcomes", outcome),
                            t("flow.error.outcome", outcome=outcome, probe=step.probe),
                        )
                if "*" not in step.outcomes:
                    for outcome in declared:
                        if outcome not in step.outcomes:
                            issue(
                                (*at, "outcomes"),
                                t("flow.error.uncovered", outcome=outcome, probe=step.probe),
                            )
        keys = [f"wizard.{flow_id}.{step.id}"]
        keys += [f"wizard.{flow_id}.{step.id}.{c}" for c in step.choices]
        if step.finding:
            keys += [f"wizard.{flow_id}.{step.id}.cause", f"wizard.{flow_id}.{step.id}.fix"]
        for key in keys:
            if key not in strings:
                issue((*at, "id"), t("flow.error.string", key=key))
    if spec.start not in known:
        issue(("start",), t("flow.error.dangling", step="start", target=spec.start))
    else:
        reached, todo = set(), [spec.start]
        by_id = {s.id: s for s in spec.steps}
        while todo:
            current = todo.pop()
            if current in reached or current not in by_id:
                continue
            reached.add(current)
            todo.extend(target for _, target in by_id[current].targets())
        for index, step in enumerate(spec.steps):
            if step.id not in reached:
                issue(("steps", index, "id"), t("flow.error.unreachable", step=step.id))
    if issues:
        raise ConfigError(issues)
    return spec


@dataclass
class Finding:
    """A leaf reached: what is wrong, why, what to do, and the evidence gathered on the way."""

    title: str
    cause: str
    fix: str
    evidence: list[str]


@dataclass
class FlowWalk:
    """One walk through a flow: the current step, the path so far (to go back), evidence and the finding."""

    flow_id: str
    spec: FlowSpec
    context: ProbeContext = field(default_factory=ProbeContext)
    path: list[str] = field(default_factory=list)
    evidence: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._steps = {s.id: s for s in self.spec.steps}
        if not self.path:
            self.path.append(self.spec.start)

    @property
    def step(self) -> StepSpec:
        return self._steps[self.path[-1]]

    @property
    def prompt(self) -> str:
        return t(f"wizard.{self.flow_id}.{self.step.id}")

    def choices(self) -> list[tuple[str, str]]:
        """``(choice id, label)`` of the current choice step."""
        return [(c, t(f"wizard.{self.flow_id}.{self.step.id}.{c}")) for c in self.step.choices]

    def answer(self, value: str | bool) -> None:
        """Answer the current question (a choice id, ``True``/``False``, or free text)."""
        step = self.step
        target: str | None
        if step.ask == "choice":
            target = step.choices[str(value)]
        elif step.ask == "yesno":
            target = step.if_yes if value else step.if_no
        elif step.ask == "text":
            self.evidence[step.id] = [t("flow.evidence.text", text=str(value))] if str(value).strip() else []
            target = step.next
        else:
            raise ValueError(f"step {step.id!r} is not a question")
        assert target is not None
        self.path.append(target)

    def run_probe(self) -> list[str]:
        """Run the current probe step, follow its outcome, and return its evidence (may take seconds)."""
        step = self.step
        assert step.probe is not None
        result = run_probe(step.probe, self.context, step.args)
        evidence = [t("flow.evidence.probe", probe=step.probe, outcome=result.outcome)] + result.evidence
        self.evidence[step.id] = evidence
        target = step.outcomes.get(result.outcome) or step.outcomes.get("*")
        if target is None:  # the probe itself failed (outcome "error"): say so as the finding
            self._steps["__probe_error"] = StepSpec(id="probe_error", finding=True)
            self.path.append("__probe_error")
        else:
            self.path.append(target)
        return evidence

    def back(self) -> bool:
        """Go back one step (the evidence of the step left is dropped); False at the start."""
        if len(self.path) <= 1:
            return False
        left = self.path.pop()
        self.evidence.pop(left, None)
        self.evidence.pop(self.path[-1], None)
        return True

    @property
    def done(self) -> bool:
        return self.step.finding

    def finding(self) -> Finding:
        step = self.step
        if self.path[-1] == "__probe_error":
            title, cause, fix = (
                t("flow.probe_error.title"),
                t("flow.probe_error.cause"),
                t("flow.probe_error.fix"),
            )
        else:
            base = f"wizard.{self.flow_id}.{step.id}"
            title, cause, fix = t(base), t(f"{base}.cause"), t(f"{base}.fix")
        lines = [line for sid in self.path if sid in self.evidence for line in self.evidence[sid]]
        return Finding(title, cause, fix, lines)


def open_flow(flow_id: str, context: ProbeContext | None = None) -> FlowWalk:
    """Start walking the registered flow ``flow_id``."""
    from workbench.troubleshoot.flows import FLOWS

    flow = FLOWS.get(flow_id)
    return FlowWalk(flow_id, load_flow(flow_id, flow.source), context or ProbeContext())


__all__ = ["Finding", "FlowSpec", "FlowWalk", "StepSpec", "load_flow", "open_flow"]
