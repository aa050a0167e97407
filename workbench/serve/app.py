"""The ASGI application: FastAPI routes inside one outer middleware that does what every request needs.

The outer middleware (pure ASGI, so it runs before any body is read) gives each request an id, refuses a
declared body over the limit (413), refuses a client that has spent its allowance of failed
authentications (429 with ``Retry-After``, before its token is even compared, so guessing stays slow),
checks the bearer token (401, drawn from that allowance; only ``GET /healthz`` is open), takes a token
from the client's rate bucket (429 with ``Retry-After``), counts the body as it arrives (413 when it
grows past the limit without declaring it) and times it (408 when it is not all there within
``body_timeout_s``), turns any unexpected exception into a 500 JSON error and a request cancelled by the
stop timeout into a 503 JSON error (never a traceback, never uvicorn's plain-text 500), and writes the
access line (request id, client, method, path, status, latency — never a header, so never the token) to
the run's ``serve.log`` and the metrics. What happens before a request reaches the app (idle and
header timeouts, malformed requests) is :mod:`workbench.serve.protocol`'s.

Routes: ``POST /predict`` (``{"images": [base64, ...]}`` or ``{"arrays": [nested lists, ...]}``, up to
``max_batch`` items; one prediction per item), ``GET /healthz``, ``GET /metrics`` (Prometheus text),
``GET /model`` (name, input spec, Paddle version, preprocessing identity).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from workbench.i18n import t
from workbench.serve.auth import Token
from workbench.serve.options import ServeOptions
from workbench.serve.predictor import GuardedPredictor
from workbench.serve.preprocess import Preprocessor, RequestInvalid
from workbench.serve.ratelimit import RateLimiter, client_key, retry_after_header
from workbench.serve.source import ServedExport
from workbench.serve.telemetry import CONTENT_TYPE, Telemetry

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

OPEN_PATHS = frozenset({"/healthz"})
ROUTES = frozenset({"/predict", "/healthz", "/metrics", "/model"})
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


@dataclass
class ServeState:
    """What the routes share: the model, its preprocessing, the guards and the counters."""

    export: ServedExport
    preprocessor: Preprocessor
    predictor: GuardedPredictor
    token: Token
    options: ServeOptions
    paddle_version: str
    access_log: logging.Logger
    limiter: RateLimiter = field(init=False)
    auth_limiter: RateLimiter = field(init=False)
    """Failed authentications per client (see :class:`Guardian`)."""
    telemetry: Telemetry = field(default_factory=Telemetry)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.options.rate, self.options.burst)
        self.auth_limiter = RateLimiter(self.options.auth_failure_rate, self.options.auth_failure_burst)

    def model_doc(self) -> dict[str, Any]:
        manifest = self.export.manifest
        return {
            "name": self.export.name,
            "model": self.export.model_label,
            "run_id": self.export.run_dir.name if self.export.run_dir is not None else None,
            "step": manifest.get("step"),
            "input_spec": self.export.input_spec,
            "paddle_version": self.paddle_version,
            "exported_with_paddle": manifest.get("paddle_version"),
            "preprocess": self.export.preprocess,
            "accepts": ["images", "arrays"] if self.preprocessor.image_fn is not None else ["arrays"],
            "max_batch": self.options.max_batch,
            "max_body_bytes": self.options.max_body_bytes,
            "guard": self.predictor.guard,
            "workers": self.predictor.size,
        }


class BodyRefused(Exception):
    """The body cannot be read to the end: answered ``status`` with ``message``, and the connection closed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BodyTooLarge(BodyRefused):
    """The body grew past the limit while it was read."""

    status = 413


class BodyTimeout(BodyRefused):
    """The body did not arrive within ``body_timeout_s`` of the headers."""

    status = 408


