"""The keeper of a launched job that was left running (``python -m workbench.runner.keeper RUN_DIR ...``).

Started by :meth:`~workbench.runner.launched.LaunchedJob.detach` in a session of its own, so that the
job goes on after the TUI that started it exits. It adopts the launcher by pid and start time
(:class:`~workbench.runner.launched.AdoptedProcess`), becomes the run's writer (``state.json`` names it)
and the ranks' owner (``ranks/owner``), and watches the job exactly as the TUI did: the ranks' events
come into the run, the watchdog still applies, every process of the job is ended when the job ends,
and the run gets its final status.

SIGTERM, SIGINT and SIGHUP stop the job as they stop ``plan run``: the ranks stop after an agreed step
and save their checkpoints, then the run ends ``cancelled``; a second SIGINT ends everything at once.
Its output goes to the run's ``logs.txt``; it prints nothing a user reads.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from workbench.runner.launched import AdoptedProcess, LaunchedJob, reopen_run
from workbench.runs import read_run_config
from workbench.stop_signals import STOP_SIGNALS


def adopt(
    run_dir: Path,
    *,
    pid: int,
    started: float,
    ranks: int,
    name: str,
    stall_s: float | None = None,
    timeout_s: float | None = None,
) -> LaunchedJob:
    """Take over the launched job of ``run_dir`` whose launcher is process ``pid`` (started at
    ``started``): a :class:`~workbench.parallel.launch.ParallelJob` for a plan run, else a
    :class:`LaunchedJob`."""
    job_class: type[LaunchedJob] = LaunchedJob
    if (run_dir / "parallel.json").is_file():
        from workbench.parallel.launch import ParallelJob

        job_class = ParallelJob
    handle = reopen_run(run_dir)
    return job_class(
        handle,
        name,
        [],
        ranks=ranks,
        config=read_run_config(run_dir),
        stall_s=stall_s,
        timeout_s=timeout_s,
        adopt=AdoptedProcess(pid, started, run_dir, ranks),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="workbench.runner.keeper")
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--started", type=float, required=True)
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--name", default="")
    parser.add_argument("--stall-s", type=float, default=None)
    parser.add_argument("--timeout-s", type=float, default=None)
    args = parser.parse_args(argv)
    signals: list[int] = []

    def handle(signum: int, frame: FrameType | None) -> None:
        signals.append(signum)

    for stop in STOP_SIGNALS:  # before the job exists: a stop that comes early is acted on below
        signal.signal(stop, handle)
    job = adopt(
        args.run_dir,
        pid=args.pid,
        started=args.started,
        ranks=args.ranks,
        name=args.name or args.run_dir.name,
        stall_s=args.stall_s,
        timeout_s=args.timeout_s,
    )
    acted = 0
    while not job.wait(0.2) and job.watching:  # a watcher that died (its run folder removed) ends it too
        for signum in signals[acted:]:
            if acted == 0:
                job.cancel()
            elif signum == signal.SIGINT:
                job.abort_event.set()  # Ctrl-C again: the watcher kills every process at its next poll
            acted += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
