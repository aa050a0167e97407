"""``paddle-workbench train CONFIG``: validate the config now; the training engine comes with issue 4."""

from __future__ import annotations

from pathlib import Path

import click

from workbench.cli.output import EXIT_BAD_INPUT, emit_json, human_console, print_issues
from workbench.config import ConfigError, load_model
from workbench.config.training import TrainingConfig
from workbench.i18n import t


def train_command() -> click.Command:
    @click.command("train", help=t("cli.train.help"))
    @click.argument("config", type=click.Path(path_type=Path))
    @click.option("-o", "overrides", multiple=True, metavar="KEY=VALUE", help=t("cli.opt.override"))
    @click.option("--resume", metavar="latest|RUN", help=t("cli.opt.resume"))
    @click.option("--plain", is_flag=True, help=t("cli.opt.plain"))
    @click.option("--json", "json_mode", is_flag=True, help=t("cli.opt.json"))
    @click.pass_context
    def train(
        ctx: click.Context,
        config: Path,
        overrides: tuple[str, ...],
        resume: str | None,
        plain: bool,
        json_mode: bool,
    ) -> None:
        console = human_console(json_mode)
        try:
            load_model(config, TrainingConfig, overrides)
        except ConfigError as exc:
            print_issues(console, exc.issues)
            if json_mode:
                emit_json({"run_dir": None, "status": "invalid", "errors": [i.to_dict() for i in exc.issues]})
            ctx.exit(EXIT_BAD_INPUT)
        console.print(t("cli.planned", command="train", issue="#4"))
        if json_mode:
            emit_json({"run_dir": None, "status": "not_available"})
        ctx.exit(EXIT_BAD_INPUT)

    return train
