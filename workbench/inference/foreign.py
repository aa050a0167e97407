"""Compare an export the workbench did not make: a ``paddle.jit.save`` output or a kit's inference model.

``compare PATH`` takes, where PATH is not a run, an export folder or prefix (:func:`find_export`):

* a ``paddle.jit.save`` prefix ``P`` — ``P.json`` (the PIR program Paddle 3.x writes) or ``P.pdmodel``
  (the legacy program), with ``P.pdiparams`` — given as ``P``, as one of its files, or as the folder
  holding it (``model.*`` there, or the folder's only prefix);
* a PaddleX / PaddleOCR inference-model folder: ``inference.json`` or ``inference.pdmodel``,
  ``inference.pdiparams`` and (optional here) ``inference.yml``, whose ``Global.model_name`` names it.

The input is ``--inputs FILE.npz`` (the array named like the program's input, or its only array) or
seeded random data shaped from the program's ``data`` op (free dimensions, ``-1``, become 1 unless
``--shape NAME=1,3,224,224`` says otherwise). The reference is ``--reference FILE.npz`` (expected
outputs: its first array), ``--reference RUN`` (the run's model rebuilt in eval mode with its checkpoint,
run on the same input), or none: then the deployed paths (``jit.load``, the Paddle Inference predictors,
ONNX Runtime when the extra is installed) are compared with the first of them that runs (the anchor).

Without a dygraph model the train-mode signal comes from the program (:func:`detect_export_train_mode`):
``paddle.jit.save`` of a layer left in train mode writes every BatchNorm as ``batch_norm`` with
``use_global_stats: false`` (an eval-mode export writes ``true``). Measured on Paddle 3.3.1 with
``mobilenet_v3_small``: jit.save sets ``is_test`` on every op either way, so ``jit.load``, the predictor
and ONNX Runtime still normalise with the running statistics and agree with dygraph eval mode to 2e-13;
dropout ops are written identically in both exports. The BatchNorm attribute is therefore the one mark
that the export was made without ``model.eval()``; it is a ``fail``: the artifact is not what an eval-mode
export writes, outputs recorded from the model in that state do not match it (dygraph train vs eval
differed by 0.40 here), and a runtime that honours the attribute normalises per batch.

A conversion paddle2onnx cannot do (an operator it has no converter for, such as ``channel_shuffle``)
skips the ``onnxruntime`` path with the reason naming the operators, unless ``--onnx`` demanded it (then
it is an error, as for a run); every other path is still measured. The export's folder belongs to the
user and is never written: the work (the input used, the ONNX file, the reports) goes to
``<workspace>/exports/<name>-<hash>/``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from workbench.i18n import t
from workbench.inference import findings as detect
from workbench.inference.engine import (
    CompareOptions,
    CompareResult,
    Prepared,
    Progress,
    accelerator_name,
    measure_path,
    paddle_on_cpu,
    path_findings,
    select_paths,
    time_calls,
)
from workbench.inference.matrix import append_rows, hardware_label
from workbench.inference.onnx_convert import CONVERT_TIMEOUT_S, ConversionFailed
from workbench.inference.ops import each_op, inventory, op_attrs, read_program
from workbench.inference.paths import ComparePath, PathContext, PathSkipped, Runner, first_output, model_file
from workbench.inference.source import (
    CompareInputError,
    LoadReport,
    RunSource,
    build_model,
    load_source,
    load_weights,
    pick_checkpoint,
    resolve_run,
)
from workbench.isolate import ChildCancelled
from workbench.runs import RunStore, make_private_dir
from workbench.training.checkpoints import CheckpointInfo

KIND_JIT = "jit_save"
KIND_FOLDER = "inference_model"
FOLDER_STEMS = ("inference", "model")
"""Prefix names looked for inside a folder: the kits' ``inference.*``, then jit.save's usual ``model.*``."""
EXPORTS_DIR = "exports"
INPUTS_FILE = "inputs.npz"
SEED = 0


@dataclass(frozen=True)
class ForeignExport:
    """The files of one export found at a user's PATH."""

    prefix: Path
    model_file: Path
    params: Path
    kind: str
    config_file: Path | None = None
    model_name: str | None = None

    @property
    def label(self) -> str:
        return self.model_name or self.prefix.parent.name or self.prefix.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "prefix": str(self.prefix),
            "model_file": str(self.model_file),
            "params": str(self.params),
            "kind": self.kind,
            "config_file": str(self.config_file) if self.config_file else None,
            "model_name": self.model_name,
        }


