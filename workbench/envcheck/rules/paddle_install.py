"""Rules about the Paddle installation: which distribution, whether it imports, what it was built with.

The fixes name the exact distribution, version and package index, because "reinstall Paddle" without
the CUDA variant is how people end up with the CPU wheel beside the GPU one.
"""

from __future__ import annotations

import os
import re
from collections import Counter
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
    yes_no,
)
from workbench.envcheck.wheels import (
    CPU_DIST,
    GPU_DIST,
    PIP,
    cpu_install,
    gpu_install,
    newest_variant_for_driver,
    parse_version,
    uninstall,
)
from workbench.i18n import t

# numpy 2.4 breaks scalar conversion in Paddle 3.3 (docs/paddle-notes.md, "numpy 2.4"); the first Paddle
# without the
# problem is not known yet, so every version before 3.4 is treated as affected.
NUMPY_BREAKING = (2, 4)
PADDLE_NUMPY_FIXED = (3, 4)
NUMPY_PIN = f'{PIP} install "numpy<2.4"'


def recommended_install(facts: Facts) -> str:
    """The one install line for this box: the GPU build matching the driver when there is a GPU."""
    version = installed_version(facts)
    cuda = driver_cuda(facts)
    if driver_gpus(facts) and cuda:
        variant = newest_variant_for_driver(cuda)
        if variant is not None:
            return gpu_install(version, variant)
    return cpu_install(version)


def reinstall_command(facts: Facts) -> str:
    """Reinstall what is installed now (same distribution and CUDA variant), forcing fresh files."""
    version = installed_version(facts)
    kind, cuda = build_kind(facts)
    if kind == "cuda" and cuda is not None and len(cuda) >= 2:
        command = gpu_install(version, (cuda[0], cuda[1]))
    elif kind == "cpu":
        command = cpu_install(version)
    else:
        command = recommended_install(facts)
    return command.replace(" install ", " install --force-reinstall ", 1)


def _dists(facts: Facts) -> list[dict[str, Any]]:
    return [dict(d) for d in facts.value("interpreter", "paddle_distributions", [])]


def check_install(facts: Facts) -> Verdict:
    py = facts.data("interpreter")
    dists = _dists(facts)
    names = sorted({str(d.get("name")) for d in dists})
    details = lines(
        *[
            t(
                "envcheck.install.dist",
                name=d.get("name"),
                version=d.get("version"),
                location=d.get("location"),
                installer=d.get("installer") or "?",
            )
            for d in dists
        ]
    )
    if len(names) > 1:
        return Verdict(
            "fail",
            t("envcheck.install.both", names=", ".join(names)),
            details,
            t("envcheck.fix.both_wheels", uninstall=uninstall(names), install=recommended_install(facts)),
        )
    counts = Counter(str(d.get("name")) for d in dists)
    twice = [name for name, count in counts.items() if count > 1]
    if twice:
        return Verdict(
            "warn",
            t("envcheck.install.twice", name=twice[0]),
            details,
            t("envcheck.fix.install_twice", uninstall=uninstall(twice), install=recommended_install(facts)),
        )
    if not dists:
        origin = py.get("paddle_origin")
        if isinstance(origin, str):
            return Verdict(
                "warn",
                t("envcheck.install.unmanaged", origin=origin),
                details,
                t("envcheck.fix.install", command=recommended_install(facts)),
            )
        return Verdict(
            "fail",
            t("envcheck.install.none", executable=py.get("executable")),
            details,
            t("envcheck.fix.install", command=recommended_install(facts)),
        )
    dist = dists[0]
    return Verdict(
        "pass",
        t(
            "envcheck.install.ok",
            name=dist.get("name"),
            version=dist.get("version"),
            installer=dist.get("installer") or "?",
        ),
        details,
    )


