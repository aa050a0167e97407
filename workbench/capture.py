"""Keep everything a run prints off the terminal while the TUI owns it, and into the run's log.

Two layers, because output arrives two ways:

* :class:`ThreadOutputRouter` replaces ``sys.stdout``/``sys.stderr``: text written by a registered
  thread (a job's worker) goes to that job's sink; every other thread writes to the wrapped stream.
* :class:`FdCapture` moves file descriptors 1 and 2 onto a pipe (``os.dup2``) and keeps a duplicate of
  the real terminal. C-level writers — Paddle's glog, ``printf`` in kernels, ``os.write(2, ...)`` —
  land in the pipe; a reader thread hands each line to the active sinks (the running jobs' ``logs.txt``,
  and the TUI's session log, so output printed while no run is active is kept too). The TUI then draws on the duplicate (see ``screens.driver``).

Neither imports Textual: the CLI's headless mode uses them too.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TextIO

Sink = Callable[[str], object]


class ThreadOutputRouter(io.TextIOBase):
    """A ``sys.stdout`` stand-in that sends each thread's writes to that thread's sink."""

    def __init__(self, fallback: TextIO) -> None:
        super().__init__()
        self.fallback = fallback
        self._sinks: dict[int, Sink] = {}

    def register(self, thread_id: int, sink: Sink) -> None:
        self._sinks[thread_id] = sink

    def unregister(self, thread_id: int) -> None:
        self._sinks.pop(thread_id, None)

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        sink = self._sinks.get(threading.get_ident())
        if sink is not None:
            sink(text)
        else:
            self.fallback.write(text)
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(Exception):
            self.fallback.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        """The wrapped stream's descriptor (``faulthandler``, ``subprocess`` ask for it)."""
        return self.fallback.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.fallback, "encoding", "utf-8") or "utf-8"


_router_lock = threading.Lock()


def _router_for(name: str) -> ThreadOutputRouter:
    current = getattr(sys, name)
    if isinstance(current, ThreadOutputRouter):
        return current
    router = ThreadOutputRouter(current)
    setattr(sys, name, router)
    return router


@contextlib.contextmanager
def route_thread_output(sink: Sink, thread_id: int | None = None) -> Iterator[None]:
    """While active, Python-level ``print``/``warnings`` of ``thread_id`` (default: this thread) go to ``sink``."""
    ident = thread_id if thread_id is not None else threading.get_ident()
    with _router_lock:
        routers = [_router_for("stdout"), _router_for("stderr")]
    for router in routers:
        router.register(ident, sink)
    try:
        yield
    finally:
        for router in routers:
            router.unregister(ident)


class FdCapture:
    """Redirect fds 1 and 2 into a pipe; remember the terminal; fan captured lines out to sinks."""

    def __init__(self) -> None:
        self.terminal_fd: int | None = None
        self._saved: dict[int, int] = {}
        self._read_fd: int | None = None
        self._thread: threading.Thread | None = None
        self._sinks: dict[int, Sink] = {}
        self._next_id = 0
        self._lock = threading.Lock()
        self._sync_events: dict[str, threading.Event] = {}

    @property
    def active(self) -> bool:
        return self._read_fd is not None

    def start(self) -> int:
        """Begin capturing; return a duplicate of the original fd 2 (the terminal) to draw on."""
        if self.active:
            assert self.terminal_fd is not None
            return self.terminal_fd
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.flush()
        self.terminal_fd = os.dup(2)
        read_fd, write_fd = os.pipe()
        for fd in (1, 2):
            self._saved[fd] = os.dup(fd)
            os.dup2(write_fd, fd)
        os.close(write_fd)
        self._read_fd = read_fd
        self._thread = threading.Thread(target=self._pump, name="fd-capture", daemon=True)
        self._thread.start()
        return self.terminal_fd

    def original_fd(self, fd: int) -> int:
        """The duplicate of what ``fd`` (1 or 2) was before the capture: where the command's own lines go."""
        return self._saved[fd]

    def add_sink(self, sink: Sink) -> int:
        with self._lock:
            self._next_id += 1
            self._sinks[self._next_id] = sink
            return self._next_id

    def sink_count(self) -> int:
        with self._lock:
            return len(self._sinks)

    def remove_sink(self, token: int) -> None:
        with self._lock:
            self._sinks.pop(token, None)

    def sync(self, timeout: float = 1.0) -> bool:
        """Wait until everything written to fds 1/2 before this call has reached the sinks.

        A pipe is FIFO, so a marker line written now arrives after all earlier output (a child
        process's included); the pump drops the marker and wakes us. Bounded: never hangs a job.
        """
        if not self.active:
            return True
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        with self._lock:
            self._next_id += 1
            marker = f"\x00wb-sync-{self._next_id}\x00"
            event = threading.Event()
            self._sync_events[marker] = event
        try:
            os.write(1, (marker + "\n").encode())
        except OSError:
            return False
        done = event.wait(timeout)
        with self._lock:
            self._sync_events.pop(marker, None)
        return done

    def _pump(self) -> None:
        assert self._read_fd is not None
        pending = b""
        while True:
            try:
                chunk = os.read(self._read_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            if lines:
                self._deliver("".join(line.decode("utf-8", "replace") + "\n" for line in lines))
        if pending:
            self._deliver(pending.decode("utf-8", "replace") + "\n")

    def _deliver(self, text: str) -> None:
        if "\x00wb-sync-" in text:
            kept = []
            for line in text.splitlines(keepends=True):
                event = self._sync_events.get(line.rstrip("\n"))
                if event is not None:
                    event.set()
                else:
                    kept.append(line)
            text = "".join(kept)
            if not text:
                return
        with self._lock:
            sinks = list(self._sinks.values())
        for sink in sinks:
            with contextlib.suppress(Exception):
                sink(text)

    def stop(self) -> None:
        """Put fds 1 and 2 back and drain what is left in the pipe."""
        if not self.active:
            return
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        for fd, saved in self._saved.items():
            os.dup2(saved, fd)
            os.close(saved)
        self._saved.clear()
        # All write ends are closed now, so the pump sees EOF and exits.
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self._read_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._read_fd)
        self._read_fd = None
        if self.terminal_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.terminal_fd)
        self.terminal_fd = None


_process_capture: FdCapture | None = None


def process_capture() -> FdCapture | None:
    """The process-wide fd capture if one was started (the TUI starts it), else ``None``."""
    return _process_capture


def start_process_capture() -> FdCapture:
    global _process_capture
    if _process_capture is None:
        _process_capture = FdCapture()
    _process_capture.start()
    return _process_capture


def stop_process_capture() -> None:
    global _process_capture
    if _process_capture is not None:
        _process_capture.stop()
        _process_capture = None
