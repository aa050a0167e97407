"""The commands of ``paddle-workbench``: one module per command in this folder, each registering itself.

An entry is a factory that builds the ``click.Command`` (called after the language is set, so help
texts are translated). ``order`` keeps the order of ``--help``, which is the path a user walks:

====  ========  ====  =========  =====  ========
10    tui       50    plan       90     verify
20    validate  60    compare    100    report
30    check     70    dataset    110    serve
40    train     80    diagnose   120    loadtest
                                 130    runs
====  ========  ====  =========  =====  ========

Commands whose feature has not landed are registered as placeholders by ``planned.py``; a real
command of the same name replaces its placeholder. Adding a command is one new module here plus its
catalog strings and a test::

    # workbench/cli/commands/dataset.py
    import click

    from workbench.cli.commands import COMMANDS
    from workbench.cli.state import pass_settings
    from workbench.i18n import t

    def dataset_command() -> click.Command:
        @click.command("dataset", help=t("cli.dataset.help"))
        @pass_settings
        def dataset(settings) -> None: ...

        return dataset

    COMMANDS.register("dataset", dataset_command, order=70)

A command reads the user's settings with ``@pass_settings`` (:mod:`workbench.cli.state`).
"""

from __future__ import annotations

from collections.abc import Callable

import click

from workbench.registry import Registry

CommandFactory = Callable[[], click.Command]

COMMANDS: Registry[CommandFactory] = Registry("command", __name__)
"""Every command by name, in the order ``--help`` lists them."""

__all__ = ["COMMANDS", "CommandFactory"]
