"""The ``web`` token: kept like ``serve``'s (0600, made on first use), asked for by every request.

The token lives in ``<workspace>/web/token`` (or ``PADDLE_WORKBENCH_WEB_TOKEN``), made and checked by
:func:`workbench.serve.auth.load_token`. A browser brings it once, as ``?token=`` in the address the
command prints; the server answers with a redirect to the same page without it and a cookie holding it
(``HttpOnly``, ``SameSite=Strict``), so the token leaves the address bar and history. Every request after
that — the page, its static files, the websocket that starts an app process — needs the cookie; without
it the answer is 403 and nothing starts. A websocket whose ``Origin`` is another site is refused too
(a page elsewhere cannot drive the app through the user's cookie).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from aiohttp.typedefs import Middleware

from workbench.i18n import t
from workbench.serve.auth import Token, load_token

TOKEN_ENV = "PADDLE_WORKBENCH_WEB_TOKEN"
QUERY_KEY = "token"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def web_token_path(workspace: Path) -> Path:
    return Path(workspace) / "web" / "token"


def load_web_token(workspace: Path, environ: dict[str, str] | None = None) -> tuple[Token, bool]:
    """``(token, created)``: ``PADDLE_WORKBENCH_WEB_TOKEN``, else ``<workspace>/web/token``."""
    return load_token(workspace, environ, path=web_token_path(workspace), env_name=TOKEN_ENV)


def cookie_name(port: int) -> str:
    """One cookie per port: two servers on one host (cookies ignore ports) keep their own."""
    return f"paddle_workbench_web_{port}"


def refused() -> web.Response:
    return web.Response(status=403, text=t("web.refused") + "\n", headers={"Cache-Control": "no-store"})


def same_origin(request: web.Request) -> bool:
    """No ``Origin`` (not a browser page), or the page's origin is this server as the browser names it."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and rest == request.host


def token_middleware(token: Token, cookie: str) -> Middleware:
    """The aiohttp middleware of the module docstring."""

    @web.middleware
    async def check_token(request: web.Request, handler: Handler) -> web.StreamResponse:
        given = request.query.get(QUERY_KEY)
        if given is not None:
            if not token.accepts(given):
                return refused()
            kept = [(key, value) for key, value in request.query.items() if key != QUERY_KEY]
            redirect = web.Response(
                status=303,
                headers={"Location": str(request.rel_url.with_query(kept)), "Cache-Control": "no-store"},
            )
            redirect.set_cookie(cookie, token.value, httponly=True, samesite="Strict", path="/")
            return redirect
        if not token.accepts(request.cookies.get(cookie)) or not same_origin(request):
            return refused()
        response = await handler(request)
        if not response.prepared:  # a websocket's headers are already sent
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["X-Frame-Options"] = "DENY"
        return response

    return check_token
