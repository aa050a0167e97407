"""Typed keys are handled one after another, as if typed slowly: keys typed ahead (a burst over SSH, a
paste without bracketed paste) reach what the keys before them opened, in the order typed.

Why they were lost: Textual picks a key's recipient when the app reads it (the focused widget of the
screen showing then, or that screen itself when nothing has focus) and runs non-priority bindings only
when the key has bubbled back up to the app. ``t`` followed by a path in one terminal read is read as
one burst: every key is sent to the run list's table before ``t`` has come back and opened the "train
a config" dialog. Each later key then bubbles through the covered screen and reaches the app with the
dialog on top; the dialog's bindings are checked (so ``ctrl+k`` still acted on its field) but its
field never saw the characters — a field takes text in its own key handler, not through bindings — so
they were dropped. Keys read after a dialog is pushed but before it has mounted its field and focused
it are sent to the dialog screen itself and dropped the same way. Inside one field, a burst was applied
out of order: characters are inserted as they reach the field, while its editing keys (backspace,
``ctrl+a``, ``ctrl+k``) are bindings run only when they are back at the app ("abc", backspace, "d"
gave "abc").

:class:`TypeAheadMixin`, on :class:`~workbench.screens.app.WorkbenchApp`, sends a key or paste on only
when the ones before it have been handled: come back to the app and had their bindings run, or been
used by a widget on the way. It cannot see the second, so it sends a :class:`KeysDrained` marker after
them to the same widget; the marker bubbles back the same way, behind them. Keys also wait while the
showing screen is still being built (until it has mounted and focused its field). A key typed by hand
finds nothing travelling and goes at once. Only a key that some binding names can change what the next
key reaches, so keys wait for such a key only: a burst of characters into a field goes together. It
holds for every modal (our dialogs, Textual's command palette) and every mode switch, with no code in
the screens.
"""

from __future__ import annotations

import weakref
from functools import partial
from itertools import count
from typing import Any, cast

from textual import events
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen

from workbench.screens.textual_private import binding_chain

Typed = events.Key | events.Paste
"""What a user types: keys, and a bracketed paste (one event for the whole pasted text)."""

WAIT_LIMIT_S = 2.0
"""A safety net only: if a marker is lost with a widget that went away, or a screen is closed before
it mounted, the keys waiting go on after this long."""


class KeysDrained(Message):
    """Sent to a widget behind the keys it was sent; it bubbles back to the app the way they do, so when
    it arrives every key before it has come back (or been used)."""

    def __init__(self, token: int) -> None:
        super().__init__()
        self.token = token


class TypeAheadMixin:
    """Mixed into the app (before :class:`textual.app.App`): typed keys are handled one after another."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_for: weakref.WeakKeyDictionary[Typed, tuple[MessagePump, bool]] = (
            weakref.WeakKeyDictionary()
        )
        """For each key still travelling (or used on the way and not yet collected): where it was sent,
        and whether a binding may act on it when it is back."""
        self._held: list[Typed] = []
        """Keys waiting for the keys before them, or for the showing screen to be built, in order."""
        self._held_for: Screen[Any] | None = None
        self._draining: dict[int, MessagePump] = {}
        """Markers still travelling behind keys that were sent, by token."""
        self._tokens = count()

    async def on_event(self, event: events.Event) -> None:
        app = cast(App[Any], self)
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded and app.screen_stack:
            self._held.append(event)  # just read from the terminal
            await self._release()
            return
        if isinstance(event, (events.Key, events.Paste)):
            self._read_for.pop(event, None)  # back up from the widget it was sent to
        await super().on_event(event)  # type: ignore[misc]

    async def _release(self) -> None:
        """Send the waiting keys, one at a time: each once the keys before it have been handled (come
        back to the app and had their bindings run, or been used by a widget) and its screen is up."""
        app = cast(App[Any], self)
        while self._held and app.screen_stack:
            screen = app.screen
            if not screen.is_mounted:
                self._wait_for_mount(screen)
                return
            if any(bound for _, bound in self._read_for.values()):
                self._drain()
                if self._draining:
                    return
            event = self._held.pop(0)
            self._read_for[event] = (app.focused or screen, _may_be_bound(screen, event))
            await super().on_event(event)  # type: ignore[misc]

    def _wait_for_mount(self, screen: Screen[Any]) -> None:
        """Release again once ``screen`` has mounted (its queue reaches a callback only after that)."""
        app = cast(App[Any], self)
        if self._held_for is not screen:
            self._held_for = screen
            if not screen.call_later(app.call_later, self._mounted, screen):  # closing: nothing to wait for
                app.call_later(self._mounted, screen)
            app.set_timer(WAIT_LIMIT_S, partial(self._mounted, screen))

    async def _mounted(self, screen: Screen[Any]) -> None:
        if self._held_for is screen:
            self._held_for = None
        await self._release()

    def _drain(self) -> None:
        """Send a marker after the keys still travelling, along the same widgets."""
        app = cast(App[Any], self)
        waiting = {id(to) for to in self._draining.values()}
        travelling = {id(to): to for to, bound in self._read_for.values() if bound}
        tokens = []
        for key, to in travelling.items():
            if key in waiting:
                continue
            token = next(self._tokens)
            if to.post_message(KeysDrained(token)):
                self._draining[token] = to
                tokens.append(token)
            else:  # closed: what it held will not come back
                self._forget({key})
        if tokens:
            app.set_timer(WAIT_LIMIT_S, partial(self._drained, tokens))

    async def on_keys_drained(self, message: KeysDrained) -> None:
        message.stop()
        await self._drained([message.token])

    async def _drained(self, tokens: list[int]) -> None:
        """Every key sent to these markers' widgets before them has come back, or a widget used it."""
        done = {id(to) for to in (self._draining.pop(token, None) for token in tokens) if to is not None}
        if done:  # not when this is the time-out after its marker came back
            self._forget(done)
            await self._release()

    def _forget(self, sent_to: set[int]) -> None:
        for event, (to, _) in list(self._read_for.items()):
            if id(to) in sent_to:
                del self._read_for[event]


def _may_be_bound(screen: Screen[Any], event: Typed) -> bool:
    """Could a binding act on this key (and so change the screen, the focus or a field's text) once it
    is back at the app? Keys that no binding names are only seen by widgets, in the order sent, so
    several of them can travel at once; a paste is never bound."""
    if isinstance(event, events.Paste):
        return False
    return any(event.key in bindings.key_to_bindings for _, bindings in binding_chain(screen))
