"""Pilot tests of the plan editor on the user's own plans: ``tui --plan FILE`` and the palette open them,
a saved sample survives reopening, unsaved edits are asked about, focus moves with Tab / Escape (and
screen keys never become YAML), a burst of keys is one check, and one snapshot of the mode.

The model facts are passed in (``_build_facts`` returns the precomputed ones): no Paddle, no child."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual import events
from textual.widgets import DataTable, Static, TextArea

from tests.ui.test_plan_screen import SAMPLES, _checked, mlp_facts
from tests.ui.waiting import notified, wait_for
from workbench.screens.app import WorkbenchApp
from workbench.screens.dialogs import TrainConfigScreen
from workbench.screens.env import EnvChecks
from workbench.screens.plan import PlanEditor, PlanScreen, UnsavedEditsScreen

USER_PLAN = """\
# my own plan: only fc1 split, by columns
train: train_cls_mlp.yaml
mesh: {shape: [2], dim_names: [mp]}
layers:
  - {match: fc1, plan: ColWiseParallel}
"""


@pytest.fixture(autouse=True)
def _facts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PlanScreen, "_build_facts", lambda self, train: mlp_facts())


def _user_plan(tmp_path: Path) -> Path:
    folder = tmp_path / "plans"
    folder.mkdir()
    shutil.copy(SAMPLES / "train_cls_mlp.yaml", folder / "train_cls_mlp.yaml")
    (folder / "my_tp.yaml").write_text(USER_PLAN)
    return folder / "my_tp.yaml"


def _plan_screen(app: WorkbenchApp) -> PlanScreen:
    screen = app.screen
    assert isinstance(screen, PlanScreen), screen
    return screen


def _editor(screen: PlanScreen) -> TextArea:
    return screen.query_one("#plan-yaml", TextArea)


async def _shown(pilot, app: WorkbenchApp, path: Path) -> PlanScreen:  # type: ignore[no-untyped-def]
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, PlanScreen)
            and app.screen.plan_path is not None
            and app.screen.plan_path.resolve() == path.resolve()
        ),
    )
    screen = _plan_screen(app)
    await _checked(pilot, screen)
    return screen


async def test_tui_plan_opens_the_users_plan_and_o_offers_it_as_recent(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = _user_plan(tmp_path)
    app = make_app(open_plan=plan)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _shown(pilot, app, plan)
        assert _editor(screen).text == USER_PLAN
        assert str(plan) in str(screen.query_one("#plan-title", Static).render())
        assert screen.report is not None and screen.report.ok
        table = screen.query_one("#plan-params", DataTable)
        assert str(table.get_cell("fc1.weight", "placements")) == "Shard(1)"
        assert str(table.get_cell("fc2.weight", "placements")) == "Replicate()"

        other = plan.with_name("other.yaml")
        other.write_text(USER_PLAN.replace("fc1", "fc2").replace("ColWise", "RowWise"))
        await pilot.press("o")  # the open dialog lists the recent plan; another path opens that file
        await wait_for(
            pilot, lambda: isinstance(app.screen, TrainConfigScreen) and app.screen.query_one("#train-config")
        )
        assert str(plan) in [o.id for o in app.screen.query_one("#train-suggestions").options]  # type: ignore[attr-defined]
        field = app.screen.query_one("#train-config")
        field.value = str(other)  # type: ignore[attr-defined]
        await pilot.press("enter")
        screen = await _shown(pilot, app, other)
        assert "RowWiseParallel" in _editor(screen).text
        assert str(table.get_cell("fc2.weight", "placements")) == "Shard(0)"


async def test_palette_entry_opens_a_plan_from_another_mode(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.commands import _actions

    plan = _user_plan(tmp_path)
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        entry = next(callback for name, _, callback in _actions(app) if name == "Open a sharding plan…")
        entry()
        await wait_for(
            pilot, lambda: isinstance(app.screen, TrainConfigScreen) and app.screen.query_one("#train-config")
        )
        app.screen.query_one("#train-config").value = str(plan)  # type: ignore[attr-defined]
        await pilot.press("enter")
        screen = await _shown(pilot, app, plan)
        assert _editor(screen).text == USER_PLAN


async def test_a_saved_sample_is_not_replaced_when_the_mode_is_opened_again(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        app.switch_mode("plan")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan_path is not None)
        screen = _plan_screen(app)
        await _checked(pilot, screen)
        sample = screen.plan_path
        assert sample is not None and sample.parent.name == "samples"
        _editor(screen).load_text(_editor(screen).text + "# mine\n")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: sample.read_text().endswith("# mine\n"))
    app = make_app()  # the TUI started again on the same workspace
    async with app.run_test(size=(160, 48)) as pilot:
        app.switch_mode("plan")
        screen = await _shown(pilot, app, sample)
        assert _editor(screen).text.endswith("# mine\n")
    assert sample.read_text().endswith("# mine\n")


async def test_unsaved_edits_are_asked_about_before_quitting_or_leaving(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = _user_plan(tmp_path)
    app = make_app(open_plan=plan, env_checks=EnvChecks(autostart=False))  # mode 2 runs no probes here
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _shown(pilot, app, plan)
        await pilot.press("tab", "end", "#", "x", "escape")  # typed into the YAML, then back to the table
        assert screen.dirty and " *" in str(screen.query_one("#plan-title", Static).render())

        await pilot.press("q")  # quitting asks; escape stays, edits kept
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.dirty

        await pilot.press("2")  # another mode asks too; d discards and goes
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")
        await wait_for(pilot, lambda: app.current_mode == app.modes[1][0])
        assert plan.read_text() == USER_PLAN and not screen.dirty

        app.switch_mode("plan")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("tab", "end", "#", "y", "escape", "q")  # s saves, then quits
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("s")
        await wait_for(pilot, lambda: not app.is_running)
    assert plan.read_text() != USER_PLAN and "#y" in plan.read_text()


async def test_tab_enters_the_editor_escape_leaves_and_screen_keys_are_text_there(
    make_app, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    plan = _user_plan(tmp_path)
    app = make_app(open_plan=plan)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _shown(pilot, app, plan)
        assert isinstance(app.focused, DataTable)
        assert screen.active_bindings["c"].binding.action.startswith("layer_plan")

        await pilot.press("tab")
        assert isinstance(app.focused, PlanEditor)
        assert "c" not in screen.active_bindings and "n" not in screen.active_bindings  # footer: off
        editor = _editor(screen)
        editor.move_cursor((0, 0))
        await pilot.press("n", "c", "w", "x", "s", "d", "b", "o", "q", "tab")
        await pilot.pause()
        first = editor.text.splitlines()[0]
        assert first.startswith("ncwxsdboq ") and first.endswith("# my own plan: only fc1 split, by columns")
        assert app.is_running and not app.live_jobs and app.screen is screen
        assert not any("nothing was started" in n.message for n in notified(app))

        await pilot.press("escape")  # out of the editor, still in the mode
        assert isinstance(app.focused, DataTable) and app.screen is screen
        await pilot.press("tab", "escape", "escape")  # in the table, escape leaves the mode (asks first)
        await wait_for(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))


async def test_a_burst_of_a_thousand_keys_redraws_the_title_once(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    plan = _user_plan(tmp_path)
    plan.write_text(USER_PLAN + "# filler, a comment line\n" * 60)  # 1,000 keys: 40 whole lines
    app = make_app(open_plan=plan)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _shown(pilot, app, plan)
        editor = _editor(screen)
        title = screen.query_one("#plan-title", Static)
        updates: list[object] = []
        update = title.update
        title.update = lambda content="", **kw: (updates.append(content), update(content, **kw))[1]  # type: ignore[method-assign]
        checks_before = screen.requests.latest("plan-check")
        editor.focus()
        editor.move_cursor((5, 0))
        length = len(editor.text)
        for _ in range(1000):  # as a terminal delivers a held key: all read before any is handled
            app.post_message(events.Key("delete", None))
        await wait_for(pilot, lambda: len(editor.text) == length - 1000)
        await _checked(pilot, screen)
        assert screen.requests.latest("plan-check") > checks_before  # checked once typing paused
        assert screen.report is not None and screen.report.ok
        checks = screen.requests.latest("plan-check") - checks_before
        assert len(updates) <= 1 + checks  # its " *" once, then at most once per check: never per key


def test_plan_mode_snapshot_with_a_user_plan(snap_compare, make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _user_plan(tmp_path)
    app: WorkbenchApp = make_app(open_plan=Path("plans/my_tp.yaml"))  # relative: a stable title

    async def checked(pilot) -> None:  # type: ignore[no-untyped-def]
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.report is not None)
        await _checked(pilot, _plan_screen(app))

    assert snap_compare(app, run_before=checked, terminal_size=(120, 40))
