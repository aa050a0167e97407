"""Operator inventory of an exported program, checked against registered kernels and ONNX converters.

Paddle 3.x exports a PIR program as JSON (``model.json``): ops are dicts whose ``"#"`` is
``"<dialect id>.<op name>"`` (``"1.conv2d"``; dialect 1 is ``pd_op``, 0 is ``builtin`` — listed as
``builtin.combine`` and not checked for kernels), plus ``"p"`` entries for parameters; nested regions (control flow) hold more ops. Kernels come from
``paddle.base.core._get_registered_phi_kernels("function")``: op name → ``"(BACKEND, layout, dtype)"``
strings, where BACKEND is ``CPU``, ``GPU``, ``GPUDNN``, ``XPU``, ``ONEDNN``, ``CUSTOM`` …. An op is
available on a device type when a kernel of one of that type's backends is registered for it (an
in-place op ``relu_`` uses the kernel of ``relu``). paddle2onnx lists what it converts with
``get_all_supported_operators_pir()``.

The program also says where it would not be a pure function of its input (:func:`train_form_ops`):
each op's ``"A"`` attributes carry ``struct_name`` (the layer path it was traced in, ``/Net/Dropout/``)
and the op's settings. A ``dropout`` op traced outside a Dropout layer was a functional call
(``F.dropout`` in a ``forward``, ``training=True`` unless passed — it ignores ``model.eval()``; the
export itself runs it as identity, so dygraph and the export disagree); a ``batch_norm`` with
``use_global_stats: false`` is BatchNorm in training form (``F.batch_norm(training=True)``); random ops
(``uniform``, ``gaussian``, …) draw new numbers on every call.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Device type -> the kernel backends that serve it.
DEVICE_BACKENDS: dict[str, tuple[str, ...]] = {
    "cpu": ("CPU", "ONEDNN"),
    "gpu": ("GPU", "GPUDNN"),
    "xpu": ("XPU",),
    "custom": ("CUSTOM",),
}
# PIR op name -> the legacy name paddle2onnx lists it under.
_ONNX_ALIASES = {
    "add": "elementwise_add",
    "subtract": "elementwise_sub",
    "multiply": "elementwise_mul",
    "divide": "elementwise_div",
    "maximum": "elementwise_max",
    "minimum": "elementwise_min",
    "elementwise_pow": "elementwise_pow",
    "matmul": "matmul_v2",
    "flatten": "flatten_contiguous_range",
    "hardswish": "hard_swish",
    "hardsigmoid": "hard_sigmoid",
}
RANDOM_OPS = frozenset(
    {
        "uniform", "uniform_random", "gaussian", "gaussian_random", "randint", "bernoulli", "multinomial",
        "randperm", "truncated_gaussian_random", "poisson", "exponential_", "rrelu", "random_routing",
    }
)  # fmt: skip
"""Operators that draw random numbers on every call."""
# Program plumbing that runs without a compute kernel of its own.
_NO_KERNEL = {"data", "fetch", "feed", "parameter", "constant", "shadow_output"}


@dataclass
class OpInventory:
    """Ops of one exported program with counts, and where each one is missing."""

    counts: dict[str, int]
    device_types: list[str]
    missing_kernels: dict[str, list[str]] = field(default_factory=dict)
    """device type → ops without a kernel for it."""
    onnx_checked: bool = False
    onnx_unsupported: list[str] = field(default_factory=list)
    train_form: list[dict[str, str]] = field(default_factory=list)
    """:func:`train_form_ops` of the program."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "ops": [{"name": n, "count": c} for n, c in sorted(self.counts.items())],
            "device_types": self.device_types,
            "missing_kernels": self.missing_kernels,
            "onnx_checked": self.onnx_checked,
            "onnx_unsupported": self.onnx_unsupported,
            "train_form": self.train_form,
        }


def _walk(node: Any, counts: Counter[str]) -> None:
    if isinstance(node, dict):
        for op in node.get("ops", []) if isinstance(node.get("ops"), list) else []:
            if isinstance(op, dict):
                name = str(op.get("#", "?"))
                if name != "p":  # parameters are values, not operators
                    dialect, _, base = name.partition(".")
                    counts[f"builtin.{base}" if dialect == "0" else base or dialect] += 1
                _walk({k: v for k, v in op.items() if k != "ops"}, counts)
        for key, value in node.items():
            if key != "ops":
                _walk(value, counts)
    elif isinstance(node, list):
        for value in node:
            _walk(value, counts)


