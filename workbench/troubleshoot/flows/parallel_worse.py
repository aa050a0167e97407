"""Flow: Parallel training converges worse than one card: seeds, learning rate vs global batch, the plan."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "parallel_worse",
    Flow(title_key="wizard.flow.parallel_worse", source=Path(__file__).with_suffix(".yaml")),
    order=30,
)
