"""Keys typed ahead of a dialog reach the dialog (screens/typeahead.py).

``pilot.press`` waits until the app is idle after every key, so it cannot show this: a user's keys
come in one terminal read. :func:`type_in_one_read` puts several keys in the app's queue at once, as
Textual's driver does with the keys of one read. Each test here failed before the fix except the command palette one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from textual import events
from textual.command import CommandPalette
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widgets import DataTable, Input

from tests.ui.pty_harness import Terminal, run_in_pty
from tests.ui.waiting import wait_for
from workbench.demo import start_demo_job
from workbench.runs import RunStore
from workbench.screens.dialogs import TrainConfigScreen
from workbench.screens.runs import RunsScreen

KEY_NAMES = {"\x01": "ctrl+a", "\x0b": "ctrl+k", "\r": "enter", "\x10": "ctrl+p"}


def type_in_one_read(app: Any, *typed: str | events.Paste) -> None:
    """Send keys (single characters or key names) and pastes to the app as one terminal read does."""
    for item in typed:
        if isinstance(item, str):
            name = KEY_NAMES.get(item, item)
            item = events.Key(name, item if len(item) == 1 else None)  # type: ignore[assignment]
        app.post_message(item.set_sender(app))


async def _train_dialog(pilot: Any) -> TrainConfigScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, TrainConfigScreen) and app.screen.focused)
    await pilot.pause()
    return app.screen  # type: ignore[no-any-return]


async def test_keys_typed_with_the_dialog_key_land_in_its_field(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        type_in_one_read(app, "t", *"long.yaml")
        dialog = await _train_dialog(pilot)
        # The field offers a sample, selected, so what is typed replaces it.
        await wait_for(pilot, lambda: dialog.query_one(Input).value == "long.yaml")


async def test_enter_typed_ahead_submits_what_was_typed_before_it(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        type_in_one_read(app, "t", *"long.yaml", "\r")
        dialog = await _train_dialog(pilot)
        # No such config: the dialog stays and says so under the field (the check ran on the typed path).
        await wait_for(
            pilot, lambda: "No such file: long.yaml" in str(dialog.query_one("#train-error").render())
        )
        assert app.screen is dialog


async def test_a_paste_with_the_dialog_key_lands_in_its_field(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        type_in_one_read(app, "t", events.Paste("configs/pasted.yaml"))
        dialog = await _train_dialog(pilot)
        await wait_for(pilot, lambda: dialog.query_one(Input).value == "configs/pasted.yaml")


async def test_keys_typed_while_the_dialog_is_being_built_land_in_its_field(make_app) -> None:  # type: ignore[no-untyped-def]
    """Keys read after the dialog was pushed but before its field exists (and has focus)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        app.push_screen(TrainConfigScreen(["sample.yaml"]))
        type_in_one_read(app, *"mine.yaml")
        dialog = await _train_dialog(pilot)
        await wait_for(pilot, lambda: dialog.query_one(Input).value == "mine.yaml")


async def test_a_later_read_waits_for_the_keys_still_coming_back(make_app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A second read ("ng") reaches the app after the dialog opened but before "lo" of the first read
    ("tlo") have come back through the run list (on a busy terminal this happens): order is kept."""
    app = make_app()
    dispatch = MessagePump._dispatch_message
    second_read: list[str] = []

    async def run_list_behind(self: MessagePump, message: Message) -> None:
        await dispatch(self, message)
        is_t = isinstance(message, events.Key) and message.key == "t"
        if isinstance(self, RunsScreen) and is_t and not second_read:
            second_read.append("ng")  # "t" is on its way to the app; "lo" are still in the run list
            type_in_one_read(app, *"ng")

    monkeypatch.setattr(MessagePump, "_dispatch_message", run_list_behind)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        type_in_one_read(app, "t", *"lo")
        dialog = await _train_dialog(pilot)
        await wait_for(pilot, lambda: dialog.query_one(Input).value == "long")
        assert second_read


async def test_a_burst_into_a_field_is_applied_in_the_order_typed(make_app) -> None:  # type: ignore[no-untyped-def]
    """A field inserts characters as they reach it, but its editing keys (backspace, ctrl+a, ctrl+k) are
    bindings, run when the key is back at the app: in one burst they acted after the characters typed
    after them ("abc", backspace, "d" gave "abc")."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        await pilot.press("t")
        field = (await _train_dialog(pilot)).query_one(Input)
        await pilot.press("x")
        type_in_one_read(app, *"abc", "backspace", "d")
        await wait_for(pilot, lambda: field.value == "xabd")
        type_in_one_read(app, "\x01", "\x0b", *"long")  # ctrl+a, ctrl+k: start again
        await wait_for(pilot, lambda: field.value == "long")


async def test_keys_before_the_dialog_key_stay_with_the_screen_below(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2):
        assert start_demo_job(RunStore(tmp_path / "ws"), steps=2, step_s=0).wait(30)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.query_one(DataTable).row_count == 2)
        table = app.screen.query_one(DataTable)
        assert table.cursor_row == 0
        # "down" is for the run list; "d" after "t" would start a demo there, but it is typed into
        # the dialog's field; enter submits the field.
        type_in_one_read(app, "down", "t", *"demo.yaml")
        dialog = await _train_dialog(pilot)
        await wait_for(pilot, lambda: dialog.query_one(Input).value == "demo.yaml")
        assert table.cursor_row == 1
        assert len(app.screen_stack) == 2 and not app.live_jobs
        assert len(list((tmp_path / "ws" / "runs").iterdir())) == 2  # no demo run started


async def test_the_command_palette_gets_the_keys_typed_with_its_key(make_app) -> None:  # type: ignore[no-untyped-def]
    """Every modal, not only ours. ctrl+p is a priority binding, so the palette opens as soon as the key
    is read; its field got the keys before the fix too, and still does."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and app.focused is not None)
        type_in_one_read(app, "\x10", *"theme")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        palette = app.screen
        await wait_for(pilot, lambda: palette.query_one(Input).value == "theme")


def test_on_a_real_terminal_the_dialog_key_and_a_path_in_one_write(tmp_path: Path) -> None:
    """The same through a pty and Textual's own driver: ``t``, a path and enter arrive in one read."""
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en")
    env.pop("PADDLE_WORKBENCH_INJECT", None)
    phase = ["start"]

    def on_output(output: bytes, send: Terminal) -> None:
        if phase[0] == "start" and b"Train config" in output:  # the run list's footer: it is up
            send(b"t" + b"nope/typed.yaml" + b"\r")
            phase[0] = "typed"
        elif phase[0] == "typed" and b"No such file: nope/typed.yaml" in output:
            send(b"\x11")  # ctrl+q: nothing runs, so the app quits at once
            phase[0] = "done"

    argv = [sys.executable, "-m", "workbench", "--workspace", str(tmp_path / "ws")]
    code, output = run_in_pty(argv, env=env, cwd=str(tmp_path), timeout=60, on_output=on_output)
    assert phase[0] == "done", f"stuck at {phase[0]}: {output[-2000:]!r}"
    assert code == 0
