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

import re
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

    A file that is not a mapping with a ``name`` is left out; :func:`load_theme_specs` reports it. The
    bundled files are read by :func:`read_plain_theme` (PyYAML's import is not on the start path); a file
    it does not take goes through PyYAML.
    """
    found: list[dict[str, Any]] = []
    for path in theme_files():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        data: object = read_plain_theme(text)
        if data is None:
            import yaml

            try:
                data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 - safe
            except yaml.YAMLError:
                continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            found.append(data)
    return found


_PLAIN_LINE = re.compile(r"(?P<indent>(?:  )?)(?P<key>[A-Za-z][\w-]*):(?: (?P<value>\S.*))?")
_PLAIN_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")  # workbench-dark: a string to YAML too
_YAML_WORDS = {"yes", "no", "on", "off", "true", "false", "null"}
"""Keys YAML (1.1, PyYAML's) reads as booleans or null, not as strings."""


def read_plain_theme(text: str) -> dict[str, Any] | None:
    """A theme file in the bundled files' plain shape, read as YAML reads it; ``None`` for anything else.

    The shape: ``key: value`` lines, one level of two-space nesting under a ``key:`` with no value, blank
    and ``#`` lines. A value is a double-quoted string without escapes, ``true``/``false``, or a
    hyphenated lowercase word; any other line or value (numbers, ``yes``, single quotes, inline
    comments, a repeated key) is YAML's to read, so the result never differs from PyYAML's.
    """
    data: dict[str, Any] = {}
    nested: dict[str, Any] | None = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _PLAIN_LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match["key"], match["value"]
        target = data if not match["indent"] else nested
        if target is None or key in target or key.lower() in _YAML_WORDS:
            return None
        if match["indent"] == "":
            nested = None
        if value is None:
            if target is not data:
                return None
            nested = target[key] = {}
        elif value in ("true", "false"):
            target[key] = value == "true"
        elif len(value) >= 2 and value[0] == value[-1] == '"' and not set(value[1:-1]) & {'"', "\\"}:
            target[key] = value[1:-1]
        elif _PLAIN_WORD.fullmatch(value):
            target[key] = value
        else:
            return None
    if any(value == {} for value in data.values()):
        return None  # "key:" with nothing under it is YAML's null
    return data


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
