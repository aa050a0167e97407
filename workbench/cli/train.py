"""``paddle-workbench train CONFIG [-o KEY=VALUE ...] [--resume latest|RUN] [--plain] [--json]``.

Presentation only: :func:`workbench.training.prepare_training` checks the request (exit 2 on bad input,
with ``file:line[:col]`` messages, before Paddle is imported) and :func:`workbench.training.start_training`
runs it on a worker thread. This module follows the job: a rich progress bar on a terminal, plain lines
otherwise (``--plain``, a pipe, ``TERM=dumb``, or ``--json``, whose human text goes to stderr), and the
run folder's path as the last line of human output.

While the run trains, file descriptors 1 and 2 are captured (:mod:`workbench.capture`): whatever Paddle or
the user's code writes at the C level lands in the run's ``logs.txt``, never raw on the terminal; only
the command's own lines reach the terminal.

**Stopping.** SIGINT (Ctrl-C), SIGTERM (``kill``, a scheduler's stop) and SIGHUP (the SSH session
dropped) all ask the run to stop after the current step; it saves a checkpoint, records ``cancelled``
and the command exits ``128 + signal``: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP). After SIGHUP nothing
more is written to the dead terminal: the command's own lines go to the run's ``logs.txt``. A second
Ctrl-C aborts at once (exit 130): the run is recorded ``cancelled`` with every checkpoint committed
before; the step in progress is lost. However the command ends, every process the run started (a
DataLoader worker, a helper of the user's code) is ended with it: SIGTERM, then SIGKILL after 3 s. A
reader that closes the pipe early (``| head``) does not stop the run (see :mod:`workbench.cli.output`).
A stop signal ignored when the command started (``nohup`` ignores SIGHUP) stays ignored. The handlers
are :class:`workbench.runner.signals.StopSignals` (the same as ``plan run``'s), with a second Ctrl-C
raising ``KeyboardInterrupt`` into this command's abort path.

``import paddle`` installs glog's C handler for SIGTERM (and SIGSEGV, SIGABRT, ...), which would print
"FatalError: Termination signal" and kill the process; Python's ``signal.getsignal`` does not show it.
The command therefore blocks the stop signals while Paddle is imported and installs its own handlers
right after (see docs/paddle-notes.md, "Signals").

**The bell.** When the run finishes, fails or raises a NaN / hang alert, the terminal bell rings (and a
desktop notification and the ``on_alert`` hook follow the settings, :mod:`workbench.notify`), written to
the terminal only: stderr's or stdout's when one is a TTY, never into a file or a pipe.

Exit codes: 0 finished, 1 failed (an exception, a non-finite loss under a ``stop`` policy), 2 bad input,
130/143/129 stopped by SIGINT/SIGTERM/SIGHUP.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from workbench.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_FAILURES,
    EXIT_OK,
    ClosedPipeGuard,
    emit_json,
    human_console,
    is_headless,
    pipe_guard,
    print_issues,
)
from workbench.cli.state import pass_settings
from workbench.config import ConfigError
from workbench.datasets.layouts import DatasetError
from workbench.envcheck.wheels import DEFAULT_PADDLE_VERSION
from workbench.events import AlertRaised, CheckpointSaved, Event, RunFailed, RunFinished, json_safe_float
from workbench.formatting import format_value
from workbench.i18n import t
from workbench.notify import Notifier, alert_for
from workbench.runner import Job
from workbench.runner.signals import StopSignals, exit_code
from workbench.runs import RunStore
from workbench.settings import WorkbenchSettings
from workbench.stop_signals import ignored

if TYPE_CHECKING:
    from workbench.training.plan import TrainingPlan

POLL_S = 0.2
PLAIN_LINE_EVERY_S = 10.0


def _metrics_text(values: dict[str, Any]) -> str:
    return ", ".join(
        f"{name} {format_value(float(v)) if isinstance(v, int | float) else v}" for name, v in values.items()
    )


class ProgressReporter:
    """Turns a job's live metrics and lifecycle events into progress output (bar or plain lines)."""

    def __init__(
        self,
        job: Job,
        console: Console,
        total: int,
        start_step: int,
        *,
        rich_bar: bool,
        on_event: Callable[[Event], None] | None = None,
    ) -> None:
        self.job = job
        self.on_event = on_event
        """Called with each lifecycle event as it is reported (the bell: :func:`_ring`)."""
        self.console = console
        self.total = total
        self.start_step = start_step
        self._event_index = 0
        self._eval_seen = 0
        self._last_line_step = start_step
        self._last_line_time = time.monotonic()
        self._every = max(1, (total - start_step) // 10)
        self.alerts: list[AlertRaised] = []
        self.checkpoint: str | None = None
        self._progress: Any = None
        self._task: Any = None
        if rich_bar:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._progress = Progress(
                TextColumn(t("training.cli.progress_label")),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[status]}", markup=False),
                console=console,
            )
            self._task = self._progress.add_task("train", total=total, completed=start_step, status="")

    def __enter__(self) -> ProgressReporter:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.update()
        if self._progress is not None:
            self._progress.stop()

    def plain(self) -> None:
        """Drop the progress bar and continue with plain lines (after SIGHUP, nobody sees the bar)."""
        if self._progress is not None:
            progress, self._progress = self._progress, None
            progress.stop()

    def _print(self, text: str) -> None:
        (self._progress.console if self._progress is not None else self.console).print(
            text, highlight=False, markup=False
        )

    def update(self) -> None:
        metrics = self.job.metrics
        step = metrics.last_step.get(0)
        latest = metrics.latest(0)
        # Evaluations (metric rows) and lifecycle events since the last poll, in step order; at the same
        # step the evaluation comes first, as in the loop.
        pending: list[tuple[int, int, Any]] = [(s, 0, values) for s, values in self._new_evals()]
        for event in self.job.lifecycle[self._event_index :]:
            self._event_index += 1
            event_step = getattr(event, "step", None)
            pending.append((event_step if isinstance(event_step, int) else step or 0, 1, event))
        for row_step, kind, item in sorted(pending, key=lambda row: (row[0], row[1])):
            if kind == 0:
                self._print(t("training.cli.eval", step=row_step, metrics=_metrics_text(item)))
            else:
                self._on_event(item)
        if step is None:
            return
        status = t(
            "training.cli.status",
            loss=format_value(latest.get("loss")),
            lr=format_value(latest.get("lr")),
            speed=f"{latest.get('samples_per_s', 0.0):.0f}",
        )
        if self._progress is not None:
            self._progress.update(self._task, completed=step, status=status)
            return
        now = time.monotonic()
        crossed = step // self._every > self._last_line_step // self._every
        if step > self._last_line_step and (
            crossed or now - self._last_line_time >= PLAIN_LINE_EVERY_S or step == self.total
        ):
            self._print(t("training.cli.step", step=step, total=self.total) + "  " + status)
            self._last_line_step, self._last_line_time = step, now

    def _new_evals(self) -> list[tuple[int, dict[str, float]]]:
        """``(step, {metric: value})`` for every evaluation logged since the last call."""
        metrics = self.job.metrics
        names = [n for n in metrics.names() if n.startswith("eval/")]
        if not names:
            return []
        columns = {}
        for name in names:
            series = metrics.series(name)
            if series is not None:
                columns[name.removeprefix("eval/")] = series.arrays()
        first = next(iter(columns.values()))
        steps = first[0][self._eval_seen :].tolist()
        self._eval_seen += len(steps)
        out: list[tuple[int, dict[str, float]]] = []
        for eval_step in steps:
            values = {}
            for name, (s_arr, v_arr) in columns.items():
                hits = (s_arr == eval_step).nonzero()[0]
                if len(hits):
                    values[name] = float(v_arr[hits[-1]])
            out.append((int(eval_step), values))
        return out

    def _on_event(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)
        if isinstance(event, CheckpointSaved):
            self.checkpoint = event.path
            self._print(t("training.cli.checkpoint", step=event.step, path=event.path))
        elif isinstance(event, AlertRaised):
            self.alerts.append(event)
            self._print(t("training.cli.alert", kind=event.kind, message=event.message))
            if event.kind == "hang":
                self._print(
                    t("training.cli.hang_file", path=str(self.job.run_dir / f"hang-{event.step}.txt"))
                )


