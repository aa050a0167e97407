"""Mode ``runs`` (past and live runs): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "runs",
    ModeSpec(factory="workbench.screens.runs:RunsScreen", title="mode.runs", help="mode.runs.what"),
    order=10,
)
