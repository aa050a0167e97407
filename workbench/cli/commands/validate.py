"""Registers ``paddle-workbench validate``; the command itself lives in :mod:`workbench.cli.validate`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _validate_command() -> click.Command:
    from workbench.cli.validate import validate_command

    return validate_command()


COMMANDS.register("validate", _validate_command, order=20)
