"""Compare paths: one module per way of running the exported model, each registering itself in :data:`PATHS`.

A path is opened once (its load time and memory are measured around :attr:`ComparePath.open`) and then
called with preprocessed input batches (numpy in, numpy out). Paths run in :attr:`ComparePath.order`, the
order of Paddle's precision-tracing procedure (dygraph → ``jit.load`` → predictor with IR optimisation
off → on → memory optimisation on → ONNX Runtime), so the first path that leaves the tolerance names the
switch that introduced the difference. Adding a path is one new module here plus its catalog string.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from workbench.registry import Registry

Array = np.ndarray[Any, Any]


@dataclass
class PathContext:
    """What every path may use: Paddle, the dygraph model (eval mode, weights loaded) and the export."""

    paddle: Any
    model: Any
    prefix: Path
    """The export's path prefix (``.../model``; ``model.json`` and ``model.pdiparams`` next to it)."""
    input_name: str
    work_dir: Path | None = None
    """Where a path writes what it derives (``<prefix name>.onnx``); ``None``: next to the export. A
    foreign export's folder belongs to the user: its comparison works in the workspace."""
    notes: dict[str, Any] = field(default_factory=dict)
    """Evidence a path leaves for the pitfall detectors (e.g. BatchNorm statistics it moved)."""
    convert_timeout_s: float = 600.0
    """Time limit of a conversion a path runs in a child process (paddle2onnx)."""
    cancel: Callable[[], bool] | None = None
    """Whether the caller gave up: a path's child process is then killed (:mod:`workbench.isolate`)."""


class PathSkipped(Exception):
    """Raised by :attr:`ComparePath.open` when the path cannot run this model for a known reason (the
    message names it, ``fix`` says what would let it run): the path is reported as skipped, not broken."""

    def __init__(self, reason: str, fix: str = "") -> None:
        super().__init__(reason)
        self.fix = fix


def model_file(prefix: Path) -> Path:
    """The program file of an export: ``<prefix>.json`` (PIR, Paddle 3.x), else ``<prefix>.pdmodel``."""
    program = prefix.with_name(prefix.name + ".json")
    legacy = prefix.with_name(prefix.name + ".pdmodel")
    return legacy if not program.exists() and legacy.exists() else program


@dataclass
class Runner:
    """An opened path: ``call(batch) -> output`` and an optional ``close()``."""

    call: Callable[[Array], Array]
    close: Callable[[], None] | None = None


@dataclass(frozen=True)
class ComparePath:
    """One way of running the model, compared against dygraph eval mode (the reference)."""

    order: int
    label_key: str
    """Catalog key of the path's one-line description."""
    open: Callable[[PathContext], Runner]
    deliberate: bool = False
    """Expected to differ (dygraph left in train mode): shown, never a failure."""
    tolerance: float = 1e-5
    """Allowed ``max_abs_diff`` per unit of the reference's largest magnitude (at least 1)."""
    extra: str | None = None
    """The optional extra that provides it (``onnx``), when it needs one."""
    modules: tuple[str, ...] = ()
    """Python modules it needs (checked with ``importlib.util.find_spec``; missing → path skipped)."""
    unavailable: Callable[[Any], str | None] | None = None
    """``unavailable(paddle)`` → why this machine cannot run the path (it is then skipped), or ``None``."""
    device: str = "cpu"
    """The device type the path runs on (the matrix row's hardware)."""


PATHS: Registry[ComparePath] = Registry("compare path", "workbench.inference.paths")


def first_output(value: Any) -> Any:
    """The first tensor of a model output (a tuple/list/dict of tensors or one tensor)."""
    while isinstance(value, tuple | list):
        value = value[0]
    if isinstance(value, dict):
        value = next(iter(value.values()))
    return value


def ordered_paths() -> list[tuple[str, ComparePath]]:
    return sorted(PATHS.items(), key=lambda item: item[1].order)
