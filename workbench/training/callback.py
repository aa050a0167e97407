"""``WorkbenchCallback``: stream ``paddle.Model.fit`` into a workbench run.

    from workbench.training.callback import WorkbenchCallback
    model.fit(train_ds, val_ds, epochs=2, callbacks=[WorkbenchCallback(name="my-fit")])

Inside a workbench job the metrics join the job's run; in a standalone script the callback starts a run
of its own (see :mod:`workbench.training.track`) and finishes it when ``fit`` returns. Every training
batch logs ``loss`` (and the other numbers in ``logs``), ``lr``, ``samples_per_s`` and ``step_ms`` at a
global step counter; evaluation results are logged with an ``eval/`` prefix. When the user stops the
job, the callback sets ``model.stop_training`` so ``fit`` ends after the current batch.

The class subclasses ``paddle.callbacks.Callback``, so it is created on first access (PEP 562
``__getattr__``): importing this module does not import Paddle.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from workbench.runner.context import JobContext
from workbench.training import track

_CLASS: Any = None


def _numbers(logs: Mapping[str, Any] | None, prefix: str = "") -> dict[str, float]:
    """The numeric entries of a hapi ``logs`` dict (lists of one value are unwrapped)."""
    out: dict[str, float] = {}
    for key, value in (logs or {}).items():
        if key in ("batch_size", "step", "steps"):
            continue
        if isinstance(value, list | tuple) and len(value) == 1:
            value = value[0]
        try:
            out[prefix + key] = float(value.item() if hasattr(value, "item") else value)
        except (TypeError, ValueError):
            continue
    return out


def _build_class() -> Any:
    from workbench.training.runtime import import_paddle

    paddle = import_paddle()

    class WorkbenchCallback(paddle.callbacks.Callback):  # type: ignore[misc, name-defined]
        """Streams ``paddle.Model.fit`` metrics into the current workbench run (or a new one)."""

        def __init__(
            self, name: str | None = None, *, log_every: int = 1, workspace: str | None = None
        ) -> None:
            super().__init__()
            self.run_name = name
            self.log_every = max(1, log_every)
            self.workspace = workspace
            self.global_step = 0
            self.ctx: JobContext | None = None
            self._own: track.TrackedRun | None = None
            self._batch_started = 0.0

        def on_train_begin(self, logs: Mapping[str, Any] | None = None) -> None:
            self.ctx = track.current()
            if self.ctx is None:
                self._own = track.init(self.run_name or "model-fit", workspace=self.workspace)
                self.ctx = self._own.ctx

        def on_train_batch_begin(self, step: int, logs: Mapping[str, Any] | None = None) -> None:
            self._batch_started = time.perf_counter()

        def on_train_batch_end(self, step: int, logs: Mapping[str, Any] | None = None) -> None:
            self.global_step += 1
            ctx = self.ctx
            if ctx is None:
                return
            if ctx.cancelled:
                self.model.stop_training = True
            if self.global_step % self.log_every:
                return
            values = _numbers(logs)
            elapsed = time.perf_counter() - self._batch_started
            batch_size = (logs or {}).get("batch_size")
            values["step_ms"] = elapsed * 1000.0
            if isinstance(batch_size, int) and elapsed > 0:
                values["samples_per_s"] = batch_size / elapsed
            optimizer = getattr(self.model, "_optimizer", None)
            if optimizer is not None:
                values["lr"] = float(optimizer.get_lr())
            ctx.log(self.global_step, **values)

        def on_eval_end(self, logs: Mapping[str, Any] | None = None) -> None:
            if self.ctx is not None:
                self.ctx.log(self.global_step, **_numbers(logs, "eval/"))

        def on_train_end(self, logs: Mapping[str, Any] | None = None) -> None:
            if self._own is not None:
                status = "cancelled" if self._own.ctx.cancelled else "finished"
                self._own.finish(status, summary={"steps": self.global_step})
                self._own = None

    return WorkbenchCallback


def __getattr__(name: str) -> Any:
    """Create ``WorkbenchCallback`` (and import Paddle) on first access."""
    global _CLASS
    if name == "WorkbenchCallback":
        if _CLASS is None:
            _CLASS = _build_class()
        return _CLASS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
