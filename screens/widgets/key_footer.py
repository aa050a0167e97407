"""The key footer: Textual's footer, rebuilt only when the keys it shows changed.

Textual's :class:`~textual.widgets.Footer` rebuilds itself (one widget per key, their styles, a layout
pass of the screen) on every bindings signal, and the signal fires often: on every focus move, every
``refresh_bindings()``, every resize. Opening the chart grid on a live run sent five of them in its first
second; at 17 keys each rebuild cost the UI thread ~70 ms — time taken under the GIL that the training
thread shares (docs/architecture.md, "Budgets"). This footer coalesces the signals of one frame into one
check and rebuilds only when the keys, their labels, their enabled state or the compact style differ
from what is on screen.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widgets import Footer

from workbench.screens.base import WorkbenchScreen
from workbench.screens.textual_private import mark_footer_bindings_ready

if TYPE_CHECKING:
    from textual.screen import Screen

Shown = tuple[bool, bool, tuple[tuple[str, str, str, bool, str, str], ...]]
"""What the footer shows: compact, command-palette key, and per key (key, label, action, enabled,
tooltip, group)."""


class KeyFooter(Footer):
    """A :class:`Footer` that skips rebuilds which would draw the same keys again."""

    class KeysShown(Message):
        """The footer has built its keys for the first time (they draw with the next refresh). It bubbles
        to the app, which starts its heavier background work once the home screen is whole."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: Shown | None = None
        self._check_pending = False
        self._keys_announced = False

    def shown(self) -> Shown:
        """The footer's content as the screen's active bindings describe it now."""
        keys = tuple(
            (
                binding.key,
                binding.description,
                binding.action,
                enabled,
                tooltip,
                binding.group.description if binding.group is not None else "",
            )
            for (_node, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (self.compact, self.show_command_palette, keys)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """One check per frame, however many signals arrived in it (Textual rebuilds on each)."""
        mark_footer_bindings_ready(self)
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if not self._check_pending:
            self._check_pending = True
            if isinstance(screen, WorkbenchScreen):
                # Drawn in the frame after the screen's first: a dozen key widgets (their styles, a layout
                # pass) would otherwise hold that frame back, the app's first at start-up among them.
                screen.after_first_frame(partial(self.call_next, self._rebuild_after_refresh))
            else:
                self._rebuild_after_refresh()

    def _rebuild_after_refresh(self) -> None:
        # Asked as the footer (not as the screen that releases it): its keys bind data to it.
        self.call_after_refresh(self._rebuild_if_changed)

    async def _rebuild_if_changed(self) -> None:
        self._check_pending = False
        if not self.is_attached:
            return
        shown = self.shown()
        if shown == self._shown:
            return
        self._shown = shown
        await self.recompose()
        if not self._keys_announced:
            self._keys_announced = True
            self.post_message(self.KeysShown())
