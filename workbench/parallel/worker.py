"""One rank of a parallel run: the training engine's loop with the plan applied (run by the launcher).

``python -m paddle.distributed.launch ... <run>/ranks/rank_main.py <run>/parallel.json`` starts one of
these per rank. Each writes ``ranks/<r>/events.jsonl`` through the runner's child context (the same
seeds, metrics, alerts and final event as a single-card run), its part of the run's distributed
checkpoints (``dist_checkpoints/``, see :mod:`workbench.parallel.dist_checkpoint`), its pid to ``ranks/<r>/pid`` and, per step, where it is (``ranks/<r>/progress``:
step and phase) — what the run's watchdog reads to name the rank the others wait for. ``SIGUSR1`` makes a
rank write every thread's stack to ``ranks/<r>/stack.txt``.
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from workbench.events import CheckpointSaved, json_safe_float
from workbench.i18n import t
from workbench.inference.preprocess import preprocess_identity
from workbench.parallel import dist_checkpoint
from workbench.parallel.apply import (
    Applied,
    RankPlan,
    amp_context,
    apply_plan,
    local_value,
    on_accelerator,
)
from workbench.runner.context import JobContext
from workbench.runner.supervise import StopRequest, install_stop_signals
from workbench.training.checkpoints import CheckpointInfo, read_manifest
from workbench.training.loop import TrainingLoop
from workbench.training.parts import TrainParts
from workbench.training.plan import ResumePoint, TrainingPlan
from workbench.training.seeds import capture_rng_state, restore_rng_state

Applier = Callable[[Any, Any, Any], Applied]
"""``applier(model, optimizer, paddle) -> Applied``: shards a freshly built model and its optimizer."""

PHASES = ("start", "forward", "backward")
"""Where in a step a rank last was, in order: the furthest-behind rank is the one the others wait for."""


class ProgressFile:
    """``<step> <phase>`` of this rank, rewritten in place (two small writes per step)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)

    def mark(self, step: int, phase: str) -> None:
        os.pwrite(self.fd, f"{step:>10} {phase:<10}\n".encode(), 0)


def read_progress(path: Path) -> tuple[int, str] | None:
    try:
        step, phase = path.read_text(encoding="utf-8").split()
        return int(step), phase
    except (OSError, ValueError):
        return None


