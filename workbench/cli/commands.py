"""Commands available today: ``tui``, ``validate``, ``train`` and ``runs``."""

from __future__ import annotations

from pathlib import Path

import click

from workbench.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    emit_json,
    human_console,
    is_headless,
    print_issues,
)
from workbench.cli.root import CliState
from workbench.config import ConfigError, ConfigIssue, validate_file
from workbench.formatting import format_time
from workbench.i18n import t
from workbench.runs import RunStore, RunSummary


def _state(ctx: click.Context) -> CliState:
    state = ctx.find_root().obj
    assert isinstance(state, CliState)
    return state


def _check_theme(theme: str | None) -> None:
    """``--theme`` must name a bundled theme (exit 2 with the choices, like ``--lang``)."""
    if theme is None:
        return
    from workbench.themes import theme_choices  # the one place the CLI reads the UI's theme list

    choices = theme_choices()
    if theme not in choices and theme not in choices.values():
        raise click.BadParameter(
            t("cli.theme.unknown", name=theme, choices=", ".join(choices)), param_hint="'--theme'"
        )


def tui_command() -> click.Command:
    @click.command("tui", help=t("cli.tui.help"))
    @click.option("--demo", is_flag=True, help=t("cli.tui.demo"))
    @click.pass_context
    def tui(ctx: click.Context, demo: bool) -> None:
        state = _state(ctx)
        _check_theme(state.theme)
        if is_headless(state.plain):
            # Line mode: never start Textual on a pipe or a dumb terminal.
            console = human_console()
            console.print(t("cli.tui.headless"))
            _print_run_table(console, RunStore(state.workspace))
            ctx.exit(EXIT_OK)
        from workbench.screens.launch import run_tui

        try:
            code = run_tui(
                workspace=state.workspace, theme=state.theme, low_bandwidth=state.low_bandwidth, demo=demo
            )
        except OSError as exc:  # e.g. the workspace path runs through a file
            message = t("cli.workspace.unusable", path=str(state.workspace), error=str(exc))
            human_console().print(message, markup=False)
            ctx.exit(EXIT_BAD_INPUT)
        ctx.exit(code)

    return tui


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "json_mode", is_flag=True)
@click.pass_context
def validate_command(ctx: click.Context, files: tuple[Path, ...], json_mode: bool) -> None:
    console = human_console(json_mode)
    all_issues: list[ConfigIssue] = []
    results = []
    for path in files:
        try:
            kind, _model = validate_file(path)
        except ConfigError as exc:
            all_issues.extend(exc.issues)
            results.append({"file": str(path), "ok": False, "kind": None})
            print_issues(console, exc.issues)
        else:
            results.append({"file": str(path), "ok": True, "kind": kind.name})
            console.print(t("cli.validate.ok", file=str(path), kind=t(kind.describe_key)), markup=False)
    if json_mode:
        emit_json(
            {
                "ok": not all_issues,
                "files": results,
                "errors": [i.to_dict() for i in all_issues],
                "warnings": [],
            }
        )
    if all_issues:
        console.print(t("cli.validate.summary", count=len(all_issues)))
    ctx.exit(EXIT_BAD_INPUT if all_issues else EXIT_OK)


def _print_run_table(console: object, store: RunStore) -> list[RunSummary]:
    from rich.console import Console
    from rich.table import Table

    assert isinstance(console, Console)
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
            t(f"runs.kind.{run.kind}") if run.kind in ("in_process", "launched") else run.kind,
        )
    console.print(table)
    for run in runs:
        if run.damaged:
            console.print(t("runs.damaged.line", run=run.run_id, reason=run.damaged), markup=False)
    return runs


@click.group("runs", invoke_without_command=True)
@click.option("--json", "json_mode", is_flag=True)
@click.pass_context
def runs_command(ctx: click.Context, json_mode: bool) -> None:
    if ctx.invoked_subcommand is not None:
        return  # runs gc
    store = RunStore(_state(ctx).workspace)
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
    _print_run_table(human_console(), store)


def all_commands() -> list[click.Command]:
    from workbench.cli.check import check_command
    from workbench.cli.compare import compare_command
    from workbench.cli.gc import gc_command
    from workbench.cli.train import train_command

    if "gc" not in runs_command.commands:
        runs_command.add_command(gc_command())

    validate_command.help = t("cli.validate.help")
    runs_command.help = t("cli.runs.help")
    for command in (validate_command, runs_command):
        for param in command.params:
            if isinstance(param, click.Option) and param.name == "json_mode":
                param.help = t("cli.opt.json")
    return [
        tui_command(),
        validate_command,
        check_command(),
        train_command(),
        compare_command(),
        runs_command,
    ]
