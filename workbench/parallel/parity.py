"""``plan parity RUN_A RUN_B``: does the parallel run learn like the baseline, step for step?

Both runs' loss curves are lined up on samples seen (step × global batch), so a baseline and a parallel
run with different batch sizes still meet where they consumed the same data; the answer is the largest
absolute and relative loss difference and the first step beyond the tolerance. Then the usual causes of
"parallel is worse than single card" are checked from what the runs recorded: the global batch against
the learning rate, the seeds, how the batch was split over ranks, whether every rank logs the same
(averaged) loss, and whether the batch splits evenly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from workbench.i18n import t
from workbench.runs import EventTailer, RunStore, read_run_config, run_name

DEFAULT_TOLERANCE = 1e-5


@dataclass
class Check:
    id: str
    status: str
    summary: str
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "summary": self.summary, "fix": self.fix}


@dataclass
class ParityResult:
    run_a: Path
    run_b: Path
    tolerance: float
    compared: int = 0
    max_abs_diff: float | None = None
    max_rel_diff: float | None = None
    first_divergence_step: int | None = None
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            self.compared > 0
            and self.first_divergence_step is None
            and all(c.status != "fail" for c in self.checks)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "run_a": str(self.run_a),
            "run_b": str(self.run_b),
            "tolerance": self.tolerance,
            "compared_steps": self.compared,
            "max_abs_diff": self.max_abs_diff,
            "max_rel_diff": self.max_rel_diff,
            "first_divergence_step": self.first_divergence_step,
            "checks": [c.to_dict() for c in self.checks],
        }


@dataclass
class _Run:
    path: Path
    config: dict[str, Any]
    losses: dict[int, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]
    """rank -> (steps, losses)"""

    @property
    def train(self) -> dict[str, Any]:
        train = self.config.get("train")
        return train if isinstance(train, dict) else {}

    @property
    def parallel(self) -> dict[str, Any]:
        section = self.config.get("parallel")
        return section if isinstance(section, dict) else {}

    @property
    def batch(self) -> int:
        return int(self.train.get("batch_size") or 1)

    def dp(self) -> int:
        mesh = self.parallel.get("mesh") or {}
        names, shape = mesh.get("dim_names") or [], mesh.get("shape") or []
        return int(shape[names.index("dp")]) if "dp" in names else 1


def _read(run_dir: Path) -> _Run:
    tailer = EventTailer(run_dir)
    tailer.poll()
    losses = {}
    for rank in tailer.metrics.ranks():
        series = tailer.metrics.series("loss", rank)
        if series is not None and len(series):
            steps, values = series.arrays()
            losses[rank] = (steps, values)
    return _Run(run_dir, read_run_config(run_dir), losses)


def compare_runs(run_a: Path, run_b: Path, tolerance: float = DEFAULT_TOLERANCE) -> ParityResult:
    a, b = _read(run_a), _read(run_b)
    result = ParityResult(run_a, run_b, tolerance)
    rank_a = min(a.losses) if a.losses else None
    rank_b = min(b.losses) if b.losses else None
    if rank_a is not None and rank_b is not None:
        steps_a, loss_a = a.losses[rank_a]
        steps_b, loss_b = b.losses[rank_b]
        seen_a = {int(s) * a.batch: float(v) for s, v in zip(steps_a, loss_a, strict=True)}
        pairs = [
            (int(s), seen_a[int(s) * b.batch], float(v))
            for s, v in zip(steps_b, loss_b, strict=True)
            if int(s) * b.batch in seen_a
        ]
        result.compared = len(pairs)
        if pairs:
            diffs = [abs(x - y) for _, x, y in pairs]
            rels = [abs(x - y) / max(abs(x), 1e-12) for _, x, y in pairs]
            result.max_abs_diff = max(diffs)
            result.max_rel_diff = max(rels)
            for (step, _, _), diff in zip(pairs, diffs, strict=True):
                if not diff <= tolerance:
                    result.first_divergence_step = step
                    break
    result.checks = _checks(a, b, result)
    return result


def _checks(a: _Run, b: _Run, result: ParityResult) -> list[Check]:
    checks: list[Check] = []
    if result.compared == 0:
        checks.append(
            Check("overlap", "fail", t("parallel.parity.no_overlap"), t("parallel.parity.no_overlap.fix"))
        )
    lr_a, lr_b = a.train.get("lr"), b.train.get("lr")
    if a.batch != b.batch:
        linear = lr_a is not None and lr_b is not None and abs(lr_b / lr_a - b.batch / a.batch) < 1e-9
        checks.append(
            Check(
                "global_batch_lr",
                "pass" if linear else "warn",
                t("parallel.parity.batch_differs", a=a.batch, b=b.batch, lr_a=str(lr_a), lr_b=str(lr_b)),
                ""
                if linear
                else t("parallel.parity.batch_differs.fix", lr=f"{(lr_a or 0) * b.batch / a.batch:g}"),
            )
        )
    elif lr_a != lr_b:
        checks.append(
            Check("global_batch_lr", "warn", t("parallel.parity.lr_differs", a=str(lr_a), b=str(lr_b)), "")
        )
    else:
        checks.append(
            Check("global_batch_lr", "pass", t("parallel.parity.batch_same", batch=a.batch, lr=str(lr_a)))
        )
    seed_a, seed_b = a.train.get("seed"), b.train.get("seed")
    checks.append(
        Check("seeds", "pass", t("parallel.parity.seed_same", seed=str(seed_a)))
        if seed_a == seed_b
        else Check(
            "seeds",
            "fail",
            t("parallel.parity.seed_differs", a=str(seed_a), b=str(seed_b)),
            t("parallel.parity.seed_differs.fix"),
        )
    )
    for run in (a, b):
        dp = run.dp()
        if dp > 1 and run.batch % dp:
            checks.append(
                Check(
                    "uneven_split",
                    "warn",
                    t("parallel.parity.uneven", run=run.path.name, batch=run.batch, dp=dp),
                    t("parallel.parity.uneven.fix", dp=dp),
                )
            )
    if not any(c.id == "uneven_split" for c in checks):
        checks.append(Check("uneven_split", "pass", t("parallel.parity.even")))
    # Per-rank data sharding: every rank draws the same global batch and keeps its slice; a run whose
    # ranks read different data would show different losses per rank before averaging.
    for run in (a, b):
        if len(run.losses) > 1:
            _, base = run.losses[min(run.losses)]
            worst = 0.0
            for _steps, values in run.losses.values():
                n = min(len(values), len(base))
                if n:
                    worst = max(worst, float(np.max(np.abs(values[:n] - base[:n]))))
            status = "pass" if worst <= result.tolerance else "fail"
            checks.append(
                Check(
                    "metric_averaging",
                    status,
                    t(
                        f"parallel.parity.ranks_{'agree' if status == 'pass' else 'differ'}",
                        run=run.path.name,
                        ranks=len(run.losses),
                        diff=f"{worst:.3g}",
                    ),
                    "" if status == "pass" else t("parallel.parity.ranks_differ.fix"),
                )
            )
    if not any(c.id == "metric_averaging" for c in checks):
        checks.append(Check("metric_averaging", "pass", t("parallel.parity.single_rank")))
    sharded = [run for run in (a, b) if run.dp() > 1]
    checks.append(
        Check(
            "data_sharding",
            "pass",
            t("parallel.parity.data_sharding", runs=", ".join(r.path.name for r in sharded)),
        )
        if sharded
        else Check("data_sharding", "pass", t("parallel.parity.no_dp"))
    )
    return checks


def latest_pair(store: RunStore, plan_file: Path) -> tuple[Path, Path] | None:
    """``(baseline, parallel)``: the newest finished run of ``plan_file`` and the newest finished
    single-card run of the same training config (by run name), or ``None`` when either is missing."""
    from workbench.runs import STATUS_FINISHED, summarize

    target = str(plan_file.resolve())
    parallel: Path | None = None
    baseline: Path | None = None
    train_name: str | None = None
    for run_dir in store.run_dirs():  # newest first
        if summarize(run_dir).status != STATUS_FINISHED:
            continue
        config = read_run_config(run_dir)
        section = config.get("parallel")
        if parallel is None and isinstance(section, dict) and section.get("plan_file") == target:
            parallel = run_dir
            train_name = str(section.get("train_name") or "")
    if parallel is None:
        return None
    for run_dir in store.run_dirs():
        config = read_run_config(run_dir)
        if "parallel" in config or summarize(run_dir).status != STATUS_FINISHED:
            continue
        if train_name and run_name(run_dir) == train_name:
            baseline = run_dir
            break
    return (baseline, parallel) if baseline is not None else None
