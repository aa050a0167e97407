"""Checklist layers: one module per layer of the release checklist, each registering itself in :data:`LAYERS`.

A layer is a function ``(Context) -> list[Item]`` that reads evidence already in the workspace (runs,
reports, the matrix) and says, per item, pass / fail / not run — with the command that produces missing
evidence. The order is the path a project walks (environment → training → parallel → inference →
hardware → dataset → engineering). Adding a layer is one new module here plus its catalog strings.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.registry import Registry
from workbench.verify.model import Context, Item

Layer = Callable[[Context], list[Item]]

LAYERS: Registry[Layer] = Registry("verify layer", __name__)
"""Every checklist layer by name, in checklist order."""

__all__ = ["LAYERS", "Layer"]
