"""The tracking API: ``from workbench import track; track.log(step, loss=...)`` from any training code.

Where the numbers go depends on where the code runs:

* **inside a workbench job** (``task: custom`` code, a ``paddle.Model.fit`` callback, anything the
  training loop calls): into that job's run, next to the loop's own metrics;
* **inside a launched child** (``$PADDLE_WORKBENCH_RUN_DIR`` set by the runner, e.g. a script the
  workbench started, or one rank of a job it runs under ``paddle.distributed.launch``): into that rank's
  stream of the run the workbench made for it — ``track.init`` there joins that run (see :func:`init`);
* **in a script of your own under** ``python -m paddle.distributed.launch``: into one run for the whole
  job — rank 0 creates it, each rank writes its own ``ranks/<r>/`` stream (see
  :mod:`workbench.runner.launcher`), as in runs the workbench launches itself;
* **in a standalone script**: into a run of its own in the workspace (``--workspace`` default,
  ``$PADDLE_WORKBENCH_WORKSPACE`` or ``./.paddle-workbench``). Start it with ``track.init(name=...)``
  (or let the first ``track.log`` start one named after the script); it ends ``finished`` when the script
  exits normally, ``failed`` (with the traceback) when an exception escapes, ``cancelled`` on Ctrl-C —
  or explicitly with ``track.finish()`` / ``with track.init(...):``.

The TUI lists such runs with the others and can attach to them live. ``track.log`` costs what
``JobContext.log`` costs (no I/O on the calling thread); values may be floats, numpy scalars or 0-D
tensors (read with ``.item()``).

**Ranks that die.** Under the launcher every rank records its pid in ``ranks/<r>/pid``, and SIGTERM,
SIGINT and SIGHUP (what the launcher sends the other ranks when one fails) end the script as an exit
would: this rank's final event is written and rank 0 decides the run's outcome. A rank that ended
without a final event and whose process is gone (``kill -9``, a crash) makes the run ``failed``, naming
that rank — never ``running`` for good.

A run ``init`` creates also records the machine (``sys/...`` series: CPU, the memory of the script's
processes, every GPU) once a second on a daemon thread of its own, as workbench jobs do
(:mod:`workbench.runner.system_sampler`); it stops when the run ends, however it ends. Under the launcher
rank 0 samples for the whole job: the launcher process and every local rank under it. ``init(...,
system=False)`` or ``PADDLE_WORKBENCH_SYSTEM_METRICS=0`` switches it off. Inside a workbench job, or a
child the workbench launched (where ``init`` joins the job's run), the job's own sampler already does
this.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from workbench.events import AlertRaised, Event, RunCancelled, RunFailed, RunFinished, RunStarted
from workbench.gitversion import code_version
from workbench.i18n import t
from workbench.metric_store import MetricStore
from workbench.runner.child import process_context
from workbench.runner.context import JobContext
from workbench.runner.launcher import LauncherJob, launcher_job
from workbench.runner.system_sampler import SystemSampler
from workbench.runs import (
    EventTailer,
    EventWriter,
    RunHandle,
    RunStore,
    add_run_config,
    make_private_dir,
    read_run_doc,
)
from workbench.stop_signals import STOP_SIGNALS

RANKS_WAIT_S = 5.0
"""How long rank 0, when it ends, waits for the other ranks' final events to decide the run's outcome."""
SYSTEM_ENV = "PADDLE_WORKBENCH_SYSTEM_METRICS"
"""``0``, ``false``, ``no`` or ``off`` switches the system sampler off for runs ``init`` creates (unless
``init(system=True)`` says otherwise)."""
_OFF = ("0", "false", "no", "off")

_local = threading.local()
_lock = threading.Lock()
_job_ctx: JobContext | None = None  # the in-process job that bound itself most recently
_child_ended = False  # a ChildRun wrote this rank's final event (once per process)
_own_run: TrackedRun | None = None  # a run this module created for a standalone script
_hooks_installed = False
_escaped: tuple[type[BaseException], BaseException] | None = None
_stop_signal: int | None = None  # the stop signal that ended a launcher rank's script
_signals_before_paddle = False  # our handlers went in before `import paddle`, which replaces SIGTERM's


def _as_float(value: Any) -> float:
    item = getattr(value, "item", None)
    return float(item() if callable(item) else value)


class TrackedRun:
    """A run created by (and written from) this process outside the runner: a standalone script."""

    def __init__(
        self, handle: RunHandle, name: str, config: dict[str, Any] | None, *, system: bool = True
    ) -> None:
        self.handle = handle
        self.name = name
        self.ctx = JobContext(
            run_dir=handle.run_dir,
            run_id=handle.run_id,
            writer=handle.writer,
            metrics=MetricStore(),
            config=config,
            on_event=handle.update_state,
        )
        self.finished = False
        self.sampler: SystemSampler | None = None
        """The run's system sampler (``None`` when switched off, or on a rank that is not rank 0)."""
        handle.emit(RunStarted(run_id=handle.run_id, name=name, kind="in_process", pid=os.getpid()))
        if system:
            # This process and its descendants (e.g. DataLoader workers): the script's processes.
            self._start_sampler(handle.writer, os.getpid())

    def _start_sampler(self, writer: EventWriter, pid: int) -> None:
        self.sampler = SystemSampler(
            writer=writer, metrics=self.ctx.metrics, pid=pid, children=True, name=self.run_dir.name
        )
        self.sampler.start()

    @property
    def run_dir(self) -> Path:
        return self.handle.run_dir

    def log(self, step: int, /, **values: Any) -> None:
        self.ctx.log(step, **{k: _as_float(v) for k, v in values.items()})

    def emit(self, event: Event) -> None:
        self.ctx.emit(event)

    def finish(
        self,
        status: str = "finished",
        *,
        error: str = "",
        details: str = "",
        summary: dict[str, Any] | None = None,
    ) -> None:
        """End the run: ``finished``, ``failed`` (with ``error`` and ``details``) or ``cancelled``."""
        global _own_run
        if self.finished:
            return
        self.finished = True
        if self.sampler is not None:
            self.sampler.stop()  # no row after this returns: the file can be closed behind it
        self._end(_terminal(status, self.ctx, error, details, summary))
        with _lock:
            if _own_run is self:
                _own_run = None

    def _end(self, terminal: Event) -> None:
        self.handle.emit(terminal)
        self.handle.close()

    def __enter__(self) -> TrackedRun:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is None:
            self.finish()
        elif isinstance(exc, KeyboardInterrupt):
            self.finish("cancelled")
        else:
            text = "".join(traceback.format_exception(kind, exc, tb))
            self.finish("failed", error=f"{type(exc).__name__}: {exc}", details=text)


