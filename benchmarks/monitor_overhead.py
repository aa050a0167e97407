"""What watching a run costs the run, measured side by side in one process (docs/architecture.md, "Budgets").

1. Training throughput with the TUI monitoring vs the same loop bare, for Paddle models on the CPU with
   ~1 ms, ~10 ms and ~90 ms steps. The TUI is the real app (headless driver, 120×40) with the monitor
   open on the live job. Bare and monitored runs come in adjacent pairs, the order flipped every pair, so
   that the machine's drift (a shared VM: ±3 % between two bare runs a minute apart) hits both sides
   alike; the figure is the median of the pairs' ratios, with their range.
   Two windows: from the run's start (the monitor builds its charts and draws the first picture while
   the run's first steps go) and after its first ``--settle`` seconds (what a run of minutes sees).
2. The UI thread's own CPU time (``time.thread_time`` on the event-loop thread) as a share of wall time —
   steadier than throughput on a noisy machine: from opening the monitor to the run's end (all of it),
   and from the settled point to the end of the training loop (what a long run sees); and the one-off
   cost of opening the monitor on a new run (its first second).
3. UI event-loop lag while a job streams 10k samples/s: a 10 ms timer on the UI loop records how late
   it fires; p50/p99 are printed (budget p99 < 50 ms).

With ``--grid`` the monitor shows the chart grid (g) and the job logs 14 metrics a step, so 12 charts are
on screen (the issue-9 budgets are stated with the grid visible).

Run from the repository root:
``python benchmarks/monitor_overhead.py [SECONDS_PER_RUN] [--grid] [--pairs N] [--models mlp,mlp10,cnn]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("GLOG_minloglevel", "2")

from workbench.runner import JobContext, start_in_process  # noqa: E402
from workbench.screens.app import WorkbenchApp  # noqa: E402

GRID = "--grid" in sys.argv
GRID_METRICS = (
    "eval/acc", "samples_per_s", "data_wait_ms", "compute_ms", "step_ms", "gpu_alloc_mib", "grad_norm",
    "loss_cls", "loss_box", "loss_dfl", "sys/cpu_percent", "sys/rss_mib",
)  # fmt: skip
"""With loss and lr: 14 metrics, 12 charts (loss, lr, throughput, step time, memory and 7 more)."""
MODELS = {"mlp": "~1 ms steps", "mlp10": "~10 ms steps", "cnn": "~90 ms steps"}


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
    if kind in ("mlp", "mlp10"):
        # sized for ~1 ms and ~10 ms steps on one core of this 2-core VM
        width, hidden, batch = (256, 512, 64) if kind == "mlp" else (768, 1536, 128)
        model = paddle.nn.Sequential(
            paddle.nn.Linear(width, hidden), paddle.nn.ReLU(), paddle.nn.Linear(hidden, 10)
        )  # fmt: skip
        x = paddle.randn([batch, width])
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


@dataclass
class Monitored:
    """One monitored run: steps/s and the UI thread's share of wall time, whole run and settled part."""

    rate: float
    rate_settled: float
    ui_share: float
    ui_share_settled: float
    opening_cpu_s: float


def job_fn(step: Any, seconds: float, settle: float, marks: dict[str, float]) -> Any:
    def run(ctx: JobContext) -> None:
        count, t0 = 0, time.perf_counter()
        marks["t0"] = t0
        while (now := time.perf_counter()) - t0 < seconds and not ctx.cancelled:
            if "settled_at" not in marks and now - t0 >= settle:
                marks["settled_at"], marks["settled_count"] = now, count
            loss = step()
            count += 1
            ctx.log(count, **metrics(count, loss))
        end = time.perf_counter()
        marks["rate"] = count / (end - t0)
        marks["rate_settled"] = (count - marks["settled_count"]) / (end - marks["settled_at"])
        marks["end"] = end

    return run


