"""Stop signals for a command that follows a job (``train``, ``plan run``): SIGINT, SIGTERM and SIGHUP.

The first of them asks the job to stop after its step (``job.cancel()``: a launched job's ranks save a
checkpoint at the step they agree on and end ``cancelled``); the command then exits ``128 + signal``. A
second SIGINT (Ctrl-C again) aborts: a launched job's whole process tree is ended at once and still
records ``cancelled`` (``job.abort()``, by the follow loop), or — with ``abort_by_raising`` (``train``'s
in-process run) — ``KeyboardInterrupt`` unwinds the follow loop into the command's abort path. A
repeated SIGTERM or SIGHUP changes nothing. A signal that arrives while the job is being started is
acted on as soon as it exists, so no half-started job is left behind; one that arrives before that ends
the command (:class:`StoppedBeforeStart`). SIGHUP (the terminal is gone) also calls ``on_hangup``, so
that nothing more is written to the dead terminal — again once the job exists, so its log takes the
lines.

These handlers replace the CLI's own (:mod:`workbench.stop_signals`: any command stops at once) for the
job's life; ignored-at-start signals stay ignored, and ``import paddle`` keeps them in charge the same
way.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING

from workbench.stop_signals import STOP_SIGNALS, Handlers, Stopped, exit_code, held

if TYPE_CHECKING:
    from workbench.runner.job import Job

__all__ = ["STOP_SIGNALS", "StopSignals", "StoppedBeforeStart", "exit_code"]


class StoppedBeforeStart(Stopped):
    """A stop signal before the job existed: nothing to stop, the command just ends (``128 + signum``)."""


class StopSignals(Handlers):
    """A command that follows a job: see the module docstring. Handlers only set flags and call
    non-blocking job methods (printing from a signal handler can re-enter a half-done write)."""

    def __init__(
        self, on_hangup: Callable[[], None] | None = None, *, abort_by_raising: bool = False
    ) -> None:
        super().__init__()
        self.on_hangup = on_hangup
        self.abort_by_raising = abort_by_raising
        self.hung_up = False
        self.job: Job | None = None
        self.first: int | None = None
        """The signal that asked the job to stop."""
        self.abort_requested = False
        self.notice_due = False
        self.starting = False
        self.hard_exit = False
        """Set when the command must end without interpreter shutdown (an in-process run was abandoned)."""
        self._pending: int | None = None

    @contextlib.contextmanager
    def blocked(self) -> Iterator[None]:
        """Hold the stop signals back (delivered afterwards, to the handlers installed by then)."""
        with held():
            yield

    def import_paddle(self) -> None:
        """Import Paddle (a failure is reported where Paddle is used); our handlers stay in charge."""
        with self.blocked():
            with contextlib.suppress(Exception):
                from workbench.training.runtime import import_paddle

                import_paddle()
            self.install()

    @contextlib.contextmanager
    def starting_job(self) -> Iterator[None]:
        """While the job is being started: a signal waits for it to exist (see :meth:`started`).

        Starting ends at :meth:`started` (or when the block raises), so a signal between the block and
        that call still waits for the job instead of ending the command with the job left running.
        """
        self.starting = True
        try:
            yield
        except BaseException:
            self.starting = False
            raise

    def started(self, job: Job) -> None:
        """The job exists: act on a stop signal that came while it was being started."""
        self.job = job
        self.starting = False
        if self.hung_up and self.on_hangup is not None:
            self.on_hangup()  # again, now that the job's log can take the lines
        if self._pending is not None and self.first is None:
            self.first = self._pending
            job.cancel()
            self.notice_due = True

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGHUP and not self.hung_up:
            self.hung_up = True
            if self.on_hangup is not None:
                self.on_hangup()
        job = self.job
        if job is None:
            if self.starting:
                self._pending = self._pending or signum
                return
            raise StoppedBeforeStart(signum)
        if job.done:
            return
        if self.first is None:
            self.first = signum
            job.cancel()
            self.notice_due = True
        elif signum == signal.SIGINT and not self.abort_requested:
            self.abort_requested = True  # Ctrl-C again: end everything now
            if self.abort_by_raising:
                raise KeyboardInterrupt  # the follow loop unwinds into the command's abort path
            abort_event = getattr(job, "abort_event", None)
            if isinstance(abort_event, threading.Event):
                abort_event.set()  # a launched job's watcher kills the tree at its next poll
