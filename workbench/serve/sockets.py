"""The listening socket ``serve`` and ``web`` bind, and what a host names: no server package imported here.

:func:`bind` opens the socket before the server starts (the real port is known and printed even for
``--port 0``); :func:`is_loopback_host` decides whether a bind or a target needs ``--allow-remote``.
"""

from __future__ import annotations

import ipaddress
import socket

__all__ = ["bind", "is_loopback_host", "served_url"]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (IPv6 when ``host`` is an IPv6 address).

    It listens from here on, so a client that connects as soon as the URL is printed waits in the
    backlog until uvicorn starts accepting instead of being refused.
    """
    try:
        family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        family = socket.AF_INET
    # proto=IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets whose proto says TCP. Without
    # it a kept-alive response waits for the client's delayed ACK (~40 ms per request on Linux).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)  # connections wait in the backlog until uvicorn accepts: none is refused
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def is_loopback_host(host: str) -> bool:
    """Every address ``host`` resolves to is a loopback address."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(
        ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos
    )


def served_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in str(host) else str(host)
    return f"http://{shown}:{port}"