@dataclass(frozen=True)
class ProgramInput:
    """One ``data`` op of a PIR program: the input's name, shape (``-1`` free) and dtype."""

    name: str
    shape: list[int]
    dtype: str


@dataclass
class ForeignOptions:
    inputs: Path | None = None
    """``--inputs FILE.npz``; ``None``: seeded random data shaped from the program."""
    shapes: Sequence[str] = ()
    """``--shape [NAME=]1,3,224,224`` values."""
    reference: str | None = None
    """``--reference``: a ``.npz`` of expected outputs, or a run to rebuild the model from."""
    checkpoint: int | None = None
    """The reference run's checkpoint step (default: its newest that verifies)."""
    repeats: int = 20
    warmup: int = 2
    onnx: bool | None = None
    paths: Sequence[str] | None = None
    write_matrix: bool = True
    convert_timeout_s: float = CONVERT_TIMEOUT_S
    cancel: Callable[[], bool] | None = None


def _model_name(config_file: Path) -> str | None:
    """``Global.model_name`` of a kit's ``inference.yml`` (``None`` when it has none or is unreadable)."""
    try:
        doc = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    glob = doc.get("Global") if isinstance(doc, dict) else None
    name = glob.get("model_name") if isinstance(glob, dict) else None
    return str(name) if name else None


def _at_prefix(prefix: Path) -> ForeignExport | None:
    params = prefix.with_name(prefix.name + ".pdiparams")
    program = model_file(prefix)
    if not (program.is_file() and params.is_file()):
        return None
    config = prefix.with_name(prefix.name + ".yml")
    config_file = config if config.is_file() else None
    kind = KIND_FOLDER if prefix.name == "inference" or config_file else KIND_JIT
    name = _model_name(config_file) if config_file else None
    return ForeignExport(prefix, program, params, kind, config_file, name)


def find_export(ref: str) -> ForeignExport | None:
    """The export ``ref`` names (see the module docstring), or ``None``. A folder holding several
    exports and none named ``inference.*`` or ``model.*`` is bad input listing them."""
    path = Path(ref).expanduser()
    if path.is_dir():
        for stem in FOLDER_STEMS:
            found = _at_prefix(path / stem)
            if found is not None:
                return found
        prefixes = sorted({p.with_name(p.name.removesuffix(".pdiparams")) for p in path.glob("*.pdiparams")})
        candidates = [e for e in map(_at_prefix, prefixes) if e is not None]
        if len(candidates) > 1:
            names = ", ".join(str(e.prefix) for e in candidates)
            raise CompareInputError([t("inference.foreign.several", path=ref, prefixes=names)])
        return candidates[0] if candidates else None
    if path.suffix in (".json", ".pdmodel", ".pdiparams", ".yml"):
        path = path.with_suffix("")
    return _at_prefix(path)


def resolve_target(ref: str, store: RunStore) -> Path | ForeignExport:
    """A run folder (as :func:`~workbench.inference.source.resolve_run` finds it) or a foreign export;
    neither is bad input saying everything that was looked for."""
    try:
        return resolve_run(ref, store)
    except CompareInputError as exc:
        not_a_run = exc
    export = find_export(ref)
    if export is not None:
        return export
    if Path(ref).suffix in (".yaml", ".yml") and Path(ref).is_file():
        raise not_a_run  # a training config: its own message says what to do
    raise CompareInputError(
        [
            t("inference.foreign.neither", ref=ref, workspace=str(store.workspace)),
            t("inference.foreign.looked_for"),
        ]
    )


