"""The comparison: one preprocessed validation batch through every path, against dygraph in eval mode.

:func:`run_comparison` resolves the run and checkpoint, rebuilds the model and loads the weights by
name, switches the model to eval mode explicitly (``model.eval()``: the reference and the export both
need it — said in the result), exports the checkpoint with its ``InputSpec``, manifest and preprocessing
identity, runs each registered path (:mod:`workbench.inference.paths`) on the same batch and measures
differences, agreement, latency (median and p90 after warm-up, at batch 1 and the run's batch size),
load time and memory (the process's RSS growth from opening the path to after its first call — a lower
bound on what the path holds, since freed memory is reused). Then the pitfall detectors
(:mod:`workbench.inference.findings`) read the evidence, the operator inventory is taken and the
workspace matrix gains a row per path. Bad input raises :class:`CompareInputError` (exit code 2).

It imports Paddle (2-3 s), exports and opens predictors in the calling process, and runs for seconds;
paddle2onnx runs in a child process (:mod:`workbench.inference.onnx_convert`), so its abort is the
``onnxruntime`` path's error. A long-lived caller that must survive any native crash (the TUI) runs the
whole comparison in a child instead (:mod:`workbench.inference.isolated`).
"""

from __future__ import annotations

import importlib.util
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from workbench.i18n import t
from workbench.inference import findings as detect
from workbench.inference.export import ExportInfo, ExportInvalid, code_of, export_checkpoint
from workbench.inference.matrix import append_rows, hardware_label
from workbench.inference.metrics import diff_stats, histogram, percentile_ms, string_agreement, top1_agreement
from workbench.inference.onnx_convert import CONVERT_TIMEOUT_S
from workbench.inference.ops import inventory
from workbench.inference.paths import ComparePath, PathContext, PathSkipped, first_output, ordered_paths
from workbench.inference.preprocess import preprocess_identity
from workbench.inference.source import (
    CompareInputError,
    LoadReport,
    RunSource,
    build_model,
    charset_of,
    input_batch,
    load_source,
    load_weights,
    pick_checkpoint,
    resolve_run,
)
from workbench.isolate import ChildCancelled
from workbench.runs import RunStore
from workbench.training.checkpoints import CheckpointInfo

Progress = Callable[[str, str | None], None]
"""``progress(stage, path_name or None)``: stages ``load``, ``export``, ``path``, ``ops``, ``done``."""

ONNX_FIX = "pip install 'paddle-workbench[onnx]'"


@dataclass
class CompareOptions:
    checkpoint: int | None = None
    repeats: int = 20
    warmup: int = 2
    batch_size: int | None = None
    """Run batch size for the comparison (default: the run's ``train.batch_size``, at most the data)."""
    onnx: bool | None = None
    """``True`` requires the ``onnx`` extra (missing → bad input), ``None`` uses it when installed."""
    paths: Sequence[str] | None = None
    write_matrix: bool = True
    convert_timeout_s: float = CONVERT_TIMEOUT_S
    """Time limit of the paddle2onnx conversion, which runs in a child process."""
    cancel: Callable[[], bool] | None = None
    """Whether the caller gave up: a path's child process (the conversion) is then killed and
    :class:`~workbench.isolate.ChildCancelled` ends the comparison."""
    precision: Sequence[str] = ()
    """Reduced-precision paths to add beside float32 (``int8``, ``fp16``: :mod:`workbench.inference.quantize`)."""


@dataclass
class CompareResult:
    """Everything one comparison measured; :meth:`to_dict` is the ``compare --json`` document."""

    run_dir: Path
    checkpoint: dict[str, Any]
    export: dict[str, Any]
    reference: dict[str, Any]
    paths: list[dict[str, Any]]
    findings: list[detect.Finding]
    ops: dict[str, Any]
    matrix_rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    batch: dict[str, Any] = field(default_factory=dict)
    foreign: dict[str, Any] | None = None
    """An export the workbench did not make (:mod:`workbench.inference.foreign`): its files, kind and
    inputs; ``run_dir`` is then its work folder in the workspace."""

    @property
    def failed(self) -> bool:
        """A non-deliberate path out of tolerance or broken, or a ``fail`` finding."""
        bad_path = any(p["status"] in ("exceeds", "error") and not p["deliberate"] for p in self.paths)
        return bad_path or any(f.severity == "fail" for f in self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_dir": str(self.run_dir),
            "checkpoint": self.checkpoint,
            "export": self.export,
            "batch": self.batch,
            "reference": self.reference,
            "paths": self.paths,
            "findings": [f.to_dict() for f in self.findings],
            "ops": self.ops,
            "matrix_rows": self.matrix_rows,
            "notes": self.notes,
            "foreign": self.foreign,
            "ok": not self.failed,
        }


