"""A run's system metrics: CPU, the run's memory and every GPU, sampled once a second off the training thread.

Every job starts one :class:`SystemSampler` with the run and stops it when the run ends. It has its own
daemon thread; the training thread never calls it and pays only for sharing the interpreter a few
milliseconds a second. Each sample is one ``system`` row in the run's ``events.jsonl``
(``{"type": "system", "step", "time", "values": {"sys/cpu_percent": …}}``) and, for a run in this
process, the same values in the job's :class:`~workbench.metric_store.MetricStore`; a launched job's
rows come back into its store through the tailer that reads the run folder, like the ranks' metrics.

The series (``mb`` is MiB, 2**20 bytes, as ``nvidia-smi`` counts):

* ``sys/cpu_percent`` — busy share of all the machine's CPUs since the previous sample, 0-100;
* ``sys/rss_mb`` — resident memory of the run's processes: this process for an in-process run (the
  workbench itself included: the run shares it), the launched process and all its descendants (every
  rank) for a launched run, summed (pages several processes share are counted in each);
* per GPU ``i`` the driver reports (NVML's index, not a ``CUDA_VISIBLE_DEVICES`` ordinal):
  ``sys/gpu{i}/util`` (%), ``sys/gpu{i}/mem_used_mb``, ``sys/gpu{i}/mem_total_mb``, ``sys/gpu{i}/temp_c``,
  ``sys/gpu{i}/power_w``; a figure the GPU does not report is left out, not written as 0.

GPU facts come from :class:`workbench.envcheck.monitor.SystemMonitor` (NVML through ``nvidia-ml-py``,
else ``nvidia-smi``, else none), the same reader as the environment screen's live panel.

**Step.** A system row's ``step`` is the newest step the run had logged when the sample was taken (the
largest over its ranks), so system charts share the training charts' x axis; with steps slower than a
second several samples share one step, and the row's ``time`` keeps when each was taken. Samples taken
before the first step (imports, data loading) wait for it, up to :data:`EARLY_HOLD_S`, and are written
with it, so a resumed run's system charts start where its training charts do; a run that logs no step
by then (a launched script that does not report steps), or ends before its first, has them written at
step 0 and goes on live at step 0 until a step comes. System samples are not training progress: they never move the store's
``last_step`` (:meth:`~workbench.metric_store.MetricStore.record_system`), so the stall watchdog, the ETA
and the step counter see only the training loop.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # psutil, numpy and the envcheck package are imported on the sampler's thread
    from workbench.envcheck.monitor import SystemMonitor, SystemSnapshot
    from workbench.metric_store import MetricStore
    from workbench.runs import EventWriter

SYSTEM_PREFIX = "sys/"
INTERVAL_S = 1.0
EARLY_HOLD_S = 60.0
"""How long samples taken before the run's first step wait for it (start-up: imports, data loading)."""
GPU_FIELDS = ("util", "mem_used_mb", "mem_total_mb", "temp_c", "power_w")
_GPU_NAME = re.compile(r"sys/gpu(\d+)/(\w+)$")


def is_system_metric(name: str) -> bool:
    return name.startswith(SYSTEM_PREFIX)


def gpu_metric(name: str) -> tuple[int, str] | None:
    """``"sys/gpu3/util"`` → ``(3, "util")``; ``None`` for any other name."""
    match = _GPU_NAME.match(name)
    return (int(match.group(1)), match.group(2)) if match else None


def gpu_indices(names: Iterable[str]) -> list[int]:
    """The GPUs that have series among ``names``, in order."""
    return sorted({found[0] for found in map(gpu_metric, names) if found is not None})


def system_values(snapshot: SystemSnapshot, rss_bytes: int | None) -> dict[str, float]:
    """One sample's ``sys/...`` values, rounded so that a row stays short in ``events.jsonl``."""
    values: dict[str, float] = {"sys/cpu_percent": round(snapshot.cpu_percent, 1)}
    if rss_bytes is not None:
        values["sys/rss_mb"] = round(rss_bytes / 2**20, 1)
    for gpu in snapshot.gpus:
        figures = (
            gpu.utilization_pct,
            gpu.memory_used_mib,
            gpu.memory_total_mib,
            gpu.temperature_c,
            gpu.power_w,
        )
        for field, value in zip(GPU_FIELDS, figures, strict=True):
            if value is not None:
                values[f"sys/gpu{gpu.index}/{field}"] = round(float(value), 1)
    return values


