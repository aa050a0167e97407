"""The base of every workbench screen: typed access to the app, translated key bindings, a footer that
fits the terminal, and worker errors routed to one place.

Bindings are declared with catalog keys as descriptions (``Binding("r", "refresh", "ui.key.refresh")``)
because class-level ``BINDINGS`` are evaluated at import time, before the interface language is known.
They are translated where Textual reads them — :attr:`Screen.active_bindings`, which the footer, the
key panel and our help screen all use — so no Textual internals are rewritten.

``Worker.StateChanged`` does not bubble in Textual, so each screen forwards its workers' failures to
:meth:`WorkbenchApp.report_worker_error` — one handler, one error panel, never an exit.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, cast

from rich.cells import cell_len
from textual import events, on
from textual.app import App
from textual.binding import ActiveBinding, Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker

from workbench.i18n import catalog, t
from workbench.screens.textual_private import updates_held

if TYPE_CHECKING:
    from collections.abc import Callable

    from workbench.screens.app import WorkbenchApp

TEXTUAL_DESCRIPTIONS = {"palette": "ui.key.palette", "Quit": "ui.key.quit"}
"""Descriptions Textual gives its own bindings (``^p palette``, ``ctrl+q``) -> our catalog keys."""

FOOTER_FIRST = ("help", "quit", "app.help", "app.quit")
"""Actions the footer keeps however narrow the terminal is (help lists every other key)."""

COMPACT_BELOW = 120
"""Terminal width (cells) under which the footer drops its padding to fit more keys."""


def translate_description(description: str) -> str | None:
    """The binding description in the interface language, or ``None`` when it is not one of ours."""
    if description in TEXTUAL_DESCRIPTIONS:
        return t(TEXTUAL_DESCRIPTIONS[description])
    if description in catalog():
        return t(description)
    return None


def localized_bindings(bindings: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    """The same bindings with our descriptions (and tooltips) translated; unknown ones are left as is."""
    result: dict[str, ActiveBinding] = {}
    for key, active in bindings.items():
        binding = active.binding
        text = translate_description(binding.description)
        if text is not None:
            binding = dataclasses.replace(binding, description=text, tooltip="")
        result[key] = ActiveBinding(
            active.node, binding, active.enabled, active.tooltip if text is None else ""
        )
    return result


def footer_key_width(app: App[Any], binding: Binding, *, compact: bool) -> int:
    """Cells one key takes in Textual's footer (key, description, padding and margin)."""
    key = cell_len(app.get_key_display(binding))
    description = cell_len(binding.description)
    return key + description + (2 if compact else 3)


def fit_footer(app: App[Any], bindings: dict[str, ActiveBinding], width: int) -> dict[str, ActiveBinding]:
    """Hide footer keys that do not fit in ``width`` cells, keeping help and quit first.

    Keys keep their place; the ones that do not fit are hidden from the footer only (they still work
    and the help screen lists them). The palette key, docked right, is reserved first.
    """
    compact = width < COMPACT_BELOW
    shown = [key for key, active in bindings.items() if active.binding.show]
    budget = width
    palette = bindings.get(app.COMMAND_PALETTE_BINDING)
    if palette is not None:
        budget -= footer_key_width(app, palette.binding, compact=compact) + 1
    ranked = sorted(shown, key=lambda key: bindings[key].binding.action not in FOOTER_FIRST)
    keep: set[str] = set()
    for key in ranked:
        cost = footer_key_width(app, bindings[key].binding, compact=compact)
        if cost <= budget:
            keep.add(key)
            budget -= cost
    result: dict[str, ActiveBinding] = {}
    for key, active in bindings.items():
        if active.binding.show and key not in keep:
            active = ActiveBinding(
                active.node, dataclasses.replace(active.binding, show=False), active.enabled, active.tooltip
            )
        result[key] = active
    return result


