"""Stop signals for a command that follows a job (``plan run``): SIGINT, SIGTERM and SIGHUP.

The first of them asks the job to stop after its step (``job.cancel()``: a launched job's ranks save a
checkpoint at the step they agree on and end ``cancelled``); the command then exits ``128 + signal``.
A second SIGINT (Ctrl-C again) ends the job's whole process tree at once and still records
``cancelled`` (``job.abort()``); a repeated SIGTERM or SIGHUP changes nothing. A signal that arrives
while the job is being started is acted on as soon as it exists, so no half-started job is left
behind; one that arrives before that ends the command (:class:`StoppedBeforeStart`). SIGHUP (the
terminal is gone) also calls ``on_hangup`` once, so that nothing more is written to the dead terminal.

A signal ignored when the command started (``nohup`` ignores SIGHUP; a shell without job control
starts background commands with SIGINT ignored) stays ignored.

``import paddle`` installs a C-level SIGTERM handler (a stack dump, then death) that Python's
``signal.getsignal`` does not show: :meth:`StopSignals.import_paddle` imports it with the stop signals
blocked and installs ours on top before any is delivered.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from workbench.runner.job import Job

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class StoppedBeforeStart(KeyboardInterrupt):
    """A stop signal before the job existed: nothing to stop, the command just ends (``128 + signum``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def exit_code(signum: int | None) -> int:
    """``128 + signal`` (130 when none is known: Ctrl-C)."""
    return 128 + int(signum) if signum else 130


class StopSignals:
    """See the module docstring. Handlers only set flags and call non-blocking job methods."""

    def __init__(self, on_hangup: Callable[[], None] | None = None) -> None:
        self.on_hangup = on_hangup
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
        self._previous: dict[int, Any] = {}

    @property
    def active(self) -> bool:
        return threading.current_thread() is threading.main_thread()

    def install(self) -> None:
        if not self.active:
            return
        for signum in STOP_SIGNALS:
            if signum not in self._previous and signal.getsignal(signum) == signal.SIG_IGN:
                continue  # ignored by whoever started us (`nohup`, a background job): it stays ignored
            previous = signal.signal(signum, self._handle)
            self._previous.setdefault(signum, previous)

    def restore(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()

    @contextlib.contextmanager
    def blocked(self) -> Iterator[None]:
        """Hold the stop signals back (delivered afterwards, to the handlers installed by then)."""
        if not self.active:
            yield
            return
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    def import_paddle(self) -> None:
        """Import Paddle with the signals blocked, then put our handlers back over its SIGTERM handler."""
        with self.blocked():
            with contextlib.suppress(Exception):  # a broken Paddle is reported where it is used
                from workbench.training.runtime import import_paddle

                import_paddle()
            self.install()

    @contextlib.contextmanager
    def starting_job(self) -> Iterator[None]:
        """While the job is being started: a signal waits for it to exist (see :meth:`started`)."""
        self.starting = True
        try:
            yield
        finally:
            self.starting = False

    def started(self, job: Job) -> None:
        """The job exists: act on a stop signal that came while it was being started."""
        self.job = job
        self.starting = False
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
            abort_event = getattr(job, "abort_event", None)
            if isinstance(abort_event, threading.Event):
                abort_event.set()  # a launched job's watcher kills the tree at its next poll