@contextlib.contextmanager
def _captured_fds() -> Iterator[None]:
    """Capture fds 1 and 2 for the run's log while the command's own lines still reach the terminal.

    Only under the real command line (the output guards are installed by :func:`workbench.cli.main`).
    Captured text that no run takes into its ``logs.txt`` (Paddle's import messages, before the run
    exists) is echoed to stderr, so nothing is lost.
    """
    out_guard, err_guard = pipe_guard("stdout"), pipe_guard("stderr")
    if out_guard is None or err_guard is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    from workbench.capture import start_process_capture, stop_process_capture

    capture = start_process_capture()

    def echo(text: str) -> None:
        if capture.sink_count() <= 1:  # this one: no run is taking the text
            err_guard.write(text)

    try:
        out = _terminal_stream(capture.original_fd(1), out_guard)
        err = _terminal_stream(capture.original_fd(2), err_guard)
        with out_guard.retarget(out), err_guard.retarget(err):
            token = capture.add_sink(echo)
            try:
                yield
            finally:
                capture.sync()
                capture.remove_sink(token)
    finally:
        stop_process_capture()


def _terminal_stream(fd: int, like: ClosedPipeGuard) -> Any:
    """A line-buffered text stream on ``fd`` (a duplicate the capture keeps), encoded like ``like``."""
    raw = open(fd, "wb", closefd=False)  # noqa: SIM115 - the capture closes the fd itself
    return io.TextIOWrapper(raw, encoding=like.encoding, errors=like.errors or "strict", line_buffering=True)


