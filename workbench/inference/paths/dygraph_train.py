"""Dygraph left in train mode: the classic pitfall, run on purpose so its difference is shown.

Dropout drops and BatchNorm normalises with the batch's own statistics — and every train-mode forward
moves BatchNorm's running statistics, even under ``no_grad``. The path snapshots the weights first,
records which statistics moved after the first forward (evidence for the detector), and restores the
weights when closed so the other paths see the checkpoint's values.
"""

from __future__ import annotations

import numpy as np

from workbench.inference.paths import PATHS, Array, ComparePath, PathContext, Runner, first_output

_STAT_SUFFIXES = ("_mean", "_variance")


def _open(ctx: PathContext) -> Runner:
    paddle, model = ctx.paddle, ctx.model
    before = {k: np.array(v.numpy(), copy=True) for k, v in model.state_dict().items()}
    calls = [0]

    def call(batch: Array) -> Array:
        model.train()
        try:
            with paddle.no_grad():
                out = first_output(model(paddle.to_tensor(batch))).numpy()
        finally:
            model.eval()
        calls[0] += 1
        if calls[0] == 1:
            moved: dict[str, float] = {}
            for name, value in model.state_dict().items():
                if name.endswith(_STAT_SUFFIXES) and name in before:
                    delta = float(np.abs(value.numpy() - before[name]).max()) if value.size else 0.0
                    if delta > 0:
                        moved[name] = delta
            ctx.notes["bn_stats_moved"] = moved
        return np.asarray(out)

    def close() -> None:
        model.set_state_dict({k: paddle.to_tensor(v) for k, v in before.items()})
        model.eval()

    return Runner(call, close)


PATHS.register(
    "dygraph_train",
    ComparePath(order=10, label_key="inference.path.dygraph_train", open=_open, deliberate=True),
)
