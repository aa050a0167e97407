"""The common face of every job: lifecycle history, live metrics, waiting and cancelling."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.events import TERMINAL_TYPES, Event
from workbench.runner.context import JobContext

if TYPE_CHECKING:  # numpy is imported where series are made, not at start-up
    from workbench.metric_store import MetricStore

JobFn = Callable[[JobContext], "dict[str, Any] | None"]


class Job:
    """Base class: subclasses call :meth:`_publish` for each lifecycle event, in order."""

    kind = "job"

    #: Whether :meth:`pause` / :meth:`request_checkpoint` reach the running code (in-process jobs only).
    controllable = False
    #: Whether :meth:`cancel` stops the run (not for runs that belong to another process).
    cancellable = True

    def __init__(
        self,
        run_dir: Path,
        run_id: str,
        name: str,
        metrics: MetricStore | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> None:
        self.run_dir = run_dir
        self.config: Mapping[str, Any] = config or {}
        self.run_id = run_id
        self.name = name
        if metrics is None:
            from workbench.metric_store import MetricStore

            metrics = MetricStore()
        self.metrics = metrics
        self.lifecycle: list[Event] = []
        self.cancel_event = threading.Event()
        self._cond = threading.Condition()
        self._done = threading.Event()

    # -- producer side ------------------------------------------------------------------------

    def _publish(self, event: Event) -> None:
        with self._cond:
            self.lifecycle.append(event)
            if event.TYPE in TERMINAL_TYPES:
                self._done.set()
            self._cond.notify_all()

    # -- consumer side ------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def result(self) -> Event | None:
        """The terminal event (finished / failed / cancelled), once there is one."""
        for event in reversed(self.lifecycle):
            if event.TYPE in TERMINAL_TYPES:
                return event
        return None

    @property
    def status(self) -> str:
        result = self.result
        if result is None:
            return "running"
        return {"run_finished": "finished", "run_failed": "failed", "run_cancelled": "cancelled"}[result.TYPE]

    def cancel(self) -> None:
        """Ask the job to stop; it finishes its current step first (cooperative)."""
        self.cancel_event.set()

    @property
    def total_steps(self) -> int | None:
        """``train.steps`` of the run's config, when it has one (for progress and ETA)."""
        train = self.config.get("train")
        steps = train.get("steps") if isinstance(train, Mapping) else None
        return steps if isinstance(steps, int) and steps > 0 else None

    @property
    def log_path(self) -> Path:
        """The run's text log (``logs.txt``; a linked kit log's own file)."""
        return self.run_dir / "logs.txt"

    @property
    def paused(self) -> bool:
        return False

    def pause(self) -> bool:
        """Ask the job to pause between steps; ``False`` when this kind of job cannot."""
        return False

    def resume(self) -> bool:
        return False

    def request_checkpoint(self) -> bool:
        """Ask the job for a checkpoint after its current step; ``False`` when it cannot."""
        return False

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job ended; ``False`` if ``timeout`` passed first."""
        return self._done.wait(timeout)

    def events(self, timeout: float | None = None) -> Iterator[Event]:
        """Every lifecycle event from the first, blocking for new ones until the terminal event."""
        index = 0
        while True:
            with self._cond:
                while index >= len(self.lifecycle):
                    if self._done.is_set() or not self._cond.wait(timeout):
                        return
                batch = self.lifecycle[index:]
                index = len(self.lifecycle)
            yield from batch
            if any(e.TYPE in TERMINAL_TYPES for e in batch):
                return

    async def aevents(self, poll_s: float = 0.05) -> AsyncIterator[Event]:
        """Async twin of :meth:`events` for an asyncio loop (never blocks the loop)."""
        index = 0
        while True:
            while index < len(self.lifecycle):
                event = self.lifecycle[index]
                index += 1
                yield event
                if event.TYPE in TERMINAL_TYPES:
                    return
            await asyncio.sleep(poll_s)
