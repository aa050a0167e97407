"""THE LOOK: theme definitions (``*.yaml``) and the app stylesheet (``app.tcss``).

This folder sits at the top of the repository but installs as ``workbench.themes`` (see
``[tool.setuptools] package-dir`` in pyproject.toml), so site-packages gets no generic ``themes`` package.

Each YAML file is validated with pydantic and becomes a ``textual.theme.Theme``; the semantic variables
(``loss-train``, ``loss-val``, ``rank-0``…, ``run-0``…``run-7``, ``shard``, ``replicate``, ``partial``, ``status-*``) let
plots and editors follow the theme. An invalid file is skipped and reported, never fatal.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

DEFAULT_THEME = "workbench-dark"
THEME_ALIASES = {
    "dark": "workbench-dark",
    "light": "workbench-light",
    "high-contrast": "workbench-high-contrast",
}


class ThemeSpec(BaseModel):
    """One theme file."""

    model_config = ConfigDict(extra="forbid")

    name: str
    """Registered name (``workbench-dark``); ``--theme dark`` resolves through THEME_ALIASES."""
    dark: bool = True
    primary: str
    secondary: str | None = None
    accent: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    variables: dict[str, str] = Field(default_factory=dict)
    """Semantic colours used by the workbench's own widgets."""


def theme_files() -> list[Path]:
    folder = resources.files("workbench.themes")
    return sorted(Path(str(p)) for p in folder.iterdir() if str(p).endswith(".yaml"))


def load_theme_specs() -> tuple[list[ThemeSpec], list[str]]:
    """All valid theme specs, and one message per file that could not be used."""
    specs: list[ThemeSpec] = []
    problems: list[str] = []
    for path in theme_files():
        try:
            specs.append(ThemeSpec.model_validate(yaml.safe_load(path.read_text(encoding="utf-8"))))
        except (OSError, yaml.YAMLError, ValidationError) as exc:
            problems.append(f"{path.name}: {exc}")
    return specs, problems


def stylesheet_path() -> Path:
    return Path(str(resources.files("workbench.themes") / "app.tcss"))


def theme_choices() -> dict[str, str]:
    """``--theme`` name (the file's stem: ``dark``) -> registered theme name (``workbench-dark``).

    Read from the file names only (no parsing), so the CLI can offer and check the choices cheaply.
    """
    return {path.stem: resolve_theme_name(path.stem) for path in theme_files()}


def resolve_theme_name(name: str | None) -> str:
    if not name:
        return DEFAULT_THEME
    return THEME_ALIASES.get(name, name)
