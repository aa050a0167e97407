"""The UI thread's CPU time with the chart grid on screen, this checkout beside another (before/after).

The budget (docs/architecture.md, "Budgets"): with a grid of at least 12 charts visible, the UI thread
uses ≤ 3 % of wall time. Wall-clock throughput on a shared machine says little about that; the UI
thread's own CPU seconds (``time.thread_time`` on the event-loop thread) do. Each measurement is a fresh
process: the real app (headless driver, 120×40), the monitor with the grid open (``g``), and a job that
logs 14 metrics a step (12 charts) with a fixed step time made of sleep, so the figure is the UI's work
alone. The clock starts after a warm-up (charts mounted, first picture drawn) and runs SECONDS.

``--against DIR`` runs the same measurement with another checkout (its ``.venv``, e.g. a worktree of
``main``), alternating the two ``--rounds`` times so that load on the machine hits both alike, and prints
the medians and their ratio. ``--step-ms`` sets the step time (default 10), ``--rows N`` gives each
series N points of history before the clock starts (a long run; default 0).

Run from the repository root: ``python benchmarks/grid_ui_cpu.py [SECONDS] [--against DIR]
[--rounds N] [--step-ms MS] [--rows N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAMES = (
    "eval/acc", "samples_per_s", "data_wait_ms", "compute_ms", "step_ms", "gpu_alloc_mib", "grad_norm",
    "loss_cls", "loss_box", "loss_dfl", "sys/cpu_percent", "sys/rss_mib",
)  # fmt: skip
"""With loss and lr: 14 metrics, 12 charts (as in benchmarks/monitor_overhead.py --grid)."""
WARMUP_S = 3.0


def _values(step: int) -> dict[str, float]:
    values = {"loss": 1.0 / step, "lr": 0.01}
    values.update({name: index + 1 + 1.0 / step for index, name in enumerate(NAMES)})
    return values


async def _measure(seconds: float, step_s: float, rows: int) -> dict[str, float]:
    """One measurement in this process (whatever checkout ``workbench`` is imported from)."""
    from workbench.runner import JobContext, start_in_process
    from workbench.screens.app import WorkbenchApp

    def job(ctx: JobContext) -> None:
        step = 0
        for step in range(1, rows + 1):  # a long history first, as fast as it goes
            ctx.log(step, **_values(step))
        while not ctx.cancelled:
            step += 1
            ctx.log(step, **_values(step))
            time.sleep(step_s)

    with tempfile.TemporaryDirectory() as tmp:
        app = WorkbenchApp(Path(tmp), preload_paddle=False)
        async with app.run_test(size=(120, 40)) as pilot:
            app.switch_mode("monitor")
            await pilot.pause(0.2)
            app.screen.action_grid()  # type: ignore[attr-defined]
            running = app.start_job(lambda store: start_in_process(store, "grid-ui-cpu", job))
            while running.metrics.samples < rows:  # type: ignore[attr-defined]
                await asyncio.sleep(0.1)
            await asyncio.sleep(WARMUP_S)
            grid = app.screen.query_one("#monitor-grid")
            redraws0, steps0 = grid.redraws, running.metrics.samples  # type: ignore[attr-defined]
            cpu, wall = time.thread_time(), time.perf_counter()
            await asyncio.sleep(seconds)
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            redraws, steps = grid.redraws - redraws0, running.metrics.samples - steps0  # type: ignore[attr-defined]
            running.cancel()
            await pilot.pause()
    return {"cpu_s": cpu, "wall_s": wall, "share": cpu / wall, "redraws": redraws, "steps": steps}


def _run_one(python: str, seconds: float, step_ms: float, rows: int) -> dict[str, float]:
    """A measurement in a fresh process of ``python`` (a checkout's venv: its own ``workbench``)."""
    command = [python, __file__, str(seconds), "--one", "--step-ms", str(step_ms), "--rows", str(rows)]
    env = {**os.environ, "GLOG_minloglevel": "2"}
    out = subprocess.run(
        command, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(), env=env
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=10.0)
    parser.add_argument("--against", type=Path, help="another checkout with its own .venv")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--step-ms", type=float, default=10.0)
    parser.add_argument("--rows", type=int, default=0)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asyncio.run(_measure(args.seconds, args.step_ms / 1000, args.rows))))
        return
    variants = {"this checkout": sys.executable}
    if args.against is not None:
        variants[f"{args.against}"] = str(args.against.resolve() / ".venv" / "bin" / "python")
    results: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, python in variants.items():
            results[name].append(_run_one(python, args.seconds, args.step_ms, args.rows))
            loads.append(os.getloadavg()[0])
    print(
        f"grid of 12 charts, 14 metrics, {args.step_ms:g} ms steps, {args.rows} points of history, "
        f"{args.seconds:g} s per measurement × {args.rounds}; load average {min(loads):.1f}–{max(loads):.1f} "
        f"on {os.cpu_count()} CPUs"
    )
    shares = {}
    for name, runs in results.items():
        shares[name] = statistics.median(r["share"] for r in runs)
        cpu = statistics.median(r["cpu_s"] for r in runs)
        redraws = statistics.median(r["redraws"] / r["wall_s"] for r in runs)
        print(
            f"  {name}: UI thread CPU {100 * shares[name]:.2f} % of wall (median; runs "
            f"{[round(100 * r['share'], 2) for r in runs]}), {cpu:.3f} CPU-s per {args.seconds:g} s, "
            f"{redraws:.1f} chart redraws/s"
        )
    if len(shares) == 2:
        this, other = shares.values()
        print(f"  this checkout / other: {this / other:.2f} of the UI thread's CPU time")


if __name__ == "__main__":
    main()
