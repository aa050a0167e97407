"""Mode ``wizard``: WizardScreen (see workbench.screens.modes for the pattern)."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "wizard",
    ModeSpec(
        order=60,
        factory="workbench.screens.placeholders:WizardScreen",
        title="mode.wizard",
        help="mode.wizard.what",
    ),
)
