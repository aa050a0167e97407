"""``paddle-workbench runs gc [--json]``: remove what killed processes left in the workspace.

Half-written checkpoint folders, temp files of atomic writes, checkpoint folders moved aside by a
re-save: only those whose writing process is gone (see :mod:`workbench.leftovers`). Nothing a reader
uses is ever touched; a live run's work is never touched either.
"""

from __future__ import annotations

import click

from workbench.cli.output import EXIT_OK, emit_json, human_console
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.runs import RunStore
from workbench.settings import WorkbenchSettings


def gc_command() -> click.Command:
    @click.command("gc", help=t("cli.runs.gc.help"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @pass_settings
    @click.pass_context
    def gc(ctx: click.Context, settings: WorkbenchSettings, json_mode: bool) -> None:
        from workbench.leftovers import clean_workspace

        store = RunStore(settings.workspace)
        removed = clean_workspace(store)
        if json_mode:
            emit_json({"workspace": str(store.workspace), "removed": [str(path) for path in removed]})
        else:
            console = human_console()
            if removed:
                console.print(t("cli.runs.gc.removed", count=len(removed)), markup=False)
                for path in removed:
                    console.print(f"  {path}", markup=False, highlight=False, soft_wrap=True)
            else:
                console.print(t("cli.runs.gc.nothing", workspace=str(store.workspace)), markup=False)
        ctx.exit(EXIT_OK)

    return gc
