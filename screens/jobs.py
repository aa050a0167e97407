"""The app's part in starting, following, resuming and stopping runs (mixed into ``WorkbenchApp``).

Every slow step runs on a thread worker that calls the same engine functions as the CLI and ends with
one message from :mod:`workbench.screens.workers`; the handlers here (``on_<message>``) act on the UI
thread. Stale answers are dropped by :class:`~workbench.screens.workers.Requests`.
"""

from __future__ import annotations

import asyncio
import time
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work

from workbench.i18n import t
from workbench.screens.workers import (
    DemoSeeded,
    JobsStopped,
    PaddleLoaded,
    Requests,
    RunAttached,
    RunsChanged,
    TrainingRefused,
    TrainingStarted,
)

if TYPE_CHECKING:  # the runner (and psutil under it) loads with the first run, after the first frame
    from workbench.notify import Notifier
    from workbench.runner import AttachedRun, Job
    from workbench.runs import RunStore

MAX_ATTACHED = 4  # past / external runs kept in memory for quick reopening
# A stopping run finishes its step and writes a checkpoint first; quitting waits at most this long, then
# ends what is left of a launched job at once (an in-process run ends with the process).
QUIT_WAIT_S = 15.0
ALERT_POLL_S = 0.5  # how often a followed run's new lifecycle events are looked at for alerts


def stop_report(job: Job) -> list[str]:
    """What the user needs after quitting stopped ``job``: the step, the checkpoint, how to resume."""
    from workbench.events import CheckpointSaved

    last = job.metrics.last_step.get(0)
    checkpoints = [e for e in job.lifecycle if isinstance(e, CheckpointSaved)]
    lines = [t("ui.quit.stopped_run", run=job.run_id, status=t(f"status.{job.status}"), step=_dash(last))]
    if checkpoints:
        lines.append(t("ui.quit.checkpoint", path=checkpoints[-1].path, step=checkpoints[-1].step))
        command = resume_command(job.run_dir)
        if command:
            lines.append(t("ui.quit.resume", command=command))
    else:
        lines.append(t("ui.quit.no_checkpoint"))
    return lines


def _dash(value: object) -> str:
    return "—" if value is None else str(value)


def resume_command(run_dir: Path) -> str:
    """``paddle-workbench train CONFIG --resume RUN`` for a run started from a config file, else ``""``."""
    from workbench.runs import read_run_doc_environment

    config = read_run_doc_environment(run_dir).get("config_file")
    if not config:
        return ""
    return f"paddle-workbench train {config} --resume {run_dir.name}"