def _printable(text: str) -> str:
    """``text`` with control characters and quotes escaped: a request cannot forge a log line."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _json(status: int, error: str, request_id: str, close: bool = False, **extra: Any) -> JSONResponse:
    """The error document; ``close``: the connection ends after it (its unread body is abandoned)."""
    response = JSONResponse({"error": error, "request_id": request_id, **extra}, status_code=status)
    if close:
        response.headers["Connection"] = "close"
    return response


def _outputs(output: np.ndarray[Any, Any]) -> list[dict[str, Any]]:
    items = []
    for row in output:
        if row.ndim == 1:
            items.append({"top1": int(np.argmax(row)), "scores": [float(v) for v in row]})
        else:
            items.append({"argmax": np.argmax(row, axis=-1).tolist(), "output": row.tolist()})
    return items


class Guardian:
    """The outer middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp, state: ServeState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = self.state
        start = time.perf_counter()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        given_id = headers.get("x-request-id", "")
        request_id = given_id if _REQUEST_ID.fullmatch(given_id) else uuid.uuid4().hex[:16]
        scope.setdefault("state", {})["request_id"] = request_id
        path = str(scope.get("path", ""))
        route = path if path in ROUTES else "other"
        client = str((scope.get("client") or ("?", 0))[0])
        status_box = [500]
        started = [False]

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                started[0] = True
                status_box[0] = int(message["status"])
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode("ascii"))]
            await send(message)

        received = [0]
        body_done = [False]
        limit = state.options.max_body_bytes
        body_deadline = asyncio.get_running_loop().time() + state.options.body_timeout_s

        async def receive_wrapper() -> Message:
            if body_done[0]:  # the body is in; what follows (a disconnect) is not timed
                return await receive()
            remaining = body_deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(remaining, 0.0))
            except asyncio.TimeoutError:
                raise BodyTimeout(
                    t("serve.request.body_timeout", seconds=f"{state.options.body_timeout_s:g}")
                ) from None
            if message["type"] == "http.request":
                received[0] += len(message.get("body", b""))
                if received[0] > limit:
                    raise BodyTooLarge(t("serve.request.too_large", limit=limit))
                body_done[0] = not message.get("more_body", False)
            else:
                body_done[0] = True
            return message

        state.telemetry.in_flight += 1
        try:
            early = self._refuse(headers, path, client, request_id)
            if early is not None:
                await early(scope, receive, send_wrapper)
            else:
                try:
                    await self.app(scope, receive_wrapper, send_wrapper)
                except BodyRefused as exc:
                    if not started[0]:
                        await _json(exc.status, exc.message, request_id, close=True)(
                            scope, receive, send_wrapper
                        )
                except asyncio.CancelledError:
                    # The stop timeout cancelled it (:mod:`workbench.serve.server`): the client gets a JSON
                    # 503 and the request ends here, so uvicorn logs no traceback and sends no plain text.
                    if not started[0]:
                        await _json(503, t("serve.request.cancelled"), request_id, close=True)(
                            scope, receive, send_wrapper
                        )
                except Exception as exc:  # noqa: BLE001 - a 500 with an id, never a traceback to the client
                    state.access_log.error("rid=%s internal error %s", request_id, type(exc).__name__)
                    if not started[0]:
                        await _json(500, t("serve.request.internal"), request_id)(
                            scope, receive, send_wrapper
                        )
        finally:
            state.telemetry.in_flight -= 1
            elapsed = time.perf_counter() - start
            state.telemetry.observe(route, status_box[0], elapsed)
            state.access_log.info(
                'rid=%s client=%s "%s %s" %d %.2fms',
                request_id, client, _printable(str(scope.get("method", "?"))[:16]), _printable(path[:200]),
                status_box[0], elapsed * 1000,
            )  # fmt: skip

    def _refuse(self, headers: dict[str, str], path: str, client: str, request_id: str) -> Response | None:
        """The early answer (413/429/401/429) for a request that must not reach a route, or ``None``.

        A client whose failed authentications are spent is refused before its token is compared: were a
        right token still served, a guesser would learn from the 200 at full speed. The allowance is per
        address (:func:`~workbench.serve.ratelimit.client_key`), so a guesser elsewhere never locks the
        token's holder out.
        """
        state = self.state
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > state.options.max_body_bytes:
            return _json(413, t("serve.request.too_large", limit=state.options.max_body_bytes), request_id)
        if path in OPEN_PATHS:
            return None
        key = client_key(client)
        wait = state.auth_limiter.wait(key)
        if wait > 0:
            return _too_many(t("serve.request.auth_limited"), request_id, wait)
        if not state.token.matches(headers.get("authorization")):
            wait = state.auth_limiter.take(key)
            if wait > 0:  # this failure is one too many
                return _too_many(t("serve.request.auth_limited"), request_id, wait)
            response = _json(401, t("serve.request.unauthorized"), request_id)
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        wait = state.limiter.take(key)
        if wait > 0:
            return _too_many(t("serve.request.rate_limited"), request_id, wait)
        return None


def _too_many(error: str, request_id: str, wait: float) -> Response:
    response = _json(429, error, request_id, retry_after_s=round(wait, 3))
    response.headers["Retry-After"] = retry_after_header(wait)
    return response


def create_app(state: ServeState) -> ASGIApp:
    """The FastAPI app wrapped in :class:`Guardian` (no docs or OpenAPI routes: nothing unasked for)."""
    api = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    @api.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @api.get("/model")
    async def model() -> dict[str, Any]:
        return state.model_doc()

    @api.get("/metrics")
    async def metrics() -> Response:
        return Response(state.telemetry.render(), media_type=CONTENT_TYPE)

    @api.post("/predict")
    async def predict(request: Request) -> Response:
        request_id = str(request.scope["state"]["request_id"])
        try:
            raw = await request.body()
        except BodyRefused as exc:  # too large without declaring it (chunked), or too slow
            return _json(exc.status, exc.message, request_id, close=True)
        try:
            body = json.loads(raw)
        except (ValueError, RecursionError):
            return _json(400, t("serve.request.bad_json"), request_id)
        try:
            batch = await run_in_threadpool(state.preprocessor.batch, body)
        except RequestInvalid as exc:
            return _json(400, str(exc), request_id)
        start = time.perf_counter()
        if state.predictor.guard == "pool":  # an owner thread runs it; this waits without a thread
            output = await asyncio.wrap_future(state.predictor.submit(batch))
        else:
            output = await run_in_threadpool(state.predictor.call, batch)
        elapsed_ms = (time.perf_counter() - start) * 1000
        return JSONResponse(
            {
                "request_id": request_id,
                "model": state.export.name,
                "batch": int(batch.shape[0]),
                "outputs": _outputs(np.asarray(output)),
                "inference_ms": round(elapsed_ms, 3),
            }
        )

    @api.exception_handler(404)
    async def not_found(request: Request, exc: Exception) -> Response:
        return _json(404, t("serve.request.not_found"), str(request.scope["state"]["request_id"]))

    @api.exception_handler(405)
    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _json(405, t("serve.request.not_allowed"), str(request.scope["state"]["request_id"]))

    @api.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        # Starlette's own answer here is a plain-text 500; this one is JSON with the id (the exception
        # is re-raised to :class:`Guardian`, which logs its type).
        return _json(500, t("serve.request.internal"), str(request.scope["state"]["request_id"]))

    return Guardian(api, state)
