from __future__ import annotations

import math

import numpy as np

from workbench.events import AlertRaised, RunFailed, RunStarted, event_from_dict, json_safe_float, parse_float
from workbench.metric_store import MetricSeries, MetricStore, decimate_minmax


def test_series_appends_across_chunks_and_reads_back() -> None:
    series = MetricSeries()
    n = MetricSeries.CHUNK * 2 + 17
    for step in range(n):
        series.append(step, step * 0.5)
    steps, values = series.arrays()
    assert len(series) == n
    assert steps.tolist() == list(range(n))
    assert values[-1] == (n - 1) * 0.5
    assert series.last() == (n - 1, (n - 1) * 0.5)


def test_series_memory_is_16_bytes_per_point_plus_one_chunk() -> None:
    series = MetricSeries()
    n = 100_000
    for step in range(n):
        series.append(step, 1.0)
    assert series.nbytes() <= 16 * n + 16 * MetricSeries.CHUNK


def test_a_short_series_holds_at_most_twice_its_points() -> None:
    """The first chunk doubles from FIRST points (it used to be 4096 points, 64 KiB, for any series)."""
    series = MetricSeries()
    for step in range(1, 301):
        series.append(step, float(step))
        assert series.nbytes() <= 2 * 16 * max(step, MetricSeries.FIRST)
        assert series.last() == (step, float(step))  # readable right after every growth
    assert series.arrays()[0].tolist() == list(range(1, 301))


def test_the_first_chunk_grows_to_a_full_chunk_before_the_next_one_starts() -> None:
    series = MetricSeries()
    for step in range(MetricSeries.CHUNK + 1):
        series.append(step, -float(step))
    steps, values = series.arrays()
    assert steps.tolist() == list(range(MetricSeries.CHUNK + 1))
    assert values[MetricSeries.CHUNK - 1] == -(MetricSeries.CHUNK - 1)
    assert series.nbytes() == 16 * 2 * MetricSeries.CHUNK


def test_arrays_are_cached_until_the_series_grows() -> None:
    series = MetricSeries()
    series.append(1, 1.0)
    first = series.arrays()
    assert series.arrays() is first
    series.append(2, 2.0)
    assert series.arrays() is not first


def test_decimation_keeps_spikes_and_bounds_point_count() -> None:
    x = np.arange(100_000)
    y = np.zeros(100_000)
    y[54_321] = 9.0
    y[77_777] = -3.0
    dx, dy = decimate_minmax(x, y, 100)
    assert len(dx) == len(dy) == 200
    assert dy.max() == 9.0 and dy.min() == -3.0


def test_decimation_drops_non_finite_values() -> None:
    x = np.arange(10)
    y = np.array([1.0, np.nan, 2.0, np.inf, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    dx, dy = decimate_minmax(x, y, 100)
    assert np.isfinite(dy).all() and len(dy) == 8


def test_store_records_per_rank_and_latest() -> None:
    store = MetricStore()
    store.record(0, 1, {"loss": 1.0, "lr": 0.1}, 1.0)
    store.record(1, 1, {"loss": 2.0}, 1.0)
    store.record(0, 2, {"loss": 0.5}, 2.0)
    assert store.ranks() == [0, 1]
    assert store.names() == ["loss", "lr"]
    assert store.latest(0) == {"loss": 0.5, "lr": 0.1}
    assert store.last_step == {0: 2, 1: 1}


def test_event_round_trip_ignores_unknown_fields() -> None:
    event = AlertRaised(kind="nonfinite", message="loss is nan", step=7)
    data = event.to_dict() | {"added_by_a_newer_writer": 1}
    back = event_from_dict(data)
    assert back == event
    assert event_from_dict({"type": "something_new"}) is None
    assert isinstance(event_from_dict(RunStarted(run_id="r").to_dict()), RunStarted)
    assert isinstance(event_from_dict(RunFailed(error="x").to_dict()), RunFailed)


def test_non_finite_values_survive_json() -> None:
    for value in (math.nan, math.inf, -math.inf, 1.5):
        back = parse_float(json_safe_float(value))
        assert (math.isnan(back) and math.isnan(value)) or back == value


def test_thread_router_keeps_fileno_of_the_wrapped_stream() -> None:
    import io
    import tempfile

    from workbench.capture import ThreadOutputRouter

    with tempfile.TemporaryFile("w+") as fh:
        router = ThreadOutputRouter(fh)  # type: ignore[arg-type]
        assert router.fileno() == fh.fileno()
    assert isinstance(ThreadOutputRouter(io.StringIO()), io.TextIOBase)