def read_program(model_json: Path) -> Any:
    try:
        doc = json.loads(model_json.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{model_json}: {exc}") from None
    if not isinstance(doc, dict) or "program" not in doc:
        raise ValueError(f"{model_json}: not a PIR program (no 'program' key)")
    return doc["program"]


def program_ops(model_json: Path) -> dict[str, int]:
    """Operator name → count in a PIR ``model.json``; ``ValueError`` when it is not one."""
    counts: Counter[str] = Counter()
    _walk(read_program(model_json), counts)
    return dict(counts)


def each_op(node: Any) -> Any:
    """Every operator dict of a program, nested regions included."""
    if isinstance(node, dict):
        for op in node.get("ops", []) if isinstance(node.get("ops"), list) else []:
            if isinstance(op, dict):
                yield op
                yield from each_op({k: v for k, v in op.items() if k != "ops"})
        for key, value in node.items():
            if key != "ops":
                yield from each_op(value)
    elif isinstance(node, list):
        for value in node:
            yield from each_op(value)


def op_attrs(op: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for attr in op.get("A") or []:
        if isinstance(attr, dict) and isinstance(attr.get("AT"), dict):
            out[str(attr.get("N"))] = attr["AT"].get("D")
    return out


def train_form_ops(program: Any) -> list[dict[str, str]]:
    """``{"op", "kind", "where"}`` for each operator that makes the program depend on more than its
    input: ``kind`` is ``functional_dropout`` (a dropout op traced outside any Dropout layer),
    ``batch_norm_train`` (batch statistics, not the running ones) or ``random``; ``where`` is the
    layer path it was traced in (``/`` for the top-level ``forward``)."""
    found = []
    for op in each_op(program):
        dialect, _, name = str(op.get("#", "")).partition(".")
        if dialect != "1":
            continue
        base = name.rstrip("_") if name not in RANDOM_OPS else name
        attrs = op_attrs(op)
        where = str(attrs.get("struct_name") or "/")
        layer = where.strip("/").rsplit("/", 1)[-1]
        if base == "dropout" and "Dropout" not in layer:
            found.append({"op": name, "kind": "functional_dropout", "where": where})
        elif base == "batch_norm" and attrs.get("use_global_stats") is False:
            found.append({"op": name, "kind": "batch_norm_train", "where": where})
        elif name in RANDOM_OPS or base in RANDOM_OPS:
            found.append({"op": name, "kind": "random", "where": where})
    return found


def available_device_types(paddle: Any) -> list[str]:
    """Device types this Paddle build can run: always ``cpu``; ``gpu``/``xpu``/custom when present."""
    types = ["cpu"]
    if paddle.is_compiled_with_cuda():
        types.append("gpu")
    if paddle.is_compiled_with_xpu():
        types.append("xpu")
    try:
        custom = list(paddle.device.get_all_custom_device_type() or [])
    except Exception:  # noqa: BLE001 - older builds lack the call
        custom = []
    types.extend(custom and ["custom"])
    return types


def kernel_backends(paddle: Any) -> dict[str, set[str]]:
    """Op name → kernel backends registered in this Paddle build."""
    table = paddle.base.core._get_registered_phi_kernels("function")
    out: dict[str, set[str]] = {}
    for name, entries in table.items():
        out[name] = {str(e).strip("(").split(",", 1)[0].strip() for e in entries}
    return out


def onnx_supported_ops() -> set[str] | None:
    """Op names paddle2onnx converts from PIR programs, or ``None`` without the ``onnx`` extra."""
    try:
        from paddle2onnx import paddle2onnx_cpp2py_export as p2o
    except ImportError:
        return None
    try:
        ops = p2o.get_all_supported_operators_pir()
    except Exception:  # noqa: BLE001 - an older paddle2onnx: say it was not checked
        return None
    return {str(op).split(".", 1)[-1] for op in ops}


def inventory(model_json: Path, paddle: Any) -> OpInventory:
    """The inventory of one export on this machine."""
    program = read_program(model_json)
    counts: Counter[str] = Counter()
    _walk(program, counts)
    backends = kernel_backends(paddle)
    types = available_device_types(paddle)
    result = OpInventory(counts=dict(counts), device_types=types, train_form=train_form_ops(program))
    for device in types:
        wanted = set(DEVICE_BACKENDS[device])
        missing = []
        for op in counts:
            base = op[:-1] if op.endswith("_") and op not in backends else op
            if base in _NO_KERNEL or base.startswith("builtin."):
                continue
            if not (backends.get(base, set()) & wanted):
                missing.append(op)
        if missing:
            result.missing_kernels[device] = sorted(missing)
    supported = onnx_supported_ops()
    if supported is not None:
        result.onnx_checked = True
        result.onnx_unsupported = onnx_unsupported(counts, supported)
    return result


def onnx_unsupported(counts: dict[str, int], supported: set[str]) -> list[str]:
    """The program's operators (``counts`` from :func:`program_ops`) that ``supported`` (paddle2onnx's
    table, :func:`onnx_supported_ops`) has no converter for, under their PIR or legacy names."""
    return sorted(
        op
        for op in counts
        if op not in _NO_KERNEL
        and not op.startswith("builtin.")
        and not {op, op.rstrip("_"), _ONNX_ALIASES.get(op.rstrip("_"), "")} & supported
    )
