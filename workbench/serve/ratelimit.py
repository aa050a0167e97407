"""A token bucket per client address: ``rate`` requests a second on average, bursts up to ``burst``.

Each client (the peer address — a header such as ``X-Forwarded-For`` is not trusted) starts with a full
bucket; a request takes one token; tokens refill continuously. An empty bucket answers how many seconds
until the next token, which becomes the ``Retry-After`` header of the 429. Buckets of clients idle for
long are dropped so the table stays small, and the table never holds more than ``max_clients`` (the
least recently seen go first). Thread-safe (one lock; the work under it is a few floats).

The server keeps two: one for the requests of authenticated clients, and a stricter one that only
failed authentications draw from (:mod:`workbench.serve.app`). An IPv6 client is keyed by its /64, the
block one host or site usually holds, so it cannot dodge either bucket by changing its address.

Why not ``slowapi``: it limits per route through Starlette's ``Request`` after routing, and counting only
the failed authentications would need its limiter driven by hand; this server refuses before routing in
one pure ASGI middleware, which these few lines serve directly, with no extra dependency.
"""

from __future__ import annotations

import ipaddress
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
        return self._draw(client, take=True)

    def wait(self, client: str) -> float:
        """``0.0``: ``client`` has a token now (none is taken); else the seconds until it has one."""
        return self._draw(client, take=False)

    def _draw(self, client: str, take: bool) -> float:
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.pop(client, (float(self.burst), now))  # re-inserted last: LRU order
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            allowed = tokens >= 1.0
            if allowed and take:
                tokens -= 1.0
            if take or tokens < float(self.burst):  # a peek at a full bucket records nothing
                self._buckets[client] = (tokens, now)
            if len(self._buckets) > self._max_clients:
                self._prune(now)
        return 0.0 if allowed else (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        full_after = self.burst / self.rate
        for key, (_, last) in list(self._buckets.items()):
            if now - last > full_after:
                del self._buckets[key]
        while len(self._buckets) > self._max_clients:  # still too many: the least recently seen go
            del self._buckets[next(iter(self._buckets))]


def client_key(address: str) -> str:
    """The bucket of a peer address: itself for IPv4 (also IPv4-mapped IPv6), its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def retry_after_header(wait_s: float) -> str:
    """Whole seconds, at least 1 (the header takes an integer)."""
    return str(max(1, math.ceil(wait_s)))
