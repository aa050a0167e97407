"""The monitor's run overview pane (v) and its "copy config" action (k), on a run stored by the run store."""

from __future__ import annotations

import io
import os
import stat
import time
from pathlib import Path

import pytest
import yaml
from rich.console import Console
from textual.widgets import Static

from tests.stored_runs import COMMIT, RUN_ID, write_stored_run
from tests.ui.waiting import notified, wait_for
from workbench.overview import CONFIG_COPY_NAME
from workbench.screens.monitor import MonitorScreen
from workbench.screens.widgets.overview import OverviewPane


def _plain(widget: Static, width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Start times are shown in local time: pin the zone so the picture does not depend on the machine."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def _open_overview(app, pilot) -> OverviewPane:  # type: ignore[no-untyped-def]
    app.open_in_monitor(RUN_ID)
    await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
    await wait_for(pilot, lambda: app.screen.job.done)
    await pilot.press("v")
    pane = app.screen.query_one(OverviewPane)
    await wait_for(pilot, lambda: "3.3.1" in _plain(pane.query_one("#overview-facts", Static)))
    return pane


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_overview_pane_sections(make_app, tmp_path: Path, utc, size) -> None:  # type: ignore[no-untyped-def]
    write_stored_run(tmp_path / "ws")
    app = make_app()
    async with app.run_test(size=size) as pilot:
        pane = await _open_overview(app, pilot)
        screen = app.screen
        assert pane.display and not screen.query_one("#monitor-main").display  # in place of the curves
        # config beside the facts only when wide (set as the pane is laid out at its width)
        await wait_for(pilot, lambda: pane.has_class("-narrow") == (size[0] < 100))
        facts = _plain(pane.query_one("#overview-facts", Static))
        for expected in (
            "✔ finished", "60 of 60", "11-30 22:14:05", "1m 35s",  # summary
            "eval/accuracy  0.6875 at step 40", "eval/loss  0.5087 at step 60",  # best eval, each its way
            "3.3.1 (7688495538)", "CPU", "cpu", "paddle 42  numpy 42  random 42",  # environment
            "eccb46241faa · 84 files", "train 64  val 16", f"{COMMIT[:10]} (main), 2 tracked files changed",
            "step 33  nonfinite: loss is nan at step 33 (update skipped)",  # alerts
        ):  # fmt: skip
            assert expected in facts, (expected, facts)
        config = _plain(pane.query_one("#overview-config", Static))
        assert "optimizer: momentum" in config and "dir: /home/ada/proj/demo_data/cls" in config
        # Every line of the pane fits the screen: nothing is cut at the right edge.
        assert pane.query_one("#overview-facts").size.width <= size[0]
        await pilot.press("v")
        assert not pane.display and screen.query_one("#monitor-main").display


async def test_copy_config_writes_the_file_and_the_clipboard(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_dir = write_stored_run(tmp_path / "ws")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _open_overview(app, pilot)
        await pilot.press("k")
        copy = run_dir / CONFIG_COPY_NAME
        await wait_for(pilot, copy.exists)
        text = copy.read_text(encoding="utf-8")
        assert app.clipboard == text  # the same text went to the terminal's clipboard (OSC 52)
        assert text.startswith(f"# Resolved config of run {RUN_ID}\n")
        assert "# from /home/ada/proj/configs/tiny_cls.yaml -o train.steps=60" in text
        config = yaml.safe_load(text)
        assert config["train"]["steps"] == 60 and config["data"]["dir"] == "/home/ada/proj/demo_data/cls"
        assert stat.S_IMODE(os.stat(copy).st_mode) == 0o600  # owner-only, like every file of a run
        await wait_for(pilot, lambda: any(str(copy) in str(n.message) for n in notified(app)))


async def test_overview_without_a_run_and_copy_without_config(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.switch_mode("monitor")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
        await pilot.press("v")
        pane = app.screen.query_one(OverviewPane)
        await wait_for(pilot, lambda: "No run selected" in _plain(pane.query_one("#overview-title", Static)))
        await pilot.press("k")
        await wait_for(pilot, lambda: any("no config" in str(n.message) for n in notified(app)))


def test_overview_pane_snapshot(snap_compare, make_app, tmp_path: Path, utc) -> None:  # type: ignore[no-untyped-def]
    write_stored_run(tmp_path / "ws")
    app = make_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _open_overview(app, pilot)
        app.screen.set_focus(None)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


async def test_overview_pane_in_chinese(make_app, tmp_path: Path, utc) -> None:  # type: ignore[no-untyped-def]
    from workbench.i18n import set_language

    set_language("zh")
    write_stored_run(tmp_path / "ws")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await _open_overview(app, pilot)
        facts = _plain(pane.query_one("#overview-facts", Static))
        for expected in (
            "摘要",
            "告警",
            "环境",
            "代码版本",
            f"{COMMIT[:10]}（main），2 个已跟踪文件有改动",
            "60 / 60",
        ):
            assert expected in facts, (expected, facts)
        assert "解析后的配置（按 k 复制）" in _plain(pane.query_one("#overview-config", Static))
        bindings = app.screen.all_bindings().values()  # what the help screen lists, translated
        footer = {b.binding.description for b in bindings if b.binding.key in ("v", "k")}
        assert footer == {"运行概览", "复制配置"}  # the keys' descriptions come from the catalog
