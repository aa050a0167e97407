"""``paddle-workbench report RUN [--output FILE] [--redact] [--check/--no-check] [--json]``.

Presentation only: :mod:`workbench.troubleshoot.bundle` collects and renders. Exit codes: 0 the report
was written, 2 bad input (no such run, an output path that cannot be written, an ``--output`` whose
markdown or JSON already exists: a report never replaces a file). What was taken out (environment dumps
always, secrets and names with ``--redact``) is counted by kind on the way out.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_OK, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.settings import WorkbenchSettings


def report_command() -> click.Command:
    @click.command("report", help=t("cli.report.help"))
    @click.argument("run", default="latest")
    @click.option(
        "--output",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=t("report.cli.opt.output"),
    )
    @click.option("--redact", is_flag=True, help=t("report.cli.opt.redact"))
    @click.option("--check/--no-check", "check", default=None, help=t("report.cli.opt.check"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def report(
        ctx: click.Context,
        settings: WorkbenchSettings,
        run: str,
        output: Path | None,
        redact: bool,
        check: bool | None,
        json_mode: bool,
    ) -> None:
        from workbench.runs import RunStore
        from workbench.troubleshoot.bundle import (
            EnvMode,
            ReportExists,
            build_bundle,
            redaction_summary,
            write_bundle,
        )

        console = human_console(json_mode)

        def bad_input(message: str) -> None:
            console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            if json_mode:
                emit_json({"ok": False, "status": "invalid", "errors": [{"message": message}]})
            ctx.exit(EXIT_BAD_INPUT)

        store = RunStore(settings.workspace)
        run_dir = store.resolve(run)
        if run_dir is None:
            bad_input(t("report.cli.no_run", ref=run, workspace=str(store.workspace)))
            return
        env: EnvMode = "auto" if check is None else ("run" if check else "skip")
        bundle = build_bundle(
            run_dir,
            store.workspace,
            env=env,
            redact=redact,
            progress=lambda msg: console.print(msg, style="dim", markup=False),
        )
        try:
            md_path, json_path = write_bundle(bundle, output, run_dir)
        except ReportExists as exc:
            bad_input(t("report.cli.exists", path=", ".join(str(p) for p in exc.paths)))
            return
        except OSError as exc:
            bad_input(
                t("report.cli.write_failed", path=str(output or run_dir), error=exc.strerror or str(exc))
            )
            return
        console.print(bundle.doc["environment"]["note"], markup=False)
        if bundle.redactions:
            total = sum(bundle.redactions.values())
            console.print(
                t("report.cli.redacted", total=total, summary=redaction_summary(bundle.redactions)),
                markup=False,
            )
        if json_mode:
            emit_json({"ok": True, "markdown": str(md_path), "json": str(json_path), "report": bundle.doc})
        else:
            console.print(t("report.cli.written", md=str(md_path), json=str(json_path)), markup=False)
        ctx.exit(EXIT_OK)

    return report