def _terminal(
    status: str, ctx: JobContext, error: str, details: str, summary: dict[str, Any] | None
) -> Event:
    if status == "failed":
        return RunFailed(error=error, traceback=details, step=ctx.failed_step, rank=ctx.rank)
    if status == "cancelled":
        return RunCancelled(step=ctx.last_step)
    return RunFinished(step=ctx.last_step, summary=dict(summary or {}))


class RankRun(TrackedRun):
    """One rank of a ``paddle.distributed.launch`` job running a script of the user's own.

    Every rank writes ``ranks/<r>/events.jsonl`` (its metrics, alerts and final event); rank 0 also
    owns the run (``run.yaml``, ``state.json``, the top-level ``events.jsonl``, the system samples of the
    whole job) and, when it ends, gives the run the outcome of all ranks (the first failure wins) once
    they reported or :data:`RANKS_WAIT_S` passed.
    """

    def __init__(
        self,
        job: LauncherJob,
        run_dir: Path,
        handle: RunHandle | None,
        name: str,
        config: dict[str, Any] | None,
        *,
        system: bool = True,
    ) -> None:
        self.job = job
        self.owner = handle
        self.name = name
        self._run_dir = run_dir
        self.writer = EventWriter(run_dir / "ranks" / str(job.rank) / "events.jsonl")
        self.ctx = JobContext(
            run_dir=run_dir,
            run_id=run_dir.name,
            writer=self.writer,
            metrics=MetricStore(),
            config=config,
            rank=job.rank,
            on_event=handle.emit if handle is not None else None,  # rank 0: alerts show on the run too
        )
        self.finished = False
        self.sampler = None
        with contextlib.suppress(OSError):
            rank_dir = run_dir / "ranks" / str(job.rank)
            make_private_dir(rank_dir)
            (rank_dir / "pid").write_text(str(os.getpid()), encoding="utf-8")
        _install_stop_signals()
        if handle is not None:
            handle.emit(
                RunStarted(run_id=handle.run_id, name=name, kind="launched", pid=os.getpid(), ranks=job.world)
            )
            if system:
                # One sampler for the job, as for a job the workbench launches: rank 0 measures the
                # launcher (every local rank's parent) and all its descendants, into the run's own file.
                self._start_sampler(handle.writer, os.getppid())

    @property
    def run_dir(self) -> Path:
        return self._run_dir

    def _end(self, terminal: Event) -> None:
        self.writer.emit(terminal)
        self.writer.close()
        if self.owner is not None:
            self.owner.emit(self._job_outcome(terminal))
            self.owner.close()

    def _rank_gone(self, rank: int) -> bool:
        """Rank ``rank`` recorded its pid and that process no longer runs (killed, crashed)."""
        from workbench.runs import process_start_time

        try:
            pid = int((self._run_dir / "ranks" / str(rank) / "pid").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return pid != os.getpid() and process_start_time(pid) is None

    def _job_outcome(self, own: Event) -> Event:
        """The run's final event from every rank's final event (this one's included); a rank whose
        process is gone without one failed (see the module docstring)."""
        from workbench.runner.deaths import RankEnd, explain, tail_lines

        tailer = EventTailer(self._run_dir)
        ended: dict[int, Event] = {}
        gone: dict[int, float] = {}
        deadline = time.monotonic() + RANKS_WAIT_S
        while True:
            for event, rank in tailer.poll():
                if rank is not None and isinstance(event, RunFinished | RunFailed | RunCancelled):
                    ended.setdefault(rank, event)
            for rank in range(self.job.world):
                if rank not in ended and rank not in gone and self._rank_gone(rank):
                    gone[rank] = time.time()
            if len(ended) + len(gone) >= self.job.world or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        for event, rank in tailer.poll():  # a final event written just before its process ended
            if rank is not None and isinstance(event, RunFinished | RunFailed | RunCancelled):
                ended.setdefault(rank, event)
                gone.pop(rank, None)
        steps = tailer.metrics.last_step.values()
        step = max(steps) if steps else getattr(own, "step", None)
        log_dir = os.environ.get("PADDLE_LOG_DIR")
        ends: dict[int, RankEnd] = {}
        for rank in range(self.job.world):
            log = tail_lines(Path(log_dir) / f"workerlog.{rank}") if log_dir else []
            final = ended.get(rank)
            if isinstance(final, RunFailed):
                ends[rank] = RankEnd(rank, when=final.time, failure=final, log=log)
            elif rank in gone:
                failure = RunFailed(error=t("runner.track_rank_gone"), rank=rank)
                ends[rank] = RankEnd(rank, when=gone[rank], failure=failure, log=log)
        explained = explain(ends)
        if explained is not None:
            return RunFailed(
                error=explained.error, traceback=explained.details, step=step, rank=explained.rank
            )
        if any(isinstance(e, RunCancelled) for e in ended.values()):
            return RunCancelled(step=step)
        missing = sorted(set(range(self.job.world)) - set(ended))
        return RunFinished(step=step, summary={"ranks": self.job.world, "ranks_unreported": missing})


class ChildRun(TrackedRun):
    """What ``init`` returns in a child the workbench launched: the run the workbench made for it.

    It writes where ``track.log`` does (this rank's stream, :func:`workbench.runner.child.process_context`)
    and starts no sampler (the job's own samples the whole process tree). :meth:`finish` ends only the
    script's part: this rank's final event, once per process. The run's own final event stays the
    workbench's, written when the process exits (it reads this one: a failure with its traceback).
    """

    def __init__(self, ctx: JobContext, name: str) -> None:
        self.ctx = ctx
        self.name = name
        self.finished = False
        self.sampler = None

    @property
    def run_dir(self) -> Path:
        return self.ctx.run_dir

    def _end(self, terminal: Event) -> None:
        global _child_ended
        with _lock:
            if _child_ended:
                return
            _child_ended = True
        self.ctx.emit(terminal)
        self.ctx.flush()


def _join_child_run(
    ctx: JobContext,
    name: str | None,
    config: dict[str, Any] | None,
    workspace: str | os.PathLike[str] | None,
    system: bool | None,
) -> ChildRun:
    """``init`` in a launched child: a handle on the workbench's run; what would shape a new run is
    merged (config keys the run lacks, by rank 0) or left out, with one line in the run's log."""
    import yaml  # already loaded by workbench.runs; named here for its error type

    doc = read_run_doc(ctx.run_dir)
    run_name = str(doc.get("name") or ctx.run_id)
    own = doc.get("config")
    run_config: dict[str, Any] = dict(own) if isinstance(own, dict) else {}
    notes: list[str] = []
    if name is not None and name != run_name:
        notes.append(t("training.track.child_name", name=name))
    if config:
        try:
            clashes = add_run_config(ctx.run_dir, config) if ctx.rank == 0 else []
        except (OSError, yaml.YAMLError) as exc:
            notes.append(t("training.track.child_config_unsaved", error=str(exc).splitlines()[0]))
        else:
            if clashes:
                notes.append(t("training.track.child_config_kept", keys=", ".join(clashes)))
        ctx.config = {**config, **run_config}  # what the run holds, as the script sees it
    if workspace is not None:
        notes.append(t("training.track.child_workspace", workspace=str(workspace)))
    if system is False:
        notes.append(t("training.track.child_system"))
    if notes:
        print(t("training.track.child_joined", run=ctx.run_id, notes="; ".join(notes)), file=sys.stderr)
    return ChildRun(ctx, run_name)


def _join_launcher_job(
    job: LauncherJob,
    name: str,
    config: dict[str, Any] | None,
    store: RunStore,
    fingerprint: dict[str, Any],
    *,
    system: bool,
) -> RankRun:
    """This rank's part of the job's one run (rank 0 creates the run; the others join its folder)."""
    run_dir = job.run_dir(store.runs_dir, name)
    handle: RunHandle | None = None
    if job.rank == 0:
        fingerprint = {**fingerprint, "launcher": {"ranks": job.world, "key": job.key}}
        handle = store.create(
            name, config or {}, fingerprint=fingerprint, kind="launched", run_id=run_dir.name, exist_ok=True
        )
    else:
        make_private_dir(run_dir)
    return RankRun(job, run_dir, handle, name, config, system=system)


# -- binding the loop's context (used by workbench.training.loop and the callback) ---------------


def bind(ctx: JobContext) -> None:
    """Route ``track.*`` calls to ``ctx``: from this thread first, from any thread as a fallback."""
    global _job_ctx
    _local.ctx = ctx
    _job_ctx = ctx


def unbind(ctx: JobContext) -> None:
    global _job_ctx
    if getattr(_local, "ctx", None) is ctx:
        _local.ctx = None
    if _job_ctx is ctx:
        _job_ctx = None


def current() -> JobContext | None:
    """The context ``track.log`` writes to now, or ``None`` when nothing is active (no run created)."""
    ctx: JobContext | None = getattr(_local, "ctx", None)
    if ctx is not None:
        return ctx
    if _job_ctx is not None:
        return _job_ctx
    if _own_run is not None:
        return _own_run.ctx
    return process_context()  # a launched child's rank stream (None elsewhere)


# -- the public API ------------------------------------------------------------------------------


def _install_exit_hooks() -> None:
    """Finish a standalone run at exit: failed if an exception escaped, else finished."""
    global _hooks_installed
    if _hooks_installed:
        return
    _hooks_installed = True
    previous = sys.excepthook

    def excepthook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        global _escaped
        _escaped = (kind, exc)
        run = _own_run
        if run is not None:
            text = "".join(traceback.format_exception(kind, exc, tb))
            if isinstance(exc, KeyboardInterrupt):
                run.finish("cancelled")
            else:
                run.finish("failed", error=f"{kind.__name__}: {exc}", details=text)
        previous(kind, exc, tb)

    sys.excepthook = excepthook
    atexit.register(_finish_at_exit)


def _finish_at_exit() -> None:
    run = _own_run
    if run is not None:
        run.finish("cancelled" if _stop_signal is not None else "finished")


def _stop_handler(signum: int, frame: object) -> None:
    """A stop signal ends a launcher rank's script like an exit (``128 + signal``); later ones are ignored
    so that the final events are written."""
    global _stop_signal
    if _stop_signal is not None:
        return
    _stop_signal = signum
    raise SystemExit(128 + signum)


def _install_stop_signals() -> None:
    """Our handlers for the stop signals of a launcher rank (main thread only); again after Paddle's
    import, whose C-level SIGTERM handler would kill the rank without a final event."""
    global _signals_before_paddle
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signum, _stop_handler)
    _signals_before_paddle = "paddle" not in sys.modules