async def monitored_run(step: Any, seconds: float, settle: float, workspace: Path) -> Monitored:
    """A fresh app, the monitor (and grid) open, a new run started and watched to its end."""
    marks: dict[str, float] = {}
    app = WorkbenchApp(workspace, preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_mode("monitor")  # the screen's CSS and widgets: built before the clock runs
        await pilot.pause(0.2)
        ui_cpu, wall = time.thread_time(), time.perf_counter()
        show_grid(app)
        job = app.start_job(
            lambda store: start_in_process(store, "bench", job_fn(step, seconds, settle, marks))
        )
        opening = settled = loop_end = None
        while not job.done:
            await asyncio.sleep(0.02)
            now = time.perf_counter()
            if opening is None and now - wall >= 1.0:
                opening = time.thread_time() - ui_cpu  # opening the monitor on a new run, first second
            if settled is None and "settled_at" in marks:
                settled = (time.thread_time(), now)
            if loop_end is None and "end" in marks:  # the training loop is over: the run's end follows
                loop_end = (time.thread_time(), now)
        ui_end, wall_end = time.thread_time(), time.perf_counter()
        await pilot.pause()
    assert settled is not None and opening is not None
    loop_end = loop_end or (ui_end, wall_end)
    return Monitored(
        rate=marks["rate"],
        rate_settled=marks["rate_settled"],
        ui_share=(ui_end - ui_cpu) / (wall_end - wall),
        ui_share_settled=(loop_end[0] - settled[0]) / (loop_end[1] - settled[1]),
        opening_cpu_s=opening,
    )


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


def spread(values: list[float], scale: float = 1.0, digits: int = 3) -> str:
    """``0.981 (0.962–0.999)``: the median and the range."""
    return (
        f"{round(scale * statistics.median(values), digits)} "
        f"({round(scale * min(values), digits)}–{round(scale * max(values), digits)})"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=6.0, help="per run (default 6)")
    parser.add_argument("--grid", action="store_true", help="the chart grid on screen, 14 metrics a step")
    parser.add_argument("--pairs", type=int, default=8, help="bare/monitored pairs per model (default 8)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before the settled window")
    parser.add_argument("--models", default="mlp,mlp10,cnn", help=f"from {', '.join(MODELS)}")
    parser.add_argument("--lag-seconds", type=float, default=6.0)
    args = parser.parse_args()
    loads = [os.getloadavg()[0]]
    print(
        f"monitor view: {'chart grid, 14 metrics, 12 charts' if GRID else 'one-metric plot'}; "
        f"{args.pairs} pairs of {args.seconds:g} s runs per model, bare and monitored side by side"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.models.split(","):
            step = make_step(kind)
            for _ in range(20):
                step()  # warm-up
            ratios, settled, runs, bares = [], [], [], []
            for index in range(args.pairs):
                workspace = Path(tmp) / f"{kind}{index}"
                if index % 2 == 0:
                    bare = bare_steps_per_s(step, args.seconds)
                    run = await monitored_run(step, args.seconds, args.settle, workspace)
                else:
                    run = await monitored_run(step, args.seconds, args.settle, workspace)
                    bare = bare_steps_per_s(step, args.seconds)
                bares.append(bare)
                ratios.append(run.rate / bare)
                settled.append(run.rate_settled / bare)
                runs.append(run)
                loads.append(os.getloadavg()[0])
            print(
                f"{kind} ({1000 / statistics.median(bares):.1f} ms steps bare):"
                f"\n  throughput monitored / bare: from the run's start {spread(ratios)}, "
                f"after {args.settle:g} s {spread(settled)}"
                f"\n  UI thread CPU, % of wall: from the run's start {spread([r.ui_share for r in runs], 100, 2)}, "
                f"after {args.settle:g} s {spread([r.ui_share_settled for r in runs], 100, 2)}; "
                f"opening the monitor on the run (first second) {spread([r.opening_cpu_s for r in runs])} CPU-s",
                flush=True,
            )
        lags = sorted(await loop_lag(10_000, args.lag_seconds, Path(tmp) / "lag"))
        p50 = lags[len(lags) // 2]
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        print(f"UI loop lag with 10k samples/s: p50 {p50:.1f} ms, p99 {p99:.1f} ms (budget p99 < 50 ms)")
    loads.append(os.getloadavg()[0])
    print(f"load average {min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    asyncio.run(main())
