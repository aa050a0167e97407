"""Paddle Inference predictor, IR and memory optimisation on (the precision-tracing guide's order)."""

from __future__ import annotations

from workbench.inference.paths import PATHS, ComparePath, PathContext, Runner
from workbench.inference.paths._predictor import open_predictor


def _open(ctx: PathContext) -> Runner:
    return open_predictor(ctx, ir_optim=True, memory_optim=True)


PATHS.register(
    "predictor_memory_optim",
    ComparePath(order=50, label_key="inference.path.predictor_memory_optim", open=_open),
)
