"""Mode ``monitor`` (live curves of a run): one registration, the screen is imported when first shown."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "monitor",
    ModeSpec(
        factory="workbench.screens.monitor:MonitorScreen", title="mode.monitor", help="mode.monitor.what"
    ),
    order=40,
)
