"""Registers ``paddle-workbench check``; the command itself lives in :mod:`workbench.cli.check`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _check_command() -> click.Command:
    from workbench.cli.check import check_command

    return check_command()


COMMANDS.register("check", _check_command, order=30)