def program_inputs(program_file: Path) -> list[ProgramInput] | None:
    """The program's inputs from its ``data`` ops (``None`` for a legacy ``.pdmodel``, which is protobuf)."""
    if program_file.suffix != ".json":
        return None
    try:
        program = read_program(program_file)
    except ValueError as exc:
        raise CompareInputError(
            [t("inference.foreign.bad_program", path=str(program_file), error=str(exc))]
        ) from None
    out = []
    for op in each_op(program):
        if op.get("#") != "1.data":
            continue
        attrs = op_attrs(op)
        shape = attrs.get("shape")
        out.append(
            ProgramInput(
                name=str(attrs.get("name") or "x"),
                shape=[int(d) for d in shape] if isinstance(shape, list) else [],
                dtype=str(attrs.get("dtype") or "float32"),
            )
        )
    return out


def parse_shapes(values: Sequence[str], problems: list[str]) -> dict[str, list[int]]:
    """``--shape [NAME=]D,D,…`` values → ``{name or "": dims}``; each bad value is a located problem."""
    out: dict[str, list[int]] = {}
    for value in values:
        name, _, dims = value.rpartition("=")
        try:
            shape = [int(d) for d in dims.split(",")]
        except ValueError:
            shape = []
        if not shape or any(d < 1 for d in shape):
            problems.append(t("inference.foreign.bad_shape", value=value))
            continue
        out[name.strip()] = shape
    return out


def _check_against(name: str, shape: Sequence[int], dtype: str, spec: ProgramInput, origin: str) -> list[str]:
    """Problems of an input of ``shape``/``dtype`` for the program's input ``spec``."""
    problems = []
    if spec.shape and len(shape) != len(spec.shape):
        problems.append(
            t("inference.foreign.input_rank", origin=origin, name=name, shape=list(shape), want=spec.shape)
        )
    elif spec.shape:
        for axis, (want, got) in enumerate(zip(spec.shape, shape, strict=True)):
            if want >= 0 and want != got:
                problems.append(
                    t("inference.foreign.input_dim", origin=origin, name=name, axis=axis, want=want, got=got)
                )
    if dtype != spec.dtype:
        problems.append(
            t("inference.foreign.input_dtype", origin=origin, name=name, dtype=dtype, want=spec.dtype)
        )
    return problems


def _read_npz(path: Path, what: str, problems: list[str]) -> dict[str, np.ndarray[Any, Any]]:
    if not path.is_file():
        problems.append(t("inference.foreign.npz_missing", what=what, path=str(path)))
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: np.asarray(data[key]) for key in data.files}
    except (OSError, ValueError, EOFError) as exc:
        problems.append(t("inference.foreign.npz_unreadable", what=what, path=str(path), error=str(exc)))
        return {}
    if not arrays:
        problems.append(t("inference.foreign.npz_empty", what=what, path=str(path)))
    return arrays


def _random_input(spec: ProgramInput, shape: list[int]) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(SEED)
    kind = np.dtype(spec.dtype).kind if spec.dtype != "bfloat16" else "f"
    if kind == "f":
        return rng.standard_normal(shape).astype(spec.dtype)
    if kind in "iu":
        return rng.integers(0, 2, size=shape).astype(spec.dtype)
    return np.zeros(shape, dtype=spec.dtype)


