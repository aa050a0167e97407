"""The user's settings, one model shared by the command line, the app and tests.

:func:`resolve_settings` merges the sources of :mod:`workbench.settings_sources` — flags, then
``PADDLE_WORKBENCH_*`` variables, then the user config file (YAML with the same keys) — and validates
the result. Every problem is reported at once with where it came from (``config.yaml:3:8``, or the
variable's name), as for any workbench file. The CLI resolves the settings once per command
(``workbench.cli.state``); the app receives them from the CLI.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.config.loader import load_yaml, validate_data
from workbench.config.problems import problem_text
from workbench.i18n import t
from workbench.settings_sources import (
    DEFAULT_WORKSPACE,
    SETTING_KEYS,
    env_name,
    from_environment,
    language_code,
    user_config_path,
)


class WorkbenchSettings(BaseModel):
    """What a user may set once instead of on every command (all optional)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    workspace: Path = DEFAULT_WORKSPACE
    """Folder that holds the runs (``runs/<id>/``) and the TUI's session log; ``~`` is expanded and a
    relative path is relative to the current folder. ``--workspace``, ``PADDLE_WORKBENCH_WORKSPACE``."""
    lang: Literal["en", "zh"] | None = None
    """Language of every message: ``en`` or ``zh``; unset: from the locale (``LC_ALL``, ``LANG``…).
    ``--lang``, ``PADDLE_WORKBENCH_LANG``."""
    theme: str | None = None
    """The TUI's colour theme by name (the default theme when unset or unknown). ``--theme``,
    ``PADDLE_WORKBENCH_THEME``."""
    low_bandwidth: bool = False
    """Fewer redraws for slow remote terminals (charts refresh less often). ``--low-bandwidth``,
    ``PADDLE_WORKBENCH_LOW_BANDWIDTH``."""
    plain: bool = False
    """Line output instead of the TUI and progress bars, also on a terminal. ``--plain``,
    ``PADDLE_WORKBENCH_PLAIN``."""
    no_color: bool = False
    """No colours in any output. ``PADDLE_WORKBENCH_NO_COLOR``, or ``NO_COLOR`` set to anything."""

    @field_validator("workspace")
    @classmethod
    def _expand_user(cls, value: Path) -> Path:
        return value.expanduser()

    @field_validator("lang", mode="before")
    @classmethod
    def _lang_case(cls, value: Any) -> Any:
        return language_code(value) if isinstance(value, str) else value  # "zh_CN" → "zh"


def _environment_issues(values: Mapping[str, str]) -> list[ConfigIssue]:
    """Validate the variables' values alone, so each problem names the variable that caused it."""
    try:
        WorkbenchSettings.model_validate(values)
    except ValidationError as exc:
        issues = []
        for error in exc.errors(include_url=False):
            key = str(error["loc"][0]) if error["loc"] else ""
            message = t("cli.settings.bad_value", problem=problem_text(error), got=repr(values.get(key)))
            issues.append(ConfigIssue(env_name(key), 0, 0, message))
        return issues
    return []


def _blank(path: Path) -> bool:
    """An empty file, or only comments: no settings, not an error."""
    import yaml

    try:
        return yaml.compose(path.read_text(encoding="utf-8")) is None
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False  # validation reports it with its location


def resolve_settings(
    flags: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> WorkbenchSettings:
    """Flags (``None`` values are "not given"), then variables, then the user file; validated.

    Raises :class:`~workbench.config.ConfigError` listing every problem of the file and the variables.
    """
    issues: list[ConfigIssue] = []
    file_values: dict[str, Any] = {}
    path = user_config_path(environ)
    if path.is_file() and not _blank(path):
        try:
            data, positions = load_yaml(path)
            validated = validate_data(data, positions, WorkbenchSettings, str(path))
            file_values = validated.model_dump(exclude_unset=True)
        except ConfigError as exc:
            issues.extend(exc.issues)
    env_values = from_environment(environ)
    issues.extend(_environment_issues(env_values))
    if issues:
        raise ConfigError(issues)
    given = {key: value for key, value in (flags or {}).items() if value is not None}
    return WorkbenchSettings.model_validate({**file_values, **env_values, **given})


__all__ = ["DEFAULT_WORKSPACE", "SETTING_KEYS", "WorkbenchSettings", "resolve_settings"]
