"""Seeds and RNG state: what makes a CPU rerun bit-identical and a resume continue bit-identically.

Bitwise-reproducible CPU runs need ``paddle.seed`` + ``numpy.random.seed`` + ``random.seed``; a resumed
run is identical only if the generators' *states* are saved with the checkpoint and restored after the
model is rebuilt (docs/paddle-notes.md, "Checkpoints and reproducibility"). The training data order does not
depend on these generators at all
(see :mod:`workbench.training.sampler`), so an evaluation or a checkpoint never shifts it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from workbench.training.runtime import cuda_available


def seed_record(seed: int) -> dict[str, int]:
    """The seeds a run uses, as recorded in ``run.yaml``."""
    return {"paddle": seed, "numpy": seed, "random": seed}


def seed_everything(seed: int, paddle: Any | None = None) -> dict[str, int]:
    """Seed Python's ``random``, numpy's global generator and Paddle (when given); return the record."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    if paddle is not None:
        paddle.seed(seed)
    return seed_record(seed)


def capture_rng_state(paddle: Any | None = None) -> dict[str, Any]:
    """A picklable snapshot of every generator a training step may draw from."""
    state: dict[str, Any] = {"random": random.getstate(), "numpy": np.random.get_state()}
    if paddle is not None:
        state["paddle"] = paddle.get_rng_state()
        if cuda_available(paddle):
            state["paddle_cuda"] = paddle.get_cuda_rng_state()
    return state


def restore_rng_state(state: dict[str, Any], paddle: Any | None = None) -> None:
    """Put back a snapshot taken by :func:`capture_rng_state`."""
    random.setstate(state["random"])
    np.random.set_state(state["numpy"])
    if paddle is not None and "paddle" in state:
        paddle.set_rng_state(state["paddle"])
        if "paddle_cuda" in state and cuda_available(paddle):
            paddle.set_cuda_rng_state(state["paddle_cuda"])
