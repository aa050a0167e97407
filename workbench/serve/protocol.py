"""The HTTP/1.1 connection under the app: uvicorn's h11 protocol with a time limit on every phase.

uvicorn closes a kept-alive connection that stays silent after a response (``timeout_keep_alive``), but
has no limit on a new connection that sends nothing, none on headers that arrive slowly (slowloris: one
header line every few seconds keeps a socket forever), and none on a body that trickles in after the
app has already answered (a 401 does not read the body). A few such clients hold every socket the
process may open, without a token. :class:`GuardedH11Protocol` adds, per connection:

- **idle** (``idle_timeout_s``): a new connection gets the same limit as a kept-alive one until its
  first byte arrives, then it is closed;
- **headers** (``header_timeout_s``): from the connection, or from the end of the previous response,
  until the request's headers are complete; then a JSON 408 (nothing, for a client that sent nothing)
  and the connection is closed;
- **body** (``body_timeout_s``): from the headers until the body's last byte. The app answers a JSON
  408 itself when it is reading the body (:mod:`workbench.serve.app`); this limit, one second later,
  closes what the app did not read;
- a request h11 cannot parse, or whose headers pass ``MAX_HEADER_BYTES``, gets a JSON 400, where
  uvicorn's is plain text.

The phases follow h11's state for the client (``IDLE``: the headers are awaited; ``SEND_BODY``: the
body is), read after every event uvicorn handles, so the limits need no copy of uvicorn's parser. The
hooks (``connection_made``, ``data_received``, ``on_response_complete``, ``connection_lost``,
``send_400_response``, ``timeout_keep_alive_task``) are uvicorn's H11Protocol's, stable since 0.2x.
Each refusal writes one line to the serve log, through ``limits.log``.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from workbench.i18n import t

MAX_HEADER_BYTES = 16 * 1024
"""The most a request's line and headers may take (h11's default, stated here so it is a decision)."""
BODY_GRACE_S = 1.0
"""How much longer than ``body_timeout_s`` the connection waits before closing an unread body."""


def _no_log(line: str) -> None:
    return None


@dataclass(frozen=True)
class ConnectionLimits:
    idle_s: float
    header_s: float
    body_s: float
    log: Callable[[str], None] = field(default=_no_log)
    """One line per refused connection (the serve log)."""


def raw_json_response(status: int, reason: str, error: str) -> bytes:
    """A whole HTTP/1.1 JSON error response that closes the connection, for when h11 cannot send one
    (no request has been parsed yet, so there is nothing for h11 to answer)."""
    body = json.dumps({"error": error, "request_id": uuid.uuid4().hex[:16]}, ensure_ascii=False).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the limits of the module docstring (bind them: :func:`guarded_protocol`)."""

    limits: ClassVar[ConnectionLimits]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.limits.idle_s  # type: ignore[assignment]  # call_later takes a float
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None

    # -- uvicorn's hooks -------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # uvicorn arms its keep-alive timer only after a response: a new connection gets it here, so
        # one that never sends a byte is closed like an idle kept-alive one.
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )
        self._follow()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """A JSON 400 (uvicorn's is plain text), then the connection is closed."""
        self._cancel_timers()
        self.limits.log(f'client={self._client_label()} "- -" 400 invalid HTTP request')
        cycle = self.cycle
        answering = cycle is not None and cycle.response_started and not cycle.response_complete
        if not self.transport.is_closing() and not answering:  # mid-answer: only close
            self.transport.write(raw_json_response(400, "Bad Request", t("serve.request.invalid_http")))
        self.transport.close()

    # -- the limits ------------------------------------------------------------------------------------

    def _follow(self) -> None:
        """Arm or cancel the header and body limits for the phase h11 is in now."""
        if self.transport is None or self.transport.is_closing():
            self._cancel_timers()
            return
        phase = self.conn.their_state
        if phase is h11.IDLE:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(self.limits.header_s, self._headers_too_slow)
        elif self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        if phase is h11.SEND_BODY:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(
                    self.limits.body_s + BODY_GRACE_S, self._body_too_slow
                )
        elif self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        self._cancel_timers()
        started, _ = self.conn.trailing_data
        if started:  # part of a request came: say why it ends
            self.limits.log(f'client={self._client_label()} "- -" 408 headers not complete in time')
            seconds = f"{self.limits.header_s:g}"
            error = t("serve.request.header_timeout", seconds=seconds)
            self.transport.write(raw_json_response(408, "Request Timeout", error))
        self.transport.close()

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.SEND_BODY:
            return
        self._cancel_timers()
        self.limits.log(f'client={self._client_label()} "- -" body not complete in time: connection closed')
        self.transport.close()

    def _cancel_timers(self) -> None:
        for timer in (self._header_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._body_timer = None

    def _client_label(self) -> str:
        return str(self.client[0]) if self.client else "?"


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` class bound to ``limits`` (uvicorn makes one instance per connection)."""

    class Bound(GuardedH11Protocol):
        pass

    Bound.limits = limits
    return Bound
