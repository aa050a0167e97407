"""Reduced precision in ``compare --precision``: what the hardware can do, the reduced-precision paths
beside their float32 twins, and a gate on what reduced precision does to the predictions.

``int8`` is ONNX Runtime static int8: the float32 ONNX model (the ``onnxruntime`` path's conversion) is
quantized with ``onnxruntime.quantization.quantize_static`` — QDQ format, per-channel int8 weights,
uint8 activations whose ranges are calibrated (min/max) on up to :data:`CALIBRATION_SAMPLES` of the
run's validation inputs, preprocessed exactly as every path gets them — and run as the path
``onnxruntime_int8``. The quantization runs in a child process (``python -m
workbench.inference.quantize``, through :mod:`workbench.isolate`): it loads native code on a model it
did not write, and a crash there is this path's error, never the end of the comparison.

``fp16`` is Paddle Inference on GPU 0 in half precision (``predictor_gpu_fp16``), measured only where a
GPU has fp16 tensor cores (compute capability ≥ 7.0, from :mod:`workbench.envcheck.precision`); elsewhere
the path is listed as skipped with the reason.

Each reduced-precision path is measured like every other path (the same batch, the same median/IQR
timing) and then judged by :func:`judge`, not by the float32 tolerance: top-1 agreement with the float32
reference at least :data:`MIN_TOP1` (cosine similarity at least :data:`MIN_COSINE` for outputs without
classes). Its latency is given as a ratio to its float32 twin (``onnxruntime``, ``predictor_gpu``) with
whether the two spreads overlap. Before any figure, the notes say what this CPU (and GPU) can do: on a
CPU without int8 dot-product instructions no speed-up is expected, and the note says why.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from workbench.envcheck.precision import PrecisionSupport, gpus_from_paddle, gpus_support, this_cpu
from workbench.i18n import t
from workbench.inference.findings import Finding
from workbench.inference.metrics import latency_order
from workbench.inference.paths import Array, ComparePath, PathContext, Runner, ordered_paths
from workbench.isolate import (
    Cancel,
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

PRECISIONS = ("int8", "fp16")
"""The values of ``compare --precision``."""
CALIBRATION_SAMPLES = 32
"""Validation inputs the int8 activation ranges are calibrated on (fewer when the split is smaller)."""
CALIBRATION_CHUNK = 8
MIN_TOP1 = 0.99
MIN_COSINE = 0.99
QUANTIZE_TIMEOUT_S = 600.0
PER_CHANNEL_OPSET = 13
INT8_PATH = "onnxruntime_int8"
FP16_PATH = "predictor_gpu_fp16"
INT8_MODULES = ("paddle2onnx", "onnxruntime", "ml_dtypes")
"""What the int8 path imports: ``onnxruntime.quantization`` needs ``ml_dtypes`` (the ``onnx`` extra)."""
ONNX_FIX = "pip install 'paddle-workbench[onnx]'"

Measure = Callable[[str, ComparePath, "str | None"], dict[str, Any]]
"""The engine's measurement of one path: ``measure(name, path, skip reason or None) -> path document``."""


# --------------------------------------------------------------------------- the gate


@dataclass(frozen=True)
class Gate:
    """The verdict on a reduced-precision path: does it still predict what float32 predicts?"""

    measure: str
    """``top1_agreement`` (class outputs) or ``cosine`` (other outputs)."""
    value: float | None
    threshold: float

    @property
    def passed(self) -> bool:
        return self.value is not None and self.value >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "value": self.value,
            "threshold": self.threshold,
            "passed": self.passed,
        }


def judge(
    top1: float | None, cosine: float | None, *, min_top1: float = MIN_TOP1, min_cosine: float = MIN_COSINE
) -> Gate:
    """Top-1 agreement against float32 where the outputs are classes, else the cosine similarity; a
    value that was not measured never passes."""
    if top1 is not None:
        return Gate("top1_agreement", top1, min_top1)
    return Gate("cosine", cosine, min_cosine)


