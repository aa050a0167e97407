"""The model's fingerprint, ``<run>/model.json``: which parameters (names, global shapes, dtypes) a run trained.

Written once per run when the training loop has built the model — before a sharding plan splits it, so a
parallel run and its single-card baseline of the same model have the same fingerprint. Comparisons read
it (:mod:`workbench.parallel.comparable`) to refuse runs of different models instead of comparing them.
One row per parameter, in the model's own order; ``sha256`` over the rows tells equal models apart in one
string comparison.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from workbench.runs import atomic_write_text

MODEL_FILE = "model.json"
MAX_MODEL_FILE_BYTES = 16 * 1024 * 1024
"""``model.json`` holds one short row per parameter; anything bigger is not read."""


def model_fingerprint(model: Any) -> dict[str, Any]:
    """``{"sha256", "count", "numel", "params": [[name, shape, dtype], …]}`` of a built Paddle layer."""
    rows: list[list[Any]] = []
    numel = 0
    for name, param in model.named_parameters():
        shape = [int(d) for d in param.shape]
        size = 1
        for d in shape:
            size *= d
        numel += size
        rows.append([str(name), shape, str(param.dtype).replace("paddle.", "")])
    digest = hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()
    return {"sha256": digest, "count": len(rows), "numel": numel, "params": rows}


def write_model_fingerprint(run_dir: Path, model: Any) -> None:
    """Write ``<run_dir>/model.json`` (a failure to write costs only the comparison's precision)."""
    try:
        text = json.dumps(model_fingerprint(model), separators=(",", ":")) + "\n"
        atomic_write_text(run_dir / MODEL_FILE, text)
    except (OSError, TypeError, ValueError, AttributeError):
        pass


def read_model_fingerprint(run_dir: Path) -> dict[str, Any] | None:
    """The run's ``model.json``, or ``None`` when it has none (or it is unreadable)."""
    path = run_dir / MODEL_FILE
    try:
        if not path.is_file() or path.stat().st_size > MAX_MODEL_FILE_BYTES:
            return None
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(doc, dict) and isinstance(doc.get("params"), list) and isinstance(doc.get("sha256"), str)
    return doc if ok else None
