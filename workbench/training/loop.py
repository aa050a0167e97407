"""The training loop: one function, :func:`run_training`, run by the in-process runner on a worker thread.

Per step it draws a batch (``data_wait_ms``), runs forward/backward/update (``compute_ms``), and logs
``loss``, ``lr``, ``samples_per_s``, ``step_ms``, ``grad_norm`` and memory figures through
``ctx.log`` (O(1), no I/O on this thread). Every ``eval.every`` steps it logs ``eval/<metric>``; every
``checkpoint.every`` steps it commits an atomic checkpoint (:mod:`workbench.training.checkpoints`) with
the model, the optimizer, the LR scheduler, every RNG state and the sampler position — which is what
makes a resumed run continue bit-identically on CPU.

Failure handling (docs/architecture.md, "Errors and faults"): an exception ends the run as ``RunFailed`` with
every metric and
checkpoint before it kept; a non-finite loss follows ``alerts.nonfinite``:

* ``warn`` — ``AlertRaised(kind="nonfinite")`` once ``nonfinite_patience`` consecutive steps were
  non-finite (again after each recovery); training continues.
* ``stop`` — the alert, then the run fails (:class:`NonFiniteLossError`); the update of the last step is
  not applied; committed checkpoints stay as they are.
* ``stop_keep_last_good`` — like ``stop``, but no checkpoint is written while losses are non-finite and,
  when export is enabled, the newest checkpoint from before the first bad step is exported, so the run
  still yields a usable model.

A hang watchdog (:mod:`workbench.training.watchdog`) raises ``AlertRaised(kind="hang")`` with this
thread's stack (also in ``<run_dir>/hang-<step>.txt``). Between steps the loop honours the job's
controls: a requested checkpoint is saved, a pause blocks (and is not a hang), and a cancel stops after
the current step with a checkpoint saved first.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from workbench.events import AlertRaised, CheckpointSaved, json_safe_float
from workbench.i18n import t
from workbench.inference.export import code_of, write_export_records
from workbench.inference.preprocess import preprocess_identity
from workbench.runner.context import JobCancelled, JobContext
from workbench.training import track
from workbench.training.checkpoints import CheckpointInfo, CheckpointStore, read_manifest
from workbench.training.export import default_input_spec, export_model, exported_files
from workbench.training.faults import FaultPlan, InjectedFault
from workbench.training.model_fingerprint import write_model_fingerprint
from workbench.training.parts import TrainParts
from workbench.training.plan import ResumePoint, TrainingPlan
from workbench.training.resources import MemoryProbe
from workbench.training.runtime import import_paddle, resolve_device, set_device
from workbench.training.sampler import BatchSource, stack_collate
from workbench.training.seeds import capture_rng_state, restore_rng_state, seed_everything
from workbench.training.tasks import build_parts
from workbench.training.watchdog import HangReport, HangWatchdog

MODEL_FILE = "model.pdparams"
OPTIMIZER_FILE = "optimizer.pdopt"
STATE_FILE = "state.pkl"
STATE_FORMAT = 1


def _ignore_warmup_state_warning() -> None:
    """Silence Paddle's "unused values in state_dict" warning from ``paddle.optimizer.lr`` only.

    ``LinearWarmup.set_state_dict`` warns about its own nested scheduler key on every resume: not a real
    mismatch. One narrow, permanent filter (this message, that module; adding it again replaces the
    same entry): a ``warnings.catch_warnings()`` block around the restore swapped the process-wide filter
    list while other runs' threads might be adding to it.
    """
    warnings.filterwarnings(
        "ignore",
        message="There are some unused values in state_dict",
        category=UserWarning,
        module=r"paddle\.optimizer\.lr",
    )


class NonFiniteLossError(RuntimeError):
    """The loss stayed NaN/Inf for ``alerts.nonfinite_patience`` steps under a ``stop`` policy."""


def run_training(ctx: JobContext, plan: TrainingPlan) -> dict[str, Any]:
    """Train as ``plan`` says, reporting through ``ctx``; return the run summary (``RunFinished``)."""
    return TrainingLoop(ctx, plan).run()


class TrainingLoop:
    """State of one training run; :meth:`run` is the whole life of it."""

    def __init__(self, ctx: JobContext, plan: TrainingPlan) -> None:
        self.ctx = ctx
        self.plan = plan
        self.cfg = plan.cfg
        self.faults = FaultPlan(plan.faults)
        self.checkpoints = CheckpointStore(ctx.run_dir / "checkpoints", keep=self.cfg.checkpoint.keep)
        self.step = 0
        self.start_step = 0
        self.last_loss: float | None = None
        self.nonfinite_streak = 0
        self.first_nonfinite_step: int | None = None
        self.last_eval: dict[str, float] = {}
        self.last_eval_step: int | None = None
        self.last_checkpoint: CheckpointInfo | None = None
        self.paddle: Any = None
        self.parts: TrainParts | None = None
        self.source: BatchSource | None = None
        self.memory: MemoryProbe | None = None
        self.watchdog: HangWatchdog | None = None
        self._sample_input: Any = None

    # -- life of a run ------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        started = time.monotonic()
        paddle = self.paddle = import_paddle()
        device = set_device(resolve_device(self.cfg.train.device, paddle), paddle)
        seed_everything(self.cfg.train.seed, paddle)
        # Paddle names parameters *and* optimizer accumulators (created lazily at the first step) from a
        # process-wide counter; the optimizer state in a checkpoint is keyed by those names. A fresh
        # name generator for the whole run makes them the same in every run of a long-lived process,
        # so a resumed run finds its state. (Two runs training at the same time in one process share
        # the generator while they overlap; resuming one of those may then fail loudly.)
        with paddle.utils.unique_name.guard():
            return self._run_named(started, device)

    def _run_named(self, started: float, device: str) -> dict[str, Any]:
        paddle = self.paddle
        parts = self._build_parts()
        parts.check()
        self.parts = parts
        self.source = BatchSource(
            parts.train_data,
            batch_size=self.cfg.train.batch_size,
            seed=self.cfg.train.seed,
            collate=parts.collate or stack_collate(paddle),
        )
        if self.plan.resume is not None:
            self._restore(self.plan.resume)
        self.start_step = self.step
        if self.cfg.metrics.memory:
            self.memory = MemoryProbe(paddle, on_gpu=device.startswith("gpu"))
        self.ctx.check_cancelled()
        track.bind(self.ctx)
        self.watchdog = HangWatchdog(
            thread_id=threading.get_ident(),
            min_after_s=self.cfg.alerts.hang_after_s,
            on_hang=self._on_hang,
            is_paused=self.ctx.pause_event.is_set,
        ).start(self.step)
        try:
            self._train()
        finally:
            self.watchdog.stop()
            track.unbind(self.ctx)
        return self._finish(time.monotonic() - started, device)

    def _build_parts(self) -> TrainParts:
        """The task's model, optimizer and data (a parallel run applies its sharding plan here). The
        model's fingerprint is written as built, before any plan splits it (rank 0 of a job writes it)."""
        parts = build_parts(
            self.cfg, data_dir=self.plan.data_dir, config_dir=self.plan.config_dir, paddle=self.paddle
        )
        if self.ctx.rank == 0:
            write_model_fingerprint(self.ctx.run_dir, parts.model)
        return parts

    def _state_dicts(self) -> tuple[Any, Any]:
        """``(model state, optimizer state)`` as a checkpoint saves them."""
        parts = self.parts
        assert parts is not None
        return parts.model.state_dict(), parts.optimizer.state_dict()

    def _train(self) -> None:
        parts, source = self.parts, self.source
        assert parts is not None and source is not None
        model, optimizer, scheduler = parts.model, parts.optimizer, parts.lr_scheduler
        params = [p for p in model.parameters() if not p.stop_gradient]
        total = self.cfg.train.steps
        eval_every, ckpt_every = self.cfg.eval.every, self.cfg.checkpoint.every
        policy, patience = self.cfg.alerts.nonfinite, self.cfg.alerts.nonfinite_patience
        want_grad_norm = self.cfg.metrics.grad_norm
        perf = time.perf_counter
        model.train()
        while self.step < total:
            step = self.step + 1
            self.ctx.step_in_progress = step
            t0 = perf()
            batch = source.next_batch()
            t1 = perf()
            if self.faults:
                self._inject(step)
            loss = self._loss(model, batch)
            if self.faults and (self.faults.get("nan", step) or self.faults.get("inf", step)):
                loss = loss * (math.nan if self.faults.get("nan", step) else math.inf)
            loss.backward()
            loss_value = float(loss.item())
            grad_norm = self._grad_norm(params) if want_grad_norm else None
            finite = math.isfinite(loss_value)
            self.nonfinite_streak = 0 if finite else self.nonfinite_streak + 1
            if not finite and self.first_nonfinite_step is None:
                self.first_nonfinite_step = step
            elif finite:
                self.first_nonfinite_step = None
            stop_now = policy != "warn" and self.nonfinite_streak >= patience
            lr = float(optimizer.get_lr())
            if not stop_now:
                optimizer.step()
                if scheduler is not None:
                    scheduler.step()
            optimizer.clear_grad()
            t2 = perf()
            self.step = step
            self.last_loss = loss_value
            values = {
                "loss": loss_value,
                "lr": lr,
                "samples_per_s": _batch_len(batch) / max(t2 - t0, 1e-9),
                "data_wait_ms": (t1 - t0) * 1000.0,
                "compute_ms": (t2 - t1) * 1000.0,
                "step_ms": (t2 - t0) * 1000.0,
            }
            if grad_norm is not None:
                values["grad_norm"] = grad_norm
            if self.memory is not None:
                values.update(self.memory.read())
            self.ctx.log(step, **values)
            assert self.watchdog is not None
            self.watchdog.beat(step, t2 - t0)
            if not finite and self.nonfinite_streak == patience:
                self._alert_nonfinite(step, loss_value, policy)
            if stop_now:
                self._stop_nonfinite(step, policy)
            if eval_every and step % eval_every == 0:
                self._evaluate(step)
                self.watchdog.beat()
            if ckpt_every and step % ckpt_every == 0:
                self._checkpoint(step)
                self.watchdog.beat()
            if self.ctx.checkpoint_requested() and not self._saved_at(step):
                self._checkpoint(step)  # the user asked for one (monitor's "checkpoint now")
                self.watchdog.beat()
            if self.ctx.wait_while_paused():
                self.watchdog.beat()  # a pause is not a hang
            if self._stop_due(step):
                if not self._saved_at(step):
                    self._checkpoint(step)
                raise JobCancelled()

    def _stop_due(self, step: int) -> bool:
        """Whether the run stops after ``step``: the user asked it to (a parallel rank also stops at the
        step its job agreed on, see :class:`workbench.parallel.worker.ParallelLoop`)."""
        return self.ctx.cancelled

    def _saved_at(self, step: int) -> bool:
        return self.last_checkpoint is not None and self.last_checkpoint.step == step

    def _finish(self, duration_s: float, device: str) -> dict[str, Any]:
        parts = self.parts
        assert parts is not None
        total = self.cfg.train.steps
        # The last checkpoint first: a kill during the final evaluation or the export then leaves a run
        # that `--resume` can finish without training again (see workbench.training.plan).
        if not self._saved_at(total):
            self._checkpoint(total)
        if self.last_eval_step != total:
            self._evaluate(total)
        export: str | None = None
        if self.cfg.export.enabled:
            export = self._export()
        final: dict[str, Any] = {
            "loss": json_safe_float(self.last_loss) if self.last_loss is not None else None
        }
        final.update(self.last_eval)
        summary: dict[str, Any] = {
            "task": self.cfg.task,
            "steps": total,
            "start_step": self.start_step,
            "final_metrics": final,
            "checkpoint": str(self.last_checkpoint.path) if self.last_checkpoint else None,
            "export": export,
            "device": device,
            "duration_s": round(duration_s, 3),
        }
        if self.plan.resume is not None:
            summary["resumed_from"] = _resume_doc(self.plan.resume)
        summary.update(dict(parts.summary or {}))
        return summary

    # -- one step's pieces --------------------------------------------------------------------------

    def _loss(self, model: Any, batch: Any) -> Any:
        parts = self.parts
        assert parts is not None
        if not isinstance(batch, tuple | list):
            batch = (batch,)
        if self._sample_input is None:
            self._sample_input = batch[0]
        if parts.compute_loss is not None:
            return parts.compute_loss(model, batch)
        assert parts.loss is not None
        return parts.loss(model(batch[0]), *batch[1:])

    def _grad_norm(self, params: list[Any]) -> float:
        paddle = self.paddle
        squares = [paddle.sum(paddle.square(p.grad.astype("float32"))) for p in params if p.grad is not None]
        if not squares:
            return 0.0
        return math.sqrt(float(paddle.add_n(squares).item()))

    def _inject(self, step: int) -> None:
        if self.faults.get("raise", step):
            raise InjectedFault(t("training.fault.raised", step=step))
        hang = self.faults.get("hang", step)
        if hang is not None:
            # Sleep like a stuck data loader or collective would; a cancel wakes it (cooperative stop).
            self.ctx.cancel_event.wait(hang.seconds)

    # -- non-finite losses --------------------------------------------------------------------------

    def _alert_nonfinite(self, step: int, value: float, policy: str) -> None:
        message = t(
            "training.alert.nonfinite",
            value=str(value),
            step=step,
            count=self.nonfinite_streak,
            policy=policy,
        )
        self.ctx.emit(AlertRaised(kind="nonfinite", message=message, step=step, rank=self.ctx.rank))

    def _stop_nonfinite(self, step: int, policy: str) -> None:
        detail = ""
        if policy == "stop_keep_last_good":
            first_bad = self.first_nonfinite_step or step
            good = self.checkpoints.latest_valid(before_step=first_bad)
            if good is None:
                detail = t("training.nonfinite.no_good_checkpoint")
            elif self.cfg.export.enabled:
                assert self.parts is not None
                self.parts.model.set_state_dict(self.paddle.load(str(good.file(MODEL_FILE))))
                exported = self._export()
                detail = t("training.nonfinite.exported_good", step=good.step, path=exported or "-")
            else:
                detail = t("training.nonfinite.good_checkpoint", step=good.step, path=str(good.path))
        raise NonFiniteLossError(
            t("training.nonfinite.stopped", step=step, count=self.nonfinite_streak, policy=policy)
            + (f" {detail}" if detail else "")
        )

    # -- evaluation, checkpoints, export ------------------------------------------------------------

    def _evaluate(self, step: int) -> None:
        parts = self.parts
        assert parts is not None
        if parts.evaluate is None and parts.val_data is None:
            return
        model = parts.model
        model.eval()
        try:
            with self.paddle.no_grad():
                metrics = parts.evaluate(model) if parts.evaluate is not None else self._default_eval(model)
        finally:
            model.train()
        values = {f"eval/{name}": float(value) for name, value in metrics.items()}
        if values:
            self.ctx.log(step, **values)
        self.last_eval = values
        self.last_eval_step = step

    def _default_eval(self, model: Any) -> dict[str, float]:
        """``eval/loss`` over ``val_data``, and ``eval/accuracy`` when every batch's outputs are
        ``[B, classes]`` scores for integer labels (any other shape: no accuracy, never a zero)."""
        parts = self.parts
        assert parts is not None
        collate = parts.collate or stack_collate(self.paddle)
        data = parts.val_data
        limit = self.cfg.eval.max_samples
        batches: Any
        if hasattr(data, "__len__") and hasattr(data, "__getitem__") and not hasattr(data, "batch_sampler"):
            n = min(len(data), limit or len(data))
            size = self.cfg.eval.batch_size
            batches = (
                collate([data[i] for i in range(start, min(start + size, n))]) for start in range(0, n, size)
            )
        else:
            batches = iter(data)
        loss_sum, correct, seen = 0.0, 0, 0
        scored = parts.compute_loss is None and _classifier_like(parts)
        for batch in batches:
            batch = tuple(batch) if isinstance(batch, tuple | list) else (batch,)
            count = _batch_len(batch)
            if parts.compute_loss is not None:
                loss_sum += float(parts.compute_loss(model, batch).item()) * count
            else:
                assert parts.loss is not None
                outputs = model(batch[0])
                loss_sum += float(parts.loss(outputs, *batch[1:]).item()) * count
                hits = _correct(outputs, batch[1:]) if scored else None
                scored = hits is not None
                correct += hits or 0
            seen += count
            if limit is not None and seen >= limit:
                break
        metrics = {"loss": loss_sum / max(seen, 1)}
        if scored and seen:
            metrics["accuracy"] = correct / seen
        return metrics

    def _checkpoint(self, step: int) -> CheckpointInfo | None:
        if self.cfg.alerts.nonfinite == "stop_keep_last_good" and self.nonfinite_streak > 0:
            return None  # never commit a state reached through a non-finite loss
        paddle, parts, source = self.paddle, self.parts, self.source
        assert parts is not None and source is not None
        model_state, optimizer_state = self._state_dicts()
        state = {
            "format": STATE_FORMAT,
            "step": step,
            "source": source.state(),
            "rng": capture_rng_state(paddle),
            "lr_scheduler": parts.lr_scheduler.state_dict() if parts.lr_scheduler is not None else None,
            "nonfinite_streak": self.nonfinite_streak,
            "run_id": self.ctx.run_id,
        }

        def write_state(path: Path) -> None:
            with open(path, "wb") as fh:
                pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)

        writers: dict[str, Callable[[Path], None]] = {
            MODEL_FILE: lambda path: paddle.save(model_state, str(path)),
            OPTIMIZER_FILE: lambda path: paddle.save(optimizer_state, str(path)),
            STATE_FILE: write_state,
        }
        slow = self.faults.get("slow_checkpoint", step) if self.faults else None
        if slow is not None:
            first = writers[MODEL_FILE]

            def slow_first(
                path: Path, _first: Callable[[Path], None] = first, _s: float = slow.seconds
            ) -> None:
                _first(path)
                time.sleep(_s)  # a test kills the process here, in the middle of the checkpoint

            writers[MODEL_FILE] = slow_first
        meta = {
            "run_id": self.ctx.run_id,
            "task": self.cfg.task,
            "preprocess": preprocess_identity(self.cfg),
            "loss": json_safe_float(self.last_loss) if self.last_loss is not None else None,
        }
        # The history first: a kill right after the commit must not leave the checkpoint's own step (or
        # any step before it) missing from events.jsonl, or a resumed run's history would have a gap.
        self.ctx.flush()
        info = self.checkpoints.save(step, writers, meta)
        self.last_checkpoint = info
        self.ctx.emit(CheckpointSaved(step=step, path=str(info.path)))
        return info

    def _restore(self, point: ResumePoint) -> None:
        """Load model, optimizer, scheduler, sampler position and RNG states from a checkpoint.

        The files are the user's own (pickle underneath, like every Paddle checkpoint): only resume
        checkpoints you trust.
        """
        paddle, parts, source = self.paddle, self.parts, self.source
        assert parts is not None and source is not None
        with open(point.checkpoint / STATE_FILE, "rb") as fh:
            state = pickle.load(fh)  # noqa: S301 - the user's own checkpoint, verified by sha256
        parts.model.set_state_dict(paddle.load(str(point.checkpoint / MODEL_FILE)))
        _ignore_warmup_state_warning()
        parts.optimizer.set_state_dict(paddle.load(str(point.checkpoint / OPTIMIZER_FILE)))
        if parts.lr_scheduler is not None and state.get("lr_scheduler") is not None:
            parts.lr_scheduler.set_state_dict(state["lr_scheduler"])
        source.load_state(state["source"])
        restore_rng_state(state["rng"], paddle)
        self.step = int(state["step"])
        self.nonfinite_streak = int(state.get("nonfinite_streak", 0))
        with contextlib.suppress(ValueError):
            loss = read_manifest(point.checkpoint).get("loss")
            if isinstance(loss, int | float):
                self.last_loss = float(loss)  # the final metrics of a run that only finishes

    def _export(self) -> str | None:
        parts = self.parts
        assert parts is not None
        try:
            spec = parts.input_spec
            if spec is None:
                if self._sample_input is None and self.source is not None:
                    # A resumed run that only finishes (no step trained here): one batch for the shapes.
                    # After the final checkpoint, so drawing it changes nothing that is kept.
                    first = self.source.next_batch()
                    self._sample_input = first[0] if isinstance(first, tuple | list) else first
                if self._sample_input is None:
                    raise ValueError("no input_spec and no batch seen")
                spec = default_input_spec(self._sample_input, self.paddle)
            prefix = export_model(parts.model, self.ctx.run_dir, spec, self.paddle)
            write_export_records(
                prefix,
                step=self.step,
                preprocess=preprocess_identity(self.cfg),
                input_spec=spec,
                checkpoint=self.last_checkpoint,
                paddle_version=str(self.paddle.__version__),
                code=code_of(parts.model, self.cfg),
            )
        except Exception as exc:  # noqa: BLE001 - a failed export is an alert; the training result stands
            self.ctx.emit(
                AlertRaised(
                    kind="export", message=t("training.export.failed", error=f"{type(exc).__name__}: {exc}")
                )
            )
            return None
        if not exported_files(prefix):
            return None
        return str(prefix)

    def _on_hang(self, report: HangReport) -> None:
        path = self.ctx.run_dir / f"hang-{report.step}.txt"
        header = t(
            "training.alert.hang",
            step=report.step,
            seconds=f"{report.stalled_s:.1f}",
            threshold=f"{report.threshold_s:.1f}",
        )
        path.write_text(f"{header}\n\n{t('training.hang.stack_title')}\n{report.stack}", encoding="utf-8")
        self.ctx.emit(
            AlertRaised(
                kind="hang", message=header, step=report.step, rank=self.ctx.rank, details=report.stack
            )
        )