class ParallelLoop(TrainingLoop):
    """:class:`TrainingLoop` whose parts are sharded by a plan, one rank's view of a parallel run."""

    def __init__(
        self, ctx: JobContext, plan: TrainingPlan, rank_plan: RankPlan | Applier, rank_dir: Path
    ) -> None:
        super().__init__(ctx, plan)
        if isinstance(rank_plan, RankPlan):
            fixed = rank_plan

            def applier(model: Any, optimizer: Any, paddle: Any) -> Applied:
                return apply_plan(fixed, model, optimizer, paddle)

            self.applier: Applier = applier
        else:
            self.applier = rank_plan
        self.checkpoints = dist_checkpoint.store_of(ctx.run_dir, keep=self.cfg.checkpoint.keep)
        self.progress = ProgressFile(rank_dir / "progress")
        self.applied: Applied | None = None
        self.stop_request = StopRequest(ctx.run_dir)
        self.progress.mark(0, "start")

    def _stop_due(self, step: int) -> bool:
        """A stop signal, or the step every rank of the job stops after (``ranks/stop``, written by the
        runner when the user stops the run), so that all ranks checkpoint at the same step."""
        if super()._stop_due(step):
            return True
        target = self.stop_request.step()
        return target is not None and step >= target

    def _build_parts(self) -> TrainParts:
        from workbench.parallel.rendezvous import wait_for_store

        parts = super()._build_parts()
        # Before the plan's first collective: a rank that connects before rank 0's store listens
        # starts 3 s late (see workbench.parallel.rendezvous).
        wait_for_store(stop=self.ctx.cancel_event)
        applied = self.applier(parts.model, parts.optimizer, self.paddle)
        self.applied = applied
        parts.model, parts.optimizer = applied.model, applied.optimizer
        return parts

    def _loss(self, model: Any, batch: Any) -> Any:
        step = self.step + 1
        self.progress.mark(step, "forward")
        applied = self.applied
        if applied is not None and applied.shard_inputs:
            dist = self.paddle.distributed
            items = batch if isinstance(batch, tuple | list) else (batch,)
            batch = tuple(dist.shard_tensor(x, applied.mesh, applied.input_placements) for x in items)
        with amp_context(applied.amp if applied is not None else None, self.paddle):
            loss = super()._loss(model, batch)
        self.progress.mark(step, "backward")
        return loss

    def _state_dicts(self) -> tuple[Any, Any]:
        model_state, optimizer_state = super()._state_dicts()
        return local_value(model_state), local_value(optimizer_state)

    def _checkpoint(self, step: int) -> CheckpointInfo | None:
        """A distributed checkpoint of every rank at ``step`` (a collective: every rank reaches the same
        steps), see :mod:`workbench.parallel.dist_checkpoint`."""
        if self.cfg.alerts.nonfinite == "stop_keep_last_good" and self.nonfinite_streak > 0:
            return None  # never commit a state reached through a non-finite loss (the loss is global)
        paddle, parts, source, applied = self.paddle, self.parts, self.source, self.applied
        assert parts is not None and source is not None and applied is not None
        tensors = dist_checkpoint.flat_state(parts.model.state_dict(), parts.optimizer.state_dict(), paddle)
        rank_state = {
            "format": dist_checkpoint.STATE_FORMAT,
            "step": step,
            "source": source.state(),
            "rng": capture_rng_state(paddle),
            "lr_scheduler": parts.lr_scheduler.state_dict() if parts.lr_scheduler is not None else None,
            "nonfinite_streak": self.nonfinite_streak,
            "run_id": self.ctx.run_id,
        }
        mesh = applied.mesh
        meta = {
            "run_id": self.ctx.run_id,
            "task": self.cfg.task,
            "preprocess": preprocess_identity(self.cfg),
            "loss": json_safe_float(self.last_loss) if self.last_loss is not None else None,
            "dist": {
                "world": int(paddle.distributed.get_world_size()),
                "mesh_shape": [int(v) for v in mesh.shape],
                "dim_names": [str(v) for v in mesh.dim_names],
                "placements": dist_checkpoint.layout_of(tensors),
            },
        }
        slow = self.faults.get("slow_checkpoint", step) if self.faults else None
        self.ctx.flush()  # the history first, as a single-card checkpoint does
        info = dist_checkpoint.save(
            self.checkpoints, step, tensors=tensors, rank_state=rank_state, meta=meta, paddle=paddle,
            pause_s=slow.seconds if slow is not None else 0.0,
        )  # fmt: skip
        self.last_checkpoint = info
        self.ctx.emit(CheckpointSaved(step=step, path=str(info.path)))
        return info

    def _restore(self, point: ResumePoint) -> None:
        """Every tensor from a distributed checkpoint, resharded to this plan's placements, and this
        rank's sampler position, RNG and scheduler states."""
        paddle, parts, source = self.paddle, self.parts, self.source
        assert parts is not None and source is not None
        rank = self.ctx.rank
        state = dist_checkpoint.read_rank_state(point.checkpoint, rank)
        targets = dist_checkpoint.flat_state(parts.model.state_dict(), parts.optimizer.state_dict(), paddle)
        missing, unused = dist_checkpoint.load_into(point.checkpoint, targets, rank, paddle)
        if missing or unused:
            raise ValueError(
                t("parallel.resume.mismatch", checkpoint=str(point.checkpoint),
                  missing=", ".join(missing) or "-", unused=", ".join(unused) or "-")
            )  # fmt: skip
        if parts.lr_scheduler is not None and state.get("lr_scheduler") is not None:
            parts.lr_scheduler.set_state_dict(state["lr_scheduler"])
        source.load_state(state["source"])
        restore_rng_state(state["rng"], paddle)
        self.step = int(state["step"])
        self.nonfinite_streak = int(state.get("nonfinite_streak", 0))
        loss = self.checkpoint_loss(point.checkpoint)
        if loss is not None:
            self.last_loss = loss

    @staticmethod
    def checkpoint_loss(checkpoint: Path) -> float | None:
        try:
            loss = read_manifest(checkpoint).get("loss")
        except ValueError:
            return None
        return float(loss) if isinstance(loss, int | float) else None


def rank_training_plan(doc: dict[str, Any], rank: int, workspace: Path) -> TrainingPlan:
    """The training plan of this rank: the config with export and grad-norm off (sharded parameters
    cannot be ``jit.save``d on CPU; a norm over shards is not the global norm), faults only on the
    rank the run injects them into."""
    from workbench.runs import RunStore
    from workbench.training.plan import prepare_training

    plan = prepare_training(doc["train"], doc.get("train_overrides") or (), store=RunStore(workspace))
    cfg = plan.cfg
    plan.cfg = cfg.model_copy(
        update={
            "export": cfg.export.model_copy(update={"enabled": False}),
            "metrics": cfg.metrics.model_copy(update={"grad_norm": False}),
        }
    )
    resume = doc.get("resume")
    if resume:
        plan.resume = ResumePoint(Path(resume["run_dir"]), Path(resume["checkpoint"]), int(resume["step"]))
    inject_rank = doc.get("inject_rank")
    if inject_rank is not None and rank != int(inject_rank):
        plan.faults = ()
    return plan


