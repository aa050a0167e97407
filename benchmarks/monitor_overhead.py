"""What watching a run costs the run, measured side by side in one process (docs/architecture.md, "Budgets").

1. Training throughput with the TUI monitoring vs the same loop bare, for a ~1 ms-step MLP and a
   ≥ 10 ms-step CNN (Paddle, CPU). The TUI is the real app (headless driver, 120×40) with the monitor
   open on the live job. Bare and monitored runs alternate, twice each; ratios of medians are printed.
   The UI thread's own CPU time during the monitored runs is printed too: it is steadier than the
   throughput ratio on a noisy machine.
2. UI event-loop lag while a job streams 10k samples/s: a 10 ms timer on the UI loop records how late
   it fires; p50/p99 are printed (budget p99 < 50 ms).

With ``--grid`` the monitor shows the chart grid (g) and the job logs 14 metrics a step, so 12 charts are
on screen (the issue-9 budgets are stated with the grid visible).

Run from the repository root: ``python benchmarks/monitor_overhead.py [SECONDS_PER_RUN] [--grid]``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GLOG_minloglevel", "2")

from workbench.runner import JobContext, start_in_process  # noqa: E402
from workbench.screens.app import WorkbenchApp  # noqa: E402

GRID = "--grid" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--grid"]
GRID_METRICS = (
    "eval/acc", "samples_per_s", "data_wait_ms", "compute_ms", "step_ms", "gpu_alloc_mib", "grad_norm",
    "loss_cls", "loss_box", "loss_dfl", "sys/cpu_percent", "sys/rss_mib",
)  # fmt: skip
"""With loss and lr: 14 metrics, 12 charts (loss, lr, throughput, step time, memory and 7 more)."""


def metrics(step: int, loss: float) -> dict[str, float]:
    values = {"loss": loss, "lr": 0.01}
    if GRID:
        values.update({name: float(index + 1) + 1.0 / step for index, name in enumerate(GRID_METRICS)})
    return values


def show_grid(app: WorkbenchApp) -> None:
    screen = app.screen
    if GRID and hasattr(screen, "action_grid") and not getattr(screen, "grid_mode", False):
        screen.action_grid()


def make_step(kind: str) -> Any:
    import paddle

    paddle.seed(0)
    if kind == "mlp":
        # sized for a ~1 ms step on 2 CPU cores (the budget's "1 ms steps")
        model = paddle.nn.Sequential(paddle.nn.Linear(256, 512), paddle.nn.ReLU(), paddle.nn.Linear(512, 10))
        x = paddle.randn([64, 256])
    else:
        model = paddle.nn.Sequential(
            paddle.nn.Conv2D(3, 32, 3, padding=1), paddle.nn.ReLU(), paddle.nn.Conv2D(32, 32, 3, padding=1),
            paddle.nn.ReLU(), paddle.nn.Flatten(), paddle.nn.Linear(32 * 32 * 32, 10),
        )  # fmt: skip
        x = paddle.randn([32, 3, 32, 32])
    y = paddle.randint(0, 10, [x.shape[0]])
    opt = paddle.optimizer.SGD(0.01, parameters=model.parameters())

    def step() -> float:
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return float(loss.item())

    return step


def bare_steps_per_s(step: Any, seconds: float) -> float:
    count, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        step()
        count += 1
    return count / (time.perf_counter() - t0)


def job_fn(step: Any, seconds: float, result: dict[str, float]) -> Any:
    def run(ctx: JobContext) -> None:
        count, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds and not ctx.cancelled:
            loss = step()
            count += 1
            ctx.log(count, **metrics(count, loss))
        result["rate"] = count / (time.perf_counter() - t0)

    return run


async def monitored_steps_per_s(step: Any, seconds: float, workspace: Path) -> tuple[float, float]:
    """Steps/s with the monitor live, and the UI thread's CPU time as a share of wall time."""
    result: dict[str, float] = {}
    app = WorkbenchApp(workspace, preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        # Steady state: build the monitor screen (CSS, widgets: a one-off ~0.3 s) before the clock runs.
        app.switch_mode("monitor")
        await pilot.pause(0.2)
        show_grid(app)
        await pilot.pause(0.1)
        ui_cpu, wall = time.thread_time(), time.perf_counter()
        job = app.start_job(lambda store: start_in_process(store, "bench", job_fn(step, seconds, result)))
        while not job.done:
            await asyncio.sleep(0.1)
        ui_share = (time.thread_time() - ui_cpu) / (time.perf_counter() - wall)
        await pilot.pause()
    return result["rate"], ui_share


async def loop_lag(samples_per_s: int, seconds: float, workspace: Path) -> list[float]:
    lags: list[float] = []
    stop = threading.Event()

    def stream(ctx: JobContext) -> None:
        step, t0 = 0, time.perf_counter()
        while not stop.is_set() and not ctx.cancelled:
            target = int((time.perf_counter() - t0) * samples_per_s)
            while step < target:
                step += 1
                ctx.log(step, **metrics(step, 1.0 / step))
            time.sleep(0.001)

    app = WorkbenchApp(workspace, preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(lambda store: start_in_process(store, "stream", stream))
        await pilot.pause(0.3)
        show_grid(app)
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            lags.append(max(0.0, now - last[0] - 0.01) * 1000)
            last[0] = now

        app.set_interval(0.01, tick)
        await asyncio.sleep(seconds)
        stop.set()
        job.wait(5)
        await pilot.pause()
    return lags[5:]


async def main() -> None:
    seconds = float(ARGS[0]) if ARGS else 6.0
    print("monitor view:", "chart grid, 14 metrics, 12 charts" if GRID else "one-metric plot")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("mlp", "cnn"):
            step = make_step(kind)
            for _ in range(20):
                step()  # warm-up
            bare, monitored, ui = [], [], []
            for index in range(2):
                bare.append(bare_steps_per_s(step, seconds))
                rate, share = await monitored_steps_per_s(step, seconds, Path(tmp) / f"{kind}{index}")
                monitored.append(rate)
                ui.append(share)
            b, m = statistics.median(bare), statistics.median(monitored)
            print(
                f"{kind}: step ≈ {1000 / b:.2f} ms; bare {b:.1f} steps/s {[round(x, 1) for x in bare]}, "
                f"monitored {m:.1f} steps/s {[round(x, 1) for x in monitored]} → ratio {m / b:.3f}; "
                f"UI thread CPU {100 * statistics.median(ui):.1f}% of wall"
            )
        lags = sorted(await loop_lag(10_000, seconds, Path(tmp) / "lag"))
        p50 = lags[len(lags) // 2]
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        print(f"UI loop lag with 10k samples/s: p50 {p50:.1f} ms, p99 {p99:.1f} ms (budget p99 < 50 ms)")


if __name__ == "__main__":
    asyncio.run(main())
