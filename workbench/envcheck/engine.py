"""Run probes concurrently and stream findings as soon as the facts behind each rule are in.

One call, :func:`run_checks`, serves every client: the CLI prints the findings at the end, the TUI
shows each one as it arrives (``on_finding``), a re-run of one check passes ``only=[rule_id]`` and runs
just the probes that rule needs.

Each probe runs on its own **daemon** thread rather than a pool: a probe stuck in an uninterruptible
call (a dead NFS mount under the workspace) must not keep the process alive at exit. Probes in child
processes honour their time limit themselves; the engine adds a watchdog for the rest, so a hung probe
is always reported as timed out on time and the check always ends. The probes that import Paddle share
one child per run (:mod:`workbench.envcheck.shared`): one import instead of one per probe.
"""

from __future__ import annotations

import dataclasses
import math
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.envcheck.facts import Facts, Finding, ProbeResult, severity
from workbench.envcheck.isolate import ProbeCancelled, ProbeTimeout, format_seconds
from workbench.envcheck.probes import DEFAULT_PROBES, Probe, ProbeContext
from workbench.envcheck.rules import Rule, default_rules
from workbench.envcheck.shared import SharedChild
from workbench.i18n import t

# The whole check run's bound, for ``check --timeout`` and the Environment screen alike.
DEFAULT_TIMEOUT_S = 120.0
# Extra time the watchdog allows over a probe's own limit before it gives up on the thread.
WATCHDOG_GRACE_S = 2.0
POLL_S = 0.1
CANCEL_GRACE_S = 1.0


@dataclass
class CheckReport:
    """The outcome of one check: findings in rule order, the facts behind them, and how it ended."""

    findings: list[Finding]
    facts: Facts
    started: float
    duration_s: float
    cancelled: bool = False
    rules: Sequence[Rule] = field(default_factory=tuple)

    @property
    def worst(self) -> str:
        return max((f.status for f in self.findings), key=severity, default="skip")

    @property
    def exit_code(self) -> int:
        """Exit code 1 when any check failed, else 0 (docs/architecture.md, "CLI and JSON contracts")."""
        return 1 if any(f.status == "fail" for f in self.findings) else 0

    @property
    def not_run(self) -> list[str]:
        """Ids of the rules that have no finding yet (a report taken while checks still run)."""
        done = {f.id for f in self.findings}
        return [rule.id for rule in self.rules if rule.id not in done]

    def counts(self) -> dict[str, int]:
        counts = {"pass": 0, "warn": 0, "fail": 0, "skip": 0}
        for finding in self.findings:
            counts[finding.status] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """The ``check --json`` document: ``{"checks": [...], "facts": {...}}`` plus a summary."""
        return {
            "checks": [f.to_dict() for f in self.findings],
            "facts": self.facts.to_dict(),
            "summary": self.counts(),
            "started": self.started,
            "duration_s": round(self.duration_s, 3),
            "cancelled": self.cancelled,
        }


def select(
    rules: Sequence[Rule], probes: Sequence[Probe], only: Iterable[str] | None
) -> tuple[list[Rule], list[Probe]]:
    """The rules to evaluate and every probe they need (``after`` dependencies included), in order.

    Raises ``KeyError`` for an unknown rule id in ``only``.
    """
    by_id = {rule.id: rule for rule in rules}
    chosen = list(rules) if only is None else [by_id[rule_id] for rule_id in only]
    by_name = {probe.name: probe for probe in probes}
    wanted: set[str] = set()
    stack = [name for rule in chosen for name in rule.needs]
    while stack:
        name = stack.pop()
        if name in wanted:
            continue
        wanted.add(name)
        if name in by_name:
            stack.extend(by_name[name].after)
    return chosen, [probe for probe in probes if probe.name in wanted] + [
        Probe(name, _unknown_probe) for name in sorted(wanted - by_name.keys())
    ]


def _join_all(threads: Iterable[threading.Thread], within_s: float) -> None:
    end = time.monotonic() + within_s
    for thread in threads:
        thread.join(max(0.0, end - time.monotonic()))


def _unknown_probe(ctx: ProbeContext, facts: Facts) -> dict[str, Any]:
    raise LookupError(t("envcheck.unknown_probe"))


def _run_probe(probe: Probe, ctx: ProbeContext, facts: Facts, done: queue.SimpleQueue[ProbeResult]) -> None:
    started = time.monotonic()
    try:
        data = probe.run(ctx, facts)
        result = ProbeResult(probe.name, data=dict(data))
    except ProbeTimeout as exc:
        error = str(exc) + (f"\n{exc.output_tail}" if exc.output_tail else "")
        result = ProbeResult(probe.name, error=error, timed_out=True, timeout_s=exc.seconds)
    except ProbeCancelled as exc:
        result = ProbeResult(probe.name, error=str(exc))
    except Exception as exc:  # a probe's own bug or an unexpected OS error: a fact about this probe
        result = ProbeResult(probe.name, error=f"{type(exc).__name__}: {exc}")
    done.put(dataclasses.replace(result, duration_s=time.monotonic() - started))


