"""Export one checkpoint of a run for inference, with a sha256 manifest and the preprocessing identity.

``<run_dir>/export/step-<N>/`` holds ``model.json`` + ``model.pdiparams`` (written by
:func:`workbench.training.export.export_model`, which switches the model to eval mode first),
``preprocess.json`` (the identity of the preprocessing the model expects) and ``manifest.json`` (sha256
and size of every other file, the checkpoint it came from, the ``InputSpec``, ``eval_mode: true``). The
manifest has the checkpoint manifest's shape, so :func:`workbench.training.checkpoints.verify_checkpoint`
checks an export too.

The manifest's ``key`` names everything that made the export, each part hashed: ``weights`` (the
checkpoint's ``model.pdparams``), ``model_code`` (the files that define the model:
:func:`workbench.inference.code_identity.model_code`, listed under ``model_code.files`` so a server can
re-check them), ``preprocess`` (name, configuration and code of the preprocessing), ``paddle`` (the
version) and ``options`` (``InputSpec``, eval mode, export format). An existing export of the same
checkpoint is reused only when it verifies and every part of its key is the same as now; otherwise it
is exported again and :attr:`ExportInfo.changed` says which parts differed. One that no longer verifies
is bad input (the user decides what to do with it). The training loop's own export (``export/model.*``)
gets the same two files through :func:`write_export_records`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.config.training import TrainingConfig
from workbench.i18n import t
from workbench.inference.code_identity import model_code, short_hash
from workbench.inference.preprocess import PREPROCESS_FILE, entry_function
from workbench.runs import atomic_write_text
from workbench.training.checkpoints import MANIFEST, CheckpointInfo, sha256_file, verify_checkpoint
from workbench.training.export import EXPORT_DIR, EXPORT_PREFIX, export_model, exported_files

EXPORT_FORMAT = 2
KEY_PARTS = ("weights", "model_code", "preprocess", "paddle", "options")
"""The parts of an export's key, in the order a difference is reported."""


@dataclass(frozen=True)
class ExportInfo:
    """An export folder that verifies."""

    directory: Path
    prefix: Path
    manifest: dict[str, Any]
    reused: bool
    changed: tuple[str, ...] = ()
    """Why an existing export was not reused: the key parts that differed (``key`` when it had none)."""

    @property
    def model_file(self) -> Path:
        return self.prefix.with_suffix(".json")


def spec_record(input_spec: Sequence[Any]) -> list[dict[str, Any]]:
    """``InputSpec`` objects as JSON (name, shape with ``null`` for free dims, dtype)."""
    out = []
    for spec in input_spec:
        shape = [None if d is None or int(d) < 0 else int(d) for d in spec.shape]
        out.append({"name": spec.name, "shape": shape, "dtype": str(spec.dtype).replace("paddle.", "")})
    return out


def _weights_sha(checkpoint: CheckpointInfo | None) -> str | None:
    if checkpoint is None:
        return None
    entry = checkpoint.manifest.get("files", {}).get("model.pdparams", {})
    return entry.get("sha256") if isinstance(entry, dict) else None


def export_key(
    *,
    weights: str | None,
    code: dict[str, Any],
    preprocess: dict[str, Any],
    input_spec: Sequence[Any],
    paddle_version: str,
) -> dict[str, Any]:
    """``{"parts": {part: hash}, "hash"}``: everything that made an export (see the module docstring)."""
    parts = {
        "weights": weights,
        "model_code": code.get("hash"),
        "preprocess": short_hash(
            [preprocess.get("name"), preprocess.get("config_hash"), preprocess.get("code_hash")]
        ),
        "paddle": paddle_version,
        "options": short_hash(
            {"input_spec": spec_record(input_spec), "eval_mode": True, "format": EXPORT_FORMAT}
        ),
    }
    return {"parts": parts, "hash": short_hash(parts)}


def key_differences(recorded: Any, current: dict[str, Any]) -> list[str]:
    """The parts of ``current`` (an :func:`export_key`) that ``recorded`` differs in; ``["key"]`` when
    nothing usable was recorded (an export made before keys)."""
    parts = recorded.get("parts") if isinstance(recorded, dict) else None
    if not isinstance(parts, dict):
        return ["key"]
    return [part for part in KEY_PARTS if parts.get(part) != current["parts"].get(part)]


