"""Memory probes for the per-step metrics: host RSS, Paddle's host allocator and GPU memory.

Each probe is cheap (a ``/proc`` read or a counter lookup) and returns MiB. A probe an installed Paddle
does not have is dropped once, not retried every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psutil

MIB = 1024.0 * 1024.0


class MemoryProbe:
    """Reads the memory figures that exist on this machine: ``probe.read() -> {name: MiB}``."""

    def __init__(self, paddle: Any | None, on_gpu: bool) -> None:
        self._process = psutil.Process()
        self._readers: dict[str, Callable[[], float]] = {"host_rss_mib": self._rss}
        core = getattr(getattr(paddle, "base", None), "core", None) if paddle is not None else None
        stat = getattr(core, "host_memory_stat_current_value", None)
        if stat is not None:
            self._readers["host_alloc_mib"] = lambda: float(stat("Allocated", 0)) / MIB
        if on_gpu and paddle is not None:
            cuda = paddle.device.cuda
            self._readers["gpu_alloc_mib"] = lambda: float(cuda.memory_allocated()) / MIB
            self._readers["gpu_peak_mib"] = lambda: float(cuda.max_memory_allocated()) / MIB
            self._readers["gpu_reserved_mib"] = lambda: float(cuda.memory_reserved()) / MIB

    def _rss(self) -> float:
        return float(self._process.memory_info().rss) / MIB

    def read(self) -> dict[str, float]:
        values: dict[str, float] = {}
        for name, reader in list(self._readers.items()):
            try:
                values[name] = reader()
            except Exception:  # noqa: BLE001 - a probe this build lacks is dropped, never fatal
                del self._readers[name]
        return values
