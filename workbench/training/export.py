"""Export the trained model with ``paddle.jit.save`` into ``<run_dir>/export/model``.

Paddle 3.x writes ``model.json`` (the PIR program) and ``model.pdiparams`` — no ``.pdmodel``
(docs/paddle-notes.md, "Train → inference"). ``jit.save`` also writes transformed source into
``~/.cache/paddle/to_static_tmp/<pid>``; we remove that folder (and the empty parents it needed)
afterwards when this export created them, so a training run leaves nothing in the user's home.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

EXPORT_DIR = "export"
EXPORT_PREFIX = "model"


def to_static_tmp_dir() -> Path:
    """Where ``paddle.jit`` puts its transformed code for this process (it reads ``$HOME`` each time)."""
    return Path(os.path.expanduser("~/.cache")) / "paddle" / "to_static_tmp" / str(os.getpid())


def default_input_spec(sample_input: Any, paddle: Any) -> list[Any]:
    """An ``InputSpec`` shaped like one batch of inputs, with a free batch dimension."""
    shape = [None, *list(sample_input.shape[1:])]
    return [paddle.static.InputSpec(shape, str(sample_input.dtype).replace("paddle.", ""), name="x")]


def export_model(
    model: Any, run_dir: Path, input_spec: Sequence[Any], paddle: Any, *, out_dir: Path | None = None
) -> Path:
    """Save ``model`` (in eval mode) for inference; return the path prefix (``.../export/model``).

    ``out_dir`` replaces ``<run_dir>/export`` (the comparison exports each checkpoint to its own folder).
    """
    out_dir = out_dir if out_dir is not None else run_dir / EXPORT_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix = out_dir / EXPORT_PREFIX
    tmp_dir = to_static_tmp_dir()
    # This folder and the parents jit.save may create (~/.cache/paddle/to_static_tmp/<pid>): remove
    # afterwards the ones that did not exist before, so nothing is left in the user's home.
    created = [d for d in (tmp_dir, *tmp_dir.parents[:3]) if not d.exists()]
    was_training = model.training
    model.eval()
    try:
        paddle.jit.save(model, str(prefix), input_spec=list(input_spec))
    finally:
        if was_training:
            model.train()
        if created:
            shutil.rmtree(created[0], ignore_errors=True)
            for folder in created[1:]:
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only when empty
    return prefix


def exported_files(prefix: Path) -> list[Path]:
    """The files an export wrote (for the run summary)."""
    return sorted(p for p in prefix.parent.glob(prefix.name + ".*") if p.is_file())
