"""System metrics recorded by the engine: a real run's CPU and RSS on this CPU machine, GPUs through a
fake NVML module and a fake ``nvidia-smi`` (the only parts that cannot exist here), headless reads back."""

from __future__ import annotations

import json
import stat
import sys
import textwrap
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.fake_nvml import install_fake_nvml
from workbench.config.training import MetricsSection
from workbench.envcheck.monitor import SystemMonitor, SystemSnapshot
from workbench.envcheck.nvidia import USAGE_FIELDS, parse_query_csv
from workbench.events import RunFinished
from workbench.metric_store import MetricStore
from workbench.runner import JobContext, start_in_process, start_launched, system_sampler
from workbench.runner.system_sampler import SystemSampler, gpu_indices, system_values
from workbench.runs import EventTailer, EventWriter, RunStore, read_run, tail_last_step

MIB = 2**20


def _rows(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]


def _until(condition: Callable[[], object], timeout: float = 60.0) -> None:
    """Wait for a real thread's work (generous: CI shares two cores with Paddle runs)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def _job_until_sampled(samples: int) -> Callable[[JobContext], dict[str, Any]]:
    """A job that logs a step every few ms until the run's own sampler wrote ``samples`` samples."""

    def job(ctx: JobContext) -> dict[str, Any]:
        step = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            step += 1
            ctx.log(step, loss=1.0 / step)
            rss = ctx.metrics.series("sys/rss_mb")
            if rss is not None and len(rss) >= samples:
                break
            time.sleep(0.01)
        return {"steps": step}

    return job


def test_a_real_run_records_cpu_and_rss_in_its_store_and_its_events_file(store: RunStore) -> None:
    job = start_in_process(store, "system", _job_until_sampled(3))
    assert job.wait(90) and isinstance(job.result, RunFinished), job.result
    last = job.result.step
    assert last is not None
    # In the live store: two series under rank 0, sampled on this machine.
    cpu, rss = job.metrics.series("sys/cpu_percent"), job.metrics.series("sys/rss_mb")
    assert cpu is not None and rss is not None and len(rss) >= 3
    assert all(0.0 <= v <= 100.0 for v in cpu.arrays()[1])
    own_mib = psutil.Process().memory_info().rss / MIB
    assert all(0.2 * own_mib < v < 5 * own_mib for v in rss.arrays()[1])  # this process's RSS, in MiB
    # System samples are not progress: the step counter is the training loop's alone.
    assert job.metrics.last_step == {0: last}
    # In events.jsonl: "system" rows stamped with steps the run had reached, all before the terminal
    # event; the "metrics" rows are exactly the loop's steps.
    rows = _rows(job.run_dir)
    system = [r for r in rows if r["type"] == "system"]
    assert len(system) >= 3 and rows[-1]["type"] == "run_finished"
    assert all({"sys/cpu_percent", "sys/rss_mb"} <= set(r["values"]) for r in system)
    assert all(1 <= r["step"] <= last for r in system)
    assert [r["step"] for r in rows if r["type"] == "metrics"] == list(range(1, last + 1))
    # The run folder keeps them: reading it back gives the same series (a headless run, attached later).
    back = read_run(job.run_dir).metrics
    assert {"sys/cpu_percent", "sys/rss_mb"} <= set(back.names())
    series = back.series("sys/rss_mb")
    assert series is not None and len(series) == len(system)
    assert back.last_step == {0: last}
    # The sampler ended with the run.
    assert job.sampler is not None
    job.sampler.join(10)
    assert not job.sampler.running


def test_the_sampler_never_runs_on_the_training_thread(tmp_path: Path) -> None:
    seen: list[str] = []

    class Recording(SystemMonitor):
        def sample(self) -> SystemSnapshot:
            seen.append(threading.current_thread().name)
            return super().sample()

    metrics = MetricStore()
    writer = EventWriter(tmp_path / "events.jsonl")
    sampler = SystemSampler(writer=writer, metrics=metrics, monitor=Recording(env={"PATH": ""}), name="t")
    metrics.record(0, 1, {"loss": 1.0}, time.time())
    sampler.start()
    _until(lambda: sampler.samples >= 2)
    sampler.stop()
    writer.close()
    assert seen and all(name == "system-sampler:t" for name in seen)
    assert threading.current_thread().name not in seen


