"""``plan run``: start a validated plan — in this process for a mesh of one, else under the launcher.

A launched run is one run folder: ``parallel.json`` (what every rank applies), ``ranks/rank_main.py``
(the script the launcher starts), ``ranks/log/workerlog.<r>`` (the launcher's per-rank logs) and each
rank's ``ranks/<r>/events.jsonl``. :class:`ParallelJob` is the runner's :class:`LaunchedJob` with a
progress watchdog that, when ranks stop advancing, names the rank the others wait for — the one whose
step and phase are furthest behind — with its last step, the end of its log and its Python stack, then
ends the whole process group (no orphans).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.config.loader import load_model
from workbench.config.training import TrainingConfig
from workbench.i18n import t
from workbench.parallel.apply import RankPlan
from workbench.parallel.validate import PlanReport
from workbench.parallel.worker import PHASES, read_progress
from workbench.runner import start_in_process
from workbench.runner.deaths import tail_lines
from workbench.runner.job import Job
from workbench.runner.launched import LaunchedJob
from workbench.runs import RunStore
from workbench.training.plan import ResumePoint

RANK_MAIN = """\
# Started by paddle.distributed.launch, once per rank (written by paddle-workbench plan run).
import sys


def train() -> int:
    from workbench.parallel.worker import main

    return main(sys.argv[1:])


if __name__ == "__main__":  # a spawned helper process (e.g. the dataset checker's pool) imports this file too
    # A small supervisor records how the rank's process ends (signal, exit code) for the run.
    from workbench.runner.supervise import supervised

    sys.exit(supervised(train))
"""

STACK_WAIT_S = 2.0
STOP_LEAD_S = 2.0
"""A cancelled run's ranks stop after the step they reach this long after the request (at least two
steps on): far enough ahead that every rank still has it in front of it when it reads the request.
The plan's ``stop_lead_s`` (kept in ``run.yaml``'s ``parallel`` section, so a keeper uses it too)."""


def rank_plan(report: PlanReport) -> RankPlan:
    plan, lowered = report.plan, report.lowered
    assert plan is not None and lowered is not None
    return RankPlan(
        mesh_shape=tuple(plan.mesh.shape),
        dim_names=tuple(plan.mesh.dim_names),
        sharding_level=plan.dp.sharding_level if plan.dp is not None else None,
        layer_plans=dict(lowered.layer_plans),
        param_placements={
            row.name: [str(p) for p in row.placements]
            for row in lowered.rows
            if row.rule.startswith("params")
        },
        inputs=[str(p) for p in plan.input_placements()],
        layer_markers={k: [dict(m) for m in v] for k, v in lowered.layer_markers.items()},
        recompute=list(lowered.recompute),
        amp=plan.amp.model_dump() if plan.amp is not None else None,
        sharding_mesh_dim=plan.dp.sharding_mesh_dim if plan.dp is not None else None,
        pp=plan.pp.model_dump() if plan.pp is not None else None,
        code_dir=str(report.train_path.resolve().parent) if report.train_path is not None else "",
    )


def launcher_argv(
    script: Path, args: Sequence[str], nproc: int, log_dir: Path, extra: Sequence[str] = ()
) -> list[str]:
    """``python -m paddle.distributed.launch --nproc_per_node N --log_dir DIR [extra] script args``, through
    :mod:`workbench.parallel.launch_main` (the same launcher, a shorter exit)."""
    return [
        sys.executable, "-m", "workbench.parallel.launch_main", "--nproc_per_node", str(nproc),
        "--log_dir", str(log_dir), *extra, str(script), *args,
    ]  # fmt: skip


class ParallelJob(LaunchedJob):
    """A launched parallel run whose watchdog names the stalled rank (see the module docstring)."""

    def rank_dir(self, rank: int) -> Path:
        return self.run_dir / "ranks" / str(rank)

    def _position(self, rank: int) -> tuple[int, int]:
        progress = read_progress(self.rank_dir(rank) / "progress")
        if progress is None:
            return (-1, -1)
        step, phase = progress
        return (step, PHASES.index(phase) if phase in PHASES else -1)

    def _stack(self, rank: int) -> str:
        path = self.rank_dir(rank) / "stack.txt"
        try:
            pid = int((self.rank_dir(rank) / "pid").read_text())
            os.kill(pid, signal.SIGUSR1)
        except (OSError, ValueError):
            return ""
        deadline = time.monotonic() + STACK_WAIT_S
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if path.stat().st_size > 0:
                    time.sleep(0.2)  # the dump is a few writes
                    return path.read_text(encoding="utf-8", errors="replace")
            time.sleep(0.1)
        return ""

    def request_stop(self) -> None:
        """Tell every rank the step to stop after (``ranks/stop``): all of them save their checkpoints at
        that step and end ``cancelled``, none is left waiting in a collective for a peer that stopped."""
        from workbench.runner.supervise import write_stop_step

        furthest = max((self._position(rank)[0] for rank in range(self.ranks)), default=0)
        step_ms = [self.metrics.latest(rank).get("step_ms") or 0.0 for rank in range(self.ranks)]
        fastest = min((ms for ms in step_ms if ms > 0), default=0.0)
        lead_s = float(dict(self.config.get("parallel") or {}).get("stop_lead_s") or STOP_LEAD_S)
        lead = math.ceil(lead_s * 1000.0 / fastest) if fastest > 0 else 0
        write_stop_step(self.run_dir, max(furthest, 0) + max(2, min(lead, 100_000)))

    def _stopped(self, rank: int) -> bool:
        """Whether rank ``rank``'s process is stopped (state ``T``: SIGSTOP, a debugger)."""
        import psutil

        try:
            pid = int((self.rank_dir(rank) / "pid").read_text(encoding="utf-8"))
            return psutil.Process(pid).status() in (psutil.STATUS_STOPPED, psutil.STATUS_TRACING_STOP)
        except (OSError, ValueError, psutil.Error):
            return False

    def describe_stall(self, quiet: dict[int, float]) -> tuple[str, str, int | None]:
        positions = {rank: self._position(rank) for rank in range(self.ranks)}
        behind = min(positions.values())
        culprits = sorted(r for r, p in positions.items() if p == behind)
        stopped = [r for r in range(self.ranks) if self._stopped(r)]
        if stopped:  # a rank someone stopped (SIGSTOP, state T) is what the others wait for
            culprits = stopped
        rank = culprits[0]
        step, phase = positions[rank]
        seconds = max(quiet.values())
        error = t(
            "parallel.stalled",
            rank=rank,
            seconds=f"{seconds:.0f}",
            step=max(step - (1 if phase < 2 else 0), 0) if step >= 0 else "-",
            phase=PHASES[phase] if phase >= 0 else "-",
            others=", ".join(str(r) for r in sorted(positions) if r not in culprits) or "-",
        )
        details = [error, ""]
        stack = "" if rank in stopped else self._stack(rank)  # a stopped process writes no stack
        log = tail_lines(self.run_dir / "ranks" / "log" / f"workerlog.{rank}")
        details.append(t("parallel.stalled.log", rank=rank))
        details.extend(log or ["-"])
        details.append("")
        details.append(t("parallel.stalled.stack", rank=rank))
        details.append(stack or t("parallel.stalled.no_stack"))
        return error, "\n".join(details), rank


