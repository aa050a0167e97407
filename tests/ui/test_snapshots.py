"""A few SVG snapshots (textual is pinned exactly in pyproject.toml, so they are stable).

Update after an intended change with ``pytest tests/ui/test_snapshots.py --snapshot-update`` and
look at the report before committing.
"""

from __future__ import annotations

from pathlib import Path

from tests.ui.scripted import ScriptedJob
from tests.ui.waiting import wait_for
from workbench.i18n import set_language
from workbench.screens.app import WorkbenchApp


def test_help_screen_in_chinese_aligns_cjk(snap_compare, make_app) -> None:  # type: ignore[no-untyped-def]
    set_language("zh")
    assert snap_compare(make_app(), press=["question_mark"], terminal_size=(120, 40))


def test_runs_home_empty(snap_compare, make_app) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=(120, 40))


def test_monitor_with_a_scripted_failed_run(snap_compare, make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app: WorkbenchApp = make_app()

    async def open_scripted(pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_in_monitor(ScriptedJob(tmp_path / "scripted-run"))
        await wait_for(pilot, lambda: app.screen.query_one("#monitor-failure").display)  # however busy
        await pilot.pause(0.6)  # then one monitor tick, so every pane has drawn it

    assert snap_compare(app, run_before=open_scripted, terminal_size=(120, 40))
