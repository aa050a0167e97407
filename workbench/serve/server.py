"""Run the app on uvicorn with the workbench's lifecycle.

:func:`open_state` loads everything before the socket is opened (Paddle, the predictors, the token), so
a client never reaches a half-loaded server. :func:`serve` binds the socket itself (the real port is
known and printed even for ``--port 0``) and runs uvicorn with its own signal handling:

- the first SIGTERM or SIGINT stops accepting connections and lets in-flight requests finish (at most
  ``graceful_timeout_s``), then the process exits 0 and the port is free;
- a second signal exits at once (``128 + signal``), without waiting.

uvicorn's own handler would re-raise the signal after a graceful stop (so the exit status would say
"killed"); this subclass does not.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import uvicorn

from workbench.serve.app import ServeState, create_app
from workbench.serve.auth import Token
from workbench.serve.options import ServeOptions
from workbench.serve.predictor import GuardedPredictor
from workbench.serve.preprocess import Preprocessor
from workbench.serve.source import ServedExport

LOG_FILE = "serve.log"


def access_logger(log_dir: Path) -> logging.Logger:
    """A logger writing only to ``<log_dir>/serve.log`` (not propagated: nothing reaches the console)."""
    logger = logging.getLogger(f"workbench.serve.access.{log_dir}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if not logger.handlers:
        handler = logging.FileHandler(log_dir / LOG_FILE, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    return logger


def close_logger(logger: logging.Logger) -> None:
    for handler in list(logger.handlers):
        handler.close()
        logger.removeHandler(handler)


def open_state(export: ServedExport, token: Token, options: ServeOptions) -> ServeState:
    """Paddle, the guarded predictors and the preprocessing for ``export`` (seconds: imports Paddle)."""
    from workbench.training.runtime import import_paddle

    preprocessor = Preprocessor.for_export(export.preprocess, export.input_spec, options.max_batch)
    paddle = import_paddle()
    input_name = str((export.input_spec[0] if export.input_spec else {}).get("name") or "x")
    predictor = GuardedPredictor.open(
        paddle, export.prefix, input_name, options.chosen_guard, options.workers
    )
    return ServeState(
        export=export,
        preprocessor=preprocessor,
        predictor=predictor,
        token=token,
        options=options,
        paddle_version=str(paddle.__version__),
        access_log=access_logger(export.log_dir),
    )


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


class _Server(uvicorn.Server):
    """uvicorn with the lifecycle of the module docstring."""

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[int], None]) -> None:
        super().__init__(config)
        self._on_stop = on_stop

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        originals = {sig: signal.signal(sig, self._signalled) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in originals.items():
                signal.signal(sig, handler)

    def _signalled(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit:
            os._exit(128 + sig)
        self.should_exit = True
        self._on_stop(sig)


def serve(state: ServeState, sock: socket.socket, on_stop: Callable[[int], None]) -> None:
    """Serve on ``sock`` until a signal (see the module docstring); the socket is closed afterwards."""
    config = uvicorn.Config(
        create_app(state),
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        timeout_graceful_shutdown=math.ceil(state.options.graceful_timeout_s),
        log_config=None,
    )
    server = _Server(config, on_stop)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        state.predictor.close()
        close_logger(state.access_log)


def served_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in str(host) else str(host)
    return f"http://{shown}:{port}"