def init(
    name: str | None = None,
    *,
    config: dict[str, Any] | None = None,
    workspace: str | os.PathLike[str] | None = None,
    system: bool | None = None,
) -> TrackedRun:
    """Start a run of this script in the workspace and make it the target of ``track.log``.

    Inside a workbench job this is not needed (and raises ``RuntimeError``: the job's run is already the
    target). A second ``init`` finishes the previous standalone run first. ``system``: record CPU,
    memory and GPUs once a second (``None``: yes, unless ``$PADDLE_WORKBENCH_SYSTEM_METRICS`` is ``0``).

    In a child the workbench launched (``$PADDLE_WORKBENCH_RUN_DIR`` set: a script it started, a rank of
    a job it runs) no run is created: the handle is the run the workbench made for this process, the one
    ``track.log`` writes to, and no second sampler starts (the job's covers this process). ``name``,
    ``workspace`` and ``system`` do not apply there; ``config`` keys the run's config lacks are added to
    its ``run.yaml`` (by rank 0; the workbench's values win a clash); anything left out is one line in
    the run's log. ``finish()`` (or the script's end) writes this rank's final event only; the run ends,
    once, when the workbench sees the process exit.
    """
    global _own_run
    if getattr(_local, "ctx", None) is not None or _job_ctx is not None:
        raise RuntimeError("track.init() inside a workbench job: track.log() already writes to the job's run")
    child = process_context()
    if child is not None:
        if isinstance(_own_run, ChildRun) and not _own_run.finished:
            return _own_run
        joined = _join_child_run(child, name, config, workspace, system)
        with _lock:
            _own_run = joined
        _install_exit_hooks()
        return joined
    run_name = name or Path(sys.argv[0] or "script").stem or "script"
    previous = _own_run
    if previous is not None:
        previous.finish()
    store = RunStore(workspace)
    # A script's environment, as far as it is known without importing Paddle ourselves.
    fingerprint: dict[str, Any] = {"python": sys.version.split()[0], "script": str(sys.argv[0] or "")}
    paddle = sys.modules.get("paddle")
    if paddle is not None:
        fingerprint["paddle"] = {"version": str(getattr(paddle, "__version__", "unknown"))}
    code = code_version()  # the script's code, when the working directory is a git checkout
    if code is not None:
        fingerprint["code"] = code
    if system is None:
        system = system_metrics_enabled()
    job = launcher_job()
    run: TrackedRun
    if job is not None:
        run = _join_launcher_job(job, run_name, config, store, fingerprint, system=system)
    else:
        handle = store.create(run_name, config or {}, fingerprint=fingerprint, kind="in_process")
        run = TrackedRun(handle, run_name, config, system=system)
    with _lock:
        _own_run = run
    _install_exit_hooks()
    return run


