"""The pydantic model of one theme file (``themes/*.yaml``), kept out of ``workbench.themes`` itself so
that importing the theme list does not import pydantic."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


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
