"""The child side of a launched job: how a process started by the runner reports its events.

The runner puts ``PADDLE_WORKBENCH_RUN_DIR`` in the child's environment; each rank writes
``<run_dir>/ranks/<rank>/events.jsonl`` (rank from ``PADDLE_TRAINER_ID``, set by
``paddle.distributed.launch``, else 0). Use :func:`run_as_child` to wrap the child's main function:
an exception becomes a ``run_failed`` event with its traceback before the process exits 1.

A process has one writer for its rank's file, :func:`process_context`: ``run_as_child`` and
``track.log`` / ``track.init`` (:mod:`workbench.training.track`) share it, so their rows never
interleave and what is still queued at exit is written.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from workbench.events import RunCancelled, RunFailed, RunFinished
from workbench.runner.context import JobCancelled, JobContext
from workbench.runs import EventWriter

RUN_DIR_ENV = "PADDLE_WORKBENCH_RUN_DIR"

_process_ctx: JobContext | None = None
_process_lock = threading.Lock()


def current_rank() -> int:
    for var in ("PADDLE_TRAINER_ID", "PADDLE_RANK", "RANK"):
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return 0


def context_from_env(config: dict[str, Any] | None = None) -> JobContext | None:
    """A :class:`JobContext` writing this rank's events file, or ``None`` outside a launched job."""
    run_dir = os.environ.get(RUN_DIR_ENV)
    if not run_dir:
        return None
    rank = current_rank()
    from workbench.metric_store import MetricStore  # numpy: not at the app's start-up

    path = Path(run_dir) / "ranks" / str(rank) / "events.jsonl"
    writer = EventWriter(path)
    return JobContext(
        run_dir=Path(run_dir),
        run_id=Path(run_dir).name,
        writer=writer,
        metrics=MetricStore(),
        config=config,
        rank=rank,
    )


def process_context() -> JobContext | None:
    """This process's one context for its rank's events file (made on first use, its writer closed at
    exit so the last rows are written), or ``None`` outside a launched job."""
    global _process_ctx
    run_dir = os.environ.get(RUN_DIR_ENV)
    if not run_dir:
        return None
    with _process_lock:
        ctx = _process_ctx
        if ctx is None or ctx.run_dir != Path(run_dir) or ctx.rank != current_rank():
            ctx = _process_ctx = context_from_env()
            if ctx is not None:
                atexit.register(ctx._writer.close)
        return ctx


def run_as_child(main: Callable[[JobContext], dict[str, Any] | None]) -> int:
    """Run ``main(ctx)`` and report its outcome as this rank's terminal event; return the exit code."""
    ctx = process_context()
    if ctx is None:
        print(
            f"{RUN_DIR_ENV} is not set: this script is meant to be started by the workbench", file=sys.stderr
        )
        return 2
    writer = ctx._writer
    try:
        summary = main(ctx)
    except JobCancelled:
        writer.emit(RunCancelled(step=ctx.last_step))
        code = 130
    except BaseException as exc:  # noqa: BLE001 - report, then exit non-zero
        tb = traceback.format_exc()
        sys.stderr.write(tb)
        writer.emit(
            RunFailed(error=f"{type(exc).__name__}: {exc}", traceback=tb, step=ctx.failed_step, rank=ctx.rank)
        )
        code = 1
    else:
        writer.emit(RunFinished(step=ctx.last_step, summary=dict(summary or {})))
        code = 0
    writer.close()
    return code
