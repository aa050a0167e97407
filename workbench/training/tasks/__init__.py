"""Built-in tasks and the ``task: custom`` adapter: each turns a config into :class:`TrainParts`.

Every builder is called by the loop after the seeds are set and inside
``paddle.utils.unique_name.guard()``; none imports Paddle at module level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.config.training import TrainingConfig
from workbench.training.parts import TrainParts


def build_parts(cfg: TrainingConfig, *, data_dir: Path | None, config_dir: Path, paddle: Any) -> TrainParts:
    """Build the model, optimizer and data of ``cfg.task``."""
    if cfg.task == "image_classification":
        from workbench.training.tasks.cls import build_cls

        assert data_dir is not None
        return build_cls(cfg, data_dir, paddle)
    if cfg.task == "text_recognition":
        from workbench.training.tasks.rec import build_rec

        assert data_dir is not None
        return build_rec(cfg, data_dir, paddle)
    from workbench.training.tasks.custom import build_custom

    return build_custom(cfg, config_dir)


__all__ = ["build_parts"]
