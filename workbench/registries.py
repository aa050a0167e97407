"""Every extension registry of the engine, in one list: where each kind of extension is added.

Each entry names a package folder whose modules register themselves (see :mod:`workbench.registry`).
A test loads every registry, lists what it holds and fails when a module in one of the folders did not
register anything. The UI's registry of modes lives in ``workbench.screens`` and is listed by its own
test (the engine never imports the UI).
"""

from __future__ import annotations

import importlib
from typing import Any

from workbench.registry import Registry

ENGINE_REGISTRIES: tuple[tuple[str, str], ...] = (
    ("workbench.training.tasks", "TASKS"),
    ("workbench.envcheck.rules", "RULES"),
    ("workbench.troubleshoot.signatures", "SIGNATURES"),
    ("workbench.troubleshoot.flows", "FLOWS"),
    ("workbench.attach.parsers", "PARSERS"),
    ("workbench.inference.paths", "PATHS"),
    ("workbench.cli.commands", "COMMANDS"),
    ("workbench.verify.layers", "LAYERS"),
)
"""``(package, attribute)`` of each registry: the folder a new entry goes into, and its registry."""


def engine_registries() -> dict[str, Registry[Any]]:
    """Every engine registry by package name, scanned (importing no Paddle: entries import it lazily)."""
    found: dict[str, Registry[Any]] = {}
    for package, attribute in ENGINE_REGISTRIES:
        registry = getattr(importlib.import_module(package), attribute)
        assert isinstance(registry, Registry)
        found[package] = registry.load()
    return found
