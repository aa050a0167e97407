"""How numbers, times and statuses are written for people — one set of helpers for the CLI and the TUI.

Plain strings only (no Rich, no Textual), so the CLI tables, the reports and the screens show the same
value the same way: a loss is ``0.1234`` everywhere, a time ``11-30 22:14:05``, a run ``✔ finished``.
"""

from __future__ import annotations

import math
import time

from workbench.i18n import t

# One icon per status word, for runs (running … interrupted) and checks (pass … skip) alike.
STATUS_ICONS: dict[str, str] = {
    "running": "▶",
    "paused": "⏸",
    "finished": "✔",
    "failed": "✖",
    "cancelled": "■",
    "interrupted": "⚠",
    "pass": "✔",
    "warn": "⚠",
    "fail": "✖",
    "skip": "–",
    "pending": "·",
}


def status_label(status: str) -> str:
    """``✔ finished`` / ``⚠ interrupted`` / ``✖ fail`` in the interface language."""
    return f"{STATUS_ICONS.get(status, '?')} {t(f'status.{status}')}"


def format_time(ts: float | None) -> str:
    """A wall-clock time, month-day first (``11-30 22:14:05``); "none" when unknown."""
    return time.strftime("%m-%d %H:%M:%S", time.localtime(ts)) if ts else t("common.none")


def format_value(value: float | None) -> str:
    """A metric value: 4 decimals, scientific for very large or very small; ``-`` when missing."""
    if value is None:
        return "-"
    if not math.isfinite(value):
        return "nan" if value != value else str(value)
    if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e5):
        return f"{value:.3e}"
    return f"{value:.4f}"


def format_glance(value: float | None) -> str:
    """A value read at a glance (a chart's title): five significant digits, so a throughput reads
    ``1183.8`` and a CPU share ``100``, not ``1183.7995`` and ``100.0000``; ``-`` when missing."""
    if value is None:
        return "-"
    if not math.isfinite(value):
        return "nan" if value != value else str(value)
    return format(value, ".5g")


def format_number(value: object, spec: str = ".3g") -> str:
    """A figure in a comparison table (differences, latencies, sizes): ``spec`` for numbers, ``-`` else."""
    return format(value, spec) if isinstance(value, int | float) else "-"


def format_duration(seconds: float) -> str:
    """``42s``, ``3m 05s``, ``2h 07m``."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"
