"""``paddle-workbench runs [--json]``: the runs in the workspace, newest first."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from workbench.cli.output import emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.formatting import format_time
from workbench.i18n import t
from workbench.runs import RunStore, RunSummary
from workbench.settings import WorkbenchSettings


def print_run_table(console: Console, store: RunStore) -> list[RunSummary]:
    """The run list as a table (also the TUI's line mode on a pipe or a dumb terminal)."""
    runs = store.list()
    if not runs:
        console.print(t("runs.none", workspace=str(store.workspace)), markup=False)
        return runs
    table = Table(box=None, pad_edge=False)
    # The run id is what users copy into --resume / report: never cut it, let the others wrap.
    table.add_column(t("runs.col.run"), no_wrap=True, min_width=max(len(r.run_id) for r in runs))
    for key in ("runs.col.status", "runs.col.started", "runs.col.step", "runs.col.kind"):
        table.add_column(t(key), no_wrap=key != "runs.col.kind")
    for run in runs:
        status = t(f"status.{run.status}")
        table.add_row(
            run.run_id,
            f"{status} ⚠ {t('runs.damaged')}" if run.damaged else status,
            format_time(run.started),
            str(run.last_step) if run.last_step is not None else t("common.none"),
            t(f"runs.kind.{run.kind}") if run.kind in ("in_process", "launched", "linked") else run.kind,
        )
    console.print(table)
    for run in runs:
        if run.damaged:
            console.print(t("runs.damaged.line", run=run.run_id, reason=run.damaged), markup=False)
    return runs


def runs_command() -> click.Command:
    """``runs`` lists; ``runs gc`` (:mod:`workbench.cli.gc`) cleans up after killed processes."""
    from workbench.cli.gc import gc_command

    @click.group("runs", help=t("cli.runs.help"), invoke_without_command=True)
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def runs(ctx: click.Context, settings: WorkbenchSettings, json_mode: bool) -> None:
        if ctx.invoked_subcommand is not None:
            return  # runs gc
        store = RunStore(settings.workspace)
        if json_mode:
            emit_json(
                {
                    "workspace": str(store.workspace),
                    "runs": [
                        {
                            "run_id": r.run_id,
                            "run_dir": str(r.run_dir),
                            "status": r.status,
                            "started": r.started,
                            "last_step": r.last_step,
                            "kind": r.kind,
                            "damaged": r.damaged or None,
                        }
                        for r in store.list()
                    ],
                }
            )
            return
        print_run_table(human_console(), store)

    runs.add_command(gc_command())
    return runs
