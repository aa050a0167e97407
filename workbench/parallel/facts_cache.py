"""The model facts of a training config, kept between checks: `plan run` and `plan validate` of an
unchanged config reuse the facts the last check built instead of importing Paddle and building the model
again (a child process of a few seconds, ~11 s on a busy machine, before every launch).

A cached entry is used only when everything that made it is unchanged (docs/architecture.md,
"Verdicts"), so :func:`facts_key` hashes:

- the training config as resolved (after ``-o`` overrides) and the folder its relative paths start from;
- the dataset (:func:`workbench.datasets.fingerprint.dataset_fingerprint`: the list files' bytes, every
  other file's path, size and mtime), since the first sample's shape and the class count shape the model;
- the workbench's own code (every ``.py`` file of the package: the model zoo, the config defaults and the
  facts builder live there);
- the installed Paddle distribution and version, the Python version and the machine.

Some configs are never cached (:func:`facts_key` returns ``None``): ``task: custom`` (the model is the
user's code, outside what is hashed here), a dataset folder that does not exist yet (the build makes the
demo data; the next check is cached), and ``train.device: auto`` on a Paddle build that can see a GPU
(the device the facts record could change with the driver). The entries live in the workspace
(``<workspace>/cache/model-facts/<key>.json``, owner-only) and are plain data: a damaged entry is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from collections.abc import Callable, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from workbench.parallel.facts import ModelFacts, facts_from_dict, facts_to_dict

KEY_VERSION = 1
"""Bumped when the key's ingredients or the entry's layout change."""

CACHE_FOLDER = Path("cache") / "model-facts"
"""Where the entries live, under the workspace."""


@cache
def _workbench_code_hash() -> str:
    """sha256 over every ``.py`` file of the installed workbench package (paths and bytes)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _installed_paddle() -> tuple[str, str] | None:
    """``(distribution, version)`` of the installed Paddle, read from its metadata (no import)."""
    for dist in ("paddlepaddle", "paddlepaddle-gpu"):
        try:
            return dist, metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


def facts_key(train_config: Path, overrides: Sequence[str] = ()) -> str | None:
    """The cache key of this config's model facts, or ``None`` when they must be built afresh (see the
    module docstring)."""
    from workbench.config.loader import load_model
    from workbench.config.training import TrainingConfig
    from workbench.datasets.fingerprint import dataset_fingerprint

    try:
        cfg = load_model(train_config, TrainingConfig, overrides)
        data_dir = cfg.data_dir(train_config)
    except Exception:  # noqa: BLE001 - the build reports every problem of the config, located
        return None
    paddle = _installed_paddle()
    if cfg.task == "custom" or paddle is None:
        return None
    if cfg.train.device == "auto" and paddle[0] != "paddlepaddle":
        return None
    data: dict[str, Any] | None = None
    if data_dir is not None:
        if not data_dir.is_dir():
            return None
        data = dataset_fingerprint(data_dir)
    ingredients = {
        "version": KEY_VERSION,
        "config": cfg.model_dump(mode="json"),
        "config_dir": str(train_config.resolve().parent),
        "data_dir": str(data_dir.resolve()) if data_dir is not None else None,
        "data": data,
        "workbench": _workbench_code_hash(),
        "paddle": list(paddle),
        "python": sys.version,
        "machine": platform.machine(),
    }
    text = json.dumps(ingredients, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_facts(folder: Path, key: str) -> ModelFacts | None:
    """The cached facts for ``key`` in ``folder``, or ``None`` (absent, unreadable or damaged)."""
    try:
        doc = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        if doc.get("key") != key:
            return None
        return facts_from_dict(doc["facts"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store_facts(folder: Path, key: str, facts: ModelFacts) -> None:
    """Keep ``facts`` under ``key`` (atomic, owner-only); a workspace that cannot be written keeps
    nothing and the next check builds again."""
    from workbench.runs import atomic_write_text, make_private_dir

    try:
        make_private_dir(folder)
        atomic_write_text(
            folder / f"{key}.json", json.dumps({"key": key, "facts": facts_to_dict(facts)}) + "\n"
        )
    except OSError:
        return


def cached_or_built(
    folder: Path, train_config: Path, overrides: Sequence[str], build: Callable[[], ModelFacts | None]
) -> tuple[ModelFacts | None, bool]:
    """``(facts, reused)``: this config's facts from ``folder`` when everything that made them is
    unchanged, else ``build()``'s, kept under a key taken after the build (it may have made the demo
    data). What ``build`` raises passes through; a ``None`` it returns (ended, shown) is kept nowhere."""
    key = facts_key(train_config, overrides)
    facts = load_facts(folder, key) if key is not None else None
    if facts is not None:
        return facts, True
    facts = build()
    if facts is not None and (key := facts_key(train_config, overrides)) is not None:
        store_facts(folder, key, facts)
    return facts, False


def cache_folder(workspace: str | os.PathLike[str]) -> Path:
    """The model-facts cache of a workspace."""
    return Path(workspace) / CACHE_FOLDER
