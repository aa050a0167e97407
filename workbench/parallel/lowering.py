"""Both plan levels lowered to one table, and every rule checked against the real model.

Each parameter of the model gets one row: its placement per mesh dimension, its global and local shape,
and the plan line that decided it (``file:line:col``), or none (replicated). Every finding points at the
rule that caused it and says how to fix it. What is checked — each one a hazard Paddle itself does not
catch, or catches only deep in the first step (see docs/paddle-notes.md, "Auto-parallel"):

* every ``layers`` and ``params`` rule matches something; a plan kind fits the layer's type;
* a parameter decided by a ``layers`` plan and a ``params`` rule, or by two ``layers`` plans, is an
  overlap (both lines named);
* ``Shard(d)`` has ``0 <= d < ndim`` (Paddle segfaults otherwise); ``Partial`` is refused on parameters
  (a parameter never holds a pending reduction);
* every sharded dimension divides evenly by its mesh dimension (Paddle splits unevenly without a word
  and fails in backward naming no layer);
* the mesh has as many ranks as will be launched (a larger mesh hangs in the rendezvous);
* what this device cannot run: on CPU ``sharding_level: 3`` over a dp dimension of more than one rank
  (over dp = 1 Paddle runs it, with level 1's losses) and a dp-split batch under
  ``sharding_level`` 1–2 (both need ``CReduceScatterOp``), a parameter ``Shard(d>0)`` on the dp dimension
  under a sharding stage (a Shard→Shard reshard, ``all_to_all``); Paddle's ``shard_optimizer`` takes
  only SGD and AdamW.
"""

from __future__ import annotations

import difflib
import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from workbench.config.loader import PositionMap
from workbench.i18n import t
from workbench.parallel.facts import LayerFact, ModelFacts, ParamFact
from workbench.parallel.placements import REPLICATE, Placement, local_shape, parse_placement
from workbench.parallel.spec import LAYER_PLANS, WEIGHT_PLANS, LayerRule, ParamRule, PlanConfig

SHARD_OPTIMIZERS = ("sgd", "adamw")
"""``dist.shard_optimizer`` (and so ``dist.parallelize``) asserts AdamW or SGD in Paddle 3.3.1."""


@dataclass(frozen=True)
class Finding:
    """One problem (or warning) at a place in the plan file, with its fix."""

    file: str
    line: int
    col: int
    message: str
    fix: str
    code: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message} ({self.fix})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "message": self.message,
            "fix": self.fix,
            "code": self.code,
        }


@dataclass
class ParamRow:
    """One parameter as the plan leaves it."""

    name: str
    layer: str
    layer_type: str
    shape: tuple[int, ...]
    dtype: str
    itemsize: int
    placements: tuple[Placement, ...]
    local_shape: tuple[int, ...]
    source: str = ""
    """``file:line:col`` of the rule that decided it (empty: nothing did, it is replicated)."""
    rule: str = ""
    """What decided it, e.g. ``layers[0] ColWiseParallel`` or ``params[1]``."""

    @property
    def numel(self) -> int:
        return _prod(self.shape)

    @property
    def local_numel(self) -> int:
        return _prod(self.local_shape)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "layer": self.layer,
            "layer_type": self.layer_type,
            "shape": list(self.shape),
            "dtype": self.dtype,
            "local_shape": list(self.local_shape),
            "placements": [str(p) for p in self.placements],
            "source": self.source,
            "rule": self.rule,
        }


