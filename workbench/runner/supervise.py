"""The rank side of a launched job's life: how a rank ends is recorded, and how it is asked to stop.

**Supervisor.** ``paddle.distributed.launch`` sees a rank only as the exit code of the process it
started, and reports the *first* failed rank in rank order — after ``kill -9`` of rank 1, rank 0 dies of
the broken connection and the launcher blames rank 0. :func:`supervised` forks before Paddle is imported:
the parent (a small process that imports no Paddle) waits for the training process and writes how it
ended to ``ranks/<r>/exit.json`` (``returncode``, ``signal``, ``time``), which the runner reads to name
the rank that died first and how. The training process dies with its supervisor (``PR_SET_PDEATHSIG``),
so a launcher that kills the supervisor ends the rank too. The supervisor also watches the workbench
process that owns the job (``$PADDLE_WORKBENCH_OWNER``: its pid and start time): when the owner is gone
(killed with SIGKILL, so it could not end its job), every rank is asked to stop after the same step
(:func:`stop_every_rank`) and this rank is killed :data:`OWNER_GONE_GRACE_S` later if it has not ended
— a job does not outlive the process that started it. An owner that
hands the job over (the TUI's "leave them running and quit") first writes the new owner's token into
``ranks/owner`` (:func:`write_owner`); the supervisor reads that file on each poll, so the ranks follow
the new owner instead of stopping when the old one exits. A rank that stopped because it was asked to
(exit 130) exits 0 to the launcher, so the launcher waits for its peers to save their checkpoints
instead of killing them three seconds later as it does after a failure.

**Stopping a rank.** A rank stops after a step in two ways: a stop signal (SIGTERM, SIGINT, SIGHUP: from
the launcher when a peer died, or from a user) stops it at its next step boundary; or the runner writes
``ranks/stop`` with the step every rank stops after (:func:`write_stop_step`), which every rank reads
between steps (one ``stat`` a step), so that all ranks save their checkpoints at the same step and none
is left waiting in a collective for a peer that already stopped.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from workbench.stop_signals import STOP_SIGNALS

RUN_DIR_ENV = "PADDLE_WORKBENCH_RUN_DIR"
OWNER_ENV = "PADDLE_WORKBENCH_OWNER"
"""``<pid>:<start time>`` of the workbench process that launched the job."""
OWNER_POLL_S = 1.0
OWNER_GONE_GRACE_S = 30.0
EXIT_FILE = "exit.json"
STOP_FILE = "stop"
SUPERVISOR_PID_FILE = "supervisor.pid"
OWNER_FILE = "owner"
"""``ranks/owner``: the token of the process that owns the job now, when it was handed over."""
CANCELLED_CODE = 130
_PR_SET_PDEATHSIG = 1


def _rank() -> int:
    for var in ("PADDLE_TRAINER_ID", "PADDLE_RANK", "RANK"):
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return 0


def signal_name(code: int) -> str | None:
    """``-9`` → ``"SIGKILL"``; ``None`` for an exit code."""
    if code >= 0:
        return None
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}-0")
    with contextlib.suppress(OSError):
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        os.replace(tmp, path)


def _die_with_parent(parent: int) -> None:
    """Ask the kernel to SIGKILL this process when its parent (the supervisor) dies."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(1)


def supervised(main: Callable[[], int]) -> int:
    """Run ``main`` in a child process and record how it ended (see the module docstring).

    Returns ``main``'s exit code in the child, the code for the launcher in the supervisor. Without
    ``$PADDLE_WORKBENCH_RUN_DIR`` (or ``fork``) it just runs ``main``.
    """
    run_dir = os.environ.get(RUN_DIR_ENV)
    if not run_dir or not hasattr(os, "fork"):
        return main()
    folder = Path(run_dir) / "ranks" / str(_rank())
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    parent = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    child = os.fork()
    if child == 0:
        _die_with_parent(parent)
        return main()
    with contextlib.suppress(OSError):
        (folder / SUPERVISOR_PID_FILE).write_text(str(parent), encoding="utf-8")

    def forward(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signum)

    for signum in STOP_SIGNALS:
        signal.signal(signum, forward)
    owner = os.environ.get(OWNER_ENV, "")
    if owner:
        handed = Path(run_dir) / "ranks" / OWNER_FILE
        threading.Thread(
            target=_watch_owner, args=(owner, child, handed), name="owner-watch", daemon=True
        ).start()
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    _write_json(
        folder / EXIT_FILE,
        {"rank": _rank(), "pid": child, "returncode": code, "signal": signal_name(code), "time": time.time()},
    )
    if code == CANCELLED_CODE:
        return 0  # stopped on request: let the launcher wait for the other ranks
    return 128 - code if code < 0 else code


