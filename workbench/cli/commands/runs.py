"""Registers ``paddle-workbench runs``; the command itself lives in :mod:`workbench.cli.runs`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _runs_command() -> click.Command:
    from workbench.cli.runs import runs_command

    return runs_command()


COMMANDS.register("runs", _runs_command, order=130)
