"""Request counts by route and status, and a latency histogram, in the Prometheus text format (0.0.4).

Counters only go up; the histogram has fixed buckets (seconds) chosen for a CPU model served on one
machine: 1 ms to 10 s. Thread-safe; rendering copies the numbers under the lock.
"""

from __future__ import annotations

import bisect
import threading
from collections import Counter

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Telemetry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: Counter[tuple[str, int]] = Counter()
        self._bucket_counts = [0] * (len(BUCKETS) + 1)
        self._sum = 0.0
        self._count = 0
        self.in_flight = 0

    def observe(self, route: str, status: int, seconds: float) -> None:
        with self._lock:
            self._requests[(route, status)] += 1
            self._bucket_counts[bisect.bisect_left(BUCKETS, seconds)] += 1
            self._sum += seconds
            self._count += 1

    def count(self, route: str | None = None, status: int | None = None) -> int:
        with self._lock:
            return sum(
                n
                for (r, s), n in self._requests.items()
                if (route is None or r == route) and (status is None or s == status)
            )

    def render(self) -> str:
        with self._lock:
            requests = sorted(self._requests.items())
            buckets = list(self._bucket_counts)
            total, count, in_flight = self._sum, self._count, self.in_flight
        lines = [
            "# HELP pwb_requests_total HTTP requests by route and status code.",
            "# TYPE pwb_requests_total counter",
        ]
        for (route, status), n in requests:
            lines.append(f'pwb_requests_total{{route="{route}",status="{status}"}} {n}')
        lines += [
            "# HELP pwb_request_duration_seconds Time from request to response.",
            "# TYPE pwb_request_duration_seconds histogram",
        ]
        running = 0
        for bound, n in zip(BUCKETS, buckets, strict=False):
            running += n
            lines.append(f'pwb_request_duration_seconds_bucket{{le="{bound:g}"}} {running}')
        lines.append(f'pwb_request_duration_seconds_bucket{{le="+Inf"}} {count}')
        lines.append(f"pwb_request_duration_seconds_sum {total:.6f}")
        lines.append(f"pwb_request_duration_seconds_count {count}")
        lines += [
            "# HELP pwb_requests_in_flight Requests being handled now.",
            "# TYPE pwb_requests_in_flight gauge",
            f"pwb_requests_in_flight {in_flight}",
        ]
        return "\n".join(lines) + "\n"
