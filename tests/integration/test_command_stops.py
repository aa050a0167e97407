"""Every command stops the same way on SIGINT, SIGTERM and SIGHUP (``workbench.stop_signals``).

Each test runs the real ``paddle-workbench`` console script in a session of its own, stops it while it
works, and checks what the user sees: exit ``128 + signal``, one "stopped by SIG…" line, no click
"Aborted!", no traceback, and nothing of the command left running (psutil). ``compare`` (Paddle imported,
a conversion child running) is stopped the same way in ``test_fragile_children.py``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.integration

CLI = str(Path(sys.executable).with_name("paddle-workbench"))
LINE = b"step 10 loss 0.4213 lr 0.001 a training log line, as a user pipes it into diagnose\n"
HELD_BYTES = 3 * 1024 * 1024
"""More than ``diagnose`` reads at once (1 MiB) plus a pipe's buffer: once the write returns, the
command is inside its read loop, waiting for more."""


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, HOME=str(tmp_path / "home"), PADDLE_WORKBENCH_LANG="en")


def _start_diagnose(tmp_path: Path, **popen: object) -> subprocess.Popen[bytes]:
    """``paddle-workbench diagnose --log -`` reading a log from a pipe that stays open: it works until
    stopped. Returns once the command has read most of what was written (it is mid-read)."""
    proc = subprocess.Popen(
        [CLI, "--workspace", str(tmp_path / "ws"), "diagnose", "--log", "-"],
        stdin=subprocess.PIPE, stdout=(tmp_path / "out.txt").open("wb"),
        stderr=(tmp_path / "err.txt").open("wb"), env=_env(tmp_path), start_new_session=True,
        **popen,  # type: ignore[arg-type]
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(LINE * (HELD_BYTES // len(LINE)))
    proc.stdin.flush()  # returns once the command has read all but a pipe's buffer of it
    return proc


def _session(pid: int) -> list[int]:
    """Processes of the stopped command's session running now (it led the session)."""
    found = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if os.getsid(proc.pid) == pid and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc.pid)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return found


def _left(pid: int, settle_s: float = 10.0) -> list[int]:
    """Processes of the stopped command's session still running once ``settle_s`` has passed or none
    is left: a process the command ended on its way out, or Python's resource tracker (it exits when
    the command's end of its pipe closes), may still be going away when the command's exit is seen."""
    _wait_until(lambda: not _session(pid), settle_s)
    return _session(pid)


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["SIGTERM", "SIGINT", "SIGHUP"]
)
def test_diagnose_reading_stdin_stops_with_128_plus_n_and_one_line(tmp_path: Path, signum: int) -> None:
    """Before: SIGTERM and SIGHUP killed the command by the signal (no line, status -N); Ctrl-C ended with
    click's "Aborted!" and exit 1."""
    proc = _start_diagnose(tmp_path)
    try:
        proc.send_signal(signum)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stdin is not None
        proc.stdin.close()
    err = (tmp_path / "err.txt").read_text(encoding="utf-8")
    name = signal.Signals(signum).name
    assert code == 128 + signum, (code, err[-2000:])
    assert [line for line in err.splitlines() if line.strip()] == [f"stopped by {name}"], err[-2000:]
    assert "Aborted!" not in err and "Traceback" not in err
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == ""
    assert not _left(proc.pid)


def test_a_sighup_ignored_at_start_stays_ignored(tmp_path: Path) -> None:
    """``nohup paddle-workbench …``: the hang-up does not stop the command; it finishes its work."""

    def ignore_hangup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    proc = _start_diagnose(tmp_path, preexec_fn=ignore_hangup)
    try:
        proc.send_signal(signal.SIGHUP)
        assert proc.stdin is not None
        proc.stdin.close()  # the end of the log: the command diagnoses it and ends by itself
        code = proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = (tmp_path / "err.txt").read_text(encoding="utf-8")
    assert code in (0, 1), (code, err[-2000:])
    assert "stopped by" not in err


