"""The settings every command reads, resolved once by the root command and passed down by click.

The root command resolves :class:`~workbench.settings.WorkbenchSettings` from its flags, the
``PADDLE_WORKBENCH_*`` variables and the user config file, and stores them as the context object. A
command asks for them with ``@pass_settings``::

    @click.command("runs")
    @pass_settings
    def runs(settings: WorkbenchSettings) -> None:
        store = RunStore(settings.workspace)

Helpers that run inside a command but get no arguments from it (the console factory) use
:func:`current_settings`.
"""

from __future__ import annotations

import click

from workbench.config.errors import ConfigError
from workbench.settings import WorkbenchSettings, resolve_settings

pass_settings = click.make_pass_decorator(WorkbenchSettings)
"""Decorator: the command gets the resolved settings as its first argument."""


def current_settings() -> WorkbenchSettings:
    """The settings of the command being run; outside a command, resolved now (defaults when the
    sources are broken — the root command reports that, with exit code 2, before any command runs)."""
    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(WorkbenchSettings) if ctx is not None else None
    if found is not None:
        return found
    try:
        return resolve_settings()
    except ConfigError:
        return WorkbenchSettings()
