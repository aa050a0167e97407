"""A small real job for trying the workbench without Paddle: logistic regression in numpy.

It exercises the whole pipeline a Paddle run uses — metrics through ``JobContext.log``, lifecycle
events, Python prints and C-level writes to fd 2 captured into ``logs.txt``, cooperative cancel — in a
second or two. ``fail_at`` makes it raise mid-run, which is how a user (and the tests) see what a
failing run looks like: the app stays up and the run shows its traceback.
"""

from __future__ import annotations

import os
import sys
import time
from functools import partial
from typing import Any

import numpy as np

from workbench.events import CheckpointSaved
from workbench.runner import InProcessJob, JobContext, start_in_process
from workbench.runs import RunStore

DEMO_STEPS = 120
DEMO_FAIL_AT = 40
"""The step at which the failing demo raises (the help text and README say so)."""


class DemoFailure(RuntimeError):
    """The error the failing demo raises on purpose."""


def demo_job(
    ctx: JobContext, *, steps: int = DEMO_STEPS, fail_at: int | None = None, step_s: float = 0.01
) -> dict[str, Any]:
    """Train a 2-class logistic regression on a fixed synthetic set; log loss, accuracy and lr."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(512, 8))
    true_w = rng.normal(size=8)
    y = (x @ true_w + 0.3 * rng.normal(size=512) > 0).astype(np.float64)
    w = np.zeros(8)
    lr = 0.5
    accuracy = 0.0
    print(f"demo: logistic regression, {steps} steps")
    for step in range(1, steps + 1):
        ctx.check_cancelled()
        if fail_at is not None and step == fail_at:
            raise DemoFailure(f"injected failure at step {step} (the demo was asked to fail)")
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        loss = float(-np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))
        w -= lr * (x.T @ (p - y)) / len(y)
        accuracy = float(np.mean((p > 0.5) == y))
        ctx.log(step, loss=loss, lr=lr, accuracy=accuracy)
        if step % 50 == 0:
            # A C-level write, like Paddle's glog: only fd capture keeps it off the screen.
            os.write(2, f"I demo.cc:42] step {step} loss {loss:.4f}\n".encode())
            ctx.emit(CheckpointSaved(step=step, path=""))
            sys.stdout.write(f"step {step}: loss={loss:.4f} accuracy={accuracy:.3f}\n")
        if step_s:
            time.sleep(step_s)
    return {"accuracy": accuracy}


def start_demo_job(
    store: RunStore, *, fail_at: int | None = None, steps: int = DEMO_STEPS, step_s: float = 0.01
) -> InProcessJob:
    name = "demo-failing" if fail_at is not None else "demo"
    config = {"task": "demo", "train": {"steps": steps}, "fail_at": fail_at}
    return start_in_process(
        store, name, partial(demo_job, steps=steps, fail_at=fail_at, step_s=step_s), config=config
    )


def seed_demo_workspace(store: RunStore, step_s: float = 0.0) -> list[str]:
    """Give an empty workspace one finished and one failed run, so the home screen has something real."""
    if store.run_dirs():
        return []
    ids = []
    for fail_at in (None, DEMO_FAIL_AT):
        job = start_demo_job(store, fail_at=fail_at, step_s=step_s)
        job.wait(60)
        ids.append(job.run_id)
    return ids
