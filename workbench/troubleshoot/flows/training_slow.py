"""Flow: Training is slow: data wait vs compute from the run's metrics, then thread settings."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "training_slow",
    Flow(title_key="wizard.flow.training_slow", source=Path(__file__).with_suffix(".yaml")),
    order=80,
)
