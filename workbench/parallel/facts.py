"""The model a plan is about, as plain data: every layer with its type, every parameter with its shape.

Built from the plan's training config on the CPU, in this process, without launching anything: the
task's own ``build`` makes the model (the demo models take well under a second once Paddle is
imported), one forward pass of a single sample measures the activations, and the result is plain
dataclasses — the lowering, the validation and the estimate never touch Paddle.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ParamFact:
    name: str
    """Structured name as ``named_parameters()`` gives it (``fc1.weight``)."""
    layer: str
    """The owning layer's name (``fc1``; ``""`` for the root)."""
    attr: str
    """The attribute on the layer (``weight``)."""
    shape: tuple[int, ...]
    dtype: str
    itemsize: int = 4


@dataclass(frozen=True)
class LayerFact:
    name: str
    type: str


@dataclass
class ModelFacts:
    """What validation needs to know about a model."""

    layers: list[LayerFact]
    params: list[ParamFact]
    activation_bytes_per_sample: int = 0
    """Sum of every layer's output size for one sample (forward activations kept for backward)."""
    batch_size: int = 1
    optimizer: str = "sgd"
    device: str = "cpu"
    layer_outputs: dict[str, int] = field(default_factory=dict)
    """Output elements per sample of each named layer (the tensors tensor-parallel plans communicate)."""

    def layer(self, name: str) -> LayerFact | None:
        for layer in self.layers:
            if layer.name == name:
                return layer
        return None


def _dtype_name(dtype: Any) -> str:
    return str(dtype).replace("paddle.", "")


_ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "int64": 8, "int32": 4}


def facts_from_layer(model: Any, sample: Any | None, paddle: Any) -> ModelFacts:
    """Describe ``model`` (a ``paddle.nn.Layer``); with ``sample`` (a batch of one), measure activations."""
    layers = [
        LayerFact(name, type(layer).__name__) for name, layer in model.named_sublayers(include_self=False)
    ]
    params: list[ParamFact] = []
    for name, param in model.named_parameters():
        layer, _, attr = name.rpartition(".")
        dtype = _dtype_name(param.dtype)
        params.append(
            ParamFact(name, layer, attr, tuple(int(d) for d in param.shape), dtype, _ITEMSIZE.get(dtype, 4))
        )
    outputs: dict[str, int] = {}
    total = 0
    if sample is not None:
        hooks = []

        def make_hook(layer_name: str) -> Any:
            def hook(_layer: Any, _inputs: Any, output: Any) -> None:
                nonlocal total
                tensors: Sequence[Any] = output if isinstance(output, tuple | list) else (output,)
                for tensor in tensors:
                    shape = getattr(tensor, "shape", None)
                    if shape is not None:
                        count = 1
                        for dim in shape:
                            count *= max(int(dim), 1)
                        outputs[layer_name] = outputs.get(layer_name, 0) + count
                        total += count * 4

            return hook

        for name, layer in model.named_sublayers(include_self=False):
            hooks.append(layer.register_forward_post_hook(make_hook(name)))
        try:
            with paddle.no_grad():
                model(sample)
        finally:
            for handle in hooks:
                handle.remove()
    return ModelFacts(layers=layers, params=params, activation_bytes_per_sample=total, layer_outputs=outputs)


def build_facts(train_config: Path, overrides: Sequence[str] = ()) -> ModelFacts:
    """Build the training config's model on the CPU and describe it (raises the training prepare errors)."""
    from workbench.training.plan import prepare_training
    from workbench.training.runtime import import_paddle
    from workbench.training.sampler import BatchSource, stack_collate
    from workbench.training.tasks import build_parts

    plan = prepare_training(train_config, overrides)
    paddle = import_paddle()
    previous = paddle.device.get_device()
    paddle.device.set_device("cpu")
    try:
        with paddle.utils.unique_name.guard():
            parts = build_parts(plan.cfg, data_dir=plan.data_dir, config_dir=plan.config_dir, paddle=paddle)
            source = BatchSource(
                parts.train_data, batch_size=1, seed=0, collate=parts.collate or stack_collate(paddle)
            )
            batch = source.next_batch()
            first = batch[0] if isinstance(batch, tuple | list) else batch
            facts = facts_from_layer(parts.model, first, paddle)
    finally:
        paddle.device.set_device(previous)
    facts.batch_size = plan.cfg.train.batch_size
    facts.optimizer = plan.cfg.train.optimizer
    from workbench.training.runtime import resolve_device

    facts.device = resolve_device(plan.cfg.train.device, paddle)
    return facts


def facts_to_dict(facts: ModelFacts) -> dict[str, Any]:
    return asdict(facts)


def facts_from_dict(doc: dict[str, Any]) -> ModelFacts:
    return ModelFacts(
        layers=[LayerFact(**layer) for layer in doc["layers"]],
        params=[ParamFact(**{**p, "shape": tuple(p["shape"])}) for p in doc["params"]],
        activation_bytes_per_sample=int(doc.get("activation_bytes_per_sample", 0)),
        batch_size=int(doc.get("batch_size", 1)),
        optimizer=str(doc.get("optimizer", "sgd")),
        device=str(doc.get("device", "cpu")),
        layer_outputs={str(k): int(v) for k, v in (doc.get("layer_outputs") or {}).items()},
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m workbench.parallel.facts TRAIN.yaml [-o KEY=VALUE ...]``: the facts as one JSON line
    (the plan screen builds the model in a child process it can end, never in the UI's)."""
    args = list(sys.argv[1:] if argv is None else argv)
    overrides = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "-o"]
    try:
        facts = build_facts(Path(args[0]), overrides)
    except Exception as exc:  # noqa: BLE001 - reported to the screen as a message, exit 2
        messages = getattr(exc, "messages", None) or [str(exc)]
        print(json.dumps({"error": [str(m) for m in messages]}))
        return 2
    print(json.dumps(facts_to_dict(facts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
