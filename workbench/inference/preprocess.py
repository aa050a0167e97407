"""The identity of the preprocessing a model was trained with: one function, named and hashed.

Training, comparison and serving must feed the model the same numbers. For the built-in tasks the one
function is :func:`workbench.datasets.readers.load_rgb` (classification) or
:func:`~workbench.datasets.readers.load_grey` (text recognition), with the image size and the
normalisation as its configuration. A ``task: custom`` build owns its data; its identity is the entry
point, ``cfg.options`` as its configuration and, as its code, the source of the entry function and of
everything of the user's it references — dataset classes, transform functions, constants such as a
mean and std — but not the model's classes (:func:`workbench.inference.code_identity.code_closure`;
``code_parts`` names each piece, so a drift says which one changed). The identity is
``{"name", "config", "config_hash", "code_hash"}``: ``config_hash`` changes when a setting changes,
``code_hash`` when the code changes, so a drift between the training run (recorded in every checkpoint
manifest) and an export is caught by name.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
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


def entry_function(entry: str, config_dir: Path | None) -> Callable[..., Any]:
    """The custom task's ``build``: from the module already imported (training, a comparison), else
    imported with ``config_dir`` first on ``sys.path`` as the training run did."""
    from workbench.training.tasks.custom import resolve_entry

    module_name = entry.partition(":")[0]
    if module_name in sys.modules or config_dir is None:
        return resolve_entry(entry, config_dir or Path.cwd())
    return resolve_entry(entry, config_dir)


def custom_code(entry: str, config_dir: Path | None) -> dict[str, str]:
    """``piece → hash`` of the preprocessing code a custom task's ``build`` reaches (not the model).

    ``EntryPointError`` when the entry cannot be imported."""
    from workbench.inference.code_identity import code_closure, is_layer_class

    pieces = code_closure([entry_function(entry, config_dir)], skip=is_layer_class)
    return {label: str(piece["hash"]) for label, piece in pieces.items()}


def preprocess_identity(cfg: TrainingConfig, config_dir: Path | None = None) -> dict[str, Any]:
    """The identity record stored in checkpoint manifests and next to every export.

    ``config_dir`` is where a custom task's entry module is imported from when it is not imported yet.
    """
    name, fn, config = shared_preprocess(cfg)
    identity: dict[str, Any] = {
        "name": name,
        "config": config,
        "config_hash": _hash(config),
        "code_hash": _code_hash(fn) if fn is not None else None,
    }
    if fn is None and cfg.entry:
        parts = custom_code(cfg.entry, config_dir)
        identity["code_parts"] = parts
        identity["code_hash"] = _hash(parts)
    return identity


def identity_differences(trained: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """Which parts of two identities differ (``name``, ``config_hash``, ``code_hash``); empty: same.

    A ``code_hash`` the first side did not record (a custom run trained before custom code was hashed)
    is not a difference: nothing says what it was.
    """
    return [
        key
        for key in ("name", "config_hash", "code_hash")
        if trained.get(key) != current.get(key) and not (key == "code_hash" and trained.get(key) is None)
    ]


def changed_parts(trained: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """The custom code pieces (``module:qualname``) that differ between two identities."""
    before = trained.get("code_parts") or {}
    after = current.get("code_parts") or {}
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