def _to_terminal(text: str) -> None:
    """Write a bell / notification escape to the terminal: stderr's, else stdout's, never to a file or a
    pipe (nor after SIGHUP: the guards are diverted then). While fds 1 and 2 are captured the guards
    point at the saved terminal (:func:`_captured_fds`)."""
    for name in ("stderr", "stdout"):
        guard = pipe_guard(name)
        if guard is not None and guard.isatty():
            guard.write(text)
            guard.flush()
            return


def _hard_exit(code: int) -> None:
    """Exit without interpreter shutdown: the training thread is still inside a Paddle kernel.

    Ending the interpreter normally kills such a daemon thread on its way back into Python, which aborts
    the whole process (``terminate called without an active exception``, exit 134). Everything worth
    keeping is written by now.
    """
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _drop(text: str) -> None:
    """Where output goes after SIGHUP before a run exists: nowhere."""


def _final_metrics(job: Job) -> dict[str, Any]:
    """The run's final loss and eval metrics; NaN/Inf become strings so the JSON stays valid."""
    result = job.result
    if isinstance(result, RunFinished) and isinstance(result.summary.get("final_metrics"), dict):
        values = dict(result.summary["final_metrics"])
    else:
        latest = job.metrics.latest(0)
        values = {k: v for k, v in latest.items() if k == "loss" or k.startswith("eval/")}
    return {k: json_safe_float(v) if isinstance(v, float) else v for k, v in values.items()}


def _print_error(console: Console, message: str) -> None:
    """``error: <message>`` with the prefix styled; the message is text, never Rich markup."""
    console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message), highlight=False)


