"""A screen that follows one :class:`~workbench.runner.Job` and can stop, pause or checkpoint it.

``s`` / ``p`` / ``c`` are offered only while the followed run is still going and only for a run this
process can control (a run attached from disk says why not). The monitor is one; the bindings stay with
the screen that shows them.
"""

from __future__ import annotations

from workbench.i18n import t
from workbench.runner import Job
from workbench.screens.base import WorkbenchScreen


class JobControlScreen(WorkbenchScreen):
    job: Job | None = None

    def tick(self) -> None:
        """Redraw from the followed job (the screen's own timer calls it too)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``s`` / ``p`` / ``c`` are offered only while the followed run is still going."""
        if action in ("stop", "pause", "checkpoint"):
            return self.job is not None and not self.job.done
        return True

    def _controllable_job(self) -> Job | None:
        job = self.job
        if job is None:
            return None
        if job.done:
            self.notify(t("ui.monitor.not_running", status=t(f"status.{job.status}")), severity="warning")
            return None
        return job

    def action_stop(self) -> None:
        job = self._controllable_job()
        if job is None:
            return
        if not job.cancellable:
            self.notify(t("ui.monitor.not_controllable"), severity="warning")
            return
        job.cancel()
        self.notify(t("ui.monitor.stopping"))

    def action_pause(self) -> None:
        job = self._controllable_job()
        if job is None:
            return
        done = job.resume() if job.paused else job.pause()
        if not done:
            self.notify(t("ui.monitor.not_controllable"), severity="warning")
        self.tick()

    def action_checkpoint(self) -> None:
        job = self._controllable_job()
        if job is None:
            return
        if job.request_checkpoint():
            self.notify(t("ui.monitor.checkpoint_requested"))
        else:
            self.notify(t("ui.monitor.not_controllable"), severity="warning")