def owner_token(pid: int) -> str:
    """The value of :data:`OWNER_ENV` for process ``pid`` (empty when it cannot be read)."""
    try:
        import psutil

        return f"{pid}:{psutil.Process(pid).create_time():.2f}"
    except Exception:  # noqa: BLE001 - no owner watch rather than no job
        return ""


def _owner_alive(token: str) -> bool:
    import psutil

    pid_text, _, started = token.partition(":")
    try:
        return f"{psutil.Process(int(pid_text)).create_time():.2f}" == started
    except (psutil.Error, ValueError):
        return False


def _current_owner(token: str, handed: Path) -> str:
    """The job's owner now: the token in ``ranks/owner`` when the job was handed over, else ``token``."""
    try:
        return handed.read_text(encoding="utf-8").strip() or token
    except OSError:
        return token


def write_owner(run_dir: Path, token: str) -> None:
    """Hand the job to the process of ``token`` (:func:`owner_token`): its ranks stop when *that* process
    is gone, not when the one that started them exits. Written before the old owner exits."""
    path = Path(run_dir) / "ranks" / OWNER_FILE
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token)
    os.replace(tmp, path)


def _watch_owner(token: str, child: int, handed: Path) -> None:
    """Stop the job once its owner is gone — the owner named in ``handed`` when the job was handed over
    (read each poll): every rank is asked to stop after the same step (:func:`stop_every_rank`), and
    this rank is killed if it has not ended a grace period later (a rank stuck in a collective)."""
    while _owner_alive(_current_owner(token, handed)):
        time.sleep(OWNER_POLL_S)
    stop_every_rank(handed.parent.parent)
    time.sleep(OWNER_GONE_GRACE_S)
    with contextlib.suppress(ProcessLookupError):
        os.kill(child, signal.SIGKILL)


def read_exit(rank_dir: Path) -> dict[str, Any] | None:
    """The supervisor's record of how the rank in ``rank_dir`` ended, if it wrote one."""
    try:
        doc = json.loads((rank_dir / EXIT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("returncode"), int) else None


def write_stop_step(run_dir: Path, step: int) -> None:
    """Tell every rank of the run to stop after ``step`` (see the module docstring)."""
    _write_json(run_dir / "ranks" / STOP_FILE, {"step": int(step), "time": time.time()})


def stop_every_rank(run_dir: Path, lead_steps: int = 2) -> int | None:
    """Ask every rank of the run to stop after the same step, ``lead_steps`` past the furthest rank's
    (``ranks/<r>/progress``), unless a stop step was set already: each rank's supervisor calls it when
    the job's owner is gone, and the first one's step stands for all (a stop signal per rank would stop
    each after its own next step, and a rank that stopped first leaves its peers waiting for it in a
    collective). Returns the step the ranks stop after (``None`` when it cannot be written)."""
    ranks = run_dir / "ranks"
    furthest = 0
    for path in ranks.glob("*/progress"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            furthest = max(furthest, int(path.read_text(encoding="utf-8").split()[0]))
    step = furthest + max(lead_steps, 1)
    tmp = ranks / f"{STOP_FILE}.tmp-{os.getpid()}-owner"
    try:
        tmp.write_text(json.dumps({"step": step, "time": time.time()}), encoding="utf-8")
        os.link(tmp, ranks / STOP_FILE)  # fails when a stop step exists: the first one stands
    except FileExistsError:
        return StopRequest(run_dir).step()
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return step


class StopRequest:
    """A rank's view of ``ranks/stop``: the step to stop after, read again only when the file changed."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / "ranks" / STOP_FILE
        self._seen: int | None = None
        self._step: int | None = None

    def step(self) -> int | None:
        try:
            stamp = os.stat(self.path).st_mtime_ns
        except OSError:
            return None
        if stamp != self._seen:
            self._seen = stamp
            with contextlib.suppress(OSError, ValueError, TypeError):
                self._step = int(json.loads(self.path.read_text(encoding="utf-8"))["step"])
        return self._step


def install_stop_signals(cancel: threading.Event) -> None:
    """SIGTERM, SIGINT and SIGHUP set ``cancel`` (stop after the step) instead of ending the process.

    Call it after ``import paddle`` (whose C-level SIGTERM handler dumps a stack and kills the process)
    and from the main thread; elsewhere it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        return

    def handle(signum: int, frame: FrameType | None) -> None:
        cancel.set()

    for signum in STOP_SIGNALS:
        signal.signal(signum, handle)
