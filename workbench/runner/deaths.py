"""Which rank of a launched job died first, how, and which failures only followed from it.

When one rank dies, its peers fail next: their next collective finds the connection gone (gloo
"Connection reset by peer" / "Connection closed by peer", a ``gloo::TimeoutException`` naming the dead
``pair_rank``), or the launcher stops them with SIGTERM. The launcher then reports the first failed
rank *in rank order* — usually rank 0, whatever happened — and its exit code (``-6`` → "exit code 250").
:func:`explain` puts the evidence per rank together — the supervisor's record of how each rank's
process ended (:mod:`workbench.runner.supervise`: exit code or signal, and when), the rank's own final
event (a Python exception with its traceback) and the last lines of its ``workerlog.N`` — and names the
rank whose death came first and was not itself a consequence, with its signal or exit code and its last
log lines; the others are listed as consequences, not causes.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from workbench.events import RunFailed
from workbench.i18n import t
from workbench.runner.supervise import CANCELLED_CODE, read_exit

LOG_LINES = 12
PEER_GONE = (
    "connection reset by peer",
    "connection closed by peer",
    "broken pipe",
    "pair_rank",
    "timeoutexception",
    "socket closed",
    "connection refused",
)
"""What a rank says when a *peer* went away: the mark of a consequence, not a cause (lower case)."""
_LAUNCHER_FAILED = re.compile(r"Container rank (\d+) status failed .*? code (-?\d+)")


def describe_exit(code: int) -> str:
    """``-11`` → ``"killed by signal SIGSEGV (segmentation fault)"``; ``1`` → ``"exit code 1"``."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = {"SIGSEGV": "segfault", "SIGKILL": "killed", "SIGABRT": "aborted"}.get(name)
        return t("runner.exit.signal", name=name, hint=t(f"runner.exit.hint.{hint}") if hint else "")
    return t("runner.exit.code", code=code)


def tail_lines(path: Path, count: int = LOG_LINES) -> list[str]:
    """The last ``count`` non-empty lines of a (possibly large) log file."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 16_000))
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()][-count:]


@dataclass
class RankEnd:
    """How one rank ended, from every source there is."""

    rank: int
    returncode: int | None = None
    """The training process's exit code, negative for a signal (``None``: unknown)."""
    when: float | None = None
    failure: RunFailed | None = None
    log: list[str] = field(default_factory=list)
    last_step: int | None = None
    """The last step the rank logged."""

    @property
    def failed(self) -> bool:
        if self.failure is not None:
            return True
        return self.returncode is not None and self.returncode not in (0, CANCELLED_CODE)

    @property
    def consequential(self) -> bool:
        """It failed because a peer went away (or the launcher stopped it after a peer's failure)."""
        if self.returncode is not None and -self.returncode in (signal.SIGTERM, signal.SIGINT):
            return True
        text = "\n".join(self.log).lower()
        if self.failure is not None:
            text += f"\n{self.failure.error}\n{self.failure.traceback}".lower()
        return any(mark in text for mark in PEER_GONE)

    def how(self) -> str:
        """``killed by SIGKILL (killed)``, ``ValueError: boom (exit code 1)``, …"""
        exit_text = describe_exit(self.returncode) if self.returncode is not None else ""
        if self.failure is not None and self.failure.error:
            return f"{self.failure.error} ({exit_text})" if exit_text else self.failure.error
        return exit_text or t("runner.exit.unknown")

    def first_error_line(self) -> str:
        if self.failure is not None and self.failure.error:
            return self.failure.error.splitlines()[0]
        for line in reversed(self.log):
            if any(mark in line.lower() for mark in PEER_GONE):
                return line.strip()
        return self.how()


@dataclass(frozen=True)
class Explanation:
    error: str
    details: str
    rank: int


def gather(
    run_dir: Path,
    ranks: int,
    failures: list[RunFailed],
    launcher_log: str = "",
    last_steps: Mapping[int, int] | None = None,
) -> dict[int, RankEnd]:
    """Every rank's :class:`RankEnd`: supervisor records, final events, launcher log, worker logs."""
    ends = {rank: RankEnd(rank, last_step=(last_steps or {}).get(rank)) for rank in range(ranks)}
    for failure in failures:
        if failure.rank is not None and failure.rank in ends and ends[failure.rank].failure is None:
            ends[failure.rank].failure = failure
            ends[failure.rank].when = failure.time
    for rank, end in ends.items():
        record = read_exit(run_dir / "ranks" / str(rank))
        if record is not None:
            end.returncode = int(record["returncode"])
            when = record.get("time")
            if isinstance(when, int | float) and (end.when is None or when < end.when):
                end.when = float(when)
        end.log = tail_lines(run_dir / "ranks" / "log" / f"workerlog.{rank}")
    for match in _LAUNCHER_FAILED.finditer(launcher_log):  # runs without supervisors
        rank, code = int(match.group(1)), int(match.group(2))
        if rank in ends and ends[rank].returncode is None:
            ends[rank].returncode = code
    return ends


def explain(ends: dict[int, RankEnd]) -> Explanation | None:
    """The failure of the job named after the rank that caused it, or ``None`` when no rank failed."""
    failed = [end for end in ends.values() if end.failed]
    if not failed:
        return None

    def order(end: RankEnd) -> tuple[float, int]:
        return (end.when if end.when is not None else float("inf"), end.rank)

    causes = sorted((end for end in failed if not end.consequential), key=order)
    culprit = causes[0] if causes else sorted(failed, key=order)[0]
    others = [end for end in sorted(failed, key=lambda e: e.rank) if end is not culprit]
    error = t("runner.rank_failed", rank=culprit.rank, how=culprit.how())
    if others:
        error += "; " + t(
            "runner.rank_consequences",
            ranks=", ".join(str(end.rank) for end in others),
            what=others[0].first_error_line(),
        )
    details: list[str] = [error, ""]
    if culprit.failure is not None and culprit.failure.traceback:
        details.append(culprit.failure.traceback.rstrip())
        details.append("")
    if culprit.last_step is not None:
        details.append(t("runner.rank_last_step", rank=culprit.rank, step=culprit.last_step))
    details.append(t("runner.rank_log", rank=culprit.rank))
    details.extend(culprit.log or ["-"])
    for end in others:
        details.append("")
        details.append(t("runner.rank_consequence_log", rank=end.rank, how=end.how()))
        details.extend(end.log[-4:] or ["-"])
    return Explanation(error=error, details="\n".join(details), rank=culprit.rank)
