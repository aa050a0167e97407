"""Registers ``paddle-workbench loadtest``; the command itself lives in :mod:`workbench.cli.loadtest`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _loadtest_command() -> click.Command:
    from workbench.cli.loadtest import loadtest_command

    return loadtest_command()


COMMANDS.register("loadtest", _loadtest_command, order=120)
