"""``paddle-workbench train CONFIG [-o KEY=VALUE ...] [--resume latest|RUN] [--plain] [--json]``.

Presentation only: :func:`workbench.training.prepare_training` checks the request (exit 2 on bad input,
with ``file:line[:col]`` messages, before Paddle is imported) and :func:`workbench.training.start_training`
runs it on a worker thread. This module follows the job: a rich progress bar on a terminal, plain lines
otherwise (``--plain``, a pipe, ``TERM=dumb``, or ``--json``, whose human text goes to stderr), and the
run folder's path as the last line of human output.

Exit codes: 0 finished, 1 failed (an exception, a non-finite loss under a ``stop`` policy), 2 bad input,
130 stopped by Ctrl-C. The first Ctrl-C asks the run to stop after the current step (it saves a
checkpoint; ``--resume`` continues from it); a second one aborts at once.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from workbench.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_FAILURES,
    EXIT_OK,
    emit_json,
    human_console,
    is_headless,
    print_issues,
)
from workbench.config import ConfigError
from workbench.datasets.layouts import DatasetError
from workbench.envcheck.wheels import DEFAULT_PADDLE_VERSION
from workbench.events import AlertRaised, CheckpointSaved, Event, RunFailed, RunFinished, json_safe_float
from workbench.i18n import t
from workbench.runner import Job
from workbench.runs import RunStore

if TYPE_CHECKING:
    from workbench.training.plan import TrainingPlan

EXIT_CANCELLED = 130
POLL_S = 0.2
PLAIN_LINE_EVERY_S = 10.0


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if not math.isfinite(value):
        return str(value)
    if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e5):
        return f"{value:.3e}"
    return f"{value:.4f}"


def _metrics_text(values: dict[str, Any]) -> str:
    return ", ".join(
        f"{name} {_fmt(float(v)) if isinstance(v, int | float) else v}" for name, v in values.items()
    )


class ProgressReporter:
    """Turns a job's live metrics and lifecycle events into progress output (bar or plain lines)."""

    def __init__(self, job: Job, console: Console, total: int, start_step: int, *, rich_bar: bool) -> None:
        self.job = job
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
            loss=_fmt(latest.get("loss")),
            lr=_fmt(latest.get("lr")),
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
def _cooperative_sigint(job: Job, console: Console) -> Iterator[None]:
    """First Ctrl-C: stop after the current step (a checkpoint is saved); second: abort now."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: FrameType | None) -> None:
        if job.cancel_event.is_set():
            signal.signal(signal.SIGINT, signal.default_int_handler)
            raise KeyboardInterrupt
        job.cancel()
        console.print(t("training.cli.stopping"), highlight=False, markup=False)

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """No further Ctrl-C while the final lines of an aborted run are written."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _stdout_to_stderr(active: bool) -> Iterator[None]:
    """With ``--json``, stdout carries one JSON document: send C-level writes to fd 1 to stderr meanwhile."""
    if not active:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


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

    def notify(self, message: str) -> None:
        self.console.print(message, highlight=False, markup=False)

    def run(self, config: Path, overrides: tuple[str, ...], resume: str | None) -> int:
        from workbench.training import PrepareError, prepare_training

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
        failure = self._start(plan)
        if failure is not None:
            # After _stdout_to_stderr: the JSON document must reach the real stdout.
            return _messages_only(self.console, self.json_mode, failure)
        job = self.job
        assert job is not None
        with _stdout_to_stderr(self.json_mode):
            self.notify(t("runs.run_dir", path=str(job.run_dir)))
            start_step = plan.resume.step if plan.resume is not None else 0
            self.reporter = ProgressReporter(
                job, self.console, cfg.train.steps, start_step, rich_bar=self.rich_bar
            )
            with _cooperative_sigint(job, self.console), self.reporter:
                while not job.wait(POLL_S):
                    self.reporter.update()
        return self._report(config, job, job.status)

    def _start(self, plan: TrainingPlan) -> list[str] | None:
        """Import Paddle and start the run; the messages to show when that is impossible."""
        from workbench.training import PrepareError, start_training

        with _stdout_to_stderr(self.json_mode):
            try:
                self.job = start_training(plan, self.store)
            except PrepareError as exc:
                return exc.messages
            except ImportError as exc:  # start_training reports these itself; a last line of defence
                return [
                    t(
                        "training.paddle.not_importable",
                        error=f"{type(exc).__name__}: {exc}",
                        version=DEFAULT_PADDLE_VERSION,
                    )
                ]
            except OSError as exc:
                return [t("training.cli.start_failed", error=str(exc))]
        return None

    def aborted(self, config: Path) -> int:
        """A second Ctrl-C (or one before the run began): exit 130, the run folder last."""
        job = self.job
        if job is None:
            if self.json_mode:
                emit_json({"run_dir": None, "status": "cancelled", "errors": []})
            return EXIT_CANCELLED
        last_step = job.metrics.last_step.get(0)
        self.notify(t("training.cli.aborted", step=last_step if last_step is not None else "-"))
        return self._report(config, job, "cancelled", announce=False)

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
                }
            )
        # The run folder is the last line of human output, alone, so scripts can `tail -n 1` it.
        self.console.print(str(job.run_dir), highlight=False, markup=False, soft_wrap=True)
        return {"finished": EXIT_OK, "failed": EXIT_FAILURES}.get(status, EXIT_CANCELLED)

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
    @click.pass_context
    def train(
        ctx: click.Context,
        config: Path,
        overrides: tuple[str, ...],
        resume: str | None,
        plain: bool,
        json_mode: bool,
    ) -> None:
        root = ctx.find_root().obj
        # Decide now: once a job runs, sys.stdout is the capture router (never a TTY).
        rich_bar = not json_mode and not is_headless(plain or bool(getattr(root, "plain", False)))
        command = _TrainCommand(
            human_console(json_mode), RunStore(getattr(root, "workspace", None)), json_mode, rich_bar
        )
        try:
            code = command.run(config, overrides, resume)
        except KeyboardInterrupt:
            # The second Ctrl-C (the first one asks the run to stop after its step), or one before the
            # run started: not click's "Aborted!" and exit 1.
            with _sigint_ignored():
                code = command.aborted(config)
        ctx.exit(code)

    return train
