"""Hang detection: a thread that notices when no training step finished for too long.

The training thread calls :meth:`HangWatchdog.beat` after each step (O(1): two stores and a deque
append). The watchdog thread wakes a few times a second; when the time since the last beat exceeds
``max(factor x median step time, min_after_s)`` it captures the training thread's Python stack from
``sys._current_frames()`` and hands a :class:`HangReport` to ``on_hang`` — once per stall; the next beat
re-arms it. It only reports: whether to stop a hung run is the user's call (a stuck collective may
recover, a stuck data loader may not).
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class HangReport:
    step: int
    """The step that has not finished (the last finished step + 1)."""
    stalled_s: float
    threshold_s: float
    stack: str
    """The training thread's Python stack, outermost call first."""


def thread_stack(thread_id: int) -> str:
    """The current Python stack of another thread, formatted like a traceback."""
    frame = sys._current_frames().get(thread_id)
    if frame is None:
        return "(thread has ended)\n"
    return "".join(traceback.format_stack(frame))


class HangWatchdog:
    """Watches one thread's step heartbeat; see the module docstring."""

    def __init__(
        self,
        *,
        thread_id: int,
        min_after_s: float,
        on_hang: Callable[[HangReport], None],
        factor: float = 10.0,
        history: int = 101,
        poll_s: float | None = None,
        is_paused: Callable[[], bool] | None = None,
    ) -> None:
        self.thread_id = thread_id
        self.min_after_s = min_after_s
        self.factor = factor
        self.on_hang = on_hang
        self.is_paused = is_paused
        self._durations: deque[float] = deque(maxlen=history)
        self._last_beat = time.monotonic()
        self._last_step = 0
        self._armed = True
        self._stop = threading.Event()
        self._poll_s = poll_s if poll_s is not None else min(1.0, max(0.05, min_after_s / 4))
        self._thread = threading.Thread(target=self._watch, name="hang-watchdog", daemon=True)
        self.reports: list[HangReport] = []

    def start(self, step: int = 0) -> HangWatchdog:
        self._last_step = step
        self._last_beat = time.monotonic()
        self._thread.start()
        return self

    def beat(self, step: int | None = None, duration_s: float | None = None) -> None:
        """Training made progress (``step`` finished, taking ``duration_s``); also call after eval/saves."""
        self._last_beat = time.monotonic()
        if step is not None:
            self._last_step = step
        if duration_s is not None:
            self._durations.append(duration_s)
        self._armed = True

    def threshold_s(self) -> float:
        """``max(factor x median step time, min_after_s)`` over the recent steps."""
        durations = list(self._durations)
        median = statistics.median(durations) if durations else 0.0
        return max(self.factor * median, self.min_after_s)

    def _watch(self) -> None:
        while not self._stop.wait(self._poll_s):
            if not self._armed:
                continue
            if self.is_paused is not None and self.is_paused():
                self._last_beat = time.monotonic()  # paused by the user: the clock restarts on resume
                continue
            stalled = time.monotonic() - self._last_beat
            threshold = self.threshold_s()
            if stalled <= threshold:
                continue
            self._armed = False
            report = HangReport(self._last_step + 1, stalled, threshold, thread_stack(self.thread_id))
            self.reports.append(report)
            try:
                self.on_hang(report)
            except Exception:  # noqa: BLE001 - the watchdog must outlive a failing reporter
                traceback.print_exc()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
