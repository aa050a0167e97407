"""The modes of the workbench (its top-level screens), one self-registering module per mode.

Each module of this folder registers one :class:`ModeSpec` in :data:`MODES` when it is imported, with an
``order`` (smaller first; the n-th mode is reached with the number key n); the
app, its number keys (1…9), the help screen and the command palette are all built from the registry, so
adding a screen is one new file here plus its catalog strings::

    # screens/modes/compare.py
    from workbench.screens.modes import MODES, ModeSpec

    MODES.register(
        "compare",
        ModeSpec(factory="workbench.screens.compare:CompareScreen", title="mode.compare",
                 help="mode.compare.what"),
        order=50,
    )

The screen class itself is named by ``"module:Class"`` and imported only when its mode is first shown,
so start-up only pays for the screen it opens (registering a mode imports nothing but this package).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from textual.screen import Screen

from workbench.registry import Registry


@dataclass(frozen=True)
class ModeSpec:
    """One mode: where it sits, what it is called, how to build its screen, what help says about it."""

    factory: str
    """``"package.module:ScreenClass"``, imported lazily the first time the mode is shown."""
    title: str
    """Catalog key of the mode's name (``mode.runs``)."""
    help: str
    """Catalog key of the one-line description shown in help and the palette (``mode.runs.what``)."""

    def screen_factory(self) -> Callable[[], Screen[object]]:
        """A zero-argument callable that imports the screen class and builds one (what Textual wants)."""
        module_name, _, class_name = self.factory.partition(":")

        def build() -> Screen[object]:
            screen_class = getattr(importlib.import_module(module_name), class_name)
            screen: Screen[object] = screen_class()
            return screen

        return build


MODES: Registry[ModeSpec] = Registry("screen", __name__)
"""Every mode, filled by the modules of this folder."""


def ordered_modes() -> list[tuple[str, ModeSpec]]:
    """``(name, spec)`` for every registered mode, in key order (the first is reached with ``1``)."""
    return MODES.items()
