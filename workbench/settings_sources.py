"""Where user settings come from, as raw values: flags, ``PADDLE_WORKBENCH_*`` variables, the user file.

:class:`workbench.settings.WorkbenchSettings` validates the merged result. This module is the part that
needs no pydantic: the language has to be known before the command line builds its help texts, and a
run store resolves its workspace in processes that never validate anything else.

Precedence, first found wins: a command-line flag, then ``PADDLE_WORKBENCH_<KEY>`` (an empty value counts
as unset; ``NO_COLOR``, the cross-tool convention, also sets ``no_color``), then the user config file —
``$PADDLE_WORKBENCH_CONFIG`` or ``config.yaml`` in the platform's config folder (``~/.config/paddle-workbench``
on Linux) — then the model's default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

APP_NAME = "paddle-workbench"
DEFAULT_WORKSPACE = Path(".paddle-workbench")
"""The workspace when nothing sets one: a folder in the current directory."""
ENV_PREFIX = "PADDLE_WORKBENCH_"
CONFIG_ENV = "PADDLE_WORKBENCH_CONFIG"
"""Names the user config file explicitly (tests point it into tmp)."""
SETTING_KEYS: tuple[str, ...] = (
    "workspace",
    "lang",
    "theme",
    "low_bandwidth",
    "plain",
    "no_color",
    "bell",
    "notify",
    "on_alert",
)
"""The fields of ``WorkbenchSettings`` (a test keeps the two in step)."""


def env_name(key: str) -> str:
    """``low_bandwidth`` → ``PADDLE_WORKBENCH_LOW_BANDWIDTH``."""
    return ENV_PREFIX + key.upper()


def user_config_path(environ: Mapping[str, str] | None = None) -> Path:
    """The user config file (it need not exist)."""
    env = os.environ if environ is None else environ
    explicit = env.get(CONFIG_ENV, "")
    if explicit:
        return Path(explicit).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.yaml"


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The settings set by environment variables, by key (raw strings)."""
    env = os.environ if environ is None else environ
    values = {key: env[env_name(key)] for key in SETTING_KEYS if env.get(env_name(key), "")}
    if "no_color" not in values and env.get("NO_COLOR", ""):  # https://no-color.org: any non-empty value
        values["no_color"] = "1"
    return values


def from_user_file(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The user config file's mapping, or ``{}`` when it is missing or unreadable (validation reports
    a broken file with its location; this quick read never fails)."""
    path = user_config_path(environ)
    if not path.is_file():
        return {}
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def language_code(value: object) -> str:
    """``"zh_CN.UTF-8"``, ``"ZH-cn"``, ``" zh "`` → ``"zh"``: the language part of a locale-style value."""
    text = str(value or "").strip().lower()
    for separator in ("_", "-", "."):
        text = text.split(separator, 1)[0]
    return text


def raw_setting(key: str, flag: Any = None, environ: Mapping[str, str] | None = None) -> Any:
    """One setting, unvalidated: ``flag`` when given, else the environment's, else the file's, else ``None``."""
    if flag is not None:
        return flag
    env_value = from_environment(environ).get(key)
    if env_value is not None:
        return env_value
    return from_user_file(environ).get(key)
