"""The path a project walks, as the home screen shows it: one step per stage, from the ``verify`` evidence.

environment → baseline → parallel → parity → inference parity → hardware → dataset → verify. Each step
groups checklist items (:func:`workbench.verify.collect` with ``deep=False``: no Paddle import, no
probes, a few small file reads and the checkpoint's hashes) and says done / failed / not run, which
evidence (a run, a report, when) and the command of the next thing to do. The last step is the newest
stored ``verify`` report. Call it from a worker thread: it reads the workspace.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from workbench.i18n import t
from workbench.verify.config import VerifyConfig
from workbench.verify.engine import collect, last_verify
from workbench.verify.model import FAIL, NOT_RUN, PASS, Item

DONE, FAILED = "done", "failed"

STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("environment", ("env.",)),
    ("baseline", ("training.baseline",)),
    ("parallel", ("parallel.run",)),
    ("parity", ("parallel.parity",)),
    ("inference", ("inference.",)),
    ("hardware", ("hardware.",)),
    ("dataset", ("dataset.",)),
)
"""Step id → the checklist item ids (or id prefixes) it stands for; ``verify`` comes last."""


@dataclass
class PathStep:
    id: str
    state: str
    """``done`` / ``failed`` / ``not run``."""
    evidence: str
    command: str
    when: float | None = None

    @property
    def title(self) -> str:
        return t(f"path.step.{self.id}")


def _step(step_id: str, items: list[Item]) -> PathStep:
    if not items:
        return PathStep(step_id, NOT_RUN, "", "")
    failed = [i for i in items if i.status == FAIL]
    missing = [i for i in items if i.status == NOT_RUN]
    first = failed[0] if failed else missing[0] if missing else items[0]
    state = FAILED if failed else NOT_RUN if missing else DONE
    whens = [i.when for i in items if i.when is not None]
    return PathStep(step_id, state, first.evidence, first.command, max(whens) if whens else None)


def path_steps(workspace: str | Path | None = None, config: VerifyConfig | None = None) -> list[PathStep]:
    """The eight steps of the path for ``workspace`` (cheap: see the module docstring)."""
    result = collect(workspace, config, deep=False)
    steps = [
        _step(step_id, [i for i in result.items if any(i.id.startswith(p) for p in prefixes)])
        for step_id, prefixes in STEPS
    ]
    last = last_verify(result.workspace)
    if last is None:
        steps.append(PathStep("verify", NOT_RUN, "", "paddle-workbench verify"))
    else:
        counts = last.get("counts") or {}
        evidence = t(
            "path.verify_done",
            passed=counts.get(PASS, 0),
            failed=counts.get(FAIL, 0),
            not_run=counts.get(NOT_RUN, 0),
        )
        failed = [
            str(i.get("id"))
            for i in last.get("items") or []
            if isinstance(i, dict) and i.get("status") == FAIL
        ]
        if failed:  # which items, on the dashboard line itself; v lists each with its evidence and fix
            evidence += " — " + t("path.verify_failed", ids=", ".join(failed))
        when = last.get("time")
        steps.append(
            PathStep(
                "verify",
                DONE if last.get("ok") else FAILED,
                evidence,
                "paddle-workbench verify",
                float(when) if isinstance(when, int | float) else None,
            )
        )
    return steps


def checklist_text(items: list[Item], summary: str, report: Path | None = None) -> str:
    """What ``v`` shows once the checklist ran: the verdict, then every failed item with its evidence
    and the command that fixes it, then the items without evidence with the command that makes it."""
    lines = [summary + (f"  ({report})" if report is not None else "")]
    for status, title, glyph, fix in (
        (FAIL, "path.failed_items", "✗", "path.fix"),
        (NOT_RUN, "path.not_run_items", "·", "path.run"),
    ):
        chosen = [i for i in items if i.status == status]
        if not chosen:
            continue
        lines += ["", t(title, count=len(chosen))]
        for item in chosen:
            lines.append(f"{glyph} {item.id} — {item.evidence}")
            if item.command:
                lines.append("    " + t(fix, command=item.command))
    return "\n".join(lines)


def next_step(steps: list[PathStep]) -> PathStep | None:
    """The first step that is not done (a failed one before one not run): what to do first."""
    return next((s for s in steps if s.state == FAILED), None) or next(
        (s for s in steps if s.state != DONE), None
    )
