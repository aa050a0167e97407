"""The training engine: built-in tasks, the loop, seeds, atomic checkpoints, resume, tracking.

Typical use (the CLI's ``train`` command and the TUI do exactly this)::

    from workbench.training import prepare_training, start_training
    plan = prepare_training("sample_configs/train_cls_demo.yaml", ["train.steps=50"])
    job = start_training(plan, RunStore())          # a workbench.runner.InProcessJob
    job.wait(); print(job.status, job.result)

Modules, one idea each: ``plan`` (config → checked request), ``start`` (run it in process), ``loop``
(the steps), ``tasks`` (built-in models and the ``task: custom`` adapter), ``parts`` (what a task
returns), ``sampler``, ``seeds``, ``checkpoints``, ``watchdog``, ``faults``, ``export``, ``resources``,
``fingerprint``, ``track`` (``track.log`` from user code), ``callback`` (``paddle.Model.fit``).
Nothing here imports Paddle at module level.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.training.parts import TrainParts
    from workbench.training.plan import PrepareError, ResumePoint, TrainingPlan, prepare_training
    from workbench.training.start import start_training

# Imported on first use: validating a config scans ``workbench.training.tasks``, which must not pay
# for the planner and runner as well.
_LAZY = {
    "TrainParts": "workbench.training.parts",
    "PrepareError": "workbench.training.plan",
    "ResumePoint": "workbench.training.plan",
    "TrainingPlan": "workbench.training.plan",
    "prepare_training": "workbench.training.plan",
    "start_training": "workbench.training.start",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["PrepareError", "ResumePoint", "TrainParts", "TrainingPlan", "prepare_training", "start_training"]
