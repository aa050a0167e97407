"""The app shell at the minimum size and in both languages: help, footer, modes registry, palette.

Every mode is opened at 80×24 (the smallest supported terminal), its help is scrolled to the end and its
footer checked to fit; a mode dropped into a temporary registry folder shows up everywhere by itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from tests.ui.waiting import notified, wait_for
from workbench.i18n import set_language, t
from workbench.screens.dialogs import HelpScreen, TooSmallScreen
from workbench.screens.env import EnvChecks
from workbench.screens.modes import MODES, ordered_modes

MODE_NAMES = [name for name, _spec in ordered_modes()]


def _footer_keys(app) -> list[FooterKey]:  # type: ignore[no-untyped-def]
    return list(app.screen.query_one(Footer).query(FooterKey))


@pytest.mark.parametrize("mode", MODE_NAMES)
async def test_every_mode_at_80x24_help_scrolls_to_its_last_key_and_the_footer_fits(make_app, mode) -> None:  # type: ignore[no-untyped-def]
    # The Environment mode lists its real checks without running them: its keys and help are the
    # same, and the probes' Paddle processes are tested where the checks are the subject.
    app = make_app(env_checks=EnvChecks(autostart=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(str(MODE_NAMES.index(mode) + 1))
        await wait_for(pilot, lambda: app.current_mode == mode)
        assert not isinstance(app.screen, TooSmallScreen)
        # The footer: every key shown lies fully inside the width, help and quit are among them (the
        # footer shows its keys in the frame after the screen's first).
        await wait_for(pilot, lambda: {"question_mark", "q"} <= {key.key for key in _footer_keys(app)})
        keys = _footer_keys(app)
        for key in keys:
            assert key.region.right <= 80, (key.key, key.region)
        palette = [key for key in keys if "-command-palette" in key.classes]
        plain = [key for key in keys if key not in palette]
        if palette:
            assert all(key.region.right <= palette[0].region.x for key in plain)
        # Help: opens, scrolls with the keyboard, reaches its end (the modes table's last row).
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        scroll = app.screen.query_one("#help-scroll")
        box = app.screen.query_one("#help-box")
        hint = app.screen.query(".dim").last()
        # Nothing is clipped by the dialog: the scroll area and the close hint lie inside its content.
        assert scroll.region.bottom <= hint.region.y <= box.content_region.bottom - 1
        assert box.region.bottom <= 24
        assert scroll.max_scroll_y > 0  # 24 rows do not hold it all: it must scroll
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: scroll.scroll_y > 0)
        await pilot.press("end")
        await wait_for(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
        await pilot.press("home")
        await wait_for(pilot, lambda: scroll.scroll_y == 0)
        await pilot.press("escape")
        await pilot.pause()
        assert app.current_mode == mode and not isinstance(app.screen, HelpScreen)


async def test_help_is_built_from_the_bindings_of_the_screen_it_was_opened_on(make_app) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.base import help_rows

    app = make_app(env_checks=EnvChecks(autostart=False))  # the checks listed, not run (see above)
    async with app.run_test(size=(120, 40)) as pilot:
        runs_keys, global_keys = help_rows(app.screen)
        assert ("r", t("ui.key.refresh")) in runs_keys  # the Runs `r` key help used to leave out
        # enter opens the run: the run table binds enter too (and passes it on), help still lists it
        assert any(text == t("ui.key.open") for _key, text in runs_keys), runs_keys
        assert any(text == t("ui.key.quit") for _key, text in global_keys)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.current_mode == MODE_NAMES[1])
        env_keys, _ = help_rows(app.screen)
        env_descriptions = {text for _key, text in env_keys}
        for key in (
            "envscreen.key.rerun",
            "envscreen.key.rerun_all",
            "envscreen.key.export",
            "envscreen.key.copy",
        ):
            assert t(key) in env_descriptions, key
        assert any(display == "shift+r" for display, _text in env_keys)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.screen._screen_keys == env_keys


async def test_help_is_kept_for_its_rows_and_opens_again_from_the_top(make_app) -> None:  # type: ignore[no-untyped-def]
    """A second ``?`` on the same screen shows the help screen built by the first (its compose, styles
    and tables are most of the key's latency), scrolled back to the top with its scroll area focused;
    other rows or another language get their own; one still open under another mode is not pushed twice."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        runs_help = app.screen
        scroll = runs_help.query_one("#help-scroll")
        await pilot.press("end")
        await wait_for(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y > 0)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.screen is runs_help
        await wait_for(pilot, lambda: scroll.scroll_y == 0 and app.focused is scroll)
        # Left open while another mode is shown (the palette can switch): that mode's help is its own.
        app.switch_mode("wizard")
        await wait_for(pilot, lambda: app.current_mode == "wizard")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.screen is not runs_help and app.screen._screen_keys != runs_help._screen_keys
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        app.switch_mode("runs")
        await wait_for(pilot, lambda: app.current_mode == "runs" and app.screen is runs_help)
        rows = [("a", "b")]
        same_rows = app._help_screen(rows, [], [])
        assert app._help_screen(rows, [], []) is same_rows  # not pushed: kept for the next ``?``
        same_rows.in_stack = True  # as if open under another mode
        assert app._help_screen(rows, [], []) is not same_rows
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        set_language("zh")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.screen is not runs_help and app.screen._global_keys != runs_help._global_keys
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))
        # Only the last few contents are kept; the others leave the app.
        from workbench.screens.app import HELP_SCREENS_KEPT

        oldest = next(iter(app._help_screens.values()))
        for number in range(HELP_SCREENS_KEPT):
            app._help_screen([(str(number), "x")], [], [])
        assert len(app._help_screens) == HELP_SCREENS_KEPT and oldest not in app._help_screens.values()
        await wait_for(pilot, lambda: not oldest.is_attached)


