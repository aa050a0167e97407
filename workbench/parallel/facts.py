"""The model a plan is about, as plain data: every layer with its type, every parameter with its shape.

Built from the plan's training config on the CPU without launching anything: the task's own ``build``
makes the model (the demo models take well under a second once Paddle is imported), one forward pass of
a single sample measures the activations, and the result is plain dataclasses — the lowering, the
validation and the estimate never touch Paddle.

The build runs in a child process (:func:`build_facts_isolated`: ``python -m workbench.parallel.facts``
through :mod:`workbench.isolate`) with a time limit, in its own process group: it imports Paddle and,
for ``task: custom``, the user's own module (with the config's folder first on ``sys.path``) — code that
can abort in C++, hang, or start workers (the dataset linter's spawned decoders). A crash or a hang is a
finding; leaving the plan editor or quitting the TUI kills the child and everything it started.
:func:`user_code_notice` is the sentence that says, before it happens, that the user's code is imported.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.i18n import t
from workbench.isolate import (
    Cancel,
    Child,
    ChildCancelled,
    ChildError,
    ChildTimeout,
    describe_exit,
    emit_marked,
    format_seconds,
    marked_document,
    run_module,
    watch_parent,
)

BUILD_TIMEOUT_S = 300.0
"""A model build for validation that takes longer is stopped (the demo models take seconds)."""


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
    input_shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Shape of each named layer's first input tensor for a batch of one (``[1, s, h]`` for a sequence)."""
    output_shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Shape of each named layer's first output tensor for a batch of one."""
    forward_order: list[str] = field(default_factory=list)
    """Named layers in the order their forward first started (where sequence-parallel ranges lie)."""
    input_needs_grad: dict[str, bool] = field(default_factory=dict)
    """Whether any tensor input of each named layer needs a gradient (``False`` for a layer that takes the
    batch directly: Paddle's ``recompute`` of it leaves its parameters without gradients)."""

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
    in_shapes: dict[str, tuple[int, ...]] = {}
    out_shapes: dict[str, tuple[int, ...]] = {}
    order: list[str] = []
    needs_grad: dict[str, bool] = {}
    total = 0
    if sample is not None:
        hooks = []

        def make_pre_hook(layer_name: str) -> Any:
            def pre_hook(_layer: Any, inputs: Any) -> None:
                if layer_name not in order:
                    order.append(layer_name)
                first = _first_shape(inputs)
                if first is not None:
                    in_shapes.setdefault(layer_name, first)
                items = inputs if isinstance(inputs, tuple | list) else (inputs,)
                flags = [not t.stop_gradient for t in items if hasattr(t, "stop_gradient")]
                if flags:
                    needs_grad.setdefault(layer_name, any(flags))

            return pre_hook

        def make_hook(layer_name: str) -> Any:
            def hook(_layer: Any, _inputs: Any, output: Any) -> None:
                nonlocal total
                tensors: Sequence[Any] = output if isinstance(output, tuple | list) else (output,)
                first = _first_shape(tensors)
                if first is not None:
                    out_shapes.setdefault(layer_name, first)
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
            hooks.append(layer.register_forward_pre_hook(make_pre_hook(name)))
        try:
            model(sample)  # with grad, so that the hooks see which inputs need one (one sample: cheap)
        finally:
            for handle in hooks:
                handle.remove()
    return ModelFacts(
        layers=layers,
        params=params,
        activation_bytes_per_sample=total,
        layer_outputs=outputs,
        input_shapes=in_shapes,
        output_shapes=out_shapes,
        forward_order=order,
        input_needs_grad=needs_grad,
    )


