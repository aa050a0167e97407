"""Small display helpers shared by screens (status icons, times) — presentation only."""

from __future__ import annotations

import time

from rich.text import Text

from workbench.i18n import t

STATUS_ICONS = {
    "running": "▶",
    "paused": "⏸",
    "finished": "✔",
    "failed": "✖",
    "cancelled": "■",
    "interrupted": "⚠",
}
STATUS_VARIABLE = {
    "running": "status-running",
    "paused": "status-warn",
    "finished": "status-pass",
    "failed": "status-fail",
    "cancelled": "status-warn",
    "interrupted": "status-warn",
}


def status_text(status: str, color: str) -> Text:
    return Text(f"{STATUS_ICONS.get(status, '?')} {t(f'status.{status}')}", style=color)


def format_time(ts: float | None) -> str:
    return time.strftime("%m-%d %H:%M:%S", time.localtime(ts)) if ts else t("common.none")


def format_value(value: float) -> str:
    if value != value:  # NaN
        return "nan"
    if abs(value) >= 1e5 or (value != 0 and abs(value) < 1e-3):
        return f"{value:.3e}"
    return f"{value:.4f}"
