"""An SVG snapshot of every mode in its scripted state (``tests/ui/mode_states.py``), at 80×24 and
120×40, in the light and dark themes: 24 pictures from four app start-ups (one per theme and size, each
walking the six modes in key order).

Each picture is its own file, ``__snapshots__/test_mode_snapshots/test_every_mode[<theme>-<size>][<mode>].svg``.
Update after an intended change with ``pytest tests/ui/test_mode_snapshots.py --snapshot-update`` and
look at the pictures before committing (textual is pinned exactly, so they are stable).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_textual_snapshot import SVGImageExtension
from syrupy.assertion import SnapshotAssertion

from tests.ui.mode_states import (
    MODES,
    SIZES,
    script_the_screens,
    scripted_app,
    scripted_workspace,
    show_mode,
    utc,
)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_every_mode(
    theme: str, size: str, snapshot: SnapshotAssertion, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scripted_workspace(tmp_path)
    script_the_screens(monkeypatch)
    pictures = snapshot.use_extension(SVGImageExtension)
    differ = []
    app = scripted_app(theme)
    with utc():
        async with app.run_test(size=SIZES[size]) as pilot:
            for mode in MODES:
                await show_mode(pilot, mode, tmp_path / "scripted-run")
                svg = app.export_screenshot(title=f"{mode} {theme} {size}")
                matches = pictures(name=mode) == svg  # syrupy records (or, updating, writes) it
                if not matches:
                    differ.append(mode)
    assert not differ, f"modes whose picture changed: {', '.join(differ)} (see the syrupy diff above)"
