"""The settings of one server (pydantic, so a bad value is reported like any other config problem).

Defaults are the safe ones: loopback only, a bearer token always, a per-client rate limit, a small body
limit. ``workers`` is the number of requests run on the model at once: with the ``pool`` guard, that
many predictors (each one CPU thread); with ``lock``, requests wait for the one predictor.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from workbench.serve.predictor import Guard

DEFAULT_PORT = 8866
DEFAULT_GUARD: Guard = "pool"
"""Measured faster than ``lock`` on the demo export (``benchmarks/serve_pool.py``; README, "Serve")."""


class ServeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(DEFAULT_PORT, ge=0, le=65535)
    """``0``: any free port (the one chosen is printed)."""
    workers: int = Field(2, ge=1, le=64)
    guard: Guard = DEFAULT_GUARD
    max_batch: int = Field(32, ge=1, le=4096)
    max_body_bytes: int = Field(8 * 2**20, ge=1024, le=2**30)
    rate: float = Field(200.0, gt=0, le=1e6)
    """Requests per second per client, on average."""
    burst: int = Field(400, ge=1, le=10**7)
    """Requests a client may send at once before the rate applies."""
    graceful_timeout_s: float = Field(30.0, gt=0, le=3600)
    """After the first signal: how long in-flight requests may take before they are cancelled."""