def shadowing_package(facts: Facts, origin: object) -> str | None:
    """The ``paddle`` directory that is imported instead of the installed distribution, if any.

    A ``paddle/`` folder on ``PYTHONPATH`` or in the current directory wins over site-packages; it is
    a leftover source checkout or a stray copy, and it breaks or silently replaces the real Paddle.
    """
    dists = _dists(facts)
    if not isinstance(origin, str) or not dists:
        return None
    package_dir = os.path.dirname(origin) if origin.endswith(".py") else origin
    for dist in dists:
        expected = os.path.join(str(dist.get("location")), "paddle")
        if os.path.normpath(expected) == os.path.normpath(package_dir):
            return None
    return package_dir


def check_import(facts: Facts) -> Verdict:
    paddle = facts.data("paddle")
    py = facts.data("interpreter")
    if paddle.get("import_ok"):
        details = lines(
            kv("envcheck.label.paddle_file", paddle.get("file")),
            kv("envcheck.label.version", paddle.get("version")),
            kv("envcheck.label.import_seconds", paddle.get("import_seconds")),
        )
        shadow = shadowing_package(facts, paddle.get("file"))
        if shadow:
            return Verdict(
                "warn",
                t("envcheck.import.shadow_ok", path=shadow),
                details,
                t("envcheck.fix.shadow", path=shadow),
            )
        dists = _dists(facts)
        installed = parse_version(dists[0].get("version")) if dists else None
        imported = parse_version(paddle.get("version"))
        if installed and imported and installed != imported:
            return Verdict(
                "warn",
                t(
                    "envcheck.import.version_mismatch",
                    installed=dists[0].get("version"),
                    imported=paddle.get("version"),
                ),
                details,
                t("envcheck.fix.reinstall", command=reinstall_command(facts)),
            )
        return Verdict(
            "pass",
            t("envcheck.import.ok", version=paddle.get("version"), seconds=paddle.get("import_seconds")),
            details,
        )
    error = str(paddle.get("error") or "?")
    details = str(paddle.get("traceback") or "")
    shadow = shadowing_package(facts, py.get("paddle_origin"))
    if shadow:
        return Verdict(
            "fail",
            t("envcheck.import.shadowed", error=error, path=shadow),
            details,
            t("envcheck.fix.shadow", path=shadow),
        )
    if paddle.get("error_type") == "ModuleNotFoundError" and "'paddle'" in error:
        venvs = [v for v in py.get("nearby_venvs") or [] if v.get("has_paddle") and not v.get("is_current")]
        fix = (
            t("envcheck.fix.activate", venv=venvs[0].get("path"))
            if venvs
            else t("envcheck.fix.install", command=recommended_install(facts))
        )
        return Verdict("fail", t("envcheck.import.missing", executable=py.get("executable")), details, fix)
    if "numpy" in error.lower():
        return Verdict(
            "fail",
            t("envcheck.import.failed", error=error),
            details,
            t("envcheck.fix.numpy_pin", command=NUMPY_PIN),
        )
    library = re.search(r"(lib[\w+-]+\.so[\w.]*)", error)
    if library:
        return Verdict(
            "fail",
            t("envcheck.import.library", library=library.group(1), error=error),
            details,
            t("envcheck.fix.library", library=library.group(1), command=reinstall_command(facts)),
        )
    return Verdict(
        "fail",
        t("envcheck.import.failed", error=error),
        details,
        t("envcheck.fix.reinstall", command=reinstall_command(facts)),
    )


def _build_details(source: dict[str, Any]) -> str:
    return lines(*[kv(f"envcheck.label.{key}", value) for key, value in source.items()])


