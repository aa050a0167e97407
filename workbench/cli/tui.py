"""``paddle-workbench [tui] [--demo] [--plan FILE]``: the terminal UI, or the run list in line mode (pipe, ``--plain``)."""

from __future__ import annotations

from pathlib import Path

import click

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_OK, human_console, is_headless
from workbench.cli.quick_start import open_tui, theme_known, theme_names
from workbench.cli.state import pass_settings
from workbench.i18n import t
from workbench.settings import WorkbenchSettings


def check_theme(theme: str | None) -> None:
    """The ``theme`` setting must name a bundled theme (exit 2 with the choices, like ``--lang``).

    Checked by the root command for every command, not only ``tui``: ``--theme nope runs`` is a typo the
    user should hear about, as ``--lang nope runs`` is."""
    if theme is None or theme_known(theme):
        return
    raise click.BadParameter(
        t("cli.theme.unknown", name=theme, choices=", ".join(theme_names())), param_hint="'--theme'"
    )


def tui_command() -> click.Command:
    @click.command("tui", help=t("cli.tui.help"))
    @click.option("--demo", is_flag=True, help=t("cli.tui.demo"))
    @click.option("--plan", "plan", metavar="FILE", default=None, help=t("cli.tui.plan"))
    @pass_settings
    @click.pass_context
    def tui(ctx: click.Context, settings: WorkbenchSettings, demo: bool, plan: str | None) -> None:
        plan_path = Path(plan).expanduser().resolve() if plan else None
        if plan_path is not None and not plan_path.is_file():
            human_console().print(t("cli.tui.plan_missing", path=plan), markup=False)
            ctx.exit(EXIT_BAD_INPUT)
        if is_headless(settings.plain):
            # Line mode: never start Textual on a pipe or a dumb terminal.
            console = human_console()
            console.print(t("cli.tui.headless"))
            from workbench.cli.runs import print_run_table
            from workbench.runs import RunStore

            print_run_table(console, RunStore(settings.workspace))
            ctx.exit(EXIT_OK)
        ctx.exit(open_tui(settings, demo=demo, open_plan=plan_path))

    return tui
