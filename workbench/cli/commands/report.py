"""Registers ``paddle-workbench report``; the command itself lives in :mod:`workbench.cli.report`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _report_command() -> click.Command:
    from workbench.cli.report import report_command

    return report_command()


COMMANDS.register("report", _report_command, order=100)
