"""``verify.yaml``: what a release must show — the devices it targets and how close is close enough.

A file with a top-level ``targets:`` list is a verify config (``paddle-workbench validate`` accepts it);
every key is optional, so ``paddle-workbench verify`` without a file checks the defaults below.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Tolerances(BaseModel):
    """Largest differences a release accepts (``null``: take the report's own verdict)."""

    model_config = ConfigDict(extra="forbid")

    parity_loss_abs: float | None = Field(default=None, ge=0)
    """Parallel vs. baseline loss, largest absolute difference (``plan parity`` report)."""
    inference_abs: float | None = Field(default=None, ge=0)
    """Exported model vs. training model output, largest absolute difference (``compare`` report)."""


class VerifyConfig(BaseModel):
    """The release checklist's settings."""

    model_config = ConfigDict(extra="forbid")

    targets: list[str] = Field(default_factory=lambda: ["cpu"])
    """Devices the release must run on; each needs a passing row in the compatibility matrix. A row's
    hardware starts with the device kind (``cpu: Intel …``, ``gpu: NVIDIA H200``); a target matches a
    row when the row's hardware starts with it (``cpu``, ``gpu``, ``gpu: NVIDIA H200``)."""
    tolerances: Tolerances = Field(default_factory=Tolerances)
    baseline: str | None = None
    """The baseline run (id, prefix or folder); default: the pinned one, else the newest finished
    single-card training run of the model (:mod:`workbench.baseline`)."""
    strict: bool = False
    """Count items without evidence ("not run") as failures — for a release pipeline."""
