"""Every cell every mode draws is readable, in true colour and as a 256-colour terminal (tmux's default)
shows it: each mode is shown in its scripted state (``tests/ui/mode_states.py``) in each bundled theme,
and every cell that holds a visible character is checked, foreground against background, with the WCAG
contrast ratio ``tests/ui/test_theme_contrast.py`` uses for the theme's palette.

The palette test checks the pairs the stylesheet names; this walks what is actually drawn, so a colour a
screen picks by itself (a Rich style, a theme variable that does not exist and falls back to white) is
caught too. The 256-colour cells are the true-colour ones reduced by the filter the 256-colour theme
snapshots use (``WorkbenchApp(preview_colors="256")``: :class:`workbench.themes.depth.ReducedColors`,
Rich's own palette reduction), so one render of each mode gives both depths.

Floors: text 4.5:1 (WCAG AA). Drawn data that is not text (braille plot dots, ``▲ ● ■`` marks) 3:1
(WCAG 1.4.11, non-text contrast), like the palette test's borders. Box drawing and block elements are
Textual's frames, "tall" borders and scrollbars: some are meant to melt into the background (a tall
border in the widget's own colour), so they are not judged. A Rich ``dim`` style never reaches a cell
as such: Textual draws it as a colour blended toward the background, and that colour is judged at
4.5:1 like any text. A cell that still carries the SGR *dim* attribute is drawn at whatever faintness
the terminal picks; it is judged as Textual's own ``DimFilter`` models it (the foreground blended
halfway into the background, the faintest common rendering) against 3:1, WCAG AA's floor for
incidental and large text: 4.5:1 at half intensity would forbid the attribute in every theme.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.strip import Strip

from tests.ui.mode_states import (
    MODES,
    script_the_screens,
    scripted_app,
    scripted_workspace,
    show_mode,
    utc,
)
from tests.ui.test_theme_contrast import BORDER_FLOOR, TEXT_FLOOR, contrast
from workbench.themes import theme_choices
from workbench.themes.depth import ReducedColors

DIM_FLOOR = 3.0
GRAPHIC_FLOOR = BORDER_FLOOR
DIM_FACTOR = 0.5  # textual.filter.DimFilter's default
SIZE = (120, 40)


@dataclass(frozen=True)
class Cell:
    """One drawn character with the colours a terminal shows it in."""

    x: int
    y: int
    char: str
    foreground: Color
    background: Color
    dim: bool

    def floor(self) -> float:
        if is_graphic(self.char):
            return GRAPHIC_FLOOR
        return DIM_FLOOR if self.dim else TEXT_FLOOR

    def ratio(self) -> float:
        foreground = self.background.blend(self.foreground, DIM_FACTOR) if self.dim else self.foreground
        return contrast(foreground, self.background)


def is_frame(char: str) -> bool:
    """Box drawing and block elements: Textual's borders, scrollbars and the footer's separators."""
    return 0x2500 <= ord(char) <= 0x259F


def is_graphic(char: str) -> bool:
    """Braille plot dots and geometric marks (``▲ ● ■``): drawn data, not text."""
    code = ord(char)
    return 0x25A0 <= code <= 0x25FF or 0x2800 <= code <= 0x28FF


def _colour(color: RichColor | None) -> Color | None:
    if color is None or color.is_default:
        return None
    return Color(*color.get_truecolor())


def screen_strips(app: Any) -> list[Strip]:
    """The composed screen, every layer, as the terminal is sent it (what ``export_screenshot`` draws).

    Reads ``Screen._compositor``: Textual has no public call that returns the composed lines (its own
    ``App.export_screenshot`` reads the same attribute); ``test_the_compositor_is_where_we_read_it``
    pins it, so an upgrade that moves it fails there first.
    """
    strips: list[Strip] = app.screen._compositor.render_strips()
    return strips


def cells(strips: list[Strip], depth: str | None) -> Iterator[Cell]:
    """Every visible character; ``depth`` ``"256"`` reduces the colours as a 256-colour terminal does."""
    reduce = ReducedColors(depth) if depth else None
    for y, strip in enumerate(strips):
        segments: list[Segment] = list(strip)
        if reduce is not None:
            segments = reduce.apply(segments, Color(0, 0, 0))
        x = 0
        for text, style, control in segments:
            if control:
                continue
            style = style or Style()
            foreground, background = _colour(style.color), _colour(style.bgcolor)
            if style.reverse:
                foreground, background = background, foreground
            for char in text:
                width = 2 if unicodedata.east_asian_width(char) in "WF" else 1
                visible = not char.isspace() and unicodedata.category(char) not in ("Cc", "Cf", "Zs")
                if visible and not is_frame(char) and style.conceal is not True:
                    if foreground is None or background is None:
                        raise AssertionError(f"({x},{y}) {char!r} has a terminal default colour")
                    yield Cell(x, y, char, foreground, background, bool(style.dim))
                x += width


def row_text(strips: list[Strip], y: int) -> str:
    return "".join(text for text, _, control in strips[y] if not control)


def failures(strips: list[Strip], depth: str | None) -> list[str]:
    """One line per run of adjacent failing cells with the same colours: where, what, the ratio."""
    found: dict[tuple[int, str, str, bool], list[Cell]] = {}
    for cell in cells(strips, depth):
        if cell.ratio() < cell.floor():
            key = (cell.y, cell.foreground.hex, cell.background.hex, cell.dim)
            found.setdefault(key, []).append(cell)
    lines = []
    for (y, fg, bg, dim), run in found.items():
        chars = "".join(c.char for c in run)[:30]
        lines.append(
            f"row {y} col {run[0].x}: {chars!r} {fg} on {bg}{' dim' if dim else ''}"
            f" {run[0].ratio():.2f} < {run[0].floor()}"
        )
    return lines


KNOWN: dict[tuple[str, str], str] = {}
"""(theme, mode) pairs with an open finding, each with what it is: the test fails when one of them
passes (so it leaves this list) and when any other pair fails."""


@pytest.mark.parametrize("theme", sorted(theme_choices()))
async def test_every_mode_every_cell_is_readable(
    theme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All six modes in one app (one start-up per theme), each checked at true colour and 256 colours."""
    monkeypatch.chdir(tmp_path)
    scripted_workspace(tmp_path)
    script_the_screens(monkeypatch)
    problems: dict[str, list[str]] = {}
    app = scripted_app(theme)
    with utc():
        async with app.run_test(size=SIZE) as pilot:
            for mode in MODES:
                await show_mode(pilot, mode, tmp_path / "scripted-run")
                strips = screen_strips(app)
                for depth in (None, "256"):
                    for line in failures(strips, depth):
                        problems.setdefault(mode, []).append(f"{mode} {depth or 'truecolor'}: {line}")
    unexpected = [line for mode, lines in problems.items() if (theme, mode) not in KNOWN for line in lines]
    assert not unexpected, f"{theme}:\n" + "\n".join(unexpected)
    fixed = [mode for (known_theme, mode) in KNOWN if known_theme == theme and mode not in problems]
    assert not fixed, f"{theme}: {fixed} pass now: take them out of KNOWN"


def test_the_compositor_is_where_we_read_it() -> None:
    """``screen_strips`` reads ``Screen._compositor.render_strips``, which ``export_screenshot`` uses."""
    import inspect

    from textual._compositor import Compositor
    from textual.app import App

    assert "self.screen._compositor" in inspect.getsource(App.export_screenshot)
    assert callable(Compositor.render_strips)


def test_every_status_variable_a_screen_names_is_in_every_theme() -> None:
    """A name no theme defines falls back to white in ``theme_variable``: on the light theme that is
    white on white (the path dashboard's done and failed steps were)."""
    from tests.ui.test_theme_contrast import SPECS
    from workbench.screens.formatting import STATUS_VARIABLE
    from workbench.screens.runs import STATE_VARIABLE

    named = set(STATE_VARIABLE.values()) | set(STATUS_VARIABLE.values())
    missing = {spec.name: sorted(named - set(spec.variables)) for spec in SPECS}
    assert not any(missing.values()), missing