@dataclass
class Lowered:
    rows: list[ParamRow]
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    layer_plans: dict[str, str] = field(default_factory=dict)
    """Layer name → the weight plan that applies to it (what ``parallelize_plan`` gets)."""
    markers: list[tuple[int, str]] = field(default_factory=list)
    """``(layers index, layer name)`` of every marker plan (sequence parallel, Prepare*) that matched."""
    layer_markers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Layer name → its marker plans as ``{"plan", "need_transpose"?, "fn"?}`` (after the weight plan in
    ``parallelize_plan``'s list); filled by :mod:`workbench.parallel.vocabulary`."""
    recompute: list[str] = field(default_factory=list)
    """Layers that run under ``recompute``, in model order."""
    sequence_split: list[str] = field(default_factory=list)
    """Layers whose output is split over the sequence on ``mp`` (inside a Begin…End range, not disabled)."""


def _prod(values: Iterable[int]) -> int:
    total = 1
    for value in values:
        total *= int(value)
    return total


def name_matches(pattern: str, name: str) -> bool:
    """Exact name, a glob (``blocks.*.fc``) or ``re:<regex>`` (full match)."""
    if pattern.startswith("re:"):
        try:
            return re.fullmatch(pattern[3:], name) is not None
        except re.error:
            return False
    return name == pattern or fnmatch.fnmatchcase(name, pattern)


class _Where:
    """Positions of plan keys, as ``file:line:col``."""

    def __init__(self, file: str, positions: PositionMap) -> None:
        self.file = file
        self.positions = positions

    def at(self, *loc: str | int) -> tuple[int, int]:
        probe: tuple[str | int, ...] = tuple(loc)
        while probe:
            if probe in self.positions.values:
                return self.positions.values[probe]
            probe = probe[:-1]
        return (1, 1)

    def text(self, *loc: str | int) -> str:
        line, col = self.at(*loc)
        return f"{self.file}:{line}:{col}"


def _layer_params(facts: ModelFacts, layer: str) -> list[ParamFact]:
    return [p for p in facts.params if p.layer == layer]


def _layer_plan_placement(plan: str, param: ParamFact) -> int | None:
    """The tensor dim a layer plan shards ``param`` on (``None``: the plan leaves it replicated)."""
    if plan == "ColWiseParallel":
        if param.attr == "weight" and len(param.shape) == 2:
            return 1
        if param.attr == "bias" and len(param.shape) == 1:
            return 0
    if plan == "RowWiseParallel" and param.attr == "weight" and len(param.shape) == 2:
        return 0
    return None


def lower(
    plan: PlanConfig,
    facts: ModelFacts,
    *,
    file: str,
    positions: PositionMap,
    nproc: int | None = None,
    device: str = "cpu",
) -> Lowered:
    """The parameter table of ``plan`` on ``facts`` and every finding (see the module docstring)."""
    lowering = _Lowering(plan, facts, file, positions)
    for index, rule in enumerate(plan.layers):  # high level: layers -> ColWise / RowWise / ConvParallel
        lowering.apply_layer_rule(index, rule)
    for index, prule in enumerate(plan.params):  # low level: params -> placements (first match wins)
        lowering.apply_param_rule(index, prule)
    lowering.settle_local_shapes()
    inputs = lowering.check_inputs()
    lowering.check_world(nproc)
    lowering.check_optimizer()
    if device == "cpu":
        lowering.check_cpu(inputs)
    lowered = lowering.result()
    from workbench.parallel.vocabulary import check_vocabulary

    check_vocabulary(plan, facts, lowered, lowering.where, device=device)
    return lowered


class _Lowering:
    """One lowering in progress: the parameter table so far, who decided each row, the findings."""

    def __init__(self, plan: PlanConfig, facts: ModelFacts, file: str, positions: PositionMap) -> None:
        self.plan, self.facts, self.file = plan, facts, file
        self.where = _Where(file, positions)
        self.errors: list[Finding] = []
        self.mesh = tuple(plan.mesh.shape)
        self.names = plan.mesh.dim_names
        self.mp = self.names.index("mp") if "mp" in self.names else None
        self.dp = self.names.index("dp") if "dp" in self.names else None
        layer_types = {layer.name: layer.type for layer in facts.layers}
        self.rows: dict[str, ParamRow] = {
            param.name: ParamRow(
                name=param.name,
                layer=param.layer,
                layer_type=layer_types.get(param.layer, ""),
                shape=param.shape,
                dtype=param.dtype,
                itemsize=param.itemsize,
                placements=tuple(REPLICATE for _ in self.mesh),
                local_shape=param.shape,
            )
            for param in facts.params
        }
        self.decided: dict[str, tuple[str, str]] = {}  # param (or "layer:<name>") -> (rule text, location)
        self.layer_plans: dict[str, str] = {}
        self.claimed: set[str] = set()  # params a params rule placed
        self.markers: list[tuple[int, str]] = []  # (layers index, layer) of marker plans
        self.marked: dict[tuple[str, str], str] = {}  # (layer, marker family) -> location of the rule

    def error(self, code: str, loc: tuple[str | int, ...], fix_key: str, **values: Any) -> None:
        line, col = self.where.at(*loc)
        self.errors.append(
            Finding(self.file, line, col, t(f"parallel.error.{code}", **values), t(fix_key, **values), code)
        )

    def result(self) -> Lowered:
        warnings: list[Finding] = []
        if len(self.mesh) > 1 and self.mp is None and self.plan.layers:
            warnings.append(Finding(self.file, 1, 1, t("parallel.warn.no_mp"), "", "no_mp"))
        return Lowered(
            rows=list(self.rows.values()),
            errors=self.errors,
            warnings=warnings,
            layer_plans=self.layer_plans,
            markers=self.markers,
        )

    # -- high level: layers -> ColWise / RowWise / ConvParallel ------------------------------------

    def apply_layer_rule(self, index: int, rule: LayerRule) -> None:
        """``layers[index]``: every layer it matches gets its plan (a layer plan shards on ``mp``)."""
        facts = self.facts
        matched: list[LayerFact] = [layer for layer in facts.layers if name_matches(rule.match, layer.name)]
        if not matched:
            layer_names = [layer.name for layer in facts.layers]
            close = difflib.get_close_matches(rule.match, layer_names, n=3, cutoff=0.4)
            self.error(
                "layer_matches_nothing",
                ("layers", index, "match"),
                "parallel.fix.layer_matches_nothing",
                pattern=rule.match,
                close=", ".join(close) or ", ".join(layer_names[:6]),
            )
            return
        for layer in matched:
            self._plan_layer(index, rule.plan, layer)

    def _plan_layer(self, index: int, plan: str, layer: LayerFact) -> None:
        loc = self.where.text("layers", index, "match")
        if plan not in WEIGHT_PLANS:
            self._mark_layer(index, plan, layer, loc)
            return
        fits = LAYER_PLANS[plan]
        if layer.type not in fits:
            self.error(
                "plan_kind",
                ("layers", index, "plan"),
                "parallel.fix.plan_kind",
                plan=plan,
                layer=layer.name,
                type=layer.type,
                fits=", ".join(fits),
            )
            return
        if layer.name in self.layer_plans:
            self.error(
                "overlap_layers",
                ("layers", index, "match"),
                "parallel.fix.overlap",
                name=layer.name,
                first=self.decided.get(f"layer:{layer.name}", ("", ""))[1],
                second=loc,
            )
            return
        self.layer_plans[layer.name] = plan
        self.decided[f"layer:{layer.name}"] = (f"layers[{index}] {plan}", loc)
        for param in _layer_params(self.facts, layer.name):
            dim = _layer_plan_placement(plan, param)
            row = self.rows[param.name]
            row.source, row.rule = loc, f"layers[{index}] {plan}"
            self.decided[param.name] = (row.rule, loc)
            if dim is not None and self.mp is not None:
                split = list(row.placements)
                split[self.mp] = Placement("shard", dim)
                row.placements = tuple(split)

    def _mark_layer(self, index: int, plan: str, layer: LayerFact, loc: str) -> None:
        """A marker plan (hooks, no parameters): besides a weight plan, at most one of each family."""
        family = "sequence" if plan.startswith("SequenceParallel") else plan
        first = self.marked.get((layer.name, family))
        if first is not None:
            self.error(
                "overlap_layers",
                ("layers", index, "match"),
                "parallel.fix.overlap",
                name=layer.name,
                first=first,
                second=loc,
            )
            return
        self.marked[(layer.name, family)] = loc
        self.markers.append((index, layer.name))

    # -- low level: params -> placements (first match wins) ----------------------------------------

    def apply_param_rule(self, index: int, prule: ParamRule) -> None:
        """``params[index]``: its placements on every parameter it matches that no rule decided yet."""
        params = self.facts.params
        matched = [p for p in params if name_matches(prule.match, p.name)]
        if not matched:
            close = difflib.get_close_matches(prule.match, [p.name for p in params], n=3, cutoff=0.4)
            self.error(
                "param_matches_nothing",
                ("params", index, "match"),
                "parallel.fix.param_matches_nothing",
                pattern=prule.match,
                close=", ".join(close) or ", ".join(p.name for p in params[:6]),
            )
            return
        loc = self.where.text("params", index, "match")
        placements = tuple(p for p in (parse_placement(v) for v in prule.placements) if p is not None)
        for param in matched:
            if param.name in self.claimed:
                continue  # an earlier params rule won
            if param.name in self.decided:
                self.error(
                    "overlap_param",
                    ("params", index, "match"),
                    "parallel.fix.overlap",
                    name=param.name,
                    first=self.decided[param.name][1],
                    second=loc,
                )
                continue
            self.claimed.add(param.name)
            row = self.rows[param.name]
            row.placements, row.source, row.rule = placements, loc, f"params[{index}]"
            self.decided[param.name] = (row.rule, loc)
            self._check_param_placements(index, param, placements)

    def _check_param_placements(
        self, index: int, param: ParamFact, placements: tuple[Placement, ...]
    ) -> None:
        for k, placement in enumerate(placements):
            ploc = ("params", index, "placements", k)
            if placement.kind == "partial":
                self.error("partial_param", ploc, "parallel.fix.partial_param", name=param.name)
            elif placement.is_shard and not (0 <= (placement.dim or 0) < len(param.shape)):
                self.error(
                    "shard_dim",
                    ploc,
                    "parallel.fix.shard_dim",
                    name=param.name,
                    dim=str(placement.dim),
                    ndim=len(param.shape),
                    shape=str(list(param.shape)),
                    last=len(param.shape) - 1,
                )

    # -- divisibility, local shapes ----------------------------------------------------------------

    def settle_local_shapes(self) -> None:
        """Each row's shape on one rank; a sharded dim the ranks do not divide is an error."""
        for row in self.rows.values():
            self._check_divisible(row)
            row.local_shape = local_shape(row.shape, row.placements, self.mesh)

    def _check_divisible(self, row: ParamRow) -> None:
        for k, placement in enumerate(row.placements):
            dim = placement.dim
            if not placement.is_shard or dim is None or not 0 <= dim < len(row.shape):
                continue
            ways = _prod(self.mesh[j] for j, p in enumerate(row.placements) if p.is_shard and p.dim == dim)
            if row.shape[dim] % ways:
                self.error(
                    "not_divisible",
                    _loc_of(self.plan, row),
                    "parallel.fix.not_divisible",
                    name=row.name,
                    layer=row.layer or "-",
                    dim=dim,
                    size=row.shape[dim],
                    ranks=ways,
                    mesh_dim=self.names[k],
                )
                return

    # -- the batch, the world, the optimizer, the device -------------------------------------------

    def check_inputs(self) -> tuple[Placement, ...]:
        """The batch's placements: split on dim 0 only, never partial, by a size the ranks divide."""
        inputs = self.plan.input_placements()
        for k, placement in enumerate(inputs):
            loc = ("inputs", "placements", k)
            if placement.kind == "partial":
                self.error("partial_input", loc, "parallel.fix.partial_input")
            elif placement.is_shard and placement.dim != 0:
                self.error("input_dim", loc, "parallel.fix.input_dim", dim=str(placement.dim))
            elif placement.is_shard and self.facts.batch_size % self.mesh[k]:
                self.error(
                    "batch_not_divisible",
                    loc,
                    "parallel.fix.batch_not_divisible",
                    batch=self.facts.batch_size,
                    ranks=self.mesh[k],
                    mesh_dim=self.names[k],
                )
        return inputs

    def check_world(self, nproc: int | None) -> None:
        size = self.plan.mesh.size
        if nproc is not None and size != nproc:
            key = "mesh_too_large" if size > nproc else "mesh_too_small"
            self.error(
                key, ("mesh", "shape"), f"parallel.fix.{key}", mesh=size, shape=str(self.mesh), nproc=nproc
            )

    def check_optimizer(self) -> None:
        if self.facts.optimizer not in SHARD_OPTIMIZERS:
            self.error("optimizer", ("train",), "parallel.fix.optimizer", optimizer=self.facts.optimizer)

    def check_cpu(self, inputs: tuple[Placement, ...]) -> None:
        """What the CPU backend cannot run: sharding level 3, a split batch or a re-shard under sharding."""
        plan, dp = self.plan, self.dp
        level = plan.sharding_level
        if level == 3 and dp is not None and self.mesh[dp] > 1:  # over dp = 1 nothing is reduce-scattered
            self.error("cpu_sharding_3", ("dp", "sharding_level"), "parallel.fix.cpu_sharding_3")
        elif level >= 1 and dp is not None and inputs[dp].is_shard:
            self.error(
                "cpu_sharding_split_batch",
                ("inputs", "placements", dp) if plan.inputs is not None else ("dp", "sharding_level"),
                "parallel.fix.cpu_sharding_split_batch",
                level=level,
            )
        if level < 1 or dp is None:
            return
        for row in self.rows.values():
            placement = row.placements[dp]
            if placement.is_shard and placement.dim not in (0, None):
                self.error(
                    "cpu_reshard",
                    _loc_of(plan, row),
                    "parallel.fix.cpu_reshard",
                    name=row.name,
                    dim=str(placement.dim),
                )


def _loc_of(plan: PlanConfig, row: ParamRow) -> tuple[str | int, ...]:
    """The plan key of the rule that decided ``row`` (for findings about the row)."""
    match = re.match(r"(layers|params)\[(\d+)\]", row.rule)
    if match is None:
        return ("mesh", "shape")
    section, index = match.group(1), int(match.group(2))
    return (section, index, "match")
