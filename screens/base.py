"""The base of every workbench screen: typed access to the app and worker errors routed to one place.

``Worker.StateChanged`` does not bubble in Textual, so each screen forwards its workers' failures to
:meth:`WorkbenchApp.report_worker_error` — one handler, one error panel, never an exit.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, cast

from textual import on
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import Worker

from workbench.i18n import catalog, t

if TYPE_CHECKING:
    from workbench.screens.app import WorkbenchApp


def localize_bindings(node: DOMNode) -> None:
    """Translate binding descriptions given as catalog keys, per instance and at run time.

    Class-level ``BINDINGS`` are evaluated at import time; translating them there would freeze
    whatever language was active when the module happened to be imported.
    """
    known = catalog()
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=t(b.description)) if b.description in known else b
            for b in bindings
        ]


class WorkbenchScreen(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        localize_bindings(self)

    @property
    def wb(self) -> WorkbenchApp:
        """The app, typed (screens only ever run inside a WorkbenchApp)."""
        return cast("WorkbenchApp", self.app)

    @on(Worker.StateChanged)
    def _forward_worker_failure(self, event: Worker.StateChanged) -> None:
        report = getattr(self.app, "report_worker_error", None)
        if callable(report):
            report(event)
        elif event.worker.error is not None:  # hosted by another app (a test harness): still visible
            self.notify(f"{type(event.worker.error).__name__}: {event.worker.error}", severity="error")