def build_input(
    export: ForeignExport, specs: list[ProgramInput] | None, options: ForeignOptions
) -> tuple[str, np.ndarray[Any, Any], dict[str, Any]]:
    """``(input name, batch, how it was made)``; every problem at once as :class:`CompareInputError`."""
    problems: list[str] = []
    shapes = parse_shapes(options.shapes, problems)
    if specs is not None and len(specs) != 1:
        names = ", ".join(s.name for s in specs) or "-"
        raise CompareInputError([t("inference.foreign.inputs_count", count=len(specs), names=names)])
    spec = specs[0] if specs else None
    unknown = [n for n in shapes if n and spec is not None and n != spec.name]
    problems += [t("inference.foreign.shape_unknown_input", name=n, want=spec.name) for n in unknown if spec]
    if options.inputs is not None:
        if shapes:
            problems.append(t("inference.foreign.shape_and_inputs"))
        arrays = _read_npz(options.inputs, "--inputs", problems)
        key = spec.name if spec is not None and spec.name in arrays else next(iter(arrays), None)
        if len(arrays) > 1 and (spec is None or spec.name not in arrays):
            want = spec.name if spec else "x"
            problems.append(
                t("inference.foreign.npz_which", path=str(options.inputs), name=want, keys=", ".join(arrays))
            )
        if problems or key is None:
            raise CompareInputError(problems)
        batch = arrays[key]
        if spec is not None:
            problems += _check_against(key, batch.shape, str(batch.dtype), spec, str(options.inputs))
        if problems:
            raise CompareInputError(problems)
        return (
            (spec.name if spec else key),
            batch,
            {"source": "file", "file": str(options.inputs), "key": key},
        )
    if spec is None:
        wanted = next(iter(shapes.values()), None)
        if wanted is None:
            problems.append(t("inference.foreign.legacy_needs_shape", path=str(export.model_file)))
            raise CompareInputError(problems)
        spec = ProgramInput(next(iter(shapes)), [-1] * len(wanted), "float32")
    shape = shapes.get(spec.name) or shapes.get("") or [1 if d < 0 else d for d in spec.shape]
    problems += _check_against(spec.name, shape, spec.dtype, spec, "--shape")
    if problems:
        raise CompareInputError(problems)
    free = [axis for axis, d in enumerate(spec.shape) if d < 0]
    origin = {"source": "random", "seed": SEED, "shape": shape, "dtype": spec.dtype, "free_axes": free}
    return spec.name, _random_input(spec, shape), origin


@dataclass
class _Reference:
    """What the paths are measured against: expected outputs, a rebuilt run, or the anchor path."""

    kind: str
    """``file``, ``run`` or ``anchor``."""
    doc: dict[str, Any] = field(default_factory=dict)
    output: np.ndarray[Any, Any] | None = None
    source: RunSource | None = None
    checkpoint: CheckpointInfo | None = None
    load: LoadReport | None = None


def _plan_reference(options: ForeignOptions, store: RunStore) -> _Reference:
    """Read ``--reference`` before Paddle loads: a ``.npz`` (read now) or a run (its config and
    checkpoint resolved and verified now)."""
    ref = options.reference
    if ref is None:
        if options.checkpoint is not None:
            raise CompareInputError([t("inference.foreign.checkpoint_needs_run")])
        return _Reference("anchor")
    path = Path(ref).expanduser()
    if path.suffix.lower() == ".npz":
        problems: list[str] = []
        arrays = _read_npz(path, "--reference", problems)
        if problems:
            raise CompareInputError(problems)
        key = next(iter(arrays))
        expected = {"name": f"expected:{path.name}", "kind": "file", "file": str(path), "key": key}
        return _Reference("file", dict(expected), arrays[key])
    try:
        run_dir = resolve_run(ref, store)
    except CompareInputError:
        raise CompareInputError(
            [t("inference.foreign.bad_reference", ref=ref, workspace=str(store.workspace))]
        ) from None
    source = load_source(run_dir)
    checkpoint = pick_checkpoint(run_dir, options.checkpoint)
    doc: dict[str, Any] = {
        "name": "dygraph_eval",
        "kind": "run",
        "run": run_dir.name,
        "step": checkpoint.step,
    }
    return _Reference("run", doc, source=source, checkpoint=checkpoint)