def code_of(model: Any, cfg: TrainingConfig, config_dir: Path | None = None) -> dict[str, Any]:
    """:func:`~workbench.inference.code_identity.model_code` of ``model`` built from ``cfg`` (a custom
    task's ``build`` function is part of the code that made it)."""
    extra = [entry_function(cfg.entry, config_dir)] if cfg.task == "custom" and cfg.entry else []
    return model_code(model, extra)


def write_export_records(
    prefix: Path,
    *,
    step: int,
    preprocess: dict[str, Any],
    input_spec: Sequence[Any],
    checkpoint: CheckpointInfo | None,
    paddle_version: str,
    code: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``preprocess.json`` then ``manifest.json`` (sha256 of every file, the key) next to an export.

    ``code`` is :func:`~workbench.inference.code_identity.model_code` of the exported model.
    """
    directory = prefix.parent
    atomic_write_text(directory / PREPROCESS_FILE, json.dumps(preprocess, indent=2, sort_keys=True) + "\n")
    files = {p.name: {"sha256": sha256_file(p), "bytes": p.stat().st_size} for p in exported_files(prefix)}
    files[PREPROCESS_FILE] = {
        "sha256": sha256_file(directory / PREPROCESS_FILE),
        "bytes": (directory / PREPROCESS_FILE).stat().st_size,
    }
    source_weights = _weights_sha(checkpoint)
    code = code or {"files": {}, "hash": None}
    manifest = {
        "format": EXPORT_FORMAT,
        "step": step,
        "created": time.time(),
        "eval_mode": True,
        "checkpoint": str(checkpoint.path) if checkpoint is not None else None,
        "checkpoint_weights_sha256": source_weights,
        "input_spec": spec_record(input_spec),
        "paddle_version": paddle_version,
        "model_code": code,
        "key": export_key(
            weights=source_weights,
            code=code,
            preprocess=preprocess,
            input_spec=input_spec,
            paddle_version=paddle_version,
        ),
        "files": files,
    }
    atomic_write_text(directory / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    return manifest


def export_dir_for(run_dir: Path, step: int) -> Path:
    return run_dir / EXPORT_DIR / f"step-{step}"


def export_checkpoint(
    model: Any,
    run_dir: Path,
    checkpoint: CheckpointInfo,
    input_spec: Sequence[Any],
    preprocess: dict[str, Any],
    paddle: Any,
    code: dict[str, Any],
) -> ExportInfo:
    """Export ``model`` (weights of ``checkpoint`` already loaded) into ``export/step-<N>/``, or reuse
    the export there when its key is the current one. ``code``: :func:`code_of` the model."""
    directory = export_dir_for(run_dir, checkpoint.step)
    prefix = directory / EXPORT_PREFIX
    changed: list[str] = []
    if (directory / MANIFEST).exists():
        problems = verify_checkpoint(directory)
        if problems:
            raise ExportInvalid(directory, problems)
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        key = export_key(
            weights=_weights_sha(checkpoint),
            code=code,
            preprocess=preprocess,
            input_spec=input_spec,
            paddle_version=str(paddle.__version__),
        )
        changed = key_differences(manifest.get("key"), key)
        if not changed and key["parts"]["weights"] is not None:
            return ExportInfo(directory, prefix, manifest, reused=True)
    directory.mkdir(parents=True, exist_ok=True)
    written = export_model(model, run_dir, input_spec, paddle, out_dir=directory)
    manifest = write_export_records(
        written,
        step=checkpoint.step,
        preprocess=preprocess,
        input_spec=input_spec,
        checkpoint=checkpoint,
        paddle_version=str(paddle.__version__),
        code=code,
    )
    return ExportInfo(directory, written, manifest, reused=False, changed=tuple(changed))


class ExportInvalid(Exception):
    """An export folder whose files no longer match its manifest."""

    def __init__(self, directory: Path, problems: list[str]) -> None:
        super().__init__(t("inference.input.export_invalid", path=str(directory)))
        self.directory = directory
        self.problems = problems