async def test_escape_on_modes_3_5_6_goes_back_to_runs(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for name in ("plan", "compare", "wizard"):
            await pilot.press(str(MODE_NAMES.index(name) + 1))
            await wait_for(pilot, lambda name=name: app.current_mode == name)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.current_mode == "runs")


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
async def test_too_small_notice_states_sizes_and_quits_with_q_and_ctrl_c(make_app, key) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = str(app.screen.query_one("#too-small", Static).render())
        assert "70×20" in text and "80×24" in text and "q" in text and "ctrl+c" in text
        await pilot.resize_terminal(75, 22)
        await wait_for(pilot, lambda: "75×22" in str(app.screen.query_one("#too-small", Static).render()))
        await pilot.press(key)
        await pilot.pause(0.2)
    assert app.return_code == 0


async def test_palette_screenshot_lands_in_the_workspace_and_says_where(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        commands = list(app.get_system_commands(app.screen))
        screenshot = next(c for c in commands if c.title == t("ui.sys.screenshot"))
        screenshot.callback()
        await wait_for(pilot, lambda: any("screenshots" in str(n.message) for n in notified(app)))
        shots = list((app.workspace / "screenshots").glob("*.svg"))
        assert len(shots) == 1 and shots[0].read_text(encoding="utf-8").startswith("<svg")
        assert any(str(shots[0]) in str(n.message) for n in notified(app))


async def test_chinese_palette_system_entries_footer_hint_and_ctrl_c_toast(make_app) -> None:  # type: ignore[no-untyped-def]
    set_language("zh")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles[:3] == ["主题", "退出", "按键"] and "截图" in titles
        await wait_for(pilot, lambda: any("-command-palette" in key.classes for key in _footer_keys(app)))
        palette = [key for key in _footer_keys(app) if "-command-palette" in key.classes]
        assert palette[0].description == "命令面板"
        await pilot.press("ctrl+c")
        await wait_for(
            pilot, lambda: any("按 q 退出" in str(n.message) + str(n.title) for n in notified(app))
        )
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: "搜索命令" in str(app.screen.query_one("Input").placeholder))


async def test_palette_theme_list_shows_our_themes_under_the_cli_names(make_app) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.commands import WorkbenchThemes
    from workbench.themes import theme_choices

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.search_themes()
        await wait_for(
            pilot, lambda: isinstance(app.screen, CommandPalette) and app.screen.query_one(CommandList)
        )
        provider = WorkbenchThemes(app.screen)
        names = [hit.display async for hit in provider.discover()]
        assert sorted(map(str, names)) == sorted(theme_choices()) == ["dark", "high-contrast", "light"]