class ProcessTree:
    """Resident memory of a run's processes: ``pid``, and with ``children`` every descendant of it."""

    def __init__(self, pid: int, *, children: bool) -> None:
        self.pid = pid
        self.children = children
        self._root: Any = None  # psutil.Process, made on the sampler's thread

    def rss_bytes(self) -> int | None:
        """The summed RSS, or ``None`` once the root process is gone."""
        import psutil

        try:
            if self._root is None:
                self._root = psutil.Process(self.pid)
            processes = [self._root]
            if self.children:
                processes += self._root.children(recursive=True)
            total = int(self._root.memory_info().rss)
        except psutil.Error:  # gone (or a zombie): nothing of the run to measure
            return None
        for process in processes[1:]:
            with contextlib.suppress(psutil.Error):  # a rank that just ended
                total += int(process.memory_info().rss)
        return total


class SystemSampler:
    """Samples the machine and the run's processes every :data:`INTERVAL_S` on its own daemon thread.

    ``metrics`` is the job's store: where the run's current step is read and, when ``into_store``, where
    the samples go (a launched job's store is fed from the file instead). ``pid``/``children``: whose
    memory is the run's (:class:`ProcessTree`). ``monitor`` replaces the machine reader (tests).
    """

    def __init__(
        self,
        *,
        writer: EventWriter,
        metrics: MetricStore,
        into_store: bool = True,
        pid: int | None = None,
        children: bool = False,
        interval_s: float = INTERVAL_S,
        monitor: SystemMonitor | None = None,
        name: str = "",
    ) -> None:
        self.writer = writer
        self.metrics = metrics
        self.into_store = into_store
        self.processes = ProcessTree(os.getpid() if pid is None else pid, children=children)
        self.interval_s = interval_s
        self.monitor = monitor
        self.samples = 0
        """Samples written so far (tests and the benchmark read it)."""
        self.last_error: str | None = None
        """The last exception a sample raised (the sampler carries on: it must never end a run)."""
        self._early: deque[tuple[float, dict[str, float]]] = deque()
        self._created = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._main, name=f"system-sampler:{name}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """End sampling (any thread, any number of times; never waits for a sample in flight).

        Samples still waiting for a first step are written now, at step 0, so a run that died while
        loading keeps its start-up memory curve. A sample in flight when this is called is dropped.
        """
        self._stop.set()
        with self._lock:
            if self._early:
                self._write_early(self._current_step() or 0)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _main(self) -> None:
        monitor = self.monitor
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                if monitor is None:
                    from workbench.envcheck.monitor import SystemMonitor

                    monitor = self.monitor = SystemMonitor()
                self.sample_once(monitor)
            except Exception as exc:  # noqa: BLE001 - a broken reader must not end the run
                self.last_error = f"{type(exc).__name__}: {exc}"
            self._stop.wait(max(0.0, self.interval_s - (time.monotonic() - started)))

    def sample_once(self, monitor: SystemMonitor) -> dict[str, float] | None:
        """Take one sample and record it (or keep it until the first step); the values, or ``None``
        when there was nothing to record (the run's process is gone, or the sampler was stopped)."""
        snapshot = monitor.sample()
        rss = self.processes.rss_bytes()
        if rss is None and self.processes.children:
            return None  # a launched run whose process ended: nothing of it is left to sample
        values = system_values(snapshot, rss)
        when = time.time()
        with self._lock:
            if self._stop.is_set():
                return None  # the run ended while this sample was taken: its file may be closed
            step = self._current_step()
            if step is None:
                if time.monotonic() - self._created < EARLY_HOLD_S:
                    self._early.append((when, values))
                    return values
                step = 0
            if self._early:
                self._write_early(step)
            self._write(step, when, values)
        return values

    def _current_step(self) -> int | None:
        steps = list(self.metrics.last_step.values())
        return max(steps) if steps else None

    def _write_early(self, step: int) -> None:
        while self._early:
            when, values = self._early.popleft()
            self._write(step, when, values)

    def _write(self, step: int, when: float, values: Mapping[str, float]) -> None:
        self.writer.system(step, values, when)
        if self.into_store:
            self.metrics.record_system(step, values)
        self.samples += 1