def _bad_input(console: Console, json_mode: bool, messages: list[str], errors: list[dict[str, Any]]) -> int:
    """Print each problem, emit the ``invalid`` JSON document under ``--json``; the exit code (2)."""
    for message in messages:
        _print_error(console, message)
    if json_mode:
        emit_json({"run_dir": None, "status": "invalid", "errors": errors})
    return EXIT_BAD_INPUT


def _messages_only(console: Console, json_mode: bool, messages: list[str]) -> int:
    return _bad_input(console, json_mode, messages, [{"message": m} for m in messages])


class _TrainCommand:
    """One ``train`` invocation: prepare, start, follow, report; :meth:`run` returns the exit code."""

    def __init__(self, console: Console, store: RunStore, json_mode: bool, rich_bar: bool) -> None:
        self.console = console
        self.store = store
        self.json_mode = json_mode
        self.rich_bar = rich_bar
        self.plan: TrainingPlan | None = None
        self.job: Job | None = None
        self.reporter: ProgressReporter | None = None
        self.signals = StopSignals(self.detach_terminal, abort_by_raising=True)
        self.notifier: Notifier | None = None

    def ring(self, event: Event) -> None:
        """The bell (and notification, and ``on_alert`` hook) for an event that deserves one."""
        job = self.job
        if self.notifier is None or job is None:
            return
        alert = alert_for(event, run_id=job.run_id, name=job.name, run_dir=str(job.run_dir))
        text = self.notifier.handle(alert) if alert is not None else ""
        if text:
            _to_terminal(text)

    def detach_terminal(self) -> None:
        """SIGHUP: the terminal is gone. Our lines for it go to the run's ``logs.txt`` from now on (or
        nowhere before the run exists); nothing more is written to the dead terminal. Streams redirected
        to a file or a pipe keep going there."""
        handle = getattr(self.job, "handle", None)
        sink: Callable[[str], None] = handle.write_log if handle is not None else _drop
        for name in ("stdout", "stderr"):
            guard = pipe_guard(name)
            if guard is not None and guard.terminal:  # a file or a pipe (`> out.json`) still works
                guard.divert(sink)

    def notify(self, message: str) -> None:
        self.console.print(message, highlight=False, markup=False)

    def run(self, config: Path, overrides: tuple[str, ...], resume: str | None) -> int:
        from workbench.samples import resolve_config
        from workbench.training import PrepareError, prepare_training

        config = resolve_config(config, self.store.workspace)  # a packaged sample's name works anywhere
        try:
            plan = prepare_training(config, overrides, resume=resume, store=self.store, notify=self.notify)
        except ConfigError as exc:
            print_issues(self.console, exc.issues)
            if self.json_mode:
                emit_json({"run_dir": None, "status": "invalid", "errors": [i.to_dict() for i in exc.issues]})
            return EXIT_BAD_INPUT
        except DatasetError as exc:
            return _bad_input(
                self.console,
                self.json_mode,
                [str(p) for p in exc.problems],
                [p.to_dict() for p in exc.problems],
            )
        except PrepareError as exc:
            return _messages_only(self.console, self.json_mode, exc.messages)
        self.plan = plan
        cfg = plan.cfg
        self.notify(t("training.cli.config", file=str(config), task=cfg.task, steps=cfg.train.steps))
        if plan.resume is not None:
            self.notify(t("training.cli.resuming", run=str(plan.resume.run_dir), step=plan.resume.step))
        self.notify(t("training.cli.loading_paddle"))
        with _captured_fds():
            failure = self._start(plan)
            if failure is not None:
                return _messages_only(self.console, self.json_mode, failure)
            job = self.job
            assert job is not None
            self.notify(t("runs.run_dir", path=str(job.run_dir)))
            start_step = plan.resume.step if plan.resume is not None else 0
            self.reporter = ProgressReporter(
                job, self.console, cfg.train.steps, start_step, rich_bar=self.rich_bar, on_event=self.ring
            )
            with self.reporter:
                while not job.wait(POLL_S):
                    self._tell_stopping()
                    self.reporter.update()
                self._tell_stopping()
        if self.notifier is not None:
            self.notifier.wait_for_hooks()
        return self._report(config, job, job.status)

    def _tell_stopping(self) -> None:
        """Print the notice for a stop signal (the handler itself only sets flags)."""
        signals = self.signals
        if signals.hung_up and self.reporter is not None:
            self.reporter.plain()  # the bar's redraws would only fill the log
        if not signals.notice_due:
            return
        signals.notice_due = False
        if signals.first == signal.SIGINT:
            self.notify(t("training.cli.stopping"))
        else:
            name = signal.Signals(signals.first).name if signals.first else "?"
            self.notify(t("training.cli.stopping_signal", signal=name))

    def _start(self, plan: TrainingPlan) -> list[str] | None:
        """Import Paddle and start the run; the messages to show when that is impossible."""
        from workbench.training import PrepareError, start_training

        with self.signals.starting_job():  # a stop signal from here on waits for the run to exist
            # Paddle's import replaces SIGTERM's handler at the C level (glog): ours go back on top
            # before any stop signal is delivered. A failing import is reported by start_training.
            self.signals.import_paddle()
            try:
                self.job = start_training(plan, self.store)
            except PrepareError as exc:
                failure = exc.messages
            except ImportError as exc:  # start_training reports these itself; a last line of defence
                failure = [
                    t(
                        "training.paddle.not_importable",
                        error=f"{type(exc).__name__}: {exc}",
                        version=DEFAULT_PADDLE_VERSION,
                    )
                ]
            except OSError as exc:
                failure = [t("training.cli.start_failed", error=str(exc))]
            else:
                self.signals.started(self.job)
                return None
        self.signals.starting = False  # nothing started: a later stop signal just ends the command
        return failure

    def aborted(self, config: Path, signum: int | None = None) -> int:
        """A second Ctrl-C (or a stop signal before the run began): the run folder last; the exit code."""
        job = self.job
        if job is None:
            if self.json_mode:
                emit_json({"run_dir": None, "status": "cancelled", "errors": []})
            return exit_code(signum)
        abandon = getattr(job, "abandon", None)
        if abandon is not None:
            abandon()  # record "cancelled" now: the step in progress may never end
        last_step = job.metrics.last_step.get(0)
        self.notify(t("training.cli.aborted", step=last_step if last_step is not None else "-"))
        return self._report(config, job, "cancelled", announce=False)

    def unexpected(self, exc: BaseException) -> int:
        """A bug in this command while the run trains: record the run, show the error, exit 1."""
        abandon = getattr(self.job, "abandon", None)
        if abandon is not None:
            abandon()
        _print_error(self.console, f"{type(exc).__name__}: {exc}")
        traceback.print_exc()
        return EXIT_FAILURES

    @property
    def worker_alive(self) -> bool:
        thread = getattr(self.job, "thread", None)
        return bool(thread is not None and thread.is_alive())

    def _report(self, config: Path, job: Job, status: str, *, announce: bool = True) -> int:
        plan, reporter = self.plan, self.reporter
        assert plan is not None
        cfg = plan.cfg
        result = job.result
        final = _final_metrics(job)
        summary = result.summary if isinstance(result, RunFinished) else {}
        last_step = job.metrics.last_step.get(0)
        checkpoint = reporter.checkpoint if reporter is not None else None
        alerts = reporter.alerts if reporter is not None else []
        if announce:
            self._announce(config, job, final, last_step, checkpoint)
        if self.json_mode:
            emit_json(
                {
                    "run_dir": str(job.run_dir),
                    "run_id": job.run_id,
                    "status": status,
                    "final_metrics": final,
                    "last_step": last_step,
                    "steps": cfg.train.steps,
                    "error": result.error if isinstance(result, RunFailed) else None,
                    "alerts": [{"kind": a.kind, "message": a.message, "step": a.step} for a in alerts],
                    "checkpoint": summary.get("checkpoint", checkpoint),
                    "export": summary.get("export"),
                    "resumed_from": summary.get("resumed_from")
                    or (
                        {"run_dir": str(plan.resume.run_dir), "step": plan.resume.step}
                        if plan.resume
                        else None
                    ),
                    "duration_s": summary.get("duration_s"),
                    "notices": plan.notices,
                    "stop_signal": signal.Signals(self.signals.first).name if self.signals.first else None,
                }
            )
        # The run folder is the last line of human output, alone, so scripts can `tail -n 1` it.
        self.console.print(str(job.run_dir), highlight=False, markup=False, soft_wrap=True)
        return {"finished": EXIT_OK, "failed": EXIT_FAILURES}.get(status, exit_code(self.signals.first))

    def _announce(
        self, config: Path, job: Job, final: dict[str, Any], last_step: int | None, checkpoint: str | None
    ) -> None:
        """The human summary line(s) of how the run ended."""
        result = job.result
        if isinstance(result, RunFinished):
            summary = result.summary
            self.notify(
                t(
                    "training.cli.finished",
                    seconds=f"{float(summary.get('duration_s') or 0.0):.1f}",
                    step=result.step,
                    metrics=_metrics_text(final),
                )
            )
            if summary.get("export"):
                self.notify(t("training.cli.exported", path=str(summary["export"])))
        elif isinstance(result, RunFailed):
            self.notify(
                t(
                    "training.cli.failed",
                    step=result.step if result.step is not None else "-",
                    error=result.error,
                )
            )
            self.notify(t("training.cli.logs", path=str(job.run_dir / "logs.txt")))
        else:
            self.notify(t("training.cli.cancelled", step=last_step if last_step is not None else "-"))
            if checkpoint:
                self.notify(t("training.cli.resume_hint", config=str(config), run=job.run_id))


