"""Run the app on uvicorn with the workbench's lifecycle.

:func:`open_state` loads everything before the socket is opened (Paddle, the predictors, the token), so
a client never reaches a half-loaded server. :func:`serve` binds the socket itself (the real port is
known and printed even for ``--port 0``) and runs uvicorn with its own signal handling:

- the first SIGTERM, SIGINT or SIGHUP stops accepting connections and lets in-flight requests finish
  (at most ``graceful_timeout_s``), then the process exits 0 and the port is free;
- a request still running at that deadline is cancelled: its client gets a JSON 503 (from
  :class:`~workbench.serve.app.Guardian`), and the console one line saying how many were cancelled;
- a second signal exits at once (``128 + signal``), without waiting.

uvicorn's own handler would re-raise the signal after a graceful stop (so the exit status would say
"killed"); this subclass does not. uvicorn's own stop timeout is not used: it logs an error and lets
uvicorn answer the cancelled request with a plain-text 500 and a traceback. Its log records go to the
serve log, one line each (never a traceback, never the console), and its connections are
:mod:`workbench.serve.protocol`'s, with their idle, header and body time limits. The process starts no
other process: the predictor pool is threads, so nothing of it outlives a stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import uvicorn

from workbench.serve.app import ServeState, create_app
from workbench.serve.auth import Token
from workbench.serve.options import ServeOptions
from workbench.serve.predictor import GuardedPredictor
from workbench.serve.preprocess import Preprocessor
from workbench.serve.protocol import MAX_HEADER_BYTES, ConnectionLimits, guarded_protocol
from workbench.serve.source import ServedExport
from workbench.stop_signals import STOP_SIGNALS

LOG_FILE = "serve.log"
FORCE_AFTER_CANCEL_S = 5.0
"""After cancelling at the stop deadline: how long to wait for the cancelled requests before leaving."""


def access_logger(log_dir: Path) -> logging.Logger:
    """A logger writing only to ``<log_dir>/serve.log`` (not propagated: nothing reaches the console)."""
    logger = logging.getLogger(f"workbench.serve.access.{log_dir}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if not logger.handlers:
        from workbench.permissions import open_private, private_dir

        private_dir(log_dir)
        open_private(log_dir / LOG_FILE).close()  # created 0600 (requests are nobody else's business)
        handler = logging.FileHandler(log_dir / LOG_FILE, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    return logger


def close_logger(logger: logging.Logger) -> None:
    for handler in list(logger.handlers):
        handler.close()
        logger.removeHandler(handler)


class _IntoServeLog(logging.Handler):
    """uvicorn's records as one line each in the serve log: an exception by its type, never a traceback."""

    def __init__(self, target: logging.Logger) -> None:
        super().__init__(logging.WARNING)
        self.target = target

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = " ".join(record.getMessage().split())[:500]
            if record.exc_info and record.exc_info[1] is not None:
                text = f"{text} ({type(record.exc_info[1]).__name__})"
            self.target.log(record.levelno, "uvicorn: %s", text)
        except Exception:  # noqa: BLE001 - logging must never end a request
            self.handleError(record)


@contextlib.contextmanager
def uvicorn_logs_into(target: logging.Logger) -> Iterator[None]:
    """While serving: uvicorn's loggers write to ``target`` only (Python's last-resort handler would
    print them, tracebacks included, on the console — where any client could flood it)."""
    handler = _IntoServeLog(target)
    logger = logging.getLogger("uvicorn")
    saved = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = saved


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


class Server(uvicorn.Server):
    """uvicorn with the lifecycle of the module docstring.

    :meth:`stop` is the first signal's work (also callable from another thread, for a server run off
    the main thread, which installs no signal handlers). ``on_cancelled(count, seconds)`` is told once
    when the stop deadline cancels ``count`` requests.
    """

    def __init__(
        self,
        config: uvicorn.Config,
        graceful_timeout_s: float,
        on_stop: Callable[[int], None] = lambda sig: None,
        on_cancelled: Callable[[int, float], None] = lambda count, seconds: None,
    ) -> None:
        super().__init__(config)
        self.graceful_timeout_s = graceful_timeout_s
        self._on_stop = on_stop
        self._on_cancelled = on_cancelled
        self._stop_at: float | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        originals = {sig: signal.signal(sig, self._signalled) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in originals.items():
                signal.signal(sig, handler)

    def _signalled(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit:
            os._exit(128 + sig)
        self.stop(sig)

    def stop(self, sig: int = 0) -> None:
        """Stop accepting; in-flight requests get until ``graceful_timeout_s`` from now."""
        if self._stop_at is None:
            self._stop_at = time.monotonic()
        self.should_exit = True
        self._on_stop(sig)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        started = self._stop_at if self._stop_at is not None else time.monotonic()
        left = max(0.0, started + self.graceful_timeout_s - time.monotonic())
        deadline = asyncio.get_running_loop().call_later(left, self._cancel_in_flight)
        try:
            await super().shutdown(sockets)
        finally:
            deadline.cancel()

    def _cancel_in_flight(self) -> None:
        """The stop deadline: cancel what still runs (each answers 503 JSON); leave soon even if one does not end."""
        tasks = [task for task in self.server_state.tasks if not task.done()]
        if tasks:
            self._on_cancelled(len(tasks), self.graceful_timeout_s)
            for task in tasks:
                task.cancel()
        asyncio.get_running_loop().call_later(FORCE_AFTER_CANCEL_S, self._force)

    def _force(self) -> None:
        self.force_exit = True  # uvicorn stops waiting for connections and tasks
        for connection in list(self.server_state.connections):
            transport = getattr(connection, "transport", None)
            if transport is not None:
                transport.abort()  # Python 3.12's Server.wait_closed waits for every connection


def build_server(
    state: ServeState,
    on_stop: Callable[[int], None] = lambda sig: None,
    on_cancelled: Callable[[int, float], None] = lambda count, seconds: None,
) -> Server:
    """The uvicorn server for ``state``: its app, its connection limits, the stop deadline."""
    options = state.options
    access_log = state.access_log
    limits = ConnectionLimits(
        idle_s=options.idle_timeout_s,
        header_s=options.header_timeout_s,
        body_s=options.body_timeout_s,
        log=lambda line: access_log.warning("%s", line),
    )
    config = uvicorn.Config(
        create_app(state),
        http=guarded_protocol(limits),
        ws="none",  # no WebSocket routes: an upgrade request is an ordinary request
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        timeout_graceful_shutdown=None,  # the deadline is Server.shutdown's (see the module docstring)
        log_config=None,
    )
    return Server(config, options.graceful_timeout_s, on_stop, on_cancelled)


def run_server(server: Server, sock: socket.socket, access_log: logging.Logger) -> None:
    """Serve on ``sock`` until :meth:`Server.stop` (or a signal); the socket is closed afterwards."""
    try:
        with uvicorn_logs_into(access_log):
            server.run(sockets=[sock])
    finally:
        sock.close()


def serve(
    state: ServeState,
    sock: socket.socket,
    on_stop: Callable[[int], None],
    on_cancelled: Callable[[int, float], None] = lambda count, seconds: None,
) -> None:
    """Serve on ``sock`` until a signal (see the module docstring); then the socket, the predictors and
    the log are closed."""
    try:
        run_server(build_server(state, on_stop, on_cancelled), sock, state.access_log)
    finally:
        state.predictor.close()
        close_logger(state.access_log)
