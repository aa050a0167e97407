"""Paddle Inference predictor, IR optimisation off (the precision-tracing guide's order)."""

from __future__ import annotations

from workbench.inference.paths import PATHS, ComparePath, PathContext, Runner
from workbench.inference.paths._predictor import open_predictor


def _open(ctx: PathContext) -> Runner:
    return open_predictor(ctx, ir_optim=False, memory_optim=False)


PATHS.register(
    "predictor_ir_off", ComparePath(order=30, label_key="inference.path.predictor_ir_off", open=_open)
)