def _first_shape(values: Any) -> tuple[int, ...] | None:
    """The shape of the first tensor among a hook's inputs or outputs."""
    items: Sequence[Any] = values if isinstance(values, tuple | list) else (values,)
    for item in items:
        shape = getattr(item, "shape", None)
        if shape is not None:
            return tuple(int(d) for d in shape)
    return None


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
        input_shapes={str(k): tuple(v) for k, v in (doc.get("input_shapes") or {}).items()},
        output_shapes={str(k): tuple(v) for k, v in (doc.get("output_shapes") or {}).items()},
        forward_order=[str(v) for v in doc.get("forward_order") or ()],
        input_needs_grad={str(k): bool(v) for k, v in (doc.get("input_needs_grad") or {}).items()},
    )


class FactsBuildFailed(Exception):
    """The model could not be built (it raised, crashed or hung); ``messages`` say why. Problems of the
    training config itself are a :class:`~workbench.config.errors.ConfigError` instead."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


def user_code_notice(train_config: Path, overrides: Sequence[str] = ()) -> str | None:
    """``importing your code: pkg.module (from DIR) in a child process`` when building this config's
    model imports the user's module (``task: custom``); ``None`` otherwise (or when the config does not
    load — the build reports that)."""
    from workbench.config.loader import load_model
    from workbench.config.training import TrainingConfig

    try:
        cfg = load_model(train_config, TrainingConfig, overrides)
    except Exception:  # noqa: BLE001 - the build reports every problem of the config, located
        return None
    if cfg.task != "custom" or not cfg.entry:
        return None
    return t(
        "parallel.user_code",
        module=cfg.entry.partition(":")[0],
        folder=str(Path(train_config).resolve().parent),
    )


def build_facts_isolated(
    train_config: Path,
    overrides: Sequence[str] = (),
    *,
    timeout_s: float = BUILD_TIMEOUT_S,
    cancel: Cancel | None = None,
    started: Callable[[Child], None] | None = None,
) -> ModelFacts:
    """:func:`build_facts` in a child process (see the module docstring).

    Raises :class:`~workbench.config.errors.ConfigError` (the training config's located problems),
    :class:`FactsBuildFailed` (the build raised, crashed or ran past ``timeout_s``) or
    :class:`~workbench.isolate.ChildCancelled` (``cancel`` was set; the child's group is gone).
    """
    args = [str(train_config)]
    for override in overrides:
        args += ["-o", override]
    try:
        result = run_module(
            "workbench.parallel.facts", args, timeout_s=timeout_s, cancel=cancel, started=started
        )
        document = marked_document(result, t("parallel.error.build_no_result"))
    except ChildCancelled:
        raise
    except ChildTimeout as exc:
        raise FactsBuildFailed(
            [t("parallel.error.build_timed_out", seconds=format_seconds(exc.seconds))]
        ) from None
    except ChildError as exc:
        how = describe_exit(exc.returncode) if exc.returncode is not None else str(exc)
        raise FactsBuildFailed(
            [t("parallel.error.build_crashed", how=how, tail=exc.output_tail or "-")]
        ) from None
    if "config_issues" in document:
        raise ConfigError([ConfigIssue(**issue) for issue in document["config_issues"]])
    if "error" in document:
        raise FactsBuildFailed([str(m) for m in document["error"]])
    return facts_from_dict(document["facts"])


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m workbench.parallel.facts TRAIN.yaml [-o KEY=VALUE ...]``: the facts on one marked
    line (:func:`build_facts_isolated` starts it; the parent's screen or command can end it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m workbench.parallel.facts TRAIN.yaml [-o KEY=VALUE ...]", file=sys.stderr)
        return 2
    watch_parent()
    overrides = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "-o"]
    try:
        facts = build_facts(Path(args[0]), overrides)
    except ConfigError as exc:
        emit_marked({"config_issues": [issue.to_dict() for issue in exc.issues]})
        return 2
    except Exception as exc:  # noqa: BLE001 - DatasetError / PrepareError / a custom build that raised
        messages = getattr(exc, "messages", None) or [f"{type(exc).__name__}: {exc}"]
        emit_marked({"error": [str(m) for m in messages]})
        return 2
    emit_marked({"facts": facts_to_dict(facts)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
