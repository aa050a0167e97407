"""A job with a scripted event stream: deterministic, no threads, no Paddle (for Pilot tests)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench.events import CheckpointSaved, RunFailed, RunStarted
from workbench.runner import Job


class ScriptedJob(Job):
    """A job whose whole history is given up front: deterministic pixels, no threads, no Paddle."""

    def __init__(self, run_dir: Path, ranks: int = 1) -> None:
        super().__init__(
            run_dir, "scripted-run", "scripted", config={"train": {"steps": 400, "batch_size": 32}}
        )
        steps = np.arange(1, 301)
        loss = 2.3 * np.exp(-steps / 60) + 0.05 * np.sin(steps / 3)
        for step, value in zip(steps, loss, strict=True):
            for rank in range(ranks):
                self.metrics.record(
                    rank, int(step), {"loss": float(value) + rank * 0.1, "lr": 0.01}, float(step)
                )
            if step % 50 == 0:
                self.metrics.record(0, int(step), {"eval/loss": float(value) + 0.1}, float(step))
        self._publish(RunStarted(run_id="scripted-run", time=0.0))
        self._publish(CheckpointSaved(step=100, path="", time=1.0))
        self._publish(CheckpointSaved(step=200, path="", time=2.0))
        self._publish(
            RunFailed(
                error="FloatingPointError: loss is nan at step 301",
                traceback="Traceback (most recent call last):\n  ...\nFloatingPointError: loss is nan at step 301",
                time=3.0,
            )
        )
