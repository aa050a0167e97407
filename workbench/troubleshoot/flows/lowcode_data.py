"""Flow: Low-code (kit) training fails on the data format: lint the dataset the way the kits read it."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "lowcode_data",
    Flow(title_key="wizard.flow.lowcode_data", source=Path(__file__).with_suffix(".yaml")),
    order=60,
)
