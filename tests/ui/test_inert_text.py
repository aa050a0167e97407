"""Outside text in the TUI is inert: OSC 52/8/0/2, ``ESC[2J``, C1 controls and bidi overrides from a run
(its log, metric names, alerts, error and traceback, config path), an attached kit log and a pasted
error are shown visibly in the monitor, the runs detail and the wizard, and never reach the terminal.

What reaches the terminal is read from the screen the app would draw: every cell's text after Textual
laid it out and applied the app's line filters (the segments its driver writes), and the terminal
string those segments render to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Log, OptionList, Static, TextArea

from tests.hostile_text import BIDI, CLEAR, HOSTILE, OSC2, OSC8, OSC52, assert_inert, write_hostile_run
from tests.ui.waiting import wait_for
from workbench.attach.link import link_log
from workbench.runs import RunStore
from workbench.screens.monitor import MonitorScreen
from workbench.screens.runs import RunsScreen
from workbench.screens.wizard import PASTE, WizardScreen

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kit_logs"


def drawn(app: Any) -> tuple[str, str]:
    """The whole screen as the driver would write it: (the cells' text, the terminal string)."""
    update = app.screen._compositor.render_full_update()
    text = "\n".join("".join(segment.text for strip in line for segment in strip) for line in update.strips)
    return text, update.render_segments(app.console)


def assert_screen_inert(app: Any) -> str:
    """No control character in any cell, and the terminal string holds only the app's own sequences
    (CSI cursor moves and colours): no OSC, no ``ESC[2J``, no C1, no BEL, no bidi. Returns the text."""
    text, terminal = drawn(app)
    assert_inert(text)
    assert "\x1b]" not in terminal and CLEAR not in terminal and "\x07" not in terminal
    assert_inert(terminal.replace("\x1b[", ""))  # the app's own CSI sequences aside, nothing else
    return text


def _static(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_monitor_shows_a_hostile_run_inert(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run_dir = write_hostile_run(tmp_path / "ws")
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        app.open_in_monitor(run_dir.name)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one("#monitor-failure").display)
        await wait_for(pilot, lambda: "plain line" in "\n".join(screen.query_one(Log).lines))
        await wait_for(pilot, lambda: "loss is nan" in _static(screen, "#monitor-events"))
        await pilot.pause(0.1)
        shown = assert_screen_inert(app)
        assert "␛]52;c;" in shown  # visible on the screen, not swallowed
        log = "\n".join(screen.query_one(Log).lines)
        assert "␛]52;c;" in log and "␛]2;title-two␛\\" in log and "\\x9b2J" in log and "\\u202e" in log
        failure = _static(screen, "#monitor-failure-text")
        assert "RuntimeError: ␛]52;c;" in failure and "␛]0;title-zero␇" in failure
        assert "␛[2J" in _static(screen, "#monitor-events")
        await pilot.press("v")  # the run's overview: its config path, name, error
        await pilot.pause(0.2)
        assert_screen_inert(app)


async def test_runs_detail_shows_a_hostile_run_inert(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    write_hostile_run(tmp_path / "ws")
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        app.switch_mode("runs")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen))
        screen = app.screen
        await wait_for(pilot, lambda: "RuntimeError" in _static(screen, "#run-detail-text"))
        await pilot.pause(0.1)
        assert "␛]" in assert_screen_inert(app)  # what of it fits on the screen: visible
        detail = _static(screen, "#run-detail-text")
        assert "RuntimeError: ␛]52;c;" in detail and "\\u202eevil\\u202c.yaml" in detail  # error, config path


async def test_an_attached_kit_log_with_sequences_is_inert_in_the_log_pane(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    lines = (FIXTURES / "paddleclas_train.log").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "kit" / "train.log"
    log.parent.mkdir()
    hostile = [
        f"ppcls INFO: {OSC52}",
        f"ppcls INFO: {OSC8}",
        f"ppcls INFO: {OSC2}{CLEAR}",
        f"\x9b2J{BIDI} c1",
    ]
    log.write_text("\n".join([*lines, *hostile, "end of log"]) + "\n", encoding="utf-8")
    run_dir = link_log(RunStore(tmp_path / "ws"), log)
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        app.open_in_monitor(run_dir.name)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.job is not None)
        screen = app.screen
        await wait_for(pilot, lambda: "end of log" in "\n".join(screen.query_one(Log).lines))
        await pilot.pause(0.1)
        assert_screen_inert(app)
        assert "␛]52;c;" in "\n".join(screen.query_one(Log).lines)


async def test_a_pasted_hostile_error_is_inert_in_the_wizard(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        app.switch_mode("wizard")
        await wait_for(pilot, lambda: isinstance(app.screen, WizardScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one("#wizard-problems", OptionList).option_count > 1)
        options = screen.query_one("#wizard-problems", OptionList)
        options.focus()
        options.highlighted = options.get_option_index(PASTE)
        await pilot.press("enter")
        await pilot.pause(0.05)
        pasted = (
            f'Traceback (most recent call last):\n  File "{HOSTILE}.py", line 3\n'
            f"RuntimeError: {OSC2}(ResourceExhausted) Out of memory error on GPU 0. {OSC52}{BIDI}\x9b2J\n"
        )
        screen.query_one("#wizard-text", TextArea).insert(pasted)
        await pilot.pause(0.1)
        assert_screen_inert(app)  # the text box itself, holding the raw paste
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.diagnosis is not None)
        finding = _static(screen, "#wizard-finding")
        assert "memory.gpu_oom" in finding and "\\u202e" in finding
        await pilot.pause(0.1)
        assert_screen_inert(app)


def test_inert_text_keeps_each_style_on_the_characters_it_styled() -> None:
    from rich.text import Text

    from workbench.screens.inert import inert_text

    text = Text.assemble(("ok ", "bold"), (f"a{OSC2}b", "red"), " tail", ("\x9b", "blue"))
    shown = inert_text(text)
    assert shown.plain == "ok a␛]2;title-two␛\\b tail\\x9b"
    styled = {shown.plain[span.start : span.end]: str(span.style) for span in shown.spans}
    assert styled == {"ok ": "bold", "a␛]2;title-two␛\\b": "red", "\\x9b": "blue"}
    plain = Text("nothing to do", style="dim")
    assert inert_text(plain) is plain
