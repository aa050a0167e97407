"""The training configuration (DESIGN.md §4b): the stable core keys every task shares."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    """Unknown keys are errors (with a suggestion), never silently ignored."""

    model_config = ConfigDict(extra="forbid", validate_default=True)


class DataSection(_Strict):
    dir: str
    """Dataset folder, relative to the config file (PaddleX / PaddleClas / PaddleOCR layout)."""
    format: Literal["cls", "rec", "det"] = "cls"
    """``cls``: label.txt + train.txt/val.txt; ``rec``: dict.txt + tab-separated lists; ``det``: detection."""


class ModelSection(_Strict):
    name: str = "small_cnn"
    """Model name known to the task (e.g. ``small_cnn`` for classification, ``crnn`` for recognition)."""
    num_classes: int | None = Field(default=None, gt=0)
    """Classes of a classifier; read from ``label.txt`` when omitted."""


class TrainSection(_Strict):
    steps: int = Field(default=300, gt=0)
    """Optimizer steps to run."""
    batch_size: int = Field(default=64, gt=0)
    lr: float = Field(default=0.01, gt=0)
    optimizer: Literal["sgd", "momentum", "adam", "adamw"] = "momentum"
    seed: int = 42
    """Seeds paddle, numpy and random; recorded in run.yaml."""
    device: str = "auto"
    """``auto`` (GPU when Paddle has one), ``cpu``, ``gpu`` or ``gpu:N``."""

    @model_validator(mode="after")
    def _device_known(self) -> TrainSection:
        if not re.fullmatch(r"auto|cpu|gpu(:\d+)?", self.device):
            raise ValueError(f"device must be auto, cpu, gpu or gpu:N, not {self.device!r}")
        return self


class EvalSection(_Strict):
    every: int = Field(default=50, ge=0)
    """Evaluate every N steps (0: only at the end)."""


class CheckpointSection(_Strict):
    every: int = Field(default=100, ge=0)
    """Save an atomic checkpoint every N steps (0: only at the end)."""
    keep: int = Field(default=3, ge=1)
    """Keep the newest N checkpoints; older ones are deleted only after a new one is committed."""


class AlertsSection(_Strict):
    nonfinite: Literal["warn", "stop", "stop_keep_last_good"] = "stop"
    """What a NaN/Inf loss does."""
    nonfinite_patience: int = Field(default=1, ge=1)
    """Consecutive non-finite steps before acting."""
    hang_after_s: float = Field(default=60.0, gt=0)
    """Alert when no step finished for this long (or 10x the median step, whichever is larger)."""


class ExportSection(_Strict):
    enabled: bool = True
    """Export with ``paddle.jit.save`` at the end of training."""


class TrainingConfig(_Strict):
    """A training run: which task, which data, and how to train it."""

    task: Literal["image_classification", "text_recognition", "custom"]
    name: str | None = None
    """Run name shown in the run list (default: the config file's stem)."""
    entry: str | None = None
    """``package.module:build`` for ``task: custom``; ``build(cfg)`` returns model, optimizer, data, loss."""
    data: DataSection | None = None
    model: ModelSection = Field(default_factory=ModelSection)
    train: TrainSection = Field(default_factory=TrainSection)
    eval: EvalSection = Field(default_factory=EvalSection)
    checkpoint: CheckpointSection = Field(default_factory=CheckpointSection)
    alerts: AlertsSection = Field(default_factory=AlertsSection)
    export: ExportSection = Field(default_factory=ExportSection)

    @model_validator(mode="after")
    def _task_needs(self) -> TrainingConfig:
        if self.task == "custom":
            if not self.entry or not re.fullmatch(r"[\w.]+:[\w.]+", self.entry):
                raise ValueError("task: custom needs entry: package.module:function")
        elif self.data is None:
            raise ValueError(f"task: {self.task} needs a data section (data: {{dir: ..., format: ...}})")
        return self

    def data_dir(self, config_path: str | Path) -> Path | None:
        """The dataset folder resolved against the config file's folder."""
        if self.data is None:
            return None
        path = Path(self.data.dir).expanduser()
        return path if path.is_absolute() else Path(config_path).parent / path
