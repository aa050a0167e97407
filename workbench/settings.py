"""The user's settings, one record shared by the command line, the app and tests.

:func:`resolve_settings` merges the sources of :mod:`workbench.settings_sources` — flags, then
``PADDLE_WORKBENCH_*`` variables, then the user config file (YAML with the same keys) — and validates
the result. Every problem is reported at once with where it came from (``config.yaml:3:8``, or the
variable's name), as for any workbench file. The CLI resolves the settings once per command
(``workbench.cli.state``); the app receives them from the CLI.

The settings are a frozen dataclass, and pydantic validates them through a model built from its fields
(:func:`settings_model`) only when a value needs checking or converting: a user file, a variable that
is not already the field's type (``PADDLE_WORKBENCH_PLAIN=1``). The common start — flags and plain
variables, no file — builds the record directly, so the TUI's first frame does not wait for pydantic
(docs/architecture.md, "Budgets"). Adding a setting is one field here, with its docstring, plus its key
in ``SETTING_KEYS``.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from workbench.config.errors import ConfigError, ConfigIssue
from workbench.i18n import t
from workbench.settings_sources import (
    DEFAULT_WORKSPACE,
    SETTING_KEYS,
    env_name,
    from_environment,
    language_code,
    user_config_path,
)

if TYPE_CHECKING:
    from pydantic import BaseModel


@dataclass(frozen=True)
class WorkbenchSettings:
    """What a user may set once instead of on every command (all optional)."""

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
    bell: bool = True
    """The terminal bell when a run finishes, fails or raises a NaN / hang alert (at most one per 5 s;
    tmux flags the window). ``PADDLE_WORKBENCH_BELL``."""
    notify: Literal["off", "osc9", "osc777", "kitty"] = "off"
    """A desktop notification through the terminal (OSC 9, OSC 777 or kitty's OSC 99), for the same
    events; in tmux it needs ``set -g allow-passthrough on``. ``PADDLE_WORKBENCH_NOTIFY``."""
    on_alert: str | None = None
    """A command run for each of those events with the event as JSON on stdin (no shell unless it uses
    shell syntax; ended after 10 s). ``PADDLE_WORKBENCH_ON_ALERT``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "workspace", Path(self.workspace).expanduser())


@functools.cache
def _field_types() -> dict[str, Any]:
    return typing.get_type_hints(WorkbenchSettings)


@functools.cache
def settings_model() -> type[BaseModel]:
    """The pydantic model that validates settings: the dataclass's fields, unknown keys refused."""
    from pydantic import ConfigDict, create_model

    types_ = _field_types()
    fields: dict[str, Any] = {
        field.name: (types_[field.name], field.default) for field in dataclasses.fields(WorkbenchSettings)
    }
    model: type[BaseModel] = create_model(
        "WorkbenchSettings", __config__=ConfigDict(extra="forbid"), **fields
    )
    return model


def _plain(value: Any, kind: Any) -> bool:
    """Whether ``value`` already is a ``kind`` as validation would leave it (nothing to check or convert)."""
    origin = typing.get_origin(kind)
    if origin is typing.Union or origin is types.UnionType:
        return any(_plain(value, arm) for arm in typing.get_args(kind))
    if origin is Literal:
        return any(type(value) is type(choice) and value == choice for choice in typing.get_args(kind))
    if kind is type(None):
        return value is None
    if kind is Path:
        return isinstance(value, Path) or (type(value) is str and value != "")
    return kind in (bool, str, int) and type(value) is kind


def _all_plain(values: Mapping[str, Any]) -> bool:
    kinds = _field_types()
    return all(key in kinds and _plain(value, kinds[key]) for key, value in values.items())


def _lang_case(values: Mapping[str, Any]) -> dict[str, Any]:
    """``lang: zh_CN.UTF-8`` → ``zh``: a locale-style language, as ``LANG`` spells it, is accepted."""
    result = dict(values)
    if isinstance(result.get("lang"), str):
        result["lang"] = language_code(result["lang"])
    return result


def _from_model(model: BaseModel) -> WorkbenchSettings:
    return WorkbenchSettings(
        **{field.name: getattr(model, field.name) for field in dataclasses.fields(WorkbenchSettings)}
    )


def _environment_issues(values: Mapping[str, str]) -> list[ConfigIssue]:
    """Validate the variables' values alone, so each problem names the variable that caused it."""
    from pydantic import ValidationError

    from workbench.config.problems import problem_text

    try:
        settings_model().model_validate(values)
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
    given = {key: value for key, value in (flags or {}).items() if value is not None}
    env_values = _lang_case(from_environment(environ))
    path = user_config_path(environ)
    if not path.is_file() and _all_plain(env_values) and _all_plain(given):
        return WorkbenchSettings(**{**env_values, **given})  # nothing to check: no pydantic
    issues: list[ConfigIssue] = []
    file_values: dict[str, Any] = {}
    if path.is_file() and not _blank(path):
        from workbench.config.loader import load_yaml, validate_data

        try:
            data, positions = load_yaml(path)
            data = _lang_case(data) if isinstance(data, dict) else data
            validated = validate_data(data, positions, settings_model(), str(path))
            file_values = validated.model_dump(exclude_unset=True)
        except ConfigError as exc:
            issues.extend(exc.issues)
    issues.extend(_environment_issues(env_values))
    if issues:
        raise ConfigError(issues)
    return _from_model(settings_model().model_validate({**file_values, **env_values, **given}))


__all__ = ["DEFAULT_WORKSPACE", "SETTING_KEYS", "WorkbenchSettings", "resolve_settings", "settings_model"]
