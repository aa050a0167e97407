"""Flow: Inference disagrees with training: eval mode and preprocessing identity from the compare engine."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "inference_disagrees",
    Flow(title_key="wizard.flow.inference_disagrees", source=Path(__file__).with_suffix(".yaml")),
    order=40,
)
