"""Probes: small functions that each collect one group of facts about this machine.

Anything that imports Paddle or touches the GPU stack runs in a child process (see
:mod:`workbench.envcheck.isolate`) under the probe's time limit; only cheap, safe reads (environment
variables, ``psutil``, ``/proc/cpuinfo``) run in our own process. A probe returns plain data; whether
that data is good news is for the rules to say.

:class:`ProbeContext` carries what a probe may depend on — the interpreter to ask, its environment,
the workspace, the time limit and the cancel flag — so tests can point the probes at a fake ``paddle``
by changing ``PYTHONPATH`` in ``env`` without touching ours.
"""

from __future__ import annotations

import glob
import os
import platform
import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from workbench.envcheck import scripts
from workbench.envcheck.facts import Facts
from workbench.envcheck.isolate import ProbeError, run_python
from workbench.envcheck.nvidia import query_nvidia_smi
from workbench.envcheck.precision import CPU_PRECISION_FLAGS
from workbench.envcheck.shared import SharedChild
from workbench.runs import resolve_workspace
from workbench.startenv import startup_environment


@dataclass(frozen=True)
class ProbeContext:
    """Where and how probes run. The engine gives each probe a copy with its own ``timeout_s``."""

    python: str = sys.executable
    env: Mapping[str, str] = field(default_factory=startup_environment)
    cwd: str | None = None
    workspace: Path = field(default_factory=resolve_workspace)
    timeout_s: float = 60.0
    cancel: threading.Event = field(default_factory=threading.Event)
    background: bool = False
    """Run the probe children at a low CPU priority (:data:`workbench.isolate.BACKGROUND_NICE`): the TUI
    sets it, so checks started by visiting a screen leave the CPU to the UI and to a run training."""
    shared: SharedChild | None = None
    """The child the Paddle probes of this check share (the engine sets it): a script it covers runs
    there, not in a child of its own."""

    def run_script(self, code: str) -> dict[str, Any]:
        """Run probe ``code`` in a child of :attr:`python` within :attr:`timeout_s` (the shared child's
        part of it when :attr:`shared` covers ``code``)."""
        if self.shared is not None and self.shared.covers(code):
            return self.shared.run(code, timeout_s=self.timeout_s, cancel=self.cancel)
        return run_python(
            code,
            python=self.python,
            env=self.env,
            timeout_s=self.timeout_s,
            cwd=self.cwd,
            cancel=self.cancel,
            background=self.background,
        )


ProbeFunction = Callable[[ProbeContext, Facts], Mapping[str, Any]]


@dataclass(frozen=True)
class Probe:
    """A named fact collector. ``after`` lists probes whose facts it needs (it starts when they end)."""

    name: str
    run: ProbeFunction
    timeout_s: float = 30.0
    after: tuple[str, ...] = ()
    shared_script: str | None = None
    """The child script ``run`` runs, for a probe that imports Paddle and nothing riskier: the probes of
    one check that have one run their scripts in turn in one child (:class:`SharedChild`)."""


# --------------------------------------------------------------------------- in-process probes

# Variables that change how Paddle, CUDA, NCCL or OpenMP behave (issue 3, "environment that changes
# behaviour"), plus the ones that decide which Python packages and libraries are found.
ENV_NAMES = frozenset(
    {
        "CUDA_VISIBLE_DEVICES",
        "CUDA_DEVICE_ORDER",
        "CUDA_HOME",
        "CUDA_PATH",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "PYTHONPATH",
        "PYTHONHOME",
        "VIRTUAL_ENV",
        "CONDA_PREFIX",
        "CONDA_DEFAULT_ENV",
        "XPU_VISIBLE_DEVICES",
        "HIP_VISIBLE_DEVICES",
    }
)
ENV_PREFIXES = ("FLAGS_", "PADDLE_", "GLOG_", "NCCL_", "GLOO_")
_SECRET = re.compile(r"TOKEN|SECRET|PASSW|CREDENTIAL|API_KEY|ACCESS_KEY", re.IGNORECASE)
REDACTED = "<redacted>"


def relevant_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``env`` that change Paddle's behaviour, sorted; secrets are redacted."""
    picked = {
        name: (REDACTED if _SECRET.search(name) else value)
        for name, value in env.items()
        if name in ENV_NAMES or name.startswith(ENV_PREFIXES)
    }
    return dict(sorted(picked.items()))


def probe_environment(ctx: ProbeContext, facts: Facts) -> dict[str, Any]:
    return {"variables": relevant_environment(ctx.env)}


