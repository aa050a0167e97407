"""The identity of the preprocessing a model was trained with: one function, named and hashed.

Training, comparison and serving must feed the model the same numbers. For the built-in tasks the one
function is :func:`workbench.datasets.readers.load_rgb` (classification) or
:func:`~workbench.datasets.readers.load_grey` (text recognition), with the image size and the
normalisation as its configuration. A ``task: custom`` build owns its data; its identity is the entry
point plus ``cfg.options``. The identity is ``{"name", "config", "config_hash", "code_hash"}``:
``config_hash`` changes when a setting changes, ``code_hash`` when the function's source changes, so a
drift between the training run (recorded in every checkpoint manifest) and an export is caught by name.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

from workbench.config.training import TrainingConfig
from workbench.datasets import readers

PREPROCESS_FILE = "preprocess.json"


def _hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _code_hash(fn: Callable[..., Any]) -> str:
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        source = f"{fn.__module__}.{fn.__qualname__}"
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def shared_preprocess(cfg: TrainingConfig) -> tuple[str, Callable[..., Any] | None, dict[str, Any]]:
    """``(name, function or None, config)`` of the preprocessing ``cfg``'s task trains with."""
    if cfg.task == "image_classification":
        from workbench.training.tasks.cls import IMAGE_SIZE

        config: dict[str, Any] = {"size": [IMAGE_SIZE, IMAGE_SIZE], "mode": "RGB", "layout": "CHW"}
        fn: Callable[..., Any] = readers.load_rgb
    elif cfg.task == "text_recognition":
        from workbench.training.tasks.rec import HEIGHT, WIDTH

        config = {"size": [WIDTH, HEIGHT], "mode": "L", "layout": "CHW"}
        fn = readers.load_grey
    else:
        return f"custom:{cfg.entry}", None, {"options": dict(cfg.options)}
    config.update({"mean": readers.MEAN, "std": readers.STD, "scale": 1 / 255.0, "dtype": "float32"})
    return f"{fn.__module__}.{fn.__qualname__}", fn, config


def preprocess_identity(cfg: TrainingConfig) -> dict[str, Any]:
    """The identity record stored in checkpoint manifests and next to every export."""
    name, fn, config = shared_preprocess(cfg)
    return {
        "name": name,
        "config": config,
        "config_hash": _hash(config),
        "code_hash": _code_hash(fn) if fn is not None else None,
    }


def identity_differences(trained: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """Which parts of two identities differ (``name``, ``config_hash``, ``code_hash``); empty: same."""
    return [key for key in ("name", "config_hash", "code_hash") if trained.get(key) != current.get(key)]
