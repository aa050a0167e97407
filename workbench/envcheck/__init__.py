"""The environment doctor: probes collect facts about this machine, rules turn them into findings with
a fix, the engine runs both concurrently and streams findings as they are ready.

Nothing here imports Paddle: every probe that needs it runs ``python -c`` in a child process with a
time limit (:mod:`workbench.envcheck.isolate`), so a broken install, a hang or a segfault is reported
as a finding and never takes the workbench down.

Typical use::

    report = run_checks(on_finding=print, timeout_s=60)
    sys.exit(report.exit_code)
"""

from __future__ import annotations

from workbench.envcheck.engine import DEFAULT_TIMEOUT_S, CheckReport, run_checks, select
from workbench.envcheck.facts import STATUSES, Facts, Finding, ProbeResult, Status
from workbench.envcheck.isolate import ProbeCancelled, ProbeError, ProbeTimeout
from workbench.envcheck.monitor import GpuSample, SystemMonitor, SystemSnapshot
from workbench.envcheck.probes import DEFAULT_PROBES, Probe, ProbeContext
from workbench.envcheck.report import markdown_report
from workbench.envcheck.rules import RULES, Rule, Verdict, default_rules

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "DEFAULT_PROBES",
    "STATUSES",
    "CheckReport",
    "Facts",
    "Finding",
    "GpuSample",
    "Probe",
    "ProbeCancelled",
    "ProbeContext",
    "ProbeError",
    "ProbeResult",
    "ProbeTimeout",
    "RULES",
    "Rule",
    "Status",
    "SystemMonitor",
    "SystemSnapshot",
    "Verdict",
    "default_rules",
    "markdown_report",
    "run_checks",
    "select",
]
