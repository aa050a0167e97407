"""THE LOOK: theme definitions (``*.yaml``) and the app stylesheet (``app.tcss``).

This folder sits at the top of the repository but installs as ``workbench.themes`` (see
``[tool.setuptools] package-dir`` in pyproject.toml), so site-packages gets no generic ``themes`` package.

Each YAML file is validated with pydantic and becomes a ``textual.theme.Theme``; the semantic variables
(``loss-train``, ``loss-val``, ``rank-0``…, ``run-0``…``run-7``, ``shard``, ``replicate``, ``partial``, ``status-*``) let
plots and editors follow the theme. An invalid file is skipped and reported, never fatal.

The model lives in :mod:`workbench.themes.spec` and is imported by :func:`load_theme_specs` only: the
app registers the bundled files as read (:func:`read_theme_data`) before its first frame and validates
them right after it, so pydantic is not on the start path.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.themes.spec import ThemeSpec

FOLDER = Path(__file__).resolve().parent
"""Where the theme files are (a plain folder: the package is never imported from a zip)."""
DEFAULT_THEME = "workbench-dark"
THEME_ALIASES = {
    "dark": "workbench-dark",
    "light": "workbench-light",
    "high-contrast": "workbench-high-contrast",
}


def theme_files() -> list[Path]:
    return sorted(FOLDER.glob("*.yaml"))


def __getattr__(name: str) -> Any:
    if name == "ThemeSpec":  # the model, for callers that name it; loaded with pydantic on first use
        from workbench.themes.spec import ThemeSpec

        return ThemeSpec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def read_theme_data() -> list[dict[str, Any]]:
    """Every bundled theme file as read, unvalidated: what the app registers before its first frame.

    A file that is not a mapping with a ``name`` is left out; :func:`load_theme_specs` reports it.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    found: list[dict[str, Any]] = []
    for path in theme_files():
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            found.append(data)
    return found


def load_theme_specs() -> tuple[list[ThemeSpec], list[str]]:
    """All valid theme specs, and one message per file that could not be used."""
    import yaml
    from pydantic import ValidationError

    from workbench.themes.spec import ThemeSpec

    specs: list[ThemeSpec] = []
    problems: list[str] = []
    for path in theme_files():
        try:
            specs.append(ThemeSpec.model_validate(yaml.safe_load(path.read_text(encoding="utf-8"))))
        except (OSError, yaml.YAMLError, ValidationError) as exc:
            problems.append(f"{path.name}: {exc}")
    return specs, problems


def stylesheet_path() -> Path:
    return FOLDER / "app.tcss"


def theme_choices() -> dict[str, str]:
    """``--theme`` name (the file's stem: ``dark``) -> registered theme name (``workbench-dark``).

    Read from the file names only (no parsing), so the CLI can offer and check the choices cheaply.
    """
    return {path.stem: resolve_theme_name(path.stem) for path in theme_files()}


def resolve_theme_name(name: str | None) -> str:
    if not name:
        return DEFAULT_THEME
    return THEME_ALIASES.get(name, name)