def _run_reference(
    paddle: Any, reference: _Reference, batch: np.ndarray[Any, Any], options: ForeignOptions
) -> None:
    """Rebuild the reference run's model, load its checkpoint, eval mode, and run it on ``batch``."""
    source, checkpoint = reference.source, reference.checkpoint
    if source is None or checkpoint is None:
        return
    model = build_model(source, paddle).model
    reference.load = load_weights(model, checkpoint, paddle)
    model.eval()

    def call(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        with paddle.no_grad():
            return np.asarray(first_output(model(paddle.to_tensor(x))).numpy())

    try:
        reference.output = call(batch)
    except Exception as exc:  # noqa: BLE001 - the run's model does not take this input: say so
        raise CompareInputError(
            [
                t(
                    "inference.foreign.reference_failed",
                    run=source.run_id,
                    error=f"{type(exc).__name__}: {exc}",
                )
            ]
        ) from None
    reference.doc.update(
        {
            "mode": "eval",
            "latency": {f"batch_{len(batch)}": time_calls(call, batch, options.warmup, options.repeats)},
        }
    )


def _anchor(
    selected: list[tuple[str, ComparePath, str | None]], ctx: PathContext, batch: np.ndarray[Any, Any]
) -> tuple[str, np.ndarray[Any, Any]] | None:
    """The first path that opens and runs, and its output: what the others are compared with."""
    for name, path, skip in selected:
        if skip or (path.unavailable is not None and path.unavailable(ctx.paddle)):
            continue
        try:
            runner = path.open(ctx)
            try:
                return name, np.asarray(runner.call(batch))
            finally:
                if runner.close is not None:
                    runner.close()
        except ChildCancelled:
            raise
        except Exception:  # noqa: BLE001 - this path's own measurement reports why it failed
            continue
    return None


def _skip_unconvertible(open_path: Callable[[PathContext], Runner]) -> Callable[[PathContext], Runner]:
    """The ONNX path, with a conversion paddle2onnx cannot do reported as a skip naming the reason."""

    def opened(ctx: PathContext) -> Runner:
        try:
            return open_path(ctx)
        except ConversionFailed as exc:
            raise PathSkipped(
                t("inference.foreign.onnx_skipped", reason=str(exc)), t("inference.foreign.onnx_skipped.fix")
            ) from None

    return opened


def _select(options: ForeignOptions) -> list[tuple[str, ComparePath, str | None]]:
    """The registered paths that run an export (not ``dygraph_train``: there is no dygraph model)."""
    chosen: list[tuple[str, ComparePath, str | None]] = []
    named = set(options.paths or [])
    for name, path, skip in select_paths(CompareOptions(onnx=options.onnx, paths=options.paths)):
        if name == "dygraph_train":
            if name in named:
                chosen.append((name, path, t("inference.foreign.no_dygraph")))
            continue
        if name == "onnxruntime" and options.onnx is not True:
            path = dataclasses.replace(path, open=_skip_unconvertible(path.open))
        chosen.append((name, path, skip))
    return chosen


def detect_export_train_mode(ops: Mapping[str, Any]) -> tuple[detect.Finding | None, list[dict[str, Any]]]:
    """The mark ``jit.save`` leaves when the layer was in train mode (BatchNorm layers written with
    ``use_global_stats: false``) as a ``fail``, and the program's other train-form entries."""
    entries = [e for e in ops.get("train_form") or [] if isinstance(e, Mapping)]

    def in_norm_layer(entry: Mapping[str, Any]) -> bool:
        layer = str(entry.get("where") or "").strip("/").rsplit("/", 1)[-1]
        return entry.get("kind") == "batch_norm_train" and "Norm" in layer

    marked = [e for e in entries if in_norm_layer(e)]
    rest = [dict(e) for e in entries if not in_norm_layer(e)]
    if not marked:
        return None, rest
    total = sum(
        int(op.get("count", 0))
        for op in ops.get("ops") or []
        if str(op.get("name", "")).rstrip("_") == "batch_norm"
    )
    where = sorted({str(e.get("where")) for e in marked})
    shown = ", ".join(where[:3]) + (", …" if len(where) > 3 else "")
    finding = detect.Finding(
        "export_train_mode",
        "fail",
        t(
            "inference.foreign.finding.train_mode",
            count=len(marked),
            total=max(total, len(marked)),
            where=shown,
        ),
        t("inference.foreign.finding.train_mode.fix"),
        [f"{e.get('op')} @ {e.get('where')}: use_global_stats false" for e in marked[:20]],
    )
    return finding, rest


def _reference_mismatch(reference: _Reference, path_docs: list[dict[str, Any]]) -> detect.Finding | None:
    """Paths out of tolerance against expected outputs or a rebuilt run (a ``fail``)."""
    out = [p for p in path_docs if p["status"] == "exceeds"]
    if not out or reference.kind == "anchor":
        return None
    measured = [p for p in path_docs if p["status"] in ("ok", "exceeds")]
    worst = max(out, key=lambda p: float(p["max_abs_diff"] if p["max_abs_diff"] is not None else np.inf))
    every = len(out) == len(measured)
    key = "inference.foreign.finding.reference_" + reference.kind
    return detect.Finding(
        "reference_mismatch",
        "fail",
        t(
            key + ("_all" if every else "_some"),
            count=len(out),
            total=len(measured),
            diff=f"{worst['max_abs_diff']:.3g}" if worst["max_abs_diff"] is not None else "-",
            name=str(reference.doc.get("file") or reference.doc.get("run")),
        ),
        t(key + ".fix"),
        [
            *(f"{p['name']}: {p.get('max_abs_diff')}" for p in measured),
            t("inference.foreign.evidence.shape", shape=str(reference.doc.get("output_shape"))),
        ],
    )


def work_dir_for(store: RunStore, export: ForeignExport) -> Path:
    """``<workspace>/exports/<label>-<hash of the resolved prefix>/``."""
    digest = hashlib.sha256(str(export.prefix.resolve()).encode()).hexdigest()[:10]
    label = "".join(c if c.isalnum() or c in "-_." else "_" for c in export.label)[:40] or "export"
    return store.workspace / EXPORTS_DIR / f"{label}-{digest}"


def compare_export(
    export: ForeignExport,
    store: RunStore,
    options: ForeignOptions | None = None,
    progress: Progress | None = None,
) -> CompareResult:
    """Measure every deployed path of ``export`` against the reference; see the module docstring."""
    options = options or ForeignOptions()
    report = progress or (lambda stage, name: None)
    selected = _select(options)  # a missing extra is bad input before any slow work
    specs = program_inputs(export.model_file)
    input_name, batch, origin = build_input(export, specs, options)
    reference = _plan_reference(options, store)
    report("load", None)
    with paddle_on_cpu() as paddle:
        return _compare(
            paddle, export, store, options, selected, input_name, batch, origin, reference, report
        )


def _compare(
    paddle: Any,
    export: ForeignExport,
    store: RunStore,
    options: ForeignOptions,
    selected: list[tuple[str, ComparePath, str | None]],
    input_name: str,
    batch: np.ndarray[Any, Any],
    origin: dict[str, Any],
    reference: _Reference,
    report: Progress,
) -> CompareResult:
    work_dir = make_private_dir(work_dir_for(store, export))
    saved: dict[str, Any] = {input_name or "x": batch}
    np.savez(work_dir / INPUTS_FILE, **saved)
    ctx = PathContext(
        paddle=paddle,
        model=None,
        prefix=export.prefix,
        input_name=input_name,
        work_dir=work_dir,
        convert_timeout_s=options.convert_timeout_s,
        cancel=options.cancel,
    )
    if reference.kind == "run":
        _run_reference(paddle, reference, batch, options)
    elif reference.kind == "anchor":
        anchor = _anchor(selected, ctx, batch)
        if anchor is not None:
            reference.doc = {"name": anchor[0], "kind": "anchor"}
            reference.output = anchor[1]
    if reference.output is None:  # no path runs at all: measure them anyway, each names its error
        reference.output = np.zeros((0,), dtype=np.float32)
        reference.doc = {"name": "-", "kind": "anchor"}
    expected = reference.output
    reference.doc["output_shape"] = list(expected.shape)
    scale = max(1.0, float(np.abs(expected).max())) if expected.size else 1.0
    prep = Prepared(
        model=None,
        load=LoadReport(),
        was_training=False,
        batch=batch,
        spec=[],
        identity={},
        charset=None,
        classifier=expected.ndim == 2,
    )
    timing = CompareOptions(repeats=options.repeats, warmup=options.warmup)
    path_docs = []
    for name, path, skip in selected:
        report("path", name)
        doc = measure_path(name, path, skip, ctx, prep, expected, scale, timing)
        doc["anchor"] = reference.kind == "anchor" and name == reference.doc["name"]
        path_docs.append(doc)
    report("ops", None)
    try:
        ops = inventory(export.model_file, paddle).to_dict()
    except ValueError as exc:  # a legacy .pdmodel is protobuf, not a PIR program
        ops = {"error": str(exc)}
    found = _findings(reference, path_docs, ops)
    rows = _matrix_rows(paddle, export, work_dir, path_docs)
    written = append_rows(store.workspace, rows) if options.write_matrix else []
    report("done", None)
    notes: list[str] = []
    if origin["source"] == "file":
        notes.append(
            t(
                "inference.foreign.note.file",
                key=origin["key"],
                path=origin["file"],
                shape=str(list(batch.shape)),
            )
        )
    if origin["source"] == "random":
        notes.append(
            t("inference.foreign.note.random", shape=str(origin["shape"]), dtype=origin["dtype"], seed=SEED)
        )
    notes.append(t(f"inference.foreign.note.reference_{reference.kind}", name=str(reference.doc.get("name"))))
    return CompareResult(
        run_dir=work_dir,
        checkpoint={"step": reference.doc.get("step"), "path": None},
        export={
            "dir": str(export.prefix.parent),
            "reused": False,
            "changed": [],
            "key": None,
            "eval_mode": None,
            "input_spec": [{"name": input_name, "shape": list(batch.shape), "dtype": str(batch.dtype)}],
        },
        reference=reference.doc,
        paths=path_docs,
        findings=found,
        ops=ops,
        matrix_rows=written,
        notes=notes,
        batch={
            "size": int(len(batch)) if batch.ndim else 1,
            "shape": list(batch.shape),
            "dtype": str(batch.dtype),
        },
        foreign={**export.to_dict(), "inputs": {**origin, "saved": str(work_dir / INPUTS_FILE)}},
    )


def _findings(
    reference: _Reference, path_docs: list[dict[str, Any]], ops: dict[str, Any]
) -> list[detect.Finding]:
    found: list[detect.Finding] = []
    if reference.load is not None:
        not_loaded = detect.detect_not_loaded(reference.load)
        if not_loaded:
            found.append(not_loaded)
    train_mode, rest = detect_export_train_mode(ops)
    if train_mode is not None:
        found.append(train_mode)
    found.extend(detect.detect_program_train_ops({"train_form": rest}, [], reference.doc, path_docs))
    mismatch = _reference_mismatch(reference, path_docs)
    if mismatch is not None:
        found.append(mismatch)
    elif reference.kind == "anchor":
        divergence = detect.detect_first_divergence(path_docs)
        if divergence is not None:
            found.append(divergence)
    found.extend(path_findings(path_docs))
    onnx_ok = any(p["name"] == "onnxruntime" and p["status"] in ("ok", "exceeds") for p in path_docs)
    found.extend(detect.detect_ops(ops, onnx_converted=onnx_ok))
    return found


def _matrix_rows(
    paddle: Any, export: ForeignExport, work_dir: Path, path_docs: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One matrix row per measured path, the model named ``export:<label>``."""
    return [
        {
            "hardware": hardware_label(doc["device"], accelerator_name(paddle, doc["device"])),
            "model": f"export:{export.label}",
            "paddle_version": str(paddle.__version__),
            "path": doc["name"],
            "status": doc["status"],
            "max_diff": doc["max_abs_diff"],
            "latency_ms": doc["latency_ms"],
            "run_id": work_dir.name,
            "step": None,
            "time": time.time(),
        }
        for doc in path_docs
        if doc["status"] != "skipped"
    ]
