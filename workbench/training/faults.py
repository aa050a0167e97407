"""Fault injection, so tests (and curious users) can see how a run fails without waiting for it to.

A spec is a comma-separated list of ``kind@step[:seconds]``, read from the config's hidden
``debug.inject`` key and from ``$PADDLE_WORKBENCH_INJECT`` (both apply):

=================== ===========================================================================
``nan@N``           the loss of step N becomes NaN before ``backward`` (so the weights go NaN too)
``inf@N``           the same with +Inf
``raise@N``         step N raises ``InjectedFault`` (the run fails; earlier events and checkpoints stay)
``hang@N[:S]``      step N sleeps S seconds (default 3600), waking early when the run is cancelled
``slow_checkpoint@N[:S]`` the checkpoint of step N sleeps S seconds (default 3600) after its first
                    file, so a test can ``kill -9`` the process in the middle of a checkpoint write
=================== ===========================================================================

Example: ``PADDLE_WORKBENCH_INJECT=nan@5 paddle-workbench train cfg.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from workbench.config.training import INJECT_PATTERN

INJECT_ENV = "PADDLE_WORKBENCH_INJECT"
KINDS = ("nan", "inf", "raise", "hang", "slow_checkpoint")
DEFAULT_SLEEP_S = 3600.0


class InjectedFault(RuntimeError):
    """The exception a ``raise@N`` fault throws."""


@dataclass(frozen=True)
class Fault:
    kind: str
    step: int
    seconds: float = DEFAULT_SLEEP_S

    def __str__(self) -> str:
        return f"{self.kind}@{self.step}"


def parse_faults(spec: str) -> list[Fault]:
    """Parse ``kind@step[:seconds],...``; raise ``ValueError`` naming the bad part."""
    faults: list[Fault] = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if not re.fullmatch(INJECT_PATTERN, part):
            raise ValueError(f"'{part}' is not kind@step[:seconds] (kinds: {', '.join(KINDS)})")
        kind, rest = part.split("@", 1)
        step_text, _, seconds_text = rest.partition(":")
        faults.append(Fault(kind, int(step_text), float(seconds_text) if seconds_text else DEFAULT_SLEEP_S))
    return faults


def faults_from(config_spec: str | None, environ: Mapping[str, str]) -> list[Fault]:
    """Faults from the config's ``debug.inject`` and from ``$PADDLE_WORKBENCH_INJECT``, in that order."""
    return parse_faults(config_spec or "") + parse_faults(environ.get(INJECT_ENV, ""))


class FaultPlan:
    """The faults of one run, looked up by step (an empty plan costs one dict lookup per step)."""

    def __init__(self, faults: list[Fault] | tuple[Fault, ...] = ()) -> None:
        self.faults = tuple(faults)
        self._by_step: dict[tuple[str, int], Fault] = {(f.kind, f.step): f for f in self.faults}

    def __bool__(self) -> bool:
        return bool(self.faults)

    def get(self, kind: str, step: int) -> Fault | None:
        return self._by_step.get((kind, step)) if self._by_step else None