def run_config(report: PlanReport, train_overrides: Sequence[str], nproc: int) -> dict[str, Any]:
    """``run.yaml``'s config: the training config plus the plan (the monitor reads ``train.steps``)."""
    assert report.train_path is not None and report.plan is not None
    cfg = load_model(report.train_path, TrainingConfig, train_overrides)
    doc = cfg.model_dump(mode="json")
    doc["parallel"] = {
        "plan_file": str(report.path.resolve()),
        "train_name": cfg.name or report.train_path.stem,
        "train_file": str(report.train_path.resolve()),
        "nproc": nproc,
        "mesh": {"shape": report.plan.mesh.shape, "dim_names": report.plan.mesh.dim_names},
        "sharding_level": report.plan.sharding_level,
        "layer_plans": dict(report.lowered.layer_plans) if report.lowered else {},
        "layer_markers": dict(report.lowered.layer_markers) if report.lowered else {},
        "recompute": list(report.lowered.recompute) if report.lowered else [],
        "amp": report.plan.amp.model_dump() if report.plan.amp is not None else None,
        "stop_lead_s": report.plan.stop_lead_s,
    }
    return doc


def start_plan_run(
    report: PlanReport,
    store: RunStore,
    *,
    nproc: int,
    train_overrides: Sequence[str] = (),
    inject_rank: int | None = None,
    stall_s: float | None = None,
    launcher_extra: Sequence[str] = (),
    name: str | None = None,
    resume: ResumePoint | None = None,
) -> Job:
    """Start ``report``'s plan (it must be ``ok``) on ``nproc`` ranks; returns the job at once.

    ``resume``: a distributed checkpoint every rank loads first (resharded when it was saved under
    another layout, see :mod:`workbench.parallel.dist_checkpoint`)."""
    assert report.ok and report.plan is not None and report.train_path is not None
    doc: dict[str, Any] = {
        "train": str(report.train_path.resolve()),
        "train_overrides": list(train_overrides),
        "plan": rank_plan(report).to_dict(),
        "inject_rank": inject_rank,
    }
    config = run_config(report, train_overrides, nproc)
    if resume is not None:
        doc["resume"] = {
            "run_dir": str(resume.run_dir.resolve()),
            "checkpoint": str(resume.checkpoint.resolve()),
            "step": resume.step,
        }
        config["parallel"]["resumed_from"] = doc["resume"]
    run_name = name or report.path.stem
    if nproc == 1:
        from workbench.parallel.worker import ParallelLoop, rank_training_plan
        from workbench.runner.context import JobContext

        def job(ctx: JobContext) -> dict[str, Any]:
            plan = rank_training_plan(doc, 0, store.workspace)
            loop = ParallelLoop(ctx, plan, RankPlan.from_dict(doc["plan"]), ctx.run_dir / "ranks" / "0")
            return loop.run()

        return start_in_process(store, run_name, job, config=config)
    handle = store.create(run_name, config, kind=LaunchedJob.kind)
    spec = handle.run_dir / "parallel.json"
    spec.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    script = handle.run_dir / "ranks" / "rank_main.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(RANK_MAIN, encoding="utf-8")
    argv = launcher_argv(script, [str(spec)], nproc, handle.run_dir / "ranks" / "log", launcher_extra)
    return ParallelJob(
        handle,
        run_name,
        argv,
        ranks=nproc,
        config=config,
        stall_s=stall_s if stall_s is not None else report.plan.watchdog_s,
    )
