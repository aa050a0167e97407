"""Registers ``paddle-workbench tui``; the command itself lives in :mod:`workbench.cli.tui`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _tui_command() -> click.Command:
    from workbench.cli.tui import tui_command

    return tui_command()


COMMANDS.register("tui", _tui_command, order=10)