EXAMPLE_MODE = '''
"""An example mode: one file, registering itself."""

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from workbench.screens.base import WorkbenchScreen
from workbench.screens.modes import MODES, ModeSpec


class ExampleScreen(WorkbenchScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("z", "noop", "ui.key.refresh")]

    def compose(self):
        yield Static("example body", id="example-body")
        yield Footer()


MODES.register(
    "example",
    ModeSpec(factory=f"{__name__}:ExampleScreen", title="mode.example", help="mode.example.what"),
    order=70,
)
'''


@pytest.fixture
def example_mode(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A temporary registry folder holding one new mode module (gone again after the test)."""
    folder = tmp_path / "extra_modes"
    folder.mkdir()
    (folder / "example_mode.py").write_text(EXAMPLE_MODE, encoding="utf-8")
    with MODES.extra_folder(folder) as added:
        assert added == ["example"]
        yield "example"


async def test_a_mode_dropped_into_the_registry_folder_is_listed_reachable_and_in_help(
    make_app, example_mode
) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.commands import _actions

    assert MODES.names()[-1] == example_mode and not MODES.silent_modules()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        number = [name for name, _ in app.modes].index(example_mode) + 1
        assert number == 7
        await pilot.press(str(number))
        await wait_for(pilot, lambda: app.current_mode == example_mode)
        assert str(app.screen.query_one("#example-body", Static).render()) == "example body"
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert ("7", "mode.example", "mode.example.what") in app.screen._modes
        assert ("z", t("ui.key.refresh")) in app.screen._screen_keys
        assert any("mode.example" in name for name, _help, _cb in _actions(app))


def test_every_module_of_the_modes_folder_registers_a_mode() -> None:
    assert MODES.silent_modules() == []
    assert MODE_NAMES[:2] == ["runs", "env"]
    for _name, spec in ordered_modes():
        assert ":" in spec.factory and spec.title in __import__("workbench.i18n").i18n.catalog()


async def test_no_color_strips_colours_instead_of_greying_them(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from textual.filter import Monochrome, NoColor

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        filters = app.get_line_filters()
        assert any(isinstance(f, NoColor) for f in filters)
        assert not any(isinstance(f, Monochrome) for f in filters)
        assert app.theme_variable("loss-train") == "default"


def test_unknown_theme_is_refused_with_the_choices(tmp_path: Path) -> None:
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws"), "--theme", "foo"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**__import__("os").environ, "PADDLE_WORKBENCH_LANG": "en"},
    )
    assert result.returncode == 2
    assert "foo" in result.stderr and "dark, high-contrast, light" in result.stderr
    assert "Traceback" not in result.stderr


async def test_every_dialog_fits_80x24_with_its_close_hint_visible(make_app) -> None:  # type: ignore[no-untyped-def]
    from workbench.screens.dialogs import ErrorScreen, QuitScreen, RunPickerScreen, TrainConfigScreen

    long_text = "\n".join(f"line {n}: " + "x" * 120 for n in range(80))
    dialogs = [
        ErrorScreen("A background task failed", long_text),
        QuitScreen(
            "Quit while training?",
            "Still running: " + ", ".join(f"run-{n}" for n in range(40)),
            can_detach=True,
        ),
        RunPickerScreen("Overlay which run?", [(f"run-{n}", f"run-{n}  finished") for n in range(40)]),
        TrainConfigScreen([f"sample_configs/train_{n}.yaml" for n in range(30)]),
    ]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for dialog in dialogs:
            app.push_screen(dialog)
            await wait_for(
                pilot, lambda dialog=dialog: app.screen is dialog and dialog.query(".dim").last().region
            )
            box = dialog.query_one(".modal-box")
            assert box.region.right <= 80 and box.region.bottom <= 24, (type(dialog).__name__, box.region)
            hint = dialog.query(".dim").last()
            assert box.content_region.contains_region(hint.region), (type(dialog).__name__, hint.region)
            dialog.dismiss(None)
            await pilot.pause(0.1)
