"""Serving an exported model over HTTP, and measuring it: ``paddle-workbench serve`` and ``loadtest``.

The server is FastAPI on uvicorn (the optional extra ``serve``; PaddleX's own serving uses the same
stack). It loads an export whose sha256 manifest verifies, runs it with the Paddle Inference predictor
the comparison measures (:func:`workbench.inference.paths._predictor.open_predictor`), and feeds it
the preprocessing the run trained with (the function named by the export's ``preprocess.json``).

One idea per module:

- :mod:`.source`: which export a ``RUN_OR_EXPORT`` argument names, verified; bad input → messages.
- :mod:`.preprocess`: request bodies (base64 images or arrays) → one input batch.
- :mod:`.predictor`: the guard that keeps concurrent requests apart (a pool of predictors or a lock).
- :mod:`.auth`: the bearer token (generated 0600 in the workspace, or from the environment).
- :mod:`.ratelimit`: a token bucket per client address (one for requests, one for failed authentications).
- :mod:`.telemetry`: request counts and the latency histogram in Prometheus text.
- :mod:`.app`: the ASGI application (FastAPI routes plus the body-size and access-log middleware).
- :mod:`.protocol`: uvicorn's HTTP/1.1 connection with idle, header and body time limits.
- :mod:`.server`: uvicorn with the lifecycle (first signal drains until the stop timeout, second exits at once).
- :mod:`.loadtest`: the bounded load generator (httpx) and its report.

Nothing here imports Paddle at module level; only :mod:`.app`, :mod:`.protocol`, :mod:`.server` and
:mod:`.loadtest` import the extra's packages, and the commands check for them first (:func:`missing_modules`).
"""

from __future__ import annotations

import importlib.util

SERVE_FIX = "pip install 'paddle-workbench[serve]'"
SERVE_MODULES = ("fastapi", "uvicorn", "httpx")
LOADTEST_MODULES = ("httpx",)


def missing_modules(modules: tuple[str, ...] = SERVE_MODULES) -> list[str]:
    """The extra's modules this interpreter cannot import (empty: the extra is installed)."""
    missing = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a module blocked in sys.modules, a broken install
            found = False
        if not found:
            missing.append(name)
    return missing
