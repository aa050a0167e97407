"""Run a job function on a worker thread of this process (single-card training, probes)."""

from __future__ import annotations

import os
import threading
import traceback
from collections.abc import Mapping
from typing import Any

from workbench.capture import process_capture, route_thread_output
from workbench.events import Event, RunCancelled, RunFailed, RunFinished, RunStarted
from workbench.i18n import t
from workbench.runner.context import JobCancelled, JobContext
from workbench.runner.exit_guard import ExitAttempted, guard_exit
from workbench.runner.job import Job, JobFn
from workbench.runner.system_sampler import SystemSampler
from workbench.runs import RunHandle, RunStore


class InProcessJob(Job):
    """A job running ``fn(ctx)`` on a daemon thread; a raise becomes ``RunFailed``, never a crash."""

    kind = "in_process"
    controllable = True

    def __init__(
        self,
        handle: RunHandle,
        name: str,
        fn: JobFn,
        config: Mapping[str, Any],
        *,
        system_metrics: bool = True,
    ) -> None:
        super().__init__(handle.run_dir, handle.run_id, name, config=config)
        self.handle = handle
        self.ctx = JobContext(
            run_dir=handle.run_dir,
            run_id=handle.run_id,
            writer=handle.writer,
            metrics=self.metrics,
            config=config,
            cancel_event=self.cancel_event,
            on_event=self._on_ctx_event,
        )
        self._fn = fn
        self._end_lock = threading.Lock()
        self._ended = False
        self.thread = threading.Thread(target=self._main, name=f"job:{handle.run_id}", daemon=True)
        self.sampler = (
            SystemSampler(writer=handle.writer, metrics=self.metrics, name=handle.run_id)
            if system_metrics
            else None
        )
        """CPU, this process's memory and the GPUs once a second, on its own thread (``sys/...``)."""

    @property
    def paused(self) -> bool:
        return self.ctx.pause_event.is_set()

    def pause(self) -> bool:
        self.ctx.pause_event.set()
        return True

    def resume(self) -> bool:
        self.ctx.pause_event.clear()
        return True

    def request_checkpoint(self) -> bool:
        self.ctx.checkpoint_event.set()
        return True

    def _on_ctx_event(self, event: Event) -> None:
        self.handle.update_state(event)
        self._publish(event)

    def _record(self, event: Event) -> None:
        self.handle.emit(event)
        self._publish(event)

    def _main(self) -> None:
        capture = process_capture()
        token = capture.add_sink(self.handle.write_log) if capture is not None else None
        terminal: Event = RunFailed(error="the run ended without reporting why")
        try:
            with route_thread_output(self.handle.write_log):
                terminal = self._run()
        except BaseException as exc:  # noqa: BLE001 - even the bookkeeping failing is an event
            terminal = RunFailed(error=f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())
        finally:
            if capture is not None and token is not None:
                capture.sync()  # output still in the pipe belongs to this run's log
                capture.remove_sink(token)
            self._finish(terminal)

    def _run(self) -> Event:
        """Run the job function; whatever happens, return the terminal event that describes it."""
        self._record(RunStarted(run_id=self.run_id, name=self.name, kind=self.kind, pid=os.getpid()))
        if self.sampler is not None:
            self.sampler.start()
        try:
            with guard_exit():
                summary = self._fn(self.ctx)
        except JobCancelled:
            return RunCancelled(step=self.ctx.last_step)
        except ExitAttempted as exc:
            tb = traceback.format_exc()
            self.handle.write_log(tb)
            return RunFailed(
                error=t("runner.exit_attempted", code=exc.code), traceback=tb, step=self.ctx.failed_step
            )
        except BaseException as exc:  # noqa: BLE001 - a failing run is an event, not a crash
            tb = traceback.format_exc()
            self.handle.write_log(tb)
            return RunFailed(error=f"{type(exc).__name__}: {exc}", traceback=tb, step=self.ctx.failed_step)
        if self.cancel_event.is_set():
            return RunCancelled(step=self.ctx.last_step)
        return RunFinished(step=self.ctx.last_step, summary=dict(summary or {}))

    def abandon(self) -> Event:
        """Record the run as cancelled *now*, without waiting for the worker thread; the terminal event.

        For a process about to exit while its step is still running (a second Ctrl-C): the metrics logged
        so far and every committed checkpoint stay, the step in progress is lost, and the run folder says
        ``cancelled`` instead of being left ``running``. If the run ended on its own first, that stands.
        """
        self._finish(RunCancelled(step=self.ctx.last_step))
        result = self.result
        assert result is not None
        return result

    def _finish(self, terminal: Event) -> None:
        """Write the terminal event and close the run; publish it even if the disk writes fail.

        The writer is closed (every pending sample flushed) before the event is published, so whoever
        waits on the job finds events.jsonl complete; a full disk must still never leave the job
        "running" forever for the UI and for ``wait()``. Only the first call (the job's own end, or
        :meth:`abandon`) writes anything.
        """
        with self._end_lock:
            if self._ended:
                return
            self._ended = True
            if self.sampler is not None:
                self.sampler.stop()  # its last rows go in before the terminal event
            self._write_terminal(terminal)

    def _write_terminal(self, terminal: Event) -> None:
        try:
            self.handle.writer.close(last=terminal)
            self.handle.update_state(terminal)
            self.handle.close()
        except Exception as exc:  # noqa: BLE001
            terminal = RunFailed(
                error=f"{getattr(terminal, 'error', '') or terminal.TYPE}; and the run folder could not be "
                f"written: {type(exc).__name__}: {exc}",
                traceback=getattr(terminal, "traceback", ""),
                step=getattr(terminal, "step", None),
            )
        self._publish(terminal)


def start_in_process(
    store: RunStore,
    name: str,
    fn: JobFn,
    *,
    config: Mapping[str, Any] | None = None,
    fingerprint: Mapping[str, Any] | None = None,
    system_metrics: bool = True,
) -> InProcessJob:
    """Create a run in ``store`` and start ``fn`` on a worker thread; returns at once.

    ``system_metrics``: sample CPU, memory and GPUs into the run (:mod:`workbench.runner.system_sampler`).
    """
    handle = store.create(name, config, fingerprint=fingerprint, kind=InProcessJob.kind)
    job = InProcessJob(handle, name, fn, config or {}, system_metrics=system_metrics)
    job.thread.start()
    return job
