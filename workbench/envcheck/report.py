"""Ways to show a check: a rich table for people, a markdown block for bug reports, summary lines.

The markdown block is what a user pastes into an issue: the verdicts with their fixes first, then a
``collect_env``-style list of the facts a maintainer asks for (Paddle build, driver, GPUs, Python,
numpy, OS), so nobody has to ask "which CUDA?" twice.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from rich.table import Table
from rich.text import Text

from workbench.envcheck.engine import CheckReport
from workbench.envcheck.facts import Facts, Finding
from workbench.envcheck.rules._base import build_kind, gib, rule_title
from workbench.envcheck.wheels import parse_archs
from workbench.formatting import status_label
from workbench.i18n import cell_width, pad, t

STATUS_STYLES: dict[str, str] = {"pass": "green", "warn": "yellow", "fail": "bold red", "skip": "dim"}


def status_text(status: str) -> Text:
    return Text(status_label(status), style=STATUS_STYLES.get(status, ""))


def summary_line(report: CheckReport) -> str:
    counts = report.counts()
    return t(
        "envcheck.report.summary",
        passed=counts["pass"],
        warned=counts["warn"],
        failed=counts["fail"],
        skipped=counts["skip"],
        seconds=f"{report.duration_s:.1f}",
    )


def findings_table(findings: Iterable[Finding]) -> Table:
    """The human table: status, check title, one-line summary."""
    table = Table(box=None, pad_edge=False, show_edge=False, expand=False)
    table.add_column(t("envcheck.col.status"), no_wrap=True)
    table.add_column(t("envcheck.col.check"), no_wrap=True)
    table.add_column(t("envcheck.col.summary"))
    for finding in findings:
        # Text, not str: a summary quotes paths and error messages, which must never be read as markup.
        table.add_row(status_text(finding.status), Text(rule_title(finding.id)), Text(finding.summary))
    return table


def fixes(findings: Iterable[Finding]) -> list[Finding]:
    """The findings that need action (fail, then warn), each with its fix."""
    needing = [f for f in findings if f.status in ("fail", "warn") and f.fix]
    return sorted(needing, key=lambda f: 0 if f.status == "fail" else 1)


def _join(*parts: object) -> str:
    return " ".join(str(p) for p in parts if p not in (None, "", [], {}))


def environment_summary(facts: Facts) -> list[tuple[str, str]]:
    """``collect_env``-style (label, value) pairs: what a maintainer asks for first."""
    py, paddle, system = facts.data("interpreter"), facts.data("paddle"), facts.data("system")
    driver, env = facts.data("driver"), facts.value("environment", "variables", {})
    static: Mapping[str, Any] = py.get("paddle_static_version") or {}
    dists = ", ".join(
        f"{d.get('name')} {d.get('version')} ({d.get('installer') or '?'})"
        for d in py.get("paddle_distributions") or []
    )
    source = (
        paddle
        if paddle.get("import_ok")
        else {
            "version": static.get("full_version"),
            "commit": static.get("commit"),
            "cuda": static.get("cuda_version"),
            "cudnn": static.get("cudnn_version"),
            "nccl": static.get("nccl_version"),
            "cuda_archs": static.get("compiled_cuda_archs"),
        }
    )
    version = _join(source.get("version"), f"(commit {str(source.get('commit') or '?')[:10]})")
    if not paddle.get("import_ok"):
        version = _join(version, t("envcheck.report.not_importable"))
    kind, _ = build_kind(facts)
    if kind == "cuda":
        cuda = _join(source.get("cuda"), "/", source.get("cudnn"), "/", source.get("nccl"))
    else:
        cuda = t("envcheck.report.no_cuda", kind=(kind or "?").upper())
    archs = ", ".join(f"sm_{a}" for a in parse_archs(source.get("cuda_archs")))
    gpus = "; ".join(
        f"{g.get('index')}: {g.get('name')} ({g.get('memory_total_mib')} MiB, sm {g.get('compute_capability')})"
        for g in driver.get("gpus") or []
    )
    shm = system.get("shm") or {}
    rows = [
        ("envcheck.md.paddle", version),
        ("envcheck.md.distributions", dists),
        ("envcheck.md.cuda_build", cuda),
        ("envcheck.md.cuda_archs", archs),
        ("envcheck.md.driver", _join(driver.get("driver_version"), f"(CUDA {driver.get('cuda_driver_version')})" if driver.get("cuda_driver_version") else "")),
        ("envcheck.md.gpus", gpus),
        ("envcheck.md.python", _join(py.get("version"), py.get("executable"))),
        ("envcheck.md.venv", py.get("prefix") if py.get("venv_active") else (py.get("conda_env") or "")),
        ("envcheck.md.numpy", py.get("numpy_version")),
        ("envcheck.md.os", _join(system.get("os_release") or system.get("os"), system.get("kernel"), system.get("libc"))),
        ("envcheck.md.cpu", _join(system.get("cpu_model"), f"x{system.get('cpu_usable') or system.get('cpu_logical')}", " ".join(system.get("cpu_flags") or []))),
        ("envcheck.md.memory", _join(gib(system.get("memory_total_bytes")), f"({gib(system.get('memory_available_bytes'))} free)")),
        ("envcheck.md.shm", gib(shm.get("total_bytes")) if shm else ""),
        ("envcheck.md.variables", " ".join(f"{k}={v}" for k, v in env.items())),
    ]  # fmt: skip
    return [(t(key), str(value) if value not in (None, "") else t("common.none")) for key, value in rows]


def _cell(text: str) -> str:
    """Make ``text`` safe inside a markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_report(report: CheckReport) -> str:
    """A bug-report block: verdicts, fixes for what failed, then the environment facts."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(report.started))
    out = [
        f"### {t('envcheck.md.title')}",
        "",
        t("envcheck.md.generated", when=stamp) + " " + summary_line(report),
        "",
    ]
    missing = report.not_run
    if missing:
        # Taken while checks still ran: never let a half report read as a whole one.
        ids = ", ".join(f"`{rule_id}`" for rule_id in missing)
        out += [f"**{t('envcheck.md.partial', count=len(missing), checks=ids)}**", ""]
    out += [
        f"| {t('envcheck.col.status')} | {t('envcheck.col.check')} | {t('envcheck.col.summary')} |",
        "|---|---|---|",
    ]
    for finding in report.findings:
        out.append(f"| {status_label(finding.status)} | `{finding.id}` | {_cell(finding.summary)} |")
    needing = fixes(report.findings)
    if needing:
        out += ["", f"#### {t('envcheck.md.fixes')}", ""]
        for finding in needing:
            out += [f"- **{finding.id}** ({t(f'status.{finding.status}')}): {finding.summary}", "", "  ```", *[f"  {line}" for line in finding.fix.splitlines()], "  ```"]  # fmt: skip
    pairs = environment_summary(report.facts)
    width = max((cell_width(label) for label, _ in pairs), default=0) + 2
    out += ["", f"#### {t('envcheck.md.environment')}", "", "```"]
    out += [pad(f"{label}:", width) + value for label, value in pairs]
    out += ["```", ""]
    return "\n".join(out)
