"""Run a probe in a child process with a hard time limit, so a hang or a segfault is a fact, not our crash.

Anything that touches Paddle or the GPU stack can hang (a wedged driver) or die (a bad ``.so``), so it runs
as ``[python, "-c", code]`` (never through a shell), in its own session so a time-out kills the whole
process tree (``paddle.distributed.spawn`` children included). The child reports one JSON document on a
line that starts with :data:`MARKER`; everything else it prints (Paddle's banners, glog) is kept only
as a tail for the error message.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.i18n import t

MARKER = "@@paddle-workbench-facts@@"
POLL_S = 0.1
TAIL_LINES = 12

# Set for every probe child: quiet glog (it writes to fd 2 before Python can stop it) and keep Python's
# own output unbuffered and UTF-8 so a child killed at its time-out still leaves readable text.
PROBE_ENV: dict[str, str] = {
    "GLOG_minloglevel": "2",
    "PYTHONUNBUFFERED": "1",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}


class ProbeError(Exception):
    """The probe itself could not produce facts (crash, unreadable output); the message says why."""


class ProbeTimeout(ProbeError):
    """The probe ran past its limit and was killed."""

    def __init__(self, seconds: float, output_tail: str = "") -> None:
        self.seconds = seconds
        self.output_tail = output_tail
        super().__init__(t("envcheck.timed_out", seconds=format_seconds(seconds)))


class ProbeCancelled(ProbeError):
    """The check was cancelled while the probe ran; its child was killed."""


def format_seconds(seconds: float) -> str:
    """``1.0`` → ``"1"``, ``2.5`` → ``"2.5"``: how time-outs read in messages."""
    return f"{seconds:.1f}".rstrip("0").rstrip(".")


def describe_exit(code: int) -> str:
    """``-11`` → ``killed by signal SIGSEGV``; ``3`` → ``exit code 3`` (translated)."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return t("envcheck.exit.signal", signal=name)
    return t("envcheck.exit.code", code=code)


def child_env(base: Mapping[str, str]) -> dict[str, str]:
    """The environment of a probe child: the user's (``base``) plus :data:`PROBE_ENV`."""
    env = dict(base)
    env.update(PROBE_ENV)
    return env


def tail(text: str, lines: int = TAIL_LINES) -> str:
    """The last ``lines`` non-empty lines of ``text``: enough context for an error, never a wall."""
    kept = [line.rstrip() for line in text.splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def _kill_tree(proc: subprocess.Popen[str]) -> None:
    """Kill the child and everything it started (it leads its own session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, OSError):
        proc.kill()


def run_command(
    argv: Sequence[str],
    *,
    timeout_s: float,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
) -> tuple[int, str, str]:
    """Run ``argv`` to completion within ``timeout_s``; return ``(returncode, stdout, stderr)``.

    Raises :class:`ProbeTimeout` when the limit passes and :class:`ProbeCancelled` when ``cancel`` is set;
    in both cases the whole process tree is killed first. ``FileNotFoundError`` propagates (the caller
    decides whether a missing tool is a fact or an error).
    """
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=dict(env) if env is not None else None,
        cwd=cwd,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout_s
    while True:
        remaining = deadline - time.monotonic()
        try:
            # Popen keeps partial output between communicate() calls, so polling loses nothing.
            out, err = proc.communicate(timeout=max(0.0, min(POLL_S, remaining)))
        except subprocess.TimeoutExpired:
            if cancel is not None and cancel.is_set():
                _kill_tree(proc)
                proc.communicate()
                raise ProbeCancelled(t("envcheck.cancelled")) from None
            if time.monotonic() >= deadline:
                _kill_tree(proc)
                out, err = proc.communicate()
                raise ProbeTimeout(timeout_s, tail((out or "") + (err or ""))) from None
            continue
        return proc.returncode, out or "", err or ""


def parse_marked(stdout: str) -> dict[str, Any] | None:
    """The JSON document on the last :data:`MARKER` line of ``stdout``, or ``None``."""
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARKER):
            try:
                document = json.loads(line[len(MARKER) :])
            except json.JSONDecodeError:
                return None
            return document if isinstance(document, dict) else None
    return None


def run_python(
    code: str,
    *,
    python: str,
    env: Mapping[str, str],
    timeout_s: float,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
) -> dict[str, Any]:
    """Run probe ``code`` in ``python`` and return the document it printed after :data:`MARKER`.

    A child that crashes, exits non-zero without a document, or prints none raises :class:`ProbeError`
    with how it ended and the tail of its output.
    """
    returncode, stdout, stderr = run_command(
        [python, "-c", code], timeout_s=timeout_s, env=child_env(env), cwd=cwd, cancel=cancel
    )
    document = parse_marked(stdout)
    if document is not None:
        return document
    output = tail(stderr) or tail(stdout)
    reason = describe_exit(returncode) if returncode != 0 else t("envcheck.no_output")
    raise ProbeError(f"{reason}\n{output}".strip())
