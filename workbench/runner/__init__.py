"""Jobs: in-process (a worker thread) and launched (subprocesses), one event stream for both.

* :func:`start_in_process` runs ``fn(ctx)`` on a thread; ``ctx`` is a :class:`JobContext`.
* :func:`start_launched` runs an argument list (e.g. ``python -m paddle.distributed.launch ...``)
  under a watchdog and tails the JSONL files its ranks write (see :mod:`workbench.runner.child`).
* :func:`attach` follows a run another process is writing (a headless ``train`` in tmux).

Every :class:`Job` exposes the same things: ``metrics`` (a :class:`~workbench.metric_store.MetricStore`
filled live), ``lifecycle`` (the events so far), ``events()`` / ``async for ... in job.aevents()``,
``cancel()``, ``wait()``, and ``status``.
"""

from workbench.runner.context import JobCancelled, JobContext
from workbench.runner.in_process import InProcessJob, start_in_process
from workbench.runner.job import Job, JobFn
from workbench.runner.launched import AttachedRun, LaunchedJob, attach, start_launched

__all__ = [
    "AttachedRun",
    "InProcessJob",
    "Job",
    "JobCancelled",
    "JobContext",
    "JobFn",
    "LaunchedJob",
    "attach",
    "start_in_process",
    "start_launched",
]
