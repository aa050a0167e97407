"""Jobs in other processes: launched subprocesses under a watchdog, and runs written by someone else.

A launched job never shares an address space with the workbench, so a segfault or a hang inside Paddle
(see docs/paddle-notes.md, "Launched runs") is a ``RunFailed`` event, not a dead UI. The child's
stdout and stderr go to ``logs.txt``; its ranks' events come in by tailing their JSONL files.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.events import AlertRaised, Event, RunCancelled, RunFailed, RunFinished, RunStarted
from workbench.i18n import t
from workbench.runner.child import RUN_DIR_ENV
from workbench.runner.job import Job
from workbench.runner.system_sampler import SystemSampler
from workbench.runs import (
    STATUS_INTERRUPTED,
    STATUS_RUNNING,
    EventTailer,
    RunHandle,
    RunStore,
    read_log_tail,
    read_run_config,
    summarize,
)

POLL_S = 0.25
KILL_GRACE_S = 3.0


def describe_exit(code: int) -> str:
    """``-11`` → ``"killed by signal SIGSEGV (segmentation fault)"``; ``1`` → ``"exit code 1"``."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = {"SIGSEGV": " (segmentation fault)", "SIGKILL": " (killed)", "SIGABRT": " (aborted)"}.get(
            name, ""
        )
        return f"killed by {name}{hint}"
    return f"exit code {code}"


class LaunchedJob(Job):
    """A subprocess (or a process tree, e.g. ``paddle.distributed.launch``) under a watchdog."""

    kind = "launched"

    def __init__(
        self,
        handle: RunHandle,
        name: str,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        timeout_s: float | None = None,
        ranks: int = 1,
        config: Mapping[str, Any] | None = None,
        stall_s: float | None = None,
        startup_s: float = 60.0,
        system_metrics: bool = True,
    ) -> None:
        super().__init__(handle.run_dir, handle.run_id, name, config=config)
        self.handle = handle
        self.argv = list(argv)
        self.timeout_s = timeout_s
        self.stall_s = stall_s
        """End the job when some rank logged no new step for this long (``None``: no progress watchdog)."""
        self.startup_s = startup_s
        """Extra time allowed before a rank's first step (imports, rendezvous)."""
        self._advanced: dict[int, tuple[int, float]] = {}  # rank -> (last step, when it advanced)
        self._ended_ranks: set[int] = set()
        self.ranks = ranks
        self.tailer = EventTailer(handle.run_dir, self.metrics)
        self.child_failures: list[RunFailed] = []
        self.returncode: int | None = None
        child_env = dict(os.environ)
        child_env.update(env or {})
        child_env[RUN_DIR_ENV] = str(handle.run_dir.resolve())
        child_env.setdefault("PYTHONUNBUFFERED", "1")
        self.child_cancelled = False
        self._log = open(handle.logs_path, "ab")  # noqa: SIM115 - closed when the process ends
        self._record(RunStarted(run_id=self.run_id, name=name, kind=self.kind, pid=os.getpid(), ranks=ranks))
        try:
            self.proc = subprocess.Popen(  # noqa: S603 - an argument list, never a shell string
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                env=child_env,
                cwd=cwd,
                start_new_session=True,  # its own process group, so the watchdog can stop the whole tree
            )
        except OSError as exc:  # e.g. the program does not exist: a failed run, not a phantom one
            self._log.close()
            failed = RunFailed(error=f"could not start {self.argv[0]!r}: {exc}")
            self.handle.writer.emit(failed)
            self.handle.update_state(failed)
            self.handle.close()
            self._publish(failed)
            raise
        self.handle.state["child_pid"] = self.proc.pid
        self.handle.save_state()
        self.sampler: SystemSampler | None = None
        """CPU, the memory of the whole process tree (every rank) and the GPUs, once a second, into the
        run's own ``events.jsonl``; the tailer brings the rows into :attr:`metrics`."""
        if system_metrics:
            self.sampler = SystemSampler(
                writer=handle.writer,
                metrics=self.metrics,
                into_store=False,
                pid=self.proc.pid,
                children=True,
                name=self.run_id,
            )
            self.sampler.start()
        self._thread = threading.Thread(target=self._watch, name=f"launched:{self.run_id}", daemon=True)
        self._thread.start()

    def _record(self, event: Event) -> None:
        self.handle.emit(event)
        self._publish(event)

    def _drain(self) -> None:
        for event, rank in self.tailer.poll():
            if rank is None:
                continue  # the top-level file is ours
            if event.TYPE in ("run_finished", "run_failed", "run_cancelled"):
                self._ended_ranks.add(rank)
            if isinstance(event, RunFailed):
                self.child_failures.append(event)
            elif isinstance(event, RunCancelled):
                self.child_cancelled = True  # e.g. Ctrl-C in the child: it stopped on purpose
            elif event.TYPE not in ("run_finished", "run_started"):
                self._record(event)

    def _kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(KILL_GRACE_S)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def _stalled(self, started: float) -> dict[int, float]:
        """Ranks that logged no new step for ``stall_s`` (before their first step: plus ``startup_s``),
        with how long they have been quiet."""
        if self.stall_s is None:
            return {}
        now = time.monotonic()
        for rank, step in self.metrics.last_step.items():
            seen = self._advanced.get(rank)
            if seen is None or seen[0] != step:
                self._advanced[rank] = (step, now)
        quiet: dict[int, float] = {}
        for rank in range(self.ranks):
            if rank in self._ended_ranks:
                continue
            seen = self._advanced.get(rank)
            since = seen[1] if seen is not None else started
            allowed = self.stall_s if seen is not None else self.stall_s + self.startup_s
            if now - since > allowed:
                quiet[rank] = now - since
        return quiet

    def describe_stall(self, quiet: dict[int, float]) -> tuple[str, str, int | None]:
        """``(error, details, rank)`` for the run's failure when ranks stalled (subclasses know more)."""
        rank = min(quiet, key=lambda r: self.metrics.last_step.get(r, -1))
        step = self.metrics.last_step.get(rank)
        error = t("runner.stalled", rank=rank, seconds=f"{quiet[rank]:.0f}", step=str(step) if step else "-")
        return error, read_log_tail(self.run_dir, 4000), rank

    def _watch(self) -> None:
        started = time.monotonic()
        timed_out = False
        stalled: tuple[str, str, int | None] | None = None
        while self.proc.poll() is None:
            self._drain()
            if self.cancel_event.is_set():
                self._kill()
                break
            if self.timeout_s is not None and time.monotonic() - started > self.timeout_s:
                timed_out = True
                self._kill()
                break
            quiet = self._stalled(started)
            if quiet:
                stalled = self.describe_stall(quiet)  # before the kill: stacks come from live processes
                self._record(
                    AlertRaised(
                        kind="stalled",
                        message=stalled[0],
                        rank=stalled[2] or 0,
                        details=stalled[1],
                        step=None,
                    )
                )
                self._kill()
                break
            time.sleep(POLL_S)
        code = self.proc.wait()
        self.returncode = code
        self._log.close()
        if self.sampler is not None:
            self.sampler.stop()
            with contextlib.suppress(OSError):
                self.handle.writer.flush()  # its last rows reach the store in the drain below
        self._drain()
        terminal: Event
        last_steps = self.metrics.last_step.values()
        step = max(last_steps) if last_steps else None
        if self.cancel_event.is_set() or (self.child_cancelled and not self.child_failures):
            terminal = RunCancelled(step=step)
        elif stalled is not None:
            terminal = RunFailed(error=stalled[0], traceback=stalled[1], step=step, rank=stalled[2])
        elif timed_out:
            terminal = RunFailed(
                error=f"timed out after {self.timeout_s:g} s (watchdog)", traceback="", step=step
            )
        elif code == 0 and not self.child_failures:
            terminal = RunFinished(step=step, summary={"returncode": 0})
        else:
            first = self.child_failures[0] if self.child_failures else None
            error = describe_exit(code)
            if first is not None:
                error = f"rank {first.rank}: {first.error} ({error})"
            tb = first.traceback if first is not None else read_log_tail(self.run_dir, 8000)
            terminal = RunFailed(error=error, traceback=tb, step=step, rank=first.rank if first else None)
        self.handle.writer.emit(terminal)
        self.handle.update_state(terminal)
        self.handle.close()
        self._publish(terminal)