def train_command() -> click.Command:
    @click.command("train", help=t("cli.train.help"))
    @click.argument("config", type=click.Path(path_type=Path))
    @click.option("-o", "overrides", multiple=True, metavar="KEY=VALUE", help=t("cli.opt.override"))
    @click.option("--resume", metavar="latest|RUN", help=t("cli.opt.resume"))
    @click.option("--plain", is_flag=True, help=t("cli.opt.plain"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def train(
        ctx: click.Context,
        settings: WorkbenchSettings,
        config: Path,
        overrides: tuple[str, ...],
        resume: str | None,
        plain: bool,
        json_mode: bool,
    ) -> None:
        from workbench.runner.tree import current_children, end_descendants

        children_before = current_children()
        # Decide now: once a job runs, sys.stdout is the capture router (never a TTY).
        rich_bar = not json_mode and not is_headless(plain or settings.plain)
        command = _TrainCommand(human_console(json_mode), RunStore(settings.workspace), json_mode, rich_bar)
        command.notifier = Notifier.from_settings(settings, on_hook_failure=command.notify)
        command.signals.install()
        try:
            code = command.run(config, overrides, resume)
        except KeyboardInterrupt as exc:
            # The second Ctrl-C (the first one asks the run to stop after its step), or a stop signal
            # before the run started: not click's "Aborted!" and exit 1.
            with ignored():
                code = command.aborted(config, getattr(exc, "signum", signal.SIGINT))
        except Exception as exc:  # noqa: BLE001 - never leave the run "running" behind a traceback
            with ignored():
                code = command.unexpected(exc)
        finally:
            command.signals.restore()
        with ignored():
            end_descendants(children_before)  # nothing the run started outlives it (see "Stopping" above)
        if command.worker_alive:
            thread = getattr(command.job, "thread", None)
            if thread is not None and command.job is not None and command.job.done:
                thread.join(timeout=5)  # its last bookkeeping after the terminal event
            if command.worker_alive:
                _hard_exit(code)
        ctx.exit(code)

    return train
