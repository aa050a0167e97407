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
focused its first field. A key read while keys of an earlier read are still on their way back through
a covered screen is held too: a :class:`KeysDrained` marker is sent after them along the same widgets,
and the held keys go once it is back (on a busy terminal the second half of a paste can otherwise
overtake the first). Keys read before the screen changed come back before it changes, so they stay with
the old screen; keys a widget used on the way are not seen again. It holds for every modal (our
dialogs, Textual's command palette) and every mode switch, with no code in the screens.
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

Typed = events.Key | events.Paste
"""What a user types: keys, and a bracketed paste (one event for the whole pasted text)."""

DRAIN_TIMEOUT_S = 1.0
"""A safety net only: if a widget keys were sent to goes away with them, stop waiting for them."""


class KeysDrained(Message):
    """Sent to a widget of a covered screen behind the keys it still holds; it bubbles back to the app
    the way they do, so when it arrives every key before it has come back (or been used)."""

    def __init__(self, token: int) -> None:
        super().__init__()
        self.token = token


class TypeAheadMixin:
    """Mixed into the app (before :class:`textual.app.App`): typed-ahead keys reach the new screen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_for: weakref.WeakKeyDictionary[Typed, tuple[Screen[Any], MessagePump]] = (
            weakref.WeakKeyDictionary()
        )
        """For each key still travelling: the screen that showed when it was read, and where it went."""
        self._held: list[Typed] = []
        """Keys waiting, in the order typed: the first ``_held_older`` came back from a covered screen."""
        self._held_older = 0
        self._held_for: Screen[Any] | None = None
        self._draining: dict[int, MessagePump] = {}
        """Markers still travelling behind keys sent to a covered screen, by token."""
        self._tokens = count()

    async def on_event(self, event: events.Event) -> None:
        app = cast(App[Any], self)
        if isinstance(event, (events.Key, events.Paste)) and app.screen_stack:
            screen = app.screen
            older = event.is_forwarded
            if older:  # back up from the widget it was sent to
                read = self._read_for.pop(event, None)
                if read is None or read[0] is screen:
                    await super().on_event(event)  # type: ignore[misc]
                    return
                event = _fresh(event)  # typed ahead of this screen: deliver it as if just read
            else:
                self._drain_covered(screen)
            if self._held and not self._draining and (self._held_for is not screen or screen.is_mounted):
                await self._replay()  # its screen has gone, or is up and the replay is still queued
            if self._held or not screen.is_mounted or (self._draining and not older):
                self._hold(event, screen, older=older)
                return
            self._read_for[event] = (screen, app.focused or screen)
        await super().on_event(event)  # type: ignore[misc]

    def _drain_covered(self, screen: Screen[Any]) -> None:
        """Keys read for another screen may still be on their way back: hold new keys behind them."""
        app = cast(App[Any], self)
        covered = app.screen_stack[:-1]  # a screen closed since is not waited for: nothing comes back
        travelling = {id(to): to for shown, to in self._read_for.values() if shown in covered}
        waiting = {id(to) for to in self._draining.values()}
        tokens = []
        for key, to in travelling.items():
            token = next(self._tokens)
            if key not in waiting and to.post_message(KeysDrained(token)):
                self._draining[token] = to
                tokens.append(token)
        if tokens:
            app.set_timer(DRAIN_TIMEOUT_S, partial(self._drain_timed_out, tokens))

    async def on_keys_drained(self, message: KeysDrained) -> None:
        message.stop()
        await self._drained([message.token])

    async def _drain_timed_out(self, tokens: list[int]) -> None:
        await self._drained(tokens)

    async def _drained(self, tokens: list[int]) -> None:
        """Every key sent to these markers' widgets before them has come back, or a widget used it."""
        done = {id(to) for to in (self._draining.pop(token, None) for token in tokens) if to is not None}
        if not done:
            return  # already back (the time-out after its marker)
        for event, (_, sent_to) in list(self._read_for.items()):
            if id(sent_to) in done:
                del self._read_for[event]
        if not self._draining and self._held:
            await self._replay()

    def _hold(self, event: Typed, screen: Screen[Any], *, older: bool) -> None:
        """Keep ``event`` until ``screen`` has mounted (its queue reaches a callback only after that)
        and the keys typed before it have come back from a covered screen."""
        app = cast(App[Any], self)
        if not self._held:
            self._held_for = screen
            if not screen.call_later(app.call_later, self._replay):  # closing: no mount to wait for
                app.call_later(self._replay)
        if older:
            self._held.insert(self._held_older, event)
            self._held_older += 1
        else:
            self._held.append(event)

    async def _replay(self) -> None:
        """Deliver the held keys in the order typed, once nothing they wait for is outstanding."""
        app = cast(App[Any], self)
        if self._draining or (
            app.screen_stack and not app.screen.is_mounted and app.screen is self._held_for
        ):
            return
        held, self._held, self._held_older, self._held_for = self._held, [], 0, None
        for event in held:
            await self.on_event(event)


def _fresh(event: Typed) -> Typed:
    """The same key or paste as a new event, not yet forwarded: the app routes it as it does a read."""
    if isinstance(event, events.Key):
        return events.Key(event.key, event.character)
    return events.Paste(event.text)