def check_build(facts: Facts) -> Verdict:
    paddle = facts.data("paddle")
    if paddle.get("import_ok"):
        compiled = dict(paddle.get("compiled_with") or {})
        commit = str(paddle.get("commit") or "?")
        onednn = compiled.get("onednn") if compiled.get("onednn") is not None else compiled.get("mkldnn")
        details = _build_details(
            {
                "version": paddle.get("version"),
                "commit": commit,
                "cuda": paddle.get("cuda"),
                "cudnn": paddle.get("cudnn"),
                "nccl": paddle.get("nccl"),
                "tensorrt": paddle.get("tensorrt"),
                "xpu": paddle.get("xpu"),
                "rocm": paddle.get("hip"),
                "cuda_archs": paddle.get("cuda_archs"),
                "mkl": paddle.get("mkl"),
                "onednn": yes_no(onednn),
                "avx_build": yes_no(compiled.get("avx")),
                "cpu_avx": yes_no(paddle.get("cpu_avx_supported")),
                "cpu_avx512": yes_no(paddle.get("cpu_avx512f_supported")),
                "distributed": yes_no(compiled.get("distribute")),
                "cinn": yes_no(compiled.get("cinn")),
            }
        )
        if compiled.get("avx") and paddle.get("cpu_avx_supported") is False:
            return Verdict("fail", t("envcheck.build.no_avx"), details, t("envcheck.fix.no_avx"))
        kind, _cuda = build_kind(facts)
        version, short = paddle.get("version"), commit[:10]
        if kind == "cuda":
            summary = t(
                "envcheck.build.cuda",
                version=version,
                cuda=paddle.get("cuda"),
                cudnn=paddle.get("cudnn"),
                commit=short,
            )
        elif kind in ("rocm", "xpu"):
            summary = t("envcheck.build.other", version=version, kind=kind.upper(), commit=short)
        else:
            summary = t(
                "envcheck.build.cpu",
                version=version,
                commit=short,
                mkl=paddle.get("mkl"),
                onednn=yes_no(onednn),
            )
        return Verdict("pass", summary, details)
    static = dict(facts.value("interpreter", "paddle_static_version", {}))
    if static:
        return Verdict(
            "skip",
            t("envcheck.build.static", version=static.get("full_version"), cuda=static.get("cuda_version")),
            _build_details(static),
        )
    return Verdict("skip", t("envcheck.build.unknown"))


def check_numpy(facts: Facts) -> Verdict:
    metadata = facts.value("interpreter", "numpy_version")
    imported = facts.value("paddle", "numpy_version") if facts.value("paddle", "import_ok") else None
    details = lines(
        kv("envcheck.label.numpy_installed", metadata), kv("envcheck.label.numpy_imported", imported)
    )
    versions = [str(v) for v in (metadata, imported) if v]
    if not versions:
        return Verdict(
            "fail", t("envcheck.numpy.missing"), details, t("envcheck.fix.install", command=NUMPY_PIN)
        )
    paddle_version = parse_version(installed_version(facts)) or (0,)
    for version in versions:
        parsed = parse_version(version) or (0,)
        if parsed[:2] >= NUMPY_BREAKING and paddle_version[:2] < PADDLE_NUMPY_FIXED:
            return Verdict(
                "fail",
                t("envcheck.numpy.too_new", numpy=version, paddle=installed_version(facts)),
                details,
                t("envcheck.fix.numpy_pin", command=NUMPY_PIN),
            )
    return Verdict("pass", t("envcheck.numpy.ok", version=versions[-1]), details)


AREA_RULES: tuple[Rule, ...] = (
    Rule("paddle.install", ("interpreter", "driver"), check_install),
    Rule("paddle.import", ("paddle", "interpreter"), check_import, "envcheck.fix.paddle_probe_failed"),
    Rule("paddle.build", ("paddle", "interpreter"), check_build, "envcheck.fix.paddle_probe_failed"),
    Rule("numpy", ("interpreter", "paddle"), check_numpy),
)
register_area(AREA_RULES, order=20, module=__name__)

__all__ = [
    "AREA_RULES",
    "CPU_DIST",
    "GPU_DIST",
    "recommended_install",
    "reinstall_command",
    "shadowing_package",
]
