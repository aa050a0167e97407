"""Bytes per second the TUI sends to the terminal with the monitor live (≤ 50 KB/s,
≤ 10 KB/s with ``--low-bandwidth``; docs/architecture.md, "Budgets") — what an SSH link has to carry.

The real app runs on a pseudo-terminal (120×40) through the real launch path; a job streams 1,000
samples/s of three metrics and writes a log line every second; the monitor is open. Bytes are counted
after a 3 s warm-up, default and low-bandwidth side by side.
With ``--grid`` the job logs 14 metrics and the monitor shows the chart grid (12 charts on screen).
Run from the repository root: ``python benchmarks/terminal_bandwidth.py [SECONDS] [--grid]``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.ui.pty_harness import run_in_pty  # noqa: E402

WARMUP_S = 3.0

SCRIPT = textwrap.dedent(
    """
    import math, sys, time
    from pathlib import Path
    import workbench.screens.app as app_module
    from workbench.runner import start_in_process
    from workbench.screens.launch import run_tui

    SECONDS = float(sys.argv[3])
    GRID = sys.argv[4] == "grid"
    EXTRA = ("eval/acc", "data_wait_ms", "compute_ms", "step_ms", "gpu_alloc_mib", "grad_norm",
             "loss_cls", "loss_box", "loss_dfl", "sys/cpu_percent", "sys/rss_mib")

    def stream(ctx):
        start = time.perf_counter()
        step = 0
        while time.perf_counter() - start < SECONDS and not ctx.cancelled:
            step += 1
            values = dict(loss=1.0 / math.sqrt(step), lr=0.01, samples_per_s=1000.0)
            if GRID:
                values.update({name: i + 1.0 + 1.0 / step for i, name in enumerate(EXTRA)})
            ctx.log(step, **values)
            if step % 1000 == 0:
                print(f"step {step}")
            time.sleep(0.001)

    class BenchApp(app_module.WorkbenchApp):
        def on_mount(self):
            super().on_mount()
            self.start_job(lambda store: start_in_process(store, "stream", stream))
            self.set_interval(0.5, self._exit_when_done)
            if GRID:
                self.set_timer(1.0, self._grid)

        def _grid(self):
            if hasattr(self.screen, "action_grid"):
                self.screen.action_grid()

        def _exit_when_done(self):
            if self.live_jobs and all(job.done for job in self.live_jobs.values()):
                self.exit(0)

    app_module.WorkbenchApp = BenchApp
    from workbench.settings import resolve_settings

    settings = resolve_settings({"workspace": sys.argv[1], "low_bandwidth": sys.argv[2] == "low" or None})
    sys.exit(run_tui(settings))
    """
)


def measure(mode: str, seconds: float, tmp: Path, grid: bool = False) -> float:
    script = tmp / "bench_app.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TERM="xterm-256color", PADDLE_WORKBENCH_LANG="en")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    marks: list[tuple[float, int]] = []

    def on_output(output: bytes, _send) -> None:  # type: ignore[no-untyped-def]
        marks.append((time.perf_counter(), len(output)))

    code, _ = run_in_pty(
        [sys.executable, str(script), str(tmp / f"ws-{mode}"), mode, str(seconds), "grid" if grid else "plot"],
        env=env, size=(120, 40), timeout=seconds + 30, on_output=on_output,
    )  # fmt: skip
    if code != 0 or not marks:
        raise SystemExit(f"the app failed ({code})")
    t0 = marks[0][0]
    window = [(t, n) for t, n in marks if WARMUP_S <= t - t0 <= seconds]
    (ta, na), (tb, nb) = window[0], window[-1]
    return (nb - na) / (tb - ta) / 1024


def main() -> None:
    grid = "--grid" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--grid"]
    seconds = float(args[0]) if args else 15.0
    with tempfile.TemporaryDirectory() as tmp:
        default = measure("default", seconds, Path(tmp), grid)
        low = measure("low", seconds, Path(tmp), grid)
    view = "chart grid (12 charts)" if grid else "one-metric plot"
    print(
        f"terminal output, monitor live ({view}), 120x40: default {default:.1f} KB/s (budget 50), "
        f"--low-bandwidth {low:.1f} KB/s (budget 10)"
    )


if __name__ == "__main__":
    main()