def _rss() -> int:
    return int(psutil.Process().memory_info().rss)


def time_calls(call: Callable[[Any], Any], batch: Any, warmup: int, repeats: int) -> dict[str, float]:
    for _ in range(warmup):
        call(batch)
    samples = []
    for _ in range(max(repeats, 1)):
        start = time.perf_counter()
        call(batch)
        samples.append(time.perf_counter() - start)
    return percentile_ms(samples)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def accelerator_name(paddle: Any, device: str) -> str | None:
    if device != "gpu":
        return None
    try:
        return str(paddle.device.cuda.get_device_name(0))
    except Exception:  # noqa: BLE001 - a name is nice to have, never a reason to fail
        return None


def select_paths(options: CompareOptions) -> list[tuple[str, ComparePath, str | None]]:
    """``(name, path, skip reason or None)`` in the guide's order."""
    chosen = []
    problems = []
    known = dict(ordered_paths())
    for name in options.paths or []:
        if name not in known:
            problems.append(t("inference.input.unknown_path", name=name, known=", ".join(known)))
    for name, path in known.items():
        if options.paths and name not in options.paths:
            continue
        missing = [m for m in path.modules if importlib.util.find_spec(m) is None]
        skip = None
        if missing:
            wanted = options.onnx is True or bool(options.paths and name in options.paths)
            if path.extra == "onnx" and options.onnx is False:
                continue
            fix = ONNX_FIX if path.extra == "onnx" else f"pip install {' '.join(missing)}"
            if wanted:
                problems.append(
                    t("inference.input.extra_missing", path=name, modules=", ".join(missing), fix=fix)
                )
            skip = t("inference.path.skipped_extra", modules=", ".join(missing), fix=fix)
        elif path.extra == "onnx" and options.onnx is False:
            continue
        chosen.append((name, path, skip))
    if options.precision:
        from workbench.inference.quantize import precision_problems

        problems.extend(precision_problems(options.precision, options.onnx, importlib.util.find_spec))
    if problems:
        raise CompareInputError(problems)
    return chosen


def run_comparison(
    ref: str | Path, store: RunStore, options: CompareOptions | None = None, progress: Progress | None = None
) -> CompareResult:
    """Compare every path for one run and checkpoint; see the module docstring."""
    options = options or CompareOptions()
    report = progress or (lambda stage, name: None)
    selected = select_paths(options)  # a missing extra is bad input before any slow work
    run_dir = resolve_run(str(ref), store)
    checkpoint = pick_checkpoint(run_dir, options.checkpoint)
    source = load_source(run_dir)
    report("load", None)
    with paddle_on_cpu() as paddle:
        return _compare(paddle, run_dir, source, checkpoint, selected, options, store, report)


@contextmanager
def paddle_on_cpu() -> Iterator[Any]:
    """Paddle, imported (a failure is bad input whose message says how to install it), with the device
    set to CPU for the block: the CPU paths compare against a CPU reference. ``set_device`` is
    process-wide, so what was set before is put back."""
    from workbench.training.runtime import import_paddle

    try:
        paddle = import_paddle()
    except Exception as exc:  # noqa: BLE001 - ImportError, a missing shared library
        raise CompareInputError(
            [t("inference.input.no_paddle", error=f"{type(exc).__name__}: {exc}")]
        ) from None
    previous_device = paddle.get_device()
    paddle.set_device("cpu")
    try:
        yield paddle
    finally:
        paddle.set_device(previous_device)


@dataclass
class Prepared:
    """The model in eval mode, its weights' load report and the one batch every path gets."""

    model: Any
    load: LoadReport
    was_training: bool
    batch: np.ndarray[Any, Any]
    spec: list[Any]
    identity: dict[str, Any]
    charset: list[str] | None
    classifier: bool
    """Whether outputs are class scores (top-1 agreement is measured)."""
    code: dict[str, Any] = field(default_factory=dict)
    """The code that defines the model (:func:`~workbench.inference.export.code_of`): part of the export key."""
    calibration: np.ndarray[Any, Any] | None = None
    """Validation inputs an int8 path calibrates on (``--precision``); ``None``: the batch."""


