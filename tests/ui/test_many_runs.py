"""Many runs in the monitor: the runs sidebar (r, / filter), a 4-run overlay, the pinned baseline and
its differences, alignment by samples seen (a), and the plot cursor (, .). Runs are real run folders
written through the run store with deterministic values."""

from __future__ import annotations

import math
from pathlib import Path

from textual.widgets import Input, Static

from tests.ui.waiting import notified, wait_for
from workbench.compare_runs import value_at
from workbench.events import RunFailed, RunFinished, RunStarted
from workbench.runs import RunStore
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.chart_grid import ChartGrid
from workbench.screens.widgets.compare_table import CompareTable
from workbench.screens.widgets.plot import BraillePlot
from workbench.screens.widgets.runs_sidebar import MAX_RUNS, RunList, RunsSidebar

BASE = "20260101-000001-base-0001"
RUNS = [  # run id, task, tags, batch size, failed
    (BASE, "image_classification", ["baseline"], 32, False),
    ("20260101-000002-lr-0.1-0002", "image_classification", ["sweep"], 32, False),
    ("20260101-000003-lr-0.2-0003", "image_classification", ["sweep"], 64, False),
    ("20260101-000004-wd-0004", "image_classification", ["sweep"], 32, True),
    ("20260101-000005-ocr-0005", "text_recognition", [], 16, False),
]


def loss(k: int, step: int) -> float:
    return 2.0 * math.exp(-step / (30 + 10 * k)) + 0.1 * k


def _store_runs(workspace: Path) -> RunStore:
    store = RunStore(workspace)
    for k, (run_id, task, tags, batch, failed) in enumerate(RUNS):
        name = run_id[16:-5]
        config = {"task": task, "tags": tags, "train": {"steps": 100, "batch_size": batch}}
        handle = store.create(name, config, run_id=run_id)
        handle.emit(RunStarted(run_id=run_id, name=name, time=1_767_225_600.0 + k))
        steps = 60 if failed else 100 - 10 * k  # runs of different lengths
        for step in range(1, steps + 1):
            handle.writer.sample(0, step, {"loss": loss(k, step), "lr": 0.1}, float(step))
        end = RunFailed(error="boom", traceback="", step=steps) if failed else RunFinished(step=steps)
        handle.emit(end)
        handle.close()
    return store


async def _open(app, pilot) -> MonitorScreen:  # type: ignore[no-untyped-def]
    _store_runs(app.store.workspace)
    app.open_in_monitor(BASE)
    await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
    screen = app.screen
    await wait_for(pilot, lambda: screen.job.done and len(screen.job.metrics.series("loss") or ()) == 100)
    return screen


def _sidebar(screen: MonitorScreen) -> RunsSidebar:
    return screen.query_one(RunsSidebar)


def _listed(screen: MonitorScreen) -> list[str]:
    listing = screen.query_one(RunList)
    return [listing.get_option_at_index(i).id or "" for i in range(listing.option_count)]


async def _show_sidebar(pilot, screen: MonitorScreen) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("r")
    await wait_for(pilot, lambda: len(_listed(screen)) == len(RUNS))


async def _overlay(pilot, screen: MonitorScreen, run_ids: list[str]) -> None:  # type: ignore[no-untyped-def]
    listing = screen.query_one(RunList)
    for run_id in run_ids:
        listing.highlighted = _listed(screen).index(run_id)
        await pilot.press("space")
    await wait_for(pilot, lambda: set(run_ids) <= set(_sidebar(screen).overlays))


def _labels(screen: MonitorScreen) -> list[str]:
    return [s.label for s in screen.query_one("#monitor-plot", BraillePlot)._series]


def _hidden_focus(screen: MonitorScreen) -> str | None:
    """The focused widget when a hidden pane holds it (keys typed next would land there), else None."""
    focused = screen.focused
    if focused is None:
        return None
    for node in focused.ancestors_with_self:
        if node is screen:
            return None
        if not node.display:
            return f"{focused!r} inside hidden {node!r}"
    return None


