"""Training tasks: one module per task in this folder, each registering a :class:`TaskSpec` in :data:`TASKS`.

A task is what ``task:`` names in a training config. Its spec says which models it knows (the first is
the default), which dataset layout it reads, how to check and generate that dataset, and how to build
the :class:`~workbench.training.parts.TrainParts` the loop trains. Config validation reads this registry
(an unknown ``task:`` lists the registered names), so adding a task is one new file here plus its catalog
strings and a test::

    # workbench/training/tasks/my_task.py
    from workbench.training.tasks import TASKS, TaskContext, TaskSpec

    def build(cfg, ctx: TaskContext) -> TrainParts:
        paddle = ctx.paddle                      # imported by the loop, never at module level
        ...

    TASKS.register("my_task", TaskSpec(build=build, title_key="training.task.my_task",
                                       models=("my_net",), data_format="cls"), order=30)

Every ``build`` is called by the loop after the seeds are set and inside
``paddle.utils.unique_name.guard()``. Task modules must not import Paddle at module level: the registry is
scanned when a config is validated (``paddle-workbench validate`` stays fast). Modules whose name starts
with ``_`` (``_optim.py``) are shared helpers, not tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.registry import Registry

if TYPE_CHECKING:
    from workbench.config.training import TrainingConfig
    from workbench.training.parts import TrainParts


@dataclass(frozen=True)
class TaskContext:
    """What a task's ``build`` gets besides the config."""

    data_dir: Path | None
    """The dataset folder resolved against the config file (``None`` for a task without ``data:``)."""
    config_dir: Path
    """The config file's folder (user modules next to the config are imported from here)."""
    paddle: Any
    """The imported ``paddle`` module."""


@dataclass(frozen=True)
class TaskSpec:
    """One training task: what the config may say for it and how to build it."""

    build: Callable[[TrainingConfig, TaskContext], TrainParts]
    """``build(cfg, ctx) -> TrainParts``: model, optimizer, data and loss for a validated config."""
    title_key: str
    """Catalog key of a short description (``image classification (small CNN, PaddleClas layout)``),
    shown next to the task's name where tasks are listed."""
    models: tuple[str, ...] = ()
    """``model.name`` values the task knows; the first is the default. Empty: the user's code decides."""
    data_format: str | None = None
    """``data.format`` the task reads (``cls``, ``rec``); ``None``: the task takes no ``data:`` section."""
    check_data: Callable[[Path], object] | None = None
    """Reads the dataset's lists before Paddle is imported, raising ``DatasetError`` with ``file:line``."""
    make_demo: Callable[[Path, int, int, int], object] | None = None
    """``make_demo(folder, train, val, seed)`` generates the demo dataset (``data.demo: true``)."""
    needs_entry: bool = False
    """The config must name ``entry: package.module:function`` (the user's own build)."""
    sample_config: str | None = None
    """A file in ``sample_configs/`` that trains this task (``None`` when none ships)."""


TASKS: Registry[TaskSpec] = Registry("task", __name__)
"""Every training task, by the name ``task:`` uses, in the order they are listed to users."""


def build_parts(cfg: TrainingConfig, *, data_dir: Path | None, config_dir: Path, paddle: Any) -> TrainParts:
    """Build the model, optimizer and data of ``cfg.task`` through its registered spec."""
    return TASKS.get(cfg.task).build(
        cfg, TaskContext(data_dir=data_dir, config_dir=config_dir, paddle=paddle)
    )


def demo_maker(task: str, data_format: str) -> Callable[[Path, int, int, int], object] | None:
    """The demo generator for ``data.demo``: the task's own, else that of a task reading the same format
    (a ``task: custom`` config may ask for the classification demo data with ``format: cls``)."""
    own = TASKS.get(task).make_demo
    if own is not None:
        return own
    return next(
        (s.make_demo for s in TASKS.values() if s.data_format == data_format and s.make_demo is not None),
        None,
    )


__all__ = ["TASKS", "TaskContext", "TaskSpec", "build_parts", "demo_maker"]
