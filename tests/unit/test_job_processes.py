"""A job's processes are found and ended whole (real processes), and a rank death is named right."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil
import pytest

from workbench.events import RunFailed
from workbench.runner.deaths import RankEnd, explain, gather
from workbench.runner.tree import JobProcesses

# A "launcher" that starts a "rank" in a session of its own (as paddle.distributed.launch does with
# setsid), prints the rank's pid, and waits.
LAUNCHER = textwrap.dedent(
    """
    import subprocess, sys, time
    rank = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    print(rank.pid, flush=True)
    time.sleep(600)
    """
)


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_a_stopped_rank_in_its_own_session_is_ended_after_its_launcher_was_killed(tmp_path: Path) -> None:
    launcher = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert launcher.stdout is not None
        rank = int(launcher.stdout.readline())
        job = JobProcesses(launcher.pid, tmp_path)
        job.refresh()  # captured while it is the launcher's child
        assert rank in job.pids()
        os.kill(rank, signal.SIGSTOP)  # state T: deaf to SIGTERM until continued
        os.killpg(launcher.pid, signal.SIGKILL)  # the launcher's group does not include the rank
        launcher.wait()
        assert not _gone(rank)  # left to init, as the launcher leaves it
        killed = job.end(2.0)
        assert _gone(rank), "the stopped rank outlived the job"
        assert killed == [] or rank in killed
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(launcher.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, UnboundLocalError):
            os.kill(rank, signal.SIGKILL)


def test_a_process_that_left_the_tree_is_found_by_its_run_folder(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    env = dict(os.environ, PADDLE_WORKBENCH_RUN_DIR=str(run_dir.resolve()))
    stray = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"], env=env, start_new_session=True
    )
    try:
        root = subprocess.Popen([sys.executable, "-c", "pass"])
        root.wait()
        JobProcesses(root.pid, run_dir).end(2.0)
        assert stray.wait(10) is not None
    finally:
        if stray.poll() is None:
            stray.kill()
            stray.wait()


def test_end_descendants_ends_the_helpers_a_process_started() -> None:
    """What ``train`` does as it exits (run in a child: here it would end pytest's own helpers)."""
    code = textwrap.dedent(
        """
        import subprocess, sys
        from workbench.runner.tree import current_children, end_descendants
        sleep = [sys.executable, "-c", "import time; time.sleep(600)"]
        older = subprocess.Popen(sleep, stdout=subprocess.DEVNULL)
        before = current_children()
        helper = subprocess.Popen(sleep, stdout=subprocess.DEVNULL)
        print(helper.pid, older.pid, flush=True)
        end_descendants(before, 2.0)
        print("older alive" if older.poll() is None else "older ended", flush=True)
        older.kill()
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    pids = [int(pid) for pid in proc.stdout.readline().split()]
    try:
        verdict = proc.stdout.readline().strip()
        assert proc.wait(60) == 0
        assert _gone(pids[0])  # started while the "job" ran: ended with it
        assert verdict == "older alive"  # started before: not the job's
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_stopped_command_with_a_pool_exits_without_resource_tracker_tracebacks(tmp_path: Path) -> None:
    """``dataset check`` stopped while its pool ran: the pool's workers end, then every child the
    command still has. Killing Python's resource tracker there made the exit print a ``KeyError``
    traceback per semaphore after "stopped by SIGTERM"; it ends by itself when the command exits."""
    script = tmp_path / "stopped.py"
    script.write_text(
        textwrap.dedent(
            """
            import multiprocessing as mp
            from workbench.runner.tree import end_descendants

            if __name__ == "__main__":
                ctx = mp.get_context("spawn")
                lock = ctx.Lock()
                with ctx.Pool(1) as pool:
                    pool.apply(abs, (-1,))
                end_descendants(set(), grace_s=2.0)
                print("stopped by SIGTERM", flush=True)
            """
        )
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "stopped by SIGTERM", done.stderr
    assert "Traceback" not in done.stderr and "resource_tracker" not in done.stderr, done.stderr


def test_the_rank_that_died_first_is_named_and_the_broken_connection_is_a_consequence(
    tmp_path: Path,
) -> None:
    ranks = tmp_path / "ranks"
    (ranks / "1").mkdir(parents=True)
    (ranks / "log").mkdir()
    (ranks / "1" / "exit.json").write_text(json.dumps({"returncode": -9, "signal": "SIGKILL", "time": 100.0}))
    (ranks / "log" / "workerlog.1").write_text("step 3 done\nstep 4 forward\n")
    (ranks / "log" / "workerlog.0").write_text("Connection reset by peer\n")
    gloo = RunFailed(
        error="RuntimeError: [gloo] Connection reset by peer", traceback="...", rank=0, time=101.0
    )
    launcher_log = "Container rank 0 status failed cmd ['python'] code -6 log workerlog.0"
    explained = explain(gather(tmp_path, 2, [gloo], launcher_log))
    assert explained is not None and explained.rank == 1
    assert explained.error.startswith("rank 1: killed by SIGKILL (killed)")
    assert "rank(s) 0 then failed as a consequence, not a cause" in explained.error
    assert "step 4 forward" in explained.details  # its last log lines are kept in the run


@pytest.mark.parametrize(
    ("ends", "rank"),
    [
        ({0: RankEnd(0, returncode=1, when=5.0), 1: RankEnd(1, returncode=0)}, 0),
        ({0: RankEnd(0, returncode=-15, when=1.0), 1: RankEnd(1, returncode=-11, when=2.0)}, 1),
        ({0: RankEnd(0, returncode=130), 1: RankEnd(1, returncode=0)}, None),
    ],
    ids=["exit-code", "sigterm-from-the-launcher-is-a-consequence", "cancelled-is-no-failure"],
)
def test_explain_picks_the_cause(ends: dict[int, RankEnd], rank: int | None) -> None:
    explained = explain(ends)
    assert (explained.rank if explained else None) == rank
