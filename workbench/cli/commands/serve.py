"""Registers ``paddle-workbench serve``; the command itself lives in :mod:`workbench.cli.serve`."""

from __future__ import annotations

import click

from workbench.cli.commands import COMMANDS


def _serve_command() -> click.Command:
    from workbench.cli.serve import serve_command

    return serve_command()


COMMANDS.register("serve", _serve_command, order=110)
