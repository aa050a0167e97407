"""Troubleshooting flows for the wizard: one module per problem in this folder.

An entry is a :class:`Flow`: a problem a user can pick ("import fails", "parallel training hangs"…),
described by a YAML file in the package (steps that ask the user or run an automatic probe, branching
on the answer; each leaf a finding with cause, evidence and fix). The module registers where that file
is; the flow model that validates it (every branch leads somewhere, every probe name exists) belongs to
the troubleshooting feature, and a test validates every registered flow.

Adding one is one new module here, its YAML file and its catalog strings::

    # workbench/troubleshoot/flows/import_fails.py
    from pathlib import Path

    from workbench.troubleshoot.flows import FLOWS, Flow

    FLOWS.register(
        "import_fails",
        Flow(title_key="wizard.flow.import_fails", source=Path(__file__).with_suffix(".yaml")),
    )
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from workbench.registry import Registry


@dataclass(frozen=True)
class Flow:
    """One guided troubleshooting walk, defined in a YAML file shipped in the package."""

    title_key: str
    """Catalog key of the problem as the user would name it (the wizard's list shows these)."""
    source: Path
    """The flow's YAML file (next to the registering module)."""


FLOWS: Registry[Flow] = Registry("flow", __name__)
"""Every troubleshooting flow, by id, in the order the wizard lists them (``order=`` when registering)."""

__all__ = ["FLOWS", "Flow"]
