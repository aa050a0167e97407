"""``paddle-workbench runs [--json]``: the runs in the workspace, newest first; ``runs pin`` / ``runs
unpin``: the baseline the user chose (:mod:`workbench.baseline`)."""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, emit_json, human_console
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
            from workbench.baseline import read_pins

            pinned = {p.run for p in read_pins(store.workspace)}
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
                            "pinned": r.run_id in pinned,
                        }
                        for r in store.list()
                    ],
                }
            )
            return
        print_run_table(human_console(), store)

    runs.add_command(gc_command())
    runs.add_command(pin_command())
    runs.add_command(unpin_command())
    return runs


def _refuse(message: str) -> None:
    """A refusal on stderr, exit 2."""
    human_console(True).print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
    raise SystemExit(EXIT_BAD_INPUT)


def _show_baseline(console: Console, store: RunStore) -> dict[str, Any]:
    """The pins and the baseline the rule (or a pin) chooses now; returns them as a document."""
    from workbench.baseline import choose_baseline, read_pins

    pins = read_pins(store.workspace)
    choice = choose_baseline(store)
    if not pins:
        console.print(t("cli.runs.no_pins"), markup=False)
    for found in pins:
        model = found.model[:12] if found.model else t("cli.runs.model_none")
        console.print(
            t("cli.runs.pin_row", run=found.run, model=model, time=format_time(found.time)), markup=False
        )
    if choice.run_dir is None:
        console.print(t("cli.runs.baseline_none"), markup=False)
    else:
        how = t("cli.runs.how_pinned" if choice.pinned else "cli.runs.how_rule")
        console.print(t("cli.runs.baseline_row", run=choice.run_dir.name, how=how), markup=False)
    for run_id, reason in choice.skipped:
        console.print(
            t("cli.runs.skipped_row", run=run_id, reason=t(f"baseline.skip.{reason}")), markup=False
        )
    return {"pins": [p.to_dict() for p in pins], "baseline": choice.to_dict()}


def pin_command() -> click.Command:
    @click.command("pin", help=t("cli.runs.pin.help"))
    @click.argument("run", required=False)
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    def pin(settings: WorkbenchSettings, run: str | None, json_mode: bool) -> None:
        from workbench.baseline import pin as pin_run
        from workbench.runs import summarize

        store = RunStore(settings.workspace)
        console = human_console(json_mode)
        if run is not None:
            run_dir = store.resolve(run)
            if run_dir is None:
                _refuse(store.miss_message(run))
                return
            summary = summarize(run_dir)
            if summary.status != "finished" or summary.damaged:
                status = t("runs.damaged") if summary.damaged else t(f"status.{summary.status}")
                _refuse(t("cli.runs.pinned_not_finished", run=run_dir.name, status=status))
                return
            made = pin_run(store, run_dir)
            model = made.model[:12] if made.model else t("cli.runs.model_none")
            console.print(t("cli.runs.pinned", run=made.run, model=model), markup=False)
        doc = _show_baseline(console, store)
        if json_mode:
            emit_json(doc)

    return pin


def unpin_command() -> click.Command:
    @click.command("unpin", help=t("cli.runs.unpin.help"))
    @click.argument("run", required=False)
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    def unpin(settings: WorkbenchSettings, run: str | None, json_mode: bool) -> None:
        from workbench.baseline import read_pins
        from workbench.baseline import unpin as unpin_runs

        store = RunStore(settings.workspace)
        console = human_console(json_mode)
        run_dir = None
        if run is not None:
            run_dir = store.resolve(run)
            if run_dir is None and not any(p.run == run for p in read_pins(store.workspace)):
                _refuse(store.miss_message(run))
                return
            run_dir = run_dir or store.runs_dir / run  # a pin whose run folder was deleted
        removed = unpin_runs(store, run_dir)
        if removed:
            console.print(t("cli.runs.unpinned", runs=", ".join(p.run for p in removed)), markup=False)
        doc = _show_baseline(console, store)
        if json_mode:
            emit_json(doc)

    return unpin
