"""Registers ``paddle-workbench plan``; the command group itself lives in :mod:`workbench.cli.plan`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _plan_command() -> click.Command:
    from workbench.cli.plan import plan_command

    return plan_command()


COMMANDS.register("plan", _plan_command, order=50)
