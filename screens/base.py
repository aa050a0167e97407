"""The base of every workbench screen: typed access to the app and worker errors routed to one place.

``Worker.StateChanged`` does not bubble in Textual, so each screen forwards its workers' failures to
:meth:`WorkbenchApp.report_worker_error` — one handler, one error panel, never an exit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import on
from textual.screen import Screen
from textual.worker import Worker

if TYPE_CHECKING:
    from workbench.screens.app import WorkbenchApp


class WorkbenchScreen(Screen[None]):
    @property
    def wb(self) -> WorkbenchApp:
        """The app, typed (screens only ever run inside a WorkbenchApp)."""
        return cast("WorkbenchApp", self.app)

    @on(Worker.StateChanged)
    def _forward_worker_failure(self, event: Worker.StateChanged) -> None:
        self.wb.report_worker_error(event)
