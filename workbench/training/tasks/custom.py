"""``task: custom``: import the user's ``entry: package.module:build`` and call ``build(cfg)``.

While the entry is imported and ``build`` runs, the config file's folder goes first on ``sys.path``
(then the current folder), so a ``my_model.py`` next to the config is found without installing
anything; afterwards ``sys.path`` is as it was (a long-lived TUI does not collect folders). ``build``
must return a :class:`~workbench.training.parts.TrainParts` (a mapping with the same keys is accepted
too).
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from workbench.config.training import TrainingConfig
from workbench.training.parts import TrainParts
from workbench.training.tasks import TASKS, TaskContext, TaskSpec


class EntryPointError(RuntimeError):
    """The ``entry`` cannot be imported, is not callable, or returned the wrong thing."""


@contextlib.contextmanager
def entry_search_path(config_dir: Path) -> Iterator[None]:
    """``config_dir`` then the current folder first on ``sys.path`` for the duration of the block.

    Only the folders this call added are taken out again (one occurrence each), so a folder that was
    on ``sys.path`` before stays, and nested or concurrent uses do not remove each other's entries.
    """
    added: list[str] = []
    for folder in (str(Path.cwd()), str(config_dir.resolve())):  # inserted in reverse: config first
        if folder not in sys.path:
            sys.path.insert(0, folder)
            added.append(folder)
    try:
        yield
    finally:
        for folder in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(folder)


def resolve_entry(entry: str, config_dir: Path) -> Callable[..., Any]:
    """``package.module:attr.path`` → the object, importing with ``config_dir`` on ``sys.path``."""
    module_name, _, attr_path = entry.partition(":")
    try:
        with entry_search_path(config_dir):
            target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise EntryPointError(f"entry {entry!r}: cannot import {module_name!r} ({exc})") from exc
    for part in attr_path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise EntryPointError(
                f"entry {entry!r}: {module_name!r} has no attribute {attr_path!r}"
            ) from None
    if not callable(target):
        raise EntryPointError(f"entry {entry!r} is not callable")
    return target  # type: ignore[no-any-return]


def as_parts(result: Any, entry: str) -> TrainParts:
    """Accept a :class:`TrainParts` or a mapping of its fields; anything else is an error."""
    if isinstance(result, TrainParts):
        parts = result
    elif isinstance(result, Mapping):
        try:
            parts = TrainParts(**dict(result))
        except TypeError as exc:
            raise EntryPointError(
                f"entry {entry!r} returned a mapping that is not TrainParts: {exc}"
            ) from None
    else:
        raise EntryPointError(
            f"entry {entry!r} returned {type(result).__name__}; expected workbench.training.TrainParts"
        )
    try:
        parts.check()
    except TypeError as exc:
        raise EntryPointError(f"entry {entry!r}: {exc}") from None
    return parts


def build_custom(cfg: TrainingConfig, ctx: TaskContext) -> TrainParts:
    assert cfg.entry is not None  # validation requires entry: for this task
    build = resolve_entry(cfg.entry, ctx.config_dir)
    with entry_search_path(ctx.config_dir):  # build() may import its sibling modules
        result = build(cfg)
    return as_parts(result, cfg.entry)


TASKS.register(
    "custom",
    TaskSpec(build=build_custom, title_key="training.task.custom", needs_entry=True),
    order=90,
)
