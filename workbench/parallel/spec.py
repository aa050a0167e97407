"""The sharding-plan file: a pydantic model of both levels, Paddle's own vocabulary in YAML.

High level — Paddle's ``dist.parallelize`` config: ``dp.sharding_level`` (0 pure data parallel; 1, 2, 3
the sharding stages) and ``layers:`` (``mp_config.parallelize_plan``: a layer name, glob or
``re:<regex>`` → ``ColWiseParallel`` / ``RowWiseParallel`` / ``ConvParallel``). Low level — per-parameter
placements (``dist.shard_tensor``): ``params:`` rules, first match wins. ``inputs.placements`` says how
the batch is laid out over the mesh. The rest of ``parallelize``'s vocabulary: sequence-parallel markers
and ``PrepareLayerInput/Output`` (``layers:`` entries too, which may share a layer with a weight plan),
``dp.sharding_mesh_dim``, ``recompute:`` (layers whose activations are recomputed in backward), ``amp:``
(mixed precision) and ``pp:`` (pipeline stages, ``pp_config``). Everything here is checked without the
model; what needs the model (a rule that matches nothing, divisibility, overlaps, sequence ranges) is
:mod:`workbench.parallel.lowering` and :mod:`workbench.parallel.vocabulary`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from workbench.config.problems import problem
from workbench.parallel.placements import Placement, parse_placement

LAYER_PLANS: dict[str, tuple[str, ...]] = {
    "ColWiseParallel": ("Linear", "Embedding"),
    "RowWiseParallel": ("Linear", "Embedding"),
    "ConvParallel": ("Conv2D",),
}
"""Plan names of ``paddle.distributed`` (3.3.1) a ``layers:`` entry may use, and the layer types they fit
(an empty tuple: any layer)."""

WEIGHT_PLANS = ("ColWiseParallel", "RowWiseParallel", "ConvParallel")
"""The plans that shard a layer's parameters (at most one per layer)."""
SEQUENCE_MARKERS = (
    "SequenceParallelBegin",
    "SequenceParallelEnd",
    "SequenceParallelEnable",
    "SequenceParallelDisable",
)
"""Hooks that move activations between ``[b, s, h]`` and sequence-split ``[s/mp, b, h]`` (no parameters)."""
PREPARE_PLANS = ("PrepareLayerInput", "PrepareLayerOutput")
"""Hooks from the user's own code: ``fn: module:function`` returns the hook for a process mesh."""
TRANSPOSE_PLANS = ("SequenceParallelBegin", "SequenceParallelEnd", "SequenceParallelDisable")
"""The markers that take ``need_transpose``."""
for _marker in (*SEQUENCE_MARKERS, *PREPARE_PLANS):
    LAYER_PLANS[_marker] = ()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True, allow_inf_nan=False)


def _check_placements(values: list[str]) -> list[str]:
    for value in values:
        if parse_placement(value) is None:
            raise problem("plan_placement", placement=value)
    return values


class MeshSection(_Strict):
    shape: list[int] = Field(min_length=1, max_length=4)
    """Ranks along each mesh dimension; their product is the number of ranks to launch."""
    dim_names: list[str] = Field(min_length=1, max_length=4)
    """A name per dimension: ``dp`` (data parallel) and ``mp`` (model parallel) are what Paddle's plans use."""

    @field_validator("shape")
    @classmethod
    def _positive(cls, value: list[int]) -> list[int]:
        if any(v < 1 for v in value):
            raise problem("plan_mesh_size", shape=str(value))
        return value

    @model_validator(mode="after")
    def _names(self) -> MeshSection:
        if len(self.dim_names) != len(self.shape):
            raise problem(
                "plan_mesh_names", at="mesh.dim_names", names=len(self.dim_names), dims=len(self.shape)
            )
        if len(set(self.dim_names)) != len(self.dim_names):
            raise problem("plan_mesh_unique", at="mesh.dim_names", names=", ".join(self.dim_names))
        return self

    @property
    def size(self) -> int:
        total = 1
        for value in self.shape:
            total *= value
        return total


class DpSection(_Strict):
    sharding_level: int = Field(default=0, ge=0, le=3)
    """``dist.parallelize`` ``dp_config.sharding_level``: 0 replicated optimizer state, 1 sharded optimizer
    state, 2 also sharded gradients, 3 also sharded parameters."""
    sharding_mesh_dim: str | None = None
    """``dp_config.sharding_mesh_dim``: the mesh dimension the sharding stages split over (Paddle: ``dp``)."""


class LayerRule(_Strict):
    match: str = Field(min_length=1)
    """Layer name (``fc1``), glob (``blocks.*.fc``) or ``re:<regex>``."""
    plan: str
    """A name of :data:`LAYER_PLANS` (``ColWiseParallel``, ``SequenceParallelBegin``, ...)."""
    need_transpose: bool | None = None
    """``SequenceParallelBegin/End/Disable`` only: ``true`` (Paddle's default) for ``[b, s, h]``
    activations, ``false`` for ``[s, b, h]``."""
    fn: str | None = None
    """``PrepareLayerInput/Output`` only: ``module:function`` in the user's code (found like a custom
    task's ``entry``, from the training config's folder); ``function(process_mesh)`` returns the hook."""

    @field_validator("plan")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in LAYER_PLANS:
            import difflib

            close = difflib.get_close_matches(value, list(LAYER_PLANS), n=1, cutoff=0.5)
            raise problem(
                "plan_layer_plan",
                plan=value,
                known=", ".join(LAYER_PLANS),
                suggestion=close[0] if close else "",
            )
        return value


