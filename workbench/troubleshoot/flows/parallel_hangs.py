"""Flow: Parallel training hangs or times out: processes vs devices, the rendezvous port, then the first failing rank."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "parallel_hangs",
    Flow(title_key="wizard.flow.parallel_hangs", source=Path(__file__).with_suffix(".yaml")),
    order=20,
)
