"""``os._exit`` from a job's code becomes a failed run; other threads and forked workers exit for real."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from workbench.runner import start_in_process
from workbench.runner.context import JobContext
from workbench.runner.exit_guard import ExitAttempted, guard_exit
from workbench.runs import RunStore


def test_os_exit_on_the_guarded_thread_raises_and_is_restored_after() -> None:
    real = os._exit
    with guard_exit(), pytest.raises(ExitAttempted) as info:
        os._exit(3)
    assert info.value.code == 3 and os._exit is real


def test_a_process_forked_from_the_guarded_thread_exits_for_real() -> None:
    with guard_exit():
        pid = os.fork()
        if pid == 0:  # the child (a DataLoader worker, say) ends the way multiprocessing ends it
            os._exit(7)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 7


def test_other_threads_are_not_guarded(subprocess_env: dict[str, str]) -> None:
    code = (
        "import os, threading, time\n"
        "from workbench.runner.exit_guard import guard_exit\n"
        "with guard_exit():\n"
        "    threading.Thread(target=lambda: os._exit(5)).start()\n"
        "    time.sleep(30)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], env=subprocess_env, timeout=60)
    assert result.returncode == 5


def test_a_job_calling_os_exit_fails_with_the_step_it_was_on(store: RunStore) -> None:
    def job(ctx: JobContext) -> dict[str, float]:
        ctx.log(1, loss=1.0)
        ctx.step_in_progress = 2
        os._exit(0)

    handle = start_in_process(store, "exits", job)
    assert handle.wait(30)
    assert handle.status == "failed"
    result = handle.result
    assert result is not None and "os._exit(0)" in getattr(result, "error", "")
    assert getattr(result, "step", None) == 2
    assert store.list()[0].status == "failed"
