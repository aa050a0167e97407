"""The path dashboard marks its steps from evidence, whichever door left it: the same workspace walked
with TUI keys only (checks in mode 2, ``k``, ``v``) and with CLI commands only (``check``, ``dataset
check``, ``verify``) gets the same marks; ``v`` names each failed item with its evidence and fix; ``b``
pins (and unpins) the baseline."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from textual.widgets import DataTable, Static

from tests.stored_runs import RUN_ID, write_stored_run
from tests.ui.waiting import wait_for
from workbench.baseline import read_pins
from workbench.cli.root import build_cli
from workbench.verify.path import path_steps


def _path(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#path", Static).render())


def _detail(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#run-detail-text", Static).render())


def _prepared(demo_workspace, dest: Path) -> Path:  # type: ignore[no-untyped-def]
    """A copy of the demo workspace without its stored env check, with one checkpoint byte flipped
    (so ``verify`` has a failed item to show)."""
    ws = demo_workspace.copy(dest)
    for report in (ws / "reports").glob("check-*.json"):
        report.unlink()
    run = ws / "runs" / demo_workspace.run.name
    newest = max((run / "checkpoints").glob("step-*"), key=lambda p: int(p.name.split("-")[1]))
    weights = newest / "model.pdparams"
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0xFF
    weights.write_bytes(bytes(data))
    return ws


def _marks(ws: Path) -> list[tuple[str, str, str]]:
    return [(s.id, s.state, s.command) for s in path_steps(ws)]


async def test_tui_only_and_cli_only_actions_give_the_same_marks(
    make_app, demo_workspace, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tui_ws = _prepared(demo_workspace, tmp_path)  # make_app's workspace is ./ws in tmp_path
    cli_ws = _prepared(demo_workspace, tmp_path / "cli")
    before = dict((step_id, state) for step_id, state, _ in _marks(tui_ws))
    assert before["environment"] == before["dataset"] == before["verify"] == "not run"

    # CLI only
    cli = build_cli()
    for args in (
        ["check", "--json"],
        ["dataset", "check", str(demo_workspace.data), "--format", "cls"],
        ["verify"],
    ):
        result = CliRunner().invoke(cli, ["--workspace", str(cli_ws), *args])
        assert result.exit_code in (0, 1), (args, result.output)

    # TUI only
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "next:" in _path(app))
        await pilot.press("2")  # the Environment mode runs every check as it opens
        await wait_for(pilot, lambda: any((tui_ws / "reports").glob("check-*.json")), timeout=120)
        await pilot.press("1")
        await wait_for(pilot, lambda: app.screen.query_one(DataTable).row_count == 1)
        await pilot.press("k")
        await wait_for(pilot, lambda: _path(app).splitlines()[6].startswith("✓ dataset"))
        await pilot.press("v")
        await wait_for(pilot, lambda: _path(app).splitlines()[7].startswith("✗ verify"), timeout=120)
        await wait_for(pilot, lambda: "failed (2):" in _detail(app))
        detail = _detail(app)
        assert _path(app).splitlines()[0].startswith("✓ environment")
        assert "failed: engineering.checkpoint, engineering.checkpoint_load" in _path(app).splitlines()[7]
        # v shows which items failed, with their evidence and the command that fixes each
        assert "✗ engineering.checkpoint — " in detail and "sha256 differs from the manifest" in detail
        assert "✗ engineering.checkpoint_load — " in detail
        assert "    fix: " in detail
        assert "no evidence yet (2):" in detail and "· parallel.run — " in detail
        assert "    run: paddle-workbench plan run" in detail

    tui, cli_marks = _marks(tui_ws), _marks(cli_ws)
    assert tui == cli_marks
    states = {step_id: state for step_id, state, _ in tui}
    assert states["environment"] == states["dataset"] == "done"
    assert states["verify"] == "failed"


async def test_b_pins_and_unpins_the_baseline(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    write_stored_run(tmp_path / "ws")  # finished, but without model.json: never chosen implicitly
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.query_one(DataTable).row_count == 1)
        await wait_for(pilot, lambda: _path(app).splitlines()[1].startswith("· baseline"))
        await pilot.press("b")
        await wait_for(pilot, lambda: _path(app).splitlines()[1].startswith("✓ baseline"))
        assert f"run {RUN_ID}, last step 60 (pinned)" in _path(app).splitlines()[1]
        assert [p.run for p in read_pins(tmp_path / "ws")] == [RUN_ID]
        await wait_for(pilot, lambda: "pinned as the baseline of its model" in _detail(app))
        await pilot.press("b")
        await wait_for(pilot, lambda: _path(app).splitlines()[1].startswith("· baseline"))
        assert read_pins(tmp_path / "ws") == []
        await wait_for(pilot, lambda: "last step" in _detail(app) and "pinned" not in _detail(app))
