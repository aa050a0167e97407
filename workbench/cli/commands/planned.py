"""Commands whose features have not landed yet, registered as placeholders.

Each one is listed in ``--help`` with what it will do, accepts any arguments, and exits 2 with a clear
"not available yet" message — so scripts written against the stable surface fail loudly, not oddly.
When a feature lands, its own module in this folder registers the real command under the same name and
replaces the placeholder; its line here can then go.
"""

from __future__ import annotations

import functools

import click

from workbench.cli.commands import COMMANDS
from workbench.i18n import t

PLANNED: dict[str, float] = {
    "diagnose": 80,
    "report": 100,
}
"""Command name → its place in ``--help``; help text ``cli.<name>.help``, feature ``cli.planned.feature.<name>``."""


def _placeholder(name: str) -> click.Command:
    @click.command(
        name,
        help=t(f"cli.{name}.help") + "\n\n" + t("cli.planned.short"),
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    @click.pass_context
    def command(ctx: click.Context) -> None:
        from workbench.cli.output import EXIT_BAD_INPUT, human_console

        feature = t(f"cli.planned.feature.{name}")
        human_console(json_mode=True).print(t("cli.planned", command=name, feature=feature), markup=False)
        ctx.exit(EXIT_BAD_INPUT)

    return command


for _name, _order in PLANNED.items():
    COMMANDS.register(_name, functools.partial(_placeholder, _name), order=_order, placeholder=True)
