"""The data of an environment check: what probes collected (facts) and what rules concluded (findings).

Probes and rules meet only here. A probe turns the machine into a :class:`ProbeResult` (plain JSON-ready
data, or an error, or a time-out); a rule reads :class:`Facts` and returns one :class:`Finding`. Keeping
both sides as plain data is what lets the GPU branches be tested with hand-made facts on a CPU box.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["pass", "warn", "fail", "skip"]
STATUSES: tuple[Status, ...] = ("pass", "warn", "fail", "skip")

# Worst first: a check's overall verdict is the worst of its findings.
_SEVERITY: dict[str, int] = {"fail": 3, "warn": 2, "pass": 1, "skip": 0}


def severity(status: str) -> int:
    """Order statuses for sorting and summaries: fail > warn > pass > skip."""
    return _SEVERITY.get(status, 0)


@dataclass(frozen=True)
class ProbeResult:
    """What one probe found: ``data`` when it ran, ``error`` when it could not, ``timed_out`` when cut off,
    ``not_run`` when it never started because the check's overall time budget (``timeout_s``) ran out.

    ``data`` may describe a failure of the thing probed (``{"import_ok": False, ...}``): that is a fact,
    not a probe error. ``error`` is reserved for the probe itself failing (crash, time-out, bad output)
    or saying why it did not run.
    """

    name: str
    data: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    timed_out: bool = False
    timeout_s: float | None = None
    duration_s: float = 0.0
    not_run: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and not self.timed_out and not self.not_run

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form used in ``check --json`` under ``facts.<probe>``."""
        return {
            "ok": self.ok,
            "error": self.error,
            "timed_out": self.timed_out,
            "not_run": self.not_run,
            "timeout_s": self.timeout_s,
            "duration_s": round(self.duration_s, 3),
            "data": dict(self.data),
        }


class Facts(Mapping[str, ProbeResult]):
    """Every probe result of one check, by probe name, with tolerant accessors for rules.

    Rules read with :meth:`data` / :meth:`value`, which return empty values for a probe that is absent,
    failed or timed out, so a rule never crashes on a partial picture — it says "unknown" instead.
    """

    def __init__(self, results: Mapping[str, ProbeResult] | None = None) -> None:
        self._results: dict[str, ProbeResult] = dict(results or {})

    @classmethod
    def from_data(cls, data: Mapping[str, Mapping[str, Any]]) -> Facts:
        """Build facts from ``{probe: data}`` — the shape tests and fixtures write by hand."""
        return cls({name: ProbeResult(name=name, data=dict(values)) for name, values in data.items()})

    def __getitem__(self, name: str) -> ProbeResult:
        return self._results[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._results)

    def __len__(self) -> int:
        return len(self._results)

    def with_result(self, result: ProbeResult) -> Facts:
        """A copy with ``result`` added or replaced (facts are treated as immutable once shared)."""
        merged = dict(self._results)
        merged[result.name] = result
        return Facts(merged)

    def data(self, name: str) -> Mapping[str, Any]:
        """The data of probe ``name``; empty when it is missing, failed or timed out."""
        result = self._results.get(name)
        return result.data if result is not None and result.ok else {}

    def value(self, name: str, key: str, default: Any = None) -> Any:
        """One field of a probe's data, ``default`` when absent or ``None``."""
        found = self.data(name).get(key)
        return default if found is None else found

    def to_dict(self) -> dict[str, Any]:
        return {name: result.to_dict() for name, result in self._results.items()}


@dataclass(frozen=True)
class Finding:
    """One verdict with its reason and remedy: the row a user reads in the table.

    ``fix`` is concrete (a command to type, a variable to export, a package to remove) or empty when
    nothing needs fixing. ``facts`` names the probes behind the verdict so the UI can show the evidence.
    """

    id: str
    status: Status
    summary: str
    details: str = ""
    fix: str = ""
    facts: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``id``, ``status``, ``summary``, ``details`` and ``fix`` are a stable contract."""
        return {
            "id": self.id,
            "status": self.status,
            "summary": self.summary,
            "details": self.details,
            "fix": self.fix,
            "facts": list(self.facts),
        }