def _compare(
    paddle: Any,
    run_dir: Path,
    source: RunSource,
    checkpoint: CheckpointInfo,
    selected: list[tuple[str, ComparePath, str | None]],
    options: CompareOptions,
    store: RunStore,
    report: Progress,
) -> CompareResult:
    """Prepare, export, measure the reference and each path, read the pitfalls, record the matrix."""
    prep = _prepare(paddle, run_dir, source, checkpoint, options)
    notes = [t("inference.note.eval_switched", was="train" if prep.was_training else "eval")]
    report("export", None)
    exported = _export(paddle, run_dir, checkpoint, prep)
    notes.append(t("inference.note.exported", path=str(exported.directory), reused=_reused_text(exported)))
    reference, ref_doc = _measure_reference(paddle, prep, options)
    scale = max(1.0, float(np.abs(reference).max()))
    ctx = PathContext(
        paddle=paddle,
        model=prep.model,
        prefix=exported.prefix,
        input_name=str(getattr(prep.spec[0], "name", None) or "x"),
        convert_timeout_s=options.convert_timeout_s,
        cancel=options.cancel,
    )
    path_docs: list[dict[str, Any]] = []
    for name, path, skip in selected:
        report("path", name)
        path_docs.append(measure_path(name, path, skip, ctx, prep, reference, scale, options))
    report("ops", None)
    try:  # before the pitfalls: they read the program's operators before guessing
        ops = inventory(exported.model_file, paddle).to_dict()
    except ValueError as exc:
        ops = {"error": str(exc)}
    found = _pitfalls(prep, ctx, checkpoint, exported, path_docs, ops, ref_doc)
    onnx_ok = any(p["name"] == "onnxruntime" and p["status"] in ("ok", "exceeds") for p in path_docs)
    found.extend(detect.detect_ops(ops, onnx_converted=onnx_ok))
    if options.precision:  # after the pitfalls: reduced precision differs by design, judged by its gate
        from workbench.inference.quantize import reduced_precision

        def measure(name: str, path: ComparePath, skip: str | None) -> dict[str, Any]:
            report("path", name)
            return measure_path(name, path, skip, ctx, prep, reference, scale, options)

        calibration = prep.calibration if prep.calibration is not None else prep.batch
        extra = reduced_precision(
            options.precision, ctx, calibration, path_docs, measure, timeout_s=options.convert_timeout_s
        )
        path_docs.extend(extra.paths)
        found.extend(extra.findings)
        notes.extend(extra.notes)
    rows = _matrix_rows(paddle, source, run_dir, checkpoint, path_docs)
    written = append_rows(store.workspace, rows) if options.write_matrix else []
    report("done", None)
    batch = prep.batch
    return CompareResult(
        run_dir=run_dir,
        checkpoint={
            "step": checkpoint.step,
            "path": str(checkpoint.path),
            "loaded": len(prep.load.loaded),
            "not_loaded": not prep.load.clean,
        },
        export={
            "dir": str(exported.directory),
            "reused": exported.reused,
            "changed": list(exported.changed),
            "key": exported.manifest.get("key"),
            "eval_mode": True,
            "input_spec": exported.manifest.get("input_spec"),
            "preprocess": prep.identity,
            "manifest": str(exported.directory / "manifest.json"),
        },
        reference=ref_doc,
        paths=path_docs,
        findings=found,
        ops=ops,
        matrix_rows=written,
        notes=notes,
        batch={"size": int(len(batch)), "shape": list(batch.shape), "dtype": str(batch.dtype)},
    )


def _prepare(
    paddle: Any, run_dir: Path, source: RunSource, checkpoint: CheckpointInfo, options: CompareOptions
) -> Prepared:
    """Rebuild the model, load the checkpoint by name, switch to eval mode and take the batch."""
    from workbench.training.export import default_input_spec

    parts = build_model(source, paddle)
    model = parts.model
    load = load_weights(model, checkpoint, paddle)
    was_training = bool(model.training)
    model.eval()
    batch = input_batch(parts, options.batch_size or source.cfg.train.batch_size)
    if batch.ndim == 0 or batch.shape[0] == 0:
        raise CompareInputError([t("inference.input.no_batch", run=str(run_dir))])
    spec = (
        list(parts.input_spec)
        if parts.input_spec is not None
        else default_input_spec(paddle.to_tensor(batch[:1]), paddle)
    )
    charset = charset_of(parts) if source.cfg.task != "image_classification" else None
    classifier = source.cfg.task == "image_classification" or (
        charset is None and source.cfg.task == "custom"
    )
    identity = preprocess_identity(source.cfg, source.config_dir)
    code = code_of(model, source.cfg, source.config_dir)
    prepared = Prepared(model, load, was_training, batch, spec, identity, charset, classifier, code)
    if options.precision:
        from workbench.inference.quantize import CALIBRATION_SAMPLES

        prepared.calibration = input_batch(parts, CALIBRATION_SAMPLES)
    return prepared


