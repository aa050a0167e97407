from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.waiting import NOTIFIED, Notified
from workbench.screens.app import WorkbenchApp


@pytest.fixture(autouse=True)
def record_notifications(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every notification an app raises (``tests.ui.waiting.notified``): Textual forgets a toast
    once it expires (5 s), and on a loaded machine a test can look later than that."""
    real_notify = WorkbenchApp.notify

    def notify(self: WorkbenchApp, message: Any, *args: Any, **kwargs: Any) -> None:
        title = kwargs.get("title", args[0] if args else "")
        self.__dict__.setdefault(NOTIFIED, []).append(Notified(str(message), str(title)))
        real_notify(self, message, *args, **kwargs)

    monkeypatch.setattr(WorkbenchApp, "notify", notify)


@pytest.fixture
def make_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The same app factory the CLI uses, with a relative workspace (stable header text) and no Paddle."""
    monkeypatch.chdir(tmp_path)

    def factory(**kwargs: object) -> WorkbenchApp:
        kwargs.setdefault("preload_paddle", False)
        return WorkbenchApp("ws", **kwargs)  # type: ignore[arg-type]

    return factory
