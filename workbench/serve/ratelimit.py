"""A token bucket per client address: ``rate`` requests a second on average, bursts up to ``burst``.

Each client (the peer address — a header such as ``X-Forwarded-For`` is not trusted) starts with a full
bucket; a request takes one token; tokens refill continuously. An empty bucket answers how many seconds
until the next token, which becomes the ``Retry-After`` header of the 429. Buckets of clients idle for
long are dropped so the table stays small. Thread-safe (one lock; the work under it is a few floats).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable


class RateLimiter:
    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic, max_clients: int = 10_000
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = float(rate)
        self.burst = int(burst)
        self._clock = clock
        self._max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> float:
        """``0.0``: allowed (a token taken); else the seconds to wait before the next token."""
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[client] = (tokens - 1.0, now)
                allowed = True
            else:
                self._buckets[client] = (tokens, now)
                allowed = False
            if len(self._buckets) > self._max_clients:
                self._prune(now)
        return 0.0 if allowed else (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        full_after = self.burst / self.rate
        for key, (_, last) in list(self._buckets.items()):
            if now - last > full_after:
                del self._buckets[key]


def retry_after_header(wait_s: float) -> str:
    """Whole seconds, at least 1 (the header takes an integer)."""
    return str(max(1, math.ceil(wait_s)))
