"""The in-memory history of a run's metrics: one append-only series per ``(rank, name)``.

Kept apart from :mod:`workbench.events` (the event vocabulary every module reads) because it is the one
part that needs numpy: the run list and the CLI import the events on every start and do not pay for
numpy before the first frame.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt


class MetricSeries:
    """Append-only ``(step, value)`` history in fixed-size numpy chunks.

    * ``append`` is O(1) and never reallocates existing data (a new chunk when one fills), so the
      training thread pays ~1 µs, holds no lock and does no I/O.
    * Memory is 16 bytes per point (int64 step + float64 value) plus one partly filled chunk. The first
      chunk starts at ``FIRST`` points and doubles up to ``CHUNK`` (copying what it holds), so a run with
      a few dozen steps or a rarely logged metric does not hold 64 KiB per series.
    * A single writer thread and any number of reader threads: the writer stores the point, *then*
      publishes the new length, so a reader that snapshots ``len`` first never sees a half-written point.
    """

    CHUNK = 4096
    FIRST = 16

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
            size = self.FIRST if n == 0 else self.CHUNK
            self._chunks.append((np.empty(size, np.int64), np.empty(size, np.float64)))
        steps, values = self._chunks[-1]
        if index == len(steps):  # the first chunk is full below CHUNK: double it
            size = min(2 * index, self.CHUNK)
            grown = (np.empty(size, np.int64), np.empty(size, np.float64))
            grown[0][:index], grown[1][:index] = steps, values
            self._chunks[-1] = grown  # published before the length, like every point
            steps, values = grown
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

    def since(self, start: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Copies of the points from index ``start`` on: only the chunks that hold them are read, so a
        reader that follows the series pays for the new points, not for the history."""
        n = self._len
        start = min(max(start, 0), n)
        if start == n:
            return np.empty(0, np.int64), np.empty(0, np.float64)
        first, last = start // self.CHUNK, (n - 1) // self.CHUNK
        chunks = self._chunks[first : last + 1]
        offset, stop = start - first * self.CHUNK, n - first * self.CHUNK
        steps = np.concatenate([c[0] for c in chunks])[offset:stop]
        values = np.concatenate([c[1] for c in chunks])[offset:stop]
        return steps, values

    def step_at(self, index: int) -> int:
        """The step of point ``index`` (0 ≤ index < len)."""
        return int(self._chunks[index // self.CHUNK][0][index % self.CHUNK])

    def value_at(self, index: int) -> float:
        """The value of point ``index`` (0 ≤ index < len)."""
        return float(self._chunks[index // self.CHUNK][1][index % self.CHUNK])

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

    def record_system(self, step: int, values: Mapping[str, float]) -> None:
        """Append one system sample (``sys/...`` series, kept under rank 0) that is not training progress.

        ``last_step``, ``last_time`` and ``samples`` are what the monitor, the ETA and the stall watchdog
        read as "the run moved": a machine sample taken while the run is stuck must not look like a step.
        One writer (the run's system sampler, or the tailer reading its rows back), like every series.
        """
        series = self._series
        for name, value in values.items():
            s = series.get((0, name))
            if s is None:
                with self._lock:
                    s = series.setdefault((0, name), MetricSeries())
            s.append(step, value)

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
