"""Inside a rank: turn a lowered plan into Paddle calls on the model, the optimizer and each batch.

The high level becomes one ``dist.parallelize(model, optimizer, config=...)`` (``dp_config`` with the
sharding level, ``mp_config.parallelize_plan`` with one plan object per layer); per-parameter rules
become ``dist.shard_tensor`` on that parameter before it (``parallelize`` leaves distributed parameters
as they are). Without a high level the optimizer goes through ``dist.shard_optimizer``. A batch is laid
out with ``dist.shard_tensor(x, mesh, inputs.placements)``: every rank draws the same global batch
(same seed, same sampler) and keeps its own slice, which is what makes the losses match the single-card
run step for step. Paddle is imported by the caller and passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.parallel.placements import Placement, parse_placement


@dataclass(frozen=True)
class RankPlan:
    """What a rank needs of a validated plan (JSON-able: the runner writes it into the run folder)."""

    mesh_shape: tuple[int, ...]
    dim_names: tuple[str, ...]
    sharding_level: int | None
    """``None``: the plan has no ``dp`` section (no ``dp_config``)."""
    layer_plans: Mapping[str, str] = field(default_factory=dict)
    param_placements: Mapping[str, Sequence[str]] = field(default_factory=dict)
    inputs: Sequence[str] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "mesh_shape": list(self.mesh_shape),
            "dim_names": list(self.dim_names),
            "sharding_level": self.sharding_level,
            "layer_plans": dict(self.layer_plans),
            "param_placements": {k: list(v) for k, v in self.param_placements.items()},
            "inputs": list(self.inputs),
        }

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> RankPlan:
        return cls(
            mesh_shape=tuple(int(v) for v in doc["mesh_shape"]),
            dim_names=tuple(str(v) for v in doc["dim_names"]),
            sharding_level=doc.get("sharding_level"),
            layer_plans=dict(doc.get("layer_plans") or {}),
            param_placements={str(k): list(v) for k, v in (doc.get("param_placements") or {}).items()},
            inputs=list(doc.get("inputs") or ()),
        )

    @property
    def size(self) -> int:
        total = 1
        for value in self.mesh_shape:
            total *= value
        return total


def _dist_placement(placement: Placement, dist: Any) -> Any:
    if placement.kind == "shard":
        return dist.Shard(placement.dim)
    if placement.kind == "partial":
        reduce = dist.ReduceType.kRedAvg if placement.reduce == "avg" else dist.ReduceType.kRedSum
        return dist.Partial(reduce)
    return dist.Replicate()


def dist_placements(texts: Sequence[str], dist: Any) -> list[Any]:
    return [_dist_placement(p, dist) for p in (parse_placement(t) for t in texts) if p is not None]


@dataclass
class Applied:
    model: Any
    optimizer: Any
    mesh: Any
    input_placements: list[Any]
    shard_inputs: bool


def make_mesh(plan: RankPlan, paddle: Any) -> Any:
    import numpy as np

    ids = np.arange(plan.size).reshape(plan.mesh_shape).tolist()
    return paddle.distributed.ProcessMesh(ids, dim_names=list(plan.dim_names))


def apply_plan(plan: RankPlan, model: Any, optimizer: Any, paddle: Any) -> Applied:
    """Shard ``model`` and ``optimizer`` as ``plan`` says; returns them and how to lay out batches."""
    dist = paddle.distributed
    mesh = make_mesh(plan, paddle)
    sublayers = dict(model.named_sublayers(include_self=True))
    for name, texts in plan.param_placements.items():
        owner_name, _, attr = name.rpartition(".")
        owner = sublayers.get(owner_name)
        if owner is None:
            continue
        param = getattr(owner, attr)
        setattr(owner, attr, dist.shard_tensor(param, mesh, dist_placements(texts, dist)))
    config: dict[str, Any] = {}
    if plan.sharding_level is not None:
        config["dp_config"] = {"sharding_level": plan.sharding_level}
    if plan.layer_plans:
        config["mp_config"] = {
            "parallelize_plan": {name: getattr(dist, kind)() for name, kind in plan.layer_plans.items()}
        }
    if config:
        dist.auto_parallel.set_mesh(mesh)
        model, optimizer = dist.parallelize(model, optimizer, config=config)
    else:
        optimizer = dist.shard_optimizer(optimizer)
    placements = (
        dist_placements(plan.inputs, dist) if plan.inputs else [dist.Replicate() for _ in plan.mesh_shape]
    )
    shard_inputs = any(parse_placement(t) != parse_placement("Replicate()") for t in plan.inputs)
    return Applied(model, optimizer, mesh, placements, shard_inputs)


def local_value(value: Any) -> Any:
    """A distributed tensor's own shard (what one rank saves in its checkpoint); other values as they are."""
    is_dist = getattr(value, "is_dist", None)
    if callable(is_dist) and is_dist():
        return value._local_value()
    if isinstance(value, Mapping):
        return {k: local_value(v) for k, v in value.items()}
    return value