def _batch_len(batch: Any) -> int:
    first = batch[0] if isinstance(batch, tuple | list) else batch
    shape = getattr(first, "shape", None)
    return int(shape[0]) if shape else 1


def _correct(outputs: Any, labels: tuple[Any, ...]) -> int | None:
    """Top-1 hits for classifier-shaped outputs (``[B, C]`` scores, ``[B]`` or ``[B, 1]`` integer
    labels); ``None`` when accuracy does not apply to this batch (a language model's ``[B, T, V]``
    logits, float targets, several label fields) — then no ``eval/accuracy`` is reported at all, rather
    than a zero that reads like a model that never gets anything right."""
    if len(labels) != 1 or len(getattr(outputs, "shape", ())) != 2:
        return None
    label = labels[0]
    if "int" not in str(getattr(label, "dtype", "")):
        return None
    predicted = outputs.argmax(axis=-1).numpy()
    truth = label.numpy().reshape(-1)
    return int((predicted == truth).sum()) if truth.shape == predicted.shape else None


def _classifier_like(parts: TrainParts) -> bool:
    """Whether the default evaluation should report accuracy (integer labels, one label field)."""
    data = parts.val_data
    try:
        sample = data[0] if hasattr(data, "__getitem__") else None
    except Exception:  # noqa: BLE001 - an odd dataset just gets no accuracy
        return False
    if not isinstance(sample, tuple | list) or len(sample) != 2:
        return False
    return "int" in str(getattr(sample[1], "dtype", type(sample[1]).__name__))


def _resume_doc(point: ResumePoint) -> Mapping[str, Any]:
    return {"run_dir": str(point.run_dir), "checkpoint": str(point.checkpoint), "step": point.step}
