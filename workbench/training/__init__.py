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

from workbench.training.parts import TrainParts
from workbench.training.plan import PrepareError, ResumePoint, TrainingPlan, prepare_training
from workbench.training.start import start_training

__all__ = ["PrepareError", "ResumePoint", "TrainParts", "TrainingPlan", "prepare_training", "start_training"]
