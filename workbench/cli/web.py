"""``paddle-workbench web [--host 127.0.0.1] [--port N] [--allow-remote] [--demo]``: the TUI in a browser.

Bad input (exit 2, all said at once): the optional extra missing, a host other machines can reach
without ``--allow-remote``, an unusable workspace or token file, a port that cannot be bound. The token
is made on first use (0600, like ``serve``'s) and printed once per start, inside the address to open;
how the server and its tab processes behave is in :mod:`workbench.screens.web_server` and
:mod:`workbench.screens.web_entry`.
"""

from __future__ import annotations

import getpass
import shlex
import socket
import sys
from dataclasses import replace

import click
from rich.text import Text

from workbench.cli.output import EXIT_BAD_INPUT, EXIT_OK, human_console
from workbench.cli.state import pass_settings
from workbench.i18n import current_language, t
from workbench.settings import WorkbenchSettings

DEFAULT_PORT = 8765
ENTRY_MODULE = "workbench.screens.web_entry"


def tab_command(settings: WorkbenchSettings, *, demo: bool) -> str:
    """The shell command ``textual-serve`` runs for each tab (``exec``: the tab's process is Python itself)."""
    args = [sys.executable, "-m", ENTRY_MODULE, "--workspace", str(settings.workspace)]
    args += ["--lang", current_language()]
    if settings.theme:
        args += ["--theme", settings.theme]
    if settings.low_bandwidth:
        args.append("--low-bandwidth")
    if demo:
        args.append("--demo")
    return "exec " + shlex.join(args)


def web_command() -> click.Command:
    @click.command("web", help=t("cli.web.help"))
    @click.option("--host", default="127.0.0.1", show_default=True, help=t("cli.web.host"))
    @click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=DEFAULT_PORT,
        show_default=True,
        help=t("cli.web.port"),
    )
    @click.option("--allow-remote", is_flag=True, help=t("cli.web.allow_remote"))
    @click.option("--demo", is_flag=True, help=t("cli.web.demo"))
    @pass_settings
    @click.pass_context
    def web(
        ctx: click.Context, settings: WorkbenchSettings, host: str, port: int, allow_remote: bool, demo: bool
    ) -> None:
        from workbench.serve.auth import TokenProblem
        from workbench.serve.sockets import bind, is_loopback_host, served_url
        from workbench.web import WEB_FIX, missing_modules

        console = human_console()
        problems: list[str] = []
        missing = missing_modules()
        if missing:
            problems.append(t("web.input.extra_missing", modules=", ".join(missing), fix=WEB_FIX))
        loopback = is_loopback_host(host)
        if not loopback and not allow_remote:
            problems.append(t("web.input.remote_refused", host=host, port=port or DEFAULT_PORT))
        workspace = settings.workspace.expanduser().resolve()
        token = None
        try:
            workspace.mkdir(parents=True, exist_ok=True)
            from workbench.web.auth import load_web_token

            token, created = load_web_token(workspace)
        except TokenProblem as exc:
            problems.append(str(exc))
        except OSError as exc:
            problems.append(t("web.input.workspace", path=str(workspace), error=exc.strerror or str(exc)))
        sock: socket.socket | None = None
        if not problems:
            try:
                sock = bind(host, port)
            except OSError as exc:
                problems.append(
                    t("web.input.bind_failed", host=host, port=port, error=exc.strerror or str(exc))
                )
        if problems or token is None or sock is None:
            for message in problems:
                console.print(Text.assemble((t("cli.error_prefix"), "bold red"), " ", message))
            ctx.exit(EXIT_BAD_INPUT)
            return
        from workbench.screens.web_server import WorkbenchWebServer
        from workbench.web.auth import TOKEN_ENV

        url = served_url(sock)
        real_port = sock.getsockname()[1]
        if not loopback:
            console.print(t("web.cli.not_loopback", host=host), style="bold yellow", markup=False)
        if token.source == "env":
            console.print(t("web.cli.open_env", url=url, env=TOKEN_ENV), markup=False)
        else:
            console.print(t("web.cli.open", url=f"{url}/?token={token.value}"), markup=False)
            console.print(t("web.cli.token_file", path=token.source), markup=False)
        if loopback:
            console.print(
                t("web.cli.tunnel", port=real_port, user=getpass.getuser(), host=socket.gethostname()),
                markup=False,
            )
        console.print(t("web.cli.ready", workspace=str(workspace)), markup=False)
        sys.stdout.flush()
        server = WorkbenchWebServer(
            tab_command(replace(settings, workspace=workspace), demo=demo),
            sock=sock,
            token=token,
            title=t("web.title", workspace=str(workspace)),
        )
        server.on_stopped = lambda tabs: console.print(t("web.cli.stopped", tabs=tabs), markup=False)
        server.serve()
        ctx.exit(EXIT_OK)

    return web
