"""Owner-only writers under a permissive umask (0o022): the report, the serve token's folder and log, the
inference matrix and the helpers they share (issue 18, finding 9). A file the user already had keeps
its mode."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stored_runs import write_stored_run
from workbench.permissions import create_private, loose_modes, open_private, private_dir, write_private


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_helpers_create_owner_only_and_leave_existing_files_alone(tmp_path: Path, loose_umask: None) -> None:
    target = write_private(tmp_path / "a" / "b" / "f.txt", "x")
    assert _mode(target) == 0o600 and _mode(tmp_path / "a") == 0o700 and _mode(tmp_path / "a" / "b") == 0o700
    mine = tmp_path / "mine.txt"
    mine.write_text("user's\n")
    assert _mode(mine) == 0o644
    with open_private(mine, "a") as fh:
        fh.write("more\n")
    assert _mode(mine) == 0o644  # existing: not chmodded
    with pytest.raises(FileExistsError):
        create_private(mine, "never")
    assert mine.read_text() == "user's\nmore\n"
    user_dir = tmp_path / "shared"
    user_dir.mkdir(mode=0o755)
    private_dir(user_dir / "sub")
    assert _mode(user_dir) == 0o755 and _mode(user_dir / "sub") == 0o700
    assert loose_modes(tmp_path / "a") == []


def test_report_and_its_folder_are_owner_only(tmp_path: Path, loose_umask: None) -> None:
    from workbench.troubleshoot.bundle import build_bundle, write_bundle

    ws = tmp_path / "ws"
    run = write_stored_run(ws)
    md, js = write_bundle(build_bundle(run, ws, env="skip"), None, run)
    assert _mode(md) == 0o600 and _mode(js) == 0o600 and _mode(md.parent) == 0o700
    chosen = tmp_path / "out" / "deep" / "r.md"
    md, js = write_bundle(build_bundle(run, ws, env="skip"), chosen, run)
    assert (_mode(md), _mode(js), _mode(chosen.parent)) == (0o600, 0o600, 0o700)


def test_serve_token_folder_and_log_are_owner_only(tmp_path: Path, loose_umask: None) -> None:
    from workbench.serve.auth import load_token, token_path
    from workbench.serve.server import LOG_FILE, access_logger, close_logger

    ws = tmp_path / "ws"
    token, created = load_token(ws, environ={})
    assert created and _mode(token_path(ws)) == 0o600 and _mode(token_path(ws).parent) == 0o700
    log_dir = tmp_path / "run"
    logger = access_logger(log_dir)
    try:
        logger.info("GET /health 200")
    finally:
        close_logger(logger)
    assert _mode(log_dir / LOG_FILE) == 0o600 and _mode(log_dir) == 0o700


def test_serve_token_folder_left_loose_by_an_older_version_is_tightened(
    tmp_path: Path, loose_umask: None
) -> None:
    from workbench.serve.auth import load_token, token_path

    ws = tmp_path / "ws"
    (ws / "serve").mkdir(parents=True, mode=0o755)
    load_token(ws, environ={})
    assert _mode(token_path(ws).parent) == 0o700


def test_matrix_rows_are_owner_only(tmp_path: Path, loose_umask: None) -> None:
    from workbench.inference.matrix import append_rows, matrix_path

    ws = tmp_path / "ws"
    append_rows(ws, [{"hardware": "cpu", "model": "m"}])
    assert _mode(matrix_path(ws)) == 0o600 and _mode(ws) == 0o700
