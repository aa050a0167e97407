"""Serve a run, load-test it, stop it: the whole measurement in one call (what the compare screen runs).

The server is the real command in a child process (``python -m workbench serve RUN --port 0``): its own
signal handling and event loop stay out of the caller's process (a TUI has both). The URL is read from
its output (bounded by ``start_timeout_s``); a server that exits first is bad input with its own
message. Then :func:`~workbench.serve.loadtest.run_loadtest` (bounded in count and time), the report
and matrix row, and SIGTERM — the server finishes in-flight requests and exits 0; if it does not within
``stop_timeout_s`` it is killed. Call it from a worker thread: it takes seconds.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.i18n import t
from workbench.runs import RunStore
from workbench.serve.auth import read_token
from workbench.serve.loadtest import LoadtestInputError, latency_histogram, record_result, run_loadtest

_URL = re.compile(r"https?://[0-9A-Za-z.\-\[\]:]+")

Progress = Callable[[str], None]


@dataclass
class SessionResult:
    doc: dict[str, Any]
    """The load-test document (as ``loadtest --json``) with ``reports`` and ``matrix_row``."""
    histogram: list[tuple[float, float, int]] = field(default_factory=list)
    server_exit: int | None = None


def serve_and_loadtest(
    workspace: Path,
    run_ref: str,
    *,
    concurrency: int = 4,
    requests: int = 200,
    duration_s: float = 30.0,
    start_timeout_s: float = 180.0,
    stop_timeout_s: float = 60.0,
    progress: Progress | None = None,
) -> SessionResult:
    """Start ``serve`` for ``run_ref``, load-test it, stop it; :class:`LoadtestInputError` on bad input."""
    say = progress or (lambda text: None)
    say(t("serve.session.starting", run=Path(run_ref).name))
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "--workspace", str(workspace), "serve", run_ref, "--port", "0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, name="serve-output", daemon=True).start()
    try:
        url = _wait_for_url(proc, lines, start_timeout_s)
        token = read_token(workspace)
        if token is None:
            raise LoadtestInputError([t("serve.session.no_token")])
        say(t("serve.session.loading", url=url, concurrency=concurrency, requests=requests))
        result = run_loadtest(
            url,
            token=token,
            concurrency=concurrency,
            requests=requests,
            duration_s=duration_s,
            progress=lambda done, total: (
                say(t("serve.session.progress", done=done, total=total)) if done % 25 == 0 else None
            ),
        )
        doc = result.to_dict()
        doc.update(record_result(result, RunStore(workspace)))
        histogram = latency_histogram(result.latencies_ms)
    finally:
        exit_code = _stop(proc, stop_timeout_s)
    return SessionResult(doc, histogram, exit_code)


def _wait_for_url(proc: subprocess.Popen[str], lines: queue.Queue[str | None], timeout_s: float) -> str:
    seen: list[str] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            continue
        if line is None:  # the server ended before serving: its own message says why
            proc.wait(timeout=10)
            raise LoadtestInputError(
                [s.rstrip() for s in seen[-10:] if s.strip()] or [t("serve.session.exited")]
            )
        seen.append(line)
        match = _URL.search(line)
        if match and ("127.0.0.1" in line or "[::1]" in line or "localhost" in line):
            return match.group(0).rstrip(".,;)")
    raise LoadtestInputError([t("serve.session.start_timeout", seconds=int(timeout_s))])


def _stop(proc: subprocess.Popen[str], timeout_s: float) -> int | None:
    if proc.poll() is not None:
        return proc.returncode
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait(timeout=10)
