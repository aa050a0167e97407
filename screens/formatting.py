"""Display helpers for screens: the engine's one set of formatters, plus Rich styling and colours."""

from __future__ import annotations

from rich.text import Text

from workbench.formatting import STATUS_ICONS, format_duration, format_time, format_value, status_label

__all__ = [
    "STATUS_ICONS",
    "STATUS_VARIABLE",
    "format_duration",
    "format_time",
    "format_value",
    "status_text",
]

# The theme variable that colours each status.
STATUS_VARIABLE = {
    "running": "status-running",
    "paused": "status-warn",
    "finished": "status-pass",
    "failed": "status-fail",
    "cancelled": "status-warn",
    "interrupted": "status-warn",
    "pass": "status-pass",
    "warn": "status-warn",
    "fail": "status-fail",
}


def status_text(status: str, color: str) -> Text:
    return Text(status_label(status), style=color)
