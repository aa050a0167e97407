"""Validated configuration: pydantic models for every workbench YAML file, and a loader whose errors
point at ``file:line:col`` with a fix (docs/architecture.md, "Errors and faults")."""

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.config.kinds import FileKind, detect_kind, register_kind, validate_file
from workbench.config.loader import load_model, load_yaml, parse_overrides
from workbench.config.training import TrainingConfig

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
