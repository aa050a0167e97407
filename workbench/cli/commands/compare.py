"""Registers ``paddle-workbench compare``; the command itself lives in :mod:`workbench.cli.compare`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _compare_command() -> click.Command:
    from workbench.cli.compare import compare_command

    return compare_command()


COMMANDS.register("compare", _compare_command, order=60)
