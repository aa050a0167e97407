"""Validated configuration: pydantic models for every workbench YAML file, and a loader whose errors
point at ``file:line:col`` with a fix (docs/architecture.md, "Errors and faults").

Everything but the error types loads on first use (PEP 562): the settings and the CLI's error printing
import :mod:`workbench.config.errors` on every start, and importing this package must not build the
training model or scan the task registry before the TUI draws its first frame, nor import pydantic and
YAML for ``--help``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from workbench.config.errors import ConfigError, ConfigIssue

if TYPE_CHECKING:
    from workbench.config.kinds import FileKind, detect_kind, register_kind, validate_file
    from workbench.config.loader import load_model, load_yaml, parse_overrides
    from workbench.config.training import TrainingConfig

_LAZY = {
    "load_model": "workbench.config.loader",
    "load_yaml": "workbench.config.loader",
    "parse_overrides": "workbench.config.loader",
    "FileKind": "workbench.config.kinds",
    "detect_kind": "workbench.config.kinds",
    "register_kind": "workbench.config.kinds",
    "validate_file": "workbench.config.kinds",
    "TrainingConfig": "workbench.config.training",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups do not come back here
    return value


__all__ = [
    "ConfigError",
    "ConfigIssue",
    "FileKind",
    "TrainingConfig",
    "detect_kind",
    "load_model",
    "load_yaml",
    "parse_overrides",
    "register_kind",
    "validate_file",
]
