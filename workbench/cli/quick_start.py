"""``paddle-workbench [tui]`` with global options only: the terminal UI, started without click.

The TUI's first frame is held to a bare Textual app's time (docs/architecture.md, "Budgets"), and
importing click and building the command tree cost ~10 ms of it. The plainest command line
therefore skips both: the global options (each at most once, with a value click would take as it is),
then at most the word ``tui``, settings that resolve, a theme that exists, and a terminal to draw on.
Anything else (``--help``, another command, ``tui --demo``, a typo, a bad value, a broken config file,
line mode) goes through click exactly as before, which reports what is wrong in the usual words and
exit code: this path only ever starts the same TUI that click would have started.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.settings import WorkbenchSettings

FLAGS = {"--low-bandwidth": "low_bandwidth", "--plain": "plain"}
"""The root command's flags: option -> setting."""
VALUED = {"--workspace": "workspace", "--lang": "lang", "--theme": "theme"}
"""The root command's options that take a value: option -> setting."""
LANGUAGES = ("en", "zh")


def global_options(args: Sequence[str]) -> dict[str, Any] | None:
    """The settings given by ``args`` when it is global options and at most ``tui`` after them, as the
    root command passes them on (``workspace`` a ``Path``, a flag ``True``); ``None`` for any other
    command line, which click is left to read."""
    given: dict[str, Any] = {}
    rest = list(args)
    if rest and rest[-1] == "tui":
        rest.pop()
    while rest:
        option = rest.pop(0)
        value: str | None = None
        if "=" in option and option.startswith("--"):
            option, value = option.split("=", 1)
        if option in FLAGS and value is None:
            name, parsed = FLAGS[option], True
        elif option in VALUED:
            if value is None:
                if not rest:
                    return None
                value = rest.pop(0)
            name, parsed = VALUED[option], _value(option, value)
            if parsed is None:
                return None
        else:
            return None
        if name in given:  # given twice: click's rule (the last wins) is left to click
            return None
        given[name] = parsed
    return given


def _value(option: str, value: str) -> Any:
    """The option's value as click passes it on, or ``None`` where click would refuse it or read it
    some other way (a value that looks like an option, a workspace that is a file, a language we lack)."""
    if not value or value.startswith("-"):
        return None
    if option == "--lang":
        return value if value in LANGUAGES else None
    if option == "--workspace":
        path = Path(value)
        return None if path.is_file() else path
    return value


def theme_names() -> dict[str, str]:
    """``--theme`` name -> registered theme name of every bundled theme (read from the file names)."""
    from workbench.themes import theme_choices  # the one place the CLI reads the UI's theme list

    return theme_choices()


def theme_known(theme: str) -> bool:
    """Whether ``theme`` names a bundled theme (by its ``--theme`` name or its registered name)."""
    choices = theme_names()
    return theme in choices or theme in choices.values()


def start_tui_quickly(args: Sequence[str]) -> int | None:
    """Run the TUI for a plain ``args`` and return its exit code; ``None``, having done nothing, when
    click must read the command line."""
    given = global_options(args)
    if given is None:
        return None
    from workbench.cli.output import is_headless
    from workbench.config.errors import ConfigError
    from workbench.settings import resolve_settings

    try:
        settings = resolve_settings(given)
    except ConfigError:
        return None  # the root command lists every problem
    if settings.theme is not None and not theme_known(settings.theme):
        return None
    if is_headless(settings.plain):
        return None  # line mode: the run list, as the tui command prints it
    return open_tui(settings)


def open_tui(settings: WorkbenchSettings, *, demo: bool = False, open_plan: Path | None = None) -> int:
    """Run the TUI until the user quits: its exit code, or 2 with a message when the workspace cannot
    be made (a path through a file)."""
    from workbench.screens.launch import run_tui

    try:
        return run_tui(settings, demo=demo, open_plan=open_plan)
    except OSError as exc:
        from workbench.cli.output import EXIT_BAD_INPUT, human_console
        from workbench.i18n import t

        message = t("cli.workspace.unusable", path=str(settings.workspace), error=str(exc))
        human_console().print(message, markup=False)
        return EXIT_BAD_INPUT
