"""Ask ``nvidia-smi`` about the GPUs: the parser is pure (tested on captured text), the call is bounded.

``nvidia-smi`` is what the Paddle launcher itself uses, it ships with every driver, and — unlike NVML —
needs no Python package. A wedged driver makes it hang, so every call has a time-out.
"""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Mapping
from typing import Any

from workbench.envcheck.isolate import ProbeError, run_command

QUERY_FIELDS = (
    "index",
    "name",
    "memory.total",
    "memory.used",
    "utilization.gpu",
    "driver_version",
    "pci.bus_id",
    "compute_cap",
)
"""What the environment check asks (once)."""
USAGE_FIELDS = (
    "index",
    "name",
    "memory.total",
    "memory.used",
    "utilization.gpu",
    "temperature.gpu",
    "power.draw",
    "power.limit",
)
"""What the live system sampler asks (once a second, :func:`query_gpu_usage`)."""
_KEYS = {
    "index": "index",
    "name": "name",
    "memory.total": "memory_total_mib",
    "memory.used": "memory_used_mib",
    "utilization.gpu": "utilization_pct",
    "driver_version": "driver_version",
    "pci.bus_id": "pci_bus_id",
    "compute_cap": "compute_capability",
    "temperature.gpu": "temperature_c",
    "power.draw": "power_w",
    "power.limit": "power_limit_w",
}
_INTEGERS = ("index", "memory_total_mib", "memory_used_mib", "utilization_pct", "temperature_c")
_CUDA_VERSION = re.compile(r"CUDA Version:\s*([0-9]+\.[0-9]+)")


def _number(text: str) -> int | None:
    value = _float(text)
    return None if value is None else int(value)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None  # "[N/A]", "[Not Supported]"


def parse_query_csv(text: str, fields: tuple[str, ...] = QUERY_FIELDS) -> list[dict[str, Any]]:
    """Rows of ``--query-gpu=... --format=csv,noheader,nounits`` as dicts with our key names."""
    keys = [_KEYS[f] for f in fields]
    gpus: list[dict[str, Any]] = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) != len(keys):
            continue
        row: dict[str, Any] = dict(zip(keys, cells, strict=True))
        for key in _INTEGERS:
            if key in row:
                row[key] = _number(row[key])
        for key in ("power_w", "power_limit_w"):
            if key in row:
                row[key] = _float(row[key])
        if row.get("compute_capability") in ("[N/A]", ""):
            row["compute_capability"] = None
        gpus.append(row)
    return gpus


def parse_cuda_version(banner: str) -> str | None:
    """The driver's CUDA version from plain ``nvidia-smi`` output (``CUDA Version: 12.4``)."""
    match = _CUDA_VERSION.search(banner)
    return match.group(1) if match else None


def find_nvidia_smi(env: Mapping[str, str]) -> str | None:
    return shutil.which("nvidia-smi", path=env.get("PATH"))


def query_nvidia_smi(
    env: Mapping[str, str],
    *,
    timeout_s: float,
    cancel: threading.Event | None = None,
    with_cuda_version: bool = True,
) -> dict[str, Any]:
    """GPUs and driver facts from ``nvidia-smi``; ``{"found": False}`` when it is not on ``PATH``.

    Raises :class:`~workbench.envcheck.isolate.ProbeTimeout` when it hangs (a wedged driver).
    """
    exe = find_nvidia_smi(env)
    if exe is None:
        return {"found": False}
    deadline = time.monotonic() + timeout_s

    def call(*args: str) -> tuple[int, str, str]:
        # One budget for every call: a hang anywhere ends the whole query at ``timeout_s``.
        remaining = max(0.1, deadline - time.monotonic())
        return run_command([exe, *args], timeout_s=remaining, env=env, cancel=cancel)

    result: dict[str, Any] = {"found": True, "path": exe}
    fields: tuple[str, ...] = QUERY_FIELDS
    code, out, err = call(f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits")
    if code != 0 and "compute_cap" in (out + err):
        # Drivers before ~510 do not know the compute_cap field: ask again without it.
        fields = QUERY_FIELDS[:-1]
        code, out, err = call(f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits")
    if code != 0:
        result["error"] = (err or out).strip()[-500:] or f"exit code {code}"
        return result
    gpus = parse_query_csv(out, fields)
    result["gpus"] = gpus
    if gpus:
        result["driver_version"] = gpus[0].get("driver_version")
    if with_cuda_version:
        try:
            _, banner, _ = call()
        except ProbeError:
            banner = ""
        result["cuda_driver_version"] = parse_cuda_version(banner)
    return result


def query_gpu_usage(env: Mapping[str, str], *, timeout_s: float) -> list[dict[str, Any]]:
    """Every GPU's live usage (:data:`USAGE_FIELDS`) from one bounded ``nvidia-smi`` call.

    ``[]`` when ``nvidia-smi`` is not on ``PATH`` or fails; raises
    :class:`~workbench.envcheck.isolate.ProbeTimeout` when it hangs (a wedged driver).
    """
    exe = find_nvidia_smi(env)
    if exe is None:
        return []
    code, out, _ = run_command(
        [exe, f"--query-gpu={','.join(USAGE_FIELDS)}", "--format=csv,noheader,nounits"],
        timeout_s=timeout_s,
        env=env,
    )
    return parse_query_csv(out, USAGE_FIELDS) if code == 0 else []