def test_system_metrics_can_be_switched_off(store: RunStore) -> None:
    assert MetricsSection().system is True  # on unless the training config says otherwise
    assert MetricsSection.model_validate({"system": False}).system is False

    def job(ctx: JobContext) -> None:
        for step in range(1, 4):
            ctx.log(step, loss=1.0)

    run = start_in_process(store, "quiet", job, system_metrics=False)
    assert run.wait(30) and run.sampler is None
    assert not [r for r in _rows(run.run_dir) if r["type"] == "system"]
    assert not [n for n in run.metrics.names() if n.startswith("sys/")]


def test_samples_before_the_first_step_wait_for_it(tmp_path: Path) -> None:
    metrics = MetricStore()
    writer = EventWriter(tmp_path / "events.jsonl")
    monitor = SystemMonitor(env={"PATH": ""})
    sampler = SystemSampler(writer=writer, metrics=metrics, monitor=monitor)
    sampler.sample_once(monitor)  # loading data: no step yet
    assert metrics.series("sys/cpu_percent") is None and sampler.samples == 0
    metrics.record(0, 7, {"loss": 1.0}, time.time())  # a resumed run's first step
    sampler.sample_once(monitor)
    steps = metrics.series("sys/cpu_percent")
    assert steps is not None and steps.arrays()[0].tolist() == [7, 7]
    sampler.stop()
    writer.close()
    rows = _rows(tmp_path)
    assert [r["step"] for r in rows if r["type"] == "system"] == [7, 7]
    # A run that ends before its first step keeps its start-up samples, at step 0.
    other = EventWriter(tmp_path / "other" / "events.jsonl")
    early = SystemSampler(writer=other, metrics=MetricStore(), monitor=monitor)
    early.sample_once(monitor)
    early.stop()
    other.close()
    assert [r["step"] for r in _rows(tmp_path / "other") if r["type"] == "system"] == [0]


def test_system_rows_are_read_back_without_moving_the_step(tmp_path: Path) -> None:
    (tmp_path / "events.jsonl").write_text(
        '{"type": "metrics", "rank": 0, "step": 4, "time": 1.0, "values": {"loss": 0.5}}\n'
        '{"type": "system", "step": 3, "time": 2.0, "values": {"sys/cpu_percent": 12.5, "sys/rss_mb": 800.0}}\n'
        '{"type": "system", "step": "bad", "time": 3.0, "values": {}}\n'
    )
    tailer = EventTailer(tmp_path)
    assert tailer.poll() == []
    assert tailer.metrics.last_step == {0: 4} and tailer.metrics.samples == 1
    cpu = tailer.metrics.series("sys/cpu_percent")
    assert cpu is not None and cpu.last() == (3, 12.5)
    assert tailer.bad_lines == 1
    assert tail_last_step(tmp_path) == 4  # the loop's step, not a system row's


# --------------------------------------------------------------------------- GPUs (fake drivers)


