"""A user's own script under ``python -m paddle.distributed.launch``: one run for all its ranks.

The launcher starts one process per rank with ``PADDLE_TRAINER_ID`` (the rank), ``PADDLE_TRAINERS_NUM``
(the world size), ``PADDLE_MASTER`` (the rendezvous endpoint), ``PADDLE_TRAINER_ENDPOINTS``, ``POD_NAME``
(random per launch and node) and ``PADDLE_NNODES`` in their environment (measured with Paddle 3.3.1). Ranks must land in one run folder without talking to each other, so the folder
name is derived from what they share:

* the key hashes the master endpoint, the trainer endpoints and ``PADDLE_JOB_ID``; on a single node
  also ``POD_NAME`` and the start time of the launcher process (every local rank's parent), which
  make it unique per launch;
* the time stamp in front of it is the launcher's start time, so all local ranks compute the same id.

Whichever rank comes first creates the folder (``mkdir`` with ``exist_ok``: a race has no loser); rank 0
writes ``run.yaml``, ``state.json`` and the run's own ``events.jsonl``; every rank writes
``ranks/<r>/events.jsonl`` — the layout of runs the workbench launches itself
(:mod:`workbench.runner.launched`). A rank that starts before rank 0 finds the folder by its key.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from workbench.runner.child import RUN_DIR_ENV
from workbench.runs import process_start_time, slug


@dataclass(frozen=True)
class LauncherJob:
    """This process's place in a ``paddle.distributed.launch`` job."""

    rank: int
    world: int
    key: str
    """8 hex digits every rank of the job computes alike."""
    started: float | None
    """The launcher's start time (single node), the run id's time stamp."""

    def run_id(self, name: str) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.started or time.time()))
        return f"{stamp}-{slug(name)}-{self.key}"

    def run_dir(self, runs_dir: Path, name: str) -> Path:
        """The job's run folder: one another rank already made (found by key), else the computed one."""
        if runs_dir.is_dir():
            for existing in sorted(runs_dir.glob(f"*-{self.key}")):
                if existing.is_dir():
                    return existing
        return runs_dir / self.run_id(name)


def launcher_job(
    environ: Mapping[str, str] | None = None, parent_pid: int | None = None
) -> LauncherJob | None:
    """The launcher job this process is a rank of, or ``None`` (not launched, or launched by the
    workbench, whose runner already made the run and said where in ``$PADDLE_WORKBENCH_RUN_DIR``)."""
    env = os.environ if environ is None else environ
    if env.get(RUN_DIR_ENV):
        return None
    rank, world = env.get("PADDLE_TRAINER_ID", ""), env.get("PADDLE_TRAINERS_NUM", "")
    if not (rank.isdigit() and world.isdigit()):
        return None
    single_node = env.get("PADDLE_NNODES", "1") in ("", "1")
    started = process_start_time(os.getppid() if parent_pid is None else parent_pid) if single_node else None
    parts = [
        env.get("PADDLE_MASTER", ""),
        env.get("PADDLE_TRAINER_ENDPOINTS", ""),
        env.get("PADDLE_JOB_ID", ""),
        env.get("POD_NAME", "") if single_node else "",
        f"{started:.2f}" if started is not None else "",
    ]
    key = hashlib.sha256("|".join(parts).encode()).hexdigest()[:8]
    return LauncherJob(rank=int(rank), world=int(world), key=key, started=started)
