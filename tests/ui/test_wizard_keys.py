"""The Troubleshoot mode driven by the keys a user presses, in the real app: a problem is highlighted on
entry (enter works at once), focus returns to the problem list when a flow ends, the finding's header
carries its title, a new paste starts clean, the footer offers ``r`` and ``tab`` in both languages, and
a traceback with no known cause gets the engine's structured reading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static, TextArea

from tests.ui.test_inert_text import drawn
from tests.ui.waiting import wait_for
from workbench.i18n import set_language, t
from workbench.screens.app import WorkbenchApp
from workbench.screens.wizard import WizardScreen

TRACEBACK = """\
Traceback (most recent call last):
  File "/home/ada/proj/tools/train.py", line 42, in <module>
    main()
  File "/home/ada/proj/tools/train.py", line 37, in main
    model = build_model(cfg)
  File "/usr/lib/python3.10/site-packages/paddle/nn/layer/layers.py", line 1200, in __call__
    raise ValueError("frobnicate width must be even")
ValueError: frobnicate width must be even
"""


async def _wizard(pilot: Any) -> WizardScreen:
    """Mode 6 through its key."""
    await pilot.press("6")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, WizardScreen))
    screen = pilot.app.screen
    assert isinstance(screen, WizardScreen)
    return screen


def _text(screen: WizardScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def _focused_id(screen: WizardScreen) -> str | None:
    return screen.focused.id if screen.focused is not None else None


async def _open_problem(pilot: Any, screen: WizardScreen, option_id: str) -> None:
    """Arrow keys down the problem list to ``option_id`` (from wherever it is), then enter."""
    problems = screen.query_one("#wizard-problems", OptionList)
    await wait_for(pilot, lambda: _focused_id(screen) == "wizard-problems")
    await pilot.press("home", *["down"] * problems.get_option_index(option_id), "enter")


async def test_on_entry_a_problem_is_highlighted_and_enter_opens_it(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _wizard(pilot)
        await pilot.press("enter")  # the first problem, "I have an error", with no other key before it
        text = screen.query_one("#wizard-text", TextArea)
        await wait_for(pilot, lambda: text.display and text.has_focus)
        assert "Paste the error" in _text(screen, "#wizard-prompt")


async def test_a_finished_flow_gives_focus_back_and_its_header_names_the_finding(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _wizard(pilot)
        await _open_problem(pilot, screen, "which_path")
        for _ in range(3):  # vision → none → server: each answer the highlighted first choice, by enter
            await wait_for(pilot, lambda: _focused_id(screen) == "wizard-choices")
            await pilot.press("enter")
        await wait_for(pilot, lambda: screen.walk.done)
        await wait_for(pilot, lambda: _focused_id(screen) == "wizard-problems")
        title = screen.walk.finding().title
        assert _text(screen, "#wizard-prompt") == f"Finding: {title}"
        # On the 80×24 screen the cause follows the header, not below the evidence or off screen.
        lines = drawn(app)[0].splitlines()
        header = next(i for i, line in enumerate(lines) if f"Finding: {title}" in line)
        assert any("cause:" in line for line in lines[header + 1 : header + 4])
        await pilot.press("e")  # the next action reaches the screen from where focus now is
        await wait_for(pilot, lambda: screen.last_export)
        assert title in Path(screen.last_export).read_text(encoding="utf-8")


async def test_a_new_paste_replaces_the_old_one_and_clears_the_previous_flow(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _wizard(pilot)
        await _open_problem(pilot, screen, "op_unsupported")
        await wait_for(pilot, lambda: _focused_id(screen) == "wizard-choices")
        options = screen.query_one("#wizard-choices", OptionList)
        await pilot.press(*["down"] * options.get_option_index("onnx"), "enter")
        text = screen.query_one("#wizard-text", TextArea)
        await wait_for(pilot, lambda: text.has_focus)
        text.insert("multiclass_nms3")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: screen.walk.done and "multiclass_nms3" in _text(screen, "#wizard-evidence")
        )

        await _open_problem(pilot, screen, "__paste__")
        await wait_for(pilot, lambda: text.has_focus)
        assert _text(screen, "#wizard-evidence") == "" and _text(screen, "#wizard-finding") == ""
        assert text.text == "" and screen.walk is None
        text.insert("ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found\n")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "imports.glibcxx" in _text(screen, "#wizard-finding"))

        await _open_problem(pilot, screen, "__paste__")  # the second paste starts from an empty box
        await wait_for(pilot, lambda: text.has_focus)
        assert text.text == "" and _text(screen, "#wizard-finding") == "" and screen.diagnosis is None
        text.insert("TypeError: only 0-dimensional arrays can be converted to Python scalars\n")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "numpy_compat" in _text(screen, "#wizard-finding"))
        assert "GLIBCXX" not in _text(screen, "#wizard-finding")


@pytest.mark.parametrize(
    ("lang", "size"), [("en", (120, 40)), ("zh", (80, 24))], ids=["en-120x40", "zh-80x24"]
)
async def test_the_footer_offers_r_and_tab_in_both_languages(
    tmp_path: Path, lang: str, size: tuple[int, int]
) -> None:
    set_language(lang)
    keys = [f"r {t('ui.wizard.key.run')}", f"tab {t('ui.wizard.key.tab')}"]
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=size) as pilot:
        await _wizard(pilot)
        await wait_for(pilot, lambda: all(key in drawn(app)[0].splitlines()[-1] for key in keys))
        footer = drawn(app)[0].splitlines()[-1]
    assert all(key in footer for key in keys), footer


async def test_a_traceback_with_no_known_cause_gets_a_structured_reading(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "ws", preload_paddle=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _wizard(pilot)
        await pilot.press("enter")
        text = screen.query_one("#wizard-text", TextArea)
        await wait_for(pilot, lambda: text.has_focus)
        text.insert(TRACEBACK)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.diagnosis is not None)
        await wait_for(pilot, lambda: _focused_id(screen) == "wizard-problems")
        prompt, finding = _text(screen, "#wizard-prompt"), _text(screen, "#wizard-finding")
        assert screen.diagnosis["kind"] == "unrecognised"
        await pilot.press("e")  # the export carries the same reading, not an empty "Diagnosis" section
        await wait_for(pilot, lambda: screen.last_export)
        report = Path(screen.last_export).read_text(encoding="utf-8")
        assert "ValueError: frobnicate width must be even" in report and "what to try:" in report
    assert prompt.startswith("no known cause") and prompt.endswith("this is what the log shows:")
    assert "ValueError: frobnicate width must be even" in finding
    assert "/home/ada/proj/tools/train.py:37 in main" in finding  # the user's frame, not Paddle's
    assert "what to try:" in finding and "paddle-workbench check" in finding
    assert "e exports this diagnosis." in finding
