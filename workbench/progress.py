"""How far a followed run has got, for people: the time left on an *active* clock and a progress bar.

The monitor calls these on its timer; they hold no UI and read no files, so the CLI and tests use them
as they are.
"""

from __future__ import annotations

from collections import deque

PROGRESS_CELLS = 24


def progress_bar(done: int, total: int, cells: int = PROGRESS_CELLS) -> str:
    """``done`` of ``total`` as ``cells`` block characters (full past the end, empty without a total)."""
    filled = min(cells, int(cells * done / total)) if total else 0
    return "█" * filled + "░" * (cells - filled)


class EtaClock:
    """Training speed measured on an *active* clock that stands still while the run is paused.

    Pausing neither counts toward the rate (so the ETA does not jump after resume) nor runs the ETA
    down while nothing trains: paused, the estimate stays where it was. The rate is taken over the
    last ``window`` observed steps.
    """

    def __init__(self, window: int = 30) -> None:
        self._points: deque[tuple[float, int]] = deque(maxlen=window)
        self._paused_s = 0.0
        self._last_now: float | None = None
        self._was_paused = False

    def clear(self) -> None:
        """Forget every observation (a new run is followed)."""
        self._points.clear()
        self._paused_s = 0.0
        self._last_now = None
        self._was_paused = False

    def observe(self, now: float, step: int | None, paused: bool) -> None:
        """One look at the run: ``now`` (monotonic seconds), its last step, whether it is paused."""
        if self._last_now is not None and (paused or self._was_paused):
            self._paused_s += now - self._last_now  # the time since the last look was spent paused
        self._last_now, self._was_paused = now, paused
        if step is None or paused:
            return
        active = now - self._paused_s
        if not self._points or step > self._points[-1][1]:
            self._points.append((active, step))

    def remaining_s(self, step: int, total: int) -> float | None:
        """Seconds until ``total`` from ``step`` at the observed rate; ``None`` before there is one."""
        if len(self._points) < 2:
            return None
        (t0, s0), (t1, s1) = self._points[0], self._points[-1]
        if s1 <= s0 or t1 <= t0:
            return None
        return (total - step) / ((s1 - s0) / (t1 - t0))


def format_eta(seconds: float) -> str:
    """``m:ss`` under an hour, ``h:mm:ss`` from one (negative counts as zero)."""
    seconds = int(max(0, seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
