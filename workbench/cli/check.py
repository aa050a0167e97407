"""``paddle-workbench check``: is Paddle usable on this machine, and if not, what exactly to type.

Human table by default, ``--json`` for tools (one document: ``{"checks": [...], "facts": {...}}``),
``--markdown`` for a bug report. Exit codes (docs/architecture.md, "CLI and JSON contracts"): 0 when nothing
failed (warnings and
skips included), 1 when a check failed, 2 for bad options.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from workbench.cli.output import EXIT_BAD_INPUT, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.envcheck import (
    DEFAULT_TIMEOUT_S,
    CheckReport,
    Finding,
    ProbeContext,
    markdown_report,
    run_checks,
)
from workbench.envcheck.report import findings_table, fixes, status_text, summary_line
from workbench.envcheck.rules._base import rule_title
from workbench.i18n import t
from workbench.settings import WorkbenchSettings
from workbench.textsafe import inert


def _print_human(console: Console, report: CheckReport) -> None:
    console.print(findings_table(report.findings))
    needing = fixes(report.findings)
    if needing:
        console.print()
        console.print(f"[bold]{t('envcheck.report.fixes')}[/]")
        for finding in needing:
            line = status_text(finding.status)
            line.append(f" {rule_title(finding.id)}: ", style="bold")
            line.append(finding.summary)
            console.print(line)
            for fix_line in finding.fix.splitlines():
                console.print(f"    {fix_line}", markup=False, highlight=False)
    console.print()
    console.print(summary_line(report), markup=False)


def _positive(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``--timeout`` must be a finite, positive number of seconds (a usage error, exit 2, otherwise).

    ``nan`` and ``inf`` parse as floats; a NaN deadline would never fire, so both are refused.
    """
    if not math.isfinite(value):
        raise click.BadParameter(t("cli.check.timeout_finite", value=f"{value:g}"))
    if value <= 0:
        raise click.BadParameter(t("cli.check.timeout_positive", value=f"{value:g}"))
    return value


def _store(doc: dict[str, Any], workspace: Path) -> None:
    """Keep the result as ``<workspace>/reports/check-<time>.json`` (owner-only): ``verify`` and the home
    screen's path read the newest one instead of probing the machine again; the TUI's Environment mode
    stores the same file (:func:`workbench.verify.evidence.store_check_report`). A workspace that cannot
    be written does not fail the check."""
    from workbench.verify.evidence import store_check_report

    store_check_report(doc, workspace)


def check_command() -> click.Command:
    @click.command("check", help=t("cli.check.help"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.option("--markdown", "markdown_mode", is_flag=True, help=t("cli.check.opt.markdown"))
    @click.option(
        "--timeout",
        "timeout_s",
        type=float,
        callback=_positive,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=t("cli.check.opt.timeout", default=f"{DEFAULT_TIMEOUT_S:g}"),
    )
    @pass_settings
    @click.pass_context
    def check(
        ctx: click.Context,
        settings: WorkbenchSettings,
        json_mode: bool,
        markdown_mode: bool,
        timeout_s: float,
    ) -> None:
        if json_mode and markdown_mode:
            human_console(True).print(t("cli.check.exclusive"), markup=False)
            ctx.exit(EXIT_BAD_INPUT)
        # Machine-readable output owns stdout; progress and human text go to stderr then.
        console = human_console(json_mode or markdown_mode)
        context = ProbeContext(workspace=settings.workspace)
        done: list[Finding] = []
        with console.status(t("cli.check.running"), spinner="dots") as status:

            def on_finding(finding: Finding) -> None:
                done.append(finding)
                status.update(t("cli.check.progress", done=len(done), last=rule_title(finding.id)))

            report = run_checks(context=context, timeout_s=timeout_s, on_finding=on_finding)
        _store(report.to_dict(), settings.workspace)
        if json_mode:
            emit_json(report.to_dict())
        elif markdown_mode:
            sys.stdout.write(inert(markdown_report(report)))  # facts read from the machine: shown inert
            sys.stdout.flush()
        else:
            _print_human(console, report)
        ctx.exit(report.exit_code)

    return check