class ParamRule(_Strict):
    match: str = Field(min_length=1)
    """Parameter name (``fc.weight``), glob or ``re:<regex>``."""
    placements: list[str] = Field(min_length=1)
    """One placement per mesh dimension."""

    _placements = field_validator("placements")(_check_placements)


class InputsSection(_Strict):
    placements: list[str] = Field(min_length=1)
    """One placement per mesh dimension for the batch (``Shard(0)`` splits it)."""

    _placements = field_validator("placements")(_check_placements)


class RecomputeRule(_Strict):
    match: str = Field(min_length=1)
    """Layer name, glob or ``re:<regex>``: each layer it matches runs under ``recompute`` (its inner
    activations are dropped after forward and computed again in backward)."""


class AmpSection(_Strict):
    level: Literal["O1", "O2"] = "O1"
    """``O1``: white-listed ops in low precision; ``O2``: the parameters too (``paddle.amp.decorate``)."""
    dtype: Literal["float16", "bfloat16"] = "float16"
    """The low-precision type (Paddle's default ``float16``)."""


class PpSection(_Strict):
    split_spec: str | dict[str, Literal["BEGIN", "END"]]
    """``pp_config.split_spec``: a layer list's name (split evenly into stages) or ``{layer: END}`` split
    points."""
    global_spec: str | None = None
    """``pp_config.global_spec``: a layer whose tensors every stage keeps."""


class PlanConfig(_Strict):
    """A sharding plan for one training config."""

    train: str
    """The training config this plan parallelises (relative to the plan file)."""
    mesh: MeshSection
    dp: DpSection | None = None
    layers: list[LayerRule] = Field(default_factory=list)
    inputs: InputsSection | None = None
    params: list[ParamRule] = Field(default_factory=list)
    recompute: list[RecomputeRule] = Field(default_factory=list)
    amp: AmpSection | None = None
    pp: PpSection | None = None
    watchdog_s: float = Field(default=120.0, gt=0)
    """A launched run with no progress on some rank for this long is ended (the stalled rank is named)."""
    stop_lead_s: float = Field(default=2.0, gt=0, le=600)
    """A stopped run's ranks stop after the step they reach about this long after the stop (at least two
    steps on): every rank still has that step ahead of it when it reads the request."""

    @model_validator(mode="after")
    def _dims(self) -> PlanConfig:
        dims = len(self.mesh.shape)
        if self.inputs is not None and len(self.inputs.placements) != dims:
            raise problem(
                "plan_placement_count", at="inputs.placements", count=len(self.inputs.placements), dims=dims
            )
        for index, rule in enumerate(self.params):
            if len(rule.placements) != dims:
                raise problem(
                    "plan_placement_count",
                    at=f"params.{index}.placements",
                    count=len(rule.placements),
                    dims=dims,
                )
        if self.layers and "mp" not in self.mesh.dim_names:
            raise problem("plan_layers_need_mp", at="layers", names=", ".join(self.mesh.dim_names))
        if self.dp is not None and "dp" not in self.mesh.dim_names:
            raise problem("plan_dp_needs_dp", at="dp", names=", ".join(self.mesh.dim_names))
        self._vocabulary()
        return self

    def _vocabulary(self) -> None:
        """Options that belong to some plans only, and mesh dimensions the sections need."""
        names = self.mesh.dim_names
        for index, rule in enumerate(self.layers):
            if rule.need_transpose is not None and rule.plan not in TRANSPOSE_PLANS:
                raise problem("plan_need_transpose", at=f"layers.{index}.need_transpose", plan=rule.plan)
            if rule.plan in PREPARE_PLANS and not rule.fn:
                raise problem("plan_fn_missing", at=f"layers.{index}.plan", plan=rule.plan)
            if rule.fn is not None and rule.plan not in PREPARE_PLANS:
                raise problem("plan_fn_unused", at=f"layers.{index}.fn", plan=rule.plan)
            if rule.fn is not None and not _entry_like(rule.fn):
                raise problem("plan_fn_form", at=f"layers.{index}.fn", fn=rule.fn)
        dim = self.dp.sharding_mesh_dim if self.dp is not None else None
        if dim is not None and dim not in names:
            raise problem(
                "plan_sharding_mesh_dim", at="dp.sharding_mesh_dim", dim=dim, names=", ".join(names)
            )
        if self.pp is not None and "pp" not in names:
            raise problem("plan_pp_needs_pp", at="pp", names=", ".join(names))

    def train_path(self, plan_path: str | Path) -> Path:
        path = Path(self.train).expanduser()
        return path if path.is_absolute() else Path(plan_path).parent / path

    def input_placements(self) -> tuple[Placement, ...]:
        """The batch's placements: as written, else ``Shard(0)`` over ``dp`` and replicated elsewhere."""
        if self.inputs is not None:
            return tuple(p for p in (parse_placement(v) for v in self.inputs.placements) if p is not None)
        return tuple(
            Placement("shard", 0) if name == "dp" and not self._replicated_batch() else Placement("replicate")
            for name in self.mesh.dim_names
        )

    def _replicated_batch(self) -> bool:
        """Sharding stages need a reduce-scatter of dp-split gradients; with no ``inputs`` given, a plan with
        ``sharding_level >= 1`` keeps the batch whole on each rank (what runs on every device)."""
        return self.dp is not None and self.dp.sharding_level >= 1

    @property
    def sharding_level(self) -> int:
        return self.dp.sharding_level if self.dp is not None else 0


def _entry_like(text: str) -> bool:
    """``package.module:function`` (identifiers on both sides of one colon)."""
    module, colon, attr = text.partition(":")
    return bool(colon) and all(part.isidentifier() for part in (*module.split("."), *attr.split(".")))
