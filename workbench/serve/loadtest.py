"""A bounded load generator on one kept httpx client: ``concurrency`` threads share its connection pool.

Bounded twice: at most ``requests`` requests and at most ``duration_s`` seconds (whichever comes first;
each request also has a timeout), so a load test always ends. Only loopback targets unless
``allow_remote``: a load test is a small denial of service, and this one is for your own server.

The payload is taken from the server: ``GET /model`` gives the input spec, and each request sends one
item of zeros of that shape as an array (or the images given). The result has throughput, latency
percentiles (p50/p90/p99, over successful requests), errors by status (``0``: no answer — a timeout or
a refused connection) and the server's model document; :func:`write_report` stores it in the run's
``reports/`` and :func:`matrix_row` makes the compatibility-matrix row.
"""

from __future__ import annotations

import base64
import json
import logging
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from workbench.i18n import t
from workbench.runs import RunStore, atomic_write_text
from workbench.serve.sockets import is_loopback_host


class LoadtestInputError(Exception):
    """Bad input for ``loadtest`` (exit code 2): every problem, each with its fix."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass
class LoadtestResult:
    url: str
    concurrency: int
    requested: int
    duration_limit_s: float
    sent: int = 0
    ok: int = 0
    elapsed_s: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    model: dict[str, Any] = field(default_factory=dict)

    @property
    def throughput_rps(self) -> float:
        return self.ok / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def percentile(self, q: float) -> float | None:
        if not self.latencies_ms:
            return None
        ordered = sorted(self.latencies_ms)
        index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
        return ordered[index]

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "concurrency": self.concurrency,
            "requests": self.requested,
            "duration_limit_s": self.duration_limit_s,
            "sent": self.sent,
            "succeeded": self.ok,
            "ok": not self.errors and self.ok > 0,
            "elapsed_s": round(self.elapsed_s, 3),
            "throughput_rps": round(self.throughput_rps, 2),
            "latency_ms": {
                "p50": self.percentile(50),
                "p90": self.percentile(90),
                "p99": self.percentile(99),
                "min": min(self.latencies_ms) if self.latencies_ms else None,
                "max": max(self.latencies_ms) if self.latencies_ms else None,
            },
            "errors": dict(sorted(self.errors.items())),
            "model": self.model,
        }


def check_target(url: str, allow_remote: bool) -> list[str]:
    """Problems with ``url`` as a target (empty: fine)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return [t("loadtest.input.bad_url", url=url)]
    if not allow_remote and not is_loopback_host(parts.hostname):
        return [t("loadtest.input.remote", host=parts.hostname)]
    return []


def _zeros(spec: Sequence[Any]) -> list[Any]:
    shape = [1 if d is None else int(d) for d in list(spec)[1:]]
    value: Any = 0.0
    for dim in reversed(shape):
        value = [value] * dim
    return [value]


def build_payload(model: dict[str, Any], images: Sequence[Path]) -> bytes:
    """One request body: the given images (base64), else one array of zeros shaped like the input."""
    if images:
        return json.dumps(
            {"images": [base64.b64encode(p.read_bytes()).decode("ascii") for p in images]}
        ).encode()
    spec = (model.get("input_spec") or [{}])[0]
    return json.dumps({"arrays": _zeros(spec.get("shape") or [None])}).encode()


def run_loadtest(
    url: str,
    *,
    token: str,
    concurrency: int,
    requests: int,
    duration_s: float,
    images: Sequence[Path] = (),
    timeout_s: float = 30.0,
    progress: Callable[[int, int], None] | None = None,
) -> LoadtestResult:
    """Send up to ``requests`` ``POST /predict`` from ``concurrency`` threads for at most ``duration_s``."""
    # httpx logs every request at INFO; where the root logger is configured (Paddle does so on import)
    # a load test would print thousands of lines.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    base = url.rstrip("/")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    result = LoadtestResult(base, concurrency, requests, duration_s)
    # TCP_NODELAY: httpx writes the headers and the body separately; with Nagle's algorithm the body
    # waits for the server's delayed ACK (~40 ms on Linux), which would be measured as latency.
    transport = httpx.HTTPTransport(
        limits=limits, socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    )
    with httpx.Client(headers=headers, timeout=timeout_s, transport=transport) as client:
        try:
            info = client.get(f"{base}/model")
        except httpx.HTTPError as exc:
            raise LoadtestInputError(
                [t("loadtest.input.unreachable", url=base, error=type(exc).__name__)]
            ) from None
        if info.status_code != 200:
            raise LoadtestInputError([t("loadtest.input.model_status", url=base, status=info.status_code)])
        result.model = info.json()
        payload = build_payload(result.model, images)
        lock = threading.Lock()
        counter = [0]
        errors: Counter[str] = Counter()
        latencies: list[float] = []
        start = time.perf_counter()
        deadline = start + duration_s

        def worker() -> None:
            while True:
                with lock:
                    if counter[0] >= requests or time.perf_counter() >= deadline:
                        return
                    counter[0] += 1
                t0 = time.perf_counter()
                try:
                    response = client.post(f"{base}/predict", content=payload)
                    status = response.status_code
                except httpx.HTTPError:
                    status = 0
                took = (time.perf_counter() - t0) * 1000
                with lock:
                    if status == 200:
                        latencies.append(took)
                    else:
                        errors[str(status)] += 1
                    done = len(latencies) + sum(errors.values())
                if progress is not None:
                    progress(done, requests)

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(concurrency)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(duration_s + timeout_s + 5)
        result.elapsed_s = time.perf_counter() - start
        with lock:
            result.sent = counter[0]
            result.latencies_ms = list(latencies)
            result.ok = len(latencies)
            result.errors = dict(errors)
    return result


