"""Registers ``paddle-workbench attach``; the command itself lives in :mod:`workbench.cli.attach`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _attach_command() -> click.Command:
    from workbench.cli.attach import attach_command

    return attach_command()


COMMANDS.register("attach", _attach_command, order=65)
