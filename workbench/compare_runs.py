"""Many runs on one set of axes: alignment, reading a series at one position, and differences to a
baseline.

The monitor overlays any number of runs; these are the pure parts of that, kept out of the UI so they
are tested without a terminal:

* :func:`aligned_x` places a run's steps on the shared x axis — optimizer steps, or samples seen
  (step × the run's own ``train.batch_size``), so runs with different batch sizes line up by data seen;
* :func:`value_at` reads a series at one x (the nearest point at or before it: what the run had logged
  by then), used by the plot cursor and by the differences;
* :func:`compare_latest` gives each run's latest value and its difference to a pinned baseline, taken
  at the last x both runs reached, so a run that is further along is not compared with the baseline's
  start;
* :class:`RunEntry` and :func:`matches` are the runs sidebar's list and its filter (name or id, status,
  task, tag; ``key:value`` narrows to one field).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # numpy is imported where arrays are made: the run list does not pay for it
    import numpy as np
    import numpy.typing as npt

    from workbench.runs import RunStore

Axis = Literal["step", "samples"]
AXES: tuple[Axis, ...] = ("step", "samples")


def batch_size(config: Mapping[str, Any]) -> int | None:
    """Samples per optimizer step from a run's resolved config (``train.batch_size``), if it has one."""
    train = config.get("train")
    value = train.get("batch_size") if isinstance(train, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def aligned_x(
    steps: npt.NDArray[np.int64], config: Mapping[str, Any], axis: Axis
) -> npt.NDArray[np.float64] | None:
    """A run's steps on the shared x axis; ``None`` when the run cannot be placed on it (samples seen
    asked for, but its config has no batch size)."""
    import numpy as np

    x = steps.astype(np.float64)
    if axis == "samples":
        size = batch_size(config)
        if size is None:
            return None
        x = x * size
    return x


def value_at(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], at: float) -> float | None:
    """The value of the series at ``at``: its nearest point at or before it (``None`` before its first
    point). ``x`` is sorted, as a run's steps are."""
    import numpy as np

    index = int(np.searchsorted(x, at, side="right")) - 1
    return float(y[index]) if index >= 0 else None


@dataclass(frozen=True)
class Difference:
    """``value - baseline`` and the same relative to the baseline (``None`` when the baseline is 0)."""

    absolute: float
    percent: float | None


def difference(value: float | None, baseline: float | None) -> Difference | None:
    """How far ``value`` is from ``baseline``; ``None`` when either is missing or not finite."""
    if value is None or baseline is None or not (math.isfinite(value) and math.isfinite(baseline)):
        return None
    absolute = value - baseline
    return Difference(absolute, absolute / abs(baseline) * 100.0 if baseline != 0 else None)


@dataclass(frozen=True)
class AlignedSeries:
    """One run's series of one metric, already on the shared x axis."""

    run_id: str
    x: npt.NDArray[np.float64]
    y: npt.NDArray[np.float64]


@dataclass(frozen=True)
class RunValue:
    """A row of the comparison table: the run's latest value, and where and how it differs from the
    baseline (``at`` is ``None`` for the baseline itself and when there is nothing to compare)."""

    run_id: str
    latest: float | None
    at: float | None = None
    diff: Difference | None = None
    is_baseline: bool = False


def compare_latest(runs: Sequence[AlignedSeries], baseline: str | None) -> list[RunValue]:
    """Each run's latest value, and its difference to ``baseline`` at the last x both reached."""
    base = next((r for r in runs if r.run_id == baseline), None)
    rows = []
    for run in runs:
        latest = float(run.y[-1]) if len(run.y) else None
        if base is None or run is base or not len(run.x) or not len(base.x):
            rows.append(RunValue(run.run_id, latest, is_baseline=run is base))
            continue
        at = float(min(run.x[-1], base.x[-1]))
        diff = difference(value_at(run.x, run.y, at), value_at(base.x, base.y, at))
        rows.append(RunValue(run.run_id, latest, at=at, diff=diff))
    return rows


# --------------------------------------------------------------------------- the runs sidebar's list


@dataclass(frozen=True)
class RunEntry:
    """What the runs sidebar lists and filters on for one run."""

    run_id: str
    name: str
    status: str
    task: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    run_dir: Path | None = None


def _tags(config: Mapping[str, Any]) -> tuple[str, ...]:
    value = config.get("tags")
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Sequence):
        return tuple(str(v) for v in value if isinstance(v, str | int | float))
    return ()


def list_entries(store: RunStore) -> list[RunEntry]:
    """Every run of the workspace with its task and tags (from ``run.yaml``'s config), newest first.

    Reads one ``run.yaml`` per run, so it runs on a worker, never on the UI thread.
    """
    from workbench.runs import read_run_config

    entries = []
    for summary in store.list():
        config = read_run_config(summary.run_dir)
        task = config.get("task")
        entries.append(
            RunEntry(
                run_id=summary.run_id,
                name=summary.name,
                status=summary.status,
                task=task if isinstance(task, str) else "",
                tags=_tags(config),
                run_dir=summary.run_dir,
            )
        )
    return entries


FILTER_FIELDS = ("name", "id", "status", "task", "tag")


def matches(entry: RunEntry, query: str) -> bool:
    """Whether ``entry`` passes the filter: every word of ``query`` must be found (case-insensitive,
    as a substring) in the run's name or id, status, task or a tag; ``status:failed``, ``task:cls``,
    ``tag:lr-sweep``, ``name:…``, ``id:…`` look in that field only. An empty query passes all."""
    fields = {
        "name": [entry.name.lower()],
        "id": [entry.run_id.lower()],
        "status": [entry.status.lower()],
        "task": [entry.task.lower()],
        "tag": [tag.lower() for tag in entry.tags],
    }
    for word in query.lower().split():
        key, sep, value = word.partition(":")
        if sep and key in fields:
            if not any(value in text for text in fields[key]):
                return False
        elif not any(word in text for texts in fields.values() for text in texts):
            return False
    return True