def run_checks(
    *,
    probes: Sequence[Probe] = DEFAULT_PROBES,
    rules: Sequence[Rule] | None = None,
    context: ProbeContext | None = None,
    only: Iterable[str] | None = None,
    timeout_s: float | None = None,
    cancel: threading.Event | None = None,
    on_finding: Callable[[Finding], object] | None = None,
    on_probe: Callable[[ProbeResult], object] | None = None,
) -> CheckReport:
    """Run the probes the chosen rules need, concurrently, and evaluate each rule as soon as it can.

    ``timeout_s`` bounds the whole run: each probe's limit is cut to what is left; a probe still running
    at the end is reported as timed out, one that never started as not run (its rule says ``skip``).
    ``None`` or ``inf`` means no overall bound; NaN, zero or a negative number is a ``ValueError``.
    ``cancel`` stops the run early (children are killed); the report then holds what finished and
    ``cancelled=True``. Callbacks run on the calling thread, one per finding / probe result.
    ``rules`` defaults to every registered rule (:data:`workbench.envcheck.rules.RULES`).
    """
    if timeout_s is not None and not timeout_s > 0:  # NaN compares false: it would never fire
        raise ValueError(f"timeout_s must be a positive number of seconds, not {timeout_s!r}")
    if timeout_s is not None and math.isinf(timeout_s):
        timeout_s = None
    base = context or ProbeContext()
    if cancel is not None:
        base = dataclasses.replace(base, cancel=cancel)
    cancel_event = base.cancel
    chosen, needed = select(default_rules() if rules is None else rules, probes, only)
    sections = [(probe.name, probe.shared_script) for probe in needed if probe.shared_script is not None]
    if len(sections) > 1:  # one Paddle import for all of them (a single probe gains nothing)
        base = dataclasses.replace(
            base,
            shared=SharedChild(
                sections,
                python=base.python,
                env=base.env,
                cancel=cancel_event,
                cwd=base.cwd,
                background=base.background,
            ),
        )
    wall_start, start = time.time(), time.monotonic()
    deadline = start + timeout_s if timeout_s is not None else None

    results: dict[str, ProbeResult] = {}
    findings: dict[str, Finding] = {}
    waiting = {probe.name: probe for probe in needed}
    needed_names = set(waiting)
    running: dict[str, float] = {}  # probe name -> watchdog deadline (monotonic)
    limits: dict[str, float] = {}
    done: queue.SimpleQueue[ProbeResult] = queue.SimpleQueue()
    threads: list[threading.Thread] = []

    def record(result: ProbeResult) -> None:
        results[result.name] = result
        running.pop(result.name, None)
        if on_probe is not None:
            on_probe(result)
        facts = Facts(results)
        for rule in chosen:
            if rule.id not in findings and all(name in results for name in rule.needs):
                finding = rule.check(facts)
                findings[rule.id] = finding
                if on_finding is not None:
                    on_finding(finding)

    def start_ready() -> None:
        for name, probe in list(waiting.items()):
            # A dependency outside this run (``only=`` picked a subset) does not hold a probe back.
            if not all(dep in results or dep not in needed_names for dep in probe.after):
                continue
            del waiting[name]
            limit = probe.timeout_s
            if deadline is not None:
                limit = max(0.1, min(limit, deadline - time.monotonic()))
            limits[name] = limit
            # The watchdog never lets a stuck thread push the run much past the overall deadline.
            watchdog = time.monotonic() + limit + WATCHDOG_GRACE_S
            running[name] = (
                min(watchdog, deadline + WATCHDOG_GRACE_S / 4) if deadline is not None else watchdog
            )
            ctx = dataclasses.replace(base, timeout_s=limit)
            thread = threading.Thread(
                target=_run_probe,
                args=(probe, ctx, Facts(results), done),
                name=f"envcheck-{name}",
                daemon=True,
            )
            thread.start()
            threads.append(thread)

    def timed_out(name: str, seconds: float) -> ProbeResult:
        return ProbeResult(
            name,
            error=t("envcheck.timed_out", seconds=format_seconds(seconds)),
            timed_out=True,
            timeout_s=seconds,
        )

    def not_run(name: str, budget: float) -> ProbeResult:
        """A probe still waiting (for a dependency or a slot) when the overall budget ran out."""
        return ProbeResult(
            name, error=t("envcheck.not_run", seconds=format_seconds(budget)), not_run=True, timeout_s=budget
        )

    cancelled = False
    try:
        start_ready()
        while waiting or running:
            if cancel_event.is_set():
                cancelled = True
                break
            now = time.monotonic()
            wake = min([*running.values(), *([deadline] if deadline is not None else []), now + POLL_S])
            try:
                result = done.get(timeout=max(0.0, min(POLL_S, wake - now)))
            except queue.Empty:
                result = None
            if cancel_event.is_set():  # a probe the cancel ended reports a failure that is not one
                cancelled = True
                break
            if result is not None and result.name in running:
                record(result)
            now = time.monotonic()
            for name, watchdog in list(running.items()):
                if now >= watchdog:
                    record(timed_out(name, limits[name]))
            if deadline is not None and now >= deadline:
                for name in list(waiting):
                    del waiting[name]
                    record(not_run(name, timeout_s or 0.0))
            start_ready()
    except BaseException:
        # Ctrl-C or a failing callback: children live in their own sessions, so a signal to us does not
        # reach them. Tell the probe threads to kill them, and give them a moment to do it.
        cancel_event.set()
        _join_all(threads, CANCEL_GRACE_S)
        raise
    finally:
        if base.shared is not None:
            base.shared.close(CANCEL_GRACE_S)
    if cancelled:
        _join_all(threads, CANCEL_GRACE_S)

    ordered = [findings[rule.id] for rule in chosen if rule.id in findings]
    return CheckReport(
        findings=ordered,
        facts=Facts(results),
        started=wall_start,
        duration_s=time.monotonic() - start,
        cancelled=cancelled,
        rules=chosen,
    )
