"""See a screen as a 256- or 16-colour terminal shows it.

Textual renders in true colour and Rich reduces each colour to the terminal's palette on output (tmux's
default is 256 colours, some consoles have 16). Screenshots and SVG snapshots are always recorded in
true colour, so :class:`ReducedColors` applies the same reduction (Rich's ``Color.downgrade``) to every
line first; a snapshot taken with it shows what a user of such a terminal sees.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color, ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.color import Color as TextualColor
from textual.filter import LineFilter

DEPTHS = {"256": ColorSystem.EIGHT_BIT, "16": ColorSystem.STANDARD}


@lru_cache(maxsize=4096)
def _reduce(color: Color, system: ColorSystem) -> Color:
    """The palette colour a terminal of ``system`` would draw, as a true colour again."""
    if color.is_default:
        return color
    triplet = color.downgrade(system).get_truecolor()
    return Color.from_triplet(triplet)


class ReducedColors(LineFilter):
    """Reduce every foreground and background colour to a 256- (``"256"``) or 16-colour (``"16"``) palette."""

    def __init__(self, depth: str, enabled: bool = True) -> None:
        super().__init__(enabled=enabled)
        if depth not in DEPTHS:
            raise ValueError(f"colour depth {depth!r} is not one of {', '.join(DEPTHS)}")
        self.system = DEPTHS[depth]

    def _style(self, style: Style | None) -> Style | None:
        if style is None:
            return None
        color = _reduce(style.color, self.system) if style.color is not None else None
        bgcolor = _reduce(style.bgcolor, self.system) if style.bgcolor is not None else None
        return style + Style.from_color(color, bgcolor)

    def apply(self, segments: list[Segment], background: TextualColor) -> list[Segment]:
        return [Segment(text, self._style(style), control) for text, style, control in segments]
