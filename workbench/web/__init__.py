"""The workbench in a browser: ``paddle-workbench web`` serves the TUI through ``textual-serve``.

The server is ``textual-serve`` on aiohttp (the optional extra ``web``). Each browser tab gets one app
process of its own (:mod:`workbench.screens.web_entry`), as ``textual-serve`` starts them; the runs a tab
starts live in that process, which outlives its tab until they end (see the module of the entry).

One idea per module:

- :mod:`.auth`: the token (kept like ``serve``'s, in its own file), the cookie it becomes, and the
  middleware that checks every page, static file and websocket.
- the server, :mod:`workbench.screens.web_server` (UI, so with the screens): ``textual-serve``'s
  ``Server`` with our page (title, local fonts, addresses relative to the page), the middleware, a socket
  bound before start, no access log, and tab processes stopped like ``q`` stops runs when the server stops.

Nothing here imports textual or textual-serve: the app process is started as a command, never imported.
"""

from __future__ import annotations

import importlib.util

WEB_FIX = "pip install 'paddle-workbench[web]'"
WEB_MODULES = ("textual_serve", "aiohttp", "aiohttp_jinja2")


def missing_modules() -> list[str]:
    """The extra's modules that do not import here (checked before anything of them is imported)."""
    return [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]
