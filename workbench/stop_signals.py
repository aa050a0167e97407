"""Stop signals (SIGINT, SIGTERM, SIGHUP) for every command: one stop, whichever of them arrives.

The first stop signal raises :class:`Stopped` in the main thread (:class:`CommandStops`, installed once
by :func:`workbench.cli.main`). It is a ``KeyboardInterrupt``, so whatever cleans up after Ctrl-C cleans
up after SIGTERM and SIGHUP too (:mod:`workbench.isolate` kills a child's process group, ``finally``
blocks run); the CLI entry then prints one line ("stopped by SIGTERM") and exits ``128 + signal``.
Later signals do not interrupt that cleanup; a second Ctrl-C ends the command's whole process tree at
once (SIGKILL) and exits. A command that follows a job installs its own handlers over these for the
job's life (:class:`workbench.runner.signals.StopSignals`: the job stops after its step).

A signal ignored when the command started (``nohup`` ignores SIGHUP; a shell without job control starts
background commands with SIGINT ignored) stays ignored.

``import paddle`` installs a C-level SIGTERM handler (a stack dump, then death) that Python's
``signal.getsignal`` does not show: :func:`workbench.training.runtime.import_paddle` imports it with the
stop signals held back (:func:`held`) and puts the Python handlers in charge back on top
(:func:`reassert_handlers`) before any is delivered, whichever handlers those are.

A module of its own, light to import: the CLI entry installs it before any command is built.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A stop signal ended the command before it finished (exit ``128 + signum``)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def exit_code(signum: int | None) -> int:
    """``128 + signal`` (130 when none is known: Ctrl-C)."""
    return 128 + int(signum) if signum else 130


def signal_name(signum: int | None) -> str:
    """``SIGTERM`` for 15 (``SIGINT`` when none is known: a plain ``KeyboardInterrupt`` is Ctrl-C)."""
    try:
        return signal.Signals(signum or signal.SIGINT).name
    except ValueError:
        return str(signum)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def reassert_handlers() -> None:
    """Install each stop signal's Python handler again (main thread only; others are left alone).

    After ``import paddle``: Python still reports its own handler for SIGTERM, but the process runs
    glog's C one. Setting the same handler again puts Python's back. A signal with no Python handler
    (``SIG_DFL``, ``SIG_IGN``) keeps what it has.
    """
    if not _in_main_thread():
        return
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):
            with contextlib.suppress(ValueError, OSError):
                signal.signal(signum, handler)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold the stop signals back in this thread (delivered afterwards, to the handlers installed by then)."""
    if not _in_main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def ignored() -> Iterator[None]:
    """No stop signal at all inside the block (the last lines of a stopped command are being written)."""
    if not _in_main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class Handlers:
    """Install a handler for every stop signal not ignored at start; :meth:`restore` puts the old ones back."""

    def __init__(self) -> None:
        self._previous: dict[int, Any] = {}

    @property
    def active(self) -> bool:
        return _in_main_thread()

    def install(self) -> None:
        """(Re)install the handlers (main thread only)."""
        if not self.active:
            return
        for signum in STOP_SIGNALS:
            if signum not in self._previous and signal.getsignal(signum) == signal.SIG_IGN:
                continue  # ignored by whoever started us (`nohup`, a background job): it stays ignored
            previous = signal.signal(signum, self._handle)
            self._previous.setdefault(signum, previous)

    def restore(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        raise NotImplementedError


NUDGE_SIGNAL = signal.SIGURG
"""Sent to the main thread to wake it from a blocking system call (its default action is to ignore it;
while a command runs its Python handler does nothing)."""
NUDGE_AFTER_S = 0.1


def _no_op(signum: int, frame: FrameType | None) -> None:
    """The nudge's handler: being handled (not ignored) is what makes it interrupt a system call."""


class CommandStops(Handlers):
    """Any command's stop signals: see the module docstring. :attr:`first` is the signal that stopped it.

    CPython runs a Python handler only between bytecodes. A signal that lands while the main thread is
    inside C code that then blocks (``sys.stdin.buffer.read`` copying one chunk, then waiting for the
    next on a pipe that stays open) is delivered, but its handler would not run until that read
    returns — perhaps never. So the signal also wakes a small thread (``signal.set_wakeup_fd``), which
    sends :data:`NUDGE_SIGNAL` to the main thread when the handler has not run: the blocking call
    fails with ``EINTR`` and the interpreter runs the pending handler. A nudge with nothing pending does
    nothing.
    """

    def __init__(self, stopped_line: Callable[[int], str] | None = None) -> None:
        super().__init__()
        self.first: int | None = None
        self.stopped_line = stopped_line
        """The line a second Ctrl-C writes before the command ends (given the first signal)."""
        self._wakeup: tuple[int, int] | None = None
        self._nudge_previous: Any = None

    def install(self) -> None:
        super().install()
        if self.active and self._wakeup is None:
            self._start_nudger()

    def restore(self) -> None:
        super().restore()
        if self._wakeup is None:
            return
        read_end, write_end = self._wakeup
        self._wakeup = None
        with contextlib.suppress(ValueError, OSError):
            current = signal.set_wakeup_fd(-1)
            if current != write_end:  # someone else's since: theirs stays
                signal.set_wakeup_fd(current)
            signal.signal(NUDGE_SIGNAL, self._nudge_previous)
        with contextlib.suppress(OSError):
            os.close(write_end)  # the nudger reads the end of the pipe and closes its own end

    def _start_nudger(self) -> None:
        read_end, write_end = os.pipe()
        try:
            os.set_blocking(write_end, False)
            previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        except (ValueError, OSError):
            os.close(read_end)
            os.close(write_end)
            return
        if previous_fd != -1:  # another part of the program listens already: leave it alone
            signal.set_wakeup_fd(previous_fd)
            os.close(read_end)
            os.close(write_end)
            return
        self._nudge_previous = signal.signal(NUDGE_SIGNAL, _no_op)
        self._wakeup = (read_end, write_end)
        threading.Thread(target=self._nudge_loop, args=(read_end,), name="stop-nudger", daemon=True).start()

    def _nudge_loop(self, read_end: int) -> None:
        main = threading.main_thread().ident
        try:
            while True:
                try:
                    data = os.read(read_end, 64)
                except InterruptedError:
                    continue
                except OSError:
                    return
                if not data:
                    return
                for signum in set(data):
                    if signum in STOP_SIGNALS and signal.getsignal(signum) == self._handle:
                        self._nudge(main)
        finally:
            with contextlib.suppress(OSError):
                os.close(read_end)

    def _nudge(self, main: int | None) -> None:
        waited = 0.0
        while self.first is None and waited < NUDGE_AFTER_S:
            time.sleep(0.01)
            waited += 0.01
        if self.first is None and main is not None:
            with contextlib.suppress(ProcessLookupError, OSError, ValueError):
                signal.pthread_kill(main, NUDGE_SIGNAL)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.first is None:
            self.first = signum
            raise Stopped(signum)
        if signum == signal.SIGINT:
            line = self.stopped_line(self.first) if self.stopped_line is not None else ""
            end_tree_now(exit_code(self.first), line)
        # a repeated SIGTERM/SIGHUP while the command cleans up: it is stopping already


def end_children(grace_s: float = 3.0) -> list[int]:
    """End every child of this process that still runs, with its descendants: SIGTERM, then SIGKILL
    after ``grace_s`` (:func:`workbench.runner.tree.end_descendants`). For a command that was stopped:
    what it started and did not end on its way out (a pool's workers) does not outlive it."""
    from workbench.runner.tree import end_descendants

    return end_descendants(set(), grace_s)


def end_tree_now(code: int, line: str = "") -> None:
    """A second Ctrl-C: SIGKILL every descendant of this process (and the group each one leads), write
    ``line`` to stderr and exit ``code`` at once (no cleanup is waited for: that is what was asked)."""
    with contextlib.suppress(Exception):
        import psutil

        for proc in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.Error, OSError):
                if os.getpgid(proc.pid) == proc.pid:
                    os.killpg(proc.pid, signal.SIGKILL)  # an isolated child's group (its workers too)
                proc.kill()
    if line:
        with contextlib.suppress(OSError):
            os.write(2, (line + "\n").encode("utf-8", errors="replace"))
    os._exit(code)
