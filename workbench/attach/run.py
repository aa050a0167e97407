"""A linked kit log followed live, with the same face as any other job (:class:`~workbench.runner.Job`).

The monitor, the run list and ``attach`` see a :class:`LinkedRun` like an attached workbench run: its
``metrics`` fill as the kit appends iteration lines, ``lifecycle`` holds ``RunStarted`` and, once the log
says so, ``RunFailed`` (a traceback) or ``RunFinished``. It cannot be paused, checkpointed or stopped
(the kit's process is not ours); cancelling (``detach``) stops following, as for an attached run. ``log_path`` is the kit's own file.
"""

from __future__ import annotations

import threading
from pathlib import Path

from workbench.attach.follow import LogFollower
from workbench.attach.link import refresh_state, source_of
from workbench.events import RunFailed, RunFinished, RunStarted
from workbench.runner.job import Job
from workbench.runner.launched import AttachedRun
from workbench.runs import run_name

POLL_S = 0.25


class LinkedRun(AttachedRun):
    """Follows ``run_dir``'s linked kit log on a thread until the log ends or :meth:`detach`."""

    kind = "linked"
    cancellable = False

    def __init__(self, run_dir: Path, *, follow: bool = True) -> None:
        # AttachedRun's own start tails events.jsonl; a linked run has none: start as a plain job.
        Job.__init__(self, run_dir, run_dir.name, run_name(run_dir) or run_dir.name)
        self.interrupted = False
        self.source, parser, self.format = source_of(run_dir)
        self.follower = LogFollower(self.source, parser, self.metrics)
        self._stop = threading.Event()
        self._publish(RunStarted(run_id=self.run_id, name=self.name, kind=self.kind))
        self.poll()
        self._thread = threading.Thread(target=self._follow, name=f"linked:{run_dir.name}", daemon=True)
        if follow and not self.done:
            self._thread.start()

    @property
    def log_path(self) -> Path:
        return self.source

    @property
    def total_steps(self) -> int | None:
        return self.follower.total_steps

    def poll(self) -> None:
        """Read everything the log gained; publish the ending once the text shows one."""
        while True:
            before = self.follower.offset
            self.follower.poll()
            if self.follower.offset == before:
                break
        if self.done:
            return
        crash = self.follower.crash
        if crash is not None:
            self._publish(
                RunFailed(error=crash.error, traceback=crash.traceback, step=self.follower.last_step)
            )
        elif self.follower.finished:
            self._publish(RunFinished(step=self.follower.last_step, summary=self.metrics.latest()))

    def _follow(self) -> None:
        while not self.done and not self._stop.wait(POLL_S):
            self.poll()
        if self.done:
            refresh_state(self.run_dir)