def _reused_text(exported: ExportInfo) -> str:
    """``yes``, ``no`` (a first export) or ``no (model code changed, …)``."""
    if exported.reused:
        return t("inference.export.reused_yes")
    if not exported.changed:
        return t("inference.export.reused_no")
    reasons = ", ".join(t(f"inference.export.changed.{part}") for part in exported.changed)
    return t("inference.export.reused_no_because", reasons=reasons)


def _export(paddle: Any, run_dir: Path, checkpoint: CheckpointInfo, prep: Prepared) -> ExportInfo:
    """Export the checkpoint (or reuse a verified export); a model that cannot be exported is bad input."""
    try:
        return export_checkpoint(prep.model, run_dir, checkpoint, prep.spec, prep.identity, paddle, prep.code)
    except ExportInvalid as exc:
        raise CompareInputError(
            [str(exc), *exc.problems, t("inference.input.export_invalid.fix", path=str(exc.directory))]
        ) from None
    except Exception as exc:  # noqa: BLE001 - jit.save cannot trace this model: the reason, not a traceback
        raise CompareInputError(
            [t("inference.input.export_failed", error=f"{type(exc).__name__}: {exc}")]
        ) from None


def _measure_reference(
    paddle: Any, prep: Prepared, options: CompareOptions
) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
    """The reference output (dygraph, eval mode) and its document: shape, latency, decoded text."""
    batch, one = prep.batch, prep.batch[:1]

    def reference_call(x: Any) -> Any:
        with paddle.no_grad():
            return np.asarray(first_output(prep.model(paddle.to_tensor(x))).numpy())

    reference = reference_call(batch)
    again = reference_call(batch)  # a second call: random ops in forward make eval mode non-repeatable
    repeatable = again.shape == reference.shape and bool(np.array_equal(again, reference, equal_nan=True))
    ref_doc: dict[str, Any] = {
        "name": "dygraph_eval",
        "mode": "eval",
        "repeatable": repeatable,
        "repeat_max_abs_diff": None if repeatable else float(np.abs(again - reference).max()),
        "output_shape": list(reference.shape),
        "latency_ms": time_calls(reference_call, batch, options.warmup, options.repeats)["median"],
        "latency": {
            "batch_1": time_calls(reference_call, one, options.warmup, options.repeats),
            f"batch_{len(batch)}": time_calls(reference_call, batch, options.warmup, options.repeats),
        },
    }
    if prep.charset is not None and reference.ndim == 3:
        from workbench.inference.metrics import ctc_greedy_decode

        ref_doc["decoded"] = ctc_greedy_decode(reference, prep.charset)
    return reference, ref_doc


def measure_path(
    name: str,
    path: ComparePath,
    skip: str | None,
    ctx: PathContext,
    prep: Prepared,
    reference: np.ndarray[Any, Any],
    scale: float,
    options: CompareOptions,
) -> dict[str, Any]:
    """One path's document: skipped (why), broken (the error) or measured against the reference."""
    doc: dict[str, Any] = {
        "name": name,
        "description": t(path.label_key),
        "deliberate": path.deliberate,
        "tolerance": path.tolerance * scale,
        "max_abs_diff": None,
        "max_rel_diff": None,
        "cosine": None,
        "top1_agreement": None,
        "latency_ms": None,
        "within_tolerance": None,
        "status": "skipped" if skip else "ok",
    }
    if not skip and path.unavailable is not None:
        skip = path.unavailable(ctx.paddle)
    doc["device"] = path.device
    if skip:
        doc["status"] = "skipped"
        doc["error"] = skip
        return doc
    batch, one = prep.batch, prep.batch[:1]
    try:
        rss0 = _rss()
        start = time.perf_counter()
        runner = path.open(ctx)
        doc["load_s"] = time.perf_counter() - start
        try:
            output = runner.call(batch)
            doc["rss_delta_mib"] = round((_rss() - rss0) / 2**20, 2)
            latency = {
                "batch_1": time_calls(runner.call, one, options.warmup, options.repeats),
                f"batch_{len(batch)}": time_calls(runner.call, batch, options.warmup, options.repeats),
            }
        finally:
            if runner.close is not None:
                runner.close()
    except ChildCancelled:
        raise  # the caller gave up: not a result of this path
    except PathSkipped as exc:  # cannot run this model, for a reason it names
        doc["status"] = "skipped"
        doc["error"] = str(exc)
        doc["fix"] = exc.fix
        return doc
    except Exception as exc:  # noqa: BLE001 - a path that cannot run is a result, named with its reason
        doc["status"] = "error"
        doc["error"] = f"{type(exc).__name__}: {exc}".strip()
        return doc
    stats = diff_stats(output, reference)
    doc.update({k: _finite(v) for k, v in stats.items()})
    doc["latency"] = latency
    doc["latency_ms"] = latency[f"batch_{len(batch)}"]["median"]
    within = output.shape == reference.shape and stats["max_abs_diff"] <= path.tolerance * scale
    doc["within_tolerance"] = bool(within)
    doc["status"] = "ok" if within else "exceeds"
    charset = prep.charset
    if charset is not None and output.ndim == 3 and output.shape == reference.shape:
        agreement, decoded = string_agreement(output, reference, charset)
        doc["string_agreement"] = agreement
        doc["decoded"] = decoded
    if prep.classifier or charset is not None:
        doc["top1_agreement"] = top1_agreement(output, reference)
    doc["histogram"] = histogram(output, reference) if output.shape == reference.shape else None
    return doc