def latency_ratio(path: Mapping[str, Any], baseline: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Per batch size: the path's median over the baseline's (above 1: slower) and whether their
    interquartile ranges overlap (then this measurement cannot tell the two apart)."""
    if baseline is None:
        return None
    ours, theirs = path.get("latency") or {}, baseline.get("latency") or {}
    out: dict[str, Any] = {}
    for key, stats in ours.items():
        other = theirs.get(key)
        if not stats or not other or not other.get("median"):
            continue
        order = latency_order([("a", stats), ("b", other)])
        out[key] = {
            "ratio": float(stats["median"]) / float(other["median"]),
            "overlap": bool(order["overlapping"]),
            "baseline": baseline.get("name"),
        }
    return out or None


# --------------------------------------------------------------------------- the hardware


def hardware_notes(
    cpu: PrecisionSupport, gpus: Sequence[PrecisionSupport], precisions: Sequence[str]
) -> list[str]:
    """What this CPU and GPU can do in reduced precision, said before any figure."""
    name = cpu.name or "?"
    flags = " ".join(cpu.evidence) or "-"
    notes: list[str] = []
    if "int8" in precisions:
        if cpu.int8:
            notes.append(t("precision.cpu.int8_yes", cpu=name, via=cpu.int8_via or "?"))
        else:
            notes.append(t("precision.cpu.int8_no", cpu=name, flags=flags))
    notes.append(
        t("precision.cpu.bf16_yes", via=cpu.bf16_via or "?") if cpu.bf16 else t("precision.cpu.bf16_no")
    )
    if not gpus:
        notes.append(t("precision.gpu.none"))
    for gpu in gpus:
        units = [kind for kind in ("fp16", "bf16", "int8", "fp8") if getattr(gpu, kind)] or ["-"]
        key = "precision.gpu.fp16_offered" if gpu.fp16 else "precision.gpu.fp16_not_offered"
        notes.append(
            t(
                key,
                device=gpu.device,
                name=gpu.name or "?",
                evidence=", ".join(gpu.evidence),
                units=", ".join(units),
            )
        )
    return notes


# --------------------------------------------------------------------------- bad input


def precision_problems(
    precisions: Sequence[str], onnx: bool | None, find_spec: Callable[[str], Any]
) -> list[str]:
    """Why ``--precision`` cannot run as asked (exit 2 before any slow work), every reason at once."""
    problems = []
    if "int8" in precisions:
        if onnx is False:
            problems.append(t("precision.input.int8_no_onnx"))
        missing = [m for m in INT8_MODULES if find_spec(m) is None]
        if missing:
            problems.append(
                t("inference.input.extra_missing", path=INT8_PATH, modules=", ".join(missing), fix=ONNX_FIX)
            )
    return problems


# --------------------------------------------------------------------------- int8: the child


class _Reader:
    """Feeds the calibration inputs in chunks (a ``CalibrationDataReader``: ``get_next`` → feed or None)."""

    def __init__(self, name: str, data: Array) -> None:
        self._feeds = iter(
            [
                {name: np.ascontiguousarray(data[i : i + CALIBRATION_CHUNK])}
                for i in range(0, len(data), CALIBRATION_CHUNK)
            ]
        )

    def get_next(self) -> dict[str, Array] | None:
        return next(self._feeds, None)


def _quantize(fp32: Path, calibration: Array, out: Path) -> dict[str, Any]:
    """Static QDQ int8 of ``fp32`` into ``out`` (in the child); what was done, for the path document.

    Per-channel weights need ``DequantizeLinear``'s ``axis`` (opset 13): an older model (paddle2onnx
    writes opset 11) is converted up first; where that conversion fails the weights are quantized per
    tensor, and the document says so."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    model = onnx.load(str(fp32))
    initializers = {i.name for i in model.graph.initializer}
    inputs = [i.name for i in model.graph.input if i.name not in initializers]
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)

    class Reader(_Reader, CalibrationDataReader):  # type: ignore[misc]
        pass

    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".quantize.") as tmp:
        source, per_channel = fp32, True
        if opset < PER_CHANNEL_OPSET:
            try:
                upgraded = onnx.version_converter.convert_version(model, PER_CHANNEL_OPSET)
                source = Path(tmp) / "opset.onnx"
                onnx.save(upgraded, str(source))
            except Exception:  # noqa: BLE001 - an operator without an adapter: per-tensor weights instead
                per_channel = False
        preprocessed = True
        try:  # shape inference and graph clean-up first, as ONNX Runtime advises (symbolic needs sympy)
            quant_pre_process(str(source), str(Path(tmp) / "pre.onnx"), skip_symbolic_shape=True)
            source = Path(tmp) / "pre.onnx"
        except Exception:  # noqa: BLE001 - a model it cannot pre-process is quantized as it is
            preprocessed = False
        partial = Path(tmp) / "int8.onnx"
        quantize_static(
            str(source),
            str(partial),
            Reader(inputs[0], calibration),
            quant_format=QuantFormat.QDQ,
            per_channel=per_channel,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
        )
        os.chmod(partial, 0o600)
        os.replace(partial, out)
    return {
        "calibration_samples": int(len(calibration)),
        "per_channel": per_channel,
        "preprocessed": preprocessed,
        "opset": max(opset, PER_CHANNEL_OPSET) if per_channel else opset,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``FP32_ONNX CALIBRATION_NPY OUT``: quantize, print the marked document (or ``{"error"}``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3:
        print("usage: python -m workbench.inference.quantize FP32_ONNX CALIBRATION_NPY OUT", file=sys.stderr)
        return 2
    watch_parent()
    fp32, calibration, out = (Path(a) for a in args)
    try:
        done = _quantize(fp32, np.load(calibration, allow_pickle=False), out)
    except Exception as exc:  # noqa: BLE001 - the reason goes back to the parent as the path's error
        emit_marked({"error": f"{type(exc).__name__}: {exc}"})
        return 1
    emit_marked(done)
    return 0


def quantize_in_child(
    fp32: Path,
    calibration: Array,
    out: Path,
    *,
    timeout_s: float = QUANTIZE_TIMEOUT_S,
    cancel: Cancel | None = None,
) -> dict[str, Any]:
    """Write ``out`` (static QDQ int8) from ``fp32``; ``RuntimeError`` with the reason when it cannot."""
    fd, name = tempfile.mkstemp(dir=out.parent, prefix=".calibration.", suffix=".npy")  # owner-only
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, np.ascontiguousarray(calibration), allow_pickle=False)
        result = run_module(
            "workbench.inference.quantize", [str(fp32), name, str(out)], timeout_s=timeout_s, cancel=cancel
        )
        document = marked_document(result, t("precision.int8.no_result"))
    except ChildCancelled:
        raise
    except ChildTimeout as exc:
        raise RuntimeError(t("precision.int8.timed_out", seconds=format_seconds(exc.seconds))) from None
    except ChildError as exc:
        how = describe_exit(exc.returncode) if exc.returncode is not None else str(exc)
        raise RuntimeError(t("precision.int8.crashed", how=how, tail=exc.output_tail or "-")) from None
    finally:
        Path(name).unlink(missing_ok=True)
    if "error" in document:
        raise RuntimeError(t("precision.int8.failed", error=str(document["error"])))
    return document


# --------------------------------------------------------------------------- the paths


def _int8_path(
    calibration: Array, fp32_ready: bool, timeout_s: float, evidence: dict[str, Any]
) -> ComparePath:
    def open_int8(ctx: PathContext) -> Runner:
        import onnxruntime

        from workbench.inference.paths.onnx_runtime import convert

        work = ctx.work_dir or ctx.prefix.parent
        fp32 = work / (ctx.prefix.name + ".onnx")  # where the onnxruntime path's conversion leaves it
        if not (fp32_ready and fp32.is_file()):
            convert(ctx)
        out = work / (ctx.prefix.name + ".int8.onnx")
        evidence.update(quantize_in_child(fp32, calibration, out, timeout_s=timeout_s, cancel=ctx.cancel))
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        session = onnxruntime.InferenceSession(str(out), options, providers=["CPUExecutionProvider"])
        input_name = session.get_inputs()[0].name

        def call(batch: Array) -> Array:
            return np.asarray(session.run(None, {input_name: np.ascontiguousarray(batch)})[0])

        return Runner(call)

    return ComparePath(order=61, label_key="precision.path.int8", open=open_int8, extra="onnx")


def _fp16_path(gpus: Sequence[PrecisionSupport]) -> ComparePath:
    def unavailable(paddle: Any) -> str | None:
        if not gpus:
            return t("precision.gpu.none_skip")
        if not gpus[0].fp16:
            return t("precision.gpu.no_fp16_skip", evidence=", ".join(gpus[0].evidence))
        return None

    def open_fp16(ctx: PathContext) -> Runner:
        from workbench.inference.paths._predictor import open_predictor

        return open_predictor(ctx, ir_optim=True, memory_optim=False, gpu=True, half=True)

    return ComparePath(
        order=56, label_key="precision.path.fp16", open=open_fp16, unavailable=unavailable, device="gpu"
    )


# --------------------------------------------------------------------------- the hook


@dataclass
class ReducedPrecision:
    """What :func:`reduced_precision` adds to a comparison."""

    paths: list[dict[str, Any]]
    findings: list[Finding]
    notes: list[str]


def reduced_precision(
    precisions: Sequence[str],
    ctx: PathContext,
    calibration: Array,
    measured: Sequence[Mapping[str, Any]],
    measure: Measure,
    *,
    timeout_s: float = QUANTIZE_TIMEOUT_S,
    cpu: PrecisionSupport | None = None,
    gpus: Sequence[PrecisionSupport] | None = None,
) -> ReducedPrecision:
    """Measure each asked-for reduced-precision path (and its float32 twin when it was not measured),
    judge it and say what the hardware can do. ``measured`` are the comparison's path documents."""
    cpu = cpu or this_cpu()
    gpus = list(gpus) if gpus is not None else gpus_support(gpus_from_paddle(ctx.paddle))
    notes = hardware_notes(cpu, gpus, precisions)
    by_name = {str(doc["name"]): doc for doc in measured}
    known = dict(ordered_paths())
    docs: list[dict[str, Any]] = []
    findings: list[Finding] = []
    for precision in precisions:
        twin = "onnxruntime" if precision == "int8" else "predictor_gpu"
        baseline = by_name.get(twin)
        if baseline is None and twin in known:
            baseline = measure(twin, known[twin], None)
            docs.append(baseline)
        evidence: dict[str, Any] = {}
        if precision == "int8":
            skip = None
            if baseline is not None and baseline["status"] in ("error", "skipped"):
                skip = t("precision.int8.no_fp32", error=str(baseline.get("error") or "-"))
            fp32_ready = baseline is not None and baseline["status"] in ("ok", "exceeds")
            name, path = INT8_PATH, _int8_path(calibration, fp32_ready, timeout_s, evidence)
        else:
            skip, name, path = None, FP16_PATH, _fp16_path(gpus)
        doc = measure(name, path, skip)
        doc.update(evidence)
        doc["hardware"] = {"cpu": cpu.to_dict(), "gpus": [g.to_dict() for g in gpus]}
        finding = _judge_path(precision, doc, baseline, cpu if precision == "int8" else None)
        docs.append(doc)
        findings.append(finding)
    return ReducedPrecision(docs, findings, notes)


def _judge_path(
    precision: str, doc: dict[str, Any], baseline: Mapping[str, Any] | None, cpu: PrecisionSupport | None
) -> Finding:
    """Replace the float32 tolerance by the gate; the finding says the ratio, the difference, the verdict."""
    doc["precision"] = precision
    doc["tolerance"] = None
    name = str(doc["name"])
    if doc["status"] == "skipped":
        return Finding(f"precision_{precision}", "info", f"{name}: {doc.get('error')}", "")
    if doc["status"] == "error":
        return Finding(
            f"precision_{precision}",
            "fail",
            t("precision.finding.error", path=name, error=str(doc.get("error"))),
            ONNX_FIX if precision == "int8" else "",
        )
    gate = judge(doc.get("top1_agreement"), doc.get("cosine"))
    ratio = latency_ratio(doc, baseline)
    doc["gate"] = gate.to_dict()
    doc["latency_ratio"] = ratio
    doc["within_tolerance"] = gate.passed
    doc["status"] = "ok" if gate.passed else "exceeds"
    if cpu is not None:
        doc["speedup_expected"] = cpu.int8
    key = max(ratio, key=lambda k: int(k.removeprefix("batch_"))) if ratio else None
    if key is None or ratio is None:
        speed = t("precision.finding.no_ratio")
    else:
        entry = ratio[key]
        speed = t(
            "precision.finding.ratio_overlap" if entry["overlap"] else "precision.finding.ratio",
            ratio=f"{entry['ratio']:.2f}",
            baseline=str(entry["baseline"]),
            batch=key.removeprefix("batch_"),
        )
    verdict = t(
        "precision.finding.gate_pass" if gate.passed else "precision.finding.gate_fail",
        measure=t(f"precision.measure.{gate.measure}"),
        value="-"
        if gate.value is None
        else f"{gate.value:.2%}"
        if gate.measure == "top1_agreement"
        else f"{gate.value:.6f}",
        threshold=f"{gate.threshold:.0%}" if gate.measure == "top1_agreement" else f"{gate.threshold}",
    )
    summary = t(
        "precision.finding.summary",
        path=name,
        speed=speed,
        diff=f"{doc.get('max_abs_diff'):.3g}" if doc.get("max_abs_diff") is not None else "-",
        verdict=verdict,
    )
    evidence = [
        f"{k}: {v}"
        for k, v in doc.items()
        if k in ("calibration_samples", "per_channel", "opset", "preprocessed")
    ]
    return Finding(
        f"precision_{precision}",
        "info" if gate.passed else "fail",
        summary,
        "" if gate.passed else t("precision.finding.gate_fix"),
        evidence,
    )


if __name__ == "__main__":
    sys.exit(main())
