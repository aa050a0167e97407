"""The environment fingerprint written to ``run.yaml``: enough to tell two runs' setups apart.

Paddle version and commit, CUDA/cuDNN as the build reports them, the device, the seeds, thread settings
and library versions. It never contains secrets or the environment at large; host names are left out so
a run folder can be shared.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping
from importlib import metadata
from typing import Any

import numpy as np


def _dist_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def paddle_fingerprint(paddle: Any) -> dict[str, Any]:
    """What the installed Paddle build says about itself (every value a plain string or bool)."""
    version = getattr(paddle, "version", None)

    def ask(name: str) -> str | None:
        fn = getattr(version, name, None)
        try:
            return str(fn()) if callable(fn) else None
        except Exception:  # noqa: BLE001 - a missing probe is "unknown", not a failure
            return None

    return {
        "version": str(getattr(paddle, "__version__", "unknown")),
        "commit": str(getattr(version, "commit", "unknown")),
        "cuda": ask("cuda"),
        "cudnn": ask("cudnn"),
        "compiled_with_cuda": bool(paddle.is_compiled_with_cuda()),
    }


def environment_fingerprint(
    paddle: Any | None, *, device: str, seeds: Mapping[str, int], extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``environment`` block of ``run.yaml``."""
    doc: dict[str, Any] = {
        "workbench": _dist_version("paddle-workbench"),
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "numpy": np.__version__,
        "paddle": paddle_fingerprint(paddle) if paddle is not None else None,
        "device": device,
        "seeds": dict(seeds),
        "threads": {"OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"), "cpu_count": os.cpu_count()},
    }
    if extra:
        doc.update(extra)
    return doc
