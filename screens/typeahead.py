"""Keys typed ahead of a screen change go, in the order typed, to the screen that shows once the keys
before them are handled — the dialog a key just opened, not the screen it covered.

Why they were lost: Textual picks a key's recipient when the app reads it (the focused widget of the
screen showing then, or that screen itself when nothing has focus) and runs non-priority bindings only
when the key has bubbled back up to the app. ``t`` followed by a path in one terminal read is read as
one burst: every key is sent to the run list's table before ``t`` has come back and opened the "train
a config" dialog. Each later key then bubbles through the covered screen and reaches the app with the
dialog on top; the dialog's bindings are checked (so ``ctrl+k`` still acted on its field) but its
field never saw the characters — a field takes text in its own key handler, not through bindings — so
they were dropped. Keys read after a dialog is pushed but before it has mounted its field and focused
it are sent to the dialog screen itself and dropped the same way.

:class:`TypeAheadMixin`, on :class:`~workbench.screens.app.WorkbenchApp`, notes the screen showing
when each key or paste is read. When one comes back up to the app and another screen shows now, it is
delivered again as if just read (priority bindings, then the focused widget). Keys read while the
showing screen is still being built are held, with every key after them, until it has mounted and
focused its first field, then delivered in order. Keys read before the screen changed come back before
it changes, so they stay with the old screen; keys a widget used on the way are not seen again. It
holds for every modal (our dialogs, Textual's command palette) and every mode switch, with no code in
the screens.
"""

from __future__ import annotations

import weakref
from typing import Any, cast

from textual import events
from textual.app import App
from textual.screen import Screen

Typed = events.Key | events.Paste
"""What a user types: keys, and a bracketed paste (one event for the whole pasted text)."""


class TypeAheadMixin:
    """Mixed into the app (before :class:`textual.app.App`): typed-ahead keys reach the new screen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_for: weakref.WeakKeyDictionary[Typed, Screen[Any]] = weakref.WeakKeyDictionary()
        """The screen that showed when each key still travelling was read."""
        self._held: list[Typed] = []
        """Keys typed while the showing screen was being built, and every key after them, in order."""
        self._held_for: Screen[Any] | None = None

    async def on_event(self, event: events.Event) -> None:
        app = cast(App[Any], self)
        if isinstance(event, (events.Key, events.Paste)) and app.screen_stack:
            screen = app.screen
            if event.is_forwarded:  # back up from the widget it was sent to
                if self._read_for.pop(event, screen) is screen:
                    await super().on_event(event)  # type: ignore[misc]
                    return
                event = _fresh(event)  # typed ahead of this screen: deliver it as if just read
            if self._held and (self._held_for is not screen or screen.is_mounted):
                await self._replay()  # its screen has gone, or is up and the replay is still queued
            if self._held or not screen.is_mounted:
                self._hold(event, screen)
                return
            self._read_for[event] = screen
        await super().on_event(event)  # type: ignore[misc]

    def _hold(self, event: Typed, screen: Screen[Any]) -> None:
        """Keep ``event`` until ``screen`` has mounted (its queue reaches a callback only after that)."""
        app = cast(App[Any], self)
        if not self._held:
            self._held_for = screen
            if not screen.call_later(app.call_later, self._replay):  # closing: no mount to wait for
                app.call_later(self._replay)
        self._held.append(event)

    async def _replay(self) -> None:
        """Deliver the held keys in the order typed."""
        held, self._held, self._held_for = self._held, [], None
        for event in held:
            await self.on_event(event)


def _fresh(event: Typed) -> Typed:
    """The same key or paste as a new event, not yet forwarded: the app routes it as it does a read."""
    if isinstance(event, events.Key):
        return events.Key(event.key, event.character)
    return events.Paste(event.text)
