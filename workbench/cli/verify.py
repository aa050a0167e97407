"""``paddle-workbench verify [CONFIG] [--json | --junit FILE] [--strict]``: the release checklist.

Presentation only: :func:`workbench.verify.collect` does the work. Prints one table row per item
(layer, item, status, evidence — or, for an item without evidence, the command that produces it) and
stores the result as ``<workspace>/reports/verify-<time>.json``.

Exit codes: 0 no item failed, 1 an item failed, 2 bad input (an invalid CONFIG, a JUnit file that cannot
be written). "not run" is not a failure by default — a workspace that has not reached a step (no GPU
target, no parallel run yet) is not broken — so ``verify`` on a fresh workspace exits 0 and lists every
item as not run with its command. A release pipeline passes ``--strict`` (or ``strict: true`` in the
config): then a missing piece of evidence fails too.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from workbench.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_FAILURES,
    EXIT_OK,
    emit_json,
    human_console,
    print_issues,
)
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.settings import WorkbenchSettings

STYLE = {"pass": "green", "fail": "bold red", "not run": "yellow"}


def verify_command() -> click.Command:
    @click.command("verify", help=t("cli.verify.help"))
    @click.argument("config", required=False, type=click.Path(dir_okay=False, path_type=Path))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.option(
        "--junit",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=t("verify.cli.opt.junit"),
    )
    @click.option("--strict", is_flag=True, default=False, help=t("verify.cli.opt.strict"))
    @pass_settings
    @click.pass_context
    def verify(
        ctx: click.Context,
        settings: WorkbenchSettings,
        config: Path | None,
        json_mode: bool,
        junit: Path | None,
        strict: bool,
    ) -> None:
        from workbench.config import ConfigError
        from workbench.config.loader import load_model
        from workbench.permissions import create_private
        from workbench.verify import VerifyConfig, collect, write_report
        from workbench.verify.junit import to_junit

        console = human_console(json_mode)

        def junit_exists() -> None:
            """A located refusal, exit 2: ``--junit`` names a file that exists (never replaced)."""
            message = t("verify.cli.junit_exists", path=str(junit))
            console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"ok": False, "errors": [message], "items": []})
            ctx.exit(EXIT_BAD_INPUT)

        if junit is not None and (junit.exists() or junit.is_symlink()):
            junit_exists()  # before the checklist runs, not after
        try:
            cfg = load_model(config, VerifyConfig) if config is not None else VerifyConfig()
        except ConfigError as exc:
            print_issues(console, exc.issues)
            if json_mode:
                emit_json({"ok": False, "errors": [str(i) for i in exc.issues], "items": []})
            ctx.exit(EXIT_BAD_INPUT)
        if strict:
            cfg = cfg.model_copy(update={"strict": True})
        result = collect(settings.workspace, cfg, deep=True)
        try:
            report = write_report(result)
        except OSError as exc:
            console.print(
                t("verify.cli.junit_failed", path=str(settings.workspace), error=str(exc)), markup=False
            )
            report = None
        table = Table(box=None, pad_edge=False)
        for key in ("layer", "item", "status", "evidence"):
            table.add_column(t(f"verify.cli.col.{key}"), no_wrap=key != "evidence", overflow="fold")
        for item in result.items:
            detail = item.evidence if item.status == "pass" else f"{item.evidence}\n→ {item.command}"
            table.add_row(
                item.layer,
                item.id.split(".", 1)[-1],
                Text(t(f"verify.status.{item.status}"), style=STYLE.get(item.status, "")),
                detail,
            )
        console.print(table)
        counts = result.counts()
        console.print(
            t(
                "verify.cli.summary",
                passed=counts["pass"],
                failed=counts["fail"],
                not_run=counts["not run"],
                path=str(report) if report else "-",
            ),
            markup=False,
        )
        console.print(t("verify.cli.verdict_ok" if result.ok else "verify.cli.verdict_fail"), markup=False)
        if junit is not None:
            try:
                create_private(junit, to_junit(result))  # O_EXCL: a file that appeared meanwhile is kept
            except FileExistsError:
                junit_exists()
            except OSError as exc:
                console.print(t("verify.cli.junit_failed", path=str(junit), error=str(exc)), markup=False)
                ctx.exit(EXIT_BAD_INPUT)
        if json_mode:
            doc = result.to_dict()
            emit_json({"ok": doc["ok"], "counts": doc["counts"], "report": str(report) if report else None, "items": [
                {k: i[k] for k in ("id", "layer", "status", "evidence", "command")} for i in doc["items"]
            ]})  # fmt: skip
        ctx.exit(EXIT_OK if result.ok else EXIT_FAILURES)

    return verify
