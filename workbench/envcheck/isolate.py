"""The environment doctor's probes run through :mod:`workbench.isolate` (one way to run a fragile child).

Anything that touches Paddle or the GPU stack can hang (a wedged driver) or die (a bad ``.so``), so each
probe runs as ``[python, "-c", code]`` in its own session with a hard time limit; a time-out, a cancel
or the probe's own end kills its whole process group (``paddle.distributed.spawn`` children included).
The names here are the envcheck vocabulary for the same classes and functions.
"""

from __future__ import annotations

from workbench.isolate import (
    CHILD_ENV,
    MARKER,
    POLL_S,
    TAIL_LINES,
    ChildCancelled,
    ChildError,
    ChildTimeout,
    child_env,
    describe_exit,
    format_seconds,
    parse_marked,
    run_command,
    run_python,
    tail,
)

PROBE_ENV = CHILD_ENV
ProbeError = ChildError
"""The probe itself could not produce facts (crash, unreadable output); the message says why."""
ProbeTimeout = ChildTimeout
"""The probe ran past its limit and was killed."""
ProbeCancelled = ChildCancelled
"""The check was cancelled while the probe ran; its child was killed."""

__all__ = [
    "MARKER",
    "POLL_S",
    "PROBE_ENV",
    "TAIL_LINES",
    "ProbeCancelled",
    "ProbeError",
    "ProbeTimeout",
    "child_env",
    "describe_exit",
    "format_seconds",
    "parse_marked",
    "run_command",
    "run_python",
    "tail",
]
