"""Flow: An operator is unsupported on the target hardware: which target, then kernel availability in this build."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "op_unsupported",
    Flow(title_key="wizard.flow.op_unsupported", source=Path(__file__).with_suffix(".yaml")),
    order=50,
)
