"""Flow: `import paddle` fails: the interpreter first, then the import itself, then the platform."""

from pathlib import Path

from workbench.troubleshoot.flows import FLOWS, Flow

FLOWS.register(
    "import_fails",
    Flow(title_key="wizard.flow.import_fails", source=Path(__file__).with_suffix(".yaml")),
    order=10,
)
