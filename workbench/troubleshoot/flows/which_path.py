"""Flow: Which path should I take: core framework, a model library, or a low-code kit (and scientific computing)."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "which_path",
    Flow(title_key="wizard.flow.which_path", source=Path(__file__).with_suffix(".yaml")),
    order=70,
)
