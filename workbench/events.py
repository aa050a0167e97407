"""The event vocabulary shared by every run, and the metric series that hold per-step samples.

A run produces two kinds of output (docs/architecture.md, "Event model"):

* **lifecycle events** — rare, past-tense dataclasses (:class:`RunStarted` … :class:`RunCancelled`);
* **metric samples** — frequent ``(rank, step, time, {name: value})`` rows, appended to a
  :class:`MetricSeries` in O(1) with no I/O and no lock, drained by the UI on a timer.

Both serialise to one JSON object per line in ``events.jsonl`` (docs/architecture.md, "Run store");
:func:`event_from_dict`
reads them back and ignores fields it does not know.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

# --------------------------------------------------------------------------- lifecycle events


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every lifecycle event; ``type`` is the stable name written to ``events.jsonl``."""

    TYPE: ClassVar[str] = "event"
    time: float = field(default_factory=time.time, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, ``{"type": ..., "time": ..., <fields>}``."""
        payload = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"type": self.TYPE, **payload}


@dataclass(frozen=True, slots=True)
class RunStarted(Event):
    TYPE: ClassVar[str] = "run_started"
    run_id: str = ""
    name: str = ""
    kind: str = "in_process"  # or "launched"
    pid: int = 0
    ranks: int = 1


@dataclass(frozen=True, slots=True)
class CheckpointSaved(Event):
    TYPE: ClassVar[str] = "checkpoint_saved"
    step: int = 0
    path: str = ""


@dataclass(frozen=True, slots=True)
class AlertRaised(Event):
    """Something the user must look at: ``kind`` is e.g. ``nonfinite``, ``hang``, ``divergence``."""

    TYPE: ClassVar[str] = "alert_raised"
    kind: str = ""
    message: str = ""
    step: int | None = None
    rank: int = 0
    details: str = ""


@dataclass(frozen=True, slots=True)
class RunFinished(Event):
    TYPE: ClassVar[str] = "run_finished"
    step: int | None = None
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunFailed(Event):
    TYPE: ClassVar[str] = "run_failed"
    error: str = ""
    traceback: str = ""
    step: int | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class RunCancelled(Event):
    TYPE: ClassVar[str] = "run_cancelled"
    step: int | None = None


@dataclass(frozen=True, slots=True)
class MetricSample(Event):
    """One row of metrics; only used for serialisation — the hot path appends to series directly."""

    TYPE: ClassVar[str] = "metrics"
    rank: int = 0
    step: int = 0
    values: dict[str, float] = field(default_factory=dict)


LIFECYCLE_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls for cls in (RunStarted, CheckpointSaved, AlertRaised, RunFinished, RunFailed, RunCancelled)
}
TERMINAL_TYPES = frozenset({RunFinished.TYPE, RunFailed.TYPE, RunCancelled.TYPE})


def event_from_dict(data: Mapping[str, Any]) -> Event | None:
    """Rebuild an event from its JSON form; unknown types give ``None``, unknown fields are ignored."""
    kind = data.get("type")
    cls: type[Event] | None = MetricSample if kind == MetricSample.TYPE else LIFECYCLE_TYPES.get(str(kind))
    if cls is None:
        return None
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k in names}
    try:
        return cls(**kwargs)
    except TypeError:
        return None


def json_safe_float(value: float) -> float | str:
    """JSON has no NaN/Inf; keep them readable as strings so a non-finite loss is not lost."""
    if math.isfinite(value):
        return value
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def parse_float(value: Any) -> float:
    """Inverse of :func:`json_safe_float` (``float("nan")`` reads the string forms back)."""
    return float(value)


# --------------------------------------------------------------------------- metric series


class MetricSeries:
    """Append-only ``(step, value)`` history in fixed-size numpy chunks.

    * ``append`` is O(1) and never reallocates existing data (a new chunk when one fills), so the
      training thread pays ~1 µs, holds no lock and does no I/O.
    * Memory is 16 bytes per point (int64 step + float64 value) plus one partly filled chunk.
    * A single writer thread and any number of reader threads: the writer stores the point, *then*
      publishes the new length, so a reader that snapshots ``len`` first never sees a half-written point.
    """

    CHUNK = 4096

    __slots__ = ("_chunks", "_len", "_cache", "_cache_len")

    def __init__(self) -> None:
        self._chunks: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]] = []
        self._len = 0
        self._cache: tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]] | None = None
        self._cache_len = 0

    def __len__(self) -> int:
        return self._len

    def append(self, step: int, value: float) -> None:
        n = self._len
        index = n % self.CHUNK
        if index == 0:
            self._chunks.append((np.empty(self.CHUNK, np.int64), np.empty(self.CHUNK, np.float64)))
        steps, values = self._chunks[-1]
        steps[index] = step
        values[index] = value
        self._len = n + 1

    def last(self) -> tuple[int, float] | None:
        n = self._len
        if n == 0:
            return None
        steps, values = self._chunks[(n - 1) // self.CHUNK]
        i = (n - 1) % self.CHUNK
        return int(steps[i]), float(values[i])

    def arrays(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Contiguous copies of the history so far (cached until the series grows)."""
        n = self._len
        if self._cache is not None and self._cache_len == n:
            return self._cache
        full, rest = divmod(n, self.CHUNK)
        chunks = self._chunks[: full + (1 if rest else 0)]
        if not chunks:
            return np.empty(0, np.int64), np.empty(0, np.float64)
        steps = np.concatenate([c[0] for c in chunks])[:n]
        values = np.concatenate([c[1] for c in chunks])[:n]
        self._cache, self._cache_len = (steps, values), n
        return self._cache

    def nbytes(self) -> int:
        return sum(s.nbytes + v.nbytes for s, v in self._chunks)


def decimate_minmax(
    x: npt.NDArray[Any], y: npt.NDArray[np.float64], columns: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Reduce a series to at most ``2 * columns`` points keeping each column's min and max.

    A line plot of the result looks like the plot of every point (spikes survive), and its cost is
    flat in the history length. Non-finite values are dropped from the envelope.
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    finite = np.isfinite(ys)
    if not finite.all():
        xs, ys = xs[finite], ys[finite]
    n = len(ys)
    if columns <= 0 or n <= 2 * columns:
        return xs, ys
    edges = np.linspace(0, n, columns + 1).astype(np.int64)
    starts = edges[:-1]
    mins = np.minimum.reduceat(ys, starts)
    maxs = np.maximum.reduceat(ys, starts)
    mid = xs[np.minimum(starts + (edges[1:] - starts) // 2, n - 1)]
    out_x = np.repeat(mid, 2)
    out_y = np.empty(2 * columns, dtype=np.float64)
    out_y[0::2] = mins
    out_y[1::2] = maxs
    return out_x, out_y


class MetricStore:
    """All series of one run, keyed by ``(rank, name)``; filled by one producer per rank."""

    def __init__(self) -> None:
        self._series: dict[tuple[int, str], MetricSeries] = {}
        self._lock = threading.Lock()  # only taken when a new series is created
        self.last_step: dict[int, int] = {}
        self.last_time: float = 0.0
        self.samples = 0

    def record(self, rank: int, step: int, values: Mapping[str, float], when: float) -> None:
        """Append one sample (hot path: dict lookups and numpy stores, no I/O)."""
        series = self._series
        for name, value in values.items():
            s = series.get((rank, name))
            if s is None:
                with self._lock:
                    s = series.setdefault((rank, name), MetricSeries())
            s.append(step, value)
        self.last_step[rank] = step
        self.last_time = when
        self.samples += 1

    def series(self, name: str, rank: int = 0) -> MetricSeries | None:
        return self._series.get((rank, name))

    def names(self) -> list[str]:
        return sorted({name for _, name in list(self._series)})

    def ranks(self) -> list[int]:
        return sorted({rank for rank, _ in list(self._series)})

    def latest(self, rank: int = 0) -> dict[str, float]:
        """The last value of every series of ``rank``."""
        out: dict[str, float] = {}
        for (r, name), s in list(self._series.items()):
            if r == rank:
                last = s.last()
                if last is not None:
                    out[name] = last[1]
        return out

    def __iter__(self) -> Iterator[tuple[tuple[int, str], MetricSeries]]:
        return iter(list(self._series.items()))
