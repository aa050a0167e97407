"""``paddle.jit.load`` of the export: the same program Paddle Inference reads, run by the dygraph executor."""

from __future__ import annotations

import numpy as np

from workbench.inference.paths import PATHS, Array, ComparePath, PathContext, Runner, first_output


def _open(ctx: PathContext) -> Runner:
    paddle = ctx.paddle
    layer = paddle.jit.load(str(ctx.prefix))
    layer.eval()

    def call(batch: Array) -> Array:
        with paddle.no_grad():
            return np.asarray(first_output(layer(paddle.to_tensor(batch))).numpy())

    return Runner(call)


PATHS.register("jit_load", ComparePath(order=20, label_key="inference.path.jit_load", open=_open))
