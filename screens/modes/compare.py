"""Mode ``compare`` (inference parity): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "compare",
    ModeSpec(
        factory="workbench.screens.compare:CompareScreen", title="mode.compare", help="mode.compare.what"
    ),
    order=50,
)
