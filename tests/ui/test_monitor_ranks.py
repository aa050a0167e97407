"""Pilot test of the monitor's rank table on a scripted 2-rank run (no Paddle)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from tests.ui.scripted import ScriptedJob
from tests.ui.waiting import wait_for
from workbench.events import RunFailed
from workbench.parallel.ranks import RankWatch
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.plot import BraillePlot
from workbench.screens.widgets.ranks import RankTable


def _text(widget: RankTable) -> str:
    console = Console(width=120, record=True)
    console.print(widget.shown)
    return console.export_text()


async def test_rank_table_shows_every_rank_with_its_log_line_and_the_failed_rank(
    make_app, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    run_dir = tmp_path / "scripted"
    logs = run_dir / "ranks" / "log"
    logs.mkdir(parents=True)
    (logs / "workerlog.0").write_text("step 300 done\n")
    (logs / "workerlog.1").write_text("waiting in all_reduce\n\n")
    job = ScriptedJob(run_dir, ranks=2)
    job.lifecycle[-1] = RunFailed(error="rank 1 stalled after step 300", rank=1, time=3.0)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(job)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        screen = app.screen
        await wait_for(pilot, lambda: "waiting in all_reduce" in _text(screen.query_one(RankTable)))
        table = screen.query_one(RankTable)
        assert table.display
        text = _text(table)
        assert "r0" in text and "r1" in text and "300" in text
        assert "failed" in text and "ended" in text
        assert "waiting in all_reduce" in text and "step 300 done" in text


async def test_rank_table_is_hidden_for_one_rank(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(ScriptedJob(tmp_path / "one"))
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one(BraillePlot)._series)  # the run is drawn
        assert not screen.query_one(RankTable).display


def test_rank_watch_calls_a_quiet_rank_stalled(tmp_path: Path) -> None:
    from workbench.metric_store import MetricStore

    metrics = MetricStore()
    metrics.record(0, 5, {"loss": 1.0, "step_ms": 40.0, "host_rss_mib": 300.0}, 0.0)
    metrics.record(1, 4, {"loss": 1.0}, 0.0)
    watch = RankWatch(stall_s=10)
    watch.rows(metrics, tmp_path, now=0.0, done=False)
    metrics.record(0, 6, {"loss": 1.0}, 0.0)
    rows = {r.rank: r for r in watch.rows(metrics, tmp_path, now=20.0, done=False)}
    assert rows[0].state == "alive" and rows[1].state == "stalled"
    assert rows[0].memory_mib == 300.0 and rows[1].step == 4
