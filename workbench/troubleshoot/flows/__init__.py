"""Troubleshooting flows for the wizard: one YAML file per problem in this folder.

An entry is a :class:`Flow`: a problem a user can pick ("import fails", "parallel training hangs"…),
described by a YAML file in this folder (steps that ask the user or run an automatic probe, branching
on the answer; each leaf a finding with cause, evidence and fix). The file's name is the flow's id; the
registry reads each file with :func:`register_flow`, which validates it
(:func:`workbench.troubleshoot.flow.load_flow`: every branch leads somewhere, every probe name exists,
every step has its catalog strings; problems located to ``file:line:col``).

Adding one is one new YAML file here (``order:`` places it in the wizard's list) plus its catalog
strings (``wizard.flow.<id>`` for its title, ``wizard.<id>.<step>`` for its steps).
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
    """The flow's YAML file."""


def register_flow(path: Path, origin: str) -> None:
    """Validate the flow file at ``path`` and register it under its file name on behalf of ``origin``."""
    from workbench.troubleshoot.flow import load_flow  # pydantic and YAML: only when flows are listed

    flow_id = path.stem
    spec = load_flow(flow_id, path)
    FLOWS.register(
        flow_id, Flow(title_key=f"wizard.flow.{flow_id}", source=path), order=spec.order, module=origin
    )


FLOWS: Registry[Flow] = Registry("flow", __name__, data_loader=f"{__name__}:register_flow")
"""Every troubleshooting flow, by id, in the order the wizard lists them (``order:`` in each file)."""

__all__ = ["FLOWS", "Flow", "register_flow"]
