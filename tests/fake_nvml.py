"""A stand-in for ``nvidia-ml-py`` (``import pynvml``), the one part of the GPU path that cannot exist on a
CPU machine, fed with what an H200 machine answers. Used by the system sampler's tests and the
environment screen's live panel tests (one fake for both, like the one reader they share)."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from typing import Any

import pytest

import workbench.envcheck.monitor as monitor_module

MIB = 2**20
H200_MIB = 143771
"""An H200's memory as NVML and ``nvidia-smi`` report it, in MiB."""
H200_GPUS: tuple[dict[str, Any], ...] = (
    {"used": 61234, "util": 87, "temp": 64, "power_mw": 412_345},
    {"used": 1, "util": 0, "temp": 31, "power_mw": None},
)
"""GPU 0 busy, GPU 1 idle and not reporting power (NVML's "not supported")."""


class NVMLError(Exception):
    pass


def fake_pynvml(gpus: Sequence[dict[str, Any]] = H200_GPUS) -> types.ModuleType:
    """``pynvml`` answering for ``gpus``: per GPU ``used`` (MiB), ``util`` (%), ``temp`` (°C) and
    ``power_mw`` (``None``: not supported); every GPU an H200 with a 700 W power limit."""
    nvml = types.ModuleType("pynvml")
    gpus = list(gpus)
    calls = {"init": 0}

    def init() -> None:
        calls["init"] += 1

    def memory(handle: int) -> Any:
        return types.SimpleNamespace(total=H200_MIB * MIB, used=gpus[handle]["used"] * MIB, free=0)

    def power(handle: int) -> int:
        value = gpus[handle]["power_mw"]
        if value is None:
            raise NVMLError("Not Supported")
        return int(value)

    nvml.NVML_TEMPERATURE_GPU = 0  # type: ignore[attr-defined]
    nvml.nvmlInit = init  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetCount = lambda: len(gpus)  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetHandleByIndex = lambda index: index  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetName = lambda handle: b"NVIDIA H200"  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetMemoryInfo = memory  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetUtilizationRates = lambda h: types.SimpleNamespace(gpu=gpus[h]["util"], memory=40)  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetTemperature = lambda h, sensor: gpus[h]["temp"]  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetPowerUsage = power  # type: ignore[attr-defined]
    nvml.nvmlDeviceGetPowerManagementLimit = lambda h: 700_000  # type: ignore[attr-defined]
    nvml.calls = calls  # type: ignore[attr-defined]
    return nvml


def install_fake_nvml(
    monkeypatch: pytest.MonkeyPatch, gpus: Sequence[dict[str, Any]] = H200_GPUS
) -> types.ModuleType:
    """Make ``import pynvml`` find the fake for this test, with NVML not yet initialised."""
    nvml = fake_pynvml(gpus)
    monkeypatch.setitem(sys.modules, "pynvml", nvml)
    monkeypatch.setattr(monitor_module, "_nvml_started", False)
    return nvml
