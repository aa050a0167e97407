"""workbench.isolate: a fragile child ends whole — on its own end, a time-out, a cancel, its parent's death.

Real processes (``python -c``), no Paddle. A "grandchild" is what a build's multiprocessing pool is: a
process the child started, holding the child's output pipe.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable

import psutil
import pytest

from workbench.isolate import MARKER, ChildCancelled, ChildTimeout, run_command, run_python

# Starts a grandchild that sleeps holding our stdout and stderr, prints its pid, then does `{then}`.
GRANDPARENT = """
import subprocess, sys, time
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
print(grandchild.pid, flush=True)
{then}
"""


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def test_a_child_that_exits_leaving_a_worker_on_its_pipe_returns_and_the_worker_is_ended() -> None:
    """Before: the caller read the pipe until the worker closed it (finding 3's TUI that never quit)."""
    code, out, _ = run_command([sys.executable, "-c", GRANDPARENT.format(then="")], timeout_s=60)
    pid = int(out.split()[0])
    try:
        assert code == 0
        assert _wait_until(lambda: _gone(pid)), "the child's worker outlived it"
    finally:
        _kill(pid)


def test_a_timeout_kills_the_child_and_its_workers() -> None:
    seen: list[str] = []
    with pytest.raises(ChildTimeout) as caught:
        run_command(
            [sys.executable, "-c", GRANDPARENT.format(then="time.sleep(120)")],
            timeout_s=3,
            on_line=seen.append,
        )
    pid = int(seen[0])
    try:
        assert _wait_until(lambda: _gone(pid))
        assert caught.value.seconds == 3
    finally:
        _kill(pid)


def test_a_cancel_kills_the_child_and_its_workers() -> None:
    cancel = threading.Event()
    seen: list[str] = []

    def on_line(line: str) -> None:
        seen.append(line)
        cancel.set()  # the caller gives up as soon as the child is under way

    with pytest.raises(ChildCancelled):
        run_command(
            [sys.executable, "-c", GRANDPARENT.format(then="time.sleep(120)")],
            timeout_s=60,
            cancel=cancel,
            on_line=on_line,
        )
    pid = int(seen[0])
    try:
        assert _wait_until(lambda: _gone(pid))
    finally:
        _kill(pid)


def test_a_crash_is_an_error_naming_the_signal_with_the_last_output() -> None:
    from workbench.isolate import ChildError

    code = "import os, sys; print('about to abort', file=sys.stderr, flush=True); os.abort()"
    with pytest.raises(ChildError) as caught:
        run_python(code, python=sys.executable, env=dict(os.environ), timeout_s=60)
    assert caught.value.returncode == -signal.SIGABRT
    assert "SIGABRT" in str(caught.value) and "about to abort" in str(caught.value)


def test_the_marked_document_is_returned() -> None:
    code = f"import json; print('noise'); print({MARKER!r} + json.dumps({{'answer': 42}}))"
    assert run_python(code, python=sys.executable, env=dict(os.environ), timeout_s=60) == {"answer": 42}


def test_a_child_whose_parent_is_killed_ends_with_its_workers() -> None:
    """The caller died without cleaning up (SIGKILL): ``watch_parent`` in the child ends its group."""
    child_code = GRANDPARENT.format(
        then="from workbench.isolate import watch_parent\nwatch_parent(0.05)\ntime.sleep(120)"
    )
    caller = textwrap.dedent(
        f"""
        import sys, time
        from workbench.isolate import Child
        child = Child([sys.executable, "-c", {child_code!r}], on_line=lambda line: print(line, flush=True))
        print(child.pid, flush=True)
        time.sleep(120)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", caller], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    child_pid = int(proc.stdout.readline())
    grandchild_pid = int(proc.stdout.readline())
    try:
        proc.kill()
        proc.wait()
        assert _wait_until(lambda: _gone(child_pid) and _gone(grandchild_pid)), (
            "left behind by a killed caller"
        )
    finally:
        _kill(child_pid)
        _kill(grandchild_pid)
