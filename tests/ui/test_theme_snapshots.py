"""One SVG snapshot per bundled theme as a 256-colour terminal (tmux's default) shows it.

Snapshots are recorded in true colour, so the app is started with ``preview_colors="256"``: every colour
goes through the same palette reduction Rich applies when it writes to a 256-colour terminal
(``workbench.themes.depth.ReducedColors``). The monitor with a failed scripted run shows most of what a
theme colours: statuses, plot lines, the event list, the error panel, the footer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.scripted import ScriptedJob
from tests.ui.waiting import wait_for
from workbench.screens.app import WorkbenchApp
from workbench.themes import theme_choices


@pytest.mark.parametrize("theme", sorted(theme_choices()))
def test_monitor_at_256_colours(snap_compare, make_app, tmp_path: Path, theme: str) -> None:  # type: ignore[no-untyped-def]
    app: WorkbenchApp = make_app(theme_name=theme, preview_colors="256")

    async def open_scripted(pilot) -> None:  # type: ignore[no-untyped-def]
        app.open_in_monitor(ScriptedJob(tmp_path / "scripted-run"))
        await wait_for(pilot, lambda: app.screen.query_one("#monitor-failure").display)  # however busy
        await pilot.pause(0.6)  # then one monitor tick, so every pane has drawn it

    assert snap_compare(app, run_before=open_scripted, terminal_size=(100, 30))


def test_reduced_colours_use_the_terminal_palette() -> None:
    from rich.color import Color
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color as TextualColor

    from workbench.themes.depth import ReducedColors

    segment = Segment("x", Style(color="#14161b", bgcolor="#4f8ff7"))
    (out,) = ReducedColors("256").apply([segment], TextualColor(0, 0, 0))
    assert out.style is not None and out.style.color is not None and out.style.bgcolor is not None
    palette_fg = Color.parse("#14161b").downgrade(Color.parse("color(1)").system.EIGHT_BIT).get_truecolor()
    assert out.style.color.get_truecolor() == palette_fg
    assert out.style.bgcolor.get_truecolor() != Color.parse("#4f8ff7").get_truecolor()
