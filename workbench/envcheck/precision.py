"""What this machine can do in reduced precision: CPU instruction flags and a GPU's compute capability.

Pure functions over facts, so every branch is tested on any machine: the CPU side reads the ``flags``
line of ``/proc/cpuinfo`` (:func:`workbench.envcheck.probes.parse_cpuinfo`), the GPU side reads the
driver probe's GPU list (``{"index", "name", "compute_capability": "9.0"}``, as ``check --json`` holds
it under ``facts.driver.data.gpus``) or the same shape built from Paddle's own device query.

int8 is faster than float32 on a CPU only where the CPU multiplies int8 in one instruction: AVX-512
VNNI or AVX-VNNI (``vpdpbusd``, four int8 products summed into int32) or AMX tiles (``amx_int8``).
Without them an int8 kernel widens the bytes to 16 or 32 bits first and the quantize/dequantize steps
come on top, so it is no faster and often slower. bfloat16 likewise needs ``avx512_bf16`` or
``amx_bf16``. On a GPU, tensor cores decide: fp16 from compute capability 7.0, int8 from 7.2/7.5, bf16
from 8.0, fp8 from 8.9.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.envcheck.wheels import parse_capability

CPU_PRECISION_FLAGS = (
    "avx2",
    "avx512f",
    "avx512_vnni",
    "avx_vnni",
    "avx512_bf16",
    "amx_bf16",
    "amx_int8",
    "amx_tile",
)
"""The ``/proc/cpuinfo`` flags that decide reduced-precision speed on x86 (reported in this order)."""

INT8_CPU_FLAGS = ("amx_int8", "avx512_vnni", "avx_vnni")
BF16_CPU_FLAGS = ("amx_bf16", "avx512_bf16")


@dataclass(frozen=True)
class PrecisionSupport:
    """One device's reduced-precision support and the evidence it rests on."""

    device: str
    """``cpu`` or ``gpu:<index>``."""
    name: str | None
    int8: bool
    """Hardware int8 products (VNNI/AMX on a CPU, int8 tensor cores or DP4A on a GPU)."""
    bf16: bool
    fp16: bool
    """Fast fp16 (tensor cores on a GPU; never claimed for a CPU here)."""
    fp8: bool = False
    int8_via: str | None = None
    """The instruction or unit that makes int8 fast (``amx_int8``, ``avx512_vnni``, ``tensor cores``…)."""
    bf16_via: str | None = None
    evidence: list[str] = field(default_factory=list)
    """The flags or the compute capability read."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "name": self.name,
            "int8": self.int8,
            "bf16": self.bf16,
            "fp16": self.fp16,
            "fp8": self.fp8,
            "int8_via": self.int8_via,
            "bf16_via": self.bf16_via,
            "evidence": list(self.evidence),
        }


def cpu_support(flags: Iterable[str], name: str | None = None) -> PrecisionSupport:
    """The CPU's support from its flags (``/proc/cpuinfo``'s ``flags`` line, split)."""
    have = set(flags)
    int8_via = next((f for f in INT8_CPU_FLAGS if f in have), None)
    bf16_via = next((f for f in BF16_CPU_FLAGS if f in have), None)
    evidence = [f for f in CPU_PRECISION_FLAGS if f in have]
    return PrecisionSupport(
        device="cpu",
        name=name,
        int8=int8_via is not None,
        bf16=bf16_via is not None,
        fp16=False,
        int8_via=int8_via,
        bf16_via=bf16_via,
        evidence=evidence,
    )


def cpu_support_from_cpuinfo(text: str) -> PrecisionSupport:
    """:func:`cpu_support` of ``/proc/cpuinfo`` text (the first processor's model name and flags)."""
    from workbench.envcheck.probes import parse_cpuinfo

    name, flags = parse_cpuinfo(text)
    return cpu_support(flags, name)


def this_cpu(cpuinfo: Path = Path("/proc/cpuinfo")) -> PrecisionSupport:
    """This machine's CPU (no flags known where ``/proc/cpuinfo`` cannot be read: nothing claimed)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return cpu_support(())
    return cpu_support_from_cpuinfo(text)


def gpu_support(gpu: Mapping[str, Any]) -> PrecisionSupport | None:
    """One GPU's support from its compute capability (``None`` when the capability is unknown)."""
    capability = parse_capability(gpu.get("compute_capability") or gpu.get("capability"))
    if capability is None:
        return None
    tensor_cores = capability >= (7, 0)
    int8_tc = capability >= (7, 5) or capability == (7, 2)
    int8_via = "tensor cores" if int8_tc else ("dp4a" if capability >= (6, 1) else None)
    return PrecisionSupport(
        device=f"gpu:{gpu.get('index', 0)}",
        name=gpu.get("name"),
        int8=int8_via is not None,
        bf16=capability >= (8, 0),
        fp16=tensor_cores,
        fp8=capability >= (8, 9),
        int8_via=int8_via,
        bf16_via="tensor cores" if capability >= (8, 0) else None,
        evidence=[f"compute capability {capability[0]}.{capability[1]}"],
    )


def gpus_support(gpus: Sequence[Mapping[str, Any]]) -> list[PrecisionSupport]:
    """:func:`gpu_support` of every GPU whose capability is known."""
    return [s for s in (gpu_support(g) for g in gpus) if s is not None]


def gpus_from_facts(facts: Any) -> list[Mapping[str, Any]]:
    """The GPU list of an environment check's facts (:class:`~workbench.envcheck.facts.Facts`): the
    driver probe's, else Paddle's."""
    gpus = list(facts.value("driver", "gpus", []) or [])
    return gpus or list(facts.value("paddle", "gpus", []) or [])


def gpus_from_paddle(paddle: Any) -> list[dict[str, Any]]:
    """The CUDA devices Paddle sees, in the driver probe's shape (empty on a CPU build or machine)."""
    from workbench.training.runtime import cuda_available

    if not cuda_available(paddle):
        return []
    found: list[dict[str, Any]] = []
    try:
        for index in range(int(paddle.device.cuda.device_count())):
            major, minor = paddle.device.cuda.get_device_capability(index)
            name = str(paddle.device.cuda.get_device_name(index))
            found.append({"index": index, "name": name, "compute_capability": f"{major}.{minor}"})
    except Exception:  # noqa: BLE001 - a device that cannot be asked claims nothing
        return found
    return found
