"""The training configuration: the core keys every task shares (docs/architecture.md, "Training config")."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from workbench.config.problems import problem

if TYPE_CHECKING:
    from workbench.training.tasks import TaskSpec


class _Strict(BaseModel):
    """Unknown keys are errors (with a suggestion), never silently ignored; no number may be NaN or Inf."""

    model_config = ConfigDict(extra="forbid", validate_default=True, allow_inf_nan=False)


SEED_MAX = 2**64 - 1
"""``paddle.seed`` takes an unsigned 64-bit seed: -1 and 2**64 raise ``TypeError`` inside Paddle."""


class DemoData(_Strict):
    """Size and seed of a generated demo dataset (``data.demo``)."""

    train: int = Field(default=2000, gt=0)
    """Training images to render."""
    val: int = Field(default=500, gt=0)
    """Validation images to render."""
    seed: int = Field(default=0, ge=0, le=SEED_MAX)
    """Seed of the generator: the same seed renders the same files."""


class DataSection(_Strict):
    dir: str
    """Dataset folder, relative to the config file (PaddleX / PaddleClas / PaddleOCR layout)."""
    format: Literal["cls", "rec", "det"] = "cls"
    """``cls``: label.txt + train.txt/val.txt; ``rec``: dict.txt + tab-separated lists; ``det``: detection."""
    demo: bool | DemoData = False
    """Generate the deterministic demo dataset into ``dir`` when the folder is missing
    (``true`` for the default size, or ``{train: N, val: M, seed: S}``)."""

    def demo_spec(self) -> DemoData | None:
        """The demo generation settings, or ``None`` when this is not a demo dataset."""
        if isinstance(self.demo, DemoData):
            return self.demo
        return DemoData() if self.demo else None


def task_spec(name: str) -> TaskSpec:
    """The registered spec of task ``name`` (the registry is scanned on first use, without Paddle)."""
    from workbench.training.tasks import TASKS

    return TASKS.get(name)


def task_names() -> list[str]:
    """The registered task names, in the order users see them."""
    from workbench.training.tasks import TASKS

    return TASKS.names()


class ModelSection(_Strict):
    name: str | None = None
    """Model name known to the task (``small_cnn`` for classification, ``crnn`` for recognition);
    omitted: the task's default (the first of its spec's ``models``)."""
    num_classes: int | None = Field(default=None, gt=0)
    """Classes of a classifier; read from ``label.txt`` when omitted."""
    width: int = Field(default=16, gt=0, le=512)
    """Channels of the first convolution (later layers scale from it): the knob for model size."""
    hidden: int = Field(default=64, gt=0, le=65536)
    """Width of the hidden layer of an MLP head (``small_cnn_mlp``: ``fc1`` → ``fc2``, the pair a
    column/row tensor-parallel plan splits)."""


class TrainSection(_Strict):
    steps: int = Field(default=300, gt=0)
    """Optimizer steps to run."""
    batch_size: int = Field(default=64, gt=0)
    lr: float = Field(default=0.01, gt=0)
    optimizer: Literal["sgd", "momentum", "adam", "adamw"] = "momentum"
    seed: int = Field(default=42, ge=0, le=SEED_MAX)
    """Seeds paddle, numpy and random (0 to 2**64-1, what ``paddle.seed`` accepts); recorded in run.yaml."""
    device: str = "auto"
    """``auto`` (GPU when Paddle has one), ``cpu``, ``gpu`` or ``gpu:N``."""
    lr_schedule: Literal["constant", "cosine"] = "constant"
    """Learning-rate schedule after the warm-up: constant, or cosine decay to zero at ``steps``."""
    warmup_steps: int = Field(default=0, ge=0)
    """Linear warm-up from 0 to ``lr`` over this many steps."""
    weight_decay: float = Field(default=0.0, ge=0)
    """L2 weight decay (decoupled for ``adamw``)."""
    grad_clip: float | None = Field(default=None, gt=0)
    """Clip gradients to this global norm (none when omitted)."""

    @model_validator(mode="after")
    def _device_known(self) -> TrainSection:
        if not re.fullmatch(r"auto|cpu|gpu(:\d+)?", self.device):
            raise problem("device", at="train.device", device=self.device)
        return self


class EvalSection(_Strict):
    every: int = Field(default=50, ge=0)
    """Evaluate every N steps (0: only at the end)."""
    max_samples: int | None = Field(default=None, gt=0)
    """Evaluate on the first N validation samples only (all when omitted)."""
    batch_size: int = Field(default=256, gt=0)
    """Batch size of evaluation (no gradients, so it can be larger than training's)."""


class MetricsSection(_Strict):
    """What each training step reports besides loss and learning rate."""

    grad_norm: bool = True
    """Global L2 norm of the gradients (costs a few small kernels per step)."""
    memory: bool = True
    """Host RSS, Paddle's host allocator and GPU memory (when on a GPU)."""
    system: bool = True
    """CPU %, the run's resident memory and every GPU's utilisation, memory, temperature and power,
    sampled once a second on a thread of its own (``sys/...`` series; never on the training thread)."""


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


INJECT_PATTERN = r"(nan|inf|raise|hang|slow_checkpoint)@\d+(:\d+(\.\d+)?)?"


class DebugSection(_Strict):
    """Testing aids, not for production runs (undocumented in the samples on purpose)."""

    inject: str = ""
    """Faults to inject, comma-separated ``kind@step[:seconds]`` with kind ``nan``, ``inf``, ``raise``,
    ``hang`` or ``slow_checkpoint`` (also from ``$PADDLE_WORKBENCH_INJECT``); see workbench.training.faults."""

    @field_validator("inject")
    @classmethod
    def _inject_syntax(cls, value: str) -> str:
        for part in filter(None, (p.strip() for p in value.split(","))):
            if not re.fullmatch(INJECT_PATTERN, part):
                raise problem("inject", part=part)
        return value


class TrainingConfig(_Strict):
    """A training run: which task, which data, and how to train it."""

    task: str
    """A registered task (``workbench/training/tasks/``): ``image_classification``,
    ``text_recognition``, ``custom``…"""
    name: str | None = None
    """Run name shown in the run list (default: the config file's stem)."""
    tags: list[str] = Field(default_factory=list)
    """Free labels kept in ``run.yaml`` (``[sweep, lr-0.1]``): the monitor's runs sidebar filters on them."""
    entry: str | None = None
    """``package.module:build`` for ``task: custom``; ``build(cfg)`` returns model, optimizer, data, loss."""
    data: DataSection | None = None
    model: ModelSection = Field(default_factory=ModelSection)
    train: TrainSection = Field(default_factory=TrainSection)
    eval: EvalSection = Field(default_factory=EvalSection)
    checkpoint: CheckpointSection = Field(default_factory=CheckpointSection)
    alerts: AlertsSection = Field(default_factory=AlertsSection)
    export: ExportSection = Field(default_factory=ExportSection)
    metrics: MetricsSection = Field(default_factory=MetricsSection)
    options: dict[str, Any] = Field(default_factory=dict)
    """Free-form settings for a ``task: custom`` build function (read as ``cfg.options``)."""
    debug: DebugSection | None = None
    """Fault injection for tests (see :class:`DebugSection`)."""

    @field_validator("task")
    @classmethod
    def _task_registered(cls, value: str) -> str:
        names = task_names()
        if value not in names:
            close = difflib.get_close_matches(value, names, n=1, cutoff=0.6)
            raise problem(
                "task_unknown", task=value, known=", ".join(names), suggestion=close[0] if close else ""
            )
        return value

    @model_validator(mode="after")
    def _task_needs(self) -> TrainingConfig:
        """What the task's spec asks of the rest of the file: an entry, a data section, a known model."""
        spec = task_spec(self.task)
        if spec.needs_entry and (not self.entry or not re.fullmatch(r"[\w.]+:[\w.]+", self.entry)):
            raise problem("entry_needed", at="entry", task=self.task)
        if self.model.name is not None and spec.models and self.model.name not in spec.models:
            raise problem(
                "model_unknown",
                at="model.name",
                task=self.task,
                model=self.model.name,
                known=", ".join(spec.models),
            )
        if spec.data_format is None:
            return self
        if self.data is None:
            raise problem("data_needed", at="data", task=self.task, format=spec.data_format)
        if "format" not in self.data.model_fields_set:
            self.data.format = spec.data_format  # type: ignore[assignment]  # omitted: the task's own layout
        if self.data.format != spec.data_format:
            raise problem(
                "format_mismatch",
                at="data.format",
                task=self.task,
                expected=spec.data_format,
                format=self.data.format,
            )
        return self

    def model_name(self) -> str:
        """``model.name``, or the task's default model when omitted (the task's name when it has none)."""
        if self.model.name is not None:
            return self.model.name
        models = task_spec(self.task).models
        return models[0] if models else self.task

    def data_dir(self, config_path: str | Path) -> Path | None:
        """The dataset folder resolved against the config file's folder."""
        if self.data is None:
            return None
        path = Path(self.data.dir).expanduser()
        return path if path.is_absolute() else Path(config_path).parent / path
