"""Inside a rank: turn a lowered plan into Paddle calls on the model, the optimizer and each batch.

The high level becomes one ``dist.parallelize(model, optimizer, config=...)`` (``dp_config`` with the
sharding level and ``sharding_mesh_dim``, ``mp_config.parallelize_plan`` with a list of plan objects per
layer — its weight plan, then its markers — and ``pp_config``); per-parameter rules
become ``dist.shard_tensor`` on that parameter before it (``parallelize`` leaves distributed parameters
as they are). Without a high level the optimizer goes through ``dist.shard_optimizer``. A batch is laid
out with ``dist.shard_tensor(x, mesh, inputs.placements)``: every rank draws the same global batch
(same seed, same sampler) and keeps its own slice, which is what makes the losses match the single-card
run step for step. Layers under ``recompute`` get their forward wrapped in
``paddle.distributed.fleet.utils.recompute``. Mixed precision (``amp``) is applied on accelerators only:
``O2`` decorates the model and optimizer before ``parallelize``, and the loop runs each forward under
``paddle.amp.auto_cast`` (:func:`amp_context`); on CPU Paddle's ``auto_cast`` has no effect, so it is not
applied (validation says so). Paddle is imported by the caller and passed in.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
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
    layer_markers: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    """Layer → marker plans (``{"plan", "need_transpose"?, "fn"?}``), after its weight plan."""
    recompute: Sequence[str] = ()
    """Layers whose forward runs under ``recompute``."""
    amp: Mapping[str, str] | None = None
    """``{"level": "O1"|"O2", "dtype": "float16"|"bfloat16"}``; applied on accelerators only."""
    sharding_mesh_dim: str | None = None
    pp: Mapping[str, Any] | None = None
    """``{"split_spec": str | {layer: "END"|"BEGIN"}, "global_spec": str | None}`` (``pp_config``)."""
    code_dir: str = ""
    """Where ``fn: module:function`` of a Prepare plan is imported from (the training config's folder)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "mesh_shape": list(self.mesh_shape),
            "dim_names": list(self.dim_names),
            "sharding_level": self.sharding_level,
            "layer_plans": dict(self.layer_plans),
            "param_placements": {k: list(v) for k, v in self.param_placements.items()},
            "inputs": list(self.inputs),
            "layer_markers": {k: [dict(m) for m in v] for k, v in self.layer_markers.items()},
            "recompute": list(self.recompute),
            "amp": dict(self.amp) if self.amp is not None else None,
            "sharding_mesh_dim": self.sharding_mesh_dim,
            "pp": dict(self.pp) if self.pp is not None else None,
            "code_dir": self.code_dir,
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
            layer_markers={str(k): [dict(m) for m in v] for k, v in (doc.get("layer_markers") or {}).items()},
            recompute=[str(v) for v in doc.get("recompute") or ()],
            amp=dict(doc["amp"]) if doc.get("amp") else None,
            sharding_mesh_dim=doc.get("sharding_mesh_dim"),
            pp=dict(doc["pp"]) if doc.get("pp") else None,
            code_dir=str(doc.get("code_dir") or ""),
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
    amp: Mapping[str, str] | None = None
    """The mixed precision the loop's forward runs under (``None``: float32, always so on CPU)."""


def make_mesh(plan: RankPlan, paddle: Any) -> Any:
    import numpy as np

    ids = np.arange(plan.size).reshape(plan.mesh_shape).tolist()
    return paddle.distributed.ProcessMesh(ids, dim_names=list(plan.dim_names))


def _marker(entry: Mapping[str, Any], dist: Any, code_dir: str) -> Any:
    """One marker plan object: ``SequenceParallel*(need_transpose=...)`` or ``Prepare*(fn)``."""
    kind = str(entry["plan"])
    if "fn" in entry:
        from workbench.training.tasks.custom import resolve_entry

        return getattr(dist, kind)(resolve_entry(str(entry["fn"]), Path(code_dir or ".")))
    if "need_transpose" in entry:
        return getattr(dist, kind)(need_transpose=bool(entry["need_transpose"]))
    return getattr(dist, kind)()


def parallelize_config(plan: RankPlan, dist: Any) -> dict[str, Any]:
    """The ``dist.parallelize`` config of ``plan`` (empty: no high level)."""
    config: dict[str, Any] = {}
    if plan.sharding_level is not None:
        dp: dict[str, Any] = {"sharding_level": plan.sharding_level}
        if plan.sharding_mesh_dim:
            dp["sharding_mesh_dim"] = plan.sharding_mesh_dim
        config["dp_config"] = dp
    layers: dict[str, list[Any]] = {name: [getattr(dist, kind)()] for name, kind in plan.layer_plans.items()}
    for name, entries in plan.layer_markers.items():
        layers.setdefault(name, []).extend(_marker(entry, dist, plan.code_dir) for entry in entries)
    if layers:
        config["mp_config"] = {"parallelize_plan": layers}
    if plan.pp is not None:
        split = plan.pp["split_spec"]
        pp: dict[str, Any] = {
            "split_spec": split
            if isinstance(split, str)
            else {k: getattr(dist.SplitPoint, str(v)) for k, v in split.items()}
        }
        if plan.pp.get("global_spec"):
            pp["global_spec"] = plan.pp["global_spec"]
        config["pp_config"] = pp
    return config


def wrap_recompute(model: Any, names: Sequence[str], paddle: Any) -> None:
    """Run each named sublayer's forward under ``recompute`` while training (eval runs it plainly)."""
    from paddle.distributed.fleet.utils import recompute

    sublayers = dict(model.named_sublayers(include_self=True))
    for name in names:
        layer = sublayers.get(name)
        if layer is None:
            continue
        inner = layer.forward

        def forward(*args: Any, _inner: Any = inner, _layer: Any = layer, **kwargs: Any) -> Any:
            if not _layer.training:
                return _inner(*args, **kwargs)
            return recompute(_inner, *args, **kwargs)

        layer.forward = forward


def on_accelerator(paddle: Any) -> bool:
    return not str(paddle.device.get_device()).startswith("cpu")


def amp_context(amp: Mapping[str, str] | None, paddle: Any) -> Any:
    """``paddle.amp.auto_cast`` for ``amp`` (a no-op context when ``None``)."""
    if amp is None:
        return contextlib.nullcontext()
    return paddle.amp.auto_cast(level=amp["level"], dtype=amp["dtype"])


def apply_plan(plan: RankPlan, model: Any, optimizer: Any, paddle: Any) -> Applied:
    """Shard ``model`` and ``optimizer`` as ``plan`` says; returns them and how to lay out batches."""
    dist = paddle.distributed
    mesh = make_mesh(plan, paddle)
    amp = plan.amp if plan.amp is not None and on_accelerator(paddle) else None
    if amp is not None and amp["level"] == "O2":
        model, optimizer = paddle.amp.decorate(model, optimizer, level="O2", dtype=amp["dtype"])
    if plan.recompute:
        wrap_recompute(model, plan.recompute, paddle)
    sublayers = dict(model.named_sublayers(include_self=True))
    for name, texts in plan.param_placements.items():
        owner_name, _, attr = name.rpartition(".")
        owner = sublayers.get(owner_name)
        if owner is None:
            continue
        param = getattr(owner, attr)
        setattr(owner, attr, dist.shard_tensor(param, mesh, dist_placements(texts, dist)))
    config = parallelize_config(plan, dist)
    if config:
        dist.auto_parallel.set_mesh(mesh)
        model, optimizer = dist.parallelize(model, optimizer, config=config)
    else:
        optimizer = dist.shard_optimizer(optimizer)
    placements = (
        dist_placements(plan.inputs, dist) if plan.inputs else [dist.Replicate() for _ in plan.mesh_shape]
    )
    shard_inputs = any(parse_placement(t) != parse_placement("Replicate()") for t in plan.inputs)
    return Applied(model, optimizer, mesh, placements, shard_inputs, amp)


def local_value(value: Any) -> Any:
    """A distributed tensor's own shard (what one rank saves in its checkpoint); other values as they are."""
    is_dist = getattr(value, "is_dist", None)
    if callable(is_dist) and is_dist():
        return value._local_value()
    if isinstance(value, Mapping):
        return {k: local_value(v) for k, v in value.items()}
    return value


@dataclass
class PlanCode:
    """A rank plan as Python source, for a script that is read as the plan (``plan export``).

    The source assumes ``import paddle`` and ``import paddle.distributed as dist``; ``setup`` lines run
    in ``parallelize(model, optimizer)`` before ``dist.parallelize`` (4-space indent), ``config`` lines are
    the entries of its config dict (8-space indent), ``amp`` is what the loop's forward runs under."""

    imports: list[str]
    setup: list[str]
    config: list[str]
    amp: dict[str, str] | None


def _marker_code(entry: Mapping[str, Any]) -> str:
    kind = str(entry["plan"])
    if "fn" in entry:
        return f"dist.{kind}({str(entry['fn']).partition(':')[2]})"
    if "need_transpose" in entry:
        return f"dist.{kind}(need_transpose={bool(entry['need_transpose'])!r})"
    return f"dist.{kind}()"


def plan_code(plan: RankPlan) -> PlanCode:
    """``plan``'s ``dist.parallelize`` config, recompute and amp as source (see :class:`PlanCode`)."""
    imports = sorted(
        {
            f"from {module} import {attr.split('.')[0]}"
            for entries in plan.layer_markers.values()
            for module, _, attr in (str(e["fn"]).partition(":") for e in entries if "fn" in e)
        }
    )
    setup: list[str] = []
    amp = dict(plan.amp) if plan.amp is not None else None
    if amp is not None and amp["level"] == "O2":
        setup += [
            "    if not paddle.device.get_device().startswith('cpu'):  # amp has no effect on CPU",
            f"        model, optimizer = paddle.amp.decorate(model, optimizer, level='O2', dtype={amp['dtype']!r})",
        ]
    if plan.recompute:
        setup += [
            "    from paddle.distributed.fleet.utils import recompute",
            "",
            "    layers = dict(model.named_sublayers())",
            f"    for name in {list(plan.recompute)!r}:  # recompute: activations recomputed in backward",
            "        inner = layers[name].forward",
            "        layers[name].forward = lambda *a, _f=inner, **k: recompute(_f, *a, **k)",
        ]
    config: list[str] = []
    if plan.sharding_level is not None:
        dp: dict[str, Any] = {"sharding_level": plan.sharding_level}
        if plan.sharding_mesh_dim:
            dp["sharding_mesh_dim"] = plan.sharding_mesh_dim
        config.append(f'        "dp_config": {dp!r},')
    layers: dict[str, list[str]] = {name: [f"dist.{kind}()"] for name, kind in plan.layer_plans.items()}
    for name, entries in plan.layer_markers.items():
        layers.setdefault(name, []).extend(_marker_code(e) for e in entries)
    if layers:
        config.append('        "mp_config": {"parallelize_plan": {')
        for name, codes in layers.items():
            value = codes[0] if len(codes) == 1 else f"[{', '.join(codes)}]"
            config.append(f"            {name!r}: {value},")
        config.append("        }},")
    if plan.pp is not None:
        split = plan.pp["split_spec"]
        spec = (
            repr(split)
            if isinstance(split, str)
            else "{" + ", ".join(f"{k!r}: dist.SplitPoint.{v}" for k, v in split.items()) + "}"
        )
        glob = f', "global_spec": {plan.pp["global_spec"]!r}' if plan.pp.get("global_spec") else ""
        config.append(f'        "pp_config": {{"split_spec": {spec}{glob}}},')
    return PlanCode(imports=imports, setup=setup, config=config, amp=amp)
