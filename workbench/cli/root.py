"""The command tree: the root command's global options, then every command of :data:`COMMANDS` in order.

Each command is a factory named as a ``"module:function"`` string and imported the first time the command
is asked for, after the language is set (so its help texts are translated). The root command resolves
the user's settings (flags, ``PADDLE_WORKBENCH_*``, the user config file) once; commands read them with
``@pass_settings`` (:mod:`workbench.cli.state`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from workbench.cli.output import EXIT_BAD_INPUT, human_console, print_issues
from workbench.cli.usage_errors import catalog_errors
from workbench.config.errors import ConfigError
from workbench.i18n import current_language, t
from workbench.settings_sources import user_config_path

COMMANDS: dict[str, str] = {
    "tui": "workbench.cli.tui:tui_command",
    "web": "workbench.cli.web:web_command",
    "validate": "workbench.cli.validate:validate_command",
    "check": "workbench.cli.check:check_command",
    "train": "workbench.cli.train:train_command",
    "plan": "workbench.cli.plan:plan_command",
    "compare": "workbench.cli.compare:compare_command",
    "attach": "workbench.cli.attach:attach_command",
    "dataset": "workbench.cli.dataset:dataset_group",
    "diagnose": "workbench.cli.diagnose:diagnose_command",
    "verify": "workbench.cli.verify:verify_command",
    "report": "workbench.cli.report:report_command",
    "serve": "workbench.cli.serve:serve_command",
    "loadtest": "workbench.cli.loadtest:loadtest_command",
    "runs": "workbench.cli.runs:runs_command",
}
"""Every command: its name → the ``"module:function"`` that builds its ``click.Command``.

The order is the order of ``--help``, the path a user walks. ``--help`` lists each command with the
first sentence of its catalog help, ``cli.<name>.help``, without importing the module. Adding a command
is its module, one line here, its catalog strings and a test.
"""


def command_factory(name: str) -> Callable[[], click.Command]:
    """Import the factory that builds command ``name`` (a ``KeyError`` for a name not in the table)."""
    module, _, function = COMMANDS[name].partition(":")
    factory: Callable[[], click.Command] = getattr(importlib.import_module(module), function)
    return factory


# click's own headings, translated by our formatter (click takes them from gettext, which we don't ship).
_HEADINGS_ZH = {"Options": "选项", "Commands": "命令", "Arguments": "参数"}
_CLICK_HELP_TEXT = "Show this message and exit."
# click's own words in a usage line ("[OPTIONS] [COMMAND] [ARGS]..."); parameter names stay as they are.
_USAGE_WORDS = {
    "[OPTIONS]": "cli.usage.options",
    "COMMAND": "cli.usage.command",
    "[ARGS]...": "cli.usage.args",
}


def _usage_word(word: str) -> str:
    if word in _USAGE_WORDS:
        return t(_USAGE_WORDS[word])
    if word == "[COMMAND]":
        return "[" + t("cli.usage.command") + "]"
    return word


class CatalogHelpFormatter(click.HelpFormatter):
    """Help output in the catalog's language, including click's own headings."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        args = " ".join(_usage_word(word) for word in args.split(" ")) if args else args
        super().write_usage(prog, args, prefix=t("cli.usage") + " ")

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        # click builds each command's --help option lazily with its own English text.
        rows = [(term, t("cli.help.help") if text == _CLICK_HELP_TEXT else text) for term, text in rows]
        super().write_dl(rows, col_max, col_spacing)

    def write_heading(self, heading: str) -> None:
        if current_language() == "zh":
            heading = _HEADINGS_ZH.get(heading, heading)
        super().write_heading(heading)


class CatalogContext(click.Context):
    formatter_class = CatalogHelpFormatter


class RootGroup(click.Group):
    """The commands of :data:`COMMANDS`, each built the first time it is asked for; click's errors in our
    language.

    ``paddle-workbench train`` builds (and imports the code of) ``train`` only, and the TUI's start
    builds ``tui`` only: building every command imported the engines behind all of them (plans,
    inference, serving, verify) before the first frame. ``--help`` lists every command with the first
    sentence of its catalog help (``cli.<name>.help``) without building any; a test checks that each
    built command's own short help says the same.

    click's errors (an unknown option or command, a bad value, a missing argument) leave the root's
    parsing and every command through :func:`~workbench.cli.usage_errors.catalog_errors`, so they are
    shown in the user's language with click's exit code.
    """

    context_class = CatalogContext

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        with catalog_errors():  # the root's own options: --lang xx, --workspace FILE, --nope
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with catalog_errors():  # the command's name, its options and arguments, what it raises itself
            return super().invoke(ctx)

    def list_commands(self, ctx: click.Context) -> list[str]:
        # The table's order (the path a user walks), not alphabetical; then any added by hand.
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            command = command_factory(cmd_name)()
            _localise(command)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)  # as click computes it
        with formatter.section("Commands"):  # translated by CatalogHelpFormatter
            formatter.write_dl([(name, self.listed_help(name, limit)) for name in names])

    def listed_help(self, name: str, limit: int) -> str:
        """The line ``--help`` shows for a command: a built one says it itself, others come from the catalog."""
        built = self.commands.get(name)
        if built is None:  # not built yet: a stand-in, so click shortens the catalog text the same way
            built = click.Command(name, help=t(f"cli.{name}.help"))
        return built.get_short_help_str(limit)


def build_cli() -> click.Group:
    @click.group(
        cls=RootGroup,
        invoke_without_command=True,
        help=t("cli.root.help"),
        epilog=t("cli.root.settings", path=str(user_config_path())) + "\n\n" + t("cli.root.epilog"),
        context_settings={"max_content_width": 100},
    )
    @click.option(
        "--workspace", type=click.Path(file_okay=False, path_type=Path), help=t("cli.opt.workspace")
    )
    @click.option("--lang", type=click.Choice(["en", "zh"]), help=t("cli.opt.lang"))
    @click.option("--theme", help=t("cli.opt.theme"))
    @click.option("--low-bandwidth", is_flag=True, help=t("cli.opt.low_bandwidth"))
    @click.option("--plain", is_flag=True, help=t("cli.opt.plain"))
    @click.version_option(
        package_name="paddle-workbench", message="%(prog)s %(version)s", help=t("cli.opt.version")
    )
    @click.help_option("-h", "--help", help=t("cli.help.help"))
    @click.pass_context
    def root(
        ctx: click.Context,
        workspace: Path | None,
        lang: str | None,
        theme: str | None,
        low_bandwidth: bool,
        plain: bool,
    ) -> None:
        given = {
            name: value
            for name, value in ctx.params.items()
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
        }
        from workbench.settings import resolve_settings  # pydantic: not for --help

        try:
            ctx.obj = resolve_settings(given)
        except ConfigError as exc:  # a broken user config file or PADDLE_WORKBENCH_* value
            print_issues(human_console(json_mode=True), exc.issues)
            ctx.exit(EXIT_BAD_INPUT)
        from workbench.cli.tui import check_theme  # the one door to the UI's theme list

        check_theme(ctx.obj.theme)
        if ctx.invoked_subcommand is None:
            tui = root.get_command(ctx, "tui")
            assert tui is not None  # in COMMANDS
            ctx.invoke(tui)

    return root


def _localise(command: click.Command) -> None:
    """Give every command the translated ``--help`` text and our formatter."""
    command.context_class = CatalogContext
    for param in command.params:
        if isinstance(param, click.Option) and "--help" in param.opts:
            param.help = t("cli.help.help")
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _localise(sub)
