"""``state.json``'s fields as readers trust them, validated with pydantic.

Kept apart from :mod:`workbench.runs` so that listing runs is the only thing that loads pydantic for
them: the run store itself is on the TUI's start path, before its first frame, and
:func:`workbench.runs.read_state` imports this module when it first reads a state file.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

LAST_TIMESTAMP = 253402300799.0  # 9999-12-31: what time.localtime can still format


class RunState(BaseModel):
    """``state.json`` as readers trust it: each field checked on its own, a bad one dropped (see
    :func:`workbench.runs.read_state`), unknown fields kept for forward compatibility."""

    model_config = ConfigDict(extra="allow", allow_inf_nan=False)

    status: str | None = Field(default=None, pattern=r"^(running|finished|failed|cancelled|interrupted)$")
    name: str | None = None
    kind: str | None = None
    started: float | None = Field(default=None, ge=0, le=LAST_TIMESTAMP)
    ended: float | None = Field(default=None, ge=0, le=LAST_TIMESTAMP)
    updated: float | None = Field(default=None, ge=0, le=LAST_TIMESTAMP)
    last_step: int | None = Field(default=None, ge=-1)
    pid: int | None = Field(default=None, ge=0)
    pid_started: float | None = Field(default=None, ge=0, le=LAST_TIMESTAMP)
    error: str | None = None