def help_rows(screen: Screen[Any]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(key, what)`` rows for the help screen: the screen's own keys, then the app-wide ones.

    Read from the screen's live bindings (the same ones the footer draws from), so help cannot drift from
    what the keys do. Keys bound to one action are joined (``n / escape``); bindings without one of our
    descriptions (Textual's widget internals) and the number keys of the modes (help lists the modes
    in their own table) are left out.
    """
    app = screen.app
    grouped: dict[tuple[bool, str], tuple[list[str], str]] = {}
    for active in Screen.active_bindings.fget(screen).values():  # type: ignore[attr-defined]
        binding: Binding = active.binding
        text = translate_description(binding.description)
        if text is None or binding.action.startswith(("goto(", "app.goto(")):
            continue
        if binding.action in ("command_palette", "app.command_palette"):
            text = t("ui.help.palette")  # the footer's "palette" is terse; help says what it is
        scope = (active.node is app, binding.action)
        keys, _ = grouped.setdefault(scope, ([], text))
        display = app.get_key_display(binding)
        if display not in keys:
            keys.append(display)
    for binding in _declared_bindings(screen):
        # A screen key that the focused widget binds too (enter on the run table) still does the screen's
        # action (the widget passes it on as a message): help lists it, though active_bindings does not.
        text = translate_description(binding.description)
        if (
            text is None
            or (False, binding.action) in grouped
            or binding.action.startswith(("goto(", "app.goto("))
        ):
            continue
        grouped[(False, binding.action)] = ([app.get_key_display(binding)], text)
    screen_rows = [(" / ".join(keys), text) for (is_app, _), (keys, text) in grouped.items() if not is_app]
    app_rows = [(" / ".join(keys), text) for (is_app, _), (keys, text) in grouped.items() if is_app]
    return screen_rows, app_rows


def _declared_bindings(screen: Screen[Any]) -> list[Binding]:
    """The bindings the screen's classes declare (``BINDINGS``), one per key, in declaration order."""
    found: list[Binding] = []
    for cls in type(screen).__mro__:
        for item in vars(cls).get("BINDINGS", []):
            binding = item if isinstance(item, Binding) else Binding(*item)
            found.extend(dataclasses.replace(binding, key=key.strip()) for key in binding.key.split(","))
    return found


class LocalizedBindingsMixin:
    """Shared by full screens and modals: translated :attr:`active_bindings`, fitted to the footer."""

    def all_bindings(self) -> dict[str, ActiveBinding]:
        """Every active binding, translated, none hidden for width (what the help screen lists)."""
        screen = cast(Screen[Any], self)
        return localized_bindings(Screen.active_bindings.fget(screen))  # type: ignore[attr-defined]

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        screen = cast(Screen[Any], self)
        return fit_footer(screen.app, self.all_bindings(), screen.app.size.width)


class WorkbenchScreen(LocalizedBindingsMixin, Screen[None]):
    """A full-screen mode."""

    @property
    def wb(self) -> WorkbenchApp:
        """The app, typed (screens only ever run inside a WorkbenchApp)."""
        return cast("WorkbenchApp", self.app)

    _first_frame_drawn = False
    _waiting_for_first_frame: list[Callable[[], object]] | None = None

    def after_first_frame(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` on this screen's queue once the screen has drawn its first frame (soon, if
        it has): work that can wait a frame, such as the footer's keys, then holds back no first frame,
        the app's at start-up (docs/architecture.md, "Budgets") nor a mode's when it is first shown.

        ``callback`` runs as the screen (Textual's active message pump): a widget whose work must run as
        itself (a compose that binds data to it) passes its own ``call_next`` with that work."""
        if self._first_frame_drawn:
            self.call_next(callback)
            return
        if self._waiting_for_first_frame is None:
            self._waiting_for_first_frame = []
        self._waiting_for_first_frame.append(callback)

    def _compositor_refresh(self) -> None:
        """Draw the screen's changes, unless the app holds its updates (its start-up, the pause after a
        mode switch): Textual would render the whole screen and drop the frame unshown. The compositor
        keeps the regions to draw, so the refresh that follows (the terminal's size at start, the redraw
        when the pause ends) draws all of them at once. The first frame drawn releases what waits for
        it (:meth:`after_first_frame`)."""
        if updates_held(self.app):
            return
        super()._compositor_refresh()
        if not self._first_frame_drawn and self.is_current:
            self._first_frame_drawn = True
            waiting, self._waiting_for_first_frame = self._waiting_for_first_frame or [], None
            for callback in waiting:
                self.call_next(callback)

    @on(events.Resize)
    def _fit_footer(self) -> None:
        """Re-fit the footer to the new width (Textual recomposes it when bindings are refreshed)."""
        for footer in self.query(Footer):
            footer.compact = self.app.size.width < COMPACT_BELOW
        self.refresh_bindings()

    @on(Worker.StateChanged)
    def _forward_worker_failure(self, event: Worker.StateChanged) -> None:
        self.wb.report_worker_error(event)