def write_report(result: LoadtestResult, reports_dir: Path) -> tuple[Path, Path]:
    """``loadtest-<time>-c<C>.json`` and ``.md`` in ``reports_dir``."""
    reports_dir.mkdir(parents=True, exist_ok=True)
    stem = f"loadtest-{time.strftime('%Y%m%d-%H%M%S')}-c{result.concurrency}"
    doc = result.to_dict()
    json_path = reports_dir / f"{stem}.json"
    atomic_write_text(json_path, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    lat = doc["latency_ms"]

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    lines = [
        f"# {t('loadtest.report.title', model=str(result.model.get('name', '?')))}",
        "",
        f"- URL: {result.url}",
        f"- {t('loadtest.report.load', concurrency=result.concurrency, sent=result.sent, ok=result.ok)}",
        f"- {t('loadtest.report.throughput', rps=f'{result.throughput_rps:.1f}', seconds=f'{result.elapsed_s:.2f}')}",
        f"- p50 / p90 / p99: {ms(lat['p50'])} / {ms(lat['p90'])} / {ms(lat['p99'])} ms",
        f"- {t('loadtest.report.errors')}: {json.dumps(doc['errors']) if doc['errors'] else '0'}",
        "",
    ]
    md_path = reports_dir / f"{stem}.md"
    atomic_write_text(md_path, "\n".join(lines))
    return json_path, md_path


def matrix_row(result: LoadtestResult, hardware: str) -> dict[str, Any]:
    """The compatibility-matrix row: serving latency (p50, p99) and throughput on this hardware."""
    model = result.model
    return {
        "hardware": hardware,
        "model": model.get("model") or model.get("name"),
        "paddle_version": model.get("paddle_version"),
        "path": f"serve:{model.get('guard', '?')}x{model.get('workers', '?')}:c{result.concurrency}",
        "status": "ok" if not result.errors and result.ok else "errors",
        "max_diff": None,
        "latency_ms": result.percentile(50),
        "p99_ms": result.percentile(99),
        "throughput_rps": round(result.throughput_rps, 2),
        "run_id": model.get("run_id"),
        "step": model.get("step"),
        "time": time.time(),
    }


def record_result(result: LoadtestResult, store: RunStore) -> dict[str, Any]:
    """Report into the served run's ``reports/`` (else the workspace's) and a matrix row; the paths and row."""
    from workbench.inference.matrix import append_rows, hardware_label

    run_id = str(result.model.get("run_id") or "")
    run_dir = store.resolve(run_id) if run_id else None
    reports = (run_dir if run_dir is not None else store.workspace) / "reports"
    json_path, md_path = write_report(result, reports)
    row = append_rows(store.workspace, [matrix_row(result, hardware_label("cpu"))])[0]
    return {"reports": {"json": str(json_path), "markdown": str(md_path)}, "matrix_row": row}


def latency_histogram(latencies_ms: Sequence[float], bins: int = 12) -> list[tuple[float, float, int]]:
    """``(low_ms, high_ms, count)`` over equal-width bins from the fastest to the slowest request."""
    if not latencies_ms:
        return []
    low, high = min(latencies_ms), max(latencies_ms)
    if high <= low:
        return [(low, high, len(latencies_ms))]
    width = (high - low) / bins
    counts = [0] * bins
    for value in latencies_ms:
        counts[min(bins - 1, int((value - low) / width))] += 1
    return [(low + i * width, low + (i + 1) * width, counts[i]) for i in range(bins)]
