from __future__ import annotations

from pathlib import Path

import pytest

from workbench.screens.app import WorkbenchApp


@pytest.fixture
def make_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The same app factory the CLI uses, with a relative workspace (stable header text) and no Paddle."""
    monkeypatch.chdir(tmp_path)

    def factory(**kwargs: object) -> WorkbenchApp:
        kwargs.setdefault("preload_paddle", False)
        return WorkbenchApp("ws", **kwargs)  # type: ignore[arg-type]

    return factory