def system_metrics_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """Whether runs ``init`` creates sample the machine by default (``$PADDLE_WORKBENCH_SYSTEM_METRICS``)."""
    env = os.environ if environ is None else environ
    return env.get(SYSTEM_ENV, "").strip().lower() not in _OFF


def _target() -> JobContext:
    ctx = current()
    if ctx is None:
        ctx = init().ctx
    return ctx


def log(step: int, /, **values: Any) -> None:
    """Record metrics for ``step``, e.g. ``track.log(10, loss=0.42, acc=0.91)``."""
    if _signals_before_paddle and "paddle" in sys.modules:
        _install_stop_signals()
    _target().log(step, **{k: _as_float(v) for k, v in values.items()})


def alert(kind: str, message: str, *, step: int | None = None, details: str = "") -> None:
    """Raise an alert on the current run (shown by the monitor, kept in ``events.jsonl``)."""
    ctx = _target()
    ctx.emit(AlertRaised(kind=kind, message=message, step=step, rank=ctx.rank, details=details))


def finish(status: str = "finished", *, error: str = "") -> None:
    """End the standalone run started by :func:`init` (no effect inside a workbench job; in a launched
    child, the script's part: this rank's final event, see :func:`init`)."""
    run = _own_run
    if run is not None:
        run.finish(status, error=error)


def run_dir() -> Path | None:
    """The folder of the run ``track.log`` writes to, if any."""
    ctx = current()
    return ctx.run_dir if ctx is not None else None


def should_stop() -> bool:
    """``True`` when the user asked the current job to stop (check it once per step in your own loop)."""
    ctx = current()
    return ctx is not None and ctx.cancelled
