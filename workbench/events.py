"""The event vocabulary shared by every run.

A run produces two kinds of output (docs/architecture.md, "Event model"):

* **lifecycle events** — rare, past-tense dataclasses (:class:`RunStarted` … :class:`RunCancelled`);
* **metric samples** — frequent ``(rank, step, time, {name: value})`` rows, kept in memory by
  :mod:`workbench.metric_store` and drained by the UI on a timer.

Both serialise to one JSON object per line in ``events.jsonl`` (docs/architecture.md, "Run store");
:func:`event_from_dict`
reads them back and ignores fields it does not know.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

# --------------------------------------------------------------------------- lifecycle events


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every lifecycle event; ``type`` is the stable name written to ``events.jsonl``."""

    TYPE: ClassVar[str] = "event"
    time: float = field(default_factory=time.time, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, ``{"type": ..., "time": ..., <fields>}``."""
        payload = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"type": self.TYPE, **payload}


@dataclass(frozen=True, slots=True)
class RunStarted(Event):
    TYPE: ClassVar[str] = "run_started"
    run_id: str = ""
    name: str = ""
    kind: str = "in_process"  # or "launched"
    pid: int = 0
    ranks: int = 1


@dataclass(frozen=True, slots=True)
class CheckpointSaved(Event):
    TYPE: ClassVar[str] = "checkpoint_saved"
    step: int = 0
    path: str = ""


@dataclass(frozen=True, slots=True)
class AlertRaised(Event):
    """Something the user must look at: ``kind`` is e.g. ``nonfinite``, ``hang``, ``divergence``."""

    TYPE: ClassVar[str] = "alert_raised"
    kind: str = ""
    message: str = ""
    step: int | None = None
    rank: int = 0
    details: str = ""


@dataclass(frozen=True, slots=True)
class RunFinished(Event):
    TYPE: ClassVar[str] = "run_finished"
    step: int | None = None
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunFailed(Event):
    TYPE: ClassVar[str] = "run_failed"
    error: str = ""
    traceback: str = ""
    step: int | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class RunCancelled(Event):
    TYPE: ClassVar[str] = "run_cancelled"
    step: int | None = None


@dataclass(frozen=True, slots=True)
class MetricSample(Event):
    """One row of metrics; only used for serialisation — the hot path appends to series directly."""

    TYPE: ClassVar[str] = "metrics"
    rank: int = 0
    step: int = 0
    values: dict[str, float] = field(default_factory=dict)


LIFECYCLE_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls for cls in (RunStarted, CheckpointSaved, AlertRaised, RunFinished, RunFailed, RunCancelled)
}
TERMINAL_TYPES = frozenset({RunFinished.TYPE, RunFailed.TYPE, RunCancelled.TYPE})


def event_from_dict(data: Mapping[str, Any]) -> Event | None:
    """Rebuild an event from its JSON form; unknown types give ``None``, unknown fields are ignored."""
    kind = data.get("type")
    cls: type[Event] | None = MetricSample if kind == MetricSample.TYPE else LIFECYCLE_TYPES.get(str(kind))
    if cls is None:
        return None
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k in names}
    try:
        return cls(**kwargs)
    except TypeError:
        return None


def json_safe_float(value: float) -> float | str:
    """JSON has no NaN/Inf; keep them readable as strings so a non-finite loss is not lost."""
    if math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def parse_float(value: Any) -> float:
    """Inverse of :func:`json_safe_float` (``float("nan")`` reads the string forms back)."""
    return float(value)