def _running(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture(scope="module")
def big_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A classification set large enough for ``dataset check`` to decode it in a pool of workers."""
    from workbench.datasets import generate_cls_demo
    from workbench.datasets.imagecheck import POOL_THRESHOLD

    return generate_cls_demo(tmp_path_factory.mktemp("big") / "cls", n_train=POOL_THRESHOLD + 100, n_val=50)


def test_dataset_check_killed_with_sigkill_leaves_no_worker(tmp_path: Path, big_dataset: Path) -> None:
    """SIGKILL runs no handler: the pool's workers must see their parent gone and end by themselves
    (before, each waited on its task queue for ever, adopted by init)."""
    proc = subprocess.Popen(
        [CLI, "--workspace", str(tmp_path / "ws"), "dataset", "check", str(big_dataset), "--full"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tmp_path), start_new_session=True,
    )  # fmt: skip
    workers: list[psutil.Process] = []

    def pool_started() -> bool:
        with contextlib.suppress(psutil.Error):
            workers[:] = [
                child
                for child in psutil.Process(proc.pid).children(recursive=True)
                if "spawn_main" in " ".join(child.cmdline())
            ]
        return bool(workers)

    try:
        assert _wait_until(pool_started, 240), "the pool's workers never started"
        proc.kill()
        proc.wait(60)
        assert _wait_until(lambda: not any(_running(w) for w in workers), 30), [w.pid for w in workers]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for worker in workers:
            with contextlib.suppress(psutil.Error):
                worker.kill()


def test_dataset_check_stopped_while_its_workers_decode_ends_them(tmp_path: Path, big_dataset: Path) -> None:
    """The pool's workers are frozen (SIGSTOP) once they run, so the check cannot finish by itself.
    Before: SIGTERM killed the command by the signal (status -15) and left its workers running."""
    proc = subprocess.Popen(
        [CLI, "--workspace", str(tmp_path / "ws"), "dataset", "check", str(big_dataset), "--workers", "2"],
        stdout=(tmp_path / "out.txt").open("wb"), stderr=(tmp_path / "err.txt").open("wb"),
        env=_env(tmp_path), start_new_session=True,
    )  # fmt: skip
    workers: list[psutil.Process] = []

    def decoding() -> bool:
        found = []
        for child in psutil.Process(proc.pid).children(recursive=True):
            try:
                if "spawn_main" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:
                continue
        workers[:] = found
        return len(found) >= 2

    code = None
    try:
        assert _wait_until(decoding, 240), "the pool's workers never started"
        for worker in workers:
            worker.suspend()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        left = _left(proc.pid)
        left += [w.pid for w in workers if _running(w) and w.pid not in left]
        for pid in left:  # leave nothing for the next test, then fail
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    err = (tmp_path / "err.txt").read_text(encoding="utf-8")
    assert code == 143, (code, err[-2000:])
    assert [line for line in err.splitlines() if line.strip()][-1:] == ["stopped by SIGTERM"], err[-2000:]
    assert "Traceback" not in err and "Aborted!" not in err
    assert not left, f"processes left behind: {left}"


KIT_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "kit_logs" / "paddleocr_train.log"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_attach_following_a_growing_log_stops_with_128_plus_n(tmp_path: Path, signum: int) -> None:
    """The first lines of a PaddleOCR log, just written (a kit still training): ``attach --plain``
    follows it until stopped. Before: SIGTERM killed the command by the signal (status -15, no line);
    Ctrl-C exited 0 as if the log had ended."""
    log = tmp_path / "train.log"
    log.write_text(
        "".join(KIT_LOG.read_text(encoding="utf-8").splitlines(keepends=True)[:14]), encoding="utf-8"
    )
    out = tmp_path / "out.txt"
    proc = subprocess.Popen(
        [CLI, "--workspace", str(tmp_path / "ws"), "--plain", "attach", str(log)],
        stdout=out.open("wb"), stderr=(tmp_path / "err.txt").open("wb"), env=_env(tmp_path),
        start_new_session=True,
    )  # fmt: skip
    try:
        assert _wait_until(lambda: "step 6 " in out.read_text(encoding="utf-8"), 60), out.read_text()
        proc.send_signal(signum)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = (tmp_path / "err.txt").read_text(encoding="utf-8")
    assert code == 128 + signum, (code, err[-2000:])
    assert [line for line in err.splitlines() if line.strip()] == [
        f"stopped by {signal.Signals(signum).name}"
    ]
    assert not _left(proc.pid)
