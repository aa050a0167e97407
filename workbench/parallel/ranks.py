"""Per-rank state of a launched run, for the monitor's rank table: one row per rank.

For each rank: its last step, its last step time, its memory, the last line of its launcher log, and
whether it is alive, stalled (no new step for ``stall_s`` while the run goes on), ended or the rank a
failure named. :class:`RankWatch` keeps, per rank, when its step last advanced — the same rule as the
run's watchdog, seen from the reader's side.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from workbench.metric_store import MetricStore

MEMORY_KEYS = ("gpu_alloc_mib", "host_alloc_mib", "host_rss_mib")
"""The first of these a rank logs is its memory figure (GPU before host allocator before RSS)."""


@dataclass(frozen=True)
class RankRow:
    rank: int
    step: int | None
    step_ms: float | None
    memory_mib: float | None
    state: str
    """``alive``, ``stalled``, ``ended`` or ``failed``."""
    last_line: str


def last_log_line(path: Path, max_bytes: int = 4096) -> str:
    """The last non-empty line of a (growing) log file, or ``""``."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - max_bytes))
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


class RankWatch:
    """Remembers when each rank's step last advanced (call :meth:`rows` on every refresh)."""

    def __init__(self, stall_s: float = 30.0) -> None:
        self.stall_s = stall_s
        self._advanced: dict[int, tuple[int, float]] = {}

    def rows(
        self,
        metrics: MetricStore,
        run_dir: Path,
        *,
        now: float,
        done: bool,
        failed_rank: int | None = None,
        ranks: Iterable[int] | None = None,
    ) -> list[RankRow]:
        out: list[RankRow] = []
        for rank in sorted(set(ranks or ()) | set(metrics.ranks())):
            step = metrics.last_step.get(rank)
            latest = metrics.latest(rank)
            seen = self._advanced.get(rank)
            if step is not None and (seen is None or seen[0] != step):
                self._advanced[rank] = (step, now)
                seen = self._advanced[rank]
            if failed_rank is not None and rank == failed_rank:
                state = "failed"
            elif done:
                state = "ended"
            elif seen is not None and now - seen[1] > self.stall_s:
                state = "stalled"
            else:
                state = "alive"
            memory = next((latest[k] for k in MEMORY_KEYS if k in latest), None)
            log = run_dir / "ranks" / "log" / f"workerlog.{rank}"
            out.append(RankRow(rank, step, latest.get("step_ms"), memory, state, last_log_line(log)))
        return out
