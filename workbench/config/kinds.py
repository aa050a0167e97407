"""Which model validates which YAML file: ``paddle-workbench validate`` accepts any workbench file.

Each feature registers its file kind (training config here; sharding plans and verify configs on first use) with
a detector that looks at the top-level keys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.config.loader import load_yaml, validate_data
from workbench.config.training import TrainingConfig
from workbench.i18n import t


@dataclass(frozen=True)
class FileKind:
    name: str
    model: type[BaseModel]
    detect: Callable[[Mapping[str, Any]], bool]
    describe_key: str


_KINDS: list[FileKind] = [
    FileKind("training", TrainingConfig, lambda d: "task" in d, "config.kind.training"),
]


def _kinds() -> list[FileKind]:
    """Every kind; sharding plans join on first use (their model imports this package)."""
    from workbench.parallel.spec import PlanConfig
    from workbench.verify.config import VerifyConfig

    register_kind(FileKind("plan", PlanConfig, lambda d: "mesh" in d and "task" not in d, "config.kind.plan"))
    register_kind(
        FileKind(
            "verify",
            VerifyConfig,
            lambda d: "targets" in d and not {"task", "mesh"} & set(d),
            "verify.config.kind",
        )
    )
    return _KINDS


def register_kind(kind: FileKind) -> None:
    if all(k.name != kind.name for k in _KINDS):
        _KINDS.append(kind)


def detect_kind(data: Mapping[str, Any]) -> FileKind | None:
    for kind in _kinds():
        if kind.detect(data):
            return kind
    return None


def validate_file(path: str | Path, overrides: Sequence[str] = ()) -> tuple[FileKind, BaseModel]:
    """Load any workbench YAML file, pick its kind, validate it; raise :class:`ConfigError` on problems."""
    data, positions = load_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError([ConfigIssue(str(path), 1, 1, t("config.not_mapping"), t("config.empty.hint"))])
    kind = detect_kind(data)
    if kind is None:
        known = ", ".join(t(k.describe_key) for k in _kinds())
        raise ConfigError(
            [
                ConfigIssue(
                    str(path), 1, 1, t("config.unknown_kind"), t("config.unknown_kind.hint", kinds=known)
                )
            ]
        )
    return kind, validate_data(data, positions, kind.model, str(path), overrides)
