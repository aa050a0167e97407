"""Registers ``paddle-workbench diagnose``; the command itself lives in :mod:`workbench.cli.diagnose`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _diagnose_command() -> click.Command:
    from workbench.cli.diagnose import diagnose_command

    return diagnose_command()


COMMANDS.register("diagnose", _diagnose_command, order=80)
