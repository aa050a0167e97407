"""The settings of one server (pydantic, so a bad value is reported like any other config problem).

Defaults are the safe ones: loopback only, a bearer token always, a per-client rate limit and a
stricter one for failed authentications, a small body limit, and time limits on every phase of a
connection (idle, headers, body), so a slow or silent client cannot hold a connection open. ``workers`` is the number of predictors: 1 (the default) is one predictor behind a lock, more is
a pool of that many predictors on owner threads. ``guard`` overrides that choice (for measuring).

Why one predictor behind a lock by default: ``benchmarks/serve_pool.py`` on the demo export (2 shared
CPU cores) measured the lock faster at every concurrency — 2305 vs 1657 calls/s at 4 threads — and so
did the whole server (``benchmarks/serve_load.py``: 323 vs 178 requests/s at concurrency 4). A small
model runs in well under a millisecond, so handing work to another thread costs more than it saves. A
larger model on more cores may favour ``--workers N`` (not measured here); the same scripts measure it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from workbench.serve.predictor import Guard

DEFAULT_PORT = 8866


class ServeOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(DEFAULT_PORT, ge=0, le=65535)
    """``0``: any free port (the one chosen is printed)."""
    workers: int = Field(1, ge=1, le=64)
    guard: Guard | None = None
    """``None``: ``lock`` for one worker, ``pool`` for more."""
    max_batch: int = Field(32, ge=1, le=4096)
    max_body_bytes: int = Field(8 * 2**20, ge=1024, le=2**30)
    rate: float = Field(200.0, gt=0, le=1e6)
    """Requests per second per client, on average."""
    burst: int = Field(400, ge=1, le=10**7)
    """Requests a client may send at once before the rate applies."""
    graceful_timeout_s: float = Field(30.0, gt=0, le=3600)
    """After the first signal: how long in-flight requests may take before they are cancelled (each
    cancelled request is answered 503 JSON)."""
    header_timeout_s: float = Field(10.0, gt=0, le=3600)
    """From the connection (or the end of the previous response) until the request's headers are
    complete; a client that sends them more slowly (slowloris) gets 408 and the connection is closed."""
    body_timeout_s: float = Field(30.0, gt=0, le=3600)
    """From the end of the headers until the whole body has arrived; slower: 408, connection closed."""
    idle_timeout_s: float = Field(5.0, gt=0, le=3600)
    """Keep-alive: how long a connection may stay open with no request on it (also a new connection
    that sends nothing); then it is closed."""
    auth_failure_burst: int = Field(10, ge=1, le=10**6)
    """Failed authentications (missing or wrong token) a client may make before it is refused with 429.
    Counted per client address, apart from ``rate``: another address is never locked out."""
    auth_failure_rate: float = Field(0.1, gt=0, le=1e6)
    """Failed authentications per second a client regains afterwards (0.1: one more every 10 s). While
    its allowance is spent, every request of that client to a guarded route is 429, whatever its token."""

    allow_drift: bool = False
    """Serve an export that is stale or drifted (:func:`workbench.serve.source.export_drift`) instead of
    refusing it; every start then says so on the console and in ``serve.log``."""

    @property
    def chosen_guard(self) -> Guard:
        if self.guard is not None:
            return self.guard
        return "lock" if self.workers == 1 else "pool"
