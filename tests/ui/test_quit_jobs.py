"""Quitting the app while a launched job runs: the quit dialog's "stop" (bounded, then the tree is ended)
and "leave running" (the job goes on under a keeper of its own and still gets its final status).

The job is a real subprocess (a small script, no Paddle) started through the runner as ``plan run``'s
launcher is; the 2-rank version of the same paths runs in a real terminal in
tests/integration/test_tui_quit_jobs.py.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.ui.waiting import wait_for
from workbench.runner.launched import LaunchedJob, start_launched
from workbench.runs import RunStore, summarize

SCRIPT = """\
import pathlib, signal, sys, time
from workbench.runner.supervise import supervised


def main():
    if "--stubborn" in sys.argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a job that does not stop when asked
    go = pathlib.Path(sys.argv[1])
    while not go.exists():
        time.sleep(0.05)
    return 0


sys.exit(supervised(main))  # as a rank runs: its supervisor records how it ended
"""


async def _until(condition: Callable[[], bool], timeout: float) -> None:
    """After the app has exited (no pilot): poll ``condition`` until it holds, or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"condition not met in {timeout:.0f} s"
        await asyncio.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _start(app: Any, go: Path, *extra: str) -> LaunchedJob:
    argv = [sys.executable, "-c", SCRIPT, str(go), *extra]

    def factory(store: RunStore) -> LaunchedJob:
        return start_launched(store, "script", argv, system_metrics=False)

    job = app.start_job(factory, open_monitor=False)
    assert isinstance(job, LaunchedJob)
    return job


async def test_leave_running_hands_the_job_to_a_keeper_that_records_how_it_ends(
    make_app: Any, tmp_path: Path
) -> None:
    from workbench.screens.dialogs import QuitScreen

    go = tmp_path / "go"
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = _start(app, go)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        assert app.screen.can_detach
        await pilot.press("d")
        await wait_for(pilot, lambda: not app.is_running)
    assert job.keeper_pid is not None and not job.done
    report = "\n".join(app.stop_reports)
    assert f"paddle-workbench attach {job.run_id}" in report
    keeper, launched = job.keeper_pid, job.proc.pid
    try:
        assert _alive(launched) and _alive(keeper)
        state = json.loads((job.run_dir / "state.json").read_text())
        assert state["pid"] == keeper  # the run's writer now: listed running, not interrupted
        assert summarize(job.run_dir).status == "running"
        go.touch()  # the job ends on its own
        await _until(lambda: summarize(job.run_dir).status != "running", 60)
        assert summarize(job.run_dir).status == "finished"
        await _until(lambda: not _alive(keeper), 30)
    finally:
        go.touch()
        for pid in (keeper, launched):
            if _alive(pid):
                psutil.Process(pid).kill()
    events = [json.loads(line) for line in (job.run_dir / "events.jsonl").read_text().splitlines()]
    assert [e["type"] for e in events if e["type"].startswith("run_")] == ["run_started", "run_finished"]


async def test_stop_ends_a_job_that_does_not_stop_when_asked_after_the_quit_wait(
    make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quitting returns within the quit wait however the job behaves: what has not stopped by then is
    ended whole, and the run still ends ``cancelled``."""
    from workbench.screens import jobs

    monkeypatch.setattr(jobs, "QUIT_WAIT_S", 0.5)
    go = tmp_path / "go"
    app = make_app()
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            job = _start(app, go, "--stubborn")
            await wait_for(pilot, lambda: _alive(job.proc.pid))
            await pilot.press("q", "s")
            await wait_for(pilot, lambda: not app.is_running, timeout=60)
        assert job.done and job.status == "cancelled"
        assert not _alive(job.proc.pid)
        assert any(f"Ended run {job.run_id}" in line for line in app.stop_reports)
    finally:
        go.touch()


async def test_a_left_running_job_is_stopped_by_a_stop_signal_to_its_keeper(
    make_app: Any, tmp_path: Path
) -> None:
    """The keeper (the run's writer in ``state.json``) stops the job on SIGTERM as ``plan run`` does:
    the run ends ``cancelled`` and nothing of it is left."""
    import os
    import signal

    go = tmp_path / "go"
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        job = _start(app, go)
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen.can_detach)
        await pilot.press("d")
        await wait_for(pilot, lambda: not app.is_running)
    keeper, launched = job.keeper_pid, job.proc.pid
    assert keeper is not None
    try:
        await _until(lambda: (job.run_dir / "ranks" / "0" / "supervisor.pid").exists(), 30)
        os.kill(keeper, signal.SIGTERM)
        await _until(lambda: summarize(job.run_dir).status != "running", 60)
        assert summarize(job.run_dir).status == "cancelled"
        await _until(lambda: not _alive(keeper) and not _alive(launched), 30)
    finally:
        go.touch()
