"""``paddle-workbench web`` without a browser: bad input refused before anything is served (exit 2, every
problem said at once with its fix, no traceback), and a tab's process on its own. (The browser flows are
in test_web.py.)"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.train_helpers import cli_env, run_cli

pytestmark = pytest.mark.integration


def test_a_remote_host_and_an_unsafe_token_file_are_both_refused(tmp_path: Path) -> None:
    token = tmp_path / "ws" / "web" / "token"
    token.parent.mkdir(parents=True, mode=0o700)
    token.write_text("x" * 43 + "\n", encoding="utf-8")
    os.chmod(token, 0o644)
    result = run_cli(tmp_path, ["web", "--host", "0.0.0.0", "--port", "0"])
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    assert "--host 0.0.0.0" in out and "--allow-remote" in out and "ssh -L" in out
    assert f"chmod 600 {token}" in out
    assert "Traceback" not in out


def test_a_port_in_use_is_refused_and_a_new_token_is_private(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = run_cli(tmp_path, ["web", "--port", str(port)])
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    assert f"127.0.0.1:{port}" in out and "--port" in out and "Traceback" not in out
    token = tmp_path / "ws" / "web" / "token"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert stat.S_IMODE(token.parent.stat().st_mode) == 0o700


def test_a_tab_process_whose_server_is_gone_ends(tmp_path: Path) -> None:
    """The tab's entry on its own, as textual-serve starts it: it answers with the web driver's prelude on
    stdout; when its stdin ends (the server killed outright, no ``quit`` sent) the process ends by itself
    instead of staying behind."""
    env = cli_env(tmp_path, {"COLUMNS": "120", "ROWS": "40"})
    entry = [sys.executable, "-m", "workbench.screens.web_entry", "--workspace", str(tmp_path / "ws")]
    tab = subprocess.Popen(
        entry, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        assert tab.stdout is not None and tab.stdin is not None
        assert tab.stdout.readline() == b"__GANGLION__\n"  # the app is up, drawing through the driver
        tab.stdin.close()
        tab.wait(timeout=60)
        assert tab.returncode == 0, tab.stderr.read() if tab.stderr else ""
    finally:
        if tab.poll() is None:
            tab.kill()
            tab.wait()
