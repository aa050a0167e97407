"""Jobs in other processes: launched subprocesses under a watchdog, and runs written by someone else.

A launched job never shares an address space with the workbench, so a segfault or a hang inside Paddle
(see docs/paddle-notes.md, "Launched runs") is a ``RunFailed`` event, not a dead UI. The child's
stdout and stderr go to ``logs.txt``; its ranks' events come in by tailing their JSONL files.

**A job ends whole.** The launched process starts a session of its own, and every process of the job
— the launcher, the ranks it starts in sessions of their own, their children — is tracked by
:class:`~workbench.runner.tree.JobProcesses` while it lives. However the job ends (it finished, a rank
died, the watchdog, a cancel, an abort), nothing of it is left running afterwards: stopped processes
are continued, asked to end, and killed after a grace period.

**Stopping.** :meth:`LaunchedJob.cancel` asks the job to stop after a step (:meth:`request_stop`; a
parallel job tells every rank the step to stop after) and waits up to ``stop_grace_s`` for it, then
kills what is left; :meth:`LaunchedJob.abort` (a second Ctrl-C) kills every process at once. Both end
``cancelled``.

**Leaving a job running.** :meth:`LaunchedJob.detach` (the TUI's "leave them running and quit") hands a
running job to a *keeper*: a small process in a session of its own (``python -m
workbench.runner.keeper``) that adopts the launcher by pid and start time and goes on doing what this
process's watcher did — copy the ranks' events into the run, enforce the watchdog, end every process
of the job and write the run's final status. The job's ranks follow the keeper as their owner
(``ranks/owner``, :func:`~workbench.runner.supervise.write_owner`), so they keep running when the TUI
exits; ``attach`` follows the run, and SIGTERM/SIGINT/SIGHUP to the keeper stop it after an agreed step
(its pid is the run's writer in ``state.json``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.events import AlertRaised, Event, RunCancelled, RunFailed, RunFinished, RunStarted
from workbench.i18n import t
from workbench.runner.child import RUN_DIR_ENV
from workbench.runner.deaths import describe_exit, explain, gather
from workbench.runner.job import Job
from workbench.runner.supervise import OWNER_ENV, owner_token, read_exit, write_owner
from workbench.runner.system_sampler import SystemSampler
from workbench.runner.tree import JobProcesses
from workbench.runs import (
    STATUS_INTERRUPTED,
    STATUS_RUNNING,
    EventTailer,
    EventWriter,
    RunHandle,
    RunStore,
    process_start_time,
    read_log_tail,
    read_run_config,
    summarize,
)

POLL_S = 0.25
KILL_GRACE_S = 3.0
STOP_GRACE_S = 60.0
"""How long a cancelled job may take to stop after its step (and save its checkpoint) before it is killed."""
KEEPER_READY_S = 10.0
"""How long leaving a job running waits for its keeper to take the run over."""

_live: weakref.WeakSet[LaunchedJob] = weakref.WeakSet()
"""Launched jobs not ended yet: killed whole if this process exits normally before they end."""


@atexit.register
def _end_live_jobs() -> None:
    for job in list(_live):
        if not job.done:
            job.processes.kill()


__all__ = [
    "KILL_GRACE_S",
    "STOP_GRACE_S",
    "AdoptedProcess",
    "AttachedRun",
    "LaunchedJob",
    "attach",
    "describe_exit",
    "reopen_run",
]


class AdoptedProcess:
    """The launched process of a job this process took over (:meth:`LaunchedJob.detach`): not a child
    of ours, so it is watched by pid and start time, and its exit status is read from what the ranks'
    supervisors recorded (``ranks/<r>/exit.json``) — the same faces :class:`subprocess.Popen` offers
    the watcher (``pid``, ``poll``, ``wait``)."""

    def __init__(self, pid: int, started: float, run_dir: Path, ranks: int) -> None:
        self.pid = pid
        self.started = started
        self.run_dir = run_dir
        self.ranks = ranks
        self.returncode: int | None = None

    def _running(self) -> bool:
        import psutil

        try:
            proc = psutil.Process(self.pid)
            return abs(proc.create_time() - self.started) < 1.0 and proc.status() != psutil.STATUS_ZOMBIE
        except psutil.Error:
            return False

    def _code(self) -> int:
        """0 when every rank's supervisor recorded a clean (or requested) stop, else the first rank's
        failing code as the launcher reports it; 1 when a rank left no record (the exit status of a
        process this one did not start cannot be read: only a supervised rank's record tells)."""
        from workbench.runner.supervise import CANCELLED_CODE

        for rank in range(self.ranks):
            doc = read_exit(self.run_dir / "ranks" / str(rank))
            if doc is None:
                return 1
            code = int(doc["returncode"])
            if code not in (0, CANCELLED_CODE):
                return 128 - code if code < 0 else code
        return 0

    def poll(self) -> int | None:
        if self.returncode is None and not self._running():
            self.returncode = self._code()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            time.sleep(POLL_S)
        assert self.returncode is not None
        return self.returncode


def reopen_run(run_dir: Path) -> RunHandle:
    """A :class:`RunHandle` on an existing run folder, this process its writer from now on (``state.json``
    names it, so the run list shows the run ``running`` while this process lives)."""
    import json

    try:
        state = json.loads((run_dir / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        state = {}
    if not isinstance(state, dict):
        state = {}
    handle = RunHandle(
        run_dir=run_dir, run_id=run_dir.name, writer=EventWriter(run_dir / "events.jsonl"), state=state
    )
    handle.state.update(
        pid=os.getpid(),
        pid_started=process_start_time(os.getpid()),
        status=STATUS_RUNNING,
        kept_by=os.getpid(),
    )
    handle.save_state()
    return handle


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
        stop_grace_s: float = STOP_GRACE_S,
        adopt: AdoptedProcess | None = None,
    ) -> None:
        """``adopt``: take over a job whose launched process is already running (the keeper, see
        :meth:`detach`) instead of starting ``argv``."""
        super().__init__(handle.run_dir, handle.run_id, name, config=config)
        self.detach_event = threading.Event()
        """Set by :meth:`detach`: the watcher lets go of the job without ending it."""
        self.keeper_pid: int | None = None
        self.abort_event = threading.Event()
        self.stop_grace_s = stop_grace_s
        self.stop_timed_out = False
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
        child_env[OWNER_ENV] = owner_token(os.getpid())  # its ranks stop if this process dies
        child_env.setdefault("PYTHONUNBUFFERED", "1")
        self.child_cancelled = False
        self.proc: subprocess.Popen[bytes] | AdoptedProcess
        self._log = open(handle.logs_path, "ab")  # noqa: SIM115 - closed when the process ends
        if adopt is not None:
            self.proc = adopt
            self._follow(system_metrics)
            return
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
        self._follow(system_metrics)

    def _follow(self, system_metrics: bool) -> None:
        """Track the job's processes, sample the system, and start the watcher thread."""
        handle = self.handle
        self.processes = JobProcesses(self.proc.pid, handle.run_dir)
        """Every process of the job, captured while it lives (see :mod:`workbench.runner.tree`)."""
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
        if isinstance(self.proc, AdoptedProcess):
            self._drain(record=False)
        self._thread = threading.Thread(target=self._watch, name=f"launched:{self.run_id}", daemon=True)
        _live.add(self)
        self._thread.start()

    @property
    def watching(self) -> bool:
        """Whether the watcher thread still runs."""
        return self._thread.is_alive()

    @property
    def detached(self) -> bool:
        return self.detach_event.is_set() and not self.cancel_event.is_set()

    def detach(self, timeout_s: float = 10.0) -> int | None:
        """Leave the job running when this process exits: hand it to a keeper (see the module docstring)
        and stop following it here. Returns the keeper's pid; ``None`` when the job had already ended
        (or was being stopped), which is then left to end as it was."""
        if self.done or self.cancel_event.is_set():
            return None
        self.detach_event.set()
        self._thread.join(timeout_s)
        if self.done or self._thread.is_alive():
            return None  # it ended meanwhile: nothing to hand over
        keeper = self._start_keeper()
        write_owner(self.run_dir, owner_token(keeper.pid))
        # The keeper is the run's writer from now on (the keeper writes the same when it starts): the
        # run list never shows the run "interrupted" in between.
        self.handle.state.update(pid=keeper.pid, pid_started=process_start_time(keeper.pid))
        self.handle.save_state()
        self._wait_kept(keeper, KEEPER_READY_S)
        self.keeper_pid = keeper.pid
        _live.discard(self)
        return keeper.pid

    def _wait_kept(self, keeper: subprocess.Popen[bytes], timeout_s: float) -> bool:
        """Wait (bounded) until the keeper has taken the run over (``kept_by`` in ``state.json``): from
        then on its stop signals are handled, so a ``kill`` right after the TUI quits stops the job."""
        import json

        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and keeper.poll() is None:
            try:
                state = json.loads((self.run_dir / "state.json").read_text(encoding="utf-8"))
                if isinstance(state, dict) and state.get("kept_by") == keeper.pid:
                    return True
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        return False

    def _start_keeper(self) -> subprocess.Popen[bytes]:
        import psutil

        started = psutil.Process(self.proc.pid).create_time()
        argv = [
            sys.executable, "-m", "workbench.runner.keeper", str(self.run_dir.resolve()),
            "--pid", str(self.proc.pid), "--started", repr(started), "--ranks", str(self.ranks),
            "--name", self.name,
        ]  # fmt: skip
        if self.stall_s is not None:
            argv += ["--stall-s", repr(self.stall_s)]
        if self.timeout_s is not None:
            argv += ["--timeout-s", repr(self.timeout_s)]
        env = {k: v for k, v in os.environ.items() if k != OWNER_ENV}
        with open(self.handle.logs_path, "ab") as log:
            return subprocess.Popen(  # noqa: S603 - an argument list, never a shell string
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # a hung-up terminal or the TUI's exit does not reach it
            )

    def _record(self, event: Event) -> None:
        self.handle.emit(event)
        self._publish(event)

    def _drain(self, *, record: bool = True) -> None:
        """Bring the ranks' new events in; ``record=False`` (a keeper reading what the process it took
        the job over from already copied into the run) only notes how the ranks ended."""
        for event, rank in self.tailer.poll():
            if rank is None:
                continue  # the top-level file is ours
            if event.TYPE in ("run_finished", "run_failed", "run_cancelled"):
                self._ended_ranks.add(rank)
            if isinstance(event, RunFailed):
                self.child_failures.append(event)
            elif isinstance(event, RunCancelled):
                self.child_cancelled = True  # e.g. Ctrl-C in the child: it stopped on purpose
            elif event.TYPE not in ("run_finished", "run_started") and record:
                self._record(event)

    def abort(self) -> None:
        """Kill every process of the job at once (a second Ctrl-C) and record ``cancelled``; returns when
        the job has ended. A job handed to a keeper (:meth:`detach`) is the keeper's: nothing is done."""
        if self.detach_event.is_set():
            return
        self.abort_event.set()
        self.cancel_event.set()
        self.wait()

    def abandon(self) -> Event | None:
        """What a process about to exit calls (the TUI's second signal): :meth:`abort`, then the terminal
        event — nothing of the job is left behind the exit."""
        self.abort()
        return self.result

    def request_stop(self) -> None:
        """Ask the job to stop after its current step (a cancel's first move): SIGTERM to the launched
        process's group (the launcher passes it on to its ranks)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGTERM)

    def _kill(self) -> None:
        """End every process of the job: continued, SIGTERM, then SIGKILL after :data:`KILL_GRACE_S`."""
        self.processes.end(KILL_GRACE_S)
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
        stop_asked: float | None = None
        while self.proc.poll() is None:
            self.processes.refresh(force=False)
            self._drain()
            if self.detach_event.is_set() and not self.cancel_event.is_set():
                self._let_go()
                return
            if self.abort_event.is_set():
                self.processes.kill()
                break
            if self.cancel_event.is_set():
                if stop_asked is None:
                    stop_asked = time.monotonic()
                    self.request_stop()
                elif time.monotonic() - stop_asked > self.stop_grace_s:
                    self.stop_timed_out = True
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
            if self.ranks and len(self._ended_ranks) >= self.ranks:
                # Every rank wrote its final event: only the processes' exits are left, and the command
                # waiting on this job ends as soon as the launcher's is seen, not at the next poll.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=POLL_S)
            else:
                self.abort_event.wait(POLL_S)
        code = self.proc.wait()
        # The launcher is gone; whatever it started must not outlive it (ranks run in sessions of their
        # own: a launcher that died or was killed leaves them to init).
        self.processes.end(0.0 if self.abort_event.is_set() else KILL_GRACE_S)
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
        # The watchdog's reason comes before the ranks' own "cancelled": they stopped because it ended them.
        if self.cancel_event.is_set():
            terminal = RunCancelled(step=step)
        elif stalled is not None:
            terminal = RunFailed(error=stalled[0], traceback=stalled[1], step=step, rank=stalled[2])
        elif timed_out:
            terminal = RunFailed(
                error=f"timed out after {self.timeout_s:g} s (watchdog)", traceback="", step=step
            )
        elif self.child_cancelled and not self.child_failures:
            terminal = RunCancelled(step=step)
        elif code == 0 and not self.child_failures:
            terminal = RunFinished(step=step, summary={"returncode": 0})
        else:
            terminal = self._failure(code, step)
        self.handle.writer.emit(terminal)
        self.handle.update_state(terminal)
        self.handle.close()
        self._publish(terminal)
        _live.discard(self)

    def _let_go(self) -> None:
        """The watcher's end for a detached job: the run's files are closed with no final event (the
        keeper writes it) and no process of the job is touched."""
        if self.sampler is not None:
            self.sampler.stop()
        self._log.close()
        self.handle.close()

    def _failure(self, code: int, step: int | None) -> RunFailed:
        """The job failed: name the rank that died first and how, its peers' failures as consequences."""
        launcher_log = read_log_tail(self.run_dir, 64_000)
        ends = gather(self.run_dir, self.ranks, self.child_failures, launcher_log, self.metrics.last_step)
        if self.ranks == 1 and ends[0].returncode is None:
            ends[0].returncode = code  # one process, no supervisor: its own exit status
        explained = explain(ends)
        if explained is not None:
            return RunFailed(
                error=explained.error, traceback=explained.details, step=step, rank=explained.rank
            )
        return RunFailed(error=describe_exit(code), traceback=read_log_tail(self.run_dir, 8000), step=step)


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
