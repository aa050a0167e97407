"""Mode ``wizard`` (troubleshooting): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "wizard",
    ModeSpec(factory="workbench.screens.wizard:WizardScreen", title="mode.wizard", help="mode.wizard.what"),
    order=60,
)
