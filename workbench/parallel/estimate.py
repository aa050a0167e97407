"""What one rank holds and sends per step under a plan — numbers, before anything runs.

Memory per rank: parameters (their local shapes; ``sharding_level: 3`` also splits them over ``dp``),
gradients (split over ``dp`` from level 2), optimizer state (slots per parameter by optimizer, split over
``dp`` from level 1) and the activations of one batch (the per-sample outputs measured on the real model,
times the rank's part of the batch, column-parallel outputs and sequence-split outputs divided over ``mp``;
the inner activations of a ``recompute`` layer are not kept, only its output; on an accelerator ``amp``
keeps activations in 2 bytes, and ``O2`` parameters and gradients too, with float32 master weights in the
optimizer state — on CPU amp has no effect and the figures are float32).

Communication per step, per rank, as ring collectives move it (``2(n-1)/n`` of the buffer for an
all-reduce, ``(n-1)/n`` for a reduce-scatter or an all-gather): the gradient all-reduce under data
parallel (reduce-scatter plus parameter all-gather under sharding stages), one activation all-reduce per
row-parallel layer in forward and one per column-parallel layer in backward, and an all-gather of a
column-parallel output nothing row-parallel consumes. The count is the number of collective calls; many
small ones are what makes over-fine sharding slow.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from workbench.i18n import t
from workbench.metric_store import MetricStore
from workbench.parallel.facts import ModelFacts
from workbench.parallel.lowering import Lowered
from workbench.parallel.spec import PlanConfig

OPTIMIZER_SLOTS = {"sgd": 0, "momentum": 1, "adam": 2, "adamw": 2}
"""fp32 state tensors the optimizer keeps per parameter element."""


@dataclass
class Comm:
    kind: str
    """``all_reduce``, ``reduce_scatter`` or ``all_gather``."""
    what: str
    bytes: int
    count: int


@dataclass
class Estimate:
    ranks: int
    param_bytes: int
    grad_bytes: int
    optimizer_bytes: int
    activation_bytes: int
    comm_bytes: int
    comm_count: int
    comm: list[Comm] = field(default_factory=list)
    baseline_bytes: int = 0
    """Parameters + gradients + optimizer state + activations of the same model on one card."""

    @property
    def total_bytes(self) -> int:
        return self.param_bytes + self.grad_bytes + self.optimizer_bytes + self.activation_bytes

    def to_dict(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["total_bytes"] = self.total_bytes
        return doc


def human_bytes(value: float) -> str:
    """``1536`` → ``1.5 KiB``."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(value) < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


def estimate_text(est: Estimate) -> str:
    """The per-rank estimate for people, two lines (memory by part; communication per step), as both
    ``plan validate`` and the plan editor show it."""
    memory = t(
        "parallel.cli.estimate",
        params=human_bytes(est.param_bytes),
        grads=human_bytes(est.grad_bytes),
        opt=human_bytes(est.optimizer_bytes),
        act=human_bytes(est.activation_bytes),
        total=human_bytes(est.total_bytes),
        baseline=human_bytes(est.baseline_bytes),
    )
    return memory + "\n" + t("parallel.cli.comm", bytes=human_bytes(est.comm_bytes), count=est.comm_count)


def _ring(kind: str, nbytes: int, n: int) -> int:
    if n <= 1:
        return 0
    return int(nbytes * (2 * (n - 1) / n if kind == "all_reduce" else (n - 1) / n))


def estimate(plan: PlanConfig, facts: ModelFacts, lowered: Lowered) -> Estimate:
    names = plan.mesh.dim_names
    shape = plan.mesh.shape
    dp = shape[names.index("dp")] if "dp" in names else 1
    mp = shape[names.index("mp")] if "mp" in names else 1
    level = plan.sharding_level
    slots = OPTIMIZER_SLOTS.get(facts.optimizer, 2)
    amp = plan.amp if plan.amp is not None and not facts.device.startswith("cpu") else None
    act_bytes = 2 if amp is not None else 4
    local = sum(row.local_numel * row.itemsize for row in lowered.rows)
    full = sum(row.numel * row.itemsize for row in lowered.rows)
    state = local * slots
    if amp is not None and amp.level == "O2":
        state += local  # float32 master weights
        local = sum(row.local_numel * 2 for row in lowered.rows)
    params = local // dp if level >= 3 else local
    grads = local // dp if level >= 2 else local
    optimizer = state // dp if level >= 1 else state
    inputs = plan.input_placements()
    batch = facts.batch_size
    if "dp" in names and inputs[names.index("dp")].is_shard:
        batch = max(1, batch // dp)
    col = {name for name, p in lowered.layer_plans.items() if p == "ColWiseParallel"}
    row_layers = {name for name, p in lowered.layer_plans.items() if p == "RowWiseParallel"}
    per_sample = 0
    split = set(lowered.sequence_split)
    for name, count in facts.layer_outputs.items():
        if any(name.startswith(outer + ".") for outer in lowered.recompute):
            continue  # dropped after forward, computed again in backward
        count = count // mp if name in col else count
        per_sample += count // mp if name in split else count
    activations = per_sample * act_bytes * batch
    comm: list[Comm] = []
    if dp > 1:
        if level >= 1:
            comm.append(
                Comm("reduce_scatter", "gradients", _ring("reduce_scatter", local, dp), len(lowered.rows))
            )
            comm.append(Comm("all_gather", "parameters", _ring("all_gather", local, dp), len(lowered.rows)))
        elif inputs[names.index("dp")].is_shard:
            comm.append(Comm("all_reduce", "gradients", _ring("all_reduce", local, dp), len(lowered.rows)))
    if mp > 1:
        for name in sorted(row_layers):
            out = facts.layer_outputs.get(name, 0) * 4 * batch
            comm.append(Comm("all_reduce", f"{name} output (forward)", _ring("all_reduce", out, mp), 1))
        for name in sorted(col):
            fan_in = next(
                (r.shape[0] for r in lowered.rows if r.layer == name and r.name.endswith("weight")), 0
            )
            grad_in = fan_in * 4 * batch
            comm.append(
                Comm("all_reduce", f"{name} input gradient (backward)", _ring("all_reduce", grad_in, mp), 1)
            )
            if not row_layers:
                out = facts.layer_outputs.get(name, 0) * 4 * batch
                comm.append(Comm("all_gather", f"{name} output", _ring("all_gather", out, mp), 1))
    baseline = full * (2 + slots) + facts.activation_bytes_per_sample * facts.batch_size
    return Estimate(
        ranks=plan.mesh.size,
        param_bytes=params,
        grad_bytes=grads,
        optimizer_bytes=optimizer,
        activation_bytes=activations,
        comm_bytes=sum(c.bytes for c in comm),
        comm_count=sum(c.count for c in comm),
        comm=comm,
        baseline_bytes=baseline,
    )


def measured(metrics: MetricStore) -> dict[int, dict[str, float]]:
    """Per rank, what a run measured to set beside the estimate: median step time, last memory figures."""
    import numpy as np

    out: dict[int, dict[str, float]] = {}
    for rank in metrics.ranks():
        row: dict[str, float] = {}
        series = metrics.series("step_ms", rank)
        if series is not None and len(series):
            _, values = series.arrays()
            row["step_ms_median"] = float(np.median(values[1:] if len(values) > 1 else values))
        latest = metrics.latest(rank)
        for key in ("host_rss_mib", "host_alloc_mib", "gpu_peak_mib"):
            if key in latest:
                row[key] = float(latest[key])
        out[rank] = row
    return out
