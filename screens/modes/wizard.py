"""Mode ``wizard`` (troubleshooting (not yet)): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "wizard",
    ModeSpec(
        factory="workbench.screens.placeholders:WizardScreen", title="mode.wizard", help="mode.wizard.what"
    ),
    order=60,
)
