"""Paddle Inference predictor, IR optimisation on (the precision-tracing guide's order)."""

from __future__ import annotations

from workbench.inference.paths import PATHS, ComparePath, PathContext, Runner
from workbench.inference.paths._predictor import open_predictor


def _open(ctx: PathContext) -> Runner:
    return open_predictor(ctx, ir_optim=True, memory_optim=False)


PATHS.register(
    "predictor_ir_on", ComparePath(order=40, label_key="inference.path.predictor_ir_on", open=_open)
)
