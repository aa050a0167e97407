"""A chart's view of a long series (workbench.metric_envelope): bounded size, extremes kept, the same
whether fed at once or a few points at a time; MetricSeries.since reads only the new points."""

from __future__ import annotations

import numpy as np

from workbench.metric_envelope import MAX_BUCKETS, Envelope, SmoothedEnvelope, ema_carry
from workbench.metric_store import MetricSeries


def _series(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(seed)
    y = np.exp(-np.arange(n) / (n / 5)) + 0.05 * rng.randn(n)
    y[n // 3] = 40.0  # one spike
    y[n // 2] = np.nan  # one bad step
    return np.arange(1, n + 1, dtype=np.float64), y


def _fed(x: np.ndarray, y: np.ndarray, envelope: Envelope, seed: int = 1) -> Envelope:
    rng = np.random.RandomState(seed)
    start = 0
    while start < len(x):
        stop = start + int(rng.randint(1, 3000))
        envelope.extend(x[start:stop], y[start:stop])
        start = stop
    return envelope


def test_envelope_is_bounded_keeps_the_extremes_and_the_latest_point() -> None:
    x, y = _series(300_000)
    envelope = _fed(x, y, Envelope())
    px, py = envelope.points()
    assert len(px) <= 2 * MAX_BUCKETS + 3 and envelope.count == len(x)
    assert np.all(np.diff(px) >= 0)
    assert py.max() == np.nanmax(y) == 40.0 and py.min() == np.nanmin(y)
    assert (px[-1], py[-1]) == (x[-1], y[-1])
    assert np.isfinite(py).all()
    size = envelope.size
    for i in range(len(x) // size):  # every bucket: the min and max of the raw points it covers
        inside = y[i * size : (i + 1) * size]
        assert (px[2 * i], py[2 * i], py[2 * i + 1]) == (x[i * size], np.nanmin(inside), np.nanmax(inside))


def test_envelope_is_the_same_fed_at_once_or_in_pieces() -> None:
    x, y = _series(50_000, seed=3)
    one = Envelope()
    one.extend(x, y)
    pieces = _fed(x, y, Envelope(), seed=7)
    for a, b in zip(one.points(), pieces.points(), strict=True):
        assert np.array_equal(a, b)


def test_short_series_are_drawn_point_for_point() -> None:
    x, y = _series(900)
    px, py = _fed(x, y, Envelope()).points()
    finite = np.isfinite(y)
    assert np.array_equal(px, x[finite]) and np.array_equal(py, y[finite])


def test_smoothed_envelope_carries_the_ema_across_updates() -> None:
    x, y = _series(900)
    for weight in (0.6, 0.99):
        whole = ema_carry(y, weight)[0]
        px, py = _fed(x, y, SmoothedEnvelope(weight)).points()
        assert np.allclose(py, whole, rtol=1e-9, atol=1e-12)
    x, y = _series(100_000)
    envelope = _fed(x, y, SmoothedEnvelope(0.9))
    assert np.isclose(envelope.points()[1][-1], ema_carry(y, 0.9)[0][-1], rtol=1e-9)


def test_series_since_reads_the_points_from_an_index_on() -> None:
    series = MetricSeries()
    for step in range(3 * MetricSeries.CHUNK + 17):
        series.append(step, step * 0.5)
    steps, values = series.arrays()
    for start in (0, 5, MetricSeries.CHUNK - 1, MetricSeries.CHUNK, 2 * MetricSeries.CHUNK + 3, len(series)):
        got_steps, got_values = series.since(start)
        assert np.array_equal(got_steps, steps[start:]) and np.array_equal(got_values, values[start:])
    assert series.step_at(MetricSeries.CHUNK + 2) == MetricSeries.CHUNK + 2