def train_rank(ctx: JobContext, doc: dict[str, Any]) -> dict[str, Any]:
    rank_dir = ctx.run_dir / "ranks" / str(ctx.rank)
    rank_dir.mkdir(parents=True, exist_ok=True)
    stack = open(rank_dir / "stack.txt", "w")  # noqa: SIM115 - open for the life of the process
    faulthandler.register(signal.SIGUSR1, file=stack, all_threads=True)
    (rank_dir / "pid").write_text(str(os.getpid()), encoding="utf-8")
    from workbench.training.runtime import import_paddle

    import_paddle()
    install_stop_signals(ctx.cancel_event)  # after Paddle's import, whose SIGTERM handler kills the rank
    plan = rank_training_plan(doc, ctx.rank, ctx.run_dir.parent.parent)
    loop = ParallelLoop(ctx, plan, RankPlan.from_dict(doc["plan"]), rank_dir)
    summary = loop.run()
    summary["rank"] = ctx.rank
    return summary


def run_script(
    train_config: str,
    overrides: Sequence[str],
    parallelize: Callable[[Any, Any], tuple[Any, Any, Any]],
    input_placements: Callable[[], list[Any]],
    *,
    name: str,
    parallel: dict[str, Any] | None = None,
    amp: dict[str, str] | None = None,
) -> int:
    """The body of a file written by ``plan export``, under the user's own ``paddle.distributed.launch``.

    ``parallelize(model, optimizer) -> (model, optimizer, mesh)`` is the plan as code;
    ``input_placements()`` lays out each batch; ``amp`` (``{"level", "dtype"}``, the plan's ``amp:``)
    runs each forward under ``paddle.amp.auto_cast`` on an accelerator (on CPU it has no effect and is
    left out). The job becomes one run in the workspace
    (``$PADDLE_WORKBENCH_WORKSPACE`` or ``./.paddle-workbench``) with a stream per rank — the layout
    ``plan run`` makes — so ``plan parity`` and the monitor read it the same way. Returns the exit code.
    """
    from workbench.config.loader import load_model
    from workbench.config.training import TrainingConfig
    from workbench.parallel.placements import parse_placement
    from workbench.training import track

    cfg = load_model(train_config, TrainingConfig, overrides)
    config = cfg.model_dump(mode="json")
    config["parallel"] = {"train_file": str(Path(train_config).resolve()), **dict(parallel or {})}
    run = track.init(name=name, config=config)
    ctx = run.ctx

    def applier(model: Any, optimizer: Any, paddle: Any) -> Applied:
        model, optimizer, mesh = parallelize(model, optimizer)
        placements = input_placements()
        shard = any(
            parse_placement(str(p).replace("dim=", "")) != parse_placement("Replicate()") for p in placements
        )
        return Applied(model, optimizer, mesh, placements, shard, amp if on_accelerator(paddle) else None)

    try:
        rank_dir = ctx.run_dir / "ranks" / str(ctx.rank)
        rank_dir.mkdir(parents=True, exist_ok=True)
        doc = {"train": train_config, "train_overrides": list(overrides)}
        plan = rank_training_plan(doc, ctx.rank, ctx.run_dir.parent.parent)
        summary = ParallelLoop(ctx, plan, applier, rank_dir).run()
    except BaseException as exc:
        import traceback

        status = "cancelled" if isinstance(exc, KeyboardInterrupt) else "failed"
        run.finish(status, error=f"{type(exc).__name__}: {exc}", details=traceback.format_exc())
        return 130 if status == "cancelled" else 1
    run.finish(summary=summary)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from workbench.runner.child import run_as_child

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print(
            "usage: rank_main.py <run>/parallel.json (started by paddle-workbench plan run)", file=sys.stderr
        )
        return 2
    doc = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    code = run_as_child(lambda ctx: train_rank(ctx, doc))
    end_rank_process(code)


def end_rank_process(code: int) -> NoReturn:
    """End this rank's process at once with ``code``: its outcome is written and its files are closed.

    Python's finalization after this point does nothing the run needs, and costs: its last garbage
    collection walks every object Paddle and the run made (seconds of CPU while the launcher and the
    job's owner wait), and Paddle's teardown can crash (a SIGSEGV seen in rank 0 after a stop had
    written ``run_cancelled`` and its checkpoint, which the supervisor then records as the rank's death
    and the launcher as a failure). Only the standard streams and logging still hold buffered text.
    """
    import logging

    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
    os._exit(code)