def start_launched(
    store: RunStore,
    name: str,
    argv: Sequence[str],
    *,
    config: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout_s: float | None = None,
    ranks: int = 1,
    stall_s: float | None = None,
    system_metrics: bool = True,
) -> LaunchedJob:
    """Create a run and start ``argv`` as a subprocess in its own process group; returns at once."""
    handle = store.create(name, config, kind=LaunchedJob.kind)
    return LaunchedJob(
        handle,
        name,
        argv,
        env=env,
        cwd=cwd,
        timeout_s=timeout_s,
        ranks=ranks,
        config=config,
        stall_s=stall_s,
        system_metrics=system_metrics,
    )


class AttachedRun(Job):
    """Follow a run that another process is writing (or has written): same face as a live job."""

    kind = "attached"
    cancellable = False

    def __init__(self, run_dir: Path) -> None:
        super().__init__(run_dir, run_dir.name, run_dir.name, config=read_run_config(run_dir))
        self.tailer = EventTailer(run_dir, self.metrics)
        self._stop = threading.Event()
        self.interrupted = False
        self.poll()
        self._thread = threading.Thread(target=self._follow, name=f"attach:{run_dir.name}", daemon=True)
        self._thread.start()

    def poll(self) -> None:
        for event, rank in self.tailer.poll():
            if rank is None:
                self._publish(event)

    def _follow(self) -> None:
        while not self.done and not self._stop.wait(POLL_S):
            self.poll()
            if not self.done and summarize(self.run_dir).status != STATUS_RUNNING:
                self.poll()  # the writer may have finished between the two reads
                if not self.done:
                    self.interrupted = True  # the run list's word for it too (``runs.summarize``)
                    self._publish(RunFailed(error=t("runs.interrupted_attached")))

    @property
    def status(self) -> str:
        """``interrupted`` when the writer died without a final event — the same word as the run list."""
        return STATUS_INTERRUPTED if self.interrupted else super().status

    def detach(self) -> None:
        self._stop.set()

    def cancel(self) -> None:
        """Attached runs belong to another process: cancelling only stops following it."""
        self.detach()


def attach(run_dir: Path) -> AttachedRun:
    """Follow ``run_dir``: a workbench run's events, or a linked kit log (``paddle-workbench attach``)."""
    from workbench.attach.link import is_linked

    if is_linked(run_dir):
        from workbench.attach.run import LinkedRun

        return LinkedRun(run_dir)
    return AttachedRun(run_dir)
