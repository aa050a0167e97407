"""What a running job's code sees: where to log metrics and events, and whether to stop."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.events import Event
from workbench.runs import EventWriter

if TYPE_CHECKING:  # numpy is imported where series are made, not at start-up
    from workbench.metric_store import MetricStore


class JobCancelled(Exception):
    """Raised by :meth:`JobContext.check_cancelled`; the runner records it as ``RunCancelled``."""


class JobContext:
    """Handed to job code. ``log`` is the hot path: O(1), no I/O, no lock, no UI call."""

    def __init__(
        self,
        *,
        run_dir: Path,
        run_id: str,
        writer: EventWriter,
        metrics: MetricStore,
        config: Mapping[str, Any] | None = None,
        rank: int = 0,
        cancel_event: threading.Event | None = None,
        on_event: Any = None,
    ) -> None:
        self.run_dir = run_dir
        self.run_id = run_id
        self.config: Mapping[str, Any] = config or {}
        self.rank = rank
        self.cancel_event = cancel_event or threading.Event()
        self.pause_event = threading.Event()
        """Set while the user paused the run; the loop calls :meth:`wait_while_paused` between steps."""
        self.checkpoint_event = threading.Event()
        """Set when the user asked for a checkpoint now; consumed by :meth:`checkpoint_requested`."""
        self.metrics = metrics
        self.last_step: int | None = None
        self.step_in_progress: int | None = None
        """The step the job's code is running now (set by the training loop), for failure reports."""
        self._writer = writer
        self._on_event = on_event

    def log(self, step: int, /, **values: float) -> None:
        """Record one metric sample for ``step`` (e.g. ``ctx.log(12, loss=0.53, lr=0.01)``)."""
        now = time.time()
        self.metrics.record(self.rank, step, values, now)
        self._writer.sample(self.rank, step, values, now)
        self.last_step = step

    @property
    def failed_step(self) -> int | None:
        """The step a failure belongs to: the one in progress when known, else the last one logged."""
        if self.step_in_progress is not None and (
            self.last_step is None or self.step_in_progress > self.last_step
        ):
            return self.step_in_progress
        return self.last_step

    def flush(self) -> None:
        """Write every sample logged so far to ``events.jsonl`` and fsync it.

        The training loop calls this before it commits a checkpoint: the steps a checkpoint holds are
        then always in the run's history, even after a ``kill -9`` right after the commit.
        """
        self._writer.flush(durable=True)

    def emit(self, event: Event) -> None:
        """Record a lifecycle event (checkpoint saved, alert raised) and publish it at once."""
        self._writer.emit(event)
        if self._on_event is not None:
            self._on_event(event)

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def wait_while_paused(self, poll_s: float = 0.1) -> float:
        """Block between steps while paused (cancel still works); return the seconds spent paused."""
        if not self.pause_event.is_set():
            return 0.0
        started = time.monotonic()
        while self.pause_event.is_set() and not self.cancel_event.is_set():
            self.cancel_event.wait(poll_s)
        return time.monotonic() - started

    def checkpoint_requested(self) -> bool:
        """True once after the user asked for a checkpoint (the loop then saves one)."""
        if self.checkpoint_event.is_set():
            self.checkpoint_event.clear()
            return True
        return False

    def check_cancelled(self) -> None:
        """Raise :class:`JobCancelled` if the user asked to stop (call once per step)."""
        if self.cancel_event.is_set():
            raise JobCancelled()