def _pitfalls(
    prep: Prepared,
    ctx: PathContext,
    checkpoint: CheckpointInfo,
    exported: ExportInfo,
    path_docs: list[dict[str, Any]],
    ops: dict[str, Any],
    ref_doc: dict[str, Any],
) -> list[detect.Finding]:
    """What the evidence says went wrong: weights not loaded, train-form operators in the exported
    program, train mode, moved BN statistics, preprocessing, input spec, the first diverging path, and
    each path that broke or was skipped."""
    found: list[detect.Finding] = []
    not_loaded = detect.detect_not_loaded(prep.load)
    if not_loaded:
        found.append(not_loaded)
    layers = detect.train_sensitive_layers(prep.model)
    program = detect.detect_program_train_ops(ops, layers, ref_doc, path_docs)
    found.extend(program)
    train_doc = next((p for p in path_docs if p["name"] == "dygraph_train"), None)
    found.append(
        detect.detect_train_mode(
            layers,
            train_doc.get("max_abs_diff") if train_doc else None,
            prep.was_training,
            program_explained=bool(program),
        )
    )
    moved = detect.detect_bn_moved(ctx.notes.get("bn_stats_moved") or {})
    if moved:
        found.append(moved)
    found.append(detect.detect_preprocess(checkpoint.manifest.get("preprocess"), prep.identity))
    spec_finding = detect.detect_input_spec(exported.manifest.get("input_spec") or [], prep.batch)
    if spec_finding:
        found.append(spec_finding)
    explained = next((f for f in program if f.severity == "fail"), None)
    divergence = detect.detect_first_divergence(path_docs, explained)
    if divergence:
        found.append(divergence)
    found.extend(path_findings(path_docs))
    return found


def path_findings(path_docs: list[dict[str, Any]]) -> list[detect.Finding]:
    """A ``path_error`` (fail) for each path that broke, a ``path_skipped`` (info) for each skipped."""
    found: list[detect.Finding] = []
    for doc in path_docs:
        if doc["status"] == "error":
            found.append(
                detect.Finding(
                    "path_error",
                    "fail",
                    t("inference.finding.path_error", path=doc["name"], error=doc["error"]),
                    t("inference.finding.path_error.fix"),
                    [doc["error"]],
                )
            )
        elif doc["status"] == "skipped":
            fix = doc["fix"] if "fix" in doc else ONNX_FIX if doc["name"] == "onnxruntime" else ""
            found.append(detect.Finding("path_skipped", "info", f"{doc['name']}: {doc['error']}", fix))
    return found


def _matrix_rows(
    paddle: Any, source: RunSource, run_dir: Path, checkpoint: CheckpointInfo, path_docs: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The workspace hardware matrix's rows: one per measured (not skipped) path."""
    model_label = (
        f"{source.cfg.task}:{source.cfg.model.name}"
        if source.cfg.task != "custom"
        else f"custom:{source.cfg.entry}"
    )
    rows = []
    for doc in path_docs:
        if doc["status"] == "skipped":
            continue  # not measured here: no row
        rows.append(
            {
                "hardware": hardware_label(doc["device"], accelerator_name(paddle, doc["device"])),
                "model": model_label,
                "paddle_version": str(paddle.__version__),
                "path": doc["name"],
                "status": doc["status"],
                "max_diff": doc["max_abs_diff"],
                "latency_ms": doc["latency_ms"],
                "run_id": run_dir.name,
                "step": checkpoint.step,
                "time": time.time(),
            }
        )
    return rows
