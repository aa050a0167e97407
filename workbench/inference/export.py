"""Export one checkpoint of a run for inference, with a sha256 manifest and the preprocessing identity.

``<run_dir>/export/step-<N>/`` holds ``model.json`` + ``model.pdiparams`` (written by
:func:`workbench.training.export.export_model`, which switches the model to eval mode first),
``preprocess.json`` (the identity of the preprocessing the model expects) and ``manifest.json`` (sha256
and size of every other file, the checkpoint it came from, the ``InputSpec``, ``eval_mode: true``). The
manifest has the checkpoint manifest's shape, so :func:`workbench.training.checkpoints.verify_checkpoint`
checks an export too. An existing export of the same checkpoint is reused only when it verifies and was
made from the same weights; one that no longer verifies is bad input (the user decides what to do with it).
The training loop's own export (``export/model.*``) gets the same two files through
:func:`write_export_records`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.inference.preprocess import PREPROCESS_FILE
from workbench.runs import atomic_write_text
from workbench.training.checkpoints import MANIFEST, CheckpointInfo, sha256_file, verify_checkpoint
from workbench.training.export import EXPORT_DIR, EXPORT_PREFIX, export_model, exported_files

EXPORT_FORMAT = 1


@dataclass(frozen=True)
class ExportInfo:
    """An export folder that verifies."""

    directory: Path
    prefix: Path
    manifest: dict[str, Any]
    reused: bool

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


def write_export_records(
    prefix: Path,
    *,
    step: int,
    preprocess: dict[str, Any],
    input_spec: Sequence[Any],
    checkpoint: CheckpointInfo | None,
    paddle_version: str,
) -> dict[str, Any]:
    """Write ``preprocess.json`` then ``manifest.json`` (sha256 of every file) next to an export."""
    directory = prefix.parent
    atomic_write_text(directory / PREPROCESS_FILE, json.dumps(preprocess, indent=2, sort_keys=True) + "\n")
    files = {p.name: {"sha256": sha256_file(p), "bytes": p.stat().st_size} for p in exported_files(prefix)}
    files[PREPROCESS_FILE] = {
        "sha256": sha256_file(directory / PREPROCESS_FILE),
        "bytes": (directory / PREPROCESS_FILE).stat().st_size,
    }
    source_weights = None
    if checkpoint is not None:
        entry = checkpoint.manifest.get("files", {}).get("model.pdparams", {})
        source_weights = entry.get("sha256") if isinstance(entry, dict) else None
    manifest = {
        "format": EXPORT_FORMAT,
        "step": step,
        "created": time.time(),
        "eval_mode": True,
        "checkpoint": str(checkpoint.path) if checkpoint is not None else None,
        "checkpoint_weights_sha256": source_weights,
        "input_spec": spec_record(input_spec),
        "paddle_version": paddle_version,
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
) -> ExportInfo:
    """Export ``model`` (weights of ``checkpoint`` already loaded) into ``export/step-<N>/``."""
    directory = export_dir_for(run_dir, checkpoint.step)
    prefix = directory / EXPORT_PREFIX
    if (directory / MANIFEST).exists():
        problems = verify_checkpoint(directory)
        if problems:
            raise ExportInvalid(directory, problems)
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        weights = checkpoint.manifest.get("files", {}).get("model.pdparams", {}).get("sha256")
        if manifest.get("checkpoint_weights_sha256") == weights and weights is not None:
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
    )
    return ExportInfo(directory, written, manifest, reused=False)


class ExportInvalid(Exception):
    """An export folder whose files no longer match its manifest."""

    def __init__(self, directory: Path, problems: list[str]) -> None:
        super().__init__(t("inference.input.export_invalid", path=str(directory)))
        self.directory = directory
        self.problems = problems
