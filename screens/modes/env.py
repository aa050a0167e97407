"""Mode ``env`` (environment checks): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "env",
    ModeSpec(factory="workbench.screens.env:EnvScreen", title="mode.env", help="mode.env.what"),
    order=20,
)
