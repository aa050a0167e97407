"""The processes of one launched job, found while they live and ended together.

A launched job is a process tree the workbench does not fully control: ``paddle.distributed.launch``
starts every rank with ``setsid`` (each rank is a session and process group of its own), so signalling
the launcher's group never reaches a rank, and a rank outlives a launcher killed with SIGKILL
(re-parented to PID 1). :class:`JobProcesses` therefore keeps its own list of the job's processes:

* the launched process and every descendant of it, captured on each :meth:`refresh` while they are
  still children (a rank re-parented to init is no longer a descendant, but stays in the list);
* the pids the ranks wrote into the run folder (``ranks/<r>/pid``, ``ranks/<r>/supervisor.pid``);
* at the final sweep, any process whose environment names the run folder
  (``$PADDLE_WORKBENCH_RUN_DIR``), which is how a rank that called ``setsid`` and left its parent is
  still found.

:meth:`end` stops them all: SIGCONT (a stopped process, state ``T``, would never act on SIGTERM),
SIGTERM to each process and its process group, a grace period, then SIGKILL to whatever is left. A
process is identified by pid *and* start time, so a pid reused by an unrelated process is never
signalled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterable
from pathlib import Path

import psutil

RUN_DIR_ENV = "PADDLE_WORKBENCH_RUN_DIR"
PID_FILES = ("pid", "supervisor.pid")
REFRESH_S = 1.0
"""Files under ``ranks/<r>/`` that hold a pid of the job (the rank, the rank's supervisor)."""


def _same(proc: psutil.Process) -> bool:
    """Whether ``proc`` is still the process we recorded (not ended, pid not reused) and not a zombie."""
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def _wait_gone(procs: list[psutil.Process], timeout_s: float) -> list[psutil.Process]:
    """Wait until none of ``procs`` runs or ``timeout_s`` passed; the ones still running.

    Polls ``/proc`` instead of ``psutil.wait_procs``, which would reap a child of ours (the launcher)
    and take its exit status from the :class:`subprocess.Popen` that owns it.
    """
    deadline = time.monotonic() + timeout_s
    alive = [proc for proc in procs if _same(proc)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [proc for proc in alive if _same(proc)]
    return alive


class JobProcesses:
    """Every process of one job (see the module docstring)."""

    def __init__(self, root_pid: int, run_dir: Path | None = None) -> None:
        self.root_pid = root_pid
        self.run_dir = run_dir.resolve() if run_dir is not None else None
        self._procs: dict[tuple[int, float], psutil.Process] = {}
        self._own_pgid = os.getpgid(0)
        self._refreshed = -REFRESH_S
        self._add(root_pid)

    def _add(self, pid: int) -> None:
        if pid <= 0 or pid == os.getpid():
            return
        try:
            proc = psutil.Process(pid)
            key = (pid, proc.create_time())
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return
        self._procs.setdefault(key, proc)

    def refresh(self, *, force: bool = True) -> None:
        """Capture the descendants of every process of the job and the pids the ranks recorded (call it
        while they run). One pass over the process table; ``force=False`` skips it when the last one is
        less than :data:`REFRESH_S` old (a watcher polling a few times a second)."""
        now = time.monotonic()
        if not force and now - self._refreshed < REFRESH_S:
            return
        self._refreshed = now
        for pid in self._recorded_pids():
            self._add(pid)
        children: dict[int, list[psutil.Process]] = {}
        for proc in psutil.process_iter(["ppid"]):
            ppid = proc.info.get("ppid")
            if isinstance(ppid, int):
                children.setdefault(ppid, []).append(proc)
        parents = [self.root_pid, *(proc.pid for proc in self.alive())]
        seen: set[int] = set()
        while parents:
            parent = parents.pop()
            if parent in seen:
                continue
            seen.add(parent)
            for child in children.get(parent, ()):
                with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                    self._procs.setdefault((child.pid, child.create_time()), child)
                    parents.append(child.pid)

    def _recorded_pids(self) -> Iterable[int]:
        if self.run_dir is None:
            return []
        found: list[int] = []
        ranks = self.run_dir / "ranks"
        with contextlib.suppress(OSError):
            for folder in ranks.iterdir():
                for name in PID_FILES:
                    with contextlib.suppress(OSError, ValueError):
                        found.append(int((folder / name).read_text(encoding="utf-8").strip()))
        return found

    def _by_environment(self) -> None:
        """Add every process (of this user) whose ``$PADDLE_WORKBENCH_RUN_DIR`` is this run folder."""
        if self.run_dir is None:
            return
        target = str(self.run_dir)
        uid = os.getuid()
        for proc in psutil.process_iter(["uids"]):
            try:
                uids = proc.info.get("uids")
                if proc.pid == os.getpid() or (uids is not None and uids.real != uid):
                    continue
                if proc.environ().get(RUN_DIR_ENV) == target:
                    self._procs.setdefault((proc.pid, proc.create_time()), proc)
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
                continue

    def alive(self) -> list[psutil.Process]:
        """The job's processes that still run (zombies waiting for their parent count as ended)."""
        return [proc for proc in self._procs.values() if _same(proc)]

    def pids(self) -> list[int]:
        return sorted(proc.pid for proc in self.alive())

    def send(self, signum: int, procs: Iterable[psutil.Process] | None = None) -> None:
        """``signum`` to each live process and to its process group (never to ours)."""
        groups: set[int] = set()
        for proc in list(procs if procs is not None else self.alive()):
            with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                groups.add(os.getpgid(proc.pid))
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                proc.send_signal(signum)
        for group in groups - {self._own_pgid, 0}:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signum)

    def end(self, grace_s: float, *, sweep: bool = True) -> list[int]:
        """Stop every process of the job: SIGCONT and SIGTERM, ``grace_s``, then SIGKILL; returns the pids
        that needed SIGKILL. ``sweep`` also looks for processes by their environment first."""
        self.refresh()
        if sweep:
            self._by_environment()
        alive = self.alive()
        if not alive:
            return []
        if grace_s > 0:
            self.send(signal.SIGCONT, alive)
            self.send(signal.SIGTERM, alive)
            alive = _wait_gone(alive, grace_s)
        killed = [proc.pid for proc in alive]
        if alive:
            self.send(signal.SIGKILL, alive)
            _wait_gone(alive, 10.0)
        return killed

    def kill(self) -> list[int]:
        """SIGKILL to every process of the job at once (a second Ctrl-C): nothing gets to finish."""
        return self.end(0.0)


def current_children() -> set[tuple[int, float]]:
    """This process's children now, as ``(pid, start time)`` (for :func:`end_descendants`)."""
    found: set[tuple[int, float]] = set()
    with contextlib.suppress(psutil.Error):
        for child in psutil.Process().children():
            with contextlib.suppress(psutil.Error):
                found.add((child.pid, child.create_time()))
    return found


def _is_resource_tracker(pid: int) -> bool:
    """Whether ``pid`` is Python's multiprocessing resource tracker (``from multiprocessing.resource_tracker
    import main``): it ends by itself when this process exits and closes its pipe, after it has been told
    which semaphores this process released. Ended before that, Python relaunches it at exit and the new one
    prints a ``KeyError`` traceback for every semaphore it never saw — after the command's last line."""
    with contextlib.suppress(psutil.Error):
        return "multiprocessing.resource_tracker" in " ".join(psutil.Process(pid).cmdline())
    return False


def end_descendants(before: set[tuple[int, float]], grace_s: float = 3.0) -> list[int]:
    """End every child this process started since ``before`` (:func:`current_children` taken when the
    job began) that still runs, with all of its descendants: SIGTERM, then SIGKILL after ``grace_s``.
    For a command whose job ran in this process (``train``): a DataLoader worker or a helper the user's
    code started is part of the job and does not outlive it; children the caller had before (a test
    runner's own) are left alone, and so is the resource tracker (:func:`_is_resource_tracker`)."""
    new = [pid for pid, started in current_children() - before if not _is_resource_tracker(pid)]
    if not new:
        return []
    procs = JobProcesses(new[0])
    for pid in new[1:]:
        procs._add(pid)
    procs.refresh()
    return procs.end(grace_s, sweep=False)