@pytest.fixture
def fake_nvml(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    yield install_fake_nvml(monkeypatch)


def test_gpu_series_through_nvml(fake_nvml: types.ModuleType, tmp_path: Path) -> None:
    metrics = MetricStore()
    writer = EventWriter(tmp_path / "events.jsonl")
    monitor = SystemMonitor(env={"PATH": ""})  # no nvidia-smi either: NVML is the source
    sampler = SystemSampler(writer=writer, metrics=metrics, monitor=monitor)
    metrics.record(0, 12, {"loss": 1.0}, time.time())
    sampler.start()
    _until(lambda: sampler.samples >= 2)
    sampler.stop()
    writer.close()
    latest = metrics.latest()
    assert latest["sys/gpu0/util"] == 87.0
    assert latest["sys/gpu0/mem_used_mb"] == 61234.0 and latest["sys/gpu0/mem_total_mb"] == 143771.0
    assert latest["sys/gpu0/temp_c"] == 64.0 and latest["sys/gpu0/power_w"] == 412.3
    assert latest["sys/gpu1/util"] == 0.0 and latest["sys/gpu1/temp_c"] == 31.0
    assert "sys/gpu1/power_w" not in latest  # not reported: left out, never a made-up 0
    assert [gpu.power_limit_w for gpu in monitor.sample().gpus] == [700.0, 700.0]
    assert gpu_indices(latest) == [0, 1]
    assert fake_nvml.calls["init"] == 1  # type: ignore[attr-defined]  # once per process, not per sample
    rows = [r for r in _rows(tmp_path) if r["type"] == "system"]
    assert rows and rows[0]["step"] == 12 and rows[0]["values"]["sys/gpu0/mem_total_mb"] == 143771.0


NVIDIA_SMI = """#!/bin/sh
# What nvidia-smi --query-gpu=index,name,memory.total,memory.used,utilization.gpu,temperature.gpu,power.draw,
# power.limit --format=csv,noheader,nounits prints on an H200 machine with one busy and one idle GPU.
echo "0, NVIDIA H200, 143771, 61234, 87, 64, 412.35, 700.00"
echo "1, NVIDIA H200, 143771, 1, 0, 31, [N/A], 700.00"
"""


def test_gpu_series_through_nvidia_smi_when_nvml_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "pynvml", None)  # import pynvml raises ImportError
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    smi = bin_dir / "nvidia-smi"
    smi.write_text(NVIDIA_SMI)
    smi.chmod(smi.stat().st_mode | stat.S_IXUSR)
    monitor = SystemMonitor(env={"PATH": str(bin_dir)}, gpu_timeout_s=30)
    values = system_values(monitor.sample(), 100 * MIB)
    assert values["sys/gpu0/util"] == 87 and values["sys/gpu0/mem_total_mb"] == 143771
    assert values["sys/gpu0/temp_c"] == 64 and values["sys/gpu0/power_w"] == 412.4  # rounded to 0.1 W
    assert values["sys/gpu1/mem_used_mb"] == 1 and "sys/gpu1/power_w" not in values
    assert values["sys/rss_mb"] == 100.0
    # The limit is for the environment screen's live panel, not a recorded series.
    assert [gpu.power_limit_w for gpu in monitor.sample().gpus] == [700.0, 700.0]
    assert not [name for name in values if "limit" in name]


def test_no_gpu_means_no_gpu_series(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pynvml", None)
    values = system_values(SystemMonitor(env={"PATH": ""}).sample(), 50 * MIB)
    assert set(values) == {"sys/cpu_percent", "sys/rss_mb"}


def test_usage_query_parser_keeps_what_a_gpu_does_not_report_as_none() -> None:
    rows = parse_query_csv(
        "0, NVIDIA H200, 143771, 61234, 87, 64, 412.35, 700.00\n"
        "1, NVIDIA H200, 143771, [N/A], [N/A], [N/A], [N/A], [N/A]\n",
        USAGE_FIELDS,
    )
    assert rows[0]["temperature_c"] == 64 and rows[0]["power_w"] == 412.35
    assert rows[0]["power_limit_w"] == 700.0
    assert rows[1]["memory_used_mib"] is None and rows[1]["power_w"] is None
    assert rows[1]["power_limit_w"] is None


# --------------------------------------------------------------------------- launched runs

TREE = """
import subprocess, sys, time, pathlib
stop = pathlib.Path(sys.argv[1])
if len(sys.argv) > 2:  # a "rank": holds 96 MiB until told to stop
    ballast = bytearray(96 * 2**20)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    pathlib.Path(sys.argv[2]).touch()
    while not stop.exists():
        time.sleep(0.05)
    sys.exit(0)
ready = stop.with_name("ready")
rank = subprocess.Popen([sys.executable, __file__, str(stop), str(ready)])
while not stop.exists():
    time.sleep(0.05)
rank.wait()
"""


def test_a_launched_runs_rss_counts_every_process_of_its_tree(
    store: RunStore, tmp_path: Path, subprocess_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(system_sampler, "EARLY_HOLD_S", 0.0)  # this script reports no steps: live at once
    script = tmp_path / "tree.py"
    script.write_text(textwrap.dedent(TREE))
    stop = tmp_path / "stop"
    job = start_launched(store, "tree", [sys.executable, str(script), str(stop)], env=subprocess_env)
    try:
        _until(lambda: (tmp_path / "ready").exists())
        # The launched process alone is a few MiB; its child (a "rank") holds 96 MiB more.
        _until(lambda: (job.metrics.latest().get("sys/rss_mb") or 0) > 96)
    finally:
        stop.touch()
    assert job.wait(60) and job.status == "finished", job.result
    rows = [r for r in _rows(job.run_dir) if r["type"] == "system"]
    assert rows and all(r["step"] == 0 for r in rows)  # no step was ever logged
    assert job.sampler is not None
    job.sampler.join(10)
    assert not job.sampler.running
