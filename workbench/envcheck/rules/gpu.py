"""Rules about the GPU stack: driver vs wheel, compute capability vs ``cuda_archs``, visible devices,
and the CUDA libraries Paddle loads at run time.

Every rule here is ``skip`` with a reason on a CPU-only box with the CPU wheel, and every GPU branch is a
pure function of facts, so the branches are tested with hand-made facts on machines without a GPU.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from workbench.envcheck.facts import Facts
from workbench.envcheck.rules import register_area
from workbench.envcheck.rules._base import (
    Rule,
    Verdict,
    build_kind,
    driver_cuda,
    driver_gpus,
    installed_version,
    kv,
    lines,
)
from workbench.envcheck.rules.paddle_install import reinstall_command
from workbench.envcheck.wheels import (
    CPU_DIST,
    CUDA_VARIANTS,
    GPU_DIST,
    MIN_CUDA_FOR_CAPABILITY,
    capability_covered,
    cpu_install,
    format_version,
    gpu_install,
    newest_variant_for_driver,
    oldest_variant_at_least,
    parse_archs,
    parse_capability,
    parse_version,
    uninstall,
)
from workbench.i18n import t

HIDE_ALL_VALUES = frozenset({"", "-1", "none", "nodevfiles", "void"})


def _gpu_line(gpu: Mapping[str, Any]) -> str:
    return t(
        "envcheck.gpu.line",
        index=gpu.get("index"),
        name=gpu.get("name") or "?",
        memory=gpu.get("memory_total_mib") if gpu.get("memory_total_mib") is not None else "?",
        capability=gpu.get("compute_capability") or "?",
    )


def _driver_details(facts: Facts) -> str:
    driver = facts.data("driver")
    return lines(
        kv("envcheck.label.driver_source", driver.get("source")),
        kv("envcheck.label.driver_version", driver.get("driver_version")),
        kv("envcheck.label.driver_cuda", driver.get("cuda_driver_version")),
        kv("envcheck.label.device_nodes", ", ".join(driver.get("device_nodes") or []) or None),
        *[_gpu_line(gpu) for gpu in driver_gpus(facts)],
    )


def _not_cuda(kind: str | None) -> Verdict:
    reason = (
        t("envcheck.gpu.reason.cpu") if kind in ("cpu", None) else t("envcheck.gpu.reason.other", kind=kind)
    )
    return Verdict("skip", reason)


def check_driver(facts: Facts) -> Verdict:
    kind, _ = build_kind(facts)
    driver = facts.data("driver")
    gpus = driver_gpus(facts)
    details = _driver_details(facts)
    version = installed_version(facts)
    if kind in ("rocm", "xpu"):
        return _not_cuda(kind)
    if kind != "cuda":
        if gpus:
            cuda = driver_cuda(facts)
            variant = newest_variant_for_driver(cuda) if cuda else None
            fix = (
                t(
                    "envcheck.fix.switch_to_gpu",
                    uninstall=uninstall([CPU_DIST]),
                    install=gpu_install(version, variant),
                )
                if variant
                else t("envcheck.fix.driver_too_old_for_any", cuda=format_version(CUDA_VARIANTS[0]))
            )
            return Verdict("warn", t("envcheck.gpu.cpu_wheel_with_gpu", count=len(gpus)), details, fix)
        return Verdict("skip", t("envcheck.gpu.no_gpu_cpu_build"), details)
    if gpus:
        return Verdict(
            "pass",
            t(
                "envcheck.gpu.driver_ok",
                driver=driver.get("driver_version") or "?",
                cuda=driver.get("cuda_driver_version") or "?",
                count=len(gpus),
                names=", ".join(sorted({str(g.get("name")) for g in gpus})),
            ),
            details,
        )
    switch = t("envcheck.fix.switch_to_cpu", uninstall=uninstall([GPU_DIST]), install=cpu_install(version))
    if driver.get("driver_version") or driver.get("cuda_driver_version"):
        return Verdict("fail", t("envcheck.gpu.driver_no_devices"), details, t("envcheck.fix.no_devices"))
    if driver.get("device_nodes"):
        return Verdict(
            "fail", t("envcheck.gpu.driver_not_responding"), details, t("envcheck.fix.driver_not_responding")
        )
    return Verdict("fail", t("envcheck.gpu.gpu_wheel_no_gpu"), details, switch)


def check_cuda_version(facts: Facts) -> Verdict:
    kind, wheel = build_kind(facts)
    if kind != "cuda":
        return _not_cuda(kind)
    driver = driver_cuda(facts)
    if not driver:
        return Verdict("skip", t("envcheck.gpu.cuda_unknown_driver"), _driver_details(facts))
    if not wheel:
        return Verdict("skip", t("envcheck.gpu.cuda_unknown_wheel"), _driver_details(facts))
    wheel_s, driver_s = format_version(wheel[:2]), format_version(driver[:2])
    details = lines(kv("envcheck.label.wheel_cuda", wheel_s), kv("envcheck.label.driver_cuda", driver_s))
    if tuple(driver[:2]) >= tuple(wheel[:2]):
        return Verdict("pass", t("envcheck.gpu.cuda_ok", driver=driver_s, wheel=wheel_s), details)
    variant = newest_variant_for_driver(driver)
    fix = (
        t(
            "envcheck.fix.cuda_wheel_or_driver",
            command=f"{uninstall([GPU_DIST])} && {gpu_install(installed_version(facts), variant)}",
            variant=format_version(variant),
            wheel=wheel_s,
        )
        if variant
        else t("envcheck.fix.driver_upgrade", wheel=wheel_s)
    )
    if driver[0] < wheel[0]:
        return Verdict("fail", t("envcheck.gpu.cuda_too_old", driver=driver_s, wheel=wheel_s), details, fix)
    # Same major version: CUDA's minor-version compatibility runs most code but not PTX JIT kernels.
    return Verdict("warn", t("envcheck.gpu.cuda_minor_older", driver=driver_s, wheel=wheel_s), details, fix)


def _capabilities(facts: Facts) -> list[tuple[Mapping[str, Any], tuple[int, int]]]:
    found: list[tuple[Mapping[str, Any], tuple[int, int]]] = []
    gpus: list[Mapping[str, Any]] = driver_gpus(facts) or list(facts.value("paddle", "gpus", []))
    for gpu in gpus:
        capability = parse_capability(gpu.get("compute_capability") or gpu.get("capability"))
        if capability is not None:
            found.append((gpu, capability))
    return found


def check_compute_capability(facts: Facts) -> Verdict:
    kind, _ = build_kind(facts)
    if kind != "cuda":
        return _not_cuda(kind)
    archs_raw = facts.value("paddle", "cuda_archs")
    if archs_raw is None:
        archs_raw = facts.value("interpreter", "paddle_static_version", {}).get("compiled_cuda_archs")
    archs = parse_archs(archs_raw)
    if not archs:
        return Verdict("skip", t("envcheck.gpu.archs_unknown"))
    gpus = _capabilities(facts)
    if not gpus:
        return Verdict("skip", t("envcheck.gpu.capability_unknown"))
    archs_s = ", ".join(f"sm_{a}" for a in archs)
    details = lines(kv("envcheck.label.cuda_archs", archs_s), *[_gpu_line(g) for g, _ in gpus])
    unsupported = [(g, c) for g, c in gpus if not capability_covered(c, archs)]
    if not unsupported:
        caps = ", ".join(sorted({f"sm_{c[0]}{c[1]}" for _, c in gpus}))
        return Verdict("pass", t("envcheck.gpu.capability_ok", capabilities=caps, archs=archs_s), details)
    gpu, cap = unsupported[0]
    cap_s = f"{cap[0]}.{cap[1]}"
    version = installed_version(facts)
    if cap[0] * 10 + cap[1] > max(archs):
        needed = MIN_CUDA_FOR_CAPABILITY.get(cap, (12, 8))
        variant = oldest_variant_at_least(needed)
        fix = (
            t(
                "envcheck.fix.newer_gpu",
                command=f"{uninstall([GPU_DIST])} && {gpu_install(version, variant)}",
                cuda=format_version(variant),
            )
            if variant
            else t("envcheck.fix.source_build", capability=cap_s)
        )
    else:
        variant = CUDA_VARIANTS[0]
        fix = t(
            "envcheck.fix.older_gpu",
            command=f"{uninstall([GPU_DIST])} && {gpu_install(version, variant)}",
            cuda=format_version(variant),
        )
    return Verdict(
        "fail",
        t(
            "envcheck.gpu.capability_unsupported",
            name=gpu.get("name") or "?",
            capability=cap_s,
            archs=archs_s,
        ),
        details,
        fix,
    )


def _visible_indices(value: str) -> list[int] | None:
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        return None  # GPU UUIDs ("GPU-8f…"): not checked against indices


def check_visible(facts: Facts) -> Verdict:
    kind, _ = build_kind(facts)
    if kind != "cuda":
        return _not_cuda(kind)
    gpus = driver_gpus(facts)
    if not gpus:
        return Verdict("skip", t("envcheck.gpu.visible_no_driver"))
    variables = facts.value("environment", "variables", {})
    visible = variables.get("CUDA_VISIBLE_DEVICES")
    details = lines(
        kv("envcheck.label.cuda_visible_devices", visible),
        kv("envcheck.label.cuda_device_order", variables.get("CUDA_DEVICE_ORDER")),
        kv("envcheck.label.paddle_gpu_count", facts.value("paddle", "gpu_count")),
        *[_gpu_line(gpu) for gpu in gpus],
    )
    if visible is not None and visible.strip().lower() in HIDE_ALL_VALUES:
        return Verdict(
            "fail", t("envcheck.gpu.visible_hidden", value=visible), details, t("envcheck.fix.unset_visible")
        )
    if visible is not None:
        indices = _visible_indices(visible)
        if indices is not None and any(i >= len(gpus) or i < 0 for i in indices):
            good = ",".join(str(i) for i in range(len(gpus)))
            return Verdict(
                "warn",
                t("envcheck.gpu.visible_out_of_range", value=visible, count=len(gpus)),
                details,
                t("envcheck.fix.export", assignment=f"CUDA_VISIBLE_DEVICES={good}"),
            )
    paddle = facts.data("paddle")
    if paddle.get("import_ok") and int(paddle.get("gpu_count") or 0) == 0:
        return Verdict(
            "fail", t("envcheck.gpu.paddle_sees_none", count=len(gpus)), details, t("envcheck.fix.no_devices")
        )
    names = {str(g.get("name")) for g in gpus}
    if len(gpus) > 1 and len(names) > 1 and variables.get("CUDA_DEVICE_ORDER") != "PCI_BUS_ID":
        return Verdict(
            "warn",
            t("envcheck.gpu.device_order"),
            details,
            t("envcheck.fix.export", assignment="CUDA_DEVICE_ORDER=PCI_BUS_ID"),
        )
    count = paddle.get("gpu_count") if paddle.get("import_ok") else len(gpus)
    return Verdict("pass", t("envcheck.gpu.visible_ok", count=count), details)


# Library -> (required for single-GPU work?, how to find the expected major version).
_LIBRARIES: tuple[tuple[str, bool], ...] = (
    ("cudart", True),
    ("cublas", True),
    ("cudnn", True),
    ("nccl", False),
)


def _expected_major(lib: str, facts: Facts, wheel_cuda: tuple[int, ...] | None) -> int | None:
    if lib in ("cudart", "cublas") and wheel_cuda:
        return wheel_cuda[0]
    if lib == "cudnn":
        cudnn = parse_version(facts.value("paddle", "cudnn"))
        if cudnn is None:
            cudnn = parse_version(
                facts.value("interpreter", "paddle_static_version", {}).get("cudnn_version")
            )
        if cudnn:
            return cudnn_major(cudnn[0])
    return None


def cudnn_major(number: int) -> int:
    """The cuDNN major version from the first number Paddle reports: ``9`` of "9.5.1", or decoded from
    cuDNN's integer code — ``major*1000 + minor*100 + patch`` before 9 ("8907" is 8.9.7), ``major*10000 +
    minor*100 + patch`` from 9 on ("90501" is 9.5.1, "100100" would be 10.1.0)."""
    if number >= 10000:
        return number // 10000
    if number >= 1000:
        return number // 1000
    return number


def check_libraries(facts: Facts) -> Verdict:
    kind, wheel_cuda = build_kind(facts)
    if kind != "cuda":
        return _not_cuda(kind)
    libs = dict(facts.value("libraries", "libraries", {}))
    shown = []
    missing_required: list[str] = []
    missing_optional: list[str] = []
    for lib, required in _LIBRARIES:
        entry = dict(libs.get(lib) or {})
        major = _expected_major(lib, facts, wheel_cuda)
        name = str(entry.get("name") or "")
        loaded_major = name.rsplit(".so", 1)[-1].lstrip(".").split(".")[0]
        wrong_major = bool(entry.get("loaded")) and major is not None and loaded_major not in ("", str(major))
        if entry.get("loaded") and not wrong_major:
            shown.append(t("envcheck.libs.loaded", lib=lib, path=entry.get("path")))
            continue
        label = f"{lib} {major}" if major is not None else lib
        shown.append(t("envcheck.libs.missing", lib=label, error=entry.get("error") or name or "?"))
        (missing_required if required else missing_optional).append(label)
    details = lines(*shown)
    if (
        facts.value("paddle", "with_pip_cuda_libraries") == "ON"
        or facts.value("interpreter", "paddle_static_version", {}).get("with_pip_cuda_libraries") == "ON"
    ):
        fix = t("envcheck.fix.pip_cuda_libraries", command=reinstall_command(facts))
    else:
        fix = t(
            "envcheck.fix.system_cuda_libraries", cuda=format_version(wheel_cuda[:2]) if wheel_cuda else "?"
        )
    if missing_required:
        return Verdict(
            "fail", t("envcheck.libs.required_missing", libs=", ".join(missing_required)), details, fix
        )
    if missing_optional:
        return Verdict(
            "warn", t("envcheck.libs.optional_missing", libs=", ".join(missing_optional)), details, fix
        )
    return Verdict("pass", t("envcheck.libs.ok"), details)


def cleaned_library_path(dirs: list[str], duplicates: Mapping[str, list[str]], stubs: list[str]) -> str:
    """``LD_LIBRARY_PATH`` without CUDA ``stubs`` dirs and without later copies of duplicated libraries."""
    drop = set(stubs)
    for holders in duplicates.values():
        drop.update(holders[1:])
    return os.pathsep.join(d for d in dirs if d not in drop)


def check_ld_library_path(facts: Facts) -> Verdict:
    scan = dict(facts.value("libraries", "ld_library_path", {}))
    dirs: list[str] = list(scan.get("dirs") or [])
    if not dirs:
        return Verdict("pass", t("envcheck.ld.unset"))
    duplicates: dict[str, list[str]] = dict(scan.get("duplicates") or {})
    stubs: list[str] = list(scan.get("stubs") or [])
    details = lines(
        *[t("envcheck.ld.dir", dir=d) for d in dirs],
        *[
            t("envcheck.ld.duplicate", lib=lib, dirs=", ".join(holders))
            for lib, holders in duplicates.items()
        ],
    )
    cleaned = cleaned_library_path(dirs, duplicates, stubs)
    fix = t("envcheck.fix.export", assignment=f"LD_LIBRARY_PATH={cleaned}")
    if stubs:
        return Verdict("warn", t("envcheck.ld.stubs", dirs=", ".join(stubs)), details, fix)
    if duplicates:
        lib, holders = next(iter(duplicates.items()))
        return Verdict(
            "warn", t("envcheck.ld.duplicates", lib=lib, count=len(holders), first=holders[0]), details, fix
        )
    return Verdict("pass", t("envcheck.ld.ok", count=len(dirs)), details)


AREA_RULES: tuple[Rule, ...] = (
    Rule("gpu.driver", ("driver", "paddle", "interpreter"), check_driver, "envcheck.fix.driver_not_responding"),
    Rule("gpu.cuda_version", ("driver", "paddle", "interpreter"), check_cuda_version, "envcheck.fix.driver_not_responding"),
    Rule("gpu.compute_capability", ("driver", "paddle", "interpreter"), check_compute_capability, "envcheck.fix.driver_not_responding"),
    Rule("gpu.visible", ("driver", "paddle", "environment"), check_visible, "envcheck.fix.driver_not_responding"),
    Rule("gpu.libraries", ("libraries", "paddle", "interpreter"), check_libraries),
    Rule("ld_library_path", ("libraries",), check_ld_library_path),
)  # fmt: skip
register_area(AREA_RULES, order=40, module=__name__)
