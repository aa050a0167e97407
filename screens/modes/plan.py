"""Mode ``plan`` (the sharding-plan editor): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "plan",
    ModeSpec(factory="workbench.screens.plan:PlanScreen", title="mode.plan", help="mode.plan.what"),
    order=30,
)
