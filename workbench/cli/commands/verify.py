"""Registers ``paddle-workbench verify``; the command itself lives in :mod:`workbench.cli.verify`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _verify_command() -> click.Command:
    from workbench.cli.verify import verify_command

    return verify_command()


COMMANDS.register("verify", _verify_command, order=90)
