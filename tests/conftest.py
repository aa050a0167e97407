"""Shared fixtures: every test gets its own workspace and never touches the repository or ~/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.i18n import set_language
from workbench.runs import RunStore


@pytest.fixture(autouse=True)
def _english_and_isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """English by default; workspace and settings variables cleared, no user config file; Paddle's
    caches and logs land in tmp."""
    monkeypatch.delenv("PADDLE_WORKBENCH_WORKSPACE", raising=False)
    monkeypatch.delenv("PADDLE_WORKBENCH_RUN_DIR", raising=False)
    for name in ("THEME", "LOW_BANDWIDTH", "PLAIN", "NO_COLOR"):
        monkeypatch.delenv(f"PADDLE_WORKBENCH_{name}", raising=False)
    # The user's own settings file never leaks into a test (nor into the processes tests start).
    monkeypatch.setenv("PADDLE_WORKBENCH_CONFIG", str(tmp_path_factory.mktemp("user") / "config.yaml"))
    monkeypatch.setenv("PADDLE_WORKBENCH_LANG", "en")
    monkeypatch.setenv("GLOG_minloglevel", "2")
    # Paddle writes ~/.cache/paddle on import (and jit.save, run_check): tests, and every subprocess
    # they start, get a HOME of their own so nothing is left behind in the real one.
    # (Outside tmp_path, which some tests list.)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    set_language("en")


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "ws")


@pytest.fixture
def subprocess_env(tmp_path: Path) -> dict[str, str]:
    """Environment for child processes: HOME in tmp so Paddle's ~/.cache writes stay in the test."""
    env = dict(os.environ)
    env["HOME"] = str(tmp_path / "home")
    env["PADDLE_WORKBENCH_LANG"] = "en"
    env["GLOG_minloglevel"] = "2"
    return env