async def test_keys_never_land_in_a_hidden_filter_or_chart_grid(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        assert _hidden_focus(screen) is None  # on arrival (Textual's auto-focus took the hidden grid)
        await _show_sidebar(pilot, screen)
        await pilot.press("slash", *"sw")  # the filter, shown and focused
        assert screen.query_one("#runs-filter", Input).value == "sw"
        await pilot.press("v")  # typed into the filter: it is a letter there, not the overview key
        await pilot.press("escape", "v")  # back to the list, then the overview hides the sidebar
        await wait_for(pilot, lambda: not screen.query_one("#monitor-main").display)
        assert _hidden_focus(screen) is None
        await pilot.press("slash")  # the filter again: the overview gives way, the filter is visible
        await wait_for(pilot, lambda: screen.query_one("#monitor-main").display)
        assert screen.focused is screen.query_one("#runs-filter") and _hidden_focus(screen) is None
        await pilot.press("escape", "g", "tab", "g")  # the grid, focused, then hidden by g again
        assert _hidden_focus(screen) is None
        before = screen.query_one("#runs-filter", Input).value
        await pilot.press("1", "4")  # away to another mode and back: still nothing hidden focused
        await wait_for(pilot, lambda: app.screen is screen)
        assert _hidden_focus(screen) is None
        await pilot.press("j", "k")
        assert screen.query_one("#runs-filter", Input).value == before


async def test_the_shown_sidebar_follows_runs_that_end_or_start(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        live = app.store.create("live", {"task": "image_classification"}, run_id="20260101-000009-live-0009")
        live.emit(RunStarted(run_id=live.run_id, name="live", time=1_767_225_700.0))
        await _show_sidebar_with(pilot, screen, len(RUNS) + 1)
        status = {e.run_id: e.status for e in _sidebar(screen).entries}
        assert status[live.run_id] == "running"
        live.emit(RunFinished(step=3))  # it ends (in another process, say) while the sidebar is open
        live.close()
        newer = app.store.create(
            "newer", {"task": "image_classification"}, run_id="20260101-000010-newer-0010"
        )
        newer.emit(RunStarted(run_id=newer.run_id, name="newer", time=1_767_225_800.0))
        await wait_for(
            pilot,
            lambda: (
                {e.run_id: e.status for e in _sidebar(screen).entries}.get(live.run_id) == "finished"
                and newer.run_id in _listed(screen)
            ),
        )
        newer.close()


async def _show_sidebar_with(pilot, screen: MonitorScreen, count: int) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("r")
    await wait_for(pilot, lambda: len(_listed(screen)) == count)


async def test_the_filter_narrows_the_list(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        await _show_sidebar(pilot, screen)
        assert _listed(screen)[0] == RUNS[-1][0]  # newest first
        await pilot.press("slash")
        assert screen.focused is screen.query_one("#runs-filter")
        await pilot.press(*"sweep")
        await wait_for(pilot, lambda: len(_listed(screen)) == 3)
        assert {r[0] for r in RUNS if "sweep" in r[2]} == set(_listed(screen))
        await pilot.press(*" status:failed")
        await wait_for(pilot, lambda: _listed(screen) == ["20260101-000004-wd-0004"])
        await pilot.press("ctrl+u", *"task:text")  # cleared, then one field only
        await wait_for(pilot, lambda: _listed(screen) == ["20260101-000005-ocr-0005"])
        await pilot.press("escape")  # back to the list, not out of the monitor
        assert isinstance(app.screen, MonitorScreen) and screen.focused is screen.query_one(RunList)
        assert "1 of 5 runs" in str(screen.query_one("#runs-count", Static).render())


async def test_four_runs_a_pinned_baseline_differences_and_alignment(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        await _show_sidebar(pilot, screen)
        others = [r[0] for r in RUNS[1:4]]
        await _overlay(pilot, screen, others)
        await wait_for(pilot, lambda: len(_labels(screen)) == 4)  # the followed run and three more
        labels = _labels(screen)
        assert labels[0] == "loss" and all(any(run_id in label for label in labels) for run_id in others)
        colours = [s.color for s in screen.query_one("#monitor-plot", BraillePlot)._series if s.label]
        assert len(set(colours)) == len(colours)  # each run its own theme colour
        assert colours[1:] == [app.theme_variable(f"run-{i}") for i in (1, 2, 3)]

        # b pins the highlighted run; the table shows each run's difference to it
        listing = screen.query_one(RunList)
        listing.highlighted = _listed(screen).index(others[0])
        await pilot.press("b")
        await wait_for(pilot, lambda: _sidebar(screen).baseline == others[0])
        table = screen.query_one(CompareTable)
        await wait_for(pilot, lambda: table.display and "★" in str(table.render()))
        text = str(table.render())
        assert text.count("●") == 3 and text.count("★") == 2 and "%" in text  # a row and the note
        # base (k=0) against lr-0.1 (k=1) at step 90, the last step both reached: the table's numbers
        d = loss(0, 90) - loss(1, 90)
        assert f"{d:+.4f}" in text and f"{d / loss(1, 90) * 100:+.1f}%" in text

        # a flips the alignment: each run's steps times its own batch size
        listing.focus()
        await pilot.press("a")
        await wait_for(pilot, lambda: screen.x_axis == "samples")
        plot = screen.query_one("#monitor-plot", BraillePlot)
        await wait_for(pilot, lambda: float(plot._series[0].x[-1]) == 100 * 32)
        lr02 = next(s for s in plot._series if RUNS[2][0] in s.label)
        assert float(lr02.x[-1]) == 80 * 64  # 80 steps of 64 samples: aligned by data seen
        assert "samples seen" in str(screen.query_one("#monitor-title", Static).render())
        await pilot.press("a")
        await wait_for(pilot, lambda: screen.x_axis == "step")

        # b again unpins; space takes a run away
        await pilot.press("b")
        await wait_for(pilot, lambda: _sidebar(screen).baseline is None)
        listing.highlighted = _listed(screen).index(others[2])
        await pilot.press("space")
        await wait_for(pilot, lambda: others[2] not in _sidebar(screen).overlays)


async def test_overlays_are_capped(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        store = app.store
        extra = []
        for i in range(MAX_RUNS):  # more runs than fit on one set of axes
            run_id = f"20260102-0000{i:02d}-extra-{i:04d}"
            handle = store.create("extra", {"train": {"batch_size": 8}}, run_id=run_id)
            handle.writer.sample(0, 1, {"loss": 1.0}, 1.0)
            handle.emit(RunFinished(step=1))
            handle.close()
            extra.append(run_id)
        sidebar = _sidebar(screen)
        for run_id in extra:
            sidebar.toggle(run_id)
        await wait_for(pilot, lambda: len(sidebar.overlays) == MAX_RUNS - 1)
        assert any("At most 8 runs" in n.message for n in notified(app))
        assert sorted(r.color for r in sidebar.overlays.values()) == list(range(1, MAX_RUNS))
        await pilot.press("o")  # o with runs overlaid clears them
        await wait_for(pilot, lambda: not sidebar.overlays and len(_labels(screen)) == 1)


async def test_cursor_reads_every_curve_at_one_step(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        await _show_sidebar(pilot, screen)
        await _overlay(pilot, screen, [RUNS[1][0], RUNS[2][0]])
        await wait_for(pilot, lambda: len(_labels(screen)) == 3)
        plot = screen.query_one("#monitor-plot", BraillePlot)
        await pilot.press("comma")
        await wait_for(pilot, lambda: plot.cursor_x == 100.0)  # the first press: the newest point
        await pilot.press("comma", "comma", "less_than_sign")
        await wait_for(pilot, lambda: plot.cursor_x is not None and plot.cursor_x < 90)
        at = plot.cursor_x
        assert at is not None and at == round(at)  # whole steps
        readout = plot.cursor_readout()
        assert len(readout) == 3
        for (_, value, _), k in zip(readout, (0, 1, 2), strict=True):
            assert value == loss(k, int(at))  # the point at that step
        line = plot.render_lines_text(80, 20)[-1].plain
        assert line.strip().startswith(f"▲ step {int(at)}") and line.count("●") == 3
        await pilot.press("full_stop")
        await wait_for(pilot, lambda: plot.cursor_x is not None and plot.cursor_x > at)
        for _ in range(30):  # to the right end, then one more step takes it away
            await pilot.press("greater_than_sign")
            if plot.cursor_x is None:
                break
        assert plot.cursor_x is None

        # in the grid: the focused chart's cursor reads its series and the overlaid runs by colour
        await pilot.press("g")
        grid = screen.query_one(ChartGrid)
        await wait_for(pilot, lambda: "loss" in grid.charts and grid.charts["loss"].data_key)
        grid.charts["loss"].focus()
        await pilot.press("comma", "comma")
        chart = grid.charts["loss"]
        await wait_for(pilot, lambda: chart.cursor_x is not None and chart.cursor_x < 100)
        values = [value for _, value, _ in chart.cursor_readout()]
        assert len(values) == 3 and values[0] == loss(0, int(chart.cursor_x or 0))
        assert values[2] == value_at(chart._series[-1].x, chart._series[-1].y, chart.cursor_x or 0)


def test_snapshot_four_runs_with_a_pinned_baseline(make_app, snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = make_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        screen = await _open(app, pilot)
        await _show_sidebar(pilot, screen)
        await _overlay(pilot, screen, [r[0] for r in RUNS[1:4]])
        _sidebar(screen).pin(BASE)
        table = screen.query_one(CompareTable)
        await wait_for(pilot, lambda: "★" in str(table.render()) and len(_labels(screen)) == 4)
        screen.query_one(RunList).highlighted = _listed(screen).index(BASE)
        app.clear_notifications()
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


async def test_a_run_without_batch_size_is_left_out_when_aligned_by_samples(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        handle = app.store.create("nobatch", {"task": "custom"}, run_id="20260103-000001-nobatch-0001")
        for step in range(1, 11):
            handle.writer.sample(0, step, {"loss": 1.0}, float(step))
        handle.emit(RunFinished(step=10))
        handle.close()
        _sidebar(screen).toggle("20260103-000001-nobatch-0001")
        await wait_for(pilot, lambda: len(_labels(screen)) == 2)
        await pilot.press("x")
        await wait_for(pilot, lambda: screen.x_axis == "samples" and len(_labels(screen)) == 1)
        assert any("no batch size" in n.message for n in notified(app))
        await pilot.press("x")
        await wait_for(pilot, lambda: len(_labels(screen)) == 2)  # back on steps, drawn again


async def test_an_overlaid_live_run_keeps_growing_and_stops_being_followed_when_removed(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        run_id = "20260104-000001-live-0001"
        handle = app.store.create("live", {"train": {"batch_size": 8}}, run_id=run_id)
        handle.emit(RunStarted(run_id=run_id, name="live"))
        for step in range(1, 11):
            handle.writer.sample(0, step, {"loss": 1.0 / step}, float(step))
        handle.writer.flush()
        sidebar = _sidebar(screen)
        sidebar.toggle(run_id)
        plot = screen.query_one("#monitor-plot", BraillePlot)

        def drawn_to(step: int) -> bool:
            live = [s for s in plot._series if s.label == run_id]
            return bool(live) and float(live[0].x[-1]) == step

        await wait_for(pilot, lambda: drawn_to(10))
        for step in range(11, 31):  # the other process trains on
            handle.writer.sample(0, step, {"loss": 1.0 / step}, float(step))
        handle.writer.flush()
        await wait_for(pilot, lambda: drawn_to(30))
        job = sidebar.overlays[run_id].job
        assert job is not None and not job.done
        sidebar.toggle(run_id)  # taken away: no longer followed
        await wait_for(pilot, lambda: run_id not in sidebar.overlays and not job._thread.is_alive())
        handle.emit(RunFinished(step=30))
        handle.close()


async def test_a_kits_linked_log_can_be_overlaid(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from workbench.attach.link import link_log

    log = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs" / "paddleocr_train.log"
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(app, pilot)
        run_dir = link_log(app.store, log)  # a run the workbench did not write: no events.jsonl
        _sidebar(screen).toggle(run_dir.name)
        await wait_for(pilot, lambda: any(s.label == run_dir.name and len(s.x) for s in _series(screen)))


def _series(screen: MonitorScreen):  # type: ignore[no-untyped-def]
    return screen.query_one("#monitor-plot", BraillePlot)._series
