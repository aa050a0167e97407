"""Mode ``env``: EnvScreen (see workbench.screens.modes for the pattern)."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "env",
    ModeSpec(order=20, factory="workbench.screens.env:EnvScreen", title="mode.env", help="mode.env.what"),
)
