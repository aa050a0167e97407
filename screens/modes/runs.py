"""Mode ``runs``: RunsScreen (see workbench.screens.modes for the pattern)."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "runs",
    ModeSpec(order=10, factory="workbench.screens.runs:RunsScreen", title="mode.runs", help="mode.runs.what"),
)