def parse_cpuinfo(text: str) -> tuple[str | None, set[str]]:
    """The model name and the flags of the first processor in ``/proc/cpuinfo`` text."""
    model: str | None = None
    flags: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "model name" and model is None:
            model = value.strip()
        elif key in ("flags", "Features") and not flags:
            flags = set(value.split())
    return model, flags


def _disk(path: Path) -> dict[str, Any]:
    """Usage of the file system holding ``path`` (or its nearest existing parent: it may not exist yet)."""
    probe = path.expanduser().absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    usage = shutil.disk_usage(probe)
    return {
        "path": str(path),
        "measured_at": str(probe),
        "total_bytes": usage.total,
        "free_bytes": usage.free,
    }


def _os_release() -> str | None:
    try:
        text = Path("/etc/os-release").read_text(encoding="utf-8")
    except OSError:
        return None
    match = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', text, re.MULTILINE)
    return match.group(1) if match else None


def probe_system(ctx: ProbeContext, facts: Facts) -> dict[str, Any]:
    try:
        model, flags = parse_cpuinfo(Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        model, flags = platform.processor() or None, set()
    memory = psutil.virtual_memory()
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    shm: dict[str, Any] | None = None
    if os.path.isdir("/dev/shm"):
        usage = shutil.disk_usage("/dev/shm")
        shm = {"total_bytes": usage.total, "free_bytes": usage.free}
    libc = platform.libc_ver()
    return {
        "os": platform.system(),
        "os_release": _os_release(),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "libc": f"{libc[0]} {libc[1]}".strip() or None,
        "cpu_model": model,
        "cpu_logical": psutil.cpu_count(),
        "cpu_physical": psutil.cpu_count(logical=False),
        "cpu_usable": usable,
        # The reduced-precision flags (workbench.envcheck.precision) decide whether int8/bf16 can pay off.
        "cpu_flags": sorted(flags & {"avx", "fma", "sse4_2", *CPU_PRECISION_FLAGS}),
        "memory_total_bytes": memory.total,
        "memory_available_bytes": memory.available,
        "shm": shm,
        "workspace_disk": _disk(ctx.workspace),
    }


# --------------------------------------------------------------------------- probes in child processes


def probe_interpreter(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    return ctx.run_script(scripts.INTERPRETER)


def probe_paddle(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    return ctx.run_script(scripts.PADDLE)


def probe_tensor_op(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    return ctx.run_script(scripts.TENSOR_OP)


def _run_check_stage(stage: str) -> ProbeFunction:
    def run(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
        return ctx.run_script(scripts.run_check_stage(stage))

    run.__name__ = f"probe_run_check_{stage}"
    return run


def probe_run_check_parallel(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    """The multi-device stage runs only where there is more than one device to run it on."""
    paddle = facts.data("paddle")
    if not paddle.get("import_ok"):
        return {"skipped": True, "reason": "import"}
    compiled = paddle.get("compiled_with") or {}
    if not (
        compiled.get("cuda")
        or compiled.get("rocm")
        or compiled.get("xpu")
        or paddle.get("custom_device_types")
    ):
        return {"skipped": True, "reason": "cpu", "device": "CPU", "device_count": 1}
    if (compiled.get("cuda") or compiled.get("rocm")) and int(paddle.get("gpu_count") or 0) < 2:
        return {
            "skipped": True,
            "reason": "one_device",
            "device": "GPU",
            "device_count": paddle.get("gpu_count"),
        }
    return ctx.run_script(scripts.run_check_stage("parallel"))


def merge_driver_facts(
    nvml: Mapping[str, Any] | None,
    libcuda: Mapping[str, Any] | None,
    smi: Mapping[str, Any] | None,
    device_nodes: Iterable[str],
) -> dict[str, Any]:
    """One view of the driver from three sources: NVML, then ``nvidia-smi``, then ``libcuda`` via ctypes."""
    nvml, libcuda, smi = dict(nvml or {}), dict(libcuda or {}), dict(smi or {})
    gpus: list[dict[str, Any]] = []
    source: str | None = None
    for name, facts in (("nvml", nvml), ("nvidia-smi", smi), ("libcuda", libcuda)):
        if facts.get("gpus"):
            gpus = [dict(g) for g in facts["gpus"]]
            source = name
            break
    # Fill what the first source lacked (old nvidia-smi: no compute capability) from libcuda.
    by_index = {g.get("index"): g for g in libcuda.get("gpus") or []}
    for gpu in gpus:
        extra = by_index.get(gpu.get("index"), {})
        for key in ("compute_capability", "memory_total_mib"):
            if gpu.get(key) is None and extra.get(key) is not None:
                gpu[key] = extra[key]
    driver_version = nvml.get("driver_version") or smi.get("driver_version")
    cuda = (
        nvml.get("cuda_driver_version")
        or libcuda.get("cuda_driver_version")
        or smi.get("cuda_driver_version")
    )
    if source is None and (driver_version or cuda):
        source = (
            "nvml"
            if nvml.get("driver_version")
            else ("nvidia-smi" if smi.get("driver_version") else "libcuda")
        )
    return {
        "source": source,
        "driver_version": driver_version,
        "cuda_driver_version": cuda,
        "gpus": gpus,
        "device_nodes": sorted(device_nodes),
        "nvml": nvml or None,
        "libcuda": libcuda or None,
        "nvidia_smi": smi or None,
    }


def probe_driver(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    child = ctx.run_script(scripts.DRIVER)
    try:
        smi = query_nvidia_smi(ctx.env, timeout_s=ctx.timeout_s, cancel=ctx.cancel)
    except FileNotFoundError:
        smi = {"found": False}
    nodes = glob.glob("/dev/nvidia[0-9]*")
    return merge_driver_facts(child.get("nvml"), child.get("libcuda"), smi, nodes)


_GPU_LIB = re.compile(r"^(lib(?:cudnn|cublas|cublasLt|cudart|nccl|cuda)\.so)(?:\.[0-9]+)*$")


def scan_library_path(value: str | None, listdir: Callable[[str], list[str]] = os.listdir) -> dict[str, Any]:
    """GPU libraries on ``LD_LIBRARY_PATH``: which directory holds which, duplicates, ``stubs`` entries.

    A library found in two directories is loaded from whichever comes first — often not the one the
    user meant; a CUDA ``stubs`` directory shadows the real ``libcuda.so.1`` with a driver stub.
    """
    dirs = [d for d in (value or "").split(os.pathsep) if d]
    found: dict[str, list[str]] = {}
    missing: list[str] = []
    for directory in dirs:
        try:
            names = listdir(directory)
        except OSError:
            missing.append(directory)
            continue
        for name in names:
            match = _GPU_LIB.match(name)
            if match:
                holders = found.setdefault(match.group(1), [])
                if directory not in holders:
                    holders.append(directory)
    duplicates = {lib: holders for lib, holders in sorted(found.items()) if len(holders) > 1}
    stubs = [d for d in dirs if os.path.basename(os.path.normpath(d)) == "stubs"]
    return {
        "dirs": dirs,
        "missing_dirs": missing,
        "libraries": found,
        "duplicates": duplicates,
        "stubs": stubs,
    }


def probe_libraries(ctx: ProbeContext, facts: Facts) -> Mapping[str, Any]:
    child = ctx.run_script(scripts.LIBRARIES)
    return {**child, "ld_library_path": scan_library_path(ctx.env.get("LD_LIBRARY_PATH"))}


# --------------------------------------------------------------------------- the default set

# The Paddle probes share one child per check (``shared_script``), in this order: ``paddle`` first, so
# its ``import_seconds`` measures the import. The multi-device stage keeps a child of its own (it starts
# processes of its own), as do the probes that load driver libraries.
# Time limits: importing Paddle takes 2-3 s warm but can take much longer cold on network file systems;
# each limit counts from the check's start, so a probe's covers the parts of the shared child before its
# own (the import among them); the run_check stages build and run a small network.
DEFAULT_PROBES: tuple[Probe, ...] = (
    Probe("interpreter", probe_interpreter, timeout_s=20.0),
    Probe("environment", probe_environment, timeout_s=5.0),
    Probe("system", probe_system, timeout_s=10.0),
    Probe("paddle", probe_paddle, timeout_s=60.0, shared_script=scripts.PADDLE),
    Probe("tensor_op", probe_tensor_op, timeout_s=60.0, shared_script=scripts.TENSOR_OP),
    Probe(
        "run_check.static",
        _run_check_stage("static"),
        timeout_s=90.0,
        shared_script=scripts.run_check_stage("static"),
    ),
    Probe(
        "run_check.dygraph",
        _run_check_stage("dygraph"),
        timeout_s=90.0,
        shared_script=scripts.run_check_stage("dygraph"),
    ),
    Probe("run_check.parallel", probe_run_check_parallel, timeout_s=120.0, after=("paddle",)),
    Probe("driver", probe_driver, timeout_s=15.0),
    Probe("libraries", probe_libraries, timeout_s=20.0),
)

__all__ = [
    "DEFAULT_PROBES",
    "Probe",
    "ProbeContext",
    "ProbeError",
    "ProbeFunction",
    "merge_driver_facts",
    "parse_cpuinfo",
    "relevant_environment",
    "scan_library_path",
]
