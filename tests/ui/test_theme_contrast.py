"""Every bundled theme is readable: WCAG contrast of each text/background pair the UI actually draws.

The pairs below are the ones the stylesheet (``themes/app.tcss``), the screens and Textual's own widgets
we use put on screen: body text, dim text, titles, the footer, the table cursor, status and plot colours
on the backgrounds they sit on. Text needs 4.5:1 (WCAG AA); panel borders, which are not text, 3:1.
"""

from __future__ import annotations

import pytest
from textual.color import Color
from textual.theme import Theme

from workbench.themes import ThemeSpec, load_theme_specs

SPECS, PROBLEMS = load_theme_specs()
TEXT_FLOOR = 4.5
BORDER_FLOOR = 3.0
SEMANTIC_TEXT = [
    "loss-train", "loss-val", "rank-0", "rank-1", "rank-2", "rank-3", "shard", "replicate", "partial",
    "status-pass", "status-warn", "status-fail", "status-running",
    *(f"run-{i}" for i in range(8)),  # the overlaid runs' curves and legends
]  # fmt: skip
TEXT_PAIRS = [
    ("foreground", "background"),  # body text
    ("foreground", "surface"),  # dialogs
    ("foreground", "panel"),
    ("text-muted", "background"),  # .dim hints
    ("text-muted", "surface"),
    ("primary", "surface"),  # .modal-title in a dialog
    ("primary", "background"),  # .modal-title on a placeholder panel
    ("warning", "background"),  # the too-small notice
    ("footer-key-foreground", "footer-background"),
    ("footer-description-foreground", "footer-background"),
    ("block-cursor-foreground", "block-cursor-background"),  # the selected table row
    *((name, "background") for name in SEMANTIC_TEXT),  # status cells, plot lines, legends
    *((name, "surface") for name in SEMANTIC_TEXT),
]
BORDER_PAIRS = [("panel-border", "background"), ("panel-border", "surface")]


def luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(a: Color, b: Color) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def resolved(spec: ThemeSpec) -> dict[str, str]:
    """The theme's CSS variables as Textual computes them, plus the theme's own semantic variables."""
    return Theme(**spec.model_dump()).to_color_system().generate() | spec.variables


def colour(variables: dict[str, str], name: str, background: Color) -> Color:
    """A variable's colour as drawn on ``background`` (``auto 60%`` and alpha blended like Textual does)."""
    value = variables[name]
    if value.startswith("auto"):
        alpha = float(value.split()[1].rstrip("%")) / 100 if " " in value else 1.0
        return background + background.get_contrast_text(alpha)
    return background + Color.parse(value)


def test_theme_files_all_load() -> None:
    assert PROBLEMS == [] and len(SPECS) >= 3


def in_256_colours(color: Color) -> Color:
    """The colour a 256-colour terminal (tmux's default) draws instead."""
    from rich.color import Color as RichColor
    from rich.color import ColorSystem

    from workbench.themes.depth import _reduce

    triplet = _reduce(RichColor.parse(color.hex), ColorSystem.EIGHT_BIT).get_truecolor()
    return Color(*triplet)


@pytest.mark.parametrize("depth", ["truecolor", "256"])
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_text_pair_meets_the_contrast_floor(spec: ThemeSpec, depth: str) -> None:
    variables = resolved(spec)
    failures = []
    for pairs, floor in ((TEXT_PAIRS, TEXT_FLOOR), (BORDER_PAIRS, BORDER_FLOOR)):
        for text, back in pairs:
            background = Color.parse(variables[back])
            foreground = colour(variables, text, background)
            if depth == "256":
                foreground, background = in_256_colours(foreground), in_256_colours(background)
            ratio = contrast(foreground, background)
            if ratio < floor:
                failures.append(f"{text} on {back}: {ratio:.2f} < {floor}")
    assert not failures, f"{spec.name}: " + "; ".join(failures)
