"""A script of the user's own under ``python -m paddle.distributed.launch`` calling ``track.log``: one run
with a stream per rank (the layout of runs the workbench launches), not one unrelated run per rank."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workbench.runner.launcher import launcher_job
from workbench.runs import RunStore, read_run

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="Paddle is not installed"),
]

SCRIPT = textwrap.dedent(
    """
    import os
    import sys
    import time
    from workbench import track

    rank = int(os.environ["PADDLE_TRAINER_ID"])
    if rank == 0:
        time.sleep(1.5)  # rank 1 gets to the run folder first: it must still be one run
    for step in range(1, 6):
        track.log(step, loss=1.0 / step + rank)
    if rank == 0:
        track.alert("note", "rank 0 says hello", step=5)
    """
)


def test_both_ranks_of_a_launched_script_land_in_one_run(tmp_path: Path) -> None:
    script = tmp_path / "user_train.py"
    script.write_text(SCRIPT)
    workspace = tmp_path / "ws"
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_WORKSPACE=str(workspace))
    env.pop("PADDLE_WORKBENCH_RUN_DIR", None)
    argv = [
        sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
        "--log_dir", str(tmp_path / "launch-logs"), str(script),
    ]  # fmt: skip
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    logs = "".join(p.read_text() for p in (tmp_path / "launch-logs").glob("workerlog.*"))
    assert result.returncode == 0, (result.stdout[-2000:], logs[-3000:])
    store = RunStore(workspace)
    [run_dir] = store.run_dirs()
    record = read_run(run_dir)
    assert record.summary.status == "finished" and record.summary.kind == "launched"
    assert record.summary.name == "user_train" and not record.summary.damaged
    assert record.metrics.ranks() == [0, 1]
    for rank in (0, 1):
        assert record.metrics.last_step[rank] == 5
        assert record.metrics.latest(rank)["loss"] == pytest.approx(0.2 + rank)
        assert (run_dir / "ranks" / str(rank) / "events.jsonl").exists()
    started = [e for e in record.events if e.TYPE == "run_started"]
    assert len(started) == 1 and getattr(started[0], "ranks", None) == 2
    top = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert [row.get("message") for row in top if row["type"] == "alert_raised"] == ["rank 0 says hello"]


def test_ranks_agree_on_the_run_without_talking() -> None:
    env = {
        "PADDLE_TRAINER_ID": "0",
        "PADDLE_TRAINERS_NUM": "2",
        "PADDLE_MASTER": "127.0.0.1:4000",
        "PADDLE_TRAINER_ENDPOINTS": "127.0.0.1:4001,127.0.0.1:4002",
        "POD_NAME": "abcdef",
    }
    zero = launcher_job(env, parent_pid=os.getpid())
    one = launcher_job({**env, "PADDLE_TRAINER_ID": "1"}, parent_pid=os.getpid())
    other = launcher_job({**env, "POD_NAME": "ghijkl"}, parent_pid=os.getpid())
    assert zero is not None and one is not None and other is not None
    assert zero.run_id("x") == one.run_id("x") and (zero.rank, one.rank, zero.world) == (0, 1, 2)
    assert other.key != zero.key  # another launch
    assert launcher_job({**env, "PADDLE_WORKBENCH_RUN_DIR": "/r"}) is None  # the workbench launched it
    assert launcher_job({}) is None


KILLED_SCRIPT = textwrap.dedent(
    """
    import os
    import time

    import paddle  # its C-level SIGTERM handler would end rank 0 without a final event
    from workbench import track

    rank = int(os.environ["PADDLE_TRAINER_ID"])
    for step in range(1, 100000):
        track.log(step, loss=1.0 / step + rank)
        if step == 3:
            with open(f"pid.{rank}", "w") as fh:
                fh.write(str(os.getpid()))
        time.sleep(0.05)
    """
)


def test_a_launched_script_whose_rank_is_killed_ends_failed_naming_that_rank(tmp_path: Path) -> None:
    """Finding 5: after ``kill -9`` of rank 1 the launcher stopped rank 0 with SIGTERM (Paddle's handler
    killed it without a final event) and the run stayed ``running`` in ``state.json`` for good."""
    import psutil

    script = tmp_path / "user_train.py"
    script.write_text(KILLED_SCRIPT)
    workspace = tmp_path / "ws"
    env = dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_WORKSPACE=str(workspace))
    env.pop("PADDLE_WORKBENCH_RUN_DIR", None)
    argv = [
        sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
        "--log_dir", str(tmp_path / "launch-logs"), str(script),
    ]  # fmt: skip
    launcher = subprocess.Popen(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path
    )
    try:
        deadline = time.monotonic() + 180
        pid_file = tmp_path / "pid.1"  # written by rank 1 after its third step
        pid = ""
        # Both ranks past their third step (rank 0's run is in the workspace): a loaded machine can start
        # rank 0 seconds after rank 1, and killing rank 1 before then leaves no run to judge.
        while time.monotonic() < deadline and launcher.poll() is None and not pid.isdigit():
            ready = pid_file.exists() and (tmp_path / "pid.0").exists()
            pid = pid_file.read_text().strip() if ready else ""
            time.sleep(0.1)
        assert pid.isdigit(), "the ranks never got to their third step"
        os.kill(int(pid), signal.SIGKILL)
        launcher.wait(timeout=120)
        left = [
            p.pid
            for p in psutil.process_iter(["cmdline"])
            if str(script) in " ".join(p.info["cmdline"] or ())
        ]
        assert not left, "a rank outlived the launcher"
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
        for proc in psutil.process_iter(["cmdline"]):  # a failing test leaves no rank behind either
            if str(script) in " ".join(proc.info["cmdline"] or ()):
                with contextlib.suppress(psutil.Error):
                    proc.kill()
    [run_dir] = RunStore(workspace).run_dirs()
    state = json.loads((run_dir / "state.json").read_text())
    assert state["status"] == "failed", state
    last = json.loads((run_dir / "events.jsonl").read_text().splitlines()[-1])
    assert last["type"] == "run_failed" and last["rank"] == 1, last
    assert last["error"].startswith("rank 1: ended without a final event"), last["error"]
