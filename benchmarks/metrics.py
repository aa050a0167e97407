"""The metric path's budgets (docs/architecture.md, "Budgets"), measured side by side in one run.

* cost of one ``JobContext.log`` call on the training thread (budget ≤ 5 µs), next to a bare
  ``deque.append`` for scale;
* plot redraw time at 1k, 100k and 1M points of history (budget < 50 ms, flat in N);
* memory of metric history per step per series (budget ≤ 16 bytes).

Run from the repository root: ``python benchmarks/metrics.py``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.metric_store import MetricSeries, MetricStore  # noqa: E402
from workbench.runner import JobContext  # noqa: E402
from workbench.runs import RunStore  # noqa: E402
from workbench.screens.widgets.plot import BraillePlot, PlotSeries  # noqa: E402

N_SAMPLES = 200_000


def per_call_us(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    best = []
    for _ in range(3):
        t0 = time.perf_counter()
        fn(n)
        best.append((time.perf_counter() - t0) / n * 1e6)
    return min(best)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        handle = RunStore(tmp).create("bench")
        ctx = JobContext(
            run_dir=handle.run_dir, run_id=handle.run_id, writer=handle.writer, metrics=MetricStore()
        )

        def log_calls(n: int) -> None:
            for step in range(n):
                ctx.log(step, loss=0.5, lr=0.01, samples_per_s=1000.0)

        sink: deque[tuple[int, float]] = deque()

        def deque_calls(n: int) -> None:
            for step in range(n):
                sink.append((step, 0.5))

        log_us = per_call_us(log_calls, N_SAMPLES)
        deque_us = per_call_us(deque_calls, N_SAMPLES)
        handle.close()
    print(
        f"ctx.log (3 values): {log_us:.2f} µs/sample   bare deque.append: {deque_us:.2f} µs   "
        f"ratio to 5 µs budget: {log_us / 5:.2f}"
    )

    plot = BraillePlot()
    times = {}
    for n in (1_000, 100_000, 1_000_000):
        x = np.arange(n, dtype=np.float64)
        y = np.exp(-x / n * 5) + np.random.default_rng(0).random(n) * 0.1
        plot.set_series(
            [PlotSeries("loss", x, y, "#4f8ff7"), PlotSeries("val", x[::10], y[::10] + 0.1, "#ffb454")]
        )
        samples = []
        for _ in range(7):
            t0 = time.perf_counter()
            plot.render_lines_text(120, 30)
            samples.append((time.perf_counter() - t0) * 1000)
        times[n] = statistics.median(samples)
    print(
        "plot redraw 120x30, 2 series (median ms): "
        + "  ".join(f"{n:>9,} pts: {ms:6.2f}" for n, ms in times.items())
        + f"   1M/1k ratio: {times[1_000_000] / times[1_000]:.2f}"
    )

    series = MetricSeries()
    n = 1_000_000
    for step in range(n):
        series.append(step, 0.5)
    print(f"history memory: {series.nbytes() / n:.2f} bytes per step per series at 1M steps (budget 16)")
    short = MetricSeries()
    for step in range(100):
        short.append(step, 0.5)
    print(f"history memory: {short.nbytes() / 100:.2f} bytes per step for a 100-step series")


if __name__ == "__main__":
    main()
