"""``plan validate``: read a plan, build its training config's model on the CPU, lower, check, estimate.

Nothing is launched and no collective runs; the answer is a :class:`PlanReport` whose ``to_dict`` is the
``plan validate --json`` document (``ok``, ``errors``, ``warnings``, ``params``, ``estimate``,
``user_code``). The model is built in a child process with a time limit
(:func:`workbench.parallel.facts.build_facts_isolated`): it imports Paddle and, for ``task: custom``, the
user's module, and its crash or hang is a located finding, never the end of the caller. ``notify`` hears,
before the build starts, that the user's code is about to be imported (:func:`user_code_notice`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.config.loader import PositionMap, load_yaml, validate_data
from workbench.i18n import t
from workbench.isolate import Cancel
from workbench.parallel.estimate import Estimate, estimate
from workbench.parallel.facts import FactsBuildFailed, ModelFacts, build_facts_isolated, user_code_notice
from workbench.parallel.facts_cache import cached_or_built
from workbench.parallel.lowering import Finding, Lowered, lower
from workbench.parallel.spec import PlanConfig


@dataclass
class PlanReport:
    path: Path
    plan: PlanConfig | None = None
    train_path: Path | None = None
    facts: ModelFacts | None = None
    lowered: Lowered | None = None
    estimate: Estimate | None = None
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    positions: PositionMap | None = None
    user_code: str | None = None
    """The notice said before the model build imported the user's module (``task: custom``), if it did."""
    facts_reused: bool = False
    """The model facts came from the workspace's cache (:mod:`workbench.parallel.facts_cache`): config,
    data, code and Paddle unchanged since the check that built them."""

    @property
    def ok(self) -> bool:
        return not self.errors and self.lowered is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "file": str(self.path),
            "train": str(self.train_path) if self.train_path else None,
            "mesh": (
                {"shape": self.plan.mesh.shape, "dim_names": self.plan.mesh.dim_names} if self.plan else None
            ),
            "errors": [f.to_dict() for f in self.errors],
            "warnings": [f.to_dict() for f in self.warnings],
            "params": [row.to_dict() for row in self.lowered.rows] if self.lowered else [],
            "layer_plans": dict(self.lowered.layer_plans) if self.lowered else {},
            "layer_markers": dict(self.lowered.layer_markers) if self.lowered else {},
            "recompute": list(self.lowered.recompute) if self.lowered else [],
            "amp": self.plan.amp.model_dump() if self.plan and self.plan.amp else None,
            "estimate": self.estimate.to_dict() if self.estimate else {},
            "user_code": self.user_code,
            "facts_reused": self.facts_reused,
        }


def _issue_finding(issue: ConfigIssue, code: str = "config") -> Finding:
    return Finding(issue.file, issue.line, issue.col, issue.message, issue.hint, code)


def load_plan(
    path: str | os.PathLike[str], overrides: Sequence[str] = (), text: str | None = None
) -> tuple[PlanConfig, PositionMap]:
    """Read and schema-check a plan file (or ``text``, an editor's buffer for it); raises
    :class:`ConfigError` with every located problem."""
    data, positions = load_yaml(Path(path), text)
    return validate_data(data, positions, PlanConfig, str(path), overrides), positions


def check_plan(
    path: str | os.PathLike[str],
    *,
    nproc: int | None = None,
    overrides: Sequence[str] = (),
    train_overrides: Sequence[str] = (),
    facts: ModelFacts | None = None,
    text: str | None = None,
    notify: Callable[[str], None] | None = None,
    cancel: Cancel | None = None,
    facts_cache: Path | None = None,
) -> PlanReport:
    """Validate ``path`` against the real model (see :mod:`workbench.parallel.lowering`).

    Without ``facts`` the model is built in a child process; ``notify(sentence)`` is called first when
    that imports the user's code, and ``cancel`` ends the child
    (:class:`~workbench.isolate.ChildCancelled` then propagates). With ``facts_cache`` (a workspace's
    :func:`~workbench.parallel.facts_cache.cache_folder`) facts built for the same config, data, code and
    Paddle are reused, and facts built here are kept there."""
    report = PlanReport(path=Path(path))
    try:
        plan, positions = load_plan(path, overrides, text)
    except ConfigError as exc:
        report.errors = [_issue_finding(i) for i in exc.issues]
        return report
    report.plan, report.positions = plan, positions
    train_path = plan.train_path(Path(path))
    report.train_path = train_path
    line, col = positions.values.get(("train",), (1, 1))
    if not train_path.is_file():
        report.errors.append(
            Finding(
                str(path),
                line,
                col,
                t("parallel.error.train_missing", path=str(train_path)),
                t("parallel.fix.train_missing"),
                "train_missing",
            )  # fmt: skip
        )
        return report
    if facts is None:
        report.user_code = user_code_notice(train_path, train_overrides)
        if report.user_code is not None and notify is not None:
            notify(report.user_code)

        def build() -> ModelFacts:
            return build_facts_isolated(train_path, train_overrides, cancel=cancel)

        try:
            if facts_cache is None:
                facts = build()
            else:
                facts, report.facts_reused = cached_or_built(facts_cache, train_path, train_overrides, build)
        except ConfigError as exc:
            report.errors = [_issue_finding(i, "train_config") for i in exc.issues]
            return report
        except FactsBuildFailed as exc:
            for message in exc.messages:
                report.errors.append(
                    Finding(
                        str(path),
                        line,
                        col,
                        t("parallel.error.train_build", error=str(message)),
                        t("parallel.fix.train_build", path=str(train_path)),
                        "train_build",
                    )  # fmt: skip
                )
            return report
    assert facts is not None  # the build returns facts or raises
    report.facts = facts
    device = "cpu" if facts.device.startswith("cpu") else "gpu"
    lowered = lower(plan, facts, file=str(path), positions=positions, nproc=nproc, device=device)
    report.lowered = lowered
    report.errors.extend(lowered.errors)
    report.warnings.extend(lowered.warnings)
    report.estimate = estimate(plan, facts, lowered)
    return report