class RunsAndJobs:
    """Opening runs in the monitor, training from a config, resuming, and stopping on quit."""

    workspace: Path
    live_jobs: dict[str, Job]
    _attached: dict[str, AttachedRun]
    monitor_target: Job | None
    requests: Requests
    stop_reports: list[str]
    paddle_state: str
    paddle_version: str
    _alert_notifier: Notifier | None = None

    @cached_property
    def store(self) -> RunStore:
        """The workspace's runs, made on first use: the home screen reads them after its first frame,
        so :mod:`workbench.runs` (and the event types under it) are not on the start path."""
        from workbench.runs import RunStore

        return RunStore(self.workspace)

    # -- following runs --------------------------------------------------------------------------

    def open_in_monitor(self, run_ref: str | Path | Job) -> None:
        """Show a live job, or a past / externally written run (attached), in the monitor."""
        from workbench.runner import Job

        app: Any = self
        if isinstance(run_ref, Job):
            self._show_in_monitor(run_ref)
            return
        run_dir = self.store.resolve(str(run_ref))
        if run_dir is None:
            app.notify(self.store.miss_message(str(run_ref)), severity="error")
            return
        job = self.live_jobs.get(run_dir.name) or self._attached.get(run_dir.name)
        if job is not None:
            self._show_in_monitor(job)
        else:  # reading a long run's history takes a while: never on the UI thread
            self._attach_run(run_dir, self.requests.new("attach"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="attach", description="worker.attach")
    def _attach_run(self, run_dir: Path, request: int) -> None:
        from workbench.runner import attach

        app: Any = self
        app.post_message(RunAttached(attach(run_dir), request=request))

    def on_run_attached(self, message: RunAttached) -> None:
        from workbench.runner import AttachedRun

        job = message.job
        if not isinstance(job, AttachedRun):
            return
        if not self.requests.is_current(message):
            job.detach()  # the user opened something else meanwhile
            return
        self._attached[job.run_id] = job
        if job.kind == "attached" and not job.done:  # another process's run, still being written
            self.watch_for_alerts(job, skip=len(job.lifecycle))  # its history is not news
        while len(self._attached) > MAX_ATTACHED:  # keep a few recent ones; stop following the rest
            oldest = next(iter(self._attached))
            if self._attached[oldest] is self.monitor_target:
                break
            self._attached.pop(oldest).detach()
        self._show_in_monitor(job)

    def _show_in_monitor(self, job: Job) -> None:
        app: Any = self
        self.monitor_target = job
        app.update_subtitle()
        app.switch_mode("monitor")

    def start_job(self, job_factory: Any, *, open_monitor: bool = True) -> Job:
        """Start a job through the engine (``job_factory(store) -> Job``) and follow it."""
        job: Job = job_factory(self.store)
        self.live_jobs[job.run_id] = job
        self.watch_for_alerts(job)
        app: Any = self
        app.post_message(RunsChanged())
        if open_monitor:
            self.open_in_monitor(job)
        return job

    def start_job_in_worker(self, job_factory: Any) -> None:
        """:meth:`start_job` for a key or a palette entry: the factory creates the run's folder and
        fsyncs its first files, so it runs on a thread worker; the job is followed once it exists."""
        self._create_job(job_factory, self.requests.new("start-job"))

    @work(thread=True, exit_on_error=False, group="start-job", description="worker.train")
    def _create_job(self, job_factory: Any, request: int) -> None:
        app: Any = self
        app.post_message(TrainingStarted(job=job_factory(self.store), request=request))

    def on_runs_changed(self, message: RunsChanged) -> None:
        """Tell the visible screen (the run list re-reads; others ignore it)."""
        app: Any = self
        if app.screen_stack:  # not while starting up or shutting down
            app.screen.post_message(RunsChanged())

    # -- alerts outside the TUI -------------------------------------------------------------------

    def alert_notifier(self) -> Notifier:
        """The bell / notification / ``on_alert`` hook of the user's settings (``workbench.notify``)."""
        if self._alert_notifier is None:
            from workbench.notify import Notifier

            app: Any = self
            self._alert_notifier = Notifier.from_settings(
                app.settings, on_hook_failure=lambda text: app.notify(text, severity="warning", timeout=10)
            )
        return self._alert_notifier

    def watch_for_alerts(self, job: Job, skip: int = 0) -> None:
        """Ring (and notify, and run the hook) when ``job`` finishes, fails or raises a NaN / hang alert;
        its first ``skip`` lifecycle events are not looked at."""
        if self.alert_notifier().active:
            self._watch_alerts(job, skip)

    @work(exit_on_error=False, group="alerts", description="worker.alerts")
    async def _watch_alerts(self, job: Job, skip: int) -> None:
        """Look at ``job``'s new lifecycle events every :data:`ALERT_POLL_S` on the UI loop (a list
        slice: no thread, no I/O) until it ends or is no longer followed."""
        from workbench.notify import alert_for
        from workbench.screens.textual_private import write_to_terminal

        app: Any = self
        index = skip
        while True:
            events = job.lifecycle[index:]
            index += len(events)
            for event in events:
                if getattr(job, "interrupted", False):
                    break  # its writer was gone (maybe long before): the run list says so, no ring
                alert = alert_for(event, run_id=job.run_id, name=job.name, run_dir=str(job.run_dir))
                text = self.alert_notifier().handle(alert) if alert is not None else ""
                if text:
                    write_to_terminal(app, text)
            followed = self.live_jobs.get(job.run_id) is job or self._attached.get(job.run_id) is job
            if (job.done and index >= len(job.lifecycle)) or not followed:
                return
            await asyncio.sleep(ALERT_POLL_S)

    # -- kits' logs ------------------------------------------------------------------------------

    def ask_attach_log(self) -> None:
        """Ask for a kit's training log (PaddleOCR, PaddleClas…), link it and follow it, like ``attach``."""
        from workbench.screens.dialogs import TrainConfigScreen

        app: Any = self
        screen = TrainConfigScreen(
            [],
            exists=lambda ref: Path(ref).expanduser().is_file(),
            title_key="ui.attach.title",
            hint_key="ui.attach.hint",
        )
        app.push_screen(screen, self._attach_log_chosen)

    def _attach_log_chosen(self, path: str | None) -> None:
        if path:
            self._link_log(path, self.requests.new("attach"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="attach", description="worker.attach")
    def _link_log(self, path: str, request: int) -> None:
        from workbench.attach.link import AttachError, link_log
        from workbench.runner import attach

        app: Any = self
        try:
            run_dir = link_log(self.store, Path(path).expanduser())
        except (AttachError, OSError) as exc:
            app.post_message(
                TrainingRefused(title=t("ui.attach.failed", path=path), details=str(exc), request=request)
            )
            return
        app.post_message(RunsChanged())
        app.post_message(RunAttached(attach(run_dir), request=request))

    # -- training --------------------------------------------------------------------------------

    def ask_train_config(self) -> None:
        """Pick a training config (the packaged samples offered) and train it in process, like ``train``."""
        from workbench.samples import resolve_config, sample_config_paths
        from workbench.screens.dialogs import TrainConfigScreen

        app: Any = self
        workspace = self.store.workspace
        samples = [str(p) for p in sample_config_paths(workspace)]

        def exists(ref: str) -> bool:
            return resolve_config(ref, workspace).is_file()

        app.push_screen(TrainConfigScreen(samples, exists=exists), self._train_chosen)

    def _train_chosen(self, config: str | None) -> None:
        if config:
            app: Any = self
            app.notify(t("ui.train.preparing", config=config))
            self.train_config(config)

    def train_config(self, config: str, resume: str | None = None) -> None:
        """Validate (and generate demo data), then start the run: the same engine calls as the CLI."""
        self._train(config, resume, self.requests.new("train"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="train", description="worker.train")
    def _train(self, config: str, resume: str | None, request: int) -> None:
        from workbench.config import ConfigError
        from workbench.datasets.layouts import DatasetError
        from workbench.samples import resolve_config
        from workbench.training import PrepareError, prepare_training, start_training

        app: Any = self
        try:
            plan = prepare_training(
                resolve_config(config, self.store.workspace), resume=resume, store=self.store
            )
            job = start_training(plan, self.store)
        except (ConfigError, DatasetError, PrepareError) as exc:
            # Bad input is a located message list, never a traceback (each error's str lists them all).
            app.post_message(
                TrainingRefused(title=t("ui.train.invalid", config=config), details=str(exc), request=request)
            )
            return
        app.post_message(TrainingStarted(job=job, request=request))

    def on_training_started(self, message: TrainingStarted) -> None:
        job = message.job
        if job is not None:
            self.start_job(lambda _store: job)

    def on_training_refused(self, message: TrainingRefused) -> None:
        from workbench.screens.dialogs import ErrorScreen  # the dialogs load when one is first shown

        app: Any = self
        app.push_screen(ErrorScreen(message.title, message.details))

    def resume_run(self, run_id: str) -> None:
        """Continue a stopped / interrupted run into a new linked run, exactly like ``train --resume``."""
        from workbench.runs import read_run_doc_environment

        app: Any = self
        run_dir = self.store.resolve(run_id)
        config = read_run_doc_environment(run_dir).get("config_file") if run_dir is not None else None
        if run_dir is None or not config:
            app.notify(t("ui.runs.cannot_resume", run=run_id), severity="warning")
            return
        app.notify(t("ui.runs.resuming", run=run_id))
        self.train_config(str(config), resume=str(run_dir))

    # -- the app's own start-up workers ----------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="paddle", description="worker.paddle")
    def _load_paddle(self) -> None:
        """Import Paddle off the UI thread (2-3 s, ~290 MB); the first frame never waits for it."""
        from workbench.training.runtime import import_paddle

        app: Any = self
        try:
            paddle = import_paddle()
            message = PaddleLoaded(state="ready", version=str(getattr(paddle, "__version__", "?")))
        except Exception:  # noqa: BLE001 - any import failure means "not usable here"
            message = PaddleLoaded(state="missing")
        app.post_message(message)

    def on_paddle_loaded(self, message: PaddleLoaded) -> None:
        if getattr(self, "handle_stop_signals", False):
            from workbench.screens.signals import install_stop_signals

            app_: Any = self
            install_stop_signals(app_.stop_for_signal)  # glog replaced SIGTERM's handler at import
        app: Any = self
        self.paddle_state, self.paddle_version = message.state, message.version
        app.update_subtitle()

    @work(thread=True, exclusive=True, exit_on_error=False, group="demo", description="worker.demo")
    def _seed_demo(self) -> None:
        """Give an empty demo workspace a finished and a failed run (real jobs, ~1 s)."""
        from workbench.demo import seed_demo_workspace

        app: Any = self
        app.post_message(DemoSeeded(seeded=bool(seed_demo_workspace(self.store))))

    def on_demo_seeded(self, message: DemoSeeded) -> None:
        if message.seeded:
            self.on_runs_changed(RunsChanged())

    # -- quitting --------------------------------------------------------------------------------

    def _quit_chosen(self, choice: str | None) -> None:
        """The quit dialog's answer: stop the jobs and quit, leave the launched ones running and quit, or
        stay (``None``)."""
        from workbench.screens.dialogs import QUIT_DETACH, QUIT_STOP

        app: Any = self
        if choice == QUIT_STOP:
            app.notify(t("ui.quit.stopping"))
            self._stop_jobs_and_exit()
        elif choice == QUIT_DETACH:
            app.notify(t("ui.quit.leaving"))
            self._stop_jobs_and_exit(detach=True)

    @work(thread=True, exclusive=True, exit_on_error=False, group="quit", description="worker.quit")
    def _stop_jobs_and_exit(self, detach: bool = False) -> None:
        """Stop the runs cooperatively (they checkpoint), bounded so quitting never hangs: a launched job
        still running after :data:`QUIT_WAIT_S` is ended whole at once. ``detach``: launched jobs are
        handed to keepers of their own and left running (in-process runs cannot be: they are stopped)."""
        from workbench.runner import LaunchedJob

        running = [job for job in self.live_jobs.values() if not job.done]
        lines: list[str] = []
        if detach:
            for job in running:
                keeper = job.detach() if isinstance(job, LaunchedJob) else None
                if keeper is not None:
                    lines.append(t("ui.quit.detached", run=job.run_id, pid=keeper))
            running = [job for job in running if not (isinstance(job, LaunchedJob) and job.detached)]
        for job in running:
            job.cancel()
        deadline = time.monotonic() + QUIT_WAIT_S
        for job in running:
            job.wait(max(0.0, deadline - time.monotonic()))
        for job in running:
            if isinstance(job, LaunchedJob) and not job.done:
                job.abort()  # its whole process tree, at once; the run still ends ``cancelled``
                lines.append(t("ui.quit.ended", run=job.run_id, seconds=f"{QUIT_WAIT_S:g}"))
        lines.extend(line for job in running for line in stop_report(job))
        app: Any = self
        app.post_message(JobsStopped(stopped=lines))

    def on_jobs_stopped(self, message: JobsStopped) -> None:
        """Keep what to print after the terminal is restored (``run_tui`` prints it), then exit."""
        app: Any = self
        self.stop_reports = [str(line) for line in message.stopped]
        app.exit(0)
