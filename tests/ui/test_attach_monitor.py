"""A kit's log followed in the monitor while the test appends to it (as the kit would).

The charts follow, the data-wait / compute split shows, lines that are not iteration lines land in the
log pane, and a traceback turns the run into a failed one with the failure panel open.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Log, Static

from tests.ui.waiting import wait_for
from workbench.attach.link import link_log
from workbench.runs import RunStore
from workbench.screens.dialogs import TrainConfigScreen
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.plot import BraillePlot
from workbench.screens.widgets.system_pane import SystemPane

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs"


def _grow(path: Path, lines: list[str]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))


async def test_a_growing_ocr_log_in_the_monitor_then_a_crash(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lines = (FIXTURES / "paddleocr_train.log").read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if "global_step" in line)
    log = tmp_path / "ocr" / "train.log"
    log.parent.mkdir()
    _grow(log, lines[: first + 2])
    run_dir = link_log(RunStore(tmp_path / "ws"), log)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_in_monitor(run_dir.name)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        screen = app.screen
        plot = screen.query_one(BraillePlot)
        await wait_for(pilot, lambda: any(s.label == "loss" and len(s.x) == 2 for s in plot._series))
        # not an iteration line: kept as log text (read on the monitor's log worker)
        await wait_for(
            pilot, lambda: "Initialize indexs of datasets" in "\n".join(screen.query_one(Log).lines)
        )
        _grow(log, lines[first + 2 : first + 6])  # three more iterations and a "save model" line arrive
        await wait_for(pilot, lambda: any(s.label == "loss" and len(s.x) == 5 for s in plot._series))
        assert {"data_wait_ms", "compute_ms", "loss_shrink_maps"} <= set(screen.metric_names())
        while screen.current_metric() != "data_wait_ms":  # the data-wait / compute split has its curves
            await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: [s.label for s in plot._series] == ["data_wait_ms"])
        assert len(plot._series[0].x) == 5
        assert screen.job.status == "running"
        await pilot.press("y")  # the system pane: a kit's log has no samples, and it says why
        pane = screen.query_one(SystemPane)
        await wait_for(pilot, lambda: "kit's log" in str(pane.content))
        assert "metrics.system" not in str(pane.content)
        _grow(
            log,
            [
                "Traceback (most recent call last):",
                '  File "tools/train.py", line 227, in <module>',
                "    main(config, device, logger, vdl_writer, seed)",
                "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libcudnn.so) is not configured.",
            ],
        )
        await wait_for(pilot, lambda: screen.query_one("#monitor-failure").display)
        assert screen.job.status == "failed"
        assert "libcudnn" in str(screen.query_one("#monitor-failure-text", Static).content)


async def test_home_screen_a_links_a_log_and_opens_the_monitor(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("a")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TrainConfigScreen) and bool(app.screen.query(Input))
        )
        app.screen.query_one(Input).value = str(FIXTURES / "paddleclas_train.log")
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, MonitorScreen) and app.screen.job is not None and app.screen.job.done
            ),
        )
        assert app.screen.job.status == "finished" and app.screen.job.kind == "linked"
        assert [r.kind for r in RunStore(tmp_path / "ws").list()] == ["linked"]
