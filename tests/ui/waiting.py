"""One way for Pilot tests to wait for the app: poll a condition against the wall clock.

A condition that raises (a table row not there yet, a widget not mounted yet) counts as "not
yet", not as a failure: the screens fill in from workers, so the first look can land before
the first row. The limit is generous because CI shares two cores with Paddle runs; a test
that meets its condition returns as soon as it holds, so the limit costs nothing when green.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

NOTIFIED = "_notified_in_tests"
"""Where ``tests/ui/conftest.py`` keeps the notifications an app raised (on the app instance)."""


class Notified(NamedTuple):
    message: str
    title: str


def notified(app: Any) -> list[Notified]:
    """Every notification ``app`` raised, oldest first, expired toasts too (read it instead of Textual's
    ``app._notifications``, which drops a toast after its timeout)."""
    return list(app.__dict__.get(NOTIFIED, []))


async def wait_for(pilot: Any, condition: Callable[[], object], timeout: float = 60.0) -> None:
    """Return once ``condition()`` is truthy; fail with the last error seen after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    last_error: BaseException | None = None
    while True:
        try:
            if condition():
                return
            last_error = None
        except Exception as error:  # the screen is still filling in
            last_error = error
        if time.monotonic() > deadline:
            detail = f" (last error: {last_error!r})" if last_error else ""
            raise AssertionError(f"condition not met in {timeout:.0f} s{detail}")
        await pilot.pause(0.05)
