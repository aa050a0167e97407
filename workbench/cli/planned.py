"""Commands of DESIGN.md §4 whose features have not landed yet.

Each one is listed in ``--help`` with what it will do, accepts any arguments, and exits 2 with a clear
"not available yet" message — so scripts written against the stable surface fail loudly, not oddly.
When a feature lands, its real command replaces the entry here (real commands win in ``build_cli``).
"""

from __future__ import annotations

import click

from workbench.cli.output import EXIT_BAD_INPUT, human_console
from workbench.i18n import t

# command name -> (help key, issue that delivers it)
PLANNED: dict[str, tuple[str, str]] = {
    "plan": ("cli.plan.help", "the auto-parallel issue"),
    "dataset": ("cli.dataset.help", "the datasets issue"),
    "diagnose": ("cli.diagnose.help", "the troubleshooting issue"),
    "verify": ("cli.verify.help", "the verification issue"),
    "report": ("cli.report.help", "the verification issue"),
    "serve": ("cli.serve.help", "the serving issue"),
    "loadtest": ("cli.loadtest.help", "the serving issue"),
}


def _planned(name: str, help_key: str, issue: str) -> click.Command:
    @click.command(
        name,
        help=t(help_key) + "\n\n" + t("cli.planned.short"),
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    @click.pass_context
    def command(ctx: click.Context) -> None:
        human_console(json_mode=True).print(t("cli.planned", command=name, issue=issue))
        ctx.exit(EXIT_BAD_INPUT)

    return command


def all_commands() -> list[click.Command]:
    return [_planned(name, help_key, issue) for name, (help_key, issue) in PLANNED.items()]
