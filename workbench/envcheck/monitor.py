"""A cheap snapshot of the host: CPU, RAM, and per GPU memory, utilisation, temperature and power.

Read by the environment screen's live panel and, once a second, by every run's system sampler
(:mod:`workbench.runner.system_sampler`), always from a thread that is not the UI's or the training
loop's, so it must stay cheap: ``psutil`` for the host, NVML in process when ``nvidia-ml-py`` is
installed, else one bounded ``nvidia-smi`` query. Once a source is known to be absent it is not asked
again. A figure a GPU does not report (``[N/A]``, NVML's "not supported") is ``None``, never 0.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import psutil

from workbench.envcheck.isolate import ProbeError
from workbench.envcheck.nvidia import find_nvidia_smi, query_gpu_usage

MIN_CPU_INTERVAL_S = 0.25


@dataclass(frozen=True)
class GpuSample:
    index: int
    name: str
    memory_used_mib: int | None
    memory_total_mib: int | None
    utilization_pct: int | None
    temperature_c: int | None = None
    power_w: float | None = None
    """Power draw in watts."""
    power_limit_w: float | None = None
    """The power limit the driver enforces now, in watts (the environment screen shows draw/limit)."""


@dataclass(frozen=True)
class SystemSnapshot:
    cpu_percent: float
    cpu_count: int
    memory_used_bytes: int
    memory_total_bytes: int
    gpus: tuple[GpuSample, ...] = field(default_factory=tuple)


class SystemMonitor:
    """Produces :class:`SystemSnapshot` s; remembers which GPU source works on this machine."""

    def __init__(self, env: Mapping[str, str] | None = None, gpu_timeout_s: float = 3.0) -> None:
        self._env = dict(os.environ if env is None else env)
        self._timeout = gpu_timeout_s
        self._gpu_source: str | None = None  # "nvml", "nvidia-smi" or "none" once decided
        self._lock = threading.Lock()
        self._cpu_last: tuple[float, float] | None = None  # (busy, total) CPU seconds at the last sample

    def cpu_percent(self) -> float:
        """Busy share of all CPUs since this monitor's last sample (its own baseline, not psutil's global
        one, which any other caller resets). The first sample measures over a short wait, never reads 0."""
        if self._cpu_last is None:
            self._cpu_last = _cpu_seconds()
            time.sleep(MIN_CPU_INTERVAL_S)
        busy0, total0 = self._cpu_last
        busy1, total1 = _cpu_seconds()
        self._cpu_last = (busy1, total1)
        elapsed = total1 - total0
        return 0.0 if elapsed <= 0 else max(0.0, min(100.0, 100.0 * (busy1 - busy0) / elapsed))

    def sample(self) -> SystemSnapshot:
        memory = psutil.virtual_memory()
        return SystemSnapshot(
            cpu_percent=self.cpu_percent(),
            cpu_count=psutil.cpu_count() or 1,
            memory_used_bytes=memory.total - memory.available,
            memory_total_bytes=memory.total,
            gpus=tuple(self._gpus()),
        )

    def _gpus(self) -> list[GpuSample]:
        with self._lock:
            if self._gpu_source is None:
                self._gpu_source = self._pick_source()
            source = self._gpu_source
        if source == "nvml":
            try:
                return _nvml_samples()
            except Exception:
                self._gpu_source = "none"
                return []
        if source == "nvidia-smi":
            try:
                rows = query_gpu_usage(self._env, timeout_s=self._timeout)
            except (ProbeError, OSError):
                return []
            return [_from_row(row) for row in rows]
        return []

    def _pick_source(self) -> str:
        try:
            _nvml_samples()
            return "nvml"
        except Exception:
            pass
        return "nvidia-smi" if find_nvidia_smi(self._env) else "none"


def _cpu_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far."""
    times = psutil.cpu_times()
    total = float(sum(times))
    idle = float(times.idle) + float(getattr(times, "iowait", 0.0))
    return total - idle, total


def _from_row(row: Mapping[str, Any]) -> GpuSample:
    return GpuSample(
        index=int(row.get("index") or 0),
        name=str(row.get("name") or "?"),
        memory_used_mib=row.get("memory_used_mib"),
        memory_total_mib=row.get("memory_total_mib"),
        utilization_pct=row.get("utilization_pct"),
        temperature_c=row.get("temperature_c"),
        power_w=row.get("power_w"),
        power_limit_w=row.get("power_limit_w"),
    )


_nvml_started = False
_nvml_lock = threading.Lock()


def _nvml_samples() -> list[GpuSample]:
    """GPU samples through NVML (``nvidia-ml-py``); raises when it is absent or has no driver.

    NVML is initialised once per process (``nvmlInit`` counts references, and every sampler of every
    run calls this once a second). Temperature, power and the power limit are asked separately: a GPU
    that does not report one (NVML's "not supported") still reports the rest.
    """
    import pynvml  # type: ignore[import-not-found, unused-ignore]

    global _nvml_started
    with _nvml_lock:
        if not _nvml_started:
            pynvml.nvmlInit()
            _nvml_started = True
    samples = []
    for index in range(pynvml.nvmlDeviceGetCount()):
        handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        name = pynvml.nvmlDeviceGetName(handle)
        memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
        utilization = pynvml.nvmlDeviceGetUtilizationRates(handle)
        temperature: int | None = None
        power: float | None = None
        limit: float | None = None
        with contextlib.suppress(Exception):  # NVMLError_NotSupported and kin: the figure is unknown
            temperature = int(pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU))
        with contextlib.suppress(Exception):
            power = int(pynvml.nvmlDeviceGetPowerUsage(handle)) / 1000.0  # milliwatts
        with contextlib.suppress(Exception):
            limit = int(pynvml.nvmlDeviceGetPowerManagementLimit(handle)) / 1000.0
        samples.append(
            GpuSample(
                index=index,
                name=name.decode() if isinstance(name, bytes) else str(name),
                memory_used_mib=int(memory.used) // 2**20,
                memory_total_mib=int(memory.total) // 2**20,
                utilization_pct=int(utilization.gpu),
                temperature_c=temperature,
                power_w=power,
                power_limit_w=limit,
            )
        )
    return samples
