"""Pilot tests of the path dashboard on the home screen: an empty workspace, then one that walked the path."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Static

from tests.ui.waiting import wait_for as _wait_for


def _path(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#path", Static).render())


async def test_empty_workspace_at_80x24_says_what_to_do_first(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _wait_for(pilot, lambda: "next:" in _path(app))
        text = _path(app)
        lines = text.splitlines()
        assert len(lines) == 2  # compact under 30 rows: the steps, then the next one
        assert lines[0].startswith("Path ·environment")
        assert "next: paddle-workbench check  [2] environment" in lines[1]
        table = app.screen.query_one(DataTable)
        assert table.region.height >= 10  # the runs list keeps most of the screen


async def test_empty_workspace_full_dashboard_one_line_per_step(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await _wait_for(pilot, lambda: "next:" in _path(app))
        lines = _path(app).splitlines()
        steps = [
            "environment",
            "baseline",
            "parallel",
            "parity",
            "inference parity",
            "hardware",
            "dataset",
            "verify",
        ]
        assert len(lines) == len(steps) + 1
        for line, step in zip(lines, steps, strict=False):
            assert line.startswith(f"· {step}") and "not run" in line, line
        assert "[t]" in lines[1] and "[k]" in lines[6] and "[v]" in lines[7]
        assert "paddle-workbench train sample_configs/train_cls_demo.yaml" in lines[1]


async def test_finished_workspace_shows_done_steps_with_evidence(
    make_app, demo_workspace, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    ws = demo_workspace.copy(tmp_path)  # make_app's workspace is ./ws in tmp_path
    assert ws == tmp_path / "ws"
    run_id = demo_workspace.run.name
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait_for(pilot, lambda: "next:" in _path(app))
        lines = _path(app).splitlines()
        done = {line.split()[1] for line in lines if line.startswith("✓")}
        assert {"environment", "baseline", "inference", "hardware"} <= done, lines
        assert run_id in lines[1]
        assert lines[7].startswith("· verify")
        # v runs the checklist in a worker, stores the report; the path refreshes with the verdict.
        await pilot.press("v")
        await _wait_for(pilot, lambda: _path(app).splitlines()[7].startswith("✓ verify"), timeout=60)
        lines = _path(app).splitlines()
        assert lines[6].startswith("✓ dataset")  # the linted verdict, reused from the stored report
        assert "12 pass, 0 fail, 2 not run" in lines[7]
        assert "next: paddle-workbench plan run sample_configs/plan_cls_dp.yaml --nproc 2  [3]" in lines[8]
        assert app.screen.query_one(DataTable).row_count == 1


async def test_a_terminal_unfocused_at_start_still_gets_the_dashboard(make_app) -> None:  # type: ignore[no-untyped-def]
    """The path dashboard (like the app's other background work) waits for the footer's keys, which a
    terminal that reports itself unfocused holds back: it comes all the same, the wait being bounded."""
    from textual.app import App
    from textual.widgets import Footer

    app = make_app()
    app.set_reactive(App.app_focus, False)  # as a terminal's focus-out report leaves it
    async with app.run_test(size=(100, 40)) as pilot:
        await _wait_for(pilot, lambda: "next:" in _path(app))
        assert not app.screen.query_one(Footer).query("FooterKey")  # the keys did wait for focus
