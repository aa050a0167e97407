"""What the 1 Hz system sampler costs a run (docs/architecture.md, "System metrics").

1. One sample's cost: :meth:`SystemSampler.sample_once` timed on this thread (CPU %, RSS, and the GPUs
   when this machine has any). The sampler's thread holds the interpreter at most this long a second,
   so this over 1 s bounds the share of the training thread's time it can take.
2. Throughput of a loop of ~10 ms steps of pure Python (it holds the interpreter all the time: the
   worst case for sharing it; Paddle's kernels release it) with the sampler on vs off, alternating
   runs; the ratio of medians is printed. On a loaded machine this ratio carries the machine's noise;
   the figure of part 1 does not.

Run from the repository root: ``python benchmarks/system_sampler.py [SECONDS_PER_RUN] [ROUNDS]``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.envcheck.monitor import SystemMonitor  # noqa: E402
from workbench.metric_store import MetricStore  # noqa: E402
from workbench.runner import JobContext, start_in_process  # noqa: E402
from workbench.runner.system_sampler import SystemSampler  # noqa: E402
from workbench.runs import EventWriter, RunStore  # noqa: E402

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def sample_cost(tmp: Path, samples: int = 50) -> tuple[float, float]:
    """(median, max) milliseconds of one sample."""
    metrics = MetricStore()
    metrics.record(0, 1, {"loss": 1.0}, time.time())
    writer = EventWriter(tmp / "cost" / "events.jsonl")
    monitor = SystemMonitor()
    sampler = SystemSampler(writer=writer, metrics=metrics, monitor=monitor)
    sampler.sample_once(monitor)  # the first sample sets the CPU baseline (a 0.25 s wait)
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        sampler.sample_once(monitor)
        times.append((time.perf_counter() - started) * 1000)
    sampler.stop()
    writer.close()
    return statistics.median(times), max(times)


def spin_10ms() -> None:
    end = time.perf_counter() + 0.010
    x = 0
    while time.perf_counter() < end:
        x += 1


def steps_per_s(store: RunStore, system: bool) -> float:
    result: dict[str, Any] = {}

    def job(ctx: JobContext) -> None:
        step, started = 0, time.perf_counter()
        while time.perf_counter() - started < SECONDS:
            spin_10ms()
            step += 1
            ctx.log(step, loss=1.0 / step)
        result["rate"] = step / (time.perf_counter() - started)

    run = start_in_process(store, "bench", job, system_metrics=system)
    run.wait()
    return float(result["rate"])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        median_ms, max_ms = sample_cost(Path(tmp))
        print(
            f"one sample: median {median_ms:.2f} ms, max {max_ms:.2f} ms  (at 1 Hz: {median_ms / 10:.3f} % of a second)"
        )
        store = RunStore(Path(tmp) / "ws")
        on, off = [], []
        for _ in range(ROUNDS):
            off.append(steps_per_s(store, False))
            on.append(steps_per_s(store, True))
        ratio = statistics.median(on) / statistics.median(off)
        print(
            f"10 ms pure-Python steps: {statistics.median(off):.1f}/s bare, {statistics.median(on):.1f}/s "
            f"sampled -> ratio {ratio:.4f}  ({ROUNDS} rounds of {SECONDS:g} s)"
        )


if __name__ == "__main__":
    main()
