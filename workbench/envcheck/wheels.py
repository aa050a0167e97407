"""What we know about Paddle's published wheels, turned into exact ``pip`` commands.

Rules need one answer to "what do I type": the distribution name, the version, and the package index
of the right CUDA variant. The table of variants is data here, so a new CUDA build is a one-line change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# The version the workbench is developed and tested against (docs/paddle-notes.md).
DEFAULT_PADDLE_VERSION = "3.3.1"
PADDLE_INDEX = "https://www.paddlepaddle.org.cn/packages/stable/{variant}/"
# CUDA builds of paddlepaddle-gpu 3.x on the index above (cu118, cu126, cu129), oldest first.
CUDA_VARIANTS: tuple[tuple[int, int], ...] = ((11, 8), (12, 6), (12, 9))
# The first CUDA release that can build kernels for a compute capability newer than the wheels' lists.
MIN_CUDA_FOR_CAPABILITY: dict[tuple[int, int], tuple[int, int]] = {
    (8, 9): (11, 8),
    (9, 0): (11, 8),
    (10, 0): (12, 8),
    (12, 0): (12, 8),
}
PIP = "python -m pip"
CPU_DIST = "paddlepaddle"
GPU_DIST = "paddlepaddle-gpu"

_NUMBERS = re.compile(r"\d+")


def parse_version(text: object) -> tuple[int, ...] | None:
    """``"12.6"`` → ``(12, 6)``, ``"3.3.1"`` → ``(3, 3, 1)``; Paddle's ``"False"``/``"None"``/``"0"`` → ``None``."""
    if text is None or isinstance(text, bool):
        return None
    value = str(text).strip()
    if value in ("", "False", "None", "0", "OFF"):
        return None
    match = re.match(r"\d+(?:\.\d+)*", value)
    if match is None:
        return None
    return tuple(int(part) for part in match.group(0).split("."))


def format_version(version: Sequence[int]) -> str:
    return ".".join(str(part) for part in version)


def variant_name(cuda: Sequence[int]) -> str:
    """``(11, 8)`` → ``"cu118"``: the index directory of that CUDA build."""
    return f"cu{cuda[0]}{cuda[1]}"


def newest_variant_for_driver(driver_cuda: Sequence[int]) -> tuple[int, int] | None:
    """The newest published CUDA build that a driver supporting ``driver_cuda`` can run."""
    usable = [v for v in CUDA_VARIANTS if v <= tuple(driver_cuda[:2])]
    return usable[-1] if usable else None


def oldest_variant_at_least(cuda: Sequence[int]) -> tuple[int, int] | None:
    """The oldest published CUDA build that is at least ``cuda`` (for GPUs newer than a wheel)."""
    for variant in CUDA_VARIANTS:
        if variant >= tuple(cuda[:2]):
            return variant
    return None


def cpu_install(version: str = DEFAULT_PADDLE_VERSION) -> str:
    return f"{PIP} install {CPU_DIST}=={version} -i {PADDLE_INDEX.format(variant='cpu')}"


def gpu_install(version: str, cuda: Sequence[int]) -> str:
    return f"{PIP} install {GPU_DIST}=={version} -i {PADDLE_INDEX.format(variant=variant_name(cuda))}"


def uninstall(names: Iterable[str]) -> str:
    return f"{PIP} uninstall -y {' '.join(names)}"


def parse_archs(archs: object) -> list[int]:
    """Paddle's ``cuda_archs()`` (``[61, 70, 80]``, ``"sm_80;sm_86"``, ``['80']``…) as sorted ints."""
    if archs is None or isinstance(archs, bool):
        return []
    items: Iterable[object] = archs if isinstance(archs, list | tuple) else _NUMBERS.findall(str(archs))
    found: set[int] = set()
    for item in items:
        digits = "".join(_NUMBERS.findall(str(item)))
        if digits:
            found.add(int(digits))
    return sorted(found)


def parse_capability(value: object) -> tuple[int, int] | None:
    """``"8.9"`` or ``[8, 9]`` → ``(8, 9)``."""
    if isinstance(value, list | tuple) and len(value) == 2:
        try:
            return int(value[0]), int(value[1])
        except (TypeError, ValueError):
            return None
    parsed = parse_version(value)
    return (parsed[0], parsed[1]) if parsed is not None and len(parsed) >= 2 else None


def capability_covered(capability: tuple[int, int], archs: Iterable[int]) -> bool:
    """Whether kernels built for ``archs`` run on a GPU of ``capability``.

    Binary code for ``sm_XY`` runs on any GPU of the same major version with minor ≥ ``Y`` (CUDA's
    binary compatibility rule), so ``sm_80`` kernels serve an ``8.9`` GPU but not a ``9.0`` one.
    """
    major, minor = capability
    return any(arch // 10 == major and arch % 10 <= minor for arch in archs)
