"""Rules about the host: variables that change Paddle's behaviour, CPU and memory, shared memory, disk.

These are the quiet causes of slow or dying runs — one OpenMP thread, a 64 MiB ``/dev/shm`` in a
container, a full disk under the workspace — so each warning names the exact setting to change.
"""

from __future__ import annotations

from workbench.envcheck.facts import Facts
from workbench.envcheck.rules import register_area
from workbench.envcheck.rules._base import Rule, Verdict, gib, kv, lines, yes_no
from workbench.i18n import t

SHM_WARN_BYTES = 1 * 2**30
DISK_WARN_BYTES = 2 * 2**30
DISK_FAIL_BYTES = 200 * 2**20
MEMORY_WARN_BYTES = 2 * 2**30


def check_environment(facts: Facts) -> Verdict:
    variables = dict(facts.value("environment", "variables", {}))
    cpus = facts.value("system", "cpu_usable") or facts.value("system", "cpu_logical")
    details = lines(*[f"{name}={value}" for name, value in variables.items()])
    omp = variables.get("OMP_NUM_THREADS")
    if omp is not None:
        try:
            threads = int(omp)
        except ValueError:
            return Verdict(
                "warn",
                t("envcheck.env.omp_invalid", value=omp),
                details,
                t("envcheck.fix.export", assignment=f"OMP_NUM_THREADS={cpus or 1}"),
            )
        if cpus and threads > int(cpus):
            return Verdict(
                "warn",
                t("envcheck.env.omp_too_many", value=threads, cpus=cpus),
                details,
                t("envcheck.fix.export", assignment=f"OMP_NUM_THREADS={cpus}"),
            )
    elif cpus and int(cpus) > 1:
        # Not a problem on GPU runs, but worth knowing for CPU training
        # (docs/paddle-notes.md, "OMP_NUM_THREADS").
        details = lines(details, t("envcheck.env.omp_note", cpus=cpus))
    summary = t("envcheck.env.ok", count=len(variables)) if variables else t("envcheck.env.none")
    return Verdict("pass", summary, details)


def check_resources(facts: Facts) -> Verdict:
    system = facts.data("system")
    flags = set(system.get("cpu_flags") or [])
    total, available = system.get("memory_total_bytes"), system.get("memory_available_bytes")
    details = lines(
        kv("envcheck.label.os", system.get("os_release") or system.get("os")),
        kv("envcheck.label.kernel", system.get("kernel")),
        kv("envcheck.label.libc", system.get("libc")),
        kv("envcheck.label.cpu_model", system.get("cpu_model")),
        kv("envcheck.label.cpus", f"{system.get('cpu_logical')} / {system.get('cpu_usable')}"),
        kv("envcheck.label.cpu_flags", " ".join(sorted(flags))),
        kv("envcheck.label.memory", f"{gib(available)} / {gib(total)}"),
    )
    summary = t(
        "envcheck.system.ok",
        cpus=system.get("cpu_usable") or system.get("cpu_logical"),
        model=system.get("cpu_model") or "?",
        total=gib(total),
        available=gib(available),
        avx2=yes_no("avx2" in flags),
        avx512=yes_no("avx512f" in flags),
    )
    if system.get("machine") in ("x86_64", "AMD64") and flags and "avx" not in flags:
        return Verdict("fail", t("envcheck.build.no_avx"), details, t("envcheck.fix.no_avx"))
    if isinstance(available, int) and available < MEMORY_WARN_BYTES:
        return Verdict(
            "warn",
            t("envcheck.system.low_memory", available=gib(available)),
            details,
            t("envcheck.fix.memory"),
        )
    return Verdict("pass", summary, details)


def check_shm(facts: Facts) -> Verdict:
    shm = facts.value("system", "shm")
    if not shm:
        return Verdict("skip", t("envcheck.shm.absent"))
    total, free = int(shm.get("total_bytes", 0)), int(shm.get("free_bytes", 0))
    details = kv("envcheck.label.shm", f"{gib(free)} / {gib(total)}")
    if total < SHM_WARN_BYTES:
        return Verdict("warn", t("envcheck.shm.small", total=gib(total)), details, t("envcheck.fix.shm"))
    return Verdict("pass", t("envcheck.shm.ok", total=gib(total), free=gib(free)), details)


def check_disk(facts: Facts) -> Verdict:
    disk = facts.value("system", "workspace_disk")
    if not disk:
        return Verdict("skip", t("envcheck.disk.unknown"))
    free, path = int(disk.get("free_bytes", 0)), disk.get("path")
    details = lines(
        kv("envcheck.label.workspace", path),
        kv("envcheck.label.measured_at", disk.get("measured_at")),
        kv("envcheck.label.disk", f"{gib(free)} / {gib(disk.get('total_bytes'))}"),
    )
    if free < DISK_FAIL_BYTES:
        return Verdict(
            "fail", t("envcheck.disk.full", free=gib(free), path=path), details, t("envcheck.fix.disk")
        )
    if free < DISK_WARN_BYTES:
        return Verdict(
            "warn", t("envcheck.disk.low", free=gib(free), path=path), details, t("envcheck.fix.disk")
        )
    return Verdict("pass", t("envcheck.disk.ok", free=gib(free), path=path), details)


AREA_RULES: tuple[Rule, ...] = (
    Rule("environment", ("environment", "system"), check_environment),
    Rule("system.resources", ("system",), check_resources),
    Rule("system.shm", ("system",), check_shm),
    Rule("system.disk", ("system",), check_disk),
)
register_area(AREA_RULES, order=50, module=__name__)
