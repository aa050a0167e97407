"""Registers ``paddle-workbench train``; the command itself lives in :mod:`workbench.cli.train`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _train_command() -> click.Command:
    from workbench.cli.train import train_command

    return train_command()


COMMANDS.register("train", _train_command, order=40)
