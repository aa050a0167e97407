"""The bearer token ``serve`` requires: from ``PADDLE_WORKBENCH_SERVE_TOKEN``, else a file in the workspace.

The file ``<workspace>/serve/token`` is created on first use with 32 random bytes (URL-safe base64),
``O_EXCL`` and mode 0600, so no other user can read it and two servers starting at once agree on one
token. A file that others can read or write is refused (the fix is ``chmod 600``). The token is never
printed or logged — ``serve`` prints how to read it — and requests are checked with
:func:`hmac.compare_digest`, whose time does not depend on where the first differing byte is.
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from workbench.i18n import t
from workbench.permissions import private_dir

TOKEN_ENV = "PADDLE_WORKBENCH_SERVE_TOKEN"
MIN_TOKEN_CHARS = 16


class TokenProblem(Exception):
    """The token cannot be read or is unsafe (exit code 2, with the fix)."""


@dataclass(frozen=True)
class Token:
    value: str
    source: str
    """``env`` or the file's path."""

    def matches(self, header: str | None) -> bool:
        """``header`` is ``Bearer <this token>`` (compared in constant time)."""
        if not header:
            return False
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return self.accepts(given.strip())

    def accepts(self, given: str | None) -> bool:
        """``given`` is this token itself (compared in constant time): a cookie's or a query's value."""
        if not given:
            return False
        return hmac.compare_digest(given.encode("utf-8"), self.value.encode("utf-8"))

    def __repr__(self) -> str:  # never in a log or a traceback
        return f"Token(source={self.source!r})"


def token_path(workspace: Path) -> Path:
    return Path(workspace) / "serve" / "token"


def load_token(
    workspace: Path,
    environ: dict[str, str] | None = None,
    *,
    path: Path | None = None,
    env_name: str = TOKEN_ENV,
) -> tuple[Token, bool]:
    """``(token, created)``: the environment's token, else the workspace file (made on first use).

    ``path`` and ``env_name`` name another token kept the same way (``web`` keeps its own, in
    ``<workspace>/web/token`` and ``PADDLE_WORKBENCH_WEB_TOKEN``); the default is ``serve``'s."""
    env = os.environ if environ is None else environ
    given = env.get(env_name, "").strip()
    if given:
        if len(given) < MIN_TOKEN_CHARS:
            raise TokenProblem(t("serve.token.env_short", env=env_name, min=MIN_TOKEN_CHARS))
        return Token(given, "env"), False
    path = token_path(workspace) if path is None else path
    private_dir(path.parent, ours=True)  # 0700: the token's folder is nobody else's either
    created = False
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(secrets.token_urlsafe(32) + "\n")
        created = True
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise TokenProblem(t("serve.token.unsafe_mode", path=str(path), mode=oct(mode)))
    value = path.read_text(encoding="utf-8").strip()
    if len(value) < MIN_TOKEN_CHARS:
        raise TokenProblem(t("serve.token.file_short", path=str(path), min=MIN_TOKEN_CHARS))
    return Token(value, str(path)), created


def read_token(workspace: Path, environ: dict[str, str] | None = None) -> str | None:
    """The token a client of this workspace's server sends: the environment's, else the file's (or ``None``)."""
    env = os.environ if environ is None else environ
    given = env.get(TOKEN_ENV, "").strip()
    if given:
        return given
    try:
        return token_path(workspace).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None
