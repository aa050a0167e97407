"""Mode ``compare``: CompareScreen (see workbench.screens.modes for the pattern)."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "compare",
    ModeSpec(
        order=50,
        factory="workbench.screens.placeholders:CompareScreen",
        title="mode.compare",
        help="mode.compare.what",
    ),
)
