"""Mode ``monitor``: MonitorScreen (see workbench.screens.modes for the pattern)."""

from workbench.screens.modes import MODES, ModeSpec

MODES.register(
    "monitor",
    ModeSpec(
        order=40,
        factory="workbench.screens.monitor:MonitorScreen",
        title="mode.monitor",
        help="mode.monitor.what",
    ),
)
