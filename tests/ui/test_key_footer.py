"""The key footer rebuilds only when what it shows changed (Textual's rebuilds on every bindings signal)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.waiting import wait_for
from workbench.screens.widgets.key_footer import KeyFooter


def _keys(app: Any) -> list[str]:
    return [str(key.key) for key in app.screen.query_one(KeyFooter).query("FooterKey")]


async def test_repeated_binding_signals_do_not_rebuild_an_unchanged_footer(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    rebuilds = [0]
    original = KeyFooter.recompose

    async def counted(self: KeyFooter) -> None:
        rebuilds[0] += 1
        await original(self)

    monkeypatch.setattr(KeyFooter, "recompose", counted)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "q" in _keys(app))
        shown, before = _keys(app), rebuilds[0]
        for _ in range(5):
            app.screen.refresh_bindings()  # what a focus move or a run's state change sends
        await pilot.pause(0.2)
        assert rebuilds[0] == before and _keys(app) == shown
        await pilot.resize_terminal(80, 24)  # compact below 120 columns: a real change
        await wait_for(pilot, lambda: rebuilds[0] == before + 1)
        assert app.screen.query_one(KeyFooter).compact and "q" in _keys(app)


async def test_the_footer_follows_the_screens_keys_across_modes(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "q" in _keys(app))
        runs_keys = _keys(app)
        app.switch_mode("monitor")
        await wait_for(pilot, lambda: "g" in _keys(app))
        assert _keys(app) != runs_keys
