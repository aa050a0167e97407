"""Mode ``plan``: PlanScreen (see workbench.screens.modes for the pattern)."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "plan",
    ModeSpec(
        order=30,
        factory="workbench.screens.placeholders:PlanScreen",
        title="mode.plan",
        help="mode.plan.what",
    ),
)
