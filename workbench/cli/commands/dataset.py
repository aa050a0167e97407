"""Registers ``paddle-workbench dataset``; the commands live in :mod:`workbench.cli.dataset`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _dataset_command() -> click.Command:
    from workbench.cli.dataset import dataset_group

    return dataset_group()


COMMANDS.register("dataset", _dataset_command, order=70)
