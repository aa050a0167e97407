"""``textual-serve``'s ``Server`` with the workbench's page, token and lifecycle.

- **The page** (``web_templates/index.html``): titled with the workspace, fonts from the package's own
  static folder (``textual-serve``'s page links Google Fonts, which a closed network cannot reach and
  whose fallback lacks some of the glyphs the TUI draws), and every address relative to the page, so a
  tunnel on another local port (``ssh -L 9000:127.0.0.1:8000``) works.
- **The token** (:mod:`workbench.web.auth`) on every route, through one middleware.
- **The socket** is bound before start (the real port is printed even for ``--port 0``) and not
  inherited by the app processes; aiohttp's access log is off (a first load's address holds the token).
- **Stopping** (SIGINT, SIGTERM, SIGHUP): the tab processes — each browser tab's, and those a closed tab
  left running its runs — get SIGTERM, stop their runs as ``q`` does (each finishes its step and writes a
  checkpoint), and the server waits for them (bounded) before it exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import psutil
from aiohttp import web
from textual_serve.server import Server

from workbench.i18n import t
from workbench.serve.auth import Token
from workbench.web.auth import cookie_name, token_middleware

TEMPLATES = Path(__file__).resolve().parent / "web_templates"
STOP_WAIT_S = 30.0
"""How long a stopping server waits for its tab processes (each waits at most ``QUIT_WAIT_S`` for its runs)."""


class WorkbenchWebServer(Server):
    """The server of the module docstring, for one workspace and one bound socket."""

    def __init__(self, command: str, *, sock: socket.socket, token: Token, title: str) -> None:
        host, port = sock.getsockname()[:2]
        super().__init__(command, host=str(host), port=int(port), title=title, templates_path=TEMPLATES)
        self.sock = sock
        self.token = token
        self.on_stopped: Callable[[int], None] | None = None
        """Told how many tab processes the stop waited for."""

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(token_middleware(self.token, cookie_name(self.port)))
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Nothing printed: the command says where the server is (``textual-serve`` prints a logo)."""

    async def on_shutdown(self, app: web.Application) -> None:
        tabs = psutil.Process().children()
        for tab in tabs:
            with contextlib.suppress(psutil.Error):
                tab.send_signal(signal.SIGTERM)
        await asyncio.to_thread(psutil.wait_procs, tabs, STOP_WAIT_S)
        if self.on_stopped is not None:
            self.on_stopped(len(tabs))

    @aiohttp_jinja2.template("index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        try:
            font_size = int(request.query.get("fontsize", "16"))
        except ValueError:
            font_size = 16
        return {
            "title": self.title,
            "font_size": font_size,
            "ended": t("web.ended"),
            "restart": t("web.restart"),
        }

    def serve(self, debug: bool = False) -> None:
        """Serve until SIGINT, SIGTERM or SIGHUP; then stop the tab processes (see the module docstring)."""
        self.debug = debug
        loop = asyncio.new_event_loop()
        for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(stop, self.request_exit)
        self.sock.set_inheritable(False)
        try:
            web.run_app(
                self._make_app(),
                sock=self.sock,
                handle_signals=False,
                loop=loop,
                print=None,
                access_log=None,
                shutdown_timeout=STOP_WAIT_S,
            )
        finally:
            with contextlib.suppress(Exception):
                loop.close()
