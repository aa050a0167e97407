"""The monitor's system pane (y) and the ``sys/*`` charts: a real run on this CPU machine, and GPU
figures as an H200 machine's sampler records them (fed into the store: no GPU exists here)."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.widgets import Static

from tests.ui.waiting import wait_for
from workbench.events import RunFinished, RunStarted
from workbench.i18n import set_language, t
from workbench.runner import Job, JobContext, start_in_process
from workbench.runner.system_sampler import gpu_indices
from workbench.screens.base import help_rows
from workbench.screens.widgets.chart_grid import group_metrics
from workbench.screens.widgets.system_pane import SystemPane, bar

H200_MIB = 143771


class GpuJob(Job):
    """A finished run of 30 steps with the system samples of a two-GPU H200 machine (deterministic)."""

    def __init__(self, run_dir: Path, gpus: int = 2) -> None:
        super().__init__(run_dir, "gpu-run", "gpu-run", config={"train": {"steps": 30, "batch_size": 8}})
        for step in range(1, 31):
            self.metrics.record(0, step, {"loss": 2.0 / step, "lr": 0.01}, float(step))
            values = {"sys/cpu_percent": 20.0 + step % 5, "sys/rss_mb": 3000.0 + 10 * step}
            for index in range(gpus):
                gpu = f"sys/gpu{index}/"
                values |= {
                    gpu + "util": 87.0 if index == 0 else 3.0,
                    gpu + "mem_used_mb": 61234.0 if index == 0 else 1.0,
                    gpu + "mem_total_mb": float(H200_MIB),
                    gpu + "temp_c": 64.0 if index == 0 else 31.0,
                    gpu + "power_w": 412.3 if index == 0 else 71.0,
                }
            self.metrics.record_system(step, values)
        self._publish(RunStarted(run_id="gpu-run", time=0.0))
        self._publish(RunFinished(step=30, time=1.0))


class CpuJob(GpuJob):
    def __init__(self, run_dir: Path) -> None:
        super().__init__(run_dir, gpus=0)


def _text(widget: Static) -> str:
    console = Console(width=118, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


def _running(ctx: JobContext) -> None:
    """A job that steps until the test stops it (the monitor follows a live run)."""
    step = 0
    deadline = time.monotonic() + 120
    while not ctx.cancelled and time.monotonic() < deadline:
        step += 1
        ctx.log(step, loss=1.0 / step)
        time.sleep(0.05)


async def test_system_pane_on_this_cpu_machine(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = app.start_job(lambda store: start_in_process(store, "system", _running))
        try:
            await wait_for(pilot, lambda: app.screen.query_one(SystemPane))
            pane = app.screen.query_one(SystemPane)
            assert not pane.display  # hidden until asked for
            await pilot.press("y")
            await wait_for(pilot, lambda: "sys/rss_mb" in pane.latest and "sys/cpu_percent" in pane.latest)
            text = _text(pane)
            assert "CPU" in text and "MiB" in text
            if not gpu_indices(pane.latest):  # this machine: no NVML, no nvidia-smi
                assert t("ui.system.no_gpu") in text
            # The side table, drawn again now that the store has system series, leaves them to the pane.
            screen, sampled = app.screen, time.monotonic()
            await wait_for(pilot, lambda: screen._last_plot > sampled)
            side = _text(screen.query_one("#monitor-values", Static))
            assert "loss" in side and "sys/" not in side
            await pilot.press("y")
            await wait_for(pilot, lambda: not pane.display)
        finally:
            job.cancel()
            assert job.wait(60)


async def test_system_pane_says_cpu_only_in_chinese(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    set_language("zh")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(CpuJob(tmp_path / "cpu"))
        await wait_for(pilot, lambda: app.screen.query_one(SystemPane))
        await pilot.press("y")
        pane = app.screen.query_one(SystemPane)
        await wait_for(pilot, lambda: pane.latest)
        assert "本机没有 GPU（仅 CPU）" in _text(pane)


async def test_system_pane_with_gpus(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(GpuJob(tmp_path / "gpu"))
        await wait_for(pilot, lambda: app.screen.query_one(SystemPane))
        await pilot.press("y")
        pane = app.screen.query_one(SystemPane)
        await wait_for(pilot, lambda: pane.latest)
        text = _text(pane)
        assert "CPU 20.0 %" in text and "RSS 3300 MiB" in text
        lines = text.splitlines()
        gpu0 = next(line for line in lines if line.startswith("0 "))
        assert "87 %" in gpu0 and f"61234 / {H200_MIB} MiB" in gpu0 and "64 °C" in gpu0 and "412 W" in gpu0
        gpu1 = next(line for line in lines if line.startswith("1 "))
        assert "3 %" in gpu1 and f"1 / {H200_MIB} MiB" in gpu1 and "31 °C" in gpu1
        assert t("ui.system.no_gpu") not in text
        assert ("y", t("ui.key.system")) in help_rows(app.screen)[0]  # ? lists the key (the footer does not)


def test_a_finished_run_without_system_samples_says_so() -> None:
    from workbench.screens.widgets.system_pane import system_renderable

    assert t("ui.system.none") in str(system_renderable({}, done=True))
    assert t("ui.system.waiting") in str(system_renderable({}, done=False))
    assert bar(0.5, 4) == "██░░" and bar(2.0, 4) == "████"


def test_system_series_get_their_own_charts() -> None:
    names = [
        "loss", "lr", "sys/cpu_percent", "sys/rss_mb",
        *(f"sys/gpu{i}/{f}" for i in (0, 1) for f in ("util", "mem_used_mb", "mem_total_mb", "temp_c", "power_w")),
    ]  # fmt: skip
    groups = group_metrics(names)
    by_key = {g.key: g for g in groups}
    assert [g.key for g in groups][:2] == ["loss", "lr"]  # the run's own metrics first, system last
    assert by_key["sys/cpu_percent"].names == ("sys/cpu_percent",)
    assert by_key["sys/rss_mb"].names == ("sys/rss_mb",)
    memory = by_key["sys/gpu1/mem_used_mb"]
    assert memory.names == ("sys/gpu1/mem_used_mb", "sys/gpu1/mem_total_mb")  # used against total
    assert t(memory.title, None, **dict(memory.title_args)).startswith("GPU 1 memory")
    assert sum(len(g.names) for g in groups) == len(names)  # every series on exactly one chart
    assert len(groups) == 2 + 2 + 2 * 4


def test_snapshot_system_pane_with_gpus(snap_compare, make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()

    async def open_gpu_run(pilot: Any) -> None:
        app.open_in_monitor(GpuJob(tmp_path / "gpu"))
        await wait_for(pilot, lambda: app.screen.query_one(SystemPane))
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen.query_one(SystemPane).latest)
        await pilot.pause(0.3)

    assert snap_compare(app, run_before=open_gpu_run, terminal_size=(120, 40))


async def test_grid_draws_the_system_charts_with_gpu_titles(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.widgets.chart_grid import ChartGrid

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(GpuJob(tmp_path / "gpu", gpus=1))
        await wait_for(pilot, lambda: app.screen.query_one(ChartGrid))
        await pilot.press("g")
        grid = app.screen.query_one(ChartGrid)
        await wait_for(pilot, lambda: "sys/gpu0/util" in grid.charts)
        assert list(grid.charts)[-6:] == [
            "sys/cpu_percent", "sys/rss_mb", "sys/gpu0/util", "sys/gpu0/mem_used_mb", "sys/gpu0/temp_c",
            "sys/gpu0/power_w",
        ]  # fmt: skip
        grid.enlarge("sys/gpu0/mem_used_mb")  # drawn now, whatever was on screen before
        chart = grid.charts["sys/gpu0/mem_used_mb"]
        await wait_for(pilot, lambda: not chart.stale)
        assert str(chart.border_title).startswith("GPU 0 memory used / total (MiB)  61234")
        assert chart.group.names == ("sys/gpu0/mem_used_mb", "sys/gpu0/mem_total_mb")
