"""Shared pieces of the kit-log parsers: ``key: value`` fields, ETA text, and the workbench's names.

The kits log the same quantities under different names and units (``avg_reader_cost`` in seconds,
``data_cost``, ``reader_cost``; ``lr``, ``learning_rate``, ``lr(PiecewiseDecay)``). Every parser maps
them onto the names the workbench's own training loop records (see docs/architecture.md, "Metric
names"), so a kit's run charts, compares and overlays like one of ours:

* ``loss`` and every other loss term under its own name (``loss_cls``, ``CELoss``);
* ``lr``; ``samples_per_s`` (the kits' ``ips``); ``eta_s``;
* ``data_wait_ms`` (reader cost), ``step_ms`` (batch cost, which includes the reader in every kit) and
  ``compute_ms`` = ``step_ms`` − ``data_wait_ms`` — the data-wait / compute split;
* ``gpu_reserved_mib`` / ``gpu_peak_mib`` for the kits' peak-memory figures.

Position keys a parser returns besides the metrics: ``epoch``, ``iter`` (within the epoch), ``iters``
(per epoch), ``epochs`` (total) and ``step`` (a global step, when the kit logs one).
"""

from __future__ import annotations

import re

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf|-inf"
"""A number as Python's ``format`` writes one (``nan`` and ``inf`` included)."""

_FIELD = re.compile(rf"([A-Za-z_][\w./()-]*)\s*[:=]\s*({NUMBER})", re.IGNORECASE)
_ETA = re.compile(r"eta[:=]\s*((?:\d+ days?, )?\d+:\d{1,2}:\d{1,2})")
_ETA_PARTS = re.compile(r"(?:(\d+) days?, )?(\d+):(\d{1,2}):(\d{1,2})")

POSITION_KEYS = frozenset({"epoch", "iter", "iters", "epochs", "step"})

_SECONDS_TO_MS = {
    "avg_reader_cost": "data_wait_ms",
    "reader_cost": "data_wait_ms",
    "data_cost": "data_wait_ms",
    "avg_batch_cost": "step_ms",
    "batch_cost": "step_ms",
    "time_each_step": "step_ms",
}
_RENAME = {
    "learning_rate": "lr",
    "ips": "samples_per_s",
    "max_mem_reserved": "gpu_reserved_mib",
    "max_mem_allocated": "gpu_peak_mib",
}
_SKIP = frozenset({"avg_samples", "samples", "global_step", "time", "epoch", "step", "iter"})


def fields(text: str) -> list[tuple[str, float]]:
    """Every ``name: number`` / ``name=number`` pair of ``text``, in order."""
    out = []
    for name, value in _FIELD.findall(text):
        try:
            out.append((name, float(value)))
        except ValueError:
            continue
    return out


def eta_seconds(text: str) -> float | None:
    """``eta: 1 day, 2:03:04`` → seconds (``None`` when the line has no ETA)."""
    match = _ETA.search(text)
    if match is None:
        return None
    days, hours, minutes, seconds = _ETA_PARTS.fullmatch(match.group(1)).groups()  # type: ignore[union-attr]
    return float(int(days or 0) * 86400 + int(hours) * 3600 + int(minutes) * 60 + int(seconds))


def metric_name(name: str) -> str:
    """A kit's field name → the workbench's (``lr(Cosine)`` → ``lr``; unknown names stay as they are)."""
    if name.startswith("lr(") or name == "lr":
        return "lr"
    return _RENAME.get(name, name)


def to_metrics(pairs: list[tuple[str, float]], text: str) -> dict[str, float]:
    """Kit fields → workbench metrics: renamed, seconds → milliseconds, the compute part derived."""
    values: dict[str, float] = {}
    for name, value in pairs:
        if name in _SKIP:
            continue
        if name in _SECONDS_TO_MS:
            values[_SECONDS_TO_MS[name]] = value * 1000.0
        else:
            values.setdefault(metric_name(name), value)
    if "step_ms" in values and "data_wait_ms" in values:
        values["compute_ms"] = max(0.0, values["step_ms"] - values["data_wait_ms"])
    eta = eta_seconds(text)
    if eta is not None:
        values["eta_s"] = eta
    return values


def without_eta(text: str) -> str:
    """``text`` with its ETA cut out (``eta: 3 days, 7:27:45`` would read as a field ``eta: 3``)."""
    return _ETA.sub("", text)
